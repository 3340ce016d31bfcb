/**
 * One client session: current database, session and user variables, prepared statements, the statement
 * loop. Each SQL text is parsed, then each statement goes to its handler (fe/statements) with a fresh
 * QueryProfile, which is kept for SHOW QUERY PROFILE when the statement ends and written to the FE audit
 * log (prepared-statement commands only when `enable_prepared_stmt_audit_log` is on).
 */
import type { RawValue } from '../common/column';
import { GaleneError, toGaleneError } from '../common/errors';
import { fileCacheQueryPolicy, QueryProfile, type FileCacheQueryPolicy } from '../common/profile';
import type { Batch } from '../common/column';
import { isStreamed, type ResultColumn, type RowsResult, type StatementResult } from '../common/result';
import { DataType, Types } from '../common/types';
import type { ParamValue, SessionFacts, StatementContext, TableSource } from '../exec/context';
import { QueryTask } from '../exec/query-task';
import type { OlapTableSource } from '../be/olap-table-source';
import { tableVaultId } from '../meta/storage-vaults';
import { RemoteTableSource, type RemoteScanRoute } from './remote-table-source';
import { DEFAULT_COMPUTE_GROUP } from '../meta/cluster-membership';
import { INFORMATION_SCHEMA } from '../meta/catalog';
import { BINLOG_FUNCTION, binlogFunctionSchema, isBinlogSource, openBinlogSource } from './table-functions/binlog-table-function';
import { ADMIN_TABLE_FUNCTIONS, isSystemFunctionSource, openSystemFunction, SYSTEM_TABLE_FUNCTIONS, systemFunctionRowCount, systemFunctionSchema } from './table-functions/system-table-functions';
import type { TableSchema } from '../meta/schema';
import { FILE_TABLE_FUNCTIONS, fileFunctionKey, isFileFunctionSource, openFileTableFunction } from './table-functions/file-table-functions';
import { describeStatementFileFunctions, mayCallFileFunction } from './table-functions/file-function-prepass';
import type { BinaryParam, PreparedStatementInfo, SessionHandler, SessionInfo } from '../protocol/backend';
import type { Statement } from '../sql/ast';
import { parseStatements } from '../sql/parser';
import { redactSecrets } from '../common/redact';
import type { ProcessListEntry, ServerServices } from './server-services';
import { paramFromBinary, SessionStatements } from './prepared-statements';
import { ExplicitTransaction } from './explicit-transaction';
import { markStatementError } from './client-error-log';
import { informationSchemaRowCount, informationSchemaTable, openInformationSchemaTable, type SchemaFacts } from './information-schema';
import { coerceVariable, findSessionVariable, variableRaw, variableType } from './session-variables';
import { parseSetVarHint } from '../sql/set-var-hint';
import { runStatement } from './statements';
import { requireGlobal, requireTable, requireVisibleDatabase } from './statements/statement-privileges';
import { chosenComputeGroup, computeGroupAccess } from './statements/cluster-admin';
import type { Account } from './users';
import type { SessionWarning, StatementSession } from './statements/statement-session';

/** Statement kinds allowed inside an explicit transaction. */
const TRANSACTION_STATEMENTS: ReadonlySet<Statement['kind']> = new Set(['insert', 'query', 'explain', 'transaction', 'set', 'show', 'describe', 'use', 'prepare', 'execute', 'deallocate']);

/**
 * Blank the secrets of `sql` (src/common/redact.ts) in the message of an error about it, in place, so the
 * client, the profile and the audit log all see the redacted message (a syntax error quotes the text).
 */
function redactErrorMessage(err: unknown, sql: string): void {
  if (err instanceof Error) err.message = redactSecrets(err.message, sql);
}

export class Session implements SessionHandler, StatementSession, ProcessListEntry {
  readonly connectionId: number;
  readonly user: string;
  readonly host: string;
  readonly clientAddress: string;
  readonly loginTime = Date.now();
  readonly account: Account;
  database: string | null;
  multiStatements = false;
  readonly variables = new Map<string, string | number | boolean>();
  readonly userVariables = new Map<string, { type: DataType; value: RawValue }>();
  readonly warnings: SessionWarning[] = [];
  lastInsertId = 0;
  /** Prepared statements (protocol handles and SQL-level names). */
  readonly statements = new SessionStatements(this);
  /** The statement running now (SHOW PROCESSLIST, KILL QUERY), with its text; null between statements. */
  currentTask: QueryTask | null = null;
  /** The file table functions (s3(), local()) of the running statement, described before it binds. */
  private fileFunctions = new Map<string, TableSchema>();
  currentStatementText: string | null = null;
  /** When the session last finished a statement (SHOW PROCESSLIST's Time of an idle session). */
  private idleSince = Date.now();
  private readonly terminateConnection: (() => void) | undefined;

  constructor(
    readonly fe: ServerServices,
    info: SessionInfo,
  ) {
    this.terminateConnection = info.terminate;
    this.connectionId = info.connectionId;
    this.user = info.user;
    this.host = info.host;
    this.clientAddress = info.port === undefined ? info.host : `${info.host}:${info.port}`;
    // The account of the login: the most specific host pattern that matches (fixed for the session).
    this.account = { user: info.user, host: fe.users.matchAccount(info.user, info.host)?.host ?? '%' };
    this.database = info.database;
    this.interactive = info.interactive === true;
    this.initTimeoutVariables();
  }

  /** The client connected with CLIENT_INTERACTIVE. */
  private readonly interactive: boolean;

  /** As MySQL: an interactive client's session wait_timeout starts from the global interactive_timeout. */
  private initTimeoutVariables(): void {
    if (this.interactive) this.variables.set('wait_timeout', this.fe.globalVariables.get('interactive_timeout') ?? findSessionVariable('interactive_timeout')!.defaultValue);
  }

  /** SessionHandler.idleTimeoutSeconds: the session's wait_timeout. */
  idleTimeoutSeconds(): number {
    return Number(this.getVariable('wait_timeout'));
  }

  /** The open explicit transaction (BEGIN ... COMMIT), if any. */
  transaction: ExplicitTransaction | null = null;

  get inTransaction(): boolean {
    return this.transaction !== null;
  }

  /** Inside BEGIN ... COMMIT only loads, queries and session statements may run (as in Doris). */
  private checkAllowedInTransaction(statement: Statement): void {
    if (this.transaction && !TRANSACTION_STATEMENTS.has(statement.kind)) {
      throw new GaleneError('TRANSACTION_ERROR', [`${statement.kind} is not allowed in a transaction; COMMIT or ROLLBACK first`]);
    }
  }

  async execute(sql: string): Promise<StatementResult[]> {
    const parseStart = performance.now();
    let statements: Statement[];
    try {
      statements = parseStatements(sql);
    } catch (err) {
      redactErrorMessage(err, sql);
      const profile = this.newProfile(sql);
      this.finishProfile(profile, err);
      this.audit(profile, err, false);
      throw err;
    }
    const parseMs = performance.now() - parseStart;
    if (statements.length > 1 && !this.multiStatements) throw new GaleneError('MULTI_STATEMENT_OFF');
    const results: StatementResult[] = [];
    for (let statementIdx = 0; statementIdx < statements.length; statementIdx++) {
      const statement = statements[statementIdx];
      const text = statements.length === 1 ? sql : sql.slice(statement.pos, statement.end);
      const profile = this.newProfile(text);
      profile.add('ParseTimeMs', parseMs / statements.length);
      // A SET_VAR hint's values hold from the task's limits to the end of planning and the first batch.
      let restoreVariables = (): void => undefined;
      let hintError: unknown = null;
      try {
        restoreVariables = this.applySetVarHint(this.hintedText(statement, text));
      } catch (err) {
        hintError = err;
      }
      // As MySQL: every statement but SHOW WARNINGS / SHOW ERRORS starts a new warning list.
      if (statement.kind !== 'show' || (statement.what !== 'warnings' && statement.what !== 'errors')) this.warnings.length = 0;
      const task = this.beginTask(profile, statement.kind, text);
      const isQuery = statement.kind === 'query';
      try {
        if (hintError !== null) throw hintError;
        this.checkAllowedInTransaction(statement);
        this.fileFunctions = await describeStatementFileFunctions(statement, text, this.fe.config);
        let result = await runStatement(this, statement, text, profile);
        if (result.kind === 'rows' && isStreamed(result)) {
          // The last statement's rows stream to the client; the statement ends when they are sent.
          if (statementIdx === statements.length - 1) {
            results.push(this.streamToEnd(result, profile, task, isQuery));
            continue;
          }
          result = { ...result, batches: await collectBatches(result.batches) };
        }
        results.push(result);
        this.endTask(task, profile, null, isQuery, result);
      } catch (err) {
        redactErrorMessage(err, text);
        this.endTask(task, profile, err, isQuery);
        throw err;
      } finally {
        restoreVariables();
      }
    }
    return results;
  }

  /**
   * The text whose SET_VAR hint a statement runs under: a SELECT's own, or for `EXECUTE stmt` the prepared
   * SELECT's (so `PREPARE s FROM 'SELECT /*+ SET_VAR(...) *\/ ...'` keeps its hint at every EXECUTE).
   */
  private hintedText(statement: Statement, text: string): string {
    if (statement.kind === 'query') return text;
    if (statement.kind !== 'execute') return '';
    try {
      return this.statements.named(statement.name, 'EXECUTE').sql;
    } catch {
      return ''; // the EXECUTE itself reports the unknown name
    }
  }

  /**
   * Apply the statement's `/*+ SET_VAR(k = v, ...) *\/` hint to this session's variables (validated as
   * SET, all or none) and return what puts the previous values back.
   */
  private applySetVarHint(text: string): () => void {
    const assignments = parseSetVarHint(text);
    if (assignments.length === 0) return () => undefined;
    const values = assignments.map(({ name, value }) => {
      const def = findSessionVariable(name);
      if (!def) throw new GaleneError('UNKNOWN_SYSTEM_VARIABLE', [name]);
      if (def.readOnly) throw new GaleneError('WRONG_VALUE_FOR_VAR', [def.name, 'read-only variable']);
      if (def.globalOnly) throw new GaleneError(def.globalOnly === true ? 'GLOBAL_VARIABLE' : 'SESSION_VARIABLE_READ_ONLY', [def.name]);
      return { name: def.name, value: coerceVariable(def, value) };
    });
    const previous = values.map(({ name }) => ({ name, had: this.variables.has(name), value: this.variables.get(name) }));
    for (const { name, value } of values) this.variables.set(name, value);
    return () => {
      for (const { name, had, value } of previous.reverse()) {
        if (had) this.variables.set(name, value!);
        else this.variables.delete(name);
      }
    };
  }

  /**
   * A statement's control block, registered as the session's current one. Its limits are the session's
   * query_timeout (insert_timeout for INSERT) and exec_mem_limit at the statement's start.
   */
  beginTask(profile: QueryProfile, kind: Statement['kind'], text: string): QueryTask {
    const timeout = Number(this.getVariable(kind === 'insert' ? 'insert_timeout' : 'query_timeout'));
    const task = new QueryTask({ timeoutSeconds: timeout, memLimitBytes: Number(this.getVariable('exec_mem_limit')), queryId: profile.queryId });
    task.state = 'Executing';
    this.currentTask = task;
    // SHOW PROCESSLIST shows the text to every user: never with a password in it.
    this.currentStatementText = redactSecrets(text);
    return task;
  }

  /** The statement is over: profile, audit line, and the session is idle again. */
  endTask(task: QueryTask, profile: QueryProfile, err: unknown, isQuery: boolean, result?: StatementResult, preparedStmtId?: number): void {
    task.state = 'Finished';
    if (this.currentTask === task) {
      this.currentTask = null;
      this.currentStatementText = null;
      this.idleSince = Date.now();
    }
    profile.add('PeakMemoryBytes', task.peakBytes);
    this.fe.scanCounts.add(profile.get('RowsRead'), profile.get('BytesRead'));
    this.finishProfile(profile, err);
    this.fe.metrics.statementEnded(profile.endTime - profile.startTime, err !== null && err !== undefined, isQuery);
    if (preparedStmtId === undefined) this.audit(profile, err, isQuery, result);
    else this.auditPrepared(profile, err, preparedStmtId, isQuery, result);
  }

  /** Wrap a streamed result so that the statement ends (profile, audit, task) when its rows are sent. */
  private streamToEnd(result: RowsResult, profile: QueryProfile, task: QueryTask, isQuery: boolean, preparedStmtId?: number): RowsResult {
    const source = result.batches as AsyncIterable<Batch>;
    const session = this;
    task.state = 'Sending data';
    async function* rows(): AsyncIterable<Batch> {
      let error: unknown = null;
      try {
        yield* source;
      } catch (err) {
        error = err;
        throw err;
      } finally {
        session.endTask(task, profile, error, isQuery, error === null ? result : undefined, preparedStmtId);
      }
    }
    return { ...result, batches: rows() };
  }

  /** Seconds the session has been in its current state (SHOW PROCESSLIST's Time). */
  stateSeconds(): number {
    const since = this.currentTask?.startedAt ?? this.idleSince;
    return Math.max(0, Math.floor((Date.now() - since) / 1000));
  }

  /**
   * KILL QUERY (connection = false) stops the running statement at its next checkpoint with Doris's
   * "cancel query by user"; KILL [CONNECTION] also closes the connection, as in MySQL.
   */
  kill(byHost: string, connection: boolean): void {
    this.currentTask?.cancel(new GaleneError('QUERY_CANCELLED', [byHost]));
    if (connection) this.terminateConnection?.();
  }

  /** Run an already parsed statement through its handler (prepared statements of every kind). */
  async runParsedStatement(statement: Statement, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
    this.checkAllowedInTransaction(statement);
    this.fileFunctions = await describeStatementFileFunctions(statement, sqlText, this.fe.config);
    return runStatement(this, statement, sqlText, profile);
  }

  async prepareStatement(sql: string): Promise<PreparedStatementInfo> {
    const profile = this.newProfile(sql);
    try {
      // Preparing binds the statement (its result columns): its file table functions are described first.
      if (mayCallFileFunction(sql)) this.fileFunctions = await describeStatementFileFunctions(parseStatements(sql)[0], sql, this.fe.config);
      const prepared = this.statements.prepare(sql, null, profile);
      this.finishProfile(profile, null);
      this.auditPrepared(profile, null, prepared.id, prepared.statement.kind === 'query');
      return { statementId: prepared.id, paramCount: prepared.paramCount, columns: prepared.columns };
    } catch (err) {
      redactErrorMessage(err, sql);
      this.finishProfile(profile, err);
      this.auditPrepared(profile, err, 0, false);
      throw err;
    }
  }

  async executeStatement(statementId: number, binaryParams: readonly BinaryParam[]): Promise<StatementResult> {
    const prepared = this.statements.byHandle(statementId, 'mysqld_stmt_execute');
    const profile = this.newProfile(prepared.sql);
    const isQuery = prepared.statement.kind === 'query';
    // The prepared SELECT's SET_VAR hint holds for each execution, as for the same text sent as a query.
    let restoreVariables: () => void;
    try {
      restoreVariables = this.applySetVarHint(isQuery ? prepared.sql : '');
    } catch (err) {
      this.finishProfile(profile, err);
      throw err;
    }
    const task = this.beginTask(profile, prepared.statement.kind, prepared.sql);
    try {
      const result = await this.statements.execute(prepared, binaryParams.map(paramFromBinary), profile, 'mysqld_stmt_execute');
      if (result.kind === 'rows' && isStreamed(result)) return this.streamToEnd(result, profile, task, isQuery, statementId);
      this.endTask(task, profile, null, isQuery, result, statementId);
      return result;
    } catch (err) {
      redactErrorMessage(err, prepared.sql);
      this.endTask(task, profile, err, isQuery, undefined, statementId);
      throw err;
    } finally {
      restoreVariables();
    }
  }

  closeStatement(statementId: number): void {
    const prepared = this.statements.byHandle(statementId, 'mysqld_stmt_close');
    this.statements.remove(prepared);
  }

  async resetConnection(): Promise<void> {
    this.statements.clear();
    this.userVariables.clear();
    this.variables.clear();
    this.initTimeoutVariables();
    this.lastInsertId = 0;
  }

  /** One audit line for a statement that came as text. */
  private audit(profile: QueryProfile, err: unknown, isQuery: boolean, result?: StatementResult, preparedStmtId?: number): void {
    const galeneErr = err ? toGaleneError(err) : null;
    this.fe.auditLog.append({
      time: profile.startTime,
      client: this.host,
      user: this.user,
      db: this.database ?? '',
      state: galeneErr ? 'ERR' : result?.kind === 'rows' ? 'EOF' : 'OK',
      errorCode: galeneErr ? galeneErr.errno : 0,
      errorMessage: galeneErr ? galeneErr.message : '',
      timeMs: Math.max(0, profile.endTime - profile.startTime),
      scanRows: profile.get('RowsRead'),
      returnRows: result?.kind === 'rows' ? profile.get('RowsReturned') : 0,
      queryId: profile.queryId,
      isQuery,
      preparedStmtId,
      stmt: profile.sql,
    });
  }

  /** Prepared-statement commands are audited only when `enable_prepared_stmt_audit_log` is on. */
  private auditPrepared(profile: QueryProfile, err: unknown, statementId: number, isQuery: boolean, result?: StatementResult): void {
    if (this.getVariable('enable_prepared_stmt_audit_log') !== true) return;
    this.audit(profile, err, isQuery, result, statementId);
  }

  /** The query ids of this session's latest statement and the one before it (last_query_id()). */
  private currentQueryId: string | null = null;
  private previousQueryId: string | null = null;

  newProfile(sql: string): QueryProfile {
    // Profiles (SHOW QUERY PROFILE, the audit log) never keep a password typed in the statement.
    const profile = new QueryProfile(this.fe.newQueryId(), redactSecrets(sql), this.user, this.database ?? '');
    // last_query_id() answers the statement before the one asking.
    this.previousQueryId = this.currentQueryId;
    this.currentQueryId = profile.queryId;
    profile.fileCache = this.fileCachePolicy();
    return profile;
  }

  /** The statement's file-cache settings (slice C); undefined when they are all the defaults. */
  private fileCachePolicy(): FileCacheQueryPolicy | undefined {
    const skip = this.getVariable('disable_file_cache') === true;
    const limitBytes = Number(this.getVariable('file_cache_query_limit_bytes'));
    const limitPercent = this.fe.config.get<boolean>('enable_file_cache_query_limit') ? Number(this.getVariable('file_cache_query_limit_percent')) : -1;
    if (!skip && limitBytes < 0 && limitPercent <= 0) return undefined;
    return fileCacheQueryPolicy(skip, limitBytes, limitPercent);
  }

  private finishProfile(profile: QueryProfile, err: unknown): void {
    profile.endTime = Date.now();
    profile.state = err ? 'ERR' : 'OK';
    if (err) profile.errorMessage = toGaleneError(err).message;
    // Logged (fe.log) when its ERR packet goes out, with this query id: client-error-log.ts.
    if (err) markStatementError(err, profile.queryId, profile.sql);
    this.fe.recordProfile(profile);
  }

  /** USE, COM_INIT_DB and the handshake's database: Doris's 1044 unless the account sees the database. */
  async useDatabase(database: string): Promise<void> {
    requireVisibleDatabase(this, database);
    if (database !== INFORMATION_SCHEMA) this.fe.catalog.getDatabase(database);
    this.database = database;
  }

  /** COM_FIELD_LIST: the columns of a table the account holds some privilege on (else Doris's 1142). */
  async fieldList(table: string): Promise<ResultColumn[]> {
    const schema = this.resolveTable(null, table);
    if (!this.fe.users.privilegesOf(this.account).seesTable(schema.databaseName, schema.name, schema.databaseName === INFORMATION_SCHEMA)) requireTable(this, 'SELECT_PRIV', 'SELECT', schema.databaseName, schema.name);
    return schema.columns.map((column) => ({ name: column.name, type: column.type, table: schema.name, orgTable: schema.name, orgName: column.name, database: schema.databaseName, nullable: column.nullable }));
  }

  close(): void {
    // Whatever still runs for this connection stops at its next checkpoint.
    this.currentTask?.cancel(new GaleneError('QUERY_CANCELLED', [`${this.host} (connection closed)`]));
    // A connection that ends inside BEGIN ... COMMIT rolls back, as in MySQL and Doris.
    const open = this.transaction;
    this.transaction = null;
    if (open) void open.rollback('connection closed').catch(() => undefined);
    this.statements.clear();
    this.fe.closeSession(this.connectionId);
  }

  /** The database a statement names, or the current one; throws NO_DATABASE_SELECTED. */
  requireDatabase(database: string | null): string {
    const name = database ?? this.database;
    if (name === null) throw new GaleneError('NO_DATABASE_SELECTED');
    return name;
  }

  resolveTable(database: string | null, name: string): TableSchema {
    const dbName = this.requireDatabase(database);
    if (dbName.toLowerCase() === INFORMATION_SCHEMA) return informationSchemaTable(name);
    return this.fe.catalog.getTable(dbName, name).schema;
  }

  getVariable(name: string): string | number | boolean {
    const def = findSessionVariable(name);
    if (!def) throw new GaleneError('UNKNOWN_SYSTEM_VARIABLE', [name]);
    return this.variables.get(def.name) ?? this.fe.globalVariables.get(def.name) ?? def.defaultValue;
  }

  /** What information_schema shows this session's account (its objects; the privilege tables' rows). */
  private informationSchemaView(): NonNullable<SchemaFacts['view']> {
    const users = this.fe.users;
    const privileges = users.privilegesOf(this.account);
    return {
      visible: (database, table) => (table === null ? privileges.seesDatabase(database, database === INFORMATION_SCHEMA) : privileges.seesTable(database, table, database === INFORMATION_SCHEMA)),
      accounts: () => users.list().map((record) => ({ account: record, grants: users.privilegesOf(record).grants })),
      reader: this.account,
      readerSeesAll: privileges.hasGlobal('GRANT_PRIV'),
      processListViewer: { connectionId: this.connectionId, user: this.user, seesAll: privileges.hasGlobal('ADMIN_PRIV'), full: true },
    };
  }

  /** What functions read of this session during one statement (user, connection, database, clock). */
  private sessionFacts(): SessionFacts {
    return { user: this.user, host: this.host, accountHost: this.account.host, connectionId: this.connectionId, version: this.fe.serverVersion, database: this.database, statementStartMillis: Date.now(), timeZone: String(this.getVariable('time_zone')), lastQueryId: this.previousQueryId };
  }

  /**
   * The planning and task context of one statement, built from one set of facts: the binder resolves
   * tables and variables through the catalog and this session, the operators read tables through the BE.
   * Every table the binder resolves needs SELECT_PRIV (Doris's check of each relation), except
   * `writeTarget`: the table a DELETE or UPDATE reads to find its rows (it needs LOAD_PRIV, checked before).
   */
  statementContext(profile: QueryProfile, parameters: readonly ParamValue[] = [], writeTarget?: { readonly database: string; readonly table: string }): StatementContext {
    const catalog = this.fe.catalog;
    // The loopback backends of debug_remote_scan_backends, else the BE processes of a cluster FE.
    const loopback = this.fe.remoteScan;
    const cluster = loopback === null ? this.fe.clusterScan : null;
    let route: { remote: RemoteScanRoute; group: string } | null | undefined;
    const routeOf = (): { remote: RemoteScanRoute; group: string } | null => {
      if (route !== undefined) return route;
      if (loopback !== null) return (route = { remote: loopback, group: DEFAULT_COMPUTE_GROUP });
      const group = cluster?.groupFor(chosenComputeGroup(this), computeGroupAccess(this)) ?? null;
      return (route = group === null ? null : { remote: cluster!, group });
    };
    const olapTable = (schema: TableSchema): OlapTableSource | RemoteTableSource => {
      const table = catalog.getTable(schema.databaseName, schema.name);
      const chosen = routeOf();
      if (chosen === null) return this.fe.backend.openTable(table);
      const vaultId = tableVaultId(table.schema);
      const vault = vaultId === null ? undefined : catalog.vaults?.list().find((candidate) => candidate.id === vaultId);
      return new RemoteTableSource(table, { ...chosen.remote, computeGroup: chosen.group, task: this.currentTask ?? QueryTask.unlimited(profile.queryId), ...(vault === undefined ? {} : { vault }) });
    };
    const opened = new Map<string, TableSource>();
    // The account's view is built only when a statement reads information_schema (not on every point query).
    const session = this;
    let view: SchemaFacts['view'];
    const schemaFacts: SchemaFacts = {
      catalog,
      server: this.fe,
      sessionVariable: (name) => this.getVariable(name),
      get view() {
        return (view ??= session.informationSchemaView());
      },
    };
    return {
      profile,
      task: this.currentTask ?? QueryTask.unlimited(profile.queryId),
      parameters,
      sessionInfo: this.sessionFacts(),
      getTable: (database, name, inView) => {
        const schema = this.resolveTable(database, name);
        const own = writeTarget !== undefined && writeTarget.database === schema.databaseName && writeTarget.table.toLowerCase() === schema.name.toLowerCase();
        if (!own && inView !== true) requireTable(this, 'SELECT_PRIV', 'SELECT', schema.databaseName, schema.name);
        return schema;
      },
      getView: (database, name, inView) => {
        const dbName = database ?? this.database;
        if (dbName === null || dbName.toLowerCase() === INFORMATION_SCHEMA || !catalog.hasDatabase(dbName)) return null;
        const view = catalog.findView(dbName, name) ?? null;
        if (view !== null && !inView) requireTable(this, 'SELECT_PRIV', 'SELECT', dbName, view.name);
        return view;
      },
      getTableFunction: (name, args, properties) => {
        const fn = name.toLowerCase();
        if (ADMIN_TABLE_FUNCTIONS.has(fn) || fn === 'local') requireGlobal(this, 'ADMIN_PRIV');
        if (FILE_TABLE_FUNCTIONS.has(fn)) {
          const described = this.fileFunctions.get(fileFunctionKey(fn, properties));
          if (described === undefined || args.length > 0) throw new GaleneError('INVALID_TABLE_DEFINITION', [`table function ${name} takes only constant "key" = "value" properties, and is not supported inside a view`]);
          return described;
        }
        const resolveReadable = (database: string | null, table: string): TableSchema => {
          const schema = this.resolveTable(database, table);
          requireTable(this, 'SELECT_PRIV', 'SELECT', schema.databaseName, schema.name);
          return schema;
        };
        const resolveDatabase = (database: string): void => {
          if (!catalog.hasDatabase(database)) throw new GaleneError('UNKNOWN_DATABASE', [database]);
        };
        if (SYSTEM_TABLE_FUNCTIONS.has(fn)) return systemFunctionSchema(fn, args, properties, resolveReadable, resolveDatabase);
        if (fn !== BINLOG_FUNCTION) throw new GaleneError('UNSUPPORTED', [`table function ${name}`]);
        return binlogFunctionSchema(catalog, args, resolveReadable);
      },
      // The BE's estimate comes from the table's rowset metadata: it opens no file.
      estimatedRowCount: (schema) => (schema.databaseName === INFORMATION_SCHEMA ? informationSchemaRowCount(schemaFacts, schema) : isSystemFunctionSource(schema) ? systemFunctionRowCount(schema) : isFileFunctionSource(schema) ? 1000 : isBinlogSource(schema) ? 0 : olapTable(schema).estimatedRowCount()),
      columnStats: (schema) => (schema.databaseName === INFORMATION_SCHEMA || isBinlogSource(schema) || isSystemFunctionSource(schema) || isFileFunctionSource(schema) ? null : catalog.meta.getTableStats(schema.id)),
      scanDegree: (schema) => (schema.databaseName === INFORMATION_SCHEMA || isBinlogSource(schema) || isSystemFunctionSource(schema) || isFileFunctionSource(schema) ? 0 : olapTable(schema).scanDegree()),
      // One reader per table for the whole statement: every operator reading it sees the same version set
      // (a lazily materialized TopN reads a table twice, the second time by the first read's row ids).
      openTable: (schema): TableSource => {
        if (schema.databaseName === INFORMATION_SCHEMA) return openInformationSchemaTable(schemaFacts, schema);
        if (isSystemFunctionSource(schema)) return openSystemFunction(schema, this.fe);
        if (isFileFunctionSource(schema)) return openFileTableFunction(schema, this.fe.config);
        const binlog = isBinlogSource(schema);
        const key = `${binlog ? 'binlog:' : ''}${schema.databaseName}.${schema.name}`.toLowerCase();
        let source = opened.get(key);
        if (source === undefined) opened.set(key, (source = binlog ? openBinlogSource(catalog, this.fe.backend, schema) : olapTable(schema)));
        return source;
      },
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

async function collectBatches(stream: readonly Batch[] | AsyncIterable<Batch>): Promise<Batch[]> {
  const batches: Batch[] = [];
  for await (const batch of stream) batches.push(batch);
  return batches;
}
