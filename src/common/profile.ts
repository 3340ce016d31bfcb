/**
 * Per-query profile: phase timings and counters that every layer adds to while a query runs, kept after
 * it ends for `SHOW QUERY PROFILE`. Counters are plain named numbers so any layer can add one without a
 * schema change; the names below are the ones the core maintains (Doris's names where Doris has one).
 */

export const PROFILE_COUNTERS = [
  // phases (ms)
  'ParseTimeMs',
  'PlanTimeMs',
  'ExecTimeMs',
  // scan
  'RowsRead',
  'RowsReturned',
  'BytesRead',
  'SegmentsRead',
  'SegmentsPruned',
  'PagesRead',
  'PagesPruned',
  'ShortKeyLookups',
  'RowsPrunedByShortKey',
  // page cache
  'PageCacheHits',
  'PageCacheMisses',
  // file cache (Doris names)
  'NumLocalIOTotal',
  'NumRemoteIOTotal',
  'BytesScannedFromCache',
  'BytesScannedFromRemote',
  'BytesWriteIntoCache',
  'FileCacheHits',
  'FileCacheMisses',
  'NumSkipCacheIOTotal',
  'LocalIOUseTimer',
  'RemoteIOUseTimer',
  'WriteCacheIOUseTimer',
  // object store
  'ObjectStoreRequests',
  'ObjectStoreBytes',
  // load: nanoseconds the load's tablet writers waited for backpressure / the load memory limit (Doris's timer)
  'WaitFlushLimitTime',
] as const;

export type CounterName = (typeof PROFILE_COUNTERS)[number];

export class QueryProfile {
  readonly queryId: string;
  readonly sql: string;
  readonly user: string;
  readonly database: string;
  readonly startTime = Date.now();
  endTime = 0;
  state: 'RUNNING' | 'OK' | 'ERR' = 'RUNNING';
  errorMessage = '';
  /** Plan tree as EXPLAIN prints it, once planned. */
  planText = '';
  readonly counters = new Map<string, number>();
  /** The query's file-cache settings (set by the session from its variables). */
  fileCache?: FileCacheQueryPolicy;
  /** Rows and bytes read per column name. */
  readonly columnStats = new Map<string, { rows: number; bytes: number }>();

  constructor(queryId: string, sql: string, user: string, database: string) {
    this.queryId = queryId;
    this.sql = sql;
    this.user = user;
    this.database = database;
  }

  add(name: CounterName | string, delta: number): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + delta);
  }

  get(name: CounterName | string): number {
    return this.counters.get(name) ?? 0;
  }

  addColumnRead(column: string, rows: number, bytes: number): void {
    const stats = this.columnStats.get(column);
    if (stats) {
      stats.rows += rows;
      stats.bytes += bytes;
    } else {
      this.columnStats.set(column, { rows, bytes });
    }
    this.add('RowsRead', 0);
    this.add('BytesRead', bytes);
  }

  /** Time a phase into its counter. */
  time<T>(counter: CounterName, fn: () => T): T {
    const start = performance.now();
    try {
      return fn();
    } finally {
      this.add(counter, performance.now() - start);
    }
  }

  async timeAsync<T>(counter: CounterName, fn: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      this.add(counter, performance.now() - start);
    }
  }
}

/**
 * A query's file-cache settings (session variables `disable_file_cache`, `file_cache_query_limit_bytes`,
 * `file_cache_query_limit_percent`) and what its reads have admitted so far; the cached reader reads it
 * from the profile the query's reads count into.
 */
export interface FileCacheQueryPolicy {
  /** Read remote bytes without the cache (each such read counts NumSkipCacheIOTotal). */
  readonly skipCache: boolean;
  /** Bytes of data blocks the query may fill into the cache (<0: no limit; 0: none). */
  readonly limitBytes: number;
  /** Most share (percent) of the cache the query's own blocks may hold (<0: no limit). */
  readonly limitPercent: number;
  /** Bytes admitted against limitBytes. */
  admittedBytes: number;
  /** The query went remote-only on misses (limitBytes reached). */
  remoteOnly: boolean;
  /** Blocks the query put, oldest first (for limitPercent): block ids and sizes. */
  readonly ownBlocks: Map<string, number>;
  ownBytes: number;
}

export function fileCacheQueryPolicy(skipCache: boolean, limitBytes: number, limitPercent: number): FileCacheQueryPolicy {
  return { skipCache, limitBytes, limitPercent, admittedBytes: 0, remoteOnly: false, ownBlocks: new Map(), ownBytes: 0 };
}

/** Sink for I/O layers that may run without a query (compaction, loads): counters go nowhere. */
export interface ProfileSink {
  add(name: CounterName | string, delta: number): void;
  /** The query's file-cache settings; absent: the cache as configured. */
  readonly fileCache?: FileCacheQueryPolicy;
  /** Misses go straight to storage, never to a peer BE (warm-up reads, a peer fill's own reads). */
  readonly skipPeer?: boolean;
}

export const NO_PROFILE: ProfileSink = { add: () => undefined };
