/**
 * Session variables: one registry entry per variable (Doris/MySQL name, type, default, scope, whether
 * Galene honours it, description, validator). SET, SHOW VARIABLES, @@name and the docs read this registry.
 * Connectors read several of these on connect (auto_increment_increment, character_set_*,
 * max_allowed_packet, sql_mode...). Every Doris variable Galene does not act on comes from the table in
 * doris-session-variables.ts: it is accepted and listed, and SET answers a warning. A name no Doris (or
 * MySQL-compatibility) variable has is error 1193, as in Doris.
 */
import type { RawValue } from '../common/column';
import { GaleneError } from '../common/errors';
import { resolveTimeZone, systemTimeZoneName } from '../common/time-zone';
import { DataType, Types } from '../common/types';
import { DORIS_ACCEPTED_VARIABLES } from './doris-session-variables';
import { parseRuntimeFilterType } from '../exec/plan/runtime-filters';

export interface SessionVariableDef {
  readonly name: string;
  /** 'int' values beyond 2^53 (sql_select_limit's default 2^64-1) are kept as their decimal text. */
  readonly type: 'int' | 'bool' | 'string' | 'double';
  readonly defaultValue: string | number | boolean;
  readonly description: string;
  /** Galene acts on the value; false: accepted and listed only (SET answers a warning). */
  readonly honoured: boolean;
  /** Nobody may change it. */
  readonly readOnly?: boolean;
  /**
   * Only SET GLOBAL may change it. `true`: a server-wide variable (SET SESSION fails with 1229);
   * 'session-read-only': each session has a copy it may not change (1621), as MySQL's max_allowed_packet.
   */
  readonly globalOnly?: true | 'session-read-only';
  /** Returns an error reason, or null when the value is acceptable. */
  readonly validate?: (value: string | number | boolean) => string | null;
  /** The stored form of an accepted value (time_zone '+8:00' is '+08:00'); may throw its own error. */
  readonly normalize?: (value: string | number | boolean) => string | number | boolean;
  /** The default as the docs state it, when it depends on the machine (time_zone: the server's zone). */
  readonly docDefault?: string;
}

/** An entry Galene honours. */
const v = (name: string, type: SessionVariableDef['type'], defaultValue: string | number | boolean, description: string, extra: Partial<SessionVariableDef> = {}): SessionVariableDef => ({ name, type, defaultValue, description, honoured: true, ...extra });

/** An entry accepted for compatibility: listed and settable, with no effect in Galene. */
const accepted = (name: string, type: SessionVariableDef['type'], defaultValue: string | number | boolean, description: string, extra: Partial<SessionVariableDef> = {}): SessionVariableDef => ({ ...v(name, type, defaultValue, description, extra), honoured: false });

/** Doris's variables that only SET GLOBAL changes (VariableMgr GLOBAL flag). */
const GLOBAL_ONLY_ACCEPTED: ReadonlySet<string> = new Set(['default_password_lifetime', 'password_history', 'validate_password_policy', 'default_rowset_type']);

/** The largest value of an unsigned 64-bit variable (MySQL's default of sql_select_limit). */
export const UINT64_MAX = '18446744073709551615';

const between = (min: number, max: number) => (value: string | number | boolean): string | null => (Number(value) >= min && Number(value) <= max ? null : `must be between ${min} and ${max}`);

const unsignedInt = (value: string | number | boolean): string | null => (typeof value === 'string' ? (BigInt(value) >= 0n && BigInt(value) <= BigInt(UINT64_MAX) ? null : 'out of range') : Number(value) >= 0 ? null : 'must not be negative');

const oneOf = (...allowed: string[]) => (value: string | number | boolean): string | null => (allowed.includes(String(value).toLowerCase()) ? null : `expected one of ${allowed.join(', ')}`);

/** Galene's own release. */
export const GALENE_VERSION = '0.1.0';
/**
 * The Doris release Galene follows: its behaviour and the defaults of every session variable (the 3.0 line:
 * compute groups, and the defaults doris-session-variables.ts records where master has moved on).
 */
export const DORIS_RELEASE = '3.0.0';
/** The MySQL server version Doris announces (handshake, VERSION(), @@version): GlobalVariable.VERSION. */
export const SERVER_VERSION = '5.7.99';
/** Doris's build-version form (`doris-3.0.0-...`), as SHOW FRONTENDS / SHOW BACKENDS print it. */
export const DORIS_BUILD_VERSION = `doris-${DORIS_RELEASE}-galene-${GALENE_VERSION}`;
/** @@version_comment: Galene, with the Doris release it follows in Doris's words (`Doris version doris-x.y.z`). */
export const VERSION_COMMENT = `Galene ${GALENE_VERSION} (Doris version doris-${DORIS_RELEASE} compatible)`;

export const SESSION_VARIABLES: readonly SessionVariableDef[] = [
  accepted('autocommit', 'bool', true, 'Statements commit on their own (Doris always behaves so outside BEGIN ... COMMIT).'),
  accepted('auto_increment_increment', 'int', 1, 'MySQL compatibility.'),
  accepted('auto_increment_offset', 'int', 1, 'MySQL compatibility.'),
  accepted('character_set_client', 'string', 'utf8mb4', 'MySQL compatibility.'),
  accepted('character_set_connection', 'string', 'utf8mb4', 'MySQL compatibility.'),
  accepted('character_set_results', 'string', 'utf8mb4', 'MySQL compatibility.'),
  accepted('character_set_server', 'string', 'utf8mb4', 'MySQL compatibility.'),
  accepted('collation_connection', 'string', 'utf8mb4_0900_bin', 'MySQL compatibility.'),
  accepted('collation_database', 'string', 'utf8mb4_0900_bin', 'MySQL compatibility.'),
  accepted('collation_server', 'string', 'utf8mb4_0900_bin', 'MySQL compatibility.'),
  accepted('init_connect', 'string', '', 'MySQL compatibility.'),
  v('interactive_timeout', 'int', 3600, "Seconds an idle interactive connection (one that connected with CLIENT_INTERACTIVE) is kept: its session wait_timeout starts from this global value. Doris's default 3600 (MySQL's is 28800).", { validate: between(1, 31536000) }),
  v('wait_timeout', 'int', 28800, 'Seconds a session may sit idle between commands; then the server sends error 4031 and closes it. Read after every command, so SET wait_timeout applies to the next wait.', { validate: between(1, 31536000) }),
  v('connect_timeout', 'int', 10, 'Seconds a new connection has to finish the handshake and log in; then the server drops it without a reply (as MySQL).', { globalOnly: true, validate: between(2, 31536000) }),
  v('max_connections', 'int', 1024, 'Most authenticated sessions at once (default: the max_connections / qe_max_connection setting); the next login gets error 1040 Too many connections. Applies to new connections at once.', { globalOnly: true, validate: between(1, 100000) }),
  v('max_user_connections', 'int', 100, "Most sessions one user may have at once (Doris's per-user default 100); the next login gets error 1203. 0 = no per-user limit.", { globalOnly: 'session-read-only', validate: between(0, 4294967295) }),
  accepted('net_write_timeout', 'int', 600, 'MySQL compatibility.'),
  accepted('net_read_timeout', 'int', 600, 'MySQL compatibility.'),
  accepted('net_buffer_length', 'int', 16384, 'MySQL compatibility.'),
  v('max_allowed_packet', 'int', 67108864, 'Largest packet (after joining 16 MiB pieces) the server accepts after login; a longer one gets error 1153 and the connection is closed. A new value applies to connections opened after it. Before login the limit is 16 KiB.', { globalOnly: 'session-read-only', validate: between(1024, 1073741824) }),
  v('lower_case_table_names', 'int', 0, 'Table names are case-sensitive (0), as in Doris by default.', { readOnly: true }),
  v('license', 'string', 'Apache License, Version 2.0', 'License.', { readOnly: true }),
  v('language', 'string', '/palo/share/english/', 'MySQL compatibility.', { readOnly: true }),
  accepted('sql_mode', 'string', 'ONLY_FULL_GROUP_BY', 'SQL mode (accepted for compatibility).'),
  v('sql_select_limit', 'int', UINT64_MAX, "Most rows a top-level SELECT returns when it has no LIMIT of its own (MySQL semantics; JDBC setMaxRows sets it). DEFAULT resets it.", { validate: unsignedInt }),
  v('system_time_zone', 'string', systemTimeZoneName(), 'Time zone of the server (its TZ / /etc/localtime).', { readOnly: true, docDefault: "the server's time zone" }),
  v('time_zone', 'string', systemTimeZoneName(), "Session time zone: '+08:00' (offsets -12:59 .. +14:00), an IANA name such as 'Asia/Shanghai', 'UTC', or Doris's aliases CST / PRC (Asia/Shanghai) and GMT (UTC). NOW(), CURDATE(), CURTIME(), FROM_UNIXTIME() and UNIX_TIMESTAMP() read it; DATETIME values are wall-clock values and do not move when it changes. An unknown zone is error 1298.", {
    docDefault: "the server's time zone",
    normalize: (value) => {
      const zone = resolveTimeZone(String(value));
      if (zone === null) throw new GaleneError('UNKNOWN_TIME_ZONE', [String(value)]);
      return zone.name;
    },
  }),
  accepted('transaction_isolation', 'string', 'REPEATABLE-READ', 'MySQL compatibility.'),
  accepted('tx_isolation', 'string', 'REPEATABLE-READ', 'MySQL compatibility.'),
  accepted('transaction_read_only', 'bool', false, 'MySQL compatibility.'),
  accepted('tx_read_only', 'bool', false, 'MySQL compatibility.'),
  v('have_query_cache', 'string', 'YES', 'MySQL compatibility.', { readOnly: true }),
  accepted('query_cache_size', 'int', 1048576, 'MySQL compatibility.'),
  accepted('query_cache_type', 'int', 0, 'MySQL compatibility.'),
  v('performance_schema', 'bool', false, 'MySQL compatibility.', { readOnly: true }),
  v('version', 'string', SERVER_VERSION, 'Server version reported to MySQL clients.', { readOnly: true }),
  v('version_comment', 'string', VERSION_COMMENT, 'Server description.', { readOnly: true }),
  v('query_timeout', 'int', 900, 'Seconds a query may run.', { validate: (value) => (Number(value) > 0 ? null : 'must be positive') }),
  v('inline_cte_referenced_threshold', 'int', 1, 'A CTE referenced more times than this is computed once and its rows shared (Doris\'s name and default).', { validate: (value) => (Number(value) >= 0 ? null : 'must not be negative') }),
  v('enable_cte_materialize', 'bool', true, 'Compute a CTE referenced more than inline_cte_referenced_threshold times once (Doris\'s name and default).'),
  v('cte_max_recursion_depth', 'int', 1000, 'Rounds a WITH RECURSIVE query may run before it fails (MySQL\'s variable and default).', { validate: (value) => (Number(value) >= 0 ? null : 'must not be negative') }),
  v('insert_timeout', 'int', 14400, 'Seconds an INSERT may run.'),
  v('exec_mem_limit', 'int', 100147483648, "Bytes of memory one query may use (Doris's default, about 100 GB: in effect the process's memory bounds a query)."),
  accepted('parallel_pipeline_task_num', 'int', 0, 'Scan parallelism per query (0 = one per core).'),
  accepted('enable_profile', 'bool', false, 'Doris compatibility; Galene keeps a profile for every query.'),
  v('group_commit', 'string', 'off_mode', 'Group Commit mode for INSERT INTO VALUES.', { validate: oneOf('off_mode', 'sync_mode', 'async_mode') }),
  v('enable_prepared_stmt_audit_log', 'bool', false, 'Write prepared executions to the audit log.'),
  // MariaDB Connector/J sets these on connect when the server offers CLIENT_SESSION_TRACK.
  accepted('session_track_system_variables', 'string', 'time_zone,autocommit,character_set_client,character_set_results,character_set_connection', 'MySQL compatibility (accepted; no session-state tracking is sent).'),
  accepted('session_track_schema', 'bool', true, 'MySQL compatibility.'),
  accepted('session_track_state_change', 'bool', false, 'MySQL compatibility.'),
  v('max_prepared_stmt_count', 'int', 16382, 'Most prepared statements open at once in the whole server (MySQL default 16382); PREPARE beyond it fails with error 1461.', {
    validate: (value) => (Number(value) >= 0 && Number(value) <= 4194304 ? null : 'must be between 0 and 4194304'),
  }),
  v('enable_unique_key_partial_update', 'bool', false, 'INSERT with a column list into a merge-on-write UNIQUE KEY table updates only those columns of existing rows.'),
  accepted('enable_insert_strict', 'bool', true, 'INSERT fails on a row that does not fit its column instead of filtering it.'),
  accepted('sql_quote_show_create', 'bool', true, 'MySQL compatibility.'),
  accepted('default_storage_engine', 'string', 'olap', 'MySQL compatibility.'),
  accepted('storage_engine', 'string', 'olap', 'MySQL compatibility.'),
  accepted('sql_safe_updates', 'int', 0, 'MySQL compatibility.'),
  v('names', 'string', 'utf8mb4', 'Set by SET NAMES x, with character_set_client, character_set_connection and character_set_results (UTF-8 only: utf8, utf8mb3, utf8mb4, binary; others are error 1115, as in Doris).'),
  v('disable_nereids_rules', 'string', '', 'Optimizer rules (and physical passes) to skip, by name, comma-separated.'),
  v('experimental_enable_virtual_slot_for_cse', 'bool', false, "Compute an expression repeated in one query block (WHERE, select list, ORDER BY, GROUP BY, aggregate arguments, HAVING) once per batch as a virtual column that every use reads (EXPLAIN: virtual columns). Doris's default: off."),
  v('topn_lazy_materialization_threshold', 'int', 1024, "ORDER BY ... LIMIT n [OFFSET m] with n + m at most this reads the columns the filter and sort keys need first, sorts, then reads the other columns of just the final rows by row id (EXPLAIN: MATERIALIZE). -1 or 0 turns it off. Doris's default: 1024."),
  // Runtime filters (exec/plan/runtime-filters.ts, exec/runtime-filter.ts), read when a statement is planned.
  v('runtime_filter_mode', 'string', 'GLOBAL', "Whether hash joins build runtime filters from their build keys for the scans on their probe side (EXPLAIN: runtime filters). OFF: none; GLOBAL and LOCAL are the same on one node. Doris's default: GLOBAL.", { validate: oneOf('off', 'local', 'global') }),
  v('runtime_filter_type', 'string', 'IN_OR_BLOOM_FILTER,MIN_MAX', "Runtime filter kinds planned per join key, comma-separated: IN, BLOOM_FILTER, MIN_MAX, IN_OR_BLOOM_FILTER (IN when the build side has at most runtime_filter_max_in_num distinct keys, else BLOOM_FILTER); BITMAP_FILTER is accepted and builds nothing. Also Doris's bit mask (1 IN, 2 BLOOM_FILTER, 4 MIN_MAX, 8 IN_OR_BLOOM_FILTER). Doris's default: IN_OR_BLOOM_FILTER,MIN_MAX.", {
    validate: (value) => (parseRuntimeFilterType(String(value)) === null ? 'expected IN, BLOOM_FILTER, MIN_MAX, IN_OR_BLOOM_FILTER, BITMAP_FILTER or a bit mask' : null),
  }),
  v('enable_runtime_filter_prune', 'bool', true, "Plan no runtime filter from a hash join's build side that nothing filters (no WHERE, pushed predicate or LIMIT anywhere under it: a whole table, or joins of whole tables), whose keys would let every probe row through. Doris's default: on.", {}),
  v('runtime_filters_max_num', 'int', 10, "Most runtime filters one statement plans (each kind of each key counts one). Doris's default: 10.", { validate: (value) => (Number(value) >= 0 ? null : 'must not be negative') }),
  v('runtime_filter_max_in_num', 'int', 1024, "An IN_OR_BLOOM_FILTER is an IN filter when the build side has at most this many distinct keys, else a bloom filter. Doris's default: 1024.", { validate: (value) => (Number(value) >= 0 ? null : 'must not be negative') }),
  v('runtime_bloom_filter_max_size', 'int', 16777216, "Most bytes of a runtime bloom filter (sized at 2 bytes per build row, a power of two, at least 1024). Doris's default: 16777216.", { validate: (value) => (Number(value) >= 1024 ? null : 'must be at least 1024') }),
  v('optimize_index_scan_parallelism', 'bool', false, "An index-driven scan (ANN TopN or range search) that runs in the scan workers makes one task per segment, however small (more parallel index searches when segments are small, as with high-dimensional vectors); off, consecutive segments share a task up to 2,097,152 rows and are searched one after another. Read when the statement is planned. Doris's default: off."),
  // Slice P (primary-key index): Doris's short-circuit point query.
  v('enable_short_circuit_query', 'bool', true, "A prepared SELECT whose WHERE is one equality per key column of a merge-on-write UNIQUE KEY table skips planning on EXECUTE: the key is bound straight from the parameters and looked up through the primary-key index of the one tablet it hashes to (profile: ShortCircuitQueries). Doris's default: on."),
  v('hnsw_ef_search', 'int', 32, 'Candidates an HNSW (ANN index) search keeps: larger is better recall and slower. Each segment searches with max(hnsw_ef_search, LIMIT + OFFSET), so a query never returns fewer rows than LIMIT because of it.', {
    validate: between(1, 100000),
  }),
  // Slice C (file cache): the per-query file-cache controls, read when a statement starts. They act on
  // reads through the block cache (tables in a remote vault); over the local directory store every read
  // is in place, so they are listed as accepted (SET answers the Note) until remote vaults are in use.
  accepted('disable_file_cache', 'bool', false, 'Read remote objects without the BE file cache: nothing is looked up or filled (each read counts NumSkipCacheIOTotal in the profile).'),
  accepted('file_cache_query_limit_bytes', 'int', -1, "Bytes of data blocks one query may fill into the file cache on this BE; the block that would pass it turns the query remote-only on misses (RemoteOnlyOnMissTriggered; later misses count NumSkipCacheIOTotal). Footer and index blocks are not counted. -1: no limit; 0: no fills. Doris's default: -1.", {
    validate: (value) => (Number(value) >= -1 ? null : 'must be -1 or more'),
  }),
  accepted('file_cache_query_limit_percent', 'int', -1, "Most share (percent, 1-100) of the file cache one query's own blocks may hold, with the BE setting enable_file_cache_query_limit on: past it the query's oldest blocks are evicted first. -1 (or 0): no limit. Doris's default: -1.", {
    validate: (value) => (Number(value) >= -1 && Number(value) <= 100 ? null : 'must be between -1 and 100'),
  }),
  // End of slice C.
  ...DORIS_ACCEPTED_VARIABLES.map(([name, type, defaultValue, description]) => accepted(name, type, defaultValue, description, GLOBAL_ONLY_ACCEPTED.has(name) ? { globalOnly: true } : {})),
];

const BY_NAME = new Map(SESSION_VARIABLES.map((def) => [def.name, def]));
if (BY_NAME.size !== SESSION_VARIABLES.length) throw new Error('session variable registry: a name is declared twice');

export function findSessionVariable(name: string): SessionVariableDef | undefined {
  return BY_NAME.get(name.toLowerCase());
}

export function variableType(def: SessionVariableDef): DataType {
  if (def.type === 'int' && typeof def.defaultValue === 'string') return Types.LARGEINT;
  return def.type === 'string' || def.type === 'double' ? Types.varchar(1024) : Types.BIGINT;
}

/**
 * Convert a SET value (raw value of any type) to the variable's type. As MySQL: a value of the wrong type
 * (text that is no integer, for a number) is error 1232 WRONG_TYPE_FOR_VAR, a value of the right type the
 * variable does not allow is 1231 WRONG_VALUE_FOR_VAR.
 */
export function coerceVariable(def: SessionVariableDef, value: RawValue): string | number | boolean {
  const text = value === null ? 'NULL' : String(value);
  let out: string | number | boolean;
  if (def.type === 'int') {
    if (value === null) throw new GaleneError('WRONG_VALUE_FOR_VAR', [def.name, text]);
    // Doris parses a quoted number too (SET exec_mem_limit = "8589934592"); anything else is 1232.
    if (!/^\s*-?\d+\s*$/.test(text)) throw new GaleneError('WRONG_TYPE_FOR_VAR', [def.name]);
    const num = Number(text.trim());
    out = Number.isSafeInteger(num) ? num : BigInt(text.trim()).toString();
  } else if (def.type === 'double') {
    const num = Number(text);
    if (value === null || text.trim() === '' || !Number.isFinite(num)) throw new GaleneError('WRONG_TYPE_FOR_VAR', [def.name]);
    out = num;
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
  return def.normalize ? def.normalize(out) : out;
}

/** Raw value of a variable for @@name and SHOW VARIABLES (bools as 1/0 as MySQL shows them). */
export function variableRaw(def: SessionVariableDef, value: string | number | boolean): RawValue {
  if (def.type === 'bool') return value ? 1n : 0n;
  if (def.type === 'int') return typeof value === 'string' ? BigInt(value) : BigInt(Math.trunc(Number(value)));
  if (def.type === 'double') return String(value);
  return String(value);
}
