/**
 * Builds the file cache for an object store from the server configuration (`file_cache_path`,
 * `file_cache_each_block_size`): in place for local stores; for remote ones a block store read through
 * a cached reader whose misses go to the object store, or to the RangeSource a `missSource` composes in
 * front of it (a BE process's Peer Read, io/peer).
 */
import * as path from 'node:path';
import type { Config } from '../common/config';
import { GaleneError } from '../common/errors';
import { BlockFileCache } from './block-file-cache';
import { DEFAULT_QUEUE_PERCENTS, type BlockStoreOptions } from './block-store';
import type { FileCache, FileCacheOptions, FileCachePathEntry } from './file-cache';
import { InPlaceFileCache } from './in-place-file-cache';
import type { ObjectStore } from './object-store';
import { ObjectStoreRangeSource } from './object-store-range-source';
import type { RangeSource } from './range-source';
import { VaultFileCache } from './vault-file-cache';

export const DEFAULT_FILE_CACHE_BYTES = 10 * 1024 * 1024 * 1024;
export const DEFAULT_BLOCK_SIZE = 1024 * 1024;
/** Doris's watermarks: evict in advance from 88% of the capacity down to 85%. */
export const DEFAULT_EVICT_IN_ADVANCE = { enterPercent: 88, exitPercent: 85 } as const;

/**
 * Parse Doris's `file_cache_path`: `[{"path":"/p","total_size":N, "ttl_percent":50, "normal_percent":40,
 * "disposable_percent":5, "index_percent":5}]`. Percents not given take Doris's defaults; the four must
 * sum to 100. Bad JSON or fields: INVALID_PROPERTY naming the setting.
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
      if (!Number.isInteger(value) || value < 0 || value > 100) return bad(`entry ${itemIdx}: "${name}" must be an integer 0..100`);
      return value;
    };
    const ttlPercent = percent('ttl_percent', DEFAULT_QUEUE_PERCENTS.ttl);
    const normalPercent = percent('normal_percent', DEFAULT_QUEUE_PERCENTS.normal);
    const disposablePercent = percent('disposable_percent', DEFAULT_QUEUE_PERCENTS.disposable);
    const indexPercent = percent('index_percent', DEFAULT_QUEUE_PERCENTS.index);
    const sum = ttlPercent + normalPercent + disposablePercent + indexPercent;
    if (sum !== 100) return bad(`entry ${itemIdx}: ttl_percent + normal_percent + disposable_percent + index_percent is ${sum}, must be 100`);
    return { path: rec.path, totalSize, ttlPercent, normalPercent, disposablePercent, indexPercent };
  });
}

/** The default cache location: `<dir>/file_cache`, 10 GiB, Doris's queue shares. */
function defaultPathEntry(dir: string): FileCachePathEntry {
  return { path: path.join(dir, 'file_cache'), totalSize: DEFAULT_FILE_CACHE_BYTES, ttlPercent: DEFAULT_QUEUE_PERCENTS.ttl, normalPercent: DEFAULT_QUEUE_PERCENTS.normal, disposablePercent: DEFAULT_QUEUE_PERCENTS.disposable, indexPercent: DEFAULT_QUEUE_PERCENTS.index };
}

/** File-cache options from the server configuration (`file_cache_path`, block size, watermarks, LRU dump, `clear_file_cache`). */
export function fileCacheOptionsFromConfig(config: Config): FileCacheOptions {
  const text = config.getString('file_cache_path');
  const paths = text ? parseFileCachePath(text) : [defaultPathEntry(config.getString('data_dir'))];
  const evictInAdvance = config.get<boolean>('enable_evict_file_cache_in_advance')
    ? { enterPercent: config.getInt('file_cache_enter_need_evict_cache_in_advance_percent'), exitPercent: config.getInt('file_cache_exit_need_evict_cache_in_advance_percent') }
    : null;
  return {
    paths,
    blockSize: config.getInt('file_cache_each_block_size'),
    clearOnOpen: config.get<boolean>('clear_file_cache'),
    evictInAdvance,
    lruDumpIntervalMs: config.getInt('file_cache_background_lru_dump_interval_ms'),
  };
}

/** The block options of a `file_cache_path` entry and the rest of the file-cache options. */
export function blockStoreOptions(entry: FileCachePathEntry, options: FileCacheOptions): BlockStoreOptions {
  return {
    path: entry.path,
    capacityBytes: entry.totalSize,
    blockSize: options.blockSize ?? DEFAULT_BLOCK_SIZE,
    indexPercent: entry.indexPercent,
    normalPercent: entry.normalPercent,
    disposablePercent: entry.disposablePercent,
    ttlPercent: entry.ttlPercent,
    maxOpenFiles: options.maxOpenFiles,
    clearOnOpen: options.clearOnOpen,
    evictInAdvance: options.evictInAdvance === undefined ? DEFAULT_EVICT_IN_ADVANCE : options.evictInAdvance,
    lruDumpIntervalMs: options.lruDumpIntervalMs,
  };
}

/**
 * The file cache for a store: in place for local stores, a BlockFileCache over the object store for remote
 * ones; for a store that routes keys (kindOf: storage vaults) both, composed per key (VaultFileCache), the
 * block tier opened even when every vault is local (Doris opens its block cache at start).
 */
export async function createFileCache(store: ObjectStore, options: FileCacheOptions = {}, missSource: MissSource = (storage) => storage): Promise<FileCache> {
  if (store.kindOf !== undefined) {
    const inPlace = store.kind === 'local' ? new InPlaceFileCache(store, options.maxOpenFiles ?? 512) : null;
    return new VaultFileCache(store, inPlace, await openBlockFileCache(store, options, missSource));
  }
  if (store.kind === 'local') return new InPlaceFileCache(store, options.maxOpenFiles ?? 512);
  return openBlockFileCache(store, options, missSource);
}

/** Where the block tier's misses go, given the object store's source (a BE process puts Peer Read here). */
export type MissSource = (storage: RangeSource) => RangeSource;

/** The block cache of `options` reading misses from `store` (through `missSource`). */
function openBlockFileCache(store: ObjectStore, options: FileCacheOptions, missSource: MissSource): Promise<BlockFileCache> {
  const paths = options.paths ?? [defaultPathEntry(path.resolve('.'))];
  if (paths.length !== 1) {
    throw new GaleneError('UNSUPPORTED', ['file_cache_path with more than one path (give a single {"path":...,"total_size":...})']);
  }
  return BlockFileCache.open(missSource(new ObjectStoreRangeSource(store)), blockStoreOptions(paths[0], options));
}
