/**
 * The FE's `/metrics` (http_port), in Doris's names and types (Doris MetricRepo): statements and queries
 * counted where a statement ends (Session.endTask calls `statementEnded`), query latency as a summary with
 * Doris's quantiles, the open connections, load transactions (counted by the meta store) and Stream Load
 * rows and bytes (counted where a load answers, http-api.ts). The JavaScript heap and garbage collector
 * are reported under the JVM names Doris's FE uses (jvm_heap_size_bytes{type}, jvm_old_gc{type},
 * jvm_young_gc{type}), so the FE panels of Doris's Grafana dashboard show them.
 */
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import { Counter, Registry, Summary, scrapedCounter, scrapedGauge } from '../common/metrics';
import type { Catalog } from '../meta/catalog';
import type { MetaStore } from '../meta/meta-store';
import { maxTabletVersions, type LoadCounts } from '../be/be-metrics';

/** Doris's query latency quantiles (doris_fe_query_latency_ms{quantile=...}). */
const LATENCY_QUANTILES = [0.75, 0.95, 0.98, 0.99, 0.999];

export interface FeMetricsSource {
  readonly sessions: { readonly size: number };
  readonly meta: MetaStore;
  readonly catalog: Catalog;
  readonly loadCounts: LoadCounts;
}

export class FeMetrics {
  readonly registry = new Registry();
  private readonly requestTotal: Counter;
  private readonly queryTotal: Counter;
  private readonly queryErr: Counter;
  private readonly queryLatency: Summary;

  constructor(source: FeMetricsSource) {
    const registers = [this.registry];
    this.requestTotal = new Counter({ name: 'doris_fe_request_total', help: 'Statements received (text, prepared and executed)', registers });
    this.queryTotal = new Counter({ name: 'doris_fe_query_total', help: 'Queries (SELECT statements) run', registers });
    this.queryErr = new Counter({ name: 'doris_fe_query_err', help: 'Queries that ended in an error', registers });
    this.queryLatency = new Summary({ name: 'doris_fe_query_latency_ms', help: 'Query latency in milliseconds', percentiles: LATENCY_QUANTILES, maxAgeSeconds: 600, ageBuckets: 5, registers });
    scrapedGauge(this.registry, 'doris_fe_connection_total', 'Open MySQL connections (a gauge, Doris\'s name)', () => source.sessions.size);
    scrapedGauge(this.registry, 'doris_fe_database_num', 'Databases', () => source.catalog.listDatabases().length);
    const txn = source.meta.txnCounts;
    scrapedCounter(this.registry, 'doris_fe_txn_begin', 'Load transactions begun', () => txn.begin);
    scrapedCounter(this.registry, 'doris_fe_txn_success', 'Load transactions published (visible)', () => txn.success);
    scrapedCounter(this.registry, 'doris_fe_txn_failed', 'Load transactions aborted', () => txn.failed);
    scrapedCounter(this.registry, 'doris_fe_txn_counter', 'Load transactions by state (Doris 2.1+ form of doris_fe_txn_begin/success/failed)', () => ({ ...txn }), 'type');
    const loads = source.loadCounts;
    scrapedCounter(this.registry, 'doris_fe_stream_load', 'Stream Load totals by type: receive_bytes (body bytes), load_rows (rows loaded)', () => ({ receive_bytes: loads.streamLoadBytes, load_rows: loads.streamLoadRows }), 'type');
    // Doris's BDBJE edit log write latency; Galene's metadata is written in SQLite transactions.
    const editLogLatency = new Summary({ name: 'doris_fe_editlog_write_latency_ms', help: 'Milliseconds each metadata write transaction took (Doris: edit log writes)', percentiles: LATENCY_QUANTILES, maxAgeSeconds: 600, ageBuckets: 5, registers });
    source.meta.onWriteLatency = (ms) => editLogLatency.observe(ms);
    scrapedGauge(this.registry, 'doris_fe_max_tablet_compaction_score', 'Compaction score of the tablet that needs it most (its rowset count)', () => maxTabletVersions(source.catalog));
    scrapedGauge(this.registry, 'doris_fe_scheduled_tablet_num', 'Tablets waiting for repair or balance: always 0 (tablet data lives once, in the object store)', () => 0);
    scrapedGauge(this.registry, 'jvm_heap_size_bytes', 'JavaScript heap of the FE by type: max (limit), committed, used (Doris\'s JVM name)', () => {
      const heap = v8.getHeapStatistics();
      return { max: heap.heap_size_limit, committed: heap.total_heap_size, used: heap.used_heap_size };
    }, 'type');
    const gc = watchGarbageCollection();
    scrapedCounter(this.registry, 'jvm_old_gc', 'Major (mark-sweep) garbage collections: count, and time in ms (Doris\'s JVM name)', () => ({ count: gc.major.count, time: Math.round(gc.major.timeMs) }), 'type');
    scrapedCounter(this.registry, 'jvm_young_gc', 'Minor (scavenge) garbage collections: count, and time in ms (Doris\'s JVM name)', () => ({ count: gc.minor.count, time: Math.round(gc.minor.timeMs) }), 'type');
  }

  /** A statement ended (once per statement, after its rows were sent). */
  statementEnded(elapsedMs: number, failed: boolean, isQuery: boolean): void {
    this.requestTotal.inc();
    if (!isQuery) return;
    this.queryTotal.inc();
    if (failed) this.queryErr.inc();
    else this.queryLatency.observe(elapsedMs);
  }

  /** The exposition text for `/metrics`. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

interface GcTotals {
  readonly major: { count: number; timeMs: number };
  readonly minor: { count: number; timeMs: number };
}

let gcTotals: GcTotals | null = null;

/** Garbage collections of this process since the first call (one observer per process). */
function watchGarbageCollection(): GcTotals {
  if (gcTotals !== null) return gcTotals;
  const totals: GcTotals = { major: { count: 0, timeMs: 0 }, minor: { count: 0, timeMs: 0 } };
  gcTotals = totals;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      const bucket = kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR ? totals.major : kind === perfConstants.NODE_PERFORMANCE_GC_MINOR ? totals.minor : null;
      if (bucket === null) continue;
      bucket.count++;
      bucket.timeMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return totals;
}
