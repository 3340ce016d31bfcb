/**
 * The BE's `/metrics` (webserver_port), in Doris's `doris_be_*` names: monotonic counts as counters
 * (loads, compaction, WAL, file cache hits), sizes as gauges (memory, caches). Values are read at scrape
 * time from the components' own stats; loads are counted in `LoadCounts` where a load answers.
 */
import { Registry, scrapedCounter, scrapedGauge } from '../common/metrics';
import type { Catalog } from '../meta/catalog';
import { groupCommitCounters, groupCommitGauges } from '../load/group-commit';
import type { Backend } from './backend';
import type { CompactionStats } from './compaction';

/** Rows and bytes loaded since the process started (doris_be_load_*, doris_be_stream_load, doris_fe_stream_load). */
export class LoadCounts {
  streamLoadRows = 0;
  streamLoadBytes = 0;
  streamLoads = 0;
  /** A Stream Load answered (`loadedRows` 0 for a failed one; its body bytes were still received). */
  streamLoadFinished(loadedRows: number, receivedBytes: number): void {
    this.streamLoads++;
    this.streamLoadRows += loadedRows;
    this.streamLoadBytes += receivedBytes;
  }
}

/** Most rowsets (versions) any tablet has. */
function maxTabletVersions(catalog: Catalog): number {
  return catalog.listDatabases().flatMap((db) => catalog.listTables(db.name)).reduce((max, table) => {
    const perTablet = new Map<number, number>();
    for (const rowset of table.rowsets) perTablet.set(rowset.tabletId, (perTablet.get(rowset.tabletId) ?? 0) + 1);
    return Math.max(max, ...perTablet.values());
  }, 0);
}

export function createBeMetrics(backend: Backend, catalog: Catalog, compaction: CompactionStats, loads: LoadCounts): Registry {
  const registry = new Registry();
  const gauge = (name: string, help: string, read: () => number): void => scrapedGauge(registry, name, help, read);
  const counter = (name: string, help: string, read: () => number): void => scrapedCounter(registry, name, help, read);
  gauge('doris_be_process_rss_bytes', 'Resident set size', () => process.memoryUsage().rss);
  gauge('doris_be_memory_allocated_bytes', 'JavaScript heap in use', () => process.memoryUsage().heapUsed);
  gauge('doris_be_page_cache_bytes', 'Decoded page cache bytes in use', () => backend.pageCache.stats().usedBytes);
  gauge('doris_be_file_cache_capacity_bytes', 'File cache capacity', () => backend.fileCache.stats().capacityBytes);
  gauge('doris_be_file_cache_size_bytes', 'File cache bytes in use', () => backend.fileCache.stats().usedBytes);
  counter('doris_be_file_cache_hit_total', 'File cache block reads served from the cache', () => backend.fileCache.stats().hits);
  counter('doris_be_file_cache_miss_total', 'File cache block reads that went to the object store', () => backend.fileCache.stats().misses);
  counter('doris_be_file_cache_evict_total', 'File cache blocks evicted', () => backend.fileCache.stats().evictions);
  counter('doris_be_compaction_cumulative_total', 'Cumulative compactions finished', () => compaction.cumulativeRuns);
  counter('doris_be_compaction_base_total', 'Base compactions finished', () => compaction.baseRuns);
  counter('doris_be_compaction_rowsets_merged_total', 'Rowsets merged by compaction', () => compaction.rowsetsMerged);
  counter('doris_be_compaction_failures_total', 'Compactions that failed', () => compaction.failures);
  gauge('doris_be_max_tablet_version_num', 'Most rowsets (versions) any tablet has', () => maxTabletVersions(catalog));
  counter('doris_be_load_rows', 'Rows loaded by Stream Load', () => loads.streamLoadRows);
  counter('doris_be_load_bytes', 'Bytes received by Stream Load', () => loads.streamLoadBytes);
  const streamLoads = (): Record<string, number> => ({ receive_bytes: loads.streamLoadBytes, load_rows: loads.streamLoadRows, load_count: loads.streamLoads });
  scrapedCounter(registry, 'doris_be_stream_load', 'Stream Load totals by type: receive_bytes, load_rows, load_count', streamLoads, 'type');
  for (const [name, help, read] of groupCommitGauges(backend)) gauge(name, help, read);
  for (const [name, help, read] of groupCommitCounters(backend)) counter(name, help, read);
  return registry;
}
