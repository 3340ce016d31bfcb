/**
 * The block store of the file cache (Doris's `BlockFileCache` storage): local block files, LRU by bytes in
 * Doris's four queues, capacity and stats. It knows nothing of where bytes come from — the cached reader
 * (cached-reader.ts) fetches missing blocks from a range source and `put`s them here.
 *
 * A block is `blockSize`-aligned bytes of one object (1 MiB by default; the last block of an object may be
 * shorter), stored as its own file `<path>/<first 3 hex of hash>/<hash hex>_<expiration>/<offset><suffix>`
 * as Doris lays it out: hash the md5 of the object key, expiration the TTL block's expiry in seconds since
 * the epoch (0 otherwise), suffix `_idx` (index), `_disposable`, `_ttl` or none (normal), `_tmp` while
 * being written.
 *
 * Queues and their default shares of the capacity (Doris): TTL 50% (blocks of tables with a TTL: other
 * queues never evict them before they expire; a TTL queue over its share evicts its own LRU), index 5%
 * (footers, non-inverted indexes), normal 40%, disposable 5% (compaction reads). A queue may borrow free space. When a put needs room, the putting queue gives up its
 * own least recently used blocks while it is over its share; then queues over their share give up theirs
 * in the order disposable -> normal -> index -> TTL; then any queue in that order. So a data scan cannot
 * flush index blocks that fit in their share, and compaction cannot flush either.
 *
 * Watermarks (Doris's "evict in advance"): when the used bytes reach `enterPercent` of the capacity a
 * background pass evicts, by the same order, down to `exitPercent`, so a put rarely waits for eviction.
 *
 * Puts are written atomically (`<offset>_tmp.<unique tag>` + rename) and enter the LRU when on disk; `flush` waits
 * for the ones still running. The LRU order of each queue is written to `lru_dump_<queue>.tail` when it
 * changed (every `lruDumpIntervalMs`) and on close; on open the directory is scanned and each queue is
 * rebuilt in its dumped order (blocks the dump does not know, newer than it, after those in file-mtime
 * order; a missing or corrupt dump falls back to mtime order). Leftover temporary files are deleted.
 */
import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { GaleneError } from '../common/errors';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../common/private-files';
import { uniqueTempTag } from '../common/temp-names';
import { FdCache } from './fd-cache';
import type { CachedBlockInfo, FileCacheQueueStats, FileCacheType, ReadKind } from './file-cache';

/** The queues, in the order eviction takes from them. */
export const EVICTION_ORDER: readonly FileCacheType[] = ['disposable', 'normal', 'index', 'ttl'];
/** Doris's default shares (percent of the capacity). */
export const DEFAULT_QUEUE_PERCENTS: Readonly<Record<FileCacheType, number>> = { ttl: 50, index: 5, normal: 40, disposable: 5 };

const SUFFIX: Readonly<Record<FileCacheType, string>> = { normal: '', index: '_idx', disposable: '_disposable', ttl: '_ttl' };
const TYPE_OF_SUFFIX: ReadonlyMap<string, FileCacheType> = new Map(Object.entries(SUFFIX).map(([type, suffix]) => [suffix, type as FileCacheType]));

/** The queue a read of this kind fills. */
export function cacheTypeOfKind(kind: ReadKind): FileCacheType {
  return kind === 'index' ? 'index' : kind === 'disposable' ? 'disposable' : 'normal';
}

const TOUCH_INTERVAL_MS = 5000;
const BLOCK_NAME = /^(\d+)(_idx|_disposable|_ttl)?$/;
const KEY_DIR = /^([0-9a-f]{32})(?:_(\d+))?$/;
const DUMP_MAGIC = 'galene-file-cache-lru 1';

export interface BlockStoreOptions {
  readonly path: string;
  readonly capacityBytes: number;
  readonly blockSize?: number;
  readonly indexPercent?: number;
  readonly normalPercent?: number;
  readonly disposablePercent?: number;
  readonly ttlPercent?: number;
  readonly maxOpenFiles?: number;
  /** Wipe every block (and the LRU dumps) on open (Doris `clear_file_cache`). */
  readonly clearOnOpen?: boolean;
  /** Background eviction from enterPercent down to exitPercent of the capacity; null or absent: off. */
  readonly evictInAdvance?: { readonly enterPercent: number; readonly exitPercent: number } | null;
  /** How often a changed LRU order is dumped (ms); 0: only on close. Default 5000. */
  readonly lruDumpIntervalMs?: number;
  /** The clock (ms), for TTL expiry; tests pass their own. */
  readonly now?: () => number;
}

/** One cached block on disk. */
export interface BlockEntry {
  /** `<hash>/<block offset>`. */
  readonly id: string;
  readonly hash: string;
  readonly offset: number;
  readonly file: string;
  readonly size: number;
  readonly type: FileCacheType;
  /** TTL blocks: expiry in seconds since the epoch; 0 otherwise. */
  readonly expiration: number;
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
  readonly evictionsInAdvance: number;
  readonly queues: Readonly<Record<FileCacheType, FileCacheQueueStats>>;
}


/** 128-bit hash of an object key, as hex (the store's directory name for that object). */
export function cacheKeyHash(key: string): string {
  return createHash('md5').update(key).digest('hex');
}

/** The id of the block at `blockOffset` of the object whose key hashes to `hash`. */
export function blockId(hash: string, blockOffset: number): string {
  return `${hash}/${blockOffset}`;
}

/**
 * Validated queue shares (percent) of store options: TTL and disposable 0 unless given, index 5, normal
 * the rest (file_cache_path's parser fills in Doris's 50/40/5/5). A sum other than 100 is an error naming
 * `file_cache_path`.
 */
export function queuePercents(options: { indexPercent?: number; normalPercent?: number; disposablePercent?: number; ttlPercent?: number }): Record<FileCacheType, number> {
  const ttl = options.ttlPercent ?? 0;
  const disposable = options.disposablePercent ?? 0;
  const index = options.indexPercent ?? 5;
  const percents: Record<FileCacheType, number> = { ttl, index, disposable, normal: options.normalPercent ?? 100 - ttl - disposable - index };
  const sum = percents.ttl + percents.index + percents.normal + percents.disposable;
  if (Object.values(percents).some((value) => value < 0) || Math.abs(sum - 100) > 1e-9) {
    throw new GaleneError('INVALID_PROPERTY', ['file_cache_path', `ttl_percent + normal_percent + disposable_percent + index_percent is ${sum}; the sum must be 100`]);
  }
  return percents;
}

const emptyRecord = <T>(make: () => T): Record<FileCacheType, T> => ({ ttl: make(), index: make(), normal: make(), disposable: make() });

export class BlockStore {
  readonly root: string;
  readonly blockSize: number;
  private capacity: number;
  private readonly percents: Record<FileCacheType, number>;
  private readonly shares: Record<FileCacheType, number> = emptyRecord(() => 0);
  /** Each queue's blocks, least recently used first. */
  private readonly queues: Record<FileCacheType, Map<string, BlockEntry>> = emptyRecord(() => new Map<string, BlockEntry>());
  private readonly byId = new Map<string, BlockEntry>();
  private readonly used: Record<FileCacheType, number> = emptyRecord(() => 0);
  private readonly evictedBytes: Record<FileCacheType, number> = emptyRecord(() => 0);
  private reserved = 0;
  private readonly pendingWrites = new Set<Promise<boolean>>();
  private readonly fds: FdCache;
  private readonly now: () => number;
  private readonly evictInAdvance: { readonly enterPercent: number; readonly exitPercent: number } | null;
  private advancing: Promise<void> | null = null;
  private readonly dumpTimer: NodeJS.Timeout | null = null;
  private lruChanged = false;
  private dumping: Promise<void> = Promise.resolve();
  private bytesWritten = 0;
  private evictions = 0;
  private evictionsInAdvance = 0;
  private closed = false;

  private constructor(options: BlockStoreOptions) {
    this.root = path.resolve(options.path);
    this.blockSize = options.blockSize ?? 1024 * 1024;
    if (!Number.isSafeInteger(this.blockSize) || this.blockSize < 4096) {
      throw new GaleneError('INVALID_PROPERTY', ['file_cache_each_block_size', `${this.blockSize} (at least 4096 bytes)`]);
    }
    this.percents = queuePercents(options);
    this.capacity = options.capacityBytes;
    this.setShares();
    this.fds = new FdCache(options.maxOpenFiles ?? 256);
    this.now = options.now ?? Date.now;
    const advance = options.evictInAdvance ?? null;
    if (advance && !(advance.exitPercent > 0 && advance.exitPercent < advance.enterPercent && advance.enterPercent <= 100)) {
      throw new GaleneError('INVALID_PROPERTY', ['file_cache_exit_need_evict_cache_in_advance_percent', `${advance.exitPercent} (must be above 0 and below file_cache_enter_need_evict_cache_in_advance_percent ${advance.enterPercent}, at most 100)`]);
    }
    this.evictInAdvance = advance;
    const interval = options.lruDumpIntervalMs ?? 5000;
    if (interval > 0) {
      this.dumpTimer = setInterval(() => void this.dumpLru(), interval);
      this.dumpTimer.unref();
    }
  }

  /** Open (creating) the store directory and rebuild the LRU from the blocks already on disk. */
  static async open(options: BlockStoreOptions): Promise<BlockStore> {
    const store = new BlockStore(options);
    try {
      await fsp.mkdir(store.root, { recursive: true, mode: PRIVATE_DIR_MODE });
      if (options.clearOnOpen) await store.wipeDisk();
      await store.loadFromDisk();
    } catch (err) {
      if (store.dumpTimer) clearInterval(store.dumpTimer);
      throw err;
    }
    return store;
  }

  get capacityBytes(): number {
    return this.capacity;
  }

  private setShares(): void {
    for (const type of EVICTION_ORDER) this.shares[type] = (this.capacity * this.percents[type]) / 100;
  }

  private dumpFile(type: FileCacheType): string {
    return path.join(this.root, `lru_dump_${type}.tail`);
  }

  /** A queue's dumped order (block ids, least recently used first); null when missing or corrupt. */
  private async readDump(type: FileCacheType): Promise<string[] | null> {
    const text = await fsp.readFile(this.dumpFile(type), 'utf8').catch(() => null);
    if (text === null) return null;
    const lines = text.split('\n');
    if (lines[0] !== DUMP_MAGIC) return null;
    const ids: string[] = [];
    for (let lineIdx = 1; lineIdx < lines.length; lineIdx++) {
      const line = lines[lineIdx];
      const end = /^end (\d+)$/.exec(line);
      if (end) return Number(end[1]) === ids.length ? ids : null;
      const match = /^([0-9a-f]{32}) (\d+)$/.exec(line);
      if (!match) return null;
      ids.push(blockId(match[1], Number(match[2])));
    }
    return null;
  }

  private async loadFromDisk(): Promise<void> {
    const found = new Map<string, { entry: BlockEntry; mtime: number }>();
    for (const prefixDir of await fsp.readdir(this.root).catch(() => [] as string[])) {
      if (!/^[0-9a-f]{3}$/.test(prefixDir)) continue;
      const prefixPath = path.join(this.root, prefixDir);
      for (const keyDir of await fsp.readdir(prefixPath).catch(() => [] as string[])) {
        const keyMatch = KEY_DIR.exec(keyDir);
        if (!keyMatch) continue;
        const hash = keyMatch[1];
        const expiration = Number(keyMatch[2] ?? 0);
        const keyPath = path.join(prefixPath, keyDir);
        for (const name of await fsp.readdir(keyPath).catch(() => [] as string[])) {
          const file = path.join(keyPath, name);
          const match = BLOCK_NAME.exec(name);
          if (!match) {
            if (name.includes('_tmp')) await fsp.rm(file, { force: true });
            continue;
          }
          const stat = await fsp.stat(file).catch(() => null);
          const id = blockId(hash, Number(match[1]));
          if (!stat || !stat.isFile() || stat.size === 0 || stat.size > this.blockSize || found.has(id)) {
            await fsp.rm(file, { force: true });
            continue;
          }
          const type = TYPE_OF_SUFFIX.get(match[2] ?? '') ?? 'normal';
          found.set(id, { entry: { id, hash, offset: Number(match[1]), file, size: stat.size, type, expiration: type === 'ttl' ? expiration : 0, touchedAt: stat.mtimeMs }, mtime: stat.mtimeMs });
        }
      }
    }
    const ordered: BlockEntry[] = [];
    for (const type of EVICTION_ORDER) {
      const mine = [...found.values()].filter(({ entry }) => entry.type === type);
      const dumped = await this.readDump(type);
      const position = new Map((dumped ?? []).map((id, idx) => [id, idx]));
      // Dumped blocks in dump order, then the ones written after the dump by mtime.
      mine.sort((a, b) => (position.get(a.entry.id) ?? Infinity) - (position.get(b.entry.id) ?? Infinity) || a.mtime - b.mtime);
      ordered.push(...mine.map(({ entry }) => entry));
    }
    // Oldest first over all queues (each queue's own order kept), so what does not fit is what was least used.
    for (const entry of ordered) {
      if (!(await this.reserve(entry.size, entry.type))) {
        await fsp.rm(entry.file, { force: true });
        continue;
      }
      this.reserved -= entry.size;
      this.insert(entry);
    }
    this.lruChanged = true;
  }

  private async wipeDisk(): Promise<void> {
    for (const name of await fsp.readdir(this.root).catch(() => [] as string[])) {
      if (/^[0-9a-f]{3}$/.test(name) || /^lru_dump_\w+\.tail(\.tmp)?$/.test(name)) await fsp.rm(path.join(this.root, name), { recursive: true, force: true });
    }
  }

  private insert(entry: BlockEntry): void {
    this.queues[entry.type].set(entry.id, entry);
    this.byId.set(entry.id, entry);
    this.used[entry.type] += entry.size;
    this.lruChanged = true;
  }

  /** The cached block with this id, if any (no LRU touch: `readInto` touches). */
  lookup(id: string): BlockEntry | undefined {
    return this.byId.get(id);
  }

  /** Forget a block (its file is left for the caller); false when it was already gone. */
  private remove(entry: BlockEntry): boolean {
    if (this.byId.get(entry.id) !== entry) return false;
    this.byId.delete(entry.id);
    this.queues[entry.type].delete(entry.id);
    this.used[entry.type] -= entry.size;
    this.fds.invalidate(entry.file);
    this.lruChanged = true;
    return true;
  }

  private usedTotal(): number {
    return this.used.ttl + this.used.index + this.used.normal + this.used.disposable;
  }

  /**
   * The least recently used block of a queue that may be evicted: for the TTL queue only expired ones,
   * unless the TTL queue evicts its own (a TTL put over the TTL share: Doris's TTL self-LRU).
   */
  private oldestEvictable(type: FileCacheType, own: boolean): BlockEntry | undefined {
    if (type !== 'ttl' || own) return this.queues[type].values().next().value as BlockEntry | undefined;
    const nowSeconds = this.now() / 1000;
    for (const entry of this.queues.ttl.values()) if (entry.expiration <= nowSeconds) return entry;
    return undefined;
  }

  /**
   * The block to evict for `size` more bytes in queue `type` (null: a background pass): the queue's own
   * oldest while it is over its share, then the oldest of the first queue over its share in eviction
   * order, then the oldest of the first queue with an evictable block.
   */
  private victim(type: FileCacheType | null, size: number): BlockEntry | undefined {
    if (type !== null && this.used[type] + size > this.shares[type]) {
      const own = this.oldestEvictable(type, true);
      if (own) return own;
    }
    for (const queue of EVICTION_ORDER) {
      if (queue === type || this.used[queue] <= this.shares[queue]) continue;
      const over = this.oldestEvictable(queue, false);
      if (over) return over;
    }
    for (const queue of EVICTION_ORDER) {
      const any = this.oldestEvictable(queue, false);
      if (any) return any;
    }
    return undefined;
  }

  private async evict(entry: BlockEntry): Promise<void> {
    if (!this.remove(entry)) return;
    this.evictions++;
    this.evictedBytes[entry.type] += entry.size;
    await fsp.rm(entry.file, { force: true });
  }

  /** Make room for `size` bytes in queue `type` and reserve them; false when it cannot fit. */
  private async reserve(size: number, type: FileCacheType): Promise<boolean> {
    if (size > this.capacity) return false;
    while (this.usedTotal() + this.reserved + size > this.capacity) {
      const entry = this.victim(type, size);
      if (!entry) return false;
      await this.evict(entry);
    }
    this.reserved += size;
    return true;
  }

  /** Start the background eviction when the used bytes reached the high watermark. */
  private checkWatermark(): void {
    const advance = this.evictInAdvance;
    if (!advance || this.advancing || this.closed) return;
    if (this.usedTotal() < (this.capacity * advance.enterPercent) / 100) return;
    this.advancing = (async () => {
      while (!this.closed && this.usedTotal() > (this.capacity * advance.exitPercent) / 100) {
        const entry = this.victim(null, 0);
        if (!entry) break;
        await this.evict(entry);
        this.evictionsInAdvance++;
      }
    })().finally(() => {
      this.advancing = null;
    });
  }

  /** Wait for a running background eviction (tests). */
  async evictionSettled(): Promise<void> {
    while (this.advancing) await this.advancing;
  }

  private blockPath(hash: string, blockOffset: number, type: FileCacheType, expiration: number): string {
    return path.join(this.root, hash.slice(0, 3), `${hash}_${expiration}`, `${blockOffset}${SUFFIX[type]}`);
  }

  /**
   * Copy `length` bytes at `from` within a cached block into `out` at `outOffset`, and make the block
   * most recently used. False when the block file is gone or short: the block is forgotten, and the
   * caller fetches it again.
   */
  async readInto(entry: BlockEntry, from: number, length: number, out: Buffer, outOffset: number): Promise<boolean> {
    this.touch(entry);
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

  /** Make a block the most recently used of its queue. */
  touch(entry: BlockEntry): void {
    const queue = this.queues[entry.type];
    if (queue.get(entry.id) !== entry) return;
    queue.delete(entry.id);
    queue.set(entry.id, entry);
    this.lruChanged = true;
  }

  /**
   * Store a block (evicting to make room) in the background; resolves true once it is on disk and in the
   * LRU, false when it was already cached, does not fit, or could not be written (a store that cannot
   * write is only slower). Never rejects. `flush` waits for it. A TTL block carries its expiry (seconds
   * since the epoch); one already expired is stored as normal.
   */
  put(hash: string, blockOffset: number, type: FileCacheType, data: Buffer, expiration = 0): Promise<boolean> {
    const id = blockId(hash, blockOffset);
    const storedType: FileCacheType = type === 'ttl' && expiration <= this.now() / 1000 ? 'normal' : type;
    const storedExpiration = storedType === 'ttl' ? Math.floor(expiration) : 0;
    const write = (async () => {
      let reservedBytes = 0;
      try {
        if (this.closed || this.lookup(id)) return false;
        if (!(await this.reserve(data.length, storedType))) return false;
        reservedBytes = data.length;
        const file = this.blockPath(hash, blockOffset, storedType, storedExpiration);
        const temp = `${file}_tmp.${uniqueTempTag()}`;
        // Cached blocks are table data: owner-only (src/common/private-files.ts).
        await fsp.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
        await fsp.writeFile(temp, data, { mode: PRIVATE_FILE_MODE });
        await fsp.rename(temp, file).catch(async (err: unknown) => {
          await fsp.rm(temp, { force: true });
          throw err;
        });
        this.reserved -= reservedBytes;
        reservedBytes = 0;
        if (this.lookup(id)) return false;
        this.insert({ id, hash, offset: blockOffset, file, size: data.length, type: storedType, expiration: storedExpiration, touchedAt: Date.now() });
        this.bytesWritten += data.length;
        this.checkWatermark();
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

  /** Evict one block by id (a query over its cache quota gives up its own blocks first); false when not cached. */
  evictBlock(id: string): boolean {
    const entry = this.byId.get(id);
    if (!entry) return false;
    void this.evict(entry).catch(() => undefined);
    return true;
  }

  /** Drop every block of the object whose key hashes to `hash` (the object was deleted). */
  async removeObject(hash: string): Promise<void> {
    await this.flush();
    const dirs = new Set<string>();
    for (const entry of [...this.byId.values()]) {
      if (entry.hash !== hash) continue;
      this.remove(entry);
      dirs.add(path.dirname(entry.file));
    }
    for (const dir of dirs) await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rm(path.join(this.root, hash.slice(0, 3), `${hash}_0`), { recursive: true, force: true });
  }

  /** Drop every block. */
  async clear(): Promise<void> {
    await this.flush();
    await this.evictionSettled();
    for (const entry of [...this.byId.values()]) this.remove(entry);
    this.fds.closeAll();
    for (const name of await fsp.readdir(this.root).catch(() => [] as string[])) {
      if (/^[0-9a-f]{3}$/.test(name)) await fsp.rm(path.join(this.root, name), { recursive: true, force: true });
    }
    await this.dumpLru();
  }

  /**
   * A new capacity (admin `op=reset`): the shares follow it, and a shrink below the bytes in use evicts
   * at once, by the eviction order. Answers Doris's message.
   */
  async resetCapacity(capacityBytes: number): Promise<string> {
    if (!Number.isSafeInteger(capacityBytes) || capacityBytes <= 0) {
      throw new GaleneError('INVALID_PROPERTY', ['capacity', `${capacityBytes} (the capacity needs to be in the interval (0, INT64_MAX])`]);
    }
    await this.flush();
    const old = this.capacity;
    this.capacity = capacityBytes;
    this.setShares();
    let released = 0;
    while (this.usedTotal() > this.capacity) {
      const entry = this.victim(null, 0);
      if (!entry) break;
      released += entry.size;
      await this.evict(entry);
    }
    return `finish reset_capacity, path=${this.root}, old_capacity=${old}, new_capacity=${capacityBytes}, space_released=${released}`;
  }

  /** Every cached block (information_schema.file_cache_info), each queue least recently used first. */
  listBlocks(): CachedBlockInfo[] {
    const rows: CachedBlockInfo[] = [];
    for (const type of EVICTION_ORDER) for (const entry of this.queues[type].values()) rows.push({ hash: entry.hash, offset: entry.offset, size: entry.size, type, cachePath: this.root });
    return rows;
  }

  /** The ids of a queue's blocks, least recently used first (tests). */
  queueOrder(type: FileCacheType): string[] {
    return [...this.queues[type].keys()];
  }

  /** Write each queue's LRU order (atomically) when it changed since the last dump. */
  dumpLru(): Promise<void> {
    this.dumping = this.dumping.then(async () => {
      if (!this.lruChanged) return;
      this.lruChanged = false;
      try {
        for (const type of EVICTION_ORDER) {
          const lines = [DUMP_MAGIC];
          for (const entry of this.queues[type].values()) lines.push(`${entry.hash} ${entry.offset}`);
          lines.push(`end ${lines.length - 1}`, '');
          const file = this.dumpFile(type);
          await fsp.writeFile(`${file}.tmp`, lines.join('\n'), { mode: PRIVATE_FILE_MODE });
          await fsp.rename(`${file}.tmp`, file);
        }
      } catch {
        // A dump that cannot be written only costs the order on restart (mtime order then).
        this.lruChanged = true;
      }
    });
    return this.dumping;
  }

  /** Wait for the puts still running. */
  async flush(): Promise<void> {
    while (this.pendingWrites.size > 0) await Promise.all([...this.pendingWrites]);
  }

  stats(): BlockStoreStats {
    const queues = emptyRecord<FileCacheQueueStats>(() => ({ bytes: 0, elements: 0, shareBytes: 0, evictedBytes: 0 }));
    for (const type of EVICTION_ORDER) queues[type] = { bytes: this.used[type], elements: this.queues[type].size, shareBytes: this.shares[type], evictedBytes: this.evictedBytes[type] };
    return {
      capacityBytes: this.capacity,
      usedBytes: this.usedTotal(),
      indexBytes: this.used.index,
      normalBytes: this.used.normal,
      blocks: this.byId.size,
      bytesWritten: this.bytesWritten,
      evictions: this.evictions,
      evictionsInAdvance: this.evictionsInAdvance,
      queues,
    };
  }

  /** Stop without dumping the LRU order, as a killed process would (tests of the restart path). */
  abandon(): void {
    this.closed = true;
    if (this.dumpTimer) clearInterval(this.dumpTimer);
    this.fds.closeAll();
  }

  /** Finish the running puts, dump the LRU order and close the block files. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.evictionSettled();
    if (this.dumpTimer) clearInterval(this.dumpTimer);
    await this.dumpLru();
    this.fds.closeAll();
  }
}
