/**
 * The FE's `/metrics` (http_port), in Doris's names and types (Doris MetricRepo): statements and queries
 * counted where a statement ends (Session.endTask calls `statementEnded`), query latency as a summary with
 * Doris's quantiles, the open connections, load transactions (counted by the meta store) and Stream Load
 * rows and bytes (counted where a load answers, http-api.ts).
 */
import { Counter, Registry, Summary, scrapedCounter, scrapedGauge } from '../common/metrics';
import type { MetaStore } from '../meta/meta-store';
import type { LoadCounts } from '../be/be-metrics';

/** Doris's query latency quantiles (doris_fe_query_latency_ms{quantile=...}). */
const LATENCY_QUANTILES = [0.75, 0.95, 0.98, 0.99, 0.999];

export interface FeMetricsSource {
  readonly sessions: { readonly size: number };
  readonly meta: MetaStore;
  readonly catalog: { listDatabases(): readonly unknown[] };
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
