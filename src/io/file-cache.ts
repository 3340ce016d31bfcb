/**
 * The one read interface every segment and index read goes through (DESIGN §4) — interfaces only.
 *
 * Callers see `open(key)` -> `read(offset, length)`, and the counters each read adds to the ProfileSink it
 * is given (Doris's names: NumLocalIOTotal, NumRemoteIOTotal, BytesScannedFromCache,
 * BytesScannedFromRemote, BytesWriteIntoCache, FileCacheHits, FileCacheMisses, ObjectStoreRequests,
 * ObjectStoreBytes). The tiers: in-place-file-cache.ts (a local store's files read where they are) and
 * block-file-cache.ts (a block store read through a cached reader whose misses go to a range source);
 * create-file-cache.ts picks one for a store; file-read-service.ts serves one to worker threads.
 */
import type { ProfileSink } from '../common/profile';

/** What a read is for: index/footer blocks live in the cache's higher-priority queue. */
export type ReadKind = 'data' | 'index';

/** An open immutable object, read by ranges. */
export interface RandomAccessFile {
  readonly key: string;
  readonly size: number;
  /** `length` bytes at `offset`; a range past the end is an IO_ERROR. The buffer is the caller's. */
  read(offset: number, length: number, profile: ProfileSink, kind?: ReadKind): Promise<Buffer>;
}

export interface FileCacheStats {
  readonly kind: 'in-place' | 'block';
  readonly capacityBytes: number;
  readonly usedBytes: number;
  readonly indexBytes: number;
  readonly normalBytes: number;
  readonly blocks: number;
  readonly hits: number;
  readonly misses: number;
  readonly remoteRequests: number;
  readonly remoteBytes: number;
  readonly bytesWritten: number;
  readonly evictions: number;
}

/** What a reader of files needs: open by key (a FileCache, or a worker's client of one). */
export interface FileOpener {
  /** Open an object; `knownSize` (from rowset metadata) saves a HEAD request on remote stores. */
  open(key: string, profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile>;
}

export interface FileCache extends FileOpener {
  readonly kind: 'in-place' | 'block';
  /** Drop everything cached for a key (the object was deleted). */
  invalidate(key: string): Promise<void>;
  /** Drop every cached block (admin `op=clear`, tests). */
  clear(): Promise<void>;
  /** Wait for background block writes to finish. */
  flush(): Promise<void>;
  stats(): FileCacheStats;
  /** Finish background work and close descriptors. */
  close(): Promise<void>;
}

/** One entry of Doris's `file_cache_path` JSON. */
export interface FileCachePathEntry {
  readonly path: string;
  readonly totalSize: number;
  /** Share of the capacity reserved for index/footer blocks (Doris `index_percent`, default 5). */
  readonly indexPercent: number;
  /** Share for normal data blocks (Doris `normal_percent`, default 95 here until TTL/disposable queues exist). */
  readonly normalPercent: number;
}

export interface FileCacheOptions {
  /** Cache directory and capacity (remote stores only). Default: `./file_cache`, 10 GiB. */
  readonly paths?: readonly FileCachePathEntry[];
  /** Block size in bytes (`file_cache_each_block_size`, default 1 MiB). */
  readonly blockSize?: number;
  /** Bound on cached open descriptors. */
  readonly maxOpenFiles?: number;
}
