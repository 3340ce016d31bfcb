/**
 * The FileCache of a BE whose object store routes keys to several vaults (vault-object-store.ts): keys the
 * store calls 'local' are read in place (InPlaceFileCache), every other key through ONE BlockFileCache
 * whose misses go to the routing store. The block tier is opened at BE start even when every vault is
 * local, so its admin API and statistics always exist. Stats are the block tier's (capacity, blocks,
 * misses, remote requests) with the in-place reads added to its hits.
 */
import type { ProfileSink } from '../common/profile';
import type { BlockFileCache } from './block-file-cache';
import type { CachedBlockInfo, FileCache, FileCacheStats, RandomAccessFile, TtlResolver } from './file-cache';
import type { InPlaceFileCache } from './in-place-file-cache';
import { storeKindOf, type ObjectStore } from './object-store';

export class VaultFileCache implements FileCache {
  /** 'in-place' when the built-in store is local (its keys never reach the block tier), else 'block'. */
  readonly kind: 'in-place' | 'block';

  constructor(
    private readonly store: ObjectStore,
    /** Null when the built-in store is remote too. */
    readonly inPlace: InPlaceFileCache | null,
    readonly block: BlockFileCache,
  ) {
    this.kind = inPlace === null ? 'block' : 'in-place';
  }

  /** The tier that reads `key`. */
  tierOf(key: string): FileCache {
    return storeKindOf(this.store, key) === 'local' && this.inPlace !== null ? this.inPlace : this.block;
  }

  open(key: string, profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile> {
    return this.tierOf(key).open(key, profile, knownSize);
  }

  /** Only remote keys reach the block tier, so only they can be TTL blocks. */
  setTtlResolver(resolve: TtlResolver): void {
    this.block.setTtlResolver(resolve);
  }

  invalidate(key: string): Promise<void> {
    return this.tierOf(key).invalidate(key);
  }

  async clear(): Promise<void> {
    await this.inPlace?.clear();
    await this.block.clear();
  }

  async flush(): Promise<void> {
    await this.block.flush();
  }

  stats(): FileCacheStats {
    const block = this.block.stats();
    return { ...block, hits: block.hits + (this.inPlace?.stats().hits ?? 0) };
  }

  /** `/api/file_cache?op=reset`: the block tier's new capacity. */
  resetCapacity(capacityBytes: number): Promise<string> {
    return this.block.resetCapacity(capacityBytes);
  }

  /** information_schema.file_cache_info: the block tier's blocks. */
  cachedBlocks(): CachedBlockInfo[] {
    return this.block.cachedBlocks();
  }

  async close(): Promise<void> {
    await this.inPlace?.close();
    await this.block.close();
  }
}
