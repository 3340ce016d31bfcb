/**
 * The BE role: storage engine access for reads and writes — object store, file cache, decoded-page cache,
 * open segment readers — shared by every query and load in this process.
 */
import * as path from 'node:path';
import type { Config } from '../common/config';
import type { ProfileSink } from '../common/profile';
import { createFileCache, FileCache, fileCacheOptionsFromConfig } from '../io/file-cache';
import { LocalObjectStore } from '../io/local-object-store';
import type { ObjectStore } from '../io/object-store';
import type { Catalog, TableState } from '../meta/catalog';
import type { SegmentRecord } from '../meta/meta-store';
import { PageCache, parsePageCacheLimit } from '../storage/page-cache';
import { SegmentReader } from '../storage/segment-reader';
import type { LoadTarget } from '../load/load-transaction';
import { OlapTableSource, SegmentOpener } from './olap-table-source';

/** Open segment readers kept (their footers and indexes parsed), least recently used evicted first. */
const SEGMENT_READER_CACHE_SIZE = 4096;

export class Backend implements SegmentOpener, LoadTarget {
  readonly store: ObjectStore;
  readonly fileCache: FileCache;
  readonly pageCache: PageCache;
  readonly catalog: Catalog;
  private readonly readers = new Map<string, Promise<SegmentReader>>();

  private constructor(catalog: Catalog, store: ObjectStore, fileCache: FileCache, pageCache: PageCache) {
    this.catalog = catalog;
    this.store = store;
    this.fileCache = fileCache;
    this.pageCache = pageCache;
  }

  /** The BE over the configured object store (a local directory unless one is given). */
  static async open(config: Config, catalog: Catalog, store?: ObjectStore): Promise<Backend> {
    const objectStore = store ?? new LocalObjectStore(config.getString('object_store_dir') || path.join(config.getString('data_dir'), 'objects'));
    const fileCache = await createFileCache(objectStore, fileCacheOptionsFromConfig(config));
    return new Backend(catalog, objectStore, fileCache, new PageCache(parsePageCacheLimit(config.getString('storage_page_cache_limit'))));
  }

  async openSegment(segment: SegmentRecord, profile: ProfileSink): Promise<SegmentReader> {
    let reader = this.readers.get(segment.key);
    if (reader) {
      // Refresh its LRU position.
      this.readers.delete(segment.key);
      this.readers.set(segment.key, reader);
      return reader;
    }
    reader = this.fileCache.open(segment.key, profile, segment.size).then((file) => SegmentReader.open(file, { pageCache: this.pageCache, profile }));
    reader.catch(() => this.readers.delete(segment.key));
    this.readers.set(segment.key, reader);
    if (this.readers.size > SEGMENT_READER_CACHE_SIZE) this.readers.delete(this.readers.keys().next().value as string);
    return reader;
  }

  openTable(table: TableState): OlapTableSource {
    return new OlapTableSource(table, this);
  }

  /** Delete objects no longer referenced (dropped tables, aborted loads). Failures are left for the start-up sweep. */
  async deleteObjects(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      this.readers.delete(key);
      await this.fileCache.invalidate(key);
      this.pageCache.invalidateFile(key);
      await this.store.delete(key).catch(() => undefined);
    }
  }

  /** Start-up sweep: remove segment objects that no committed rowset references (a load cut short by a crash). */
  async removeOrphans(referenced: Set<string>): Promise<number> {
    const keys = await this.store.list('data/');
    const orphans = keys.filter((key) => !referenced.has(key));
    await this.deleteObjects(orphans);
    return orphans.length;
  }
}
