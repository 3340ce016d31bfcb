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

/** Sink for I/O layers that may run without a query (compaction, loads): counters go nowhere. */
export interface ProfileSink {
  add(name: CounterName | string, delta: number): void;
}

export const NO_PROFILE: ProfileSink = { add: () => undefined };
