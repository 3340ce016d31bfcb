/**
 * The FileCache of a remote store (Doris's `be/src/io/cache`): a BlockStore of local block files
 * (block-store.ts) read through a CachedReader (cached-reader.ts) whose misses go to a RangeSource — the
 * object store today, a peer or hedged source later. This class only ties the two together and gives
 * them the FileCache lifecycle (invalidate, clear, flush, stats, close).
 */
import type { ProfileSink } from '../common/profile';
import { BlockStore, cacheKeyHash, type BlockStoreOptions } from './block-store';
import { CachedReader } from './cached-reader';
import type { CachedBlockInfo, FileCache, FileCacheStats, RandomAccessFile, TtlResolver } from './file-cache';
import type { RangeSource } from './range-source';

export class BlockFileCache implements FileCache {
  readonly kind = 'block' as const;

  private constructor(
    readonly blocks: BlockStore,
    readonly reader: CachedReader,
  ) {}

  /** Open (creating) the block store and read through it from `source`. */
  static async open(source: RangeSource, options: BlockStoreOptions): Promise<BlockFileCache> {
    const blocks = await BlockStore.open(options);
    return new BlockFileCache(blocks, new CachedReader(blocks, source));
  }

  get root(): string {
    return this.blocks.root;
  }

  get blockSize(): number {
    return this.blocks.blockSize;
  }

  get capacityBytes(): number {
    return this.blocks.capacityBytes;
  }

  open(key: string, profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile> {
    return this.reader.open(key, profile, knownSize);
  }

  setTtlResolver(resolve: TtlResolver): void {
    this.reader.ttlOf = resolve;
  }

  async invalidate(key: string): Promise<void> {
    this.reader.forget(key);
    await this.blocks.removeObject(cacheKeyHash(key));
  }

  clear(): Promise<void> {
    return this.blocks.clear();
  }

  flush(): Promise<void> {
    return this.blocks.flush();
  }

  stats(): FileCacheStats {
    const stored = this.blocks.stats();
    const read = this.reader.stats();
    return {
      kind: 'block',
      capacityBytes: stored.capacityBytes,
      usedBytes: stored.usedBytes,
      indexBytes: stored.indexBytes,
      normalBytes: stored.normalBytes,
      blocks: stored.blocks,
      hits: read.hits,
      misses: read.misses,
      remoteRequests: read.remoteRequests,
      remoteBytes: read.remoteBytes,
      bytesWritten: stored.bytesWritten,
      evictions: stored.evictions,
      evictionsInAdvance: stored.evictionsInAdvance,
      queues: stored.queues,
    };
  }

  resetCapacity(capacityBytes: number): Promise<string> {
    return this.blocks.resetCapacity(capacityBytes);
  }

  cachedBlocks(): CachedBlockInfo[] {
    return this.blocks.listBlocks();
  }

  close(): Promise<void> {
    return this.blocks.close();
  }
}
