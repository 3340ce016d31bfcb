/**
 * The BE role: storage engine access for reads and writes — object store, file cache, decoded-page cache,
 * open segment readers — shared by every query and load in this process.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Config } from '../common/config';
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import { PRIVATE_DIR_MODE } from '../common/private-files';
import { ServerLog } from '../common/server-log';
import { createFileCache, fileCacheOptionsFromConfig, type MissSource } from '../io/create-file-cache';
import type { FileCache } from '../io/file-cache';
import { LocalObjectStore } from '../io/local-object-store';
import type { ObjectStore } from '../io/object-store';
import { openS3Vault, vaultObjectKey, VaultObjectStore } from '../io/vault-object-store';
import type { StorageVault } from '../meta/storage-vaults';
import type { Catalog, TableState } from '../meta/catalog';
import { segmentIndexRecord, type SegmentIndexRecord, type SegmentRecord } from '../meta/meta-store';
import { releaseProcessBuilders, retainProcessBuilders } from '../storage/index-build-worker';
import { PageCache, parsePageCacheLimit } from '../storage/page-cache';
import { SegmentReader } from '../storage/segment-reader';
import type { LoadTarget } from '../load/load-transaction';
import type { TableWriteOptions } from '../load/table-writer';
import { MergeOnWriteEngine } from './delete-bitmap-calculator';
import { OlapTableSource, SegmentOpener } from './olap-table-source';
import type { Batch } from '../common/column';
import { WeightedLru } from '../common/weighted-lru';
import type { AnnSegmentSpec, FragmentSpec } from '../exec/plan/fragment-spec';
import { AnnIndexCache, searchAnnSegment } from './ann-segment-scan';
import { InvertedIndexCache, openInvertedReader, type InvertedRowsReader } from './inverted-segment-filter';
import { ScanWorkerPool } from './scan-worker-pool';
import { PrimaryKeyIndexReader } from '../storage/primary-key-index';
import { WritePipeline } from '../load/write-pipeline';
import { abortedObjectKeys, ObjectRecycler } from './object-recycler';
import { FileCacheTtl } from './file-cache-ttl';

/** Open segment readers kept (their footers and indexes parsed), least recently used evicted first. */
const SEGMENT_READER_CACHE_SIZE = 4096;

export class Backend implements SegmentOpener, LoadTarget {
  /** Routes each key to its storage vault's store: the built-in one (plain keys) or a vault's (`vault/<id>/...`). */
  readonly store: VaultObjectStore;
  /** Root of the built-in store when it is a local directory (read in place by the workers); null otherwise. */
  readonly localRoot: string | null;
  readonly fileCache: FileCache;
  readonly pageCache: PageCache;
  /** The FE's catalog in a process that has one (`galene start`, the FE's own BE); null in a `galene be` reader. */
  private readonly ownCatalog: Catalog | null;
  private readonly readers = new WeightedLru<Promise<SegmentReader>>(SEGMENT_READER_CACHE_SIZE);
  /** ANN index files searched in-thread (small tables); viewed in place over a local store. */
  private readonly annIndexes: AnnIndexCache;
  private readonly invertedIndexes: InvertedIndexCache;
  /** Open primary-key index readers (trailer, page index and bloom parsed), by object key, LRU. */
  private readonly primaryKeyIndexes = new WeightedLru<Promise<PrimaryKeyIndexReader>>(SEGMENT_READER_CACHE_SIZE);
  /**
   * Private copies of ANN index files read from a non-local store (usearch views files only), by this
   * process and its scan workers: emptied when the BE opens and closes, so a crash leaves nothing behind
   * for long.
   */
  private readonly annTempDir: string;
  /** Worker threads for large scans; created on first use (null: not created yet or not available). */
  private pool: ScanWorkerPool | null = null;
  private readonly scanThreads: number;
  /** Tables with fewer rows scan in-thread (`parallel_scan_min_rows_per_scanner`). */
  readonly parallelScanMinRows: number;
  /** Scan windows follow the pool's pressure (`enable_scan_dynamic_parallelism`, changeable at run time). */
  scanDynamicParallelism = true;
  /** ANN TopN searches over at most this many indexed segments run in-thread (`ann_search_in_thread_max_segments`). */
  annSearchInThreadMaxSegments = 8;
  /** be.log / be.warn.log under sys_log_dir: Stream Loads that fail, compaction failures, BE HTTP errors. */
  readonly serverLog: ServerLog;
  /** Settings of every segment write (ann_index_build_min_segment_rows); replaced when a setting changes. */
  writeOptions: TableWriteOptions = {};
  /** Memtables -> flush pool -> upload pool of every load into this BE (load/write-pipeline). */
  readonly writePipeline: WritePipeline;
  /** Deletes aborted loads' objects every recycle_interval_seconds (object-recycler.ts); null until open. */
  private recycler: ObjectRecycler | null = null;

  private constructor(catalog: Catalog | null, store: VaultObjectStore, fileCache: FileCache, pageCache: PageCache, scanThreads: number, parallelScanMinRows: number, serverLog: ServerLog, annTempDir: string, writePipeline: WritePipeline) {
    this.writePipeline = writePipeline;
    this.serverLog = serverLog;
    this.parallelScanMinRows = parallelScanMinRows;
    this.ownCatalog = catalog;
    this.store = store;
    this.localRoot = store.builtIn instanceof LocalObjectStore ? store.builtIn.root : null;
    this.fileCache = fileCache;
    this.pageCache = pageCache;
    this.scanThreads = scanThreads;
    this.annTempDir = annTempDir;
    this.annIndexes = new AnnIndexCache(fileCache, this.localRoot !== null ? (key) => store.localPath(key) : null, annTempDir);
    this.invertedIndexes = new InvertedIndexCache(fileCache, openInvertedReader);
    // Publishes into merge-on-write UNIQUE KEY tables read segments through this BE.
    if (catalog !== null) catalog.mergeOnWrite = new MergeOnWriteEngine(this);
  }

  /** The catalog loads publish into (LoadTarget); a reader BE has none: loads go through the FE. */
  get catalog(): Catalog {
    if (this.ownCatalog === null) throw new GaleneError('INTERNAL', ['this BE reads only (galene be): loads and metadata are the FE\'s']);
    return this.ownCatalog;
  }

  /**
   * The scan worker pool (`scan_thread_num` threads), started on first use; null when scans run on the
   * main thread (scan_thread_num = 0). Starting it gives half of the decoded-page cache to the workers,
   * split evenly. Every worker read goes through this BE's FileCache: over a local-directory store its
   * in-place tier, opened in each worker (reads stay off the main thread); over any other store the
   * workers read through the main thread's FileCache (FileReadService), so the block cache is shared.
   */
  scanPool(): ScanWorkerPool | null {
    if (this.scanThreads <= 0) return null;
    if (this.pool === null) {
      const share = Math.floor(this.pageCache.capacityBytes / 2);
      this.pageCache.capacityBytes -= share;
      const pageCacheBytes = Math.floor(share / this.scanThreads);
      // Local keys in place in the workers, keys of remote vaults through this FileCache.
      this.pool = new ScanWorkerPool(this.scanThreads, { ...(this.localRoot !== null ? { objectRoot: this.localRoot } : {}), fileCache: this.fileCache, pageCacheBytes, annTempDir: this.annTempDir });
    }
    return this.pool;
  }

  /** Stop the scan workers and close every file the BE holds open (server stop). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
    await this.recycler?.stop();
    await this.writePipeline.close();
    await releaseProcessBuilders(); // an index build in flight must not write under data_dir after stop
    // Open segment files are FileHandles of the file cache and the store: close them, never leave them to GC.
    this.readers.clear();
    this.annIndexes.close();
    fs.rmSync(this.annTempDir, { recursive: true, force: true });
    await this.fileCache.close();
    this.store.close?.();
    this.serverLog.log('INFO', 'main', 'BE closed');
    this.serverLog.close();
  }

  /**
   * The BE over the configured object store (a local directory unless one is given) as its built-in
   * vault, and the catalog's storage vaults (opened now, and again whenever one is created or altered).
   *
   * `catalog` null: a reader BE (`galene be`). It keeps no metadata: what it reads comes whole in each
   * call's read descriptor (segment keys, delete bitmaps, the vault's properties, opened on first use), so
   * it has no vaults to open up front, no file_cache_ttl_seconds to look up, no publishes to compute
   * delete bitmaps for, and no recycler — that sweep decides from the FE's transactions which objects of
   * the shared store are garbage, and only the FE knows them.
   *
   * `missSource`: what the block cache's misses read from, given the object store (Peer Read in `galene be`).
   */
  static async open(config: Config, catalog: Catalog | null, store?: ObjectStore, missSource?: MissSource): Promise<Backend> {
    const objectStore = new VaultObjectStore(store ?? new LocalObjectStore(config.getString('object_store_dir') || path.join(config.getString('data_dir'), 'objects')));
    const openVault = (vault: StorageVault): void => objectStore.setVault(vault.id, openS3Vault(vault.properties));
    // catalog.vaults is absent only in tests that give a bare catalog.
    for (const vault of catalog?.vaults?.list() ?? []) openVault(vault);
    catalog?.vaults?.onChange(openVault);
    const fileCache = await createFileCache(objectStore, fileCacheOptionsFromConfig(config), missSource);
    if (catalog !== null) {
      const fileCacheTtl = new FileCacheTtl(catalog);
      fileCache.setTtlResolver?.((key) => fileCacheTtl.expirationOf(key));
    }
    const pageCache = new PageCache(parsePageCacheLimit(config.getString('storage_page_cache_limit')));
    const serverLog = new ServerLog(config, 'be');
    serverLog.log('INFO', 'main', `BE opened object store ${objectStore.builtIn instanceof LocalObjectStore ? objectStore.builtIn.root : 'remote'} and ${objectStore.vaultIds().length} storage vault(s), file cache ${fileCache.kind}`);
    const annTempDir = path.join(config.getString('data_dir'), 'ann_index_tmp');
    fs.rmSync(annTempDir, { recursive: true, force: true });
    fs.mkdirSync(annTempDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const backend = new Backend(catalog, objectStore, fileCache, pageCache, config.getInt('scan_thread_num'), config.getInt('parallel_scan_min_rows_per_scanner'), serverLog, annTempDir, WritePipeline.fromConfig(config));
    retainProcessBuilders();
    backend.writeOptions = { annMinSegmentRows: config.getInt('ann_index_build_min_segment_rows') };
    config.onChange('ann_index_build_min_segment_rows', (value) => (backend.writeOptions = { ...backend.writeOptions, annMinSegmentRows: value as number }));
    backend.scanDynamicParallelism = config.get<boolean>('enable_scan_dynamic_parallelism');
    config.onChange('enable_scan_dynamic_parallelism', (value) => (backend.scanDynamicParallelism = value as boolean));
    backend.annSearchInThreadMaxSegments = config.getInt('ann_search_in_thread_max_segments');
    config.onChange('ann_search_in_thread_max_segments', (value) => (backend.annSearchInThreadMaxSegments = value as number));
    if (catalog === null) return backend;
    const recycler = new ObjectRecycler(() => config.getInt('recycle_interval_seconds'), () => backend.recycleAbortedObjects().then(() => undefined));
    backend.recycler = recycler;
    recycler.schedule();
    config.onChange('recycle_interval_seconds', () => recycler.schedule());
    return backend;
  }

  async openSegment(segment: SegmentRecord, profile: ProfileSink): Promise<SegmentReader> {
    const cached = this.readers.get(segment.key);
    if (cached) return cached;
    const onDamage = (): void => {
      if (this.readers.peek(segment.key) === opened) this.readers.delete(segment.key);
    };
    const opened = this.fileCache.open(segment.key, profile, segment.size).then((file) => SegmentReader.open(file, { pageCache: this.pageCache, profile, onDamage }));
    opened.catch(() => this.readers.delete(segment.key));
    this.readers.set(segment.key, opened, 1);
    return opened;
  }

  async searchAnnSegment(segment: SegmentRecord, fragment: FragmentSpec & { ann: AnnSegmentSpec }, excludedRows: Int32Array, profile: ProfileSink, segmentOrdinal?: number): Promise<Batch[]> {
    const reader = await this.openSegment(segment, profile);
    const record = segmentIndexRecord(segment, fragment.ann.indexName, 'ann');
    const index = record === undefined ? null : await this.annIndexes.open(record.key, record.size, profile);
    return searchAnnSegment(reader, index, fragment, excludedRows, profile, segmentOrdinal, { records: segment.indexes, open: (indexRecord, indexProfile) => this.openInvertedIndex(indexRecord, indexProfile) });
  }

  /** A segment's inverted index file, through the FileCache (readers cached by object key). */
  openInvertedIndex(record: SegmentIndexRecord, profile: ProfileSink): Promise<InvertedRowsReader> {
    return this.invertedIndexes.open(record, profile);
  }

  /** A segment's primary-key index file through the FileCache; its key pages go to the page cache. */
  openPrimaryKeyIndex(record: SegmentIndexRecord, profile: ProfileSink): Promise<PrimaryKeyIndexReader> {
    const cached = this.primaryKeyIndexes.get(record.key);
    if (cached !== undefined) return cached;
    const reader = this.fileCache.open(record.key, profile, record.size).then((file) => PrimaryKeyIndexReader.open(file, profile, this.pageCache));
    reader.catch(() => this.primaryKeyIndexes.delete(record.key));
    this.primaryKeyIndexes.set(record.key, reader, 1);
    return reader;
  }

  /**
   * Drop in-memory read caches, as Doris's `/api/clear_cache/{type}`: 'DataPageCache' the decoded pages,
   * 'SegmentCache' the open segment and primary-key index readers (footers, page indexes, blooms), 'all'
   * both, here and in the scan workers. With the file cache cleared too, the next read is cold (what
   * `bench coldread` measures). Returns the page-cache bytes released.
   */
  clearMemoryCaches(type: 'all' | 'DataPageCache' | 'SegmentCache'): number {
    const released = type === 'SegmentCache' ? 0 : this.pageCache.stats().usedBytes;
    if (type !== 'SegmentCache') this.pageCache.clear();
    if (type !== 'DataPageCache') {
      this.readers.clear();
      this.primaryKeyIndexes.clear();
    }
    this.pool?.clearMemoryCaches();
    return released;
  }

  openTable(table: TableState): OlapTableSource {
    return new OlapTableSource(table, this);
  }

  /** Delete objects no longer referenced (dropped tables, aborted loads). Failures are left for the start-up sweep. */
  async deleteObjects(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      this.readers.delete(key);
      this.primaryKeyIndexes.delete(key);
      this.annIndexes.invalidate(key);
      this.invertedIndexes.invalidate(key);
      await this.fileCache.invalidate(key);
      this.pageCache.invalidateFile(key);
      this.pool?.invalidate(key);
      await this.store.delete(key).catch(() => undefined);
    }
  }

  /**
   * Start-up sweep: remove segment and index objects that no committed rowset references (a load or an
   * index build cut short by a crash), and the temporary files of puts and index builds a crash left.
   */
  async removeOrphans(referenced: Set<string>): Promise<number> {
    if (this.store.builtIn instanceof LocalObjectStore) await this.store.builtIn.removeTempFiles();
    const orphans = (await this.listDataKeys('orphan sweep')).filter((key) => !referenced.has(key));
    await this.deleteObjects(orphans);
    return orphans.length;
  }

  /**
   * The recycler's round (object-recycler.ts): delete the objects of aborted loads still in a store (an
   * upload that finished after its load failed, a delete that failed during an outage). Returns how many.
   */
  async recycleAbortedObjects(): Promise<number> {
    const keys = await this.listDataKeys('recycler');
    const meta = this.catalog.meta;
    // The referenced set is read after the listing: a load that commits in between is in it.
    const aborted = abortedObjectKeys(keys, meta.allSegmentKeys(), (txnId) => meta.getTransaction(txnId));
    if (aborted.length === 0) return 0;
    await this.deleteObjects(aborted);
    this.serverLog.log('INFO', 'main', `recycler deleted ${aborted.length} object(s) of aborted loads`);
    return aborted.length;
  }

  /** Segment and index keys of the built-in store and of every vault (listed under their routed keys, `vault/<id>/data/...`). */
  private async listDataKeys(what: string): Promise<string[]> {
    const keys = await this.store.list('data/');
    for (const vaultId of this.store.vaultIds()) {
      try {
        keys.push(...(await this.store.list(vaultObjectKey(vaultId, 'data/'))));
      } catch (err) {
        // An unreachable vault must not keep the server from starting: its sweep waits for the next round.
        this.serverLog.log('WARN', 'main', `${what} skipped storage vault ${vaultId}: ${(err as Error).message}`);
      }
    }
    return keys;
  }
}
