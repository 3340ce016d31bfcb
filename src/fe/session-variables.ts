/**
 * Session variables: one registry entry per variable (Doris/MySQL name, type, default, description,
 * validator). SET, SHOW VARIABLES, @@name and the docs read this registry. Connectors read several of
 * these on connect (auto_increment_increment, character_set_*, max_allowed_packet, sql_mode...).
 */
import type { RawValue } from '../common/column';
import { GaleneError } from '../common/errors';
import { DataType, Types } from '../common/types';

export interface SessionVariableDef {
  readonly name: string;
  readonly type: 'int' | 'bool' | 'string';
  readonly defaultValue: string | number | boolean;
  readonly description: string;
  /** Nobody may change it. */
  readonly readOnly?: boolean;
  /**
   * Only SET GLOBAL may change it. `true`: a server-wide variable (SET SESSION fails with 1229);
   * 'session-read-only': each session has a copy it may not change (1621), as MySQL's max_allowed_packet.
   */
  readonly globalOnly?: true | 'session-read-only';
  /** Returns an error reason, or null when the value is acceptable. */
  readonly validate?: (value: string | number | boolean) => string | null;
}

const v = (name: string, type: SessionVariableDef['type'], defaultValue: string | number | boolean, description: string, extra: Partial<SessionVariableDef> = {}): SessionVariableDef => ({ name, type, defaultValue, description, ...extra });

const between = (min: number, max: number) => (value: string | number | boolean): string | null => (Number(value) >= min && Number(value) <= max ? null : `must be between ${min} and ${max}`);

const oneOf = (...allowed: string[]) => (value: string | number | boolean): string | null => (allowed.includes(String(value).toLowerCase()) ? null : `expected one of ${allowed.join(', ')}`);

export const SERVER_VERSION = '5.7.99';
export const VERSION_COMMENT = 'Galene (Doris-compatible), version 0.1.0';

export const SESSION_VARIABLES: readonly SessionVariableDef[] = [
  v('autocommit', 'bool', true, 'Statements commit on their own (Doris always behaves so outside BEGIN ... COMMIT).'),
  v('auto_increment_increment', 'int', 1, 'MySQL compatibility.'),
  v('auto_increment_offset', 'int', 1, 'MySQL compatibility.'),
  v('character_set_client', 'string', 'utf8mb4', 'MySQL compatibility.'),
  v('character_set_connection', 'string', 'utf8mb4', 'MySQL compatibility.'),
  v('character_set_results', 'string', 'utf8mb4', 'MySQL compatibility.'),
  v('character_set_server', 'string', 'utf8mb4', 'MySQL compatibility.'),
  v('collation_connection', 'string', 'utf8mb4_0900_bin', 'MySQL compatibility.'),
  v('collation_database', 'string', 'utf8mb4_0900_bin', 'MySQL compatibility.'),
  v('collation_server', 'string', 'utf8mb4_0900_bin', 'MySQL compatibility.'),
  v('init_connect', 'string', '', 'MySQL compatibility.'),
  v('interactive_timeout', 'int', 3600, "Seconds an idle interactive connection (one that connected with CLIENT_INTERACTIVE) is kept: its session wait_timeout starts from this global value. Doris's default 3600 (MySQL's is 28800).", { validate: between(1, 31536000) }),
  v('wait_timeout', 'int', 28800, 'Seconds a session may sit idle between commands; then the server sends error 4031 and closes it. Read after every command, so SET wait_timeout applies to the next wait.', { validate: between(1, 31536000) }),
  v('connect_timeout', 'int', 10, 'Seconds a new connection has to finish the handshake and log in; then the server drops it without a reply (as MySQL).', { globalOnly: true, validate: between(2, 31536000) }),
  v('max_connections', 'int', 1024, 'Most authenticated sessions at once (default: the max_connections / qe_max_connection setting); the next login gets error 1040 Too many connections. Applies to new connections at once.', { globalOnly: true, validate: between(1, 100000) }),
  v('max_user_connections', 'int', 100, "Most sessions one user may have at once (Doris's per-user default 100); the next login gets error 1203. 0 = no per-user limit.", { globalOnly: 'session-read-only', validate: between(0, 4294967295) }),
  v('net_write_timeout', 'int', 60, 'MySQL compatibility.'),
  v('net_read_timeout', 'int', 60, 'MySQL compatibility.'),
  v('net_buffer_length', 'int', 16384, 'MySQL compatibility.'),
  v('max_allowed_packet', 'int', 67108864, 'Largest packet (after joining 16 MiB pieces) the server accepts after login; a longer one gets error 1153 and the connection is closed. A new value applies to connections opened after it. Before login the limit is 16 KiB.', { globalOnly: 'session-read-only', validate: between(1024, 1073741824) }),
  v('lower_case_table_names', 'int', 0, 'Table names are case-sensitive (0), as in Doris by default.', { readOnly: true }),
  v('license', 'string', 'Apache License, Version 2.0', 'License.', { readOnly: true }),
  v('language', 'string', '/palo/share/english/', 'MySQL compatibility.', { readOnly: true }),
  v('sql_mode', 'string', 'ONLY_FULL_GROUP_BY', 'SQL mode (accepted for compatibility).'),
  v('sql_select_limit', 'string', '18446744073709551615', 'MySQL compatibility.'),
  v('system_time_zone', 'string', 'UTC', 'Time zone of the server.', { readOnly: true }),
  v('time_zone', 'string', 'UTC', 'Session time zone (accepted; DATETIME values are wall-clock values).'),
  v('transaction_isolation', 'string', 'REPEATABLE-READ', 'MySQL compatibility.'),
  v('tx_isolation', 'string', 'REPEATABLE-READ', 'MySQL compatibility.'),
  v('transaction_read_only', 'bool', false, 'MySQL compatibility.'),
  v('tx_read_only', 'bool', false, 'MySQL compatibility.'),
  v('have_query_cache', 'string', 'YES', 'MySQL compatibility.', { readOnly: true }),
  v('query_cache_size', 'int', 1048576, 'MySQL compatibility.'),
  v('query_cache_type', 'int', 0, 'MySQL compatibility.'),
  v('performance_schema', 'bool', false, 'MySQL compatibility.', { readOnly: true }),
  v('version', 'string', SERVER_VERSION, 'Server version reported to MySQL clients.', { readOnly: true }),
  v('version_comment', 'string', VERSION_COMMENT, 'Server description.', { readOnly: true }),
  v('query_timeout', 'int', 900, 'Seconds a query may run.', { validate: (value) => (Number(value) > 0 ? null : 'must be positive') }),
  v('insert_timeout', 'int', 14400, 'Seconds an INSERT may run.'),
  v('exec_mem_limit', 'int', 2147483648, 'Bytes of memory one query may use.'),
  v('parallel_pipeline_task_num', 'int', 0, 'Scan parallelism per query (0 = one per core).'),
  v('enable_profile', 'bool', false, 'Doris compatibility; Galene keeps a profile for every query.'),
  v('group_commit', 'string', 'off_mode', 'Group Commit mode for INSERT INTO VALUES.', { validate: oneOf('off_mode', 'sync_mode', 'async_mode') }),
  v('enable_prepared_stmt_audit_log', 'bool', false, 'Write prepared executions to the audit log.'),
  // MariaDB Connector/J sets these on connect when the server offers CLIENT_SESSION_TRACK.
  v('session_track_system_variables', 'string', 'time_zone,autocommit,character_set_client,character_set_results,character_set_connection', 'MySQL compatibility (accepted; no session-state tracking is sent).'),
  v('session_track_schema', 'bool', true, 'MySQL compatibility.'),
  v('session_track_state_change', 'bool', false, 'MySQL compatibility.'),
  v('max_prepared_stmt_count', 'int', 16382, 'Most prepared statements open at once in the whole server (MySQL default 16382); PREPARE beyond it fails with error 1461.', {
    validate: (value) => (Number(value) >= 0 && Number(value) <= 4194304 ? null : 'must be between 0 and 4194304'),
  }),
  v('enable_unique_key_partial_update', 'bool', false, 'INSERT with a column list into a merge-on-write UNIQUE KEY table updates only those columns of existing rows.'),
  v('enable_insert_strict', 'bool', true, 'INSERT fails on a row that does not fit its column instead of filtering it.'),
  v('sql_quote_show_create', 'bool', true, 'MySQL compatibility.'),
  v('default_storage_engine', 'string', 'olap', 'MySQL compatibility.'),
  v('storage_engine', 'string', 'olap', 'MySQL compatibility.'),
  v('sql_safe_updates', 'int', 0, 'MySQL compatibility.'),
  v('names', 'string', 'utf8mb4', 'Set by SET NAMES.'),
];

const BY_NAME = new Map(SESSION_VARIABLES.map((def) => [def.name, def]));

export function findSessionVariable(name: string): SessionVariableDef | undefined {
  return BY_NAME.get(name.toLowerCase());
}

export function variableType(def: SessionVariableDef): DataType {
  return def.type === 'string' ? Types.varchar(1024) : Types.BIGINT;
}

/** Convert a SET value (raw value of any type) to the variable's type, or throw WRONG_VALUE_FOR_VAR. */
export function coerceVariable(def: SessionVariableDef, value: RawValue): string | number | boolean {
  const text = value === null ? 'NULL' : String(value);
  let out: string | number | boolean;
  if (def.type === 'int') {
    const num = Number(text);
    if (!Number.isFinite(num)) throw new GaleneError('WRONG_VALUE_FOR_VAR', [def.name, text]);
    out = Math.trunc(num);
  } else if (def.type === 'bool') {
    const lower = text.toLowerCase();
    if (lower === '1' || lower === 'true' || lower === 'on') out = true;
    else if (lower === '0' || lower === 'false' || lower === 'off') out = false;
    else throw new GaleneError('WRONG_VALUE_FOR_VAR', [def.name, text]);
  } else {
    out = text;
  }
  const why = def.validate?.(out);
  if (why) throw new GaleneError('WRONG_VALUE_FOR_VAR', [def.name, text]);
  return out;
}

/** Raw value of a variable for @@name and SHOW VARIABLES (bools as 1/0 as MySQL shows them). */
export function variableRaw(def: SessionVariableDef, value: string | number | boolean): RawValue {
  if (def.type === 'bool') return value ? 1n : 0n;
  if (def.type === 'int') return BigInt(Math.trunc(Number(value)));
  return String(value);
}
