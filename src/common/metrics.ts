/**
 * The one way Galene exposes metrics: a prom-client Registry per role (fe-metrics.ts, be-metrics.ts) and
 * these helpers for the metrics read at scrape time from a component's own stats (compaction, WAL, file
 * cache, memory). Names are Doris's (`doris_fe_*`, `doris_be_*`) even where Prometheus's naming lint
 * objects (Doris's `doris_fe_connection_total` is a gauge, `doris_fe_query_err` a counter without
 * `_total`): Doris's Grafana dashboards query these names.
 */
import { Counter, Gauge, Registry } from 'prom-client';

export { Counter, Gauge, Registry, Summary } from 'prom-client';

/** The Prometheus text exposition format's content type (what `/metrics` answers with). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** A gauge whose value is read when scraped. */
export function scrapedGauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({ name, help, registers: [registry], collect: function (this: Gauge) { this.set(read()); } });
}

/**
 * A counter whose value is a monotonic count a component keeps itself (e.g. `compaction.stats.baseRuns`),
 * read when scraped; `read` must never go down (a count since the process started). With `labelName`,
 * `read` gives one count per label value (Doris's `doris_fe_txn_counter{type="begin"}` form).
 */
export function scrapedCounter(registry: Registry, name: string, help: string, read: () => number | Readonly<Record<string, number>>, labelName?: string): void {
  new Counter({
    name,
    help,
    labelNames: labelName === undefined ? [] : [labelName],
    registers: [registry],
    collect() {
      this.reset();
      const value = read();
      if (typeof value === 'number') this.inc(value);
      else for (const [label, count] of Object.entries(value)) this.inc({ [labelName!]: label }, count);
    },
  });
}
