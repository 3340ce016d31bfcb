/**
 * The one read interface every segment and index read goes through (DESIGN §4).
 *
 * `createFileCache(store, options)` picks the tier: over a local-directory store an in-place reader (fs
 * reads of the object's own file through a bounded descriptor cache, no second copy on disk); over a
 * remote store a BlockFileCache (local 1 MiB block files, LRU by bytes with an index queue, fetch on
 * miss). Callers see only `open(key)` -> `read(offset, length)`, and the counters each read adds to the
 * ProfileSink it is given (Doris's names: NumLocalIOTotal, NumRemoteIOTotal, BytesScannedFromCache,
 * BytesScannedFromRemote, BytesWriteIntoCache, FileCacheHits, FileCacheMisses, ObjectStoreRequests,
 * ObjectStoreBytes).
 */
import * as path from 'node:path';
import type { Config } from '../common/config';
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import { BlockFileCache } from './block-file-cache';
import { FdCache } from './fd-cache';
import type { ObjectStore } from './object-store';

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

export interface FileCache {
  readonly kind: 'in-place' | 'block';
  /** Open an object; `knownSize` (from rowset metadata) saves a HEAD request on remote stores. */
  open(key: string, profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile>;
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

export const DEFAULT_FILE_CACHE_BYTES = 10 * 1024 * 1024 * 1024;
export const DEFAULT_BLOCK_SIZE = 1024 * 1024;

/**
 * Parse Doris's `file_cache_path`: `[{"path":"/p","total_size":N, "index_percent":5, "normal_percent":95}]`.
 * Bad JSON or fields: INVALID_PROPERTY naming the setting.
 */
export function parseFileCachePath(json: string): FileCachePathEntry[] {
  const bad = (why: string): never => {
    throw new GaleneError('INVALID_PROPERTY', ['file_cache_path', `${why} (expected [{"path":"/p","total_size":N}])`]);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    return bad(`not JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return bad('must be a non-empty JSON array');
  return parsed.map((item: unknown, itemIdx) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return bad(`entry ${itemIdx} is not an object`);
    const rec = item as Record<string, unknown>;
    if (typeof rec.path !== 'string' || rec.path.length === 0) return bad(`entry ${itemIdx} needs a "path" string`);
    const totalSize = rec.total_size === undefined ? DEFAULT_FILE_CACHE_BYTES : Number(rec.total_size);
    if (!Number.isSafeInteger(totalSize) || totalSize <= 0) return bad(`entry ${itemIdx}: "total_size" must be a positive integer`);
    const percent = (name: string, dflt: number): number => {
      if (rec[name] === undefined) return dflt;
      const value = Number(rec[name]);
      if (!Number.isFinite(value) || value < 0 || value > 100) return bad(`entry ${itemIdx}: "${name}" must be 0..100`);
      return value;
    };
    const indexPercent = percent('index_percent', 5);
    const normalPercent = percent('normal_percent', rec.index_percent === undefined ? 95 : 100 - indexPercent);
    return { path: rec.path, totalSize, indexPercent, normalPercent };
  });
}

export interface FileCacheOptions {
  /** Cache directory and capacity (remote stores only). Default: `./file_cache`, 10 GiB. */
  readonly paths?: readonly FileCachePathEntry[];
  /** Block size in bytes (`file_cache_each_block_size`, default 1 MiB). */
  readonly blockSize?: number;
  /** Bound on cached open descriptors. */
  readonly maxOpenFiles?: number;
}

/** File-cache options from the server configuration (`file_cache_path`, `file_cache_each_block_size`). */
export function fileCacheOptionsFromConfig(config: Config): FileCacheOptions {
  const text = config.getString('file_cache_path');
  const paths = text
    ? parseFileCachePath(text)
    : [{ path: path.join(config.getString('data_dir'), 'file_cache'), totalSize: DEFAULT_FILE_CACHE_BYTES, indexPercent: 5, normalPercent: 95 }];
  return { paths, blockSize: config.getInt('file_cache_each_block_size') };
}

/** The file cache for a store: in place for local stores, a BlockFileCache for remote ones. */
export async function createFileCache(store: ObjectStore, options: FileCacheOptions = {}): Promise<FileCache> {
  if (store.kind === 'local') return new InPlaceFileCache(store, options.maxOpenFiles ?? 512);
  const paths = options.paths ?? [{ path: path.resolve('file_cache'), totalSize: DEFAULT_FILE_CACHE_BYTES, indexPercent: 5, normalPercent: 95 }];
  if (paths.length !== 1) {
    throw new GaleneError('UNSUPPORTED', ['file_cache_path with more than one path (give a single {"path":...,"total_size":...})']);
  }
  const entry = paths[0];
  return BlockFileCache.open(store, {
    path: entry.path,
    capacityBytes: entry.totalSize,
    blockSize: options.blockSize ?? DEFAULT_BLOCK_SIZE,
    indexPercent: entry.indexPercent,
    normalPercent: entry.normalPercent,
    maxOpenFiles: options.maxOpenFiles,
  });
}

/**
 * Reads a local store's files where they are. Counts each read as a local I/O
 * (NumLocalIOTotal, BytesScannedFromCache: for a local store the store itself is the cache tier).
 */
export class InPlaceFileCache implements FileCache {
  readonly kind = 'in-place' as const;
  private readonly store: ObjectStore;
  private readonly fds: FdCache;
  private reads = 0;
  private bytes = 0;

  constructor(store: ObjectStore, maxOpenFiles = 512) {
    if (store.kind !== 'local') throw new GaleneError('INTERNAL', ['InPlaceFileCache needs a local object store']);
    this.store = store;
    this.fds = new FdCache(maxOpenFiles);
  }

  private pathOf(key: string): string {
    const file = this.store.localPath(key);
    if (file === null) throw new GaleneError('INTERNAL', [`local store gave no path for ${key}`]);
    return file;
  }

  async open(key: string, _profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile> {
    const file = this.pathOf(key);
    const size = await this.fds.with(file, async (_handle, fileSize) => fileSize).catch((err: unknown) => {
      throw this.ioError(key, err);
    });
    if (knownSize !== undefined && knownSize !== size) {
      throw new GaleneError('CORRUPTION', [`${key}: size ${size} differs from the recorded ${knownSize}`]);
    }
    return { key, size, read: (offset, length, profile) => this.read(key, file, size, offset, length, profile) };
  }

  private ioError(key: string, err: unknown): GaleneError {
    if (err instanceof GaleneError) return err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new GaleneError('IO_ERROR', [`object not found: ${key}`], { cause: err });
    return new GaleneError('IO_ERROR', [`read ${key}: ${(err as Error).message}`], { cause: err });
  }

  private async read(key: string, file: string, size: number, offset: number, length: number, profile: ProfileSink): Promise<Buffer> {
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new GaleneError('IO_ERROR', [`read ${key}: range [${offset}, ${offset + length}) outside object of ${size} bytes`]);
    }
    const out = Buffer.allocUnsafeSlow(length);
    try {
      await this.fds.with(file, async (handle) => {
        let done = 0;
        while (done < length) {
          const { bytesRead } = await handle.read(out, done, length - done, offset + done);
          if (bytesRead === 0) throw new GaleneError('IO_ERROR', [`read ${key}: object shorter than expected`]);
          done += bytesRead;
        }
      });
    } catch (err) {
      throw this.ioError(key, err);
    }
    this.reads++;
    this.bytes += length;
    profile.add('NumLocalIOTotal', 1);
    profile.add('BytesScannedFromCache', length);
    return out;
  }

  async invalidate(key: string): Promise<void> {
    this.fds.invalidate(this.pathOf(key));
  }

  async clear(): Promise<void> {
    this.fds.closeAll();
  }

  async flush(): Promise<void> {
    return undefined;
  }

  stats(): FileCacheStats {
    return {
      kind: 'in-place',
      capacityBytes: 0,
      usedBytes: 0,
      indexBytes: 0,
      normalBytes: 0,
      blocks: 0,
      hits: this.reads,
      misses: 0,
      remoteRequests: 0,
      remoteBytes: 0,
      bytesWritten: 0,
      evictions: 0,
    };
  }

  async close(): Promise<void> {
    this.fds.closeAll();
  }
}
