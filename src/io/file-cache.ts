/**
 * The one read interface every segment and index read goes through (DESIGN §4) — interfaces, and the
 * one-line `withReadKind` wrapper.
 *
 * Callers see `open(key)` -> `read(offset, length)`, and the counters each read adds to the ProfileSink it
 * is given (Doris's names: NumLocalIOTotal, NumRemoteIOTotal, BytesScannedFromCache,
 * BytesScannedFromRemote, BytesWriteIntoCache, FileCacheHits, FileCacheMisses, NumSkipCacheIOTotal, the
 * *IOUseTimer timers, ObjectStoreRequests, ObjectStoreBytes). The tiers: in-place-file-cache.ts (a local store's files read where they are) and
 * block-file-cache.ts (a block store read through a cached reader whose misses go to a range source);
 * create-file-cache.ts picks one for a store (vault-file-cache.ts: a BE's vaults, local keys in place and
 * remote keys through one block tier); file-read-service.ts serves one to worker threads.
 */
import type { ProfileSink } from '../common/profile';

/**
 * What a read is for, which picks the cache queue its blocks fill (Doris's FileCacheType): 'index' for
 * footers and non-inverted indexes (the index queue), 'data' for pages (normal), 'disposable' for
 * compaction's reads (the disposable queue, evicted first). TTL blocks are put with an expiration.
 */
export type ReadKind = 'data' | 'index' | 'disposable';

/** The TTL expiry of an object's blocks (seconds since the epoch; 0 or past: none), from its table's `file_cache_ttl_seconds`. */
export type TtlResolver = (key: string) => number;

/** Doris's four cache queues (information_schema.file_cache_info TYPE). */
export type FileCacheType = 'normal' | 'index' | 'ttl' | 'disposable';

/** Bytes and blocks in one cache queue. */
export interface FileCacheQueueStats {
  readonly bytes: number;
  readonly elements: number;
  /** Bytes this queue may hold before it gives up its own blocks when the cache is full. */
  readonly shareBytes: number;
  readonly evictedBytes: number;
}

/** One cached block (a row of information_schema.file_cache_info). */
export interface CachedBlockInfo {
  /** The hash of the object key (hex), Doris's HASH. */
  readonly hash: string;
  readonly offset: number;
  readonly size: number;
  readonly type: FileCacheType;
  /** The cache root the block lives under (CACHE_PATH). */
  readonly cachePath: string;
}

/** Wrap a file so that every read of it is of one kind (compaction reads all fill the disposable queue). */
export function withReadKind(file: RandomAccessFile, kind: ReadKind): RandomAccessFile {
  return { key: file.key, size: file.size, read: (offset, length, profile) => file.read(offset, length, profile, kind) };
}

/** An open immutable object, read by ranges. */
export interface RandomAccessFile {
  readonly key: string;
  readonly size: number;
  /** `length` bytes at `offset`; a range past the end is an IO_ERROR. The buffer is the caller's. */
  read(offset: number, length: number, profile: ProfileSink, kind?: ReadKind): Promise<Buffer>;
  /**
   * Bytes read from this file failed verification (a checksum): drop whatever a cache holds of it, so
   * that the next read fetches the object again (a repaired object is then read whole). Tiers that hold
   * no copy omit it.
   */
  discard?(): Promise<void>;
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
  /** Per-queue sizes (block tiers only). */
  readonly queues?: Readonly<Record<FileCacheType, FileCacheQueueStats>>;
  /** Blocks evicted by the background (watermark) eviction, included in `evictions`. */
  readonly evictionsInAdvance?: number;
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
  /**
   * Admin `op=reset&capacity=`: a new capacity for the block tier (a shrink evicts at once); answers
   * Doris's message. Tiers without blocks omit it.
   */
  resetCapacity?(capacityBytes: number): Promise<string>;
  /** Block tiers: which objects' blocks go to the TTL queue, and until when. */
  setTtlResolver?(resolve: TtlResolver): void;
  /** The blocks the block tier holds (information_schema.file_cache_info); tiers without blocks omit it. */
  cachedBlocks?(): CachedBlockInfo[];
  /** Finish background work and close descriptors. */
  close(): Promise<void>;
}

/** One entry of Doris's `file_cache_path` JSON. */
export interface FileCachePathEntry {
  readonly path: string;
  readonly totalSize: number;
  /** Share of the capacity for index/footer blocks (Doris `index_percent`, default 5). */
  readonly indexPercent: number;
  /** Share for normal data blocks (Doris `normal_percent`, default 40). */
  readonly normalPercent: number;
  /** Share for compaction reads (Doris `disposable_percent`, default 5; 0 when only index/normal are given). */
  readonly disposablePercent?: number;
  /** Share for blocks of tables with a TTL (Doris `ttl_percent`, default 50; 0 when only index/normal are given). */
  readonly ttlPercent?: number;
}

export interface FileCacheOptions {
  /** Cache directory and capacity (remote stores only). Default: `./file_cache`, 10 GiB. */
  readonly paths?: readonly FileCachePathEntry[];
  /** Block size in bytes (`file_cache_each_block_size`, default 1 MiB). */
  readonly blockSize?: number;
  /** Bound on cached open descriptors. */
  readonly maxOpenFiles?: number;
  /** Wipe the cache when it opens (Doris `clear_file_cache`, default false). */
  readonly clearOnOpen?: boolean;
  /**
   * Background eviction in advance (Doris `enable_evict_file_cache_in_advance`): from `enterPercent` of
   * the capacity (`file_cache_enter_need_evict_cache_in_advance_percent`, 88) down to `exitPercent`
   * (`file_cache_exit_need_evict_cache_in_advance_percent`, 85). null: off.
   */
  readonly evictInAdvance?: { readonly enterPercent: number; readonly exitPercent: number } | null;
  /** How often the LRU order is written to disk when it changed (`file_cache_background_lru_dump_interval_ms`). */
  readonly lruDumpIntervalMs?: number;
}
