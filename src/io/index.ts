/**
 * io/: where bytes live and how they are read. Object stores (a local directory by default; a remote-shaped
 * wrapper until the S3 store exists), and the one FileCache every segment and index read goes through
 * (in place for local stores, a local block cache for remote ones). Imports only common/; storage/ builds
 * segments on top of it.
 */
export type { ObjectStore } from './object-store';
export { LocalObjectStore } from './local-object-store';
export { RemoteLikeObjectStore } from './remote-like-store';
export type { FileCache, FileCacheOptions, FileCachePathEntry, FileCacheStats, RandomAccessFile, ReadKind } from './file-cache';
export { createFileCache, fileCacheOptionsFromConfig, InPlaceFileCache, parseFileCachePath } from './file-cache';
export { BlockFileCache, cacheKeyHash } from './block-file-cache';
