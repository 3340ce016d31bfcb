/**
 * io/: where bytes live and how they are read. Object stores (a local directory by default, S3-compatible
 * stores through the AWS SDK, and a remote-shaped wrapper for tests), and the one FileCache every segment and index read goes through:
 * in place for local stores; for remote ones a block store (block-store.ts) read through a cached reader
 * (cached-reader.ts) whose misses go to a RangeSource (the object store, or Peer Read's race of another
 * BE's cache against it: peer/). file-read-service.ts serves the one FileCache to worker threads. Imports only common/; storage/
 * builds segments on top of it.
 */
export type { ObjectStore } from './object-store';
export { LocalObjectStore } from './local-object-store';
export { RemoteLikeObjectStore } from './remote-like-store';
export { S3ObjectStore, describeS3Error, type S3StoreOptions, type S3StoreStats } from './s3-object-store';
export type { FileCache, FileCacheOptions, FileCachePathEntry, FileCacheStats, FileOpener, RandomAccessFile, ReadKind } from './file-cache';
export type { RangeSource } from './range-source';
export { createFileCache, fileCacheOptionsFromConfig, parseFileCachePath } from './create-file-cache';
export { InPlaceFileCache } from './in-place-file-cache';
export { BlockFileCache } from './block-file-cache';
export { BlockStore, cacheKeyHash } from './block-store';
export { CachedReader } from './cached-reader';
export { ObjectStoreRangeSource } from './object-store-range-source';
export { FileReadClient, FileReadService } from './file-read-service';
export { VaultObjectStore, openS3Vault, s3OptionsOfVault, vaultObjectKey } from './vault-object-store';
export { VaultFileCache } from './vault-file-cache';
