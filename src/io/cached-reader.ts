/**
 * The cached reader (Doris's CachedRemoteFileReader): `RandomAccessFile`s over a block store whose
 * misses go to a range source. It is the one place that decides hit or miss; the block store only keeps
 * blocks, the source only fetches ranges, so a new tier (peer read, a hedged race of peer and object
 * store) is a new RangeSource and nothing here changes.
 *
 * A read serves its cached blocks from the block store and fetches only the missing ones, contiguous
 * missing blocks in one source read; concurrent misses of one block share one fetch (in-flight map).
 * Fetched blocks are `put` into the store in the background and leave the in-flight map when on disk.
 * A block file that vanished is fetched again. Counters (Doris's names): FileCacheHits, FileCacheMisses
 * (per block), NumLocalIOTotal / BytesScannedFromCache for hits, NumRemoteIOTotal /
 * BytesScannedFromRemote for source reads, BytesWriteIntoCache for stored blocks; the source adds its own.
 */
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import { blockId, BlockStore, cacheKeyHash, cacheTypeOfKind, type BlockEntry } from './block-store';
import type { FileCacheType, RandomAccessFile, ReadKind, TtlResolver } from './file-cache';
import type { RangeSource } from './range-source';

const MAX_KNOWN_SIZES = 100000;

/** Counters of the reads a CachedReader served. */
export interface CachedReaderStats {
  readonly hits: number;
  readonly misses: number;
  /** Requests to the range source (sizes and reads). */
  readonly remoteRequests: number;
  readonly remoteBytes: number;
}

/** One object being read: its key, hash, size and the output buffer of the current read. */
interface ReadState {
  readonly key: string;
  readonly hash: string;
  readonly size: number;
  readonly offset: number;
  readonly length: number;
  readonly out: Buffer;
  readonly type: FileCacheType;
  /** TTL blocks: their expiry (seconds since the epoch); 0 otherwise. */
  readonly expiration: number;
  readonly profile: ProfileSink;
}

export class CachedReader {
  private readonly inflight = new Map<string, Promise<Buffer>>();
  private readonly knownSizes = new Map<string, number>();
  private hits = 0;
  private misses = 0;
  private remoteRequests = 0;
  private remoteBytes = 0;
  /** Objects of tables with `file_cache_ttl_seconds` fill the TTL queue (set by the BE). */
  ttlOf: TtlResolver | null = null;

  constructor(
    readonly blocks: BlockStore,
    readonly source: RangeSource,
  ) {}

  /** Open an object; `knownSize` (from rowset metadata) saves a size request to the source. */
  async open(key: string, profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile> {
    let size = knownSize ?? this.knownSizes.get(key);
    if (size === undefined) {
      this.remoteRequests++;
      const found = await this.source.size(key, profile);
      if (found === null) throw new GaleneError('IO_ERROR', [`object not found: ${key}`]);
      size = found;
    }
    if (this.knownSizes.size >= MAX_KNOWN_SIZES) this.knownSizes.clear();
    this.knownSizes.set(key, size);
    const hash = cacheKeyHash(key);
    const fileSize = size;
    return {
      key,
      size: fileSize,
      read: (offset, length, readProfile, kind) => this.read(key, hash, fileSize, offset, length, readProfile, kind ?? 'data'),
      discard: async () => {
        this.forget(key);
        await this.blocks.removeObject(hash);
      },
    };
  }

  /** Forget what is known of a key (the object was deleted). */
  forget(key: string): void {
    this.knownSizes.delete(key);
  }

  stats(): CachedReaderStats {
    return { hits: this.hits, misses: this.misses, remoteRequests: this.remoteRequests, remoteBytes: this.remoteBytes };
  }

  private async read(key: string, hash: string, size: number, offset: number, length: number, profile: ProfileSink, kind: ReadKind): Promise<Buffer> {
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new GaleneError('IO_ERROR', [`read ${key}: range [${offset}, ${offset + length}) outside object of ${size} bytes`]);
    }
    if (length > 0 && profile.fileCache?.skipCache) return this.readSkippingCache(key, size, offset, length, profile);
    const out = Buffer.allocUnsafeSlow(length);
    if (length === 0) return out;
    let type = cacheTypeOfKind(kind);
    let expiration = 0;
    // Compaction's reads stay disposable; a table's data and index blocks go to the TTL queue until expiry.
    if (type !== 'disposable' && this.ttlOf !== null) {
      expiration = this.ttlOf(key);
      if (expiration > Date.now() / 1000) type = 'ttl';
      else expiration = 0;
    }
    const state: ReadState = { key, hash, size, offset, length, out, type, expiration, profile };
    const blockSize = this.blocks.blockSize;
    const firstBlock = Math.floor(offset / blockSize);
    const lastBlock = Math.floor((offset + length - 1) / blockSize);
    const tasks: Promise<void>[] = [];
    let runStart = -1;
    const flushRun = (endBlock: number): void => {
      if (runStart < 0) return;
      tasks.push(this.fetchRun(state, runStart, endBlock));
      runStart = -1;
    };
    for (let blockIdx = firstBlock; blockIdx <= lastBlock; blockIdx++) {
      const id = blockId(hash, blockIdx * blockSize);
      const entry = this.blocks.lookup(id);
      const pending = entry ? undefined : this.inflight.get(id);
      if (entry || pending) flushRun(blockIdx);
      if (entry) {
        tasks.push(this.readCached(state, entry, blockIdx));
      } else if (pending) {
        this.misses++;
        profile.add('FileCacheMisses', 1);
        tasks.push(pending.then((data) => this.copyBlock(state, blockIdx, data)));
      } else if (runStart < 0) {
        runStart = blockIdx;
      }
    }
    flushRun(lastBlock + 1);
    await Promise.all(tasks);
    return out;
  }

  /** Copy the part of a block's bytes that the read covers into its output. */
  private copyBlock(state: ReadState, blockIdx: number, data: Buffer): void {
    const { offset, length } = state;
    const blockOffset = blockIdx * this.blocks.blockSize;
    const from = Math.max(offset, blockOffset);
    const to = Math.min(offset + length, blockOffset + data.length);
    if (to - from !== Math.min(offset + length, blockOffset + this.blocks.blockSize) - from) {
      throw new GaleneError('IO_ERROR', [`read ${state.key}: block at ${blockOffset} is short`]);
    }
    data.copy(state.out, from - offset, from - blockOffset, to - blockOffset);
  }

  /** Serve one block from the block store; a vanished or short block file falls back to a fetch. */
  private async readCached(state: ReadState, entry: BlockEntry, blockIdx: number): Promise<void> {
    const { offset, length, profile } = state;
    const blockOffset = blockIdx * this.blocks.blockSize;
    const from = Math.max(offset, blockOffset);
    const to = Math.min(offset + length, blockOffset + this.blocks.blockSize);
    const started = process.hrtime.bigint();
    if (await this.blocks.readInto(entry, from - blockOffset, to - from, state.out, from - offset)) {
      profile.add('LocalIOUseTimer', Number(process.hrtime.bigint() - started));
      this.hits++;
      profile.add('FileCacheHits', 1);
      profile.add('NumLocalIOTotal', 1);
      profile.add('BytesScannedFromCache', to - from);
      return;
    }
    const pending = this.inflight.get(entry.id);
    if (pending) {
      this.copyBlock(state, blockIdx, await pending);
      return;
    }
    await this.fetchRun(state, blockIdx, blockIdx + 1);
  }

  /** A query with `disable_file_cache`: the range straight from the source, nothing cached or looked up. */
  private async readSkippingCache(key: string, size: number, offset: number, length: number, profile: ProfileSink): Promise<Buffer> {
    const started = process.hrtime.bigint();
    this.remoteRequests++;
    profile.add('NumRemoteIOTotal', 1);
    profile.add('NumSkipCacheIOTotal', 1);
    let data: Buffer;
    try {
      data = await this.source.read(key, offset, length, profile, size);
    } catch (err) {
      if (err instanceof GaleneError) throw err;
      throw new GaleneError('IO_ERROR', [`read ${key}: ${(err as Error).message}`], { cause: err });
    }
    if (data.length !== length) throw new GaleneError('IO_ERROR', [`read ${key}: ${this.source.name} returned ${data.length} bytes, expected ${length}`]);
    this.remoteBytes += data.length;
    profile.add('BytesScannedFromRemote', data.length);
    profile.add('RemoteIOUseTimer', Number(process.hrtime.bigint() - started));
    return data;
  }

  /**
   * Whether a fetched block of a query may fill the cache (Doris's per-query limits). With
   * `file_cache_query_limit_bytes` >= 0, data blocks are admitted while their bytes stay within it; the
   * first that would pass it turns the query remote-only on misses (RemoteOnlyOnMissTriggered) and every
   * block not stored counts NumSkipCacheIOTotal. Index/footer blocks are not counted (Doris counts segment
   * metadata only with enable_file_cache_query_limit_segment_meta). With `file_cache_query_limit_percent`,
   * the query's own oldest blocks are evicted first so that they stay within that share of the capacity.
   */
  private admit(profile: ProfileSink, type: FileCacheType, size: number): boolean {
    const policy = profile.fileCache;
    if (!policy || type === 'index') return true;
    if (policy.limitBytes >= 0) {
      if (!policy.remoteOnly && policy.admittedBytes + size > policy.limitBytes) {
        policy.remoteOnly = true;
        profile.add('RemoteOnlyOnMissTriggered', 1);
      }
      if (policy.remoteOnly) {
        profile.add('NumSkipCacheIOTotal', 1);
        return false;
      }
      policy.admittedBytes += size;
    }
    if (policy.limitPercent > 0) {
      const quota = (this.blocks.capacityBytes * policy.limitPercent) / 100;
      for (const [id, bytes] of policy.ownBlocks) {
        if (policy.ownBytes + size <= quota) break;
        policy.ownBlocks.delete(id);
        policy.ownBytes -= bytes;
        this.blocks.evictBlock(id);
      }
    }
    return true;
  }

  /** Remember a block a query with `file_cache_query_limit_percent` put (its own LRU record). */
  private recordOwn(profile: ProfileSink, type: FileCacheType, id: string, size: number): void {
    const policy = profile.fileCache;
    if (!policy || type === 'index' || policy.limitPercent <= 0) return;
    policy.ownBlocks.set(id, size);
    policy.ownBytes += size;
  }

  /** Fetch blocks [startBlock, endBlock) of an object in one source read and back-fill the block store. */
  private fetchRun(state: ReadState, startBlock: number, endBlock: number): Promise<void> {
    const { key, hash, size, type, expiration, profile } = state;
    const blockSize = this.blocks.blockSize;
    const start = startBlock * blockSize;
    const end = Math.min(size, endBlock * blockSize);
    const started = process.hrtime.bigint();
    const request = this.source.read(key, start, end - start, profile, size);
    this.remoteRequests++;
    profile.add('NumRemoteIOTotal', 1);
    const copies: Promise<void>[] = [];
    for (let blockIdx = startBlock; blockIdx < endBlock; blockIdx++) {
      const blockOffset = blockIdx * blockSize;
      const id = blockId(hash, blockOffset);
      this.misses++;
      profile.add('FileCacheMisses', 1);
      const blockData = request.then((data) => {
        if (data.length !== end - start) throw new GaleneError('IO_ERROR', [`read ${key}: ${this.source.name} returned ${data.length} bytes, expected ${end - start}`]);
        return data.subarray(blockOffset - start, Math.min(end, blockOffset + blockSize) - start);
      });
      this.inflight.set(id, blockData);
      blockData.then(
        (data) => {
          if (!this.admit(profile, type, data.length)) {
            this.inflight.delete(id);
            return;
          }
          const writeStarted = process.hrtime.bigint();
          return this.blocks.put(hash, blockOffset, type, data, expiration).then((written) => {
            profile.add('WriteCacheIOUseTimer', Number(process.hrtime.bigint() - writeStarted));
            if (written) {
              profile.add('BytesWriteIntoCache', data.length);
              this.recordOwn(profile, type, id, data.length);
            }
            this.inflight.delete(id);
          });
        },
        () => this.inflight.delete(id),
      );
      copies.push(blockData.then((data) => this.copyBlock(state, blockIdx, data)));
    }
    const counted = request.then((data) => {
      profile.add('RemoteIOUseTimer', Number(process.hrtime.bigint() - started));
      this.remoteBytes += data.length;
      profile.add('BytesScannedFromRemote', data.length);
    });
    return Promise.all([counted, ...copies]).then(
      () => undefined,
      (err: unknown) => {
        if (err instanceof GaleneError) throw err;
        throw new GaleneError('IO_ERROR', [`read ${key}: ${(err as Error).message}`], { cause: err });
      },
    );
  }
}
