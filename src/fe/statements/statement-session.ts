/**
 * What a statement handler (fe/statements/*) may use of the session it runs in. Session (src/fe/session.ts)
 * implements it; the handlers never see the concrete class, so they do not import session.ts, and session.ts
 * can import them without an import cycle. Server-wide services are reached through `fe`
 * (src/fe/server-services.ts).
 */
import type { RawValue } from '../../common/column';
import type { DataType } from '../../common/types';
import type { TableSchema } from '../../meta/schema';
import type { ExplicitTransaction } from '../explicit-transaction';
import type { PreparedStatementHost, SessionStatements } from '../prepared-statements';
import type { Account } from '../users';

/** One SHOW WARNINGS row. */
export interface SessionWarning {
  readonly level: 'Note' | 'Warning';
  readonly code: number;
  readonly message: string;
}

/** What prepared statements use of a session (fe, database, getVariable, runParsedStatement, statementContext), and more. */
export interface StatementSession extends PreparedStatementHost {
  /** The MySQL connection id (CONNECTION_ID(), SHOW PROCESSLIST's Id). */
  readonly connectionId: number;
  readonly user: string;
  readonly host: string;
  /** The account the session logged in as ('user'@'host pattern'): whose privileges it uses. */
  readonly account: Account;
  /** The current database, or null (DROP DATABASE of the current one clears it). */
  database: string | null;
  /** The open explicit transaction (BEGIN ... COMMIT), if any. */
  transaction: ExplicitTransaction | null;
  /** Session values of system variables (SET), by registry name. */
  readonly variables: Map<string, string | number | boolean>;
  /** User variables (@name), by lower-case name. */
  readonly userVariables: Map<string, { type: DataType; value: RawValue }>;
  /** Warnings of the last statement (SHOW WARNINGS); cleared when the next statement starts. */
  readonly warnings: SessionWarning[];
  /** Prepared statements (SQL-level PREPARE / EXECUTE / DEALLOCATE). */
  readonly statements: SessionStatements;
  /** The database a statement names, or the current one; throws NO_DATABASE_SELECTED. */
  requireDatabase(database: string | null): string;
  /** A table's schema (information_schema included); throws like the catalog. */
  resolveTable(database: string | null, name: string): TableSchema;
  useDatabase(database: string): Promise<void>;
}
