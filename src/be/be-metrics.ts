/**
 * The BE's `/metrics` (webserver_port), in Doris's `doris_be_*` names (the "Monitor Metrics" page of the
 * Doris docs; the series Doris's Grafana dashboard 9734 queries are checked by
 * test/integration/grafana-dashboard.test.ts): monotonic counts as counters (loads, compaction, WAL, cache
 * lookups, CPU and disk time), sizes as gauges (memory, caches, disks). Values are read at scrape time from
 * the components' own stats.
 */
import { Registry, scrapedCounter, scrapedGauge, type ScrapedValue } from '../common/metrics';
import { tableVaultId } from '../meta/storage-vaults';
import type { FileCacheQueueStats, FileCacheType } from '../io/file-cache';
import { PEER_READ_METRICS, type PeerReadCounts } from '../io/peer';
import type { Catalog } from '../meta/catalog';
import { groupCommitCounters, groupCommitGauges } from '../load/group-commit';
import { writePipelineCounters, writePipelineGauges } from '../load/write-pipeline';
import type { Backend } from './backend';
import type { CompactionStats } from './compaction';
import type { FragmentServiceStats } from './fragment-rpc-service';
import { cpuTimes, diskCapacities, diskCounts, networkCounts, procEntries } from './system-metrics';

/**
 * Stream Load requests as the BE's HTTP handler sees them (doris_be_stream_load, doris_be_streaming_load_*,
 * doris_be_stream_load_txn_request). Rows and bytes of every kind of load come from the meta store
 * (MetaStore.loadedCounts), where a load becomes visible.
 */
export class LoadCounts {
  streamLoadRows = 0;
  streamLoadBytes = 0;
  streamLoads = 0;
  /** Stream Loads whose body is being read or written now. */
  streamLoadsRunning = 0;
  streamLoadDurationMs = 0;
  readonly streamLoadTxns = { begin: 0, commit: 0, rollback: 0 };

  /** A Stream Load passed its checks and starts reading its body (its transaction begins). */
  streamLoadStarted(): void {
    this.streamLoadsRunning++;
    this.streamLoadTxns.begin++;
  }

  /** A Stream Load answered (`loadedRows` 0 for a failed one; its body bytes were still received). */
  streamLoadFinished(loadedRows: number, receivedBytes: number, succeeded: boolean, durationMs: number): void {
    this.streamLoadsRunning = Math.max(0, this.streamLoadsRunning - 1);
    this.streamLoads++;
    this.streamLoadRows += loadedRows;
    this.streamLoadBytes += receivedBytes;
    this.streamLoadDurationMs += durationMs;
    if (succeeded) this.streamLoadTxns.commit++;
    else this.streamLoadTxns.rollback++;
  }
}

/** Rows and bytes statements read from OLAP tables (doris_be_query_scan_rows / _bytes), added when each statement ends. */
export class ScanCounts {
  rows = 0;
  bytes = 0;

  add(rows: number, bytes: number): void {
    this.rows += rows;
    this.bytes += bytes;
  }
}

/** Most rowsets (versions) any tablet has: the compaction score Doris reports (doris_be_tablet_*_max_compaction_score, doris_fe_max_tablet_compaction_score). */
export function maxTabletVersions(catalog: Catalog): number {
  return catalog.listDatabases().flatMap((db) => catalog.listTables(db.name)).reduce((max, table) => {
    const perTablet = new Map<number, number>();
    for (const rowset of table.rowsets) perTablet.set(rowset.tabletId, (perTablet.get(rowset.tabletId) ?? 0) + 1);
    return Math.max(max, ...perTablet.values());
  }, 0);
}

/** Rowsets, segments and their bytes over every table. */
function storageTotals(catalog: Catalog, localBuiltIn: boolean): { rowsets: number; segments: number; bytes: number; localBytes: number } {
  const totals = { rowsets: 0, segments: 0, bytes: 0, localBytes: 0 };
  for (const db of catalog.listDatabases()) {
    for (const table of catalog.listTables(db.name)) {
      // Tables of a storage vault are remote; the built-in vault is local when it is a directory.
      const local = localBuiltIn && tableVaultId(table.schema) === null;
      for (const rowset of table.rowsets) {
        totals.rowsets++;
        totals.segments += rowset.segments.length;
        totals.bytes += rowset.dataSize;
        if (local) totals.localBytes += rowset.dataSize;
      }
    }
  }
  return totals;
}

/**
 * The series of any BE process, with or without the FE's catalog: memory and machine, its data
 * directories, its caches, its FragmentService (null: none; the series read 0). `galene be` serves just
 * these (be-process.ts); an FE's own BE adds the catalog's (createBeMetrics).
 */
export function addProcessMetrics(registry: Registry, backend: Backend, dataDirs: readonly string[], fragments: FragmentServiceStats | null): void {
  const gauge = (name: string, help: string, read: () => ScrapedValue, labelName?: string): void => scrapedGauge(registry, name, help, read, labelName);
  const counter = (name: string, help: string, read: () => ScrapedValue, labelName?: string): void => scrapedCounter(registry, name, help, read, labelName);
  // Memory and process
  gauge('doris_be_process_rss_bytes', 'Resident set size', () => process.memoryUsage().rss);
  gauge('doris_be_memory_allocated_bytes', 'Physical memory of the process (resident set size; Doris reads VmRSS)', () => process.memoryUsage().rss);
  gauge('doris_be_memory_heap_used_bytes', 'JavaScript heap in use', () => process.memoryUsage().heapUsed);
  gauge('doris_be_process_fd_num_used', 'Open file descriptors of the process (/proc/self/fd)', () => procEntries('/proc/self/fd'));
  gauge('doris_be_process_thread_num', 'Threads of the process (/proc/self/task)', () => procEntries('/proc/self/task'));
  // Machine
  counter('doris_be_cpu', 'CPU time of the machine by mode (/proc/stat jiffies)', cpuTimes, 'mode');
  const net = (pick: (counts: ReturnType<typeof networkCounts>) => Record<string, number>) => (): Record<string, number> => pick(networkCounts());
  counter('doris_be_network_receive_bytes', 'Bytes received per network interface (/proc/net/dev)', net((counts) => counts.receiveBytes), 'device');
  counter('doris_be_network_send_bytes', 'Bytes sent per network interface (/proc/net/dev)', net((counts) => counts.sendBytes), 'device');
  counter('doris_be_network_receive_packets', 'Packets received per network interface', net((counts) => counts.receivePackets), 'device');
  counter('doris_be_network_send_packets', 'Packets sent per network interface', net((counts) => counts.sendPackets), 'device');
  const disk = (pick: (counts: ReturnType<typeof diskCounts>) => Record<string, number>) => (): Record<string, number> => pick(diskCounts());
  counter('doris_be_disk_io_time_ms', 'Milliseconds each block device spent doing I/O (/proc/diskstats)', disk((counts) => counts.ioTimeMs), 'device');
  counter('doris_be_disk_reads_completed', 'Reads completed per block device', disk((counts) => counts.readsCompleted), 'device');
  counter('doris_be_disk_writes_completed', 'Writes completed per block device', disk((counts) => counts.writesCompleted), 'device');
  counter('doris_be_disk_bytes_read', 'Bytes read per block device', disk((counts) => counts.bytesRead), 'device');
  counter('doris_be_disk_bytes_written', 'Bytes written per block device', disk((counts) => counts.bytesWritten), 'device');
  counter('doris_be_disk_read_time_ms', 'Milliseconds spent reading per block device', disk((counts) => counts.readTimeMs), 'device');
  counter('doris_be_disk_write_time_ms', 'Milliseconds spent writing per block device', disk((counts) => counts.writeTimeMs), 'device');
  // Data directories
  gauge('doris_be_disks_total_capacity', 'Bytes of the file system holding each data directory', () => diskCapacities(dataDirs).total, 'path');
  gauge('doris_be_disks_avail_capacity', 'Bytes available on the file system holding each data directory', () => diskCapacities(dataDirs).avail, 'path');
  gauge('doris_be_disks_state', 'Each data directory is usable (1)', () => Object.fromEntries(Object.keys(diskCapacities(dataDirs).total).map((dir) => [dir, 1])), 'path');
  // Caches: the decoded page cache under Doris's DataPageCache name, and the block file cache
  const pageCache = (read: (stats: ReturnType<typeof backend.pageCache.stats>) => number) => (): Record<string, number> => ({ DataPageCache: read(backend.pageCache.stats()) });
  gauge('doris_be_cache_capacity', 'Capacity of each cache in bytes (DataPageCache: decoded pages)', pageCache((stats) => stats.capacityBytes), 'name');
  gauge('doris_be_cache_usage', 'Bytes each cache holds', pageCache((stats) => stats.usedBytes), 'name');
  gauge('doris_be_cache_usage_ratio', 'Share of each cache in use', pageCache((stats) => (stats.capacityBytes > 0 ? stats.usedBytes / stats.capacityBytes : 0)), 'name');
  counter('doris_be_cache_lookup_count', 'Lookups in each cache', pageCache((stats) => stats.hits + stats.misses), 'name');
  counter('doris_be_cache_hit_count', 'Lookups each cache answered', pageCache((stats) => stats.hits), 'name');
  gauge('doris_be_cache_hit_ratio', 'Share of lookups each cache answered since start', pageCache((stats) => (stats.hits + stats.misses > 0 ? stats.hits / (stats.hits + stats.misses) : 0)), 'name');
  gauge('doris_be_page_cache_bytes', 'Decoded page cache bytes in use', () => backend.pageCache.stats().usedBytes);
  gauge('doris_be_file_cache_capacity_bytes', 'File cache capacity', () => backend.fileCache.stats().capacityBytes);
  gauge('doris_be_file_cache_size_bytes', 'File cache bytes in use', () => backend.fileCache.stats().usedBytes);
  counter('doris_be_file_cache_hit_total', 'File cache block reads served from the cache', () => backend.fileCache.stats().hits);
  counter('doris_be_file_cache_miss_total', 'File cache block reads that went to the object store', () => backend.fileCache.stats().misses);
  counter('doris_be_file_cache_evict_total', 'File cache blocks evicted', () => backend.fileCache.stats().evictions);
  // Slice C (file cache): Doris's BlockFileCache bvar names (file_cache_*), per queue.
  const fileCacheQueue = (type: FileCacheType, read: (queue: FileCacheQueueStats) => number) => (): number => {
    const queue = backend.fileCache.stats().queues?.[type];
    return queue ? read(queue) : 0;
  };
  gauge('doris_be_file_cache_capacity', 'File cache capacity in bytes', () => backend.fileCache.stats().capacityBytes);
  gauge('doris_be_file_cache_cache_size', 'Bytes the file cache holds', () => backend.fileCache.stats().usedBytes);
  gauge('doris_be_file_cache_hits_ratio', 'Share of file cache block reads served from the cache since start', () => {
    const stats = backend.fileCache.stats();
    return stats.hits + stats.misses > 0 ? stats.hits / (stats.hits + stats.misses) : 0;
  });
  for (const type of ['normal', 'index', 'disposable'] as const) {
    gauge(`doris_be_file_cache_${type}_queue_cache_size`, `Bytes in the file cache's ${type} queue`, fileCacheQueue(type, (queue) => queue.bytes));
    gauge(`doris_be_file_cache_${type}_queue_element_count`, `Blocks in the file cache's ${type} queue`, fileCacheQueue(type, (queue) => queue.elements));
    counter(`doris_be_file_cache_${type}_queue_evict_size`, `Bytes evicted from the file cache's ${type} queue since start`, fileCacheQueue(type, (queue) => queue.evictedBytes));
  }
  gauge('doris_be_file_cache_ttl_cache_size', "Bytes in the file cache's TTL queue", fileCacheQueue('ttl', (queue) => queue.bytes));
  gauge('doris_be_file_cache_ttl_cache_lru_queue_element_count', "Blocks in the file cache's TTL queue", fileCacheQueue('ttl', (queue) => queue.elements));
  counter('doris_be_file_cache_ttl_cache_evict_size', "Bytes evicted from the file cache's TTL queue since start", fileCacheQueue('ttl', (queue) => queue.evictedBytes));
  counter('doris_be_file_cache_total_evict_size', 'Bytes evicted from the file cache since start', () => {
    const queues = backend.fileCache.stats().queues;
    return queues ? queues.normal.evictedBytes + queues.index.evictedBytes + queues.disposable.evictedBytes + queues.ttl.evictedBytes : 0;
  });
  counter('doris_be_file_cache_evict_in_advance_num', 'File cache blocks evicted by the background (watermark) eviction', () => backend.fileCache.stats().evictionsInAdvance ?? 0);
  // End of slice C.
  // Queries this BE's FragmentService ran
  counter('doris_be_fragment_requests_total', 'FragmentService calls received (ExecuteScan and FetchRows)', () => (fragments === null ? 0 : fragments.scans + fragments.fetches));
  gauge('doris_be_fragment_instance_count', 'ExecuteScan calls running now', () => fragments?.scansRunning ?? 0);
  counter('doris_be_fragment_requests_cancelled_total', 'FragmentService calls stopped by their caller before they finished (cancelled, past their deadline, or the server closing)', () => fragments?.cancelled ?? 0);
}

/** The sources of the BE's /metrics. `dataDirs`: the directories Galene writes (doris_be_disks_*{path}). */
export interface BeMetricsSources {
  readonly backend: Backend;
  readonly catalog: Catalog;
  readonly compaction: CompactionStats;
  readonly loads: LoadCounts;
  readonly scans: ScanCounts;
  readonly dataDirs: readonly string[];
  /** This BE's FragmentService, when it serves one (remote scans over gRPC); else its series read 0. */
  readonly fragments?: FragmentServiceStats | null;
}

export function createBeMetrics(sources: BeMetricsSources): Registry {
  const { backend, catalog, compaction, loads, scans } = sources;
  const registry = new Registry();
  addProcessMetrics(registry, backend, sources.dataDirs, sources.fragments ?? null);
  const gauge = (name: string, help: string, read: () => ScrapedValue, labelName?: string): void => scrapedGauge(registry, name, help, read, labelName);
  const counter = (name: string, help: string, read: () => ScrapedValue, labelName?: string): void => scrapedCounter(registry, name, help, read, labelName);
  const loaded = catalog.meta.loadedCounts;
  const localStore = backend.localRoot !== null;
  const totals = (): ReturnType<typeof storageTotals> => storageTotals(catalog, localStore);
  // Data directories
  const perDataDir = (read: () => number) => (): Record<string, number> => Object.fromEntries(sources.dataDirs.slice(0, 1).map((dir) => [dir, read()]));
  gauge('doris_be_disks_local_used_capacity', 'Bytes of table data in the local object store (0 with a remote store)', perDataDir(() => totals().localBytes), 'path');
  gauge('doris_be_disks_remote_used_capacity', 'Bytes of table data in the remote object store (0 with a local store)', perDataDir(() => {
    const all = totals();
    return all.bytes - all.localBytes;
  }), 'path');
  gauge('doris_be_all_rowsets_num', 'Rowsets of every table', () => totals().rowsets);
  gauge('doris_be_all_segments_num', 'Segments of every table', () => totals().segments);
  // Compaction
  counter('doris_be_compaction_bytes_total', 'Bytes of the input rowsets of finished compactions, by type', () => ({ base: compaction.baseBytes, cumulative: compaction.cumulativeBytes }), 'type');
  counter('doris_be_compaction_deltas_total', 'Input rowsets of finished compactions, by type', () => ({ base: compaction.baseRowsets, cumulative: compaction.cumulativeRowsets }), 'type');
  counter('doris_be_compaction_cumulative_total', 'Cumulative compactions finished', () => compaction.cumulativeRuns);
  counter('doris_be_compaction_base_total', 'Base compactions finished', () => compaction.baseRuns);
  counter('doris_be_compaction_rowsets_merged_total', 'Rowsets merged by compaction', () => compaction.rowsetsMerged);
  counter('doris_be_compaction_failures_total', 'Compactions that failed', () => compaction.failures);
  gauge('doris_be_max_tablet_version_num', 'Most rowsets (versions) any tablet has', () => maxTabletVersions(catalog));
  gauge('doris_be_tablet_cumulative_max_compaction_score', 'Compaction score of the tablet that needs it most: its rowset count', () => maxTabletVersions(catalog));
  gauge('doris_be_tablet_base_max_compaction_score', 'Base compaction score of the tablet that needs it most: its rowset count', () => maxTabletVersions(catalog));
  // Loads of every kind (where they become visible), then Stream Load requests
  counter('doris_be_load_rows', 'Rows loaded by every kind of load (Stream Load, INSERT, Group Commit), counted when they become visible', () => loaded.rows);
  counter('doris_be_load_bytes', 'Bytes of the rowsets every kind of load wrote (Stream Load, INSERT, Group Commit)', () => loaded.bytes);
  counter('doris_be_push_request_write_rows', 'Rows written into tablets by loads (the same count as doris_be_load_rows: one write path)', () => loaded.rows);
  counter('doris_be_push_request_write_bytes', 'Bytes written into tablets by loads (the same count as doris_be_load_bytes)', () => loaded.bytes);
  const streamLoads = (): Record<string, number> => ({ receive_bytes: loads.streamLoadBytes, load_rows: loads.streamLoadRows, load_count: loads.streamLoads });
  counter('doris_be_stream_load', 'Stream Load totals by type: receive_bytes, load_rows, load_count', streamLoads, 'type');
  counter('doris_be_streaming_load_requests_total', 'Stream Loads answered', () => loads.streamLoads);
  counter('doris_be_streaming_load_duration_ms', 'Milliseconds all Stream Loads took', () => loads.streamLoadDurationMs);
  gauge('doris_be_streaming_load_current_processing', 'Stream Loads running now', () => loads.streamLoadsRunning);
  counter('doris_be_stream_load_txn_request', 'Stream Load transactions by type: begin, commit, rollback', () => ({ ...loads.streamLoadTxns }), 'type');
  // Queries
  counter('doris_be_query_scan_rows', 'Rows statements read from tables', () => scans.rows);
  counter('doris_be_query_scan_bytes', 'Bytes of column data statements read from tables', () => scans.bytes);
  for (const [name, help, read] of groupCommitGauges(backend)) gauge(name, help, read);
  for (const [name, help, read] of groupCommitCounters(backend)) counter(name, help, read);
  // Write pipeline (load memory, flush and upload pools, backpressure): load/write-pipeline/pipeline-metrics.ts
  for (const [name, help, read, labelName] of writePipelineGauges(backend.writePipeline)) gauge(name, help, read, labelName);
  for (const [name, help, read, labelName] of writePipelineCounters(backend.writePipeline)) counter(name, help, read, labelName);
  return registry;
}

/** Peer Read's requester and server counts (io/peer), as doris_be_<Doris's name>. */
export function addPeerReadMetrics(registry: Registry, counts: PeerReadCounts): void {
  for (const name of PEER_READ_METRICS) scrapedCounter(registry, `doris_be_${name}`, `Peer Read: ${name.replace(/_/g, ' ')}${name === 'peer_cache_reader_peer_latency' ? ' (microseconds, summed)' : ''}`, () => counts.get(name));
}
