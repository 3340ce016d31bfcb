/**
 * The one error type of Galene and its code table.
 *
 * Every error a client can see is a GaleneError built from an entry of ERROR_CODES: a stable code name, the
 * MySQL errno and SQLSTATE the wire protocol sends, and a message template whose `{0}`, `{1}`... are filled
 * from the arguments. Messages follow MySQL's and Doris's wording so that users and tools recognise them.
 * Add an error by adding one entry here.
 */

export type ErrorCategory = 'user' | 'resource' | 'io' | 'internal';

interface ErrorCodeEntry {
  readonly errno: number;
  readonly sqlState: string;
  readonly template: string;
  readonly category: ErrorCategory;
}

const entry = (errno: number, sqlState: string, template: string, category: ErrorCategory = 'user'): ErrorCodeEntry => ({ errno, sqlState, template, category });

export const ERROR_CODES = {
  // syntax and analysis
  SYNTAX_ERROR: entry(1064, '42000', 'You have an error in your SQL syntax; {0}'),
  PARSE_ERROR: entry(1105, 'HY000', 'errCode = 2, detailMessage = Syntax error in line {0}:\n{1}'),
  UNKNOWN_DATABASE: entry(1049, '42000', "Unknown database '{0}'"),
  NO_DATABASE_SELECTED: entry(1046, '3D000', 'No database selected'),
  DATABASE_EXISTS: entry(1007, 'HY000', "Can't create database '{0}'; database exists"),
  DATABASE_NOT_EXISTS_DROP: entry(1008, 'HY000', "Can't drop database '{0}'; database doesn't exist"),
  UNKNOWN_TABLE: entry(1146, '42S02', "Table '{0}' doesn't exist"),
  TABLE_EXISTS: entry(1050, '42S01', "Table '{0}' already exists"),
  BAD_TABLE_DROP: entry(1051, '42S02', "Unknown table '{0}'"),
  UNKNOWN_COLUMN: entry(1054, '42S22', "Unknown column '{0}' in '{1}'"),
  DUPLICATE_COLUMN: entry(1060, '42S21', "Duplicate column name '{0}'"),
  AMBIGUOUS_COLUMN: entry(1052, '23000', "Column '{0}' in {1} is ambiguous"),
  NOT_GROUP_BY: entry(1055, '42000', "Expression '{0}' must appear in the GROUP BY clause or be used in an aggregate function"),
  INVALID_GROUP_FUNC: entry(1111, 'HY000', 'Invalid use of group function'),
  UNKNOWN_FUNCTION: entry(1305, '42000', 'FUNCTION {0} does not exist'),
  WRONG_ARG_COUNT: entry(1582, '42000', "Incorrect parameter count in the call to native function '{0}'"),
  TYPE_MISMATCH: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  /** Doris's AssertNumRows: a scalar subquery returned a second row (for one outer row, when correlated). */
  SCALAR_SUBQUERY_ROWS: entry(1105, 'HY000', 'errCode = 2, detailMessage = [CANCELLED]Expected EQ 1 to be returned by expression {0}'),
  COLUMN_COUNT_MISMATCH: entry(1136, '21S01', "Column count doesn't match value count at row {0}"),
  WRONG_VALUE_COUNT: entry(1222, '21000', 'The used SELECT statements have a different number of columns'),
  NOT_NULL_VIOLATION: entry(1048, '23000', "Column '{0}' cannot be null"),
  NO_DEFAULT: entry(1364, 'HY000', "Field '{0}' doesn't have a default value"),
  // Generated columns, in MySQL's words (Doris follows MySQL's rules).
  GENERATED_COLUMN_FUNCTION: entry(3102, 'HY000', "Expression of generated column '{0}' contains a disallowed function."),
  GENERATED_COLUMN_VALUE: entry(3105, 'HY000', "The value specified for generated column '{0}' in table '{1}' is not allowed."),
  GENERATED_COLUMN_NON_PRIOR: entry(3107, 'HY000', 'Generated column can refer only to generated columns defined prior to it.'),
  GENERATED_COLUMN_AUTO_INC: entry(3109, 'HY000', "Generated column '{0}' cannot refer to auto-increment column."),
  // MySQL's words for a write into a view (Doris's views are not updatable either).
  NOT_INSERTABLE: entry(1471, 'HY000', 'The target table {0} of the {1} is not insertable-into'),
  OUT_OF_RANGE: entry(1264, '22003', "Out of range value for column '{0}' at row {1}"),
  DATA_TOO_LONG: entry(1406, '22001', "Data too long for column '{0}' at row {1}"),
  INVALID_VALUE: entry(1366, 'HY000', "Incorrect {0} value: '{1}' for column '{2}' at row {3}"),
  COMPLEX_TYPE_KEY: entry(1105, 'HY000', "errCode = 2, detailMessage = Doris hll, bitmap, array, map, struct, jsonb, variant column must use with specific function, and don't support filter, group by or order by. please run 'help hll' or 'help bitmap' or 'help array' or 'help map' or 'help struct' or 'help jsonb' or 'help variant' in your mysql client."),
  JSON_PATH_INVALID: entry(1105, 'HY000', 'errCode = 2, detailMessage = [INVALID_ARGUMENT]Json path error: Invalid Json Path for value: {0}'),
  JSON_PARSE_FAILED: entry(1105, 'HY000', 'errCode = 2, detailMessage = [INVALID_ARGUMENT]Parse json document failed at row {0}, error: [INTERNAL_ERROR]{1}'),
  INVALID_CAST: entry(1105, 'HY000', "errCode = 2, detailMessage = can not cast '{0}' to {1}"),
  DIVISION_BY_ZERO: entry(1365, '22012', 'Division by 0'),
  // Doris Nereids AnalysisException (CTE names and labels, set operations, grouping sets)
  ANALYSIS_ERROR: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  // WITH RECURSIVE, in MySQL's words (Doris's newest branch follows MySQL's rules).
  CTE_MAX_RECURSION_DEPTH: entry(3636, 'HY000', 'Recursive query aborted after {0} iterations. Try increasing @@cte_max_recursion_depth to a larger value.'),
  CTE_RECURSIVE_REQUIRES_UNION: entry(3573, 'HY000', "Recursive Common Table Expression '{0}' should contain a UNION"),
  CTE_RECURSIVE_NONRECURSIVE_FIRST: entry(3574, 'HY000', "Recursive Common Table Expression '{0}' should have one or more non-recursive query blocks followed by one or more recursive ones"),
  CTE_RECURSIVE_FORBIDS_AGGREGATION: entry(3575, 'HY000', "Recursive Common Table Expression '{0}' can contain neither aggregation nor window functions in recursive query block"),
  CTE_RECURSIVE_FORBIDDEN_JOIN_ORDER: entry(3576, 'HY000', "In recursive query block of Recursive Common Table Expression '{0}', the recursive table must neither be in the right argument of a LEFT JOIN, nor be forced to be non-first with join order hints"),
  CTE_RECURSIVE_SINGLE_REFERENCE: entry(3577, 'HY000', "In recursive query block of Recursive Common Table Expression '{0}', the recursive table must be referenced only once, and not in any subquery"),
  UNSUPPORTED: entry(1235, '42000', "This version of Galene doesn't yet support '{0}'"),
  INVALID_TABLE_DEFINITION: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  PARTITION_NOT_EXISTS_DROP: entry(1507, 'HY000', 'errCode = 2, detailMessage = Error in list of partitions to {0}'),
  UNKNOWN_PARTITION: entry(1735, 'HY000', "errCode = 2, detailMessage = Unknown partition '{0}' in table '{1}'"),
  UNKNOWN_SYSTEM_VARIABLE: entry(1193, 'HY000', "Unknown system variable '{0}'"),
  WRONG_VALUE_FOR_VAR: entry(1231, '42000', "Variable '{0}' can't be set to the value of '{1}'"),
  WRONG_TYPE_FOR_VAR: entry(1232, '42000', "Incorrect argument type to variable '{0}'"),
  // Doris ErrorCode.ERR_UNKNOWN_TIME_ZONE (TimeUtils.checkTimeZoneValidAndStandardize)
  UNKNOWN_TIME_ZONE: entry(1298, 'HY000', "errCode = 2, detailMessage = Unknown or incorrect time zone: '{0}'"),
  // Doris SetNamesVar: only utf8 (ErrorCode.ERR_UNKNOWN_CHARACTER_SET)
  UNKNOWN_CHARACTER_SET: entry(1115, '42000', "errCode = 2, detailMessage = Unknown character set: '{0}'"),
  UNKNOWN_PROPERTY: entry(1105, 'HY000', 'errCode = 2, detailMessage = Unknown table property: {0}'),
  INVALID_PROPERTY: entry(1105, 'HY000', 'errCode = 2, detailMessage = Invalid value for property {0}: {1}'),
  UNKNOWN_QUERY_ID: entry(1105, 'HY000', 'errCode = 2, detailMessage = query id {0} not found'),
  TRANSACTION_ERROR: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  DML_ERROR: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  /** score() outside the one form the BM25 pushdown answers (Doris's AnalysisException texts). */
  SCORE_USAGE: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  /** A window function (OVER) where it is not allowed or with a frame Doris refuses (Nereids AnalysisException texts). */
  WINDOW_ERROR: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  /** A function argument the BE rejects (Doris's Status::InvalidArgument text). */
  INVALID_ARGUMENT: entry(1105, 'HY000', 'errCode = 2, detailMessage = [INVALID_ARGUMENT]{0}'),
  // administration (Doris AnalysisException / DdlException text: SHOW PROC paths, ADMIN SET CONFIG, CANCEL LOAD)
  ADMIN_ERROR: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  STORAGE_VAULT_ERROR: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  LABEL_EXISTS: entry(1105, 'HY000', 'errCode = 2, detailMessage = Label [{0}] has already been used.'),
  // Stream Load (messages carry Doris's status prefix, as its response JSON does)
  LOAD_INVALID_ARGUMENT: entry(1105, 'HY000', '[INVALID_ARGUMENT]{0}'),
  LOAD_DATA_QUALITY: entry(1105, 'HY000', '[DATA_QUALITY_ERROR]{0}'),
  LOAD_NOT_FOUND: entry(1105, 'HY000', 'errCode = 7, detailMessage = {0}'),
  LOAD_NOT_SUPPORTED: entry(1235, '42000', '[NOT_IMPLEMENTED_ERROR]{0} is not supported yet'),
  LOAD_CANCELLED: entry(1105, 'HY000', '[CANCELLED]{0}'),
  LOAD_TIMEOUT: entry(1105, 'HY000', '[TIMEOUT]{0}', 'resource'),
  // Group Commit (Doris status prefixes; the client retries SCHEMA_CHANGE and MEMORY waits)
  GROUP_COMMIT_EXCEEDED_LIMIT: entry(1105, 'HY000', 'errCode = 2, detailMessage = [EXCEEDED_LIMIT]{0}', 'resource'),
  GROUP_COMMIT_MEMORY: entry(1105, 'HY000', 'errCode = 2, detailMessage = [EXCEEDED_LIMIT]Wal memory back pressure wait too much time! {0}', 'resource'),
  GROUP_COMMIT_BLOCKED: entry(1105, 'HY000', 'errCode = 2, detailMessage = insert table {0} is blocked on schema change', 'resource'),
  GROUP_COMMIT_INVALID_MODE: entry(1105, 'HY000', 'errCode = 2, detailMessage = [INVALID_ARGUMENT]group_commit can only be [async_mode, sync_mode, off_mode]'),
  // users and sessions
  ACCESS_DENIED: entry(1045, '28000', "Access denied for user '{0}'@'{1}' (using password: {2})"),
  // privileges (Doris ErrorCode ERR_SPECIFIC_ACCESS_DENIED_ERROR / ERR_DBACCESS_DENIED_ERROR, as UserException prints them)
  SPECIFIC_ACCESS_DENIED: entry(1227, '42000', 'errCode = 2, detailMessage = Access denied; you need (at least one of) the ({0}) privilege(s) for this operation'),
  DB_ACCESS_DENIED: entry(1044, '42000', "errCode = 2, detailMessage = Access denied for user '{0}' to database '{1}'"),
  // Doris ERR_TABLEACCESS_DENIED_ERROR; the table is Doris's `ctl: db: t` (SELECT) or `db: t` (LOAD, CREATE, ...).
  // Doris's USAGE check on a storage vault at CREATE TABLE (worded as its resource USAGE checks).
  STORAGE_VAULT_USAGE_DENIED: entry(1105, 'HY000', "errCode = 2, detailMessage = USAGE denied to user '{0}'@'{1}' for storage vault '{2}'"),
  TABLE_ACCESS_DENIED: entry(1142, '42000', "errCode = 2, detailMessage = {0} command denied to user '{1}'@'{2}' for table '{3}'"),
  // Doris ERR_NONEXISTING_GRANT, ERR_MUST_CHANGE_PASSWORD_LOGIN, ERR_USER_ACCESS_DENIED_FOR_USER_ACCOUNT_BLOCKED_BY_PASSWORD_LOCK
  NONEXISTING_GRANT: entry(1141, '42000', "errCode = 2, detailMessage = There is no such grant defined for user '{0}' on host '{1}'"),
  PASSWORD_EXPIRED: entry(1862, 'HY000', 'Your password has expired. To log in you must change it using a client that supports expired passwords.'),
  ACCOUNT_LOCKED: entry(3955, 'HY000', "Access denied for user '{0}'@'{1}'. Account is blocked for {2} second(s) ({3} second(s) remaining) due to {4} consecutive failed logins."),
  ROLE_EXISTS: entry(1105, 'HY000', "errCode = 2, detailMessage = Role {0} already exists"),
  ROLE_NOT_EXISTS: entry(1105, 'HY000', "errCode = 2, detailMessage = Role {0} does not exist"),
  GRANT_ERROR: entry(1105, 'HY000', 'errCode = 2, detailMessage = {0}'),
  ROOT_PASSWORD_ONLY_BY_ROOT: entry(1105, 'HY000', 'errCode = 2, detailMessage = Can not set password for root user, except root itself'),
  ROOT_MODIFY_ONLY_BY_ROOT: entry(1105, 'HY000', 'errCode = 2, detailMessage = Only root user can modify root user'),
  USER_EXISTS: entry(1396, 'HY000', "Operation CREATE USER failed for '{0}'@'{1}'"),
  USER_NOT_EXISTS: entry(1396, 'HY000', "Operation {0} failed for '{1}'@'{2}'"),
  UNKNOWN_COMMAND: entry(1047, '08S01', 'Unknown command'),
  TOO_MANY_CONNECTIONS: entry(1040, '08004', 'Too many connections', 'resource'),
  BAD_HANDSHAKE: entry(1043, '08S01', 'Bad handshake'),
  // connection limits and timeouts (MySQL's ER_TOO_MANY_USER_CONNECTIONS, ER_CLIENT_INTERACTION_TIMEOUT)
  TOO_MANY_USER_CONNECTIONS: entry(1203, '42000', "User {0} already has more than 'max_user_connections' active connections", 'resource'),
  CLIENT_INTERACTION_TIMEOUT: entry(4031, 'HY000', 'The client was disconnected by the server because of inactivity. See wait_timeout and interactive_timeout for configuring this behavior.', 'resource'),
  GLOBAL_VARIABLE: entry(1229, 'HY000', "Variable '{0}' is a GLOBAL variable and should be set with SET GLOBAL"),
  SESSION_VARIABLE_READ_ONLY: entry(1621, 'HY000', "SESSION variable '{0}' is read-only. Use SET GLOBAL to assign the value"),
  PACKET_TOO_LARGE: entry(1153, '08S01', "Got a packet bigger than 'max_allowed_packet' bytes", 'resource'),
  PS_UNSUPPORTED: entry(1295, 'HY000', 'This command is not supported in the prepared statement protocol yet'),
  // prepared statements (MySQL's ER_UNKNOWN_STMT_HANDLER, ER_MAX_PREPARED_STMT_COUNT_REACHED, ER_WRONG_ARGUMENTS)
  UNKNOWN_STMT_HANDLER: entry(1243, 'HY000', 'Unknown prepared statement handler ({0}) given to {1}'),
  MAX_PREPARED_STMT_COUNT: entry(1461, '42000', "Can't create more than max_prepared_stmt_count statements (current value: {0})", 'resource'),
  WRONG_ARGUMENTS: entry(1210, 'HY000', 'Incorrect arguments to {0}'),
  MALFORMED_PACKET: entry(1835, 'HY000', 'Malformed communication packet.'),
  MULTI_STATEMENT_OFF: entry(1064, '42000', 'You have an error in your SQL syntax; multi-statements are disabled for this connection'),
  // resources
  // Doris's words: `Timeout` for query_timeout, `cancel query by user from <host>` for KILL QUERY.
  QUERY_TIMEOUT: entry(1105, 'HY000', 'errCode = 2, detailMessage = Timeout: the statement ran longer than query_timeout ({0} s)', 'resource'),
  QUERY_CANCELLED: entry(1105, 'HY000', 'errCode = 2, detailMessage = cancel query by user from {0}', 'resource'),
  MEMORY_LIMIT: entry(1105, 'HY000', 'errCode = 2, detailMessage = [MEM_LIMIT_EXCEEDED]Query {0} memory exceed limit: used {1} bytes, limit {2} bytes. You can change the limit by session variable exec_mem_limit.', 'resource'),
  UNKNOWN_THREAD: entry(1094, 'HY000', 'Unknown thread id: {0}'),
  KILL_DENIED: entry(1095, 'HY000', 'You are not owner of thread {0}'),
  // expressions (Doris's wording: ColumnString::check_chars_length, Expr depth check, RE2 compile failure)
  STRING_TOO_LARGE: entry(1105, 'HY000', 'errCode = 2, detailMessage = [STRING_OVERFLOW_IN_VEC_ENGINE]string column length is too large: total_length={0}, element_number={1}', 'resource'),
  EXPR_TOO_DEEP: entry(1105, 'HY000', 'errCode = 2, detailMessage = Exceeded the maximum depth of an expression tree ({0}).'),
  INVALID_REGEX: entry(1105, 'HY000', 'errCode = 2, detailMessage = Invalid regex expression: {0}'),
  TOO_MANY_VERSIONS: entry(1105, 'HY000', 'errCode = 2, detailMessage = [E-235]TOO_MANY_VERSION: failed to init rowset builder. version count: {0}, exceed limit: {2}, tablet: {1}. Please reduce the frequency of loading data or adjust the max_tablet_version_num in be.conf to a larger value.', 'resource'),
  // io and internal
  IO_ERROR: entry(1105, 'HY000', 'errCode = 2, detailMessage = IO error: {0}', 'io'),
  CORRUPTION: entry(1105, 'HY000', 'errCode = 2, detailMessage = [CORRUPTION] {0}', 'io'),
  INTERNAL: entry(1105, 'HY000', 'errCode = 2, detailMessage = internal error: {0}', 'internal'),
  SCAN_WORKER_FAILED: entry(1105, 'HY000', 'errCode = 2, detailMessage = scan worker failed: {0}', 'internal'),
  // internal RPC between FE and BEs (io/rpc): {0} the method, {1} the endpoint; bracketed words are Doris's status codes
  RPC_TIMEOUT: entry(1105, 'HY000', 'errCode = 2, detailMessage = [TIMEOUT]rpc {0} to {1} timed out after {2} ms', 'resource'),
  RPC_CANCELLED: entry(1105, 'HY000', 'errCode = 2, detailMessage = [CANCELLED]rpc {0} to {1} was cancelled', 'resource'),
  RPC_UNAVAILABLE: entry(1105, 'HY000', 'errCode = 2, detailMessage = [NETWORK_ERROR]failed to send brpc {0} to {1}: {2}', 'io'),
  RPC_MESSAGE_TOO_LARGE: entry(1105, 'HY000', 'errCode = 2, detailMessage = [EXCEEDED_LIMIT]rpc {0} to {1}: {2} (brpc_max_body_size)', 'resource'),
  RPC_INVALID_REQUEST: entry(1105, 'HY000', 'errCode = 2, detailMessage = [INVALID_ARGUMENT]rpc {0} to {1}: {2}'),
  RPC_UNIMPLEMENTED: entry(1105, 'HY000', 'errCode = 2, detailMessage = [NOT_IMPLEMENTED_ERROR]rpc {0} is not served by {1}', 'internal'),
  RPC_FAILED: entry(1105, 'HY000', 'errCode = 2, detailMessage = [INTERNAL_ERROR]rpc {0} to {1} failed: {2}', 'internal'),
  // cluster membership (ALTER SYSTEM ... BACKEND, compute groups, BE registration): Doris SystemInfoService's words
  INVALID_HOST_PORT: entry(1105, 'HY000', 'errCode = 2, detailMessage = Invalid host port: {0}'),
  PORT_OUT_OF_RANGE: entry(1105, 'HY000', 'errCode = 2, detailMessage = Port is out of range: {0}'),
  BACKEND_EXISTS: entry(1105, 'HY000', 'errCode = 2, detailMessage = Same backend already exists[{0}]'),
  BACKEND_NOT_EXISTS_DROP: entry(1105, 'HY000', 'errCode = 2, detailMessage = backend does not exists[{0}]'),
  BACKEND_NOT_EXISTS: entry(1105, 'HY000', 'errCode = 2, detailMessage = Backend does not exist[{0}]'),
  COMPUTE_GROUP_NOT_EXISTS: entry(1105, 'HY000', "errCode = 2, detailMessage = compute group '{0}' not exist"),
  // Doris's CloudEnv check (ERROR 5042 in its docs): the account lacks USAGE_PRIV ON COMPUTE GROUP
  COMPUTE_GROUP_USAGE_DENIED: entry(5042, '42000', "errCode = 2, detailMessage = USAGE denied to user '{0}'@'{1}' for compute group '{2}'"),
  COMPUTE_GROUP_EXISTS: entry(1105, 'HY000', "errCode = 2, detailMessage = compute group '{0}' has existed"),
  INVALID_COMPUTE_GROUP_NAME: entry(1105, 'HY000', "errCode = 2, detailMessage = Incorrect compute group name '{0}': it must start with a letter and contain only letters, digits and '_' (at most 64 characters)"),
  UNKNOWN_USER_PROPERTY: entry(1105, 'HY000', 'errCode = 2, detailMessage = Unknown user property({0})'),
  UNKNOWN_USER_PROPERTY_TARGET: entry(1105, 'HY000', 'errCode = 2, detailMessage = Unknown user: {0}'),
  BAD_BACKEND_REGISTRATION: entry(1105, 'HY000', 'errCode = 2, detailMessage = backend registration refused: {0}'),
  // remote scans (a cluster FE reading through the BEs of its compute group)
  NO_BACKEND_AVAILABLE: entry(1105, 'HY000', 'errCode = 2, detailMessage = There is no scanNode Backend available.[{0}]', 'resource'),
  BACKEND_UNREACHABLE: entry(1105, 'HY000', 'errCode = 2, detailMessage = [RPC_ERROR]failed to reach backend {0}: {1}', 'io'),
  BACKEND_SCAN_FAILED: entry(1105, 'HY000', 'errCode = 2, detailMessage = [INTERNAL_ERROR]backend {0} failed after it had sent rows of tablet {1}; the query cannot resume elsewhere: {2}', 'io'),
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorSpan {
  /** Offset into the statement text. */
  readonly offset: number;
  readonly length: number;
}

export class GaleneError extends Error {
  readonly code: ErrorCode;
  readonly errno: number;
  readonly sqlState: string;
  readonly category: ErrorCategory;
  readonly span?: ErrorSpan;

  /** `options.message`: the text as another process built it (an error received over RPC keeps its sender's words). */
  constructor(code: ErrorCode, args: readonly (string | number)[] = [], options: { span?: ErrorSpan; cause?: unknown; message?: string } = {}) {
    const def: ErrorCodeEntry = ERROR_CODES[code];
    super(
      options.message ?? def.template.replace(/\{(\d+)\}/g, (_m, idx: string) => String(args[Number(idx)] ?? '')),
      options.cause !== undefined ? { cause: options.cause } : undefined,
    );
    this.name = 'GaleneError';
    this.code = code;
    this.errno = def.errno;
    this.sqlState = def.sqlState;
    this.category = def.category;
    this.span = options.span;
  }
}

/** Shorthand used at throw sites: `throw galeneError('UNKNOWN_TABLE', name)`. */
export function galeneError(code: ErrorCode, ...args: (string | number)[]): GaleneError {
  return new GaleneError(code, args);
}

/** Any thrown value as a GaleneError; unknown errors become INTERNAL (errno 1105) with the cause kept. */
export function toGaleneError(err: unknown): GaleneError {
  if (err instanceof GaleneError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new GaleneError('INTERNAL', [message], { cause: err });
}
