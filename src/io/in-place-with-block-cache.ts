/**
 * The file cache of a BE whose store is a local directory: reads go to the in-place tier (files read where
 * they lie), while the block tier is opened anyway at `file_cache_path`, as Doris opens its block cache at
 * start, so that `/api/file_cache` and information_schema.file_cache_info always answer. Until remote vaults
 * route keys to it (slice V's composite replaces this class), the block tier stays empty.
 */
import type { ProfileSink } from '../common/profile';
import type { BlockFileCache } from './block-file-cache';
import type { CachedBlockInfo, FileCache, FileCacheStats, RandomAccessFile } from './file-cache';
import type { InPlaceFileCache } from './in-place-file-cache';

export class InPlaceWithBlockCache implements FileCache {
  readonly kind = 'in-place' as const;

  constructor(
    readonly inPlace: InPlaceFileCache,
    readonly block: BlockFileCache,
  ) {}

  open(key: string, profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile> {
    return this.inPlace.open(key, profile, knownSize);
  }

  async invalidate(key: string): Promise<void> {
    await Promise.all([this.inPlace.invalidate(key), this.block.invalidate(key)]);
  }

  async clear(): Promise<void> {
    await Promise.all([this.inPlace.clear(), this.block.clear()]);
  }

  async flush(): Promise<void> {
    await Promise.all([this.inPlace.flush(), this.block.flush()]);
  }

  /** The block tier's sizes and queues; hits count the in-place reads too. */
  stats(): FileCacheStats {
    const block = this.block.stats();
    return { ...block, kind: 'in-place', hits: block.hits + this.inPlace.stats().hits };
  }

  resetCapacity(capacityBytes: number): Promise<string> {
    return this.block.resetCapacity(capacityBytes);
  }

  cachedBlocks(): CachedBlockInfo[] {
    return this.block.cachedBlocks();
  }

  async close(): Promise<void> {
    await Promise.all([this.inPlace.close(), this.block.close()]);
  }
}
