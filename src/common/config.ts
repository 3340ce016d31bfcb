/**
 * The one configuration system: every server setting is one entry in SETTINGS (Doris's name, type,
 * default, description, whether it can change at run time). Values come, lowest to highest priority, from
 * the defaults, the config file (`galene.conf`, `key = value` lines), environment variables
 * (`GALENE_<NAME>` upper-cased) and command-line flags (`--name value` or `--name=value`).
 * `--help`, the docs and `ADMIN SHOW CONFIG` read this registry.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import { DEFAULT_SLICE_MS } from './cooperative-scheduler';
import { GaleneError } from './errors';
import { logLevelProblem, rollModeProblem } from './server-log';

export type SettingType = 'int' | 'bool' | 'string' | 'bytes';

export interface SettingDef {
  readonly name: string;
  readonly type: SettingType;
  readonly defaultValue: string | number | boolean;
  readonly description: string;
  readonly mutable: boolean;
  readonly validate?: (value: unknown) => string | null;
}

const def = (name: string, type: SettingType, defaultValue: string | number | boolean, description: string, mutable = false, validate?: (v: unknown) => string | null): SettingDef => ({ name, type, defaultValue, description, mutable, validate });

const port = (v: unknown): string | null => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535 ? null : 'must be a port number 0..65535 (0 picks a free port)');

export const SETTINGS: readonly SettingDef[] = [
  def('query_port', 'int', 9030, 'FE MySQL protocol port.', false, port),
  def('http_port', 'int', 8030, 'FE HTTP port (Stream Load entry, REST API, /metrics).', false, port),
  def('webserver_port', 'int', 8040, 'BE HTTP port (Stream Load, /metrics, /api/update_config).', false, port),
  def('brpc_port', 'int', 8060, 'BE internal RPC port (peer reads, fragment execution).', false, port),
  def('rpc_port', 'int', 9020, 'FE internal RPC port (gRPC FrontendService: BEs started with --fe register here). Used by `galene fe`.', false, port),
  def('heartbeat_service_port', 'int', 9050, 'BE internal RPC port (gRPC): the FE heartbeats the BE here, and every BE service (HeartbeatService, FragmentService) is served here and on brpc_port. Used by `galene be`; the port ALTER SYSTEM ADD BACKEND names.', false, port),
  def('heartbeat_interval_second', 'int', 10, 'Seconds between the FE\'s heartbeats to each BE (Doris FE setting).', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('heartbeat_interval_ms', 'int', 0, 'Testing: when > 0, milliseconds between heartbeats instead of heartbeat_interval_second.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('max_backend_heartbeat_failure_times', 'int', 3, 'Heartbeats in a row a BE may miss before the FE marks it not alive (Doris FE setting).', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('priority_networks', 'string', '', 'Accepted for Doris compatibility; use bind_address to choose the interface.'),
  def('bind_address', 'string', '127.0.0.1', 'Address every server listens on (0.0.0.0 for all interfaces).'),
  def('data_dir', 'string', './galene-data', 'Where metadata, local object-store data, caches and WALs live.'),
  def('user_files_secure_path', 'string', '', 'The only directory the local() table function reads files from (paths are relative to it; no path may leave it). Default: <data_dir>/user_files.'),
  def('meta_dir', 'string', '', 'Metadata directory (SQLite file). Default: <data_dir>/meta.'),
  def('object_store_dir', 'string', '', 'Local-directory object store root. Default: <data_dir>/objects.'),
  def('file_cache_path', 'string', '', 'File cache locations as a Doris JSON array: [{"path":"/p","total_size":N}], with optional queue shares ttl_percent (50), normal_percent (40), disposable_percent (5), index_percent (5) summing to 100. Used with remote object stores. Default: <data_dir>/file_cache, 10 GiB.'),
  def('file_cache_each_block_size', 'bytes', 1048576, 'File cache block size in bytes.'),
  // Slice C (file cache, issue 13): Doris's BE settings of the block file cache.
  def('clear_file_cache', 'bool', false, 'Wipe the file cache when the BE starts.'),
  def('enable_evict_file_cache_in_advance', 'bool', true, 'Evict file cache blocks in the background once the cache is file_cache_enter_need_evict_cache_in_advance_percent full, so that reads rarely wait for eviction.'),
  def('file_cache_enter_need_evict_cache_in_advance_percent', 'int', 88, 'Used share of the file cache (percent) at which the background eviction starts.', false, (v) => ((v as number) > 0 && (v as number) <= 100 ? null : 'must be 1..100')),
  def('file_cache_exit_need_evict_cache_in_advance_percent', 'int', 85, 'Used share of the file cache (percent) the background eviction brings it down to (below the enter percent).', false, (v) => ((v as number) > 0 && (v as number) < 100 ? null : 'must be 1..99')),
  def('file_cache_background_lru_dump_interval_ms', 'int', 5000, 'How often the file cache writes the LRU order of each queue to disk when it changed (also written on shutdown), so a restart keeps the order; 0: only on shutdown.', false, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('enable_file_cache_query_limit', 'bool', false, 'Honour the session variable file_cache_query_limit_percent (the share of the file cache one query may hold).', true),
  // End of slice C.
  def('storage_page_cache_limit', 'string', '20%', 'Decoded page cache capacity: bytes or a percentage of physical memory.'),
  def('max_connections', 'int', 1024, 'Most authenticated MySQL sessions at once (the global variable max_connections starts from it; a change applies to new connections at once).', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('qe_max_connection', 'int', 1024, 'Doris name for max_connections (kept as an alias; when set to other than 1024 it wins).', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('max_unauthenticated_connections', 'int', 256, 'Most MySQL sockets still in the handshake at once, counted apart from max_connections so that sockets which never log in cannot lock clients out; one more gets error 1040 before the greeting. Each has connect_timeout seconds to log in.', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('enable_stream_load_record', 'bool', false, 'Keep a record of each finished Stream Load for SHOW STREAM LOAD (Doris BE setting, off by default as in Doris).', true),
  def('label_keep_max_second', 'int', 3 * 24 * 3600, 'How long finished load labels are kept.', true),
  def('max_tablet_version_num', 'int', 2000, 'A tablet with this many versions rejects new loads (-235) until compaction catches up.', true),
  def('disable_auto_compaction', 'bool', false, 'Turn off background compaction for every table (the table property of the same name turns it off for one table).', true),
  def('dynamic_partition_enable', 'bool', true, 'Run the dynamic partition scheduler: tables with dynamic_partition.enable = true get their partitions created and dropped on schedule (Doris FE setting).', true),
  def('dynamic_partition_check_interval_seconds', 'int', 600, 'Seconds between passes of the dynamic partition scheduler (Doris FE setting).', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('default_bucket_num', 'int', 10, 'Buckets when CREATE TABLE has no DISTRIBUTED BY ... BUCKETS.', true),
  def('scan_thread_num', 'int', Math.max(1, os.cpus().length), 'Worker threads for scans.'),
  def('parallel_scan_min_rows_per_scanner', 'int', 65536, 'Tables with fewer rows scan on the main thread; larger scans, filters and aggregates run in the scan_thread_num worker threads (0 threads: always on the main thread).'),
  def('debug_remote_scan_backends', 'int', 0, 'Testing and diagnosis: when > 0, this one-process server reads OLAP tables the way a cluster FE does — every tablet through the remote scan path (read descriptor, fragment executor, the wire codec both ways) of this many loopback backends (ids 1..n, a tablet owned by backend 1 + tablet id mod n), all served by this process\'s BE. 0: read tables directly.', false, (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 16 ? null : 'must be 0..16')),
  def('debug_remote_scan_transport', 'string', 'loopback', 'Testing (with debug_remote_scan_backends): how the FE reaches its loopback backends. loopback: each call is served in this process through the wire codec; grpc: over real gRPC — the FE starts the BE\'s FragmentService on 127.0.0.1 (a free port) in this process and every call is an RPC to it, with deadlines, cancellation and flow control (an unreachable backend of debug_remote_scan_unreachable_backend is then a port nothing listens on).', false, (v) => (v === 'loopback' || v === 'grpc' ? null : "must be 'loopback' or 'grpc'")),
  def('debug_remote_scan_unreachable_backend', 'int', 0, 'Testing (fault hook of debug_remote_scan_backends): calls to this loopback backend id fail as an unreachable backend would, before sending anything; 0: none.', true, (v) => (Number.isInteger(v) && (v as number) >= 0 ? null : 'must be >= 0')),
  def('ann_search_in_thread_max_segments', 'int', 8, 'An ANN TopN search (no allowed-row filter) over at most this many indexed segments, with few vectors to scan exactly, runs on the main thread instead of in the scan workers: each index search is a short native call, cheaper than the worker round trip. 0: always in the workers when the table scans in parallel.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('enable_scan_dynamic_parallelism', 'bool', true, 'Size the number of scan worker tasks a query keeps in flight from the scan pool pressure (tasks queued and running over all queries): up to two per worker when idle, down to one under load. false: always two per worker (for measuring).', true),
  def('exec_yield_slice_ms', 'int', DEFAULT_SLICE_MS, 'Milliseconds a running statement computes before it lets the event loop serve other sessions (cooperative time slicing; all running statements together get at most twice this per loop turn). 0 turns slicing off: a heavy statement then delays every other client until it ends (for measuring).', true, (v) => ((v as number) >= 0 && (v as number) <= 1000 ? null : 'must be 0..1000')),
  def('sys_log_level', 'string', 'INFO', 'Lowest level written to fe.log and be.log: DEBUG, INFO, WARN (or WARNING), ERROR, FATAL (fe.warn.log and be.warn.log always get WARN and above). A bad value refuses to start, and ADMIN SET / update_config refuse it.', true, logLevelProblem),
  def('sys_log_dir', 'string', '', 'Directory of the server logs (fe.log, fe.warn.log, be.log, be.warn.log). Default: <data_dir>/log.'),
  def('sys_log_roll_num', 'int', 10, 'Rolled log files kept per log (fe.log.1 ... fe.log.<n>, be.log.1 ...); older ones are deleted.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('sys_log_roll_mode', 'string', 'SIZE-MB-1024', 'When a log file rolls: SIZE-MB-<n>, at n megabytes.', true, rollModeProblem),
  def('group_commit_wal_path', 'string', '', 'Group Commit WAL directories, separated by `;` (each new WAL goes to a random one with space). Default: <data_dir>/wal.'),
  def('group_commit_max_wal_num_per_table', 'int', 10, 'Most Group Commit WAL files one table may have (open async batches plus WALs waiting for replay); past it async loads to the table fail with EXCEEDED_LIMIT. 0 = unlimited.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('group_commit_queue_mem_limit', 'bytes', 67108864, 'Bytes all open Group Commit batches may hold together; writers beyond it wait (and open batches commit early).', true),
  def('group_commit_queue_mem_wait_timeout_seconds', 'int', 120, 'How long a Group Commit writer waits for group_commit_queue_mem_limit before failing (Doris: 120 s, fixed).', true),
  def('group_commit_replay_wal_retry_num', 'int', 10, 'WAL replay attempts with exponential backoff before retrying every group_commit_replay_wal_retry_interval_max_seconds.', true),
  def('group_commit_replay_wal_retry_interval_seconds', 'int', 5, 'Base delay of WAL replay retries (doubled after each failure).', true),
  def('group_commit_replay_wal_retry_interval_max_seconds', 'int', 1800, 'Longest delay between WAL replay retries.', true),
  def('group_commit_wal_max_disk_limit', 'string', '10%', 'Most bytes Group Commit WALs may use: bytes or a percentage of the WAL disk; past it async loads run as sync_mode.', true),
  def('ann_index_build_min_segment_rows', 'int', 10000, 'Segments with fewer rows get no ANN (HNSW) index file and are searched exactly (Doris BE setting). Applies to every segment written from then on: load flush, INSERT, group commit, compaction, BUILD INDEX. Index parameters follow the segment size, not the table size (docs/vector-search.md).', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('group_commit_wal_fsync', 'bool', true, 'Test-only: false skips the fsync of async-mode WAL appends (acknowledged rows may then be lost on a crash). For measuring what the fsync costs.', true),
  // Slice W (write pipeline, issue 13): memtables, flush and upload pools, load memory, backpressure.
  def('write_buffer_size', 'bytes', 209715200, 'Bytes a tablet memtable of one load accumulates (over all its batches) before it is flushed into a segment (Doris: 200 MB).', true, (v) => ((v as number) >= 1024 ? null : 'must be >= 1024')),
  def('mem_limit', 'string', '90%', 'Memory the BE process may use: bytes or a percentage of physical memory (Doris: 90%). Load memory is a share of it (load_process_max_memory_limit_percent).'),
  def('load_process_max_memory_limit_percent', 'int', 50, 'Hard limit of load memory (memtables being filled, flushed or uploaded), percent of mem_limit: at it every load writer waits for flushes (Doris: 50).', true, (v) => ((v as number) >= 1 && (v as number) <= 100 ? null : 'must be 1..100')),
  def('load_process_soft_mem_limit_percent', 'int', 80, 'Soft limit of load memory, percent of the hard limit: above it the largest memtable is flushed first (Doris: 80).', true, (v) => ((v as number) >= 1 && (v as number) <= 100 ? null : 'must be 1..100')),
  def('memtable_flush_running_count_limit', 'int', 2, 'A tablet writer waits (10 ms steps, WaitFlushLimitTime) while this many of its memtables are flushing (twice as many for a request that flushes two memtables per logical flush). Loads into a remote store wait on the upload queue instead (Doris: 2).', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('enable_s3_upload_queue_backpressure', 'bool', true, 'Loads into a remote (S3) store wait while the upload queue is above s3_upload_queue_busy_threshold (apache/doris #66847). false: the old policy, the flush count, for every store.', true),
  def('s3_upload_queue_busy_threshold', 'int', 100, 'Upload queue length above which the upload pool is busy: loads into a remote store wait, and the adaptive controller removes flush threads (Doris: kS3QueueBusyThreshold, 100).', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('num_s3_file_upload_thread_pool_max_thread', 'int', 64, 'Segment and index uploads running at once (the upload pool); more wait in its queue (Doris: 64).', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('flush_thread_num_per_store', 'int', 6, 'Memtable flush worker threads to start with, and the fewest the adaptive controller keeps (Doris: 6).', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('max_flush_thread_num_per_cpu', 'int', 4, 'Most memtable flush threads per CPU core the adaptive controller grows to (every 10 s: a flush queue over 10 adds one, a busy upload queue removes two) (Doris: 4).', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  // End of slice W.
  // Slice G (ingest speed, issue 13).
  def('group_commit_wal_preallocate_bytes', 'bytes', 0, 'Zeros an fsync\'d Group Commit WAL is created with (and written again past each append that outgrows them, at least as many as the file holds, up to 64 MiB): appends then overwrite allocated blocks, so their fsync does not also commit a growing file size. 0 (default, until a quiet-machine measurement shows a gain; docs/benchmarks.md): the file grows with every append.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  // End of slice G.
  // Slice F (faults, issue 13): the recycler of objects that aborted loads left in the object store.
  def('recycle_interval_seconds', 'int', 3600, 'How often the BE deletes the objects of aborted loads that are still in the object store (an upload that finished after its load failed, or a delete that failed during a storage outage), as Doris\'s recycler does; objects of crashed loads are deleted at start-up. 0: only at start-up.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  // End of slice F.
  // Slice P (Peer Read, issue 16): BE settings of Doris 4.2's peer cache read (reference/doris-facts.md A.2).
  def('enable_cache_read_from_peer', 'bool', false, 'After a local file-cache miss, read the missing blocks from another BE\'s file cache (same or other compute group) before or while reading object storage (Doris 4.2 Peer Read; off by default as in the seed). Used by `galene be` processes over S3 vaults (docs/peer-read.md).', true),
  def('enable_peer_s3_race', 'bool', true, 'Race the peer against object storage: the peer gets peer_race_hedge_delay_ms of head start, then storage is read too and the first answer wins. false: candidates one by one, then storage.', true),
  def('peer_race_hedge_delay_ms', 'int', 20, 'The peer\'s head start in a race (ms); 0 starts both reads together.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('max_concurrent_peer_races', 'int', 64, 'Races running at once on this BE; beyond it reads go sequential.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('peer_cache_fill_compute_group_id', 'string', '', 'On a requester: the id (not the name) of the compute group whose BEs read storage on a miss, cache the block and return it (request_cache_fill). Empty: none.', true),
  def('enable_peer_server_cache_fill', 'bool', true, 'On a server: accept fill requests (read storage, cache the block, return it).', true),
  def('peer_server_cache_fill_timeout_ms', 'int', 6000, 'Longest single fill on a server (ms); the requester then reads storage itself.', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('max_concurrent_peer_server_fills', 'int', 32, 'Fills running at once on a server; more are rejected and their requesters fall back.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('peer_rpc_failure_eviction_threshold', 'int', 3, 'Peer RPC failures in a row after which a candidate is dropped.', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('peer_all_miss_cooldown_threshold', 'int', 5, 'Reads in a row on which every candidate of a tablet missed, after which the tablet cools down.', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('peer_all_miss_cooldown_duration_s', 'int', 300, 'Seconds a cooled-down tablet reads object storage directly.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('peer_candidate_expiry_s', 'int', 3600, 'Seconds after which an unused candidate entry is dropped.', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('peer_candidate_cleanup_interval_s', 'int', 3600, 'Seconds between runs of the job that drops expired candidate entries.', true, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  def('peer_fetch_queue_timeout_ms', 'int', 100, 'On a server: a peer request that waited this long (ms) for a fetch slot is rejected.', true, (v) => ((v as number) >= 0 ? null : 'must be >= 0')),
  def('brpc_peer_fetch_pool_threads', 'int', Math.max(64, 2 * os.cpus().length), 'On a server: peer requests served at once (the fetch pool); more wait up to peer_fetch_queue_timeout_ms.', false, (v) => ((v as number) >= 1 ? null : 'must be >= 1')),
  // End of slice P.
];

const BY_NAME = new Map(SETTINGS.map((setting) => [setting.name, setting]));

export function findSetting(name: string): SettingDef | undefined {
  return BY_NAME.get(name);
}

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, t: 1024 ** 4, tb: 1024 ** 4 };

/** Parse '64MB', '1g', '1048576' into bytes; null if not a size. */
export function parseBytes(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  if (!match) return null;
  const unit = BYTE_UNITS[match[2].toLowerCase()];
  return unit === undefined ? null : Math.floor(Number(match[1]) * unit);
}

function coerce(setting: SettingDef, raw: unknown, source: string): string | number | boolean {
  const bad = (why: string): GaleneError => new GaleneError('INVALID_PROPERTY', [setting.name, `${String(raw)} (${source}): ${why}`]);
  let value: string | number | boolean;
  switch (setting.type) {
    case 'int': {
      const num = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isInteger(num)) throw bad('expected an integer');
      value = num;
      break;
    }
    case 'bytes': {
      const num = typeof raw === 'number' ? raw : parseBytes(String(raw));
      if (num === null || !Number.isFinite(num)) throw bad('expected a size in bytes (e.g. 1048576 or 64MB)');
      value = num;
      break;
    }
    case 'bool': {
      const text = String(raw).trim().toLowerCase();
      if (text === 'true' || text === '1') value = true;
      else if (text === 'false' || text === '0') value = false;
      else throw bad('expected true or false');
      break;
    }
    default:
      value = String(raw);
  }
  const why = setting.validate?.(value);
  if (why) throw bad(why);
  return value;
}

/** A resolved configuration: defaults overlaid by file, environment and flags. */
export class Config {
  private readonly values = new Map<string, string | number | boolean>();
  private readonly listeners = new Map<string, ((value: unknown) => void)[]>();

  constructor(overrides: Record<string, unknown> = {}) {
    for (const setting of SETTINGS) this.values.set(setting.name, setting.defaultValue);
    for (const [name, value] of Object.entries(overrides)) this.set(name, value, 'override');
  }

  get<T extends string | number | boolean>(name: string): T {
    if (!BY_NAME.has(name)) throw new GaleneError('INTERNAL', [`unknown setting ${name}`]);
    return this.values.get(name) as T;
  }

  getInt(name: string): number {
    return this.get<number>(name);
  }

  getString(name: string): string {
    return this.get<string>(name);
  }

  set(name: string, raw: unknown, source = 'runtime'): void {
    const setting = BY_NAME.get(name);
    if (!setting) throw new GaleneError('INVALID_PROPERTY', [name, `unknown setting (${source})`]);
    const value = coerce(setting, raw, source);
    this.values.set(name, value);
    for (const listener of this.listeners.get(name) ?? []) listener(value);
  }

  /** Called when a mutable setting changes at run time. */
  onChange(name: string, listener: (value: unknown) => void): void {
    const list = this.listeners.get(name) ?? [];
    list.push(listener);
    this.listeners.set(name, list);
  }

  entries(): [string, string | number | boolean][] {
    return [...this.values.entries()];
  }
}

/** Parse `key = value` lines; `#` starts a comment. */
export function parseConfigFile(text: string, file: string): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, lineIdx) => {
    const stripped = line.replace(/#.*$/, '').trim();
    if (!stripped) return;
    const eq = stripped.indexOf('=');
    if (eq <= 0) throw new GaleneError('INVALID_PROPERTY', [file, `line ${lineIdx + 1}: expected key = value`]);
    out[stripped.slice(0, eq).trim()] = stripped.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  });
  return out;
}

/**
 * Resolve the configuration for a process from argv (after the sub-command), the environment and an
 * optional config file (`--config FILE`, else ./galene.conf when present).
 */
export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Config {
  const flags: Record<string, string> = {};
  let configFile: string | null = null;
  for (let argIdx = 0; argIdx < argv.length; argIdx++) {
    const arg = argv[argIdx];
    if (!arg.startsWith('--')) throw new GaleneError('INVALID_PROPERTY', [arg, 'expected --name value']);
    let name = arg.slice(2);
    let value: string;
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    } else {
      if (argIdx + 1 >= argv.length) throw new GaleneError('INVALID_PROPERTY', [name, 'missing value']);
      value = argv[++argIdx];
    }
    if (name === 'config') configFile = value;
    else flags[name.replace(/-/g, '_')] = value;
  }
  const config = new Config();
  const file = configFile ?? (fs.existsSync('galene.conf') ? 'galene.conf' : null);
  if (file) {
    for (const [name, value] of Object.entries(parseConfigFile(fs.readFileSync(file, 'utf8'), file))) config.set(name, value, file);
  }
  for (const setting of SETTINGS) {
    const envValue = env[`GALENE_${setting.name.toUpperCase()}`];
    if (envValue !== undefined) config.set(setting.name, envValue, `GALENE_${setting.name.toUpperCase()}`);
  }
  for (const [name, value] of Object.entries(flags)) config.set(name, value, `--${name}`);
  return config;
}

/** `--help` text generated from the registry. */
export function settingsHelp(): string {
  return SETTINGS.map((setting) => `  --${setting.name} <${setting.type}>  (default ${JSON.stringify(setting.defaultValue)})\n      ${setting.description}`).join('\n');
}

/**
 * The BE's `POST /api/update_config?name=value` (served by `galene start` and `galene be`): change one
 * run-time-changeable setting, answered as Doris does (`{"status":"OK","msg":""}`, or `"BAD"` with the
 * reason). Settings not marked changeable are refused; `persist=true` (Doris writes be_custom.conf) is
 * refused too: lasting values go in galene.conf.
 */
export function updateConfig(config: Config, params: URLSearchParams): { status: 'OK' | 'BAD'; msg: string } {
  const entries = [...params.entries()];
  const persist = entries.find(([name]) => name === 'persist');
  const settings = entries.filter(([name]) => name !== 'persist');
  const bad = (msg: string): { status: 'BAD'; msg: string } => ({ status: 'BAD', msg });
  if (settings.length !== 1) return bad("Now only support to set a single config once, via 'config_name=new_value'");
  const [name, value] = settings[0]!;
  const failed = (reason: string): { status: 'BAD'; msg: string } => bad(`set ${name}=${value} failed, reason: ${reason}`);
  const setting = findSetting(name);
  if (!setting) return failed(`[NOT_FOUND]'${name}' is not found`);
  if (!setting.mutable) return failed(`[NOT_IMPLEMENTED_ERROR]'${name}' is not support to modify`);
  if (persist && persist[1].toLowerCase() === 'true') return failed('[NOT_IMPLEMENTED_ERROR]persist=true is not supported; put the setting in galene.conf');
  try {
    config.set(name, value, 'update_config');
  } catch (err) {
    return failed(`[INVALID_ARGUMENT]${err instanceof Error ? err.message : String(err)}`);
  }
  return { status: 'OK', msg: '' };
}
