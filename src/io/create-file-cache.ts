/**
 * Builds the file cache for an object store from the server configuration (`file_cache_path`,
 * `file_cache_each_block_size`): in place for local stores; for remote ones a block store read through
 * a cached reader whose misses go to the object store (the place a peer or hedged RangeSource will be
 * composed in front of it).
 */
import * as path from 'node:path';
import type { Config } from '../common/config';
import { GaleneError } from '../common/errors';
import { BlockFileCache } from './block-file-cache';
import type { FileCache, FileCacheOptions, FileCachePathEntry } from './file-cache';
import { InPlaceFileCache } from './in-place-file-cache';
import type { ObjectStore } from './object-store';
import { ObjectStoreRangeSource } from './object-store-range-source';
import { VaultFileCache } from './vault-file-cache';

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

/** File-cache options from the server configuration (`file_cache_path`, `file_cache_each_block_size`). */
export function fileCacheOptionsFromConfig(config: Config): FileCacheOptions {
  const text = config.getString('file_cache_path');
  const paths = text
    ? parseFileCachePath(text)
    : [{ path: path.join(config.getString('data_dir'), 'file_cache'), totalSize: DEFAULT_FILE_CACHE_BYTES, indexPercent: 5, normalPercent: 95 }];
  return { paths, blockSize: config.getInt('file_cache_each_block_size') };
}

/**
 * The file cache for a store: in place for local stores, a BlockFileCache over the object store for remote
 * ones; for a store that routes keys (kindOf: storage vaults) both, composed per key (VaultFileCache).
 */
export async function createFileCache(store: ObjectStore, options: FileCacheOptions = {}): Promise<FileCache> {
  if (store.kindOf !== undefined) {
    const inPlace = store.kind === 'local' ? new InPlaceFileCache(store, options.maxOpenFiles ?? 512) : null;
    return new VaultFileCache(store, inPlace, await openBlockFileCache(store, options));
  }
  if (store.kind === 'local') return new InPlaceFileCache(store, options.maxOpenFiles ?? 512);
  return openBlockFileCache(store, options);
}

/** The block cache of `options` reading misses from `store`. */
async function openBlockFileCache(store: ObjectStore, options: FileCacheOptions): Promise<BlockFileCache> {
  const paths = options.paths ?? [{ path: path.resolve('file_cache'), totalSize: DEFAULT_FILE_CACHE_BYTES, indexPercent: 5, normalPercent: 95 }];
  if (paths.length !== 1) {
    throw new GaleneError('UNSUPPORTED', ['file_cache_path with more than one path (give a single {"path":...,"total_size":...})']);
  }
  const entry = paths[0];
  return BlockFileCache.open(new ObjectStoreRangeSource(store), {
    path: entry.path,
    capacityBytes: entry.totalSize,
    blockSize: options.blockSize ?? DEFAULT_BLOCK_SIZE,
    indexPercent: entry.indexPercent,
    normalPercent: entry.normalPercent,
    maxOpenFiles: options.maxOpenFiles,
  });
}
