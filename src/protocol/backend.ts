/**
 * What the MySQL protocol server needs from the rest of Galene. The FE implements these interfaces;
 * the protocol layer knows nothing of SQL beyond handing text over and encoding what comes back.
 */
import type { ResultColumn, StatementResult } from '../common/result';
import type { BinaryParam } from './binary-params';

export type { BinaryParam } from './binary-params';

/** What COM_STMT_PREPARE answers with. */
export interface PreparedStatementInfo {
  /** Per-connection handle the client sends back with COM_STMT_EXECUTE / CLOSE / RESET. */
  readonly statementId: number;
  readonly paramCount: number;
  /** Result columns as far as they are known before execution (empty for statements without rows). */
  readonly columns: readonly ResultColumn[];
}

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
  /** The client's TCP port (SHOW PROCESSLIST's Host is `host:port`, as in MySQL and Doris). */
  readonly port?: number;
  readonly database: string | null;
  /** Close this client's connection from the server side (KILL CONNECTION). */
  readonly terminate?: () => void;
  /**
   * The client set CLIENT_INTERACTIVE: as in MySQL, the session's wait_timeout starts from the global
   * interactive_timeout instead of the global wait_timeout.
   */
  readonly interactive?: boolean;
}

/**
 * Server-wide connection limits, read by the protocol server at each accept and each login, so a
 * `SET GLOBAL` applies to the next connection at once (sessions already open keep theirs).
 */
export interface ConnectionLimits {
  /** Authenticated sessions at once (max_connections); the next login gets 1040 Too many connections. */
  readonly maxConnections: number;
  /** Authenticated sessions of one user at once (max_user_connections); 0 means no per-user limit. */
  readonly maxUserConnections: number;
  /** Sockets still in the handshake at once; more are refused with 1040 before the greeting. */
  readonly maxUnauthenticatedConnections: number;
  /** Largest logical packet after login (max_allowed_packet), in bytes. */
  readonly maxAllowedPacket: number;
  /** Seconds a socket may take to finish the handshake (connect_timeout). */
  readonly connectTimeoutSeconds: number;
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
  /**
   * COM_STMT_PREPARE: parse (and plan) one statement for repeated execution. Optional: a backend without it
   * answers the prepared-statement commands with ER_UNSUPPORTED_PS. Throws MAX_PREPARED_STMT_COUNT at the cap.
   */
  prepareStatement?(sql: string): Promise<PreparedStatementInfo>;
  /** COM_STMT_EXECUTE with decoded parameter values. Throws UNKNOWN_STMT_HANDLER for a handle it does not hold. */
  executeStatement?(statementId: number, params: readonly BinaryParam[]): Promise<StatementResult>;
  /** COM_STMT_CLOSE: forget the handle (unknown handles are ignored, as MySQL does). */
  closeStatement?(statementId: number): void;
  /**
   * Seconds this session may sit idle between commands before the server closes it (the session's
   * wait_timeout, read after every command so `SET wait_timeout` applies to the next wait). Optional:
   * without it idle sessions are kept.
   */
  idleTimeoutSeconds?(): number;
}

/** An ERR packet on its way to a client (ProtocolBackend.errorSent). */
export interface ClientErrorEvent {
  /** 0 for a socket refused before it got a connection id (server full). */
  readonly connectionId: number;
  /** The user who logged in (or is trying to), null before the handshake response. */
  readonly user: string | null;
  readonly host: string;
  readonly errno: number;
  readonly message: string;
  /** What was thrown (the error itself when it is a GaleneError), for the backend's own context. */
  readonly cause: unknown;
}

export interface ProtocolBackend {
  /** Version string sent in the handshake and returned by SELECT VERSION(). */
  readonly serverVersion: string;
  /**
   * Every ERR packet the server sends (login refusals, statement errors, protocol violations, full
   * server) is reported here first, so the backend can log it. Optional; must not throw.
   */
  errorSent?(event: ClientErrorEvent): void;
  /** The user's stored credentials, or null when no such user exists. */
  lookupUser(user: string, host: string): UserAuthInfo | null;
  /**
   * After the password check of a login (`passwordOk`): the error to refuse it with instead (account locked,
   * password expired; null: the password decides) and how long to hold the answer back (throttling repeated
   * failures). Optional: without it the password alone decides, at once.
   */
  checkLogin?(user: string, host: string, passwordOk: boolean): { readonly refuse: Error | null; readonly delayMs: number };
  /** A new session after successful authentication. Throws (e.g. UNKNOWN_DATABASE) to refuse it. */
  openSession(info: SessionInfo): Promise<SessionHandler>;
  /** Current limits; fields left out keep the server's own options (MysqlServerOptions). */
  connectionLimits?(): Partial<ConnectionLimits>;
}
