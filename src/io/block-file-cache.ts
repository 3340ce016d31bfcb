/**
 * Local block cache in front of a remote object store (Doris's `be/src/io/cache` block file cache).
 *
 * Objects are cut into `blockSize`-aligned blocks (1 MiB by default); each cached block is its own file
 * `<path>/<first 3 hex of hash>/<hash hex>/<block offset>` (suffix `_idx` for index/footer blocks), where
 * hash is the md5 of the object key. Blocks live in two LRU queues by bytes: index (default 5% of the
 * capacity) and normal (95%). A queue may borrow free space; when the cache is full, a queue over its share
 * gives up its least recently used blocks first, so a data scan cannot flush the index blocks that fit in
 * their share.
 *
 * A read fetches only its missing blocks, contiguous missing blocks in one ranged GET; concurrent misses of
 * one block share one fetch (in-flight map). Downloads are written in the background atomically
 * (`<offset>_tmp.<n>` + rename) and enter the LRU when on disk. On open, the directory is scanned and the
 * LRU rebuilt in file-mtime order (hits touch the mtime, at most every few seconds per block), so the
 * cache survives restarts; leftover temporary files are deleted.
 */
import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { GaleneError } from '../common/errors';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../common/private-files';
import type { ProfileSink } from '../common/profile';
import { FdCache } from './fd-cache';
import type { FileCache, FileCacheStats, RandomAccessFile, ReadKind } from './file-cache';
import type { ObjectStore } from './object-store';

const QUEUE_NORMAL = 0;
const QUEUE_INDEX = 1;
const TOUCH_INTERVAL_MS = 5000;
const MAX_KNOWN_SIZES = 100000;
const BLOCK_NAME = /^(\d+)(_idx)?$/;

export interface BlockFileCacheOptions {
  readonly path: string;
  readonly capacityBytes: number;
  readonly blockSize?: number;
  readonly indexPercent?: number;
  readonly normalPercent?: number;
  readonly maxOpenFiles?: number;
}

interface BlockEntry {
  readonly id: string;
  readonly file: string;
  readonly size: number;
  readonly queue: number;
  touchedAt: number;
}

let tempCounter = 0;

/** 128-bit hash of an object key, as hex (the cache's directory name for that object). */
export function cacheKeyHash(key: string): string {
  return createHash('md5').update(key).digest('hex');
}

export class BlockFileCache implements FileCache {
  readonly kind = 'block' as const;
  readonly root: string;
  readonly blockSize: number;
  readonly capacityBytes: number;
  private readonly store: ObjectStore;
  private readonly shares: [number, number];
  private readonly queues: [Map<string, BlockEntry>, Map<string, BlockEntry>] = [new Map(), new Map()];
  private readonly used: [number, number] = [0, 0];
  private reserved = 0;
  private readonly inflight = new Map<string, Promise<Buffer>>();
  private readonly pendingWrites = new Set<Promise<void>>();
  private readonly knownSizes = new Map<string, number>();
  private readonly fds: FdCache;
  private hits = 0;
  private misses = 0;
  private remoteRequests = 0;
  private remoteBytes = 0;
  private bytesWritten = 0;
  private evictions = 0;

  private constructor(store: ObjectStore, options: BlockFileCacheOptions) {
    this.store = store;
    this.root = path.resolve(options.path);
    this.blockSize = options.blockSize ?? 1024 * 1024;
    if (!Number.isSafeInteger(this.blockSize) || this.blockSize < 4096) {
      throw new GaleneError('INVALID_PROPERTY', ['file_cache_each_block_size', `${this.blockSize} (at least 4096 bytes)`]);
    }
    this.capacityBytes = options.capacityBytes;
    const indexPercent = options.indexPercent ?? 5;
    const normalPercent = options.normalPercent ?? 100 - indexPercent;
    this.shares = [(this.capacityBytes * normalPercent) / 100, (this.capacityBytes * indexPercent) / 100];
    this.fds = new FdCache(options.maxOpenFiles ?? 256);
  }

  /** Open (creating) the cache directory and rebuild the LRU from the blocks already on disk. */
  static async open(store: ObjectStore, options: BlockFileCacheOptions): Promise<BlockFileCache> {
    const cache = new BlockFileCache(store, options);
    await fsp.mkdir(cache.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    await cache.loadFromDisk();
    return cache;
  }

  private async loadFromDisk(): Promise<void> {
    const found: { entry: BlockEntry; mtime: number }[] = [];
    for (const prefixDir of await fsp.readdir(this.root).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{3}$/.test(prefixDir)) continue;
      const prefixPath = path.join(this.root, prefixDir);
      for (const hash of await fsp.readdir(prefixPath).catch(() => [] as string[])) {
        if (!/^[0-9a-f]{32}$/.test(hash)) continue;
        const hashPath = path.join(prefixPath, hash);
        for (const name of await fsp.readdir(hashPath).catch(() => [] as string[])) {
          const file = path.join(hashPath, name);
          const match = BLOCK_NAME.exec(name);
          if (!match) {
            if (name.includes('_tmp')) await fsp.rm(file, { force: true });
            continue;
          }
          const stat = await fsp.stat(file).catch(() => null);
          if (!stat || !stat.isFile() || stat.size === 0 || stat.size > this.blockSize) {
            await fsp.rm(file, { force: true });
            continue;
          }
          const queue = match[2] ? QUEUE_INDEX : QUEUE_NORMAL;
          found.push({ entry: { id: `${hash}/${match[1]}`, file, size: stat.size, queue, touchedAt: stat.mtimeMs }, mtime: stat.mtimeMs });
        }
      }
    }
    found.sort((a, b) => a.mtime - b.mtime);
    for (const { entry } of found) {
      if (!(await this.reserve(entry.size, entry.queue))) {
        await fsp.rm(entry.file, { force: true });
        continue;
      }
      this.reserved -= entry.size;
      this.insert(entry);
    }
  }

  private insert(entry: BlockEntry): void {
    this.queues[entry.queue].set(entry.id, entry);
    this.used[entry.queue] += entry.size;
  }

  private lookup(id: string): BlockEntry | undefined {
    return this.queues[QUEUE_NORMAL].get(id) ?? this.queues[QUEUE_INDEX].get(id);
  }

  private remove(entry: BlockEntry): boolean {
    const queue = this.queues[entry.queue];
    if (queue.get(entry.id) !== entry) return false;
    queue.delete(entry.id);
    this.used[entry.queue] -= entry.size;
    this.fds.invalidate(entry.file);
    return true;
  }

  private async evictOne(queue: number): Promise<void> {
    const oldest = this.queues[queue].values().next().value as BlockEntry;
    this.remove(oldest);
    this.evictions++;
    await fsp.rm(oldest.file, { force: true });
  }

  /**
   * Make room for `size` bytes in `queue` and reserve them; false when it cannot fit. A queue over its
   * share evicts its own LRU blocks first; otherwise space borrowed by the other queue is taken back.
   */
  private async reserve(size: number, queue: number): Promise<boolean> {
    if (size > this.capacityBytes) return false;
    const other = 1 - queue;
    while (this.used[0] + this.used[1] + this.reserved + size > this.capacityBytes) {
      if (this.used[queue] + size > this.shares[queue] && this.queues[queue].size > 0) await this.evictOne(queue);
      else if (this.queues[other].size > 0) await this.evictOne(other);
      else if (this.queues[queue].size > 0) await this.evictOne(queue);
      else return false;
    }
    this.reserved += size;
    return true;
  }

  private blockPath(hash: string, blockOffset: number, queue: number): string {
    return path.join(this.root, hash.slice(0, 3), hash, queue === QUEUE_INDEX ? `${blockOffset}_idx` : String(blockOffset));
  }

  async open(key: string, profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile> {
    let size = knownSize ?? this.knownSizes.get(key);
    if (size === undefined) {
      profile.add('ObjectStoreRequests', 1);
      this.remoteRequests++;
      const head = await this.store.head(key);
      if (head === null) throw new GaleneError('IO_ERROR', [`object not found: ${key}`]);
      size = head.size;
    }
    if (this.knownSizes.size >= MAX_KNOWN_SIZES) this.knownSizes.clear();
    this.knownSizes.set(key, size);
    const hash = cacheKeyHash(key);
    const fileSize = size;
    return { key, size: fileSize, read: (offset, length, readProfile, kind) => this.read(key, hash, fileSize, offset, length, readProfile, kind ?? 'data') };
  }

  private async read(key: string, hash: string, size: number, offset: number, length: number, profile: ProfileSink, kind: ReadKind): Promise<Buffer> {
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new GaleneError('IO_ERROR', [`read ${key}: range [${offset}, ${offset + length}) outside object of ${size} bytes`]);
    }
    const out = Buffer.allocUnsafeSlow(length);
    if (length === 0) return out;
    const queue = kind === 'index' ? QUEUE_INDEX : QUEUE_NORMAL;
    const firstBlock = Math.floor(offset / this.blockSize);
    const lastBlock = Math.floor((offset + length - 1) / this.blockSize);
    const tasks: Promise<void>[] = [];
    let runStart = -1;
    const copyBlock = (blockIdx: number, data: Buffer): void => {
      const blockOffset = blockIdx * this.blockSize;
      const from = Math.max(offset, blockOffset);
      const to = Math.min(offset + length, blockOffset + data.length);
      if (to - from !== Math.min(offset + length, blockOffset + this.blockSize) - from) {
        throw new GaleneError('IO_ERROR', [`read ${key}: block at ${blockOffset} is short`]);
      }
      data.copy(out, from - offset, from - blockOffset, to - blockOffset);
    };
    const flushRun = (endBlock: number): void => {
      if (runStart < 0) return;
      const start = runStart;
      runStart = -1;
      tasks.push(this.fetchRun(key, hash, size, start, endBlock, queue, profile, copyBlock));
    };
    for (let blockIdx = firstBlock; blockIdx <= lastBlock; blockIdx++) {
      const id = `${hash}/${blockIdx * this.blockSize}`;
      const entry = this.lookup(id);
      const pending = entry ? undefined : this.inflight.get(id);
      if (entry || pending) flushRun(blockIdx);
      if (entry) {
        tasks.push(this.readCached(key, hash, size, entry, blockIdx, offset, length, out, queue, profile, copyBlock));
      } else if (pending) {
        this.misses++;
        profile.add('FileCacheMisses', 1);
        tasks.push(pending.then((data) => copyBlock(blockIdx, data)));
      } else if (runStart < 0) {
        runStart = blockIdx;
      }
    }
    flushRun(lastBlock + 1);
    await Promise.all(tasks);
    return out;
  }

  /** Serve one block from its local file; a vanished or short file falls back to a fetch. */
  private async readCached(
    key: string,
    hash: string,
    size: number,
    entry: BlockEntry,
    blockIdx: number,
    offset: number,
    length: number,
    out: Buffer,
    queue: number,
    profile: ProfileSink,
    copyBlock: (blockIdx: number, data: Buffer) => void,
  ): Promise<void> {
    const blockOffset = blockIdx * this.blockSize;
    const from = Math.max(offset, blockOffset);
    const to = Math.min(offset + length, blockOffset + this.blockSize);
    // LRU touch.
    const lruQueue = this.queues[entry.queue];
    lruQueue.delete(entry.id);
    lruQueue.set(entry.id, entry);
    let ok = false;
    try {
      ok = await this.fds.with(entry.file, async (handle) => {
        let done = 0;
        while (done < to - from) {
          const { bytesRead } = await handle.read(out, from - offset + done, to - from - done, from - blockOffset + done);
          if (bytesRead === 0) return false;
          done += bytesRead;
        }
        return true;
      });
    } catch {
      ok = false;
    }
    if (ok) {
      this.hits++;
      profile.add('FileCacheHits', 1);
      profile.add('NumLocalIOTotal', 1);
      profile.add('BytesScannedFromCache', to - from);
      const now = Date.now();
      if (now - entry.touchedAt > TOUCH_INTERVAL_MS) {
        entry.touchedAt = now;
        const when = new Date(now);
        void fsp.utimes(entry.file, when, when).catch(() => undefined);
      }
      return;
    }
    // The block file is gone or damaged: forget it and fetch again.
    if (this.remove(entry)) void fsp.rm(entry.file, { force: true }).catch(() => undefined);
    const pending = this.inflight.get(entry.id);
    if (pending) {
      copyBlock(blockIdx, await pending);
      return;
    }
    await this.fetchRun(key, hash, size, blockIdx, blockIdx + 1, queue, profile, copyBlock);
  }

  /** Fetch blocks [startBlock, endBlock) of an object in one ranged GET and back-fill the cache. */
  private fetchRun(
    key: string,
    hash: string,
    size: number,
    startBlock: number,
    endBlock: number,
    queue: number,
    profile: ProfileSink,
    copyBlock: (blockIdx: number, data: Buffer) => void,
  ): Promise<void> {
    const start = startBlock * this.blockSize;
    const end = Math.min(size, endBlock * this.blockSize);
    const request = this.store.get(key, { offset: start, length: end - start });
    this.remoteRequests++;
    profile.add('NumRemoteIOTotal', 1);
    profile.add('ObjectStoreRequests', 1);
    const copies: Promise<void>[] = [];
    for (let blockIdx = startBlock; blockIdx < endBlock; blockIdx++) {
      const blockOffset = blockIdx * this.blockSize;
      const id = `${hash}/${blockOffset}`;
      this.misses++;
      profile.add('FileCacheMisses', 1);
      const blockData = request.then((data) => {
        if (data.length !== end - start) throw new GaleneError('IO_ERROR', [`read ${key}: object store returned ${data.length} bytes, expected ${end - start}`]);
        return data.subarray(blockOffset - start, Math.min(end, blockOffset + this.blockSize) - start);
      });
      this.inflight.set(id, blockData);
      blockData.then(
        (data) => this.writeBlock(id, hash, blockOffset, queue, data, profile),
        () => this.inflight.delete(id),
      );
      copies.push(blockData.then((data) => copyBlock(blockIdx, data)));
    }
    const counted = request.then((data) => {
      this.remoteBytes += data.length;
      profile.add('ObjectStoreBytes', data.length);
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

  private writeBlock(id: string, hash: string, blockOffset: number, queue: number, data: Buffer, profile: ProfileSink): void {
    const write = (async () => {
      let reservedBytes = 0;
      try {
        if (this.lookup(id)) return;
        if (!(await this.reserve(data.length, queue))) return;
        reservedBytes = data.length;
        const file = this.blockPath(hash, blockOffset, queue);
        const temp = `${file}_tmp.${process.pid}.${++tempCounter}`;
        // Cached blocks are table data: owner-only (src/common/private-files.ts).
        await fsp.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
        await fsp.writeFile(temp, data, { mode: PRIVATE_FILE_MODE });
        await fsp.rename(temp, file).catch(async (err: unknown) => {
          await fsp.rm(temp, { force: true });
          throw err;
        });
        this.reserved -= reservedBytes;
        reservedBytes = 0;
        this.insert({ id, file, size: data.length, queue, touchedAt: Date.now() });
        this.bytesWritten += data.length;
        profile.add('BytesWriteIntoCache', data.length);
      } catch {
        // A cache that cannot write is only slower: the read already has its bytes.
      } finally {
        this.reserved -= reservedBytes;
        this.inflight.delete(id);
      }
    })();
    this.pendingWrites.add(write);
    void write.finally(() => this.pendingWrites.delete(write));
  }

  async invalidate(key: string): Promise<void> {
    const hash = cacheKeyHash(key);
    this.knownSizes.delete(key);
    await this.flush();
    for (const queue of this.queues) {
      for (const entry of [...queue.values()]) if (entry.id.startsWith(hash + '/')) this.remove(entry);
    }
    await fsp.rm(path.join(this.root, hash.slice(0, 3), hash), { recursive: true, force: true });
  }

  async clear(): Promise<void> {
    await this.flush();
    for (const queue of this.queues) for (const entry of [...queue.values()]) this.remove(entry);
    this.fds.closeAll();
    for (const name of await fsp.readdir(this.root).catch(() => [] as string[])) {
      if (/^[0-9a-f]{3}$/.test(name)) await fsp.rm(path.join(this.root, name), { recursive: true, force: true });
    }
  }

  async flush(): Promise<void> {
    while (this.pendingWrites.size > 0) await Promise.all([...this.pendingWrites]);
  }

  stats(): FileCacheStats {
    return {
      kind: 'block',
      capacityBytes: this.capacityBytes,
      usedBytes: this.used[0] + this.used[1],
      indexBytes: this.used[QUEUE_INDEX],
      normalBytes: this.used[QUEUE_NORMAL],
      blocks: this.queues[0].size + this.queues[1].size,
      hits: this.hits,
      misses: this.misses,
      remoteRequests: this.remoteRequests,
      remoteBytes: this.remoteBytes,
      bytesWritten: this.bytesWritten,
      evictions: this.evictions,
    };
  }

  async close(): Promise<void> {
    await this.flush();
    this.fds.closeAll();
  }
}
