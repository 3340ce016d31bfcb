/**
 * What the MySQL protocol server needs from the rest of Galene. The FE implements these interfaces;
 * the protocol layer knows nothing of SQL beyond handing text over and encoding what comes back.
 */
import type { ResultColumn, StatementResult } from '../common/result';

export interface UserAuthInfo {
  /**
   * SHA1(SHA1(password)) as MySQL's mysql_native_password stores it, or null for an empty password.
   */
  readonly passwordDoubleSha1: Buffer | null;
}

export interface SessionInfo {
  readonly connectionId: number;
  readonly user: string;
  readonly host: string;
  readonly database: string | null;
}

/** One client connection's view of the server. */
export interface SessionHandler {
  /** Run one SQL text. With multi-statements off, a text holding several statements is an error. */
  execute(sql: string): Promise<StatementResult[]>;
  /** COM_INIT_DB. Throws UNKNOWN_DATABASE. */
  useDatabase(database: string): Promise<void>;
  /** COM_FIELD_LIST: the columns of a table in the current database. */
  fieldList(table: string): Promise<ResultColumn[]>;
  /** The connection ended (COM_QUIT or socket closed): release what the session holds. */
  close(): void;
  /** Whether a transaction is open (for the server-status flag). */
  readonly inTransaction: boolean;
  /** Client asked for CLIENT_MULTI_STATEMENTS. */
  multiStatements: boolean;
  /**
   * COM_RESET_CONNECTION: drop session state (user variables, temporary settings, an open transaction)
   * as if the client had reconnected. Optional: without it the server only answers OK.
   */
  resetConnection?(): Promise<void>;
}

export interface ProtocolBackend {
  /** Version string sent in the handshake and returned by SELECT VERSION(). */
  readonly serverVersion: string;
  /** The user's stored credentials, or null when no such user exists. */
  lookupUser(user: string, host: string): UserAuthInfo | null;
  /** A new session after successful authentication. Throws (e.g. UNKNOWN_DATABASE) to refuse it. */
  openSession(info: SessionInfo): Promise<SessionHandler>;
}
