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

/** What a scraped metric reads: one value, or one value per value of its label. */
export type ScrapedValue = number | Readonly<Record<string, number>>;

/** The options every scraped metric shares. */
function shape(registry: Registry, name: string, help: string, labelName: string | undefined): { name: string; help: string; labelNames: string[]; registers: Registry[] } {
  return { name, help, labelNames: labelName === undefined ? [] : [labelName], registers: [registry] };
}

/** Apply each value `read` gave, with its label (none for a plain number). */
function forEachValue(value: ScrapedValue, labelName: string | undefined, apply: (labels: Record<string, string>, amount: number) => void): void {
  if (typeof value === 'number') apply({}, value);
  else for (const [label, amount] of Object.entries(value)) apply({ [labelName!]: label }, amount);
}

/** A metric's collect hook: reset it, then apply what `read` gives now. */
function collector<M extends { reset(): void }>(read: () => ScrapedValue, labelName: string | undefined, apply: (metric: M, labels: Record<string, string>, amount: number) => void): (this: M) => void {
  return function (this: M) {
    this.reset();
    forEachValue(read(), labelName, (labels, amount) => apply(this, labels, amount));
  };
}

/** A gauge whose value is read when scraped; with `labelName`, `read` gives one value per label value. */
export function scrapedGauge(registry: Registry, name: string, help: string, read: () => ScrapedValue, labelName?: string): void {
  new Gauge({ ...shape(registry, name, help, labelName), collect: collector<Gauge>(read, labelName, (gauge, labels, amount) => gauge.set(labels, amount)) });
}

/**
 * A counter whose value is a monotonic count a component keeps itself (e.g. `compaction.stats.baseRuns`),
 * read when scraped; `read` must never go down (a count since the process started). With `labelName`,
 * `read` gives one count per label value (Doris's `doris_fe_txn_counter{type="begin"}` form).
 */
export function scrapedCounter(registry: Registry, name: string, help: string, read: () => ScrapedValue, labelName?: string): void {
  new Counter({ ...shape(registry, name, help, labelName), collect: collector<Counter>(read, labelName, (counter, labels, amount) => counter.inc(labels, amount)) });
}
