/**
 * One client session: current database, session and user variables, the statement loop. Each SQL text
 * is parsed, then each statement goes to its handler (fe/statements) with a fresh QueryProfile, which is
 * kept for SHOW QUERY PROFILE when the statement ends.
 */
import type { RawValue } from '../common/column';
import { GaleneError, toGaleneError } from '../common/errors';
import { QueryProfile } from '../common/profile';
import type { ResultColumn, StatementResult } from '../common/result';
import { DataType, Types } from '../common/types';
import type { ExecContext, TableSource } from '../exec/context';
import { INFORMATION_SCHEMA } from '../meta/catalog';
import type { TableSchema } from '../meta/schema';
import type { SessionHandler, SessionInfo } from '../protocol/backend';
import type { Statement } from '../sql/ast';
import { parseStatements } from '../sql/parser';
import type { Frontend } from './frontend';
import { findSessionVariable, variableRaw, variableType } from './session-variables';
import { STATEMENT_HANDLERS } from './statements';

export class Session implements SessionHandler {
  readonly connectionId: number;
  readonly user: string;
  readonly host: string;
  database: string | null;
  multiStatements = false;
  readonly variables = new Map<string, string | number | boolean>();
  readonly userVariables = new Map<string, { type: DataType; value: RawValue }>();
  lastInsertId = 0;

  constructor(
    readonly fe: Frontend,
    info: SessionInfo,
  ) {
    this.connectionId = info.connectionId;
    this.user = info.user;
    this.host = info.host;
    this.database = info.database;
  }

  get inTransaction(): boolean {
    return false;
  }

  async execute(sql: string): Promise<StatementResult[]> {
    const parseStart = performance.now();
    let statements: Statement[];
    try {
      statements = parseStatements(sql);
    } catch (err) {
      const profile = this.newProfile(sql);
      this.finishProfile(profile, err);
      throw err;
    }
    const parseMs = performance.now() - parseStart;
    if (statements.length > 1 && !this.multiStatements) throw new GaleneError('MULTI_STATEMENT_OFF');
    const results: StatementResult[] = [];
    for (const statement of statements) {
      const text = statements.length === 1 ? sql : sql.slice(statement.pos, statement.end);
      const profile = this.newProfile(text);
      profile.add('ParseTimeMs', parseMs / statements.length);
      try {
        results.push(await STATEMENT_HANDLERS[statement.kind](this, statement as never, text, profile));
        this.finishProfile(profile, null);
      } catch (err) {
        this.finishProfile(profile, err);
        throw err;
      }
    }
    return results;
  }

  newProfile(sql: string): QueryProfile {
    return new QueryProfile(this.fe.newQueryId(), sql, this.user, this.database ?? '');
  }

  private finishProfile(profile: QueryProfile, err: unknown): void {
    profile.endTime = Date.now();
    profile.state = err ? 'ERR' : 'OK';
    if (err) profile.errorMessage = toGaleneError(err).message;
    this.fe.recordProfile(profile);
  }

  async useDatabase(database: string): Promise<void> {
    if (database !== INFORMATION_SCHEMA) this.fe.catalog.getDatabase(database);
    this.database = database;
  }

  async fieldList(table: string): Promise<ResultColumn[]> {
    const schema = this.resolveTable(null, table);
    return schema.columns.map((column) => ({ name: column.name, type: column.type, table: schema.name, orgTable: schema.name, orgName: column.name, database: schema.databaseName, nullable: column.nullable }));
  }

  close(): void {
    this.fe.closeSession(this.connectionId);
  }

  /** The database a statement names, or the current one; throws NO_DATABASE_SELECTED. */
  requireDatabase(database: string | null): string {
    const name = database ?? this.database;
    if (name === null) throw new GaleneError('NO_DATABASE_SELECTED');
    return name;
  }

  resolveTable(database: string | null, name: string): TableSchema {
    return this.fe.catalog.getTable(this.requireDatabase(database), name).schema;
  }

  getVariable(name: string): string | number | boolean {
    const def = findSessionVariable(name);
    if (!def) throw new GaleneError('UNKNOWN_SYSTEM_VARIABLE', [name]);
    return this.variables.get(def.name) ?? this.fe.globalVariables.get(def.name) ?? def.defaultValue;
  }

  /** The ExecContext a statement's plan runs with. */
  execContext(profile: QueryProfile, parameters: ExecContext['parameters'] = []): ExecContext {
    return {
      profile,
      currentDatabase: this.database,
      parameters,
      sessionInfo: { user: `${this.user}@${this.host}`, host: this.host, connectionId: this.connectionId, version: this.fe.serverVersion },
      getTable: (database, name) => this.resolveTable(database, name),
      openTable: (schema): TableSource => this.fe.backend.openTable(this.fe.catalog.getTable(schema.databaseName, schema.name)),
      getSystemVariable: (name, scope) => {
        const def = findSessionVariable(name);
        if (!def) throw new GaleneError('UNKNOWN_SYSTEM_VARIABLE', [name]);
        const value = scope === 'global' ? (this.fe.globalVariables.get(def.name) ?? def.defaultValue) : this.getVariable(def.name);
        return { type: variableType(def), value: variableRaw(def, value) };
      },
      getUserVariable: (name) => this.userVariables.get(name.toLowerCase()) ?? { type: Types.NULL, value: null },
    };
  }
}
