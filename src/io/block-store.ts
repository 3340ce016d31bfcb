/**
 * The block store of the file cache (Doris's `BlockFileCache` storage): local block files, LRU by bytes in
 * two queues, capacity and stats. It knows nothing of where bytes come from — the cached reader
 * (cached-reader.ts) fetches missing blocks from a range source and `put`s them here.
 *
 * A block is `blockSize`-aligned bytes of one object (1 MiB by default; the last block of an object may be
 * shorter), stored as its own file `<path>/<first 3 hex of hash>/<hash hex>/<block offset>` (suffix `_idx`
 * for index/footer blocks), where hash is the md5 of the object key. Blocks live in two LRU queues by
 * bytes: index (default 5% of the capacity) and normal (95%). A queue may borrow free space; when the store
 * is full, a queue over its share gives up its least recently used blocks first, so a data scan cannot
 * flush the index blocks that fit in their share.
 *
 * Puts are written atomically (`<offset>_tmp.<n>` + rename) and enter the LRU when on disk; `flush` waits
 * for the ones still running. On open, the directory is scanned and the LRU rebuilt in file-mtime order
 * (reads touch the mtime, at most every few seconds per block), so the store survives restarts; leftover
 * temporary files are deleted.
 */
import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { GaleneError } from '../common/errors';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../common/private-files';
import { FdCache } from './fd-cache';
import type { ReadKind } from './file-cache';

/** The LRU queue a block lives in: 0 normal (data) blocks, 1 index/footer blocks. */
export type BlockQueue = 0 | 1;
export const QUEUE_NORMAL: BlockQueue = 0;
export const QUEUE_INDEX: BlockQueue = 1;

/** The queue a read of this kind fills. */
export function queueOfKind(kind: ReadKind): BlockQueue {
  return kind === 'index' ? QUEUE_INDEX : QUEUE_NORMAL;
}

const TOUCH_INTERVAL_MS = 5000;
const BLOCK_NAME = /^(\d+)(_idx)?$/;

export interface BlockStoreOptions {
  readonly path: string;
  readonly capacityBytes: number;
  readonly blockSize?: number;
  readonly indexPercent?: number;
  readonly normalPercent?: number;
  readonly maxOpenFiles?: number;
}

/** One cached block on disk. */
export interface BlockEntry {
  /** `<hash>/<block offset>`. */
  readonly id: string;
  readonly file: string;
  readonly size: number;
  readonly queue: BlockQueue;
  touchedAt: number;
}

export interface BlockStoreStats {
  readonly capacityBytes: number;
  readonly usedBytes: number;
  readonly indexBytes: number;
  readonly normalBytes: number;
  readonly blocks: number;
  readonly bytesWritten: number;
  readonly evictions: number;
}

let tempCounter = 0;

/** 128-bit hash of an object key, as hex (the store's directory name for that object). */
export function cacheKeyHash(key: string): string {
  return createHash('md5').update(key).digest('hex');
}

/** The id of the block at `blockOffset` of the object whose key hashes to `hash`. */
export function blockId(hash: string, blockOffset: number): string {
  return `${hash}/${blockOffset}`;
}

export class BlockStore {
  readonly root: string;
  readonly blockSize: number;
  readonly capacityBytes: number;
  private readonly shares: [number, number];
  private readonly queues: [Map<string, BlockEntry>, Map<string, BlockEntry>] = [new Map(), new Map()];
  private readonly used: [number, number] = [0, 0];
  private reserved = 0;
  private readonly pendingWrites = new Set<Promise<boolean>>();
  private readonly fds: FdCache;
  private bytesWritten = 0;
  private evictions = 0;

  private constructor(options: BlockStoreOptions) {
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

  /** Open (creating) the store directory and rebuild the LRU from the blocks already on disk. */
  static async open(options: BlockStoreOptions): Promise<BlockStore> {
    const store = new BlockStore(options);
    await fsp.mkdir(store.root, { recursive: true, mode: PRIVATE_DIR_MODE });
    await store.loadFromDisk();
    return store;
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
          found.push({ entry: { id: blockId(hash, Number(match[1])), file, size: stat.size, queue, touchedAt: stat.mtimeMs }, mtime: stat.mtimeMs });
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

  /** The cached block with this id, if any (no LRU touch: `readInto` touches). */
  lookup(id: string): BlockEntry | undefined {
    return this.queues[QUEUE_NORMAL].get(id) ?? this.queues[QUEUE_INDEX].get(id);
  }

  /** Forget a block (its file is left for the caller); false when it was already gone. */
  private remove(entry: BlockEntry): boolean {
    const queue = this.queues[entry.queue];
    if (queue.get(entry.id) !== entry) return false;
    queue.delete(entry.id);
    this.used[entry.queue] -= entry.size;
    this.fds.invalidate(entry.file);
    return true;
  }

  private async evictOne(queue: BlockQueue): Promise<void> {
    const oldest = this.queues[queue].values().next().value as BlockEntry;
    this.remove(oldest);
    this.evictions++;
    await fsp.rm(oldest.file, { force: true });
  }

  /**
   * Make room for `size` bytes in `queue` and reserve them; false when it cannot fit. A queue over its
   * share evicts its own LRU blocks first; otherwise space borrowed by the other queue is taken back.
   */
  private async reserve(size: number, queue: BlockQueue): Promise<boolean> {
    if (size > this.capacityBytes) return false;
    const other = (1 - queue) as BlockQueue;
    while (this.used[0] + this.used[1] + this.reserved + size > this.capacityBytes) {
      if (this.used[queue] + size > this.shares[queue] && this.queues[queue].size > 0) await this.evictOne(queue);
      else if (this.queues[other].size > 0) await this.evictOne(other);
      else if (this.queues[queue].size > 0) await this.evictOne(queue);
      else return false;
    }
    this.reserved += size;
    return true;
  }

  private blockPath(hash: string, blockOffset: number, queue: BlockQueue): string {
    return path.join(this.root, hash.slice(0, 3), hash, queue === QUEUE_INDEX ? `${blockOffset}_idx` : String(blockOffset));
  }

  /**
   * Copy `length` bytes at `from` within a cached block into `out` at `outOffset`, and make the block
   * most recently used. False when the block file is gone or short: the block is forgotten, and the
   * caller fetches it again.
   */
  async readInto(entry: BlockEntry, from: number, length: number, out: Buffer, outOffset: number): Promise<boolean> {
    const lruQueue = this.queues[entry.queue];
    lruQueue.delete(entry.id);
    lruQueue.set(entry.id, entry);
    let ok = false;
    try {
      ok = await this.fds.with(entry.file, async (handle) => {
        let done = 0;
        while (done < length) {
          const { bytesRead } = await handle.read(out, outOffset + done, length - done, from + done);
          if (bytesRead === 0) return false;
          done += bytesRead;
        }
        return true;
      });
    } catch {
      ok = false;
    }
    if (!ok) {
      if (this.remove(entry)) void fsp.rm(entry.file, { force: true }).catch(() => undefined);
      return false;
    }
    const now = Date.now();
    if (now - entry.touchedAt > TOUCH_INTERVAL_MS) {
      entry.touchedAt = now;
      const when = new Date(now);
      void fsp.utimes(entry.file, when, when).catch(() => undefined);
    }
    return true;
  }

  /**
   * Store a block (evicting to make room) in the background; resolves true once it is on disk and in the
   * LRU, false when it was already cached, does not fit, or could not be written (a store that cannot
   * write is only slower). Never rejects. `flush` waits for it.
   */
  put(hash: string, blockOffset: number, queue: BlockQueue, data: Buffer): Promise<boolean> {
    const id = blockId(hash, blockOffset);
    const write = (async () => {
      let reservedBytes = 0;
      try {
        if (this.lookup(id)) return false;
        if (!(await this.reserve(data.length, queue))) return false;
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
        return true;
      } catch {
        return false;
      } finally {
        this.reserved -= reservedBytes;
      }
    })();
    this.pendingWrites.add(write);
    void write.finally(() => this.pendingWrites.delete(write));
    return write;
  }

  /** Drop every block of the object whose key hashes to `hash` (the object was deleted). */
  async removeObject(hash: string): Promise<void> {
    await this.flush();
    for (const queue of this.queues) {
      for (const entry of [...queue.values()]) if (entry.id.startsWith(hash + '/')) this.remove(entry);
    }
    await fsp.rm(path.join(this.root, hash.slice(0, 3), hash), { recursive: true, force: true });
  }

  /** Drop every block. */
  async clear(): Promise<void> {
    await this.flush();
    for (const queue of this.queues) for (const entry of [...queue.values()]) this.remove(entry);
    this.fds.closeAll();
    for (const name of await fsp.readdir(this.root).catch(() => [] as string[])) {
      if (/^[0-9a-f]{3}$/.test(name)) await fsp.rm(path.join(this.root, name), { recursive: true, force: true });
    }
  }

  /** Wait for the puts still running. */
  async flush(): Promise<void> {
    while (this.pendingWrites.size > 0) await Promise.all([...this.pendingWrites]);
  }

  stats(): BlockStoreStats {
    return {
      capacityBytes: this.capacityBytes,
      usedBytes: this.used[0] + this.used[1],
      indexBytes: this.used[QUEUE_INDEX],
      normalBytes: this.used[QUEUE_NORMAL],
      blocks: this.queues[0].size + this.queues[1].size,
      bytesWritten: this.bytesWritten,
      evictions: this.evictions,
    };
  }

  /** Finish the running puts and close the block files. */
  async close(): Promise<void> {
    await this.flush();
    this.fds.closeAll();
  }
}
