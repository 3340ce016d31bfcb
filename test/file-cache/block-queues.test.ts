/**
 * The block store's four queues against a brute-force model: random puts (of every queue, TTL blocks
 * with expiries around a test clock), reads (LRU touches) and clock steps; after every step the cached
 * blocks and each queue's LRU order equal the model's. The model keeps a flat list with a use counter and
 * picks the victim by scanning it, so it shares no data structure with the store.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { mulberry32 } from '../../src/common/prng';
import { blockId, BlockStore, cacheKeyHash, EVICTION_ORDER } from '../../src/io/block-store';
import type { FileCacheType } from '../../src/io/file-cache';

const BLOCK = 4096;

function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `galene-fc-${name}-`));
}

interface ModelBlock {
  readonly id: string;
  readonly type: FileCacheType;
  readonly size: number;
  readonly expiration: number;
  lastUse: number;
}

/** Doris's eviction rules, by brute force. */
class Model {
  blocks: ModelBlock[] = [];
  private clock = 0;

  constructor(
    private readonly capacity: number,
    private readonly shares: Record<FileCacheType, number>,
    private readonly nowSeconds: () => number,
  ) {}

  private used(type: FileCacheType | null): number {
    return this.blocks.filter((block) => type === null || block.type === type).reduce((sum, block) => sum + block.size, 0);
  }

  private oldest(type: FileCacheType, own: boolean): ModelBlock | undefined {
    const candidates = this.blocks.filter((block) => block.type === type && (type !== 'ttl' || own || block.expiration <= this.nowSeconds()));
    candidates.sort((a, b) => a.lastUse - b.lastUse);
    return candidates[0];
  }

  private victim(type: FileCacheType, size: number): ModelBlock | undefined {
    if (this.used(type) + size > this.shares[type]) {
      const own = this.oldest(type, true);
      if (own) return own;
    }
    for (const queue of ['disposable', 'normal', 'index', 'ttl'] as const) {
      if (queue !== type && this.used(queue) > this.shares[queue]) {
        const over = this.oldest(queue, false);
        if (over) return over;
      }
    }
    for (const queue of ['disposable', 'normal', 'index', 'ttl'] as const) {
      const any = this.oldest(queue, false);
      if (any) return any;
    }
    return undefined;
  }

  put(id: string, type: FileCacheType, size: number, expiration: number): boolean {
    if (this.blocks.some((block) => block.id === id) || size > this.capacity) return false;
    const stored: FileCacheType = type === 'ttl' && expiration <= this.nowSeconds() ? 'normal' : type;
    while (this.used(null) + size > this.capacity) {
      const victim = this.victim(stored, size);
      if (!victim) return false;
      this.blocks = this.blocks.filter((block) => block !== victim);
    }
    this.blocks.push({ id, type: stored, size, expiration: stored === 'ttl' ? expiration : 0, lastUse: ++this.clock });
    return true;
  }

  touch(id: string): void {
    const block = this.blocks.find((candidate) => candidate.id === id);
    if (block) block.lastUse = ++this.clock;
  }

  order(type: FileCacheType): string[] {
    return this.blocks.filter((block) => block.type === type).sort((a, b) => a.lastUse - b.lastUse).map((block) => block.id);
  }
}

for (const seed of [1, 2, 3, 4]) {
  test(`block queues follow the model: random puts, reads and TTL expiry (seed ${seed})`, async () => {
    const random = mulberry32(seed);
    let nowMs = 1_000_000_000_000;
    const capacity = 12 * BLOCK;
    // Random shares summing to 100.
    const cuts = [random(), random(), random()].map((value) => Math.floor(value * 100)).sort((a, b) => a - b);
    const percents: Record<FileCacheType, number> = { ttl: cuts[0], index: cuts[1] - cuts[0], normal: cuts[2] - cuts[1], disposable: 100 - cuts[2] };
    const store = await BlockStore.open({ path: tempDir(`model${seed}`), capacityBytes: capacity, blockSize: BLOCK, ttlPercent: percents.ttl, indexPercent: percents.index, normalPercent: percents.normal, disposablePercent: percents.disposable, lruDumpIntervalMs: 0, now: () => nowMs });
    const shares = { ttl: (capacity * percents.ttl) / 100, index: (capacity * percents.index) / 100, normal: (capacity * percents.normal) / 100, disposable: (capacity * percents.disposable) / 100 };
    const model = new Model(capacity, shares, () => nowMs / 1000);
    const ids: string[] = [];
    const hash = cacheKeyHash(`object-${seed}`);
    const scratch = Buffer.alloc(1);
    for (let step = 0; step < 250; step++) {
      const op = random();
      if (op < 0.6) {
        const type = (['normal', 'index', 'ttl', 'disposable'] as const)[Math.floor(random() * 4)];
        const offset = Math.floor(random() * 40) * BLOCK;
        const size = 1 + Math.floor(random() * BLOCK);
        const expiration = type === 'ttl' ? Math.floor(nowMs / 1000) + Math.floor(random() * 20) - 5 : 0;
        const id = blockId(hash, offset);
        const expected = model.put(id, type, size, expiration);
        assert.equal(await store.put(hash, offset, type, Buffer.alloc(size, step & 0xff), expiration), expected, `step ${step}: put ${type} ${size} bytes`);
        ids.push(id);
      } else if (op < 0.9 && ids.length > 0) {
        const id = ids[Math.floor(random() * ids.length)];
        const entry = store.lookup(id);
        model.touch(id);
        if (entry) assert.equal(await store.readInto(entry, 0, 1, scratch, 0), true);
      } else {
        nowMs += Math.floor(random() * 8000);
      }
      for (const type of EVICTION_ORDER) assert.deepEqual(store.queueOrder(type), model.order(type), `step ${step}: ${type} queue`);
      assert.ok(store.stats().usedBytes <= capacity);
    }
    assert.ok(store.stats().evictions > 0, 'the sequence filled the cache');
    await store.close();
  });
}

test('eviction order: a full cache evicts disposable, then normal, then index; unexpired TTL blocks stay', async () => {
  let nowMs = 5_000_000;
  // Capacity 10 blocks; shares: ttl 20% (2), index 20% (2), normal 40% (4), disposable 20% (2).
  const store = await BlockStore.open({ path: tempDir('order'), capacityBytes: 10 * BLOCK, blockSize: BLOCK, ttlPercent: 20, indexPercent: 20, normalPercent: 40, disposablePercent: 20, lruDumpIntervalMs: 0, now: () => nowMs });
  const hash = cacheKeyHash('k');
  const block = Buffer.alloc(BLOCK, 7);
  let offset = 0;
  const put = (type: FileCacheType, expiration = 0) => store.put(hash, (offset++) * BLOCK, type, block, expiration);
  // TTL borrows free space: 4 TTL blocks (over its share of 2), expiring in 100 s.
  for (let idx = 0; idx < 4; idx++) assert.equal(await put('ttl', nowMs / 1000 + 100), true);
  for (let idx = 0; idx < 2; idx++) assert.equal(await put('index'), true);
  for (let idx = 0; idx < 2; idx++) assert.equal(await put('disposable'), true);
  for (let idx = 0; idx < 2; idx++) assert.equal(await put('normal'), true);
  assert.equal(store.stats().usedBytes, 10 * BLOCK);
  // A normal put within its share: TTL is over its share but unexpired, so the first queue over its share
  // that can give is none; then any queue in order: disposable goes first.
  assert.equal(await put('normal'), true);
  assert.equal(store.stats().queues.disposable.elements, 1);
  assert.equal(await put('normal'), true);
  assert.equal(store.stats().queues.disposable.elements, 0);
  // Normal is now at its share (4): a further normal put evicts its own LRU.
  const normalBefore = store.queueOrder('normal');
  assert.equal(await put('normal'), true);
  assert.deepEqual(store.queueOrder('normal').slice(0, 3), normalBefore.slice(1));
  assert.equal(store.stats().queues.ttl.elements, 4, 'unexpired TTL blocks are never evicted for other queues');
  // Once expired, TTL blocks over the TTL share give way: a disposable put (within its share) takes one.
  nowMs += 200_000;
  assert.equal(await put('disposable'), true);
  assert.equal(store.stats().queues.ttl.elements, 3, 'an expired TTL block over the TTL share gave way');
  // A TTL put over the TTL share evicts TTL's own LRU even unexpired (Doris's TTL self-LRU).
  const ttlBefore = store.queueOrder('ttl');
  assert.equal(await put('ttl', nowMs / 1000 + 100), true);
  assert.equal(store.queueOrder('ttl').includes(ttlBefore[0]), false);
  // A TTL block whose expiry has passed is stored as normal.
  const normalCount = store.stats().queues.normal.elements;
  assert.equal(await put('ttl', nowMs / 1000 - 1), true);
  assert.equal(store.stats().queues.normal.elements, normalCount);
  assert.ok(store.stats().usedBytes <= 10 * BLOCK);
  await store.close();
});

test('on disk as Doris: <3 hex>/<hash>_<expiration>/<offset><suffix>; the LRU order survives a restart', async () => {
  const dir = tempDir('persist');
  const nowMs = 1_700_000_000_000;
  const options = { path: dir, capacityBytes: 64 * BLOCK, blockSize: BLOCK, ttlPercent: 50, indexPercent: 5, normalPercent: 40, disposablePercent: 5, lruDumpIntervalMs: 0, now: () => nowMs };
  const store = await BlockStore.open(options);
  const hash = cacheKeyHash('data/7/1_0.dat');
  const data = Buffer.alloc(BLOCK, 1);
  for (let idx = 0; idx < 6; idx++) assert.equal(await store.put(hash, idx * BLOCK, 'normal', data), true);
  assert.equal(await store.put(hash, 6 * BLOCK, 'index', data), true);
  assert.equal(await store.put(hash, 7 * BLOCK, 'disposable', data), true);
  const expiry = nowMs / 1000 + 3600;
  assert.equal(await store.put(hash, 8 * BLOCK, 'ttl', data, expiry), true);
  const prefix = path.join(dir, hash.slice(0, 3));
  assert.deepEqual(fs.readdirSync(prefix).sort(), [`${hash}_0`, `${hash}_${expiry}`]);
  assert.deepEqual(fs.readdirSync(path.join(prefix, `${hash}_0`)).sort(), ['0', '12288', '16384', '20480', '24576_idx', '28672_disposable', '4096', '8192'].sort());
  assert.deepEqual(fs.readdirSync(path.join(prefix, `${hash}_${expiry}`)), ['32768_ttl']);
  // Touch blocks out of insertion order: 3, 0, 5.
  const scratch = Buffer.alloc(1);
  for (const idx of [3, 0, 5]) assert.equal(await store.readInto(store.lookup(blockId(hash, idx * BLOCK))!, 0, 1, scratch, 0), true);
  const order = store.queueOrder('normal');
  assert.deepEqual(order.map((id) => Number(id.split('/')[1]) / BLOCK), [1, 2, 4, 3, 0, 5]);
  await store.close();
  assert.ok(fs.existsSync(path.join(dir, 'lru_dump_normal.tail')));

  // Reopened: every queue in its dumped order, even though the block files' mtimes say otherwise.
  for (let idx = 0; idx < 6; idx++) {
    const when = new Date(nowMs - idx * 60_000);
    fs.utimesSync(path.join(prefix, `${hash}_0`, String(idx * BLOCK)), when, when);
  }
  const reopened = await BlockStore.open(options);
  assert.deepEqual(reopened.queueOrder('normal'), order);
  assert.deepEqual(reopened.stats().queues.ttl.elements, 1);
  assert.equal(reopened.lookup(blockId(hash, 8 * BLOCK))?.expiration, expiry);
  // A block written after the last dump (the process died before dumping again) comes after the dumped ones.
  assert.equal(await reopened.put(hash, 9 * BLOCK, 'normal', data), true);
  await reopened.flush();
  reopened.abandon();
  const afterCrash = await BlockStore.open(options);
  assert.deepEqual(afterCrash.queueOrder('normal'), [...order, blockId(hash, 9 * BLOCK)]);
  await afterCrash.close();

  // A corrupt dump falls back to mtime order: block 5 oldest ... block 0 newest, then 9 (written now).
  fs.writeFileSync(path.join(dir, 'lru_dump_normal.tail'), 'galene-file-cache-lru 1\nnot a line\n');
  const when9 = new Date(nowMs + 60_000);
  fs.utimesSync(path.join(prefix, `${hash}_0`, String(9 * BLOCK)), when9, when9);
  const fallback = await BlockStore.open(options);
  assert.deepEqual(fallback.queueOrder('normal').map((id) => Number(id.split('/')[1]) / BLOCK), [5, 4, 3, 2, 1, 0, 9]);
  await fallback.close();

  // clear_file_cache: wiped on open.
  const wiped = await BlockStore.open({ ...options, clearOnOpen: true });
  assert.equal(wiped.stats().blocks, 0);
  assert.deepEqual(fs.readdirSync(dir).filter((name) => /^[0-9a-f]{3}$/.test(name)), []);
  await wiped.close();
});

test('watermarks: at 88% of the capacity a background pass evicts down to 85%, so puts do not wait', async () => {
  const store = await BlockStore.open({ path: tempDir('watermark'), capacityBytes: 20 * BLOCK, blockSize: BLOCK, indexPercent: 5, normalPercent: 95, lruDumpIntervalMs: 0, evictInAdvance: { enterPercent: 88, exitPercent: 85 } });
  const hash = cacheKeyHash('k');
  const data = Buffer.alloc(BLOCK, 2);
  for (let idx = 0; idx < 17; idx++) assert.equal(await store.put(hash, idx * BLOCK, 'normal', data), true);
  await store.evictionSettled();
  assert.equal(store.stats().evictions, 0, '85% full: below the high watermark');
  // The 18th block reaches 90% >= 88%: the background pass takes the oldest block, back to 17 (85%).
  assert.equal(await store.put(hash, 17 * BLOCK, 'normal', data), true);
  await store.evictionSettled();
  assert.equal(store.stats().blocks, 17);
  assert.equal(store.stats().evictionsInAdvance, 1);
  assert.equal(store.lookup(blockId(hash, 0)), undefined, 'the least recently used block went');
  // Keep putting: every eviction is a background one, none waited inside a put.
  for (let idx = 18; idx < 60; idx++) {
    assert.equal(await store.put(hash, idx * BLOCK, 'normal', data), true);
    await store.evictionSettled();
  }
  const stats = store.stats();
  assert.ok(stats.usedBytes <= 18 * BLOCK);
  assert.equal(stats.evictions, stats.evictionsInAdvance);
  await store.close();
  // Bad watermarks are refused naming the setting.
  await assert.rejects(BlockStore.open({ path: tempDir('badwm'), capacityBytes: BLOCK * 4, blockSize: BLOCK, evictInAdvance: { enterPercent: 80, exitPercent: 90 } }), /file_cache_exit_need_evict_cache_in_advance_percent/);
  await assert.rejects(BlockStore.open({ path: tempDir('badshare'), capacityBytes: BLOCK * 4, blockSize: BLOCK, indexPercent: 50, normalPercent: 60 }), /file_cache_path.*sum must be 100/);
});

test('reset capacity: a shrink evicts at once by the eviction order; a grow keeps everything', async () => {
  const store = await BlockStore.open({ path: tempDir('reset'), capacityBytes: 16 * BLOCK, blockSize: BLOCK, ttlPercent: 25, indexPercent: 25, normalPercent: 25, disposablePercent: 25, lruDumpIntervalMs: 0 });
  const hash = cacheKeyHash('k');
  const data = Buffer.alloc(BLOCK, 3);
  let offset = 0;
  for (const type of ['index', 'index', 'normal', 'normal', 'normal', 'normal', 'disposable', 'disposable'] as const) assert.equal(await store.put(hash, (offset++) * BLOCK, type, data), true);
  const message = await store.resetCapacity(4 * BLOCK);
  assert.match(message, /finish reset_capacity, path=.*new_capacity=16384, space_released=16384/);
  assert.equal(store.capacityBytes, 4 * BLOCK);
  const queues = store.stats().queues;
  // Shares are now 1 block each: the space comes out of the queues over their share, lowest priority
  // first: disposable 2 -> 1, then normal 4 -> 1; index (2, over too) is not reached.
  assert.deepEqual([queues.disposable.elements, queues.normal.elements, queues.index.elements], [1, 1, 2]);
  assert.equal(store.stats().usedBytes, 4 * BLOCK);
  assert.match(await store.resetCapacity(32 * BLOCK), /space_released=0/);
  assert.equal(store.stats().blocks, 4);
  await assert.rejects(store.resetCapacity(0), /capacity/);
  await store.close();
});
