/**
 * The cache seam: a BlockStore keeps blocks and knows nothing of sources; a CachedReader over it sends
 * misses (and only misses) to its RangeSource, back-fills the store, and sees eviction as a miss again.
 * The source here is a counting in-memory RangeSource, so no object store is involved.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { QueryProfile, type ProfileSink } from '../../src/common/profile';
import { blockId, BlockStore, cacheKeyHash } from '../../src/io/block-store';
import { CachedReader } from '../../src/io/cached-reader';
import type { RangeSource } from '../../src/io/range-source';

const BLOCK = 4096;

function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `galene-${name}-`));
}

function pattern(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  for (let byteIdx = 0; byteIdx < size; byteIdx++) out[byteIdx] = (byteIdx * 13 + seed) & 0xff;
  return out;
}

/** An in-memory RangeSource that records every request. */
class MemorySource implements RangeSource {
  readonly name = 'memory';
  readonly objects = new Map<string, Buffer>();
  readonly reads: [string, number, number][] = [];
  sizes = 0;

  async size(key: string, profile: ProfileSink): Promise<number | null> {
    this.sizes++;
    profile.add('MemorySourceRequests', 1);
    return this.objects.get(key)?.length ?? null;
  }

  async read(key: string, offset: number, length: number, profile: ProfileSink): Promise<Buffer> {
    this.reads.push([key, offset, length]);
    profile.add('MemorySourceRequests', 1);
    const data = this.objects.get(key);
    if (data === undefined) throw new Error(`no object ${key}`);
    return Buffer.from(data.subarray(offset, offset + length));
  }
}

const profile = (): QueryProfile => new QueryProfile('q', '', 'u', 'd');

test('block store: put, lookup, read back, remove; no source involved', async () => {
  const store = await BlockStore.open({ path: tempDir('blocks'), capacityBytes: 16 * BLOCK, blockSize: BLOCK });
  const hash = cacheKeyHash('k');
  const data = pattern(BLOCK, 1);
  assert.equal(store.lookup(blockId(hash, 0)), undefined);
  assert.equal(await store.put(hash, 0, 'normal', data), true);
  assert.equal(await store.put(hash, 0, 'normal', data), false, 'a cached block is not written twice');
  assert.equal(await store.put(hash, BLOCK, 'index', data.subarray(0, 100)), true);
  const entry = store.lookup(blockId(hash, 0))!;
  const out = Buffer.alloc(50);
  assert.equal(await store.readInto(entry, 10, 50, out, 0), true);
  assert.deepEqual(out, data.subarray(10, 60));
  const { queues, ...totals } = store.stats();
  assert.deepEqual(totals, { capacityBytes: 16 * BLOCK, usedBytes: BLOCK + 100, indexBytes: 100, normalBytes: BLOCK, blocks: 2, bytesWritten: BLOCK + 100, evictions: 0, evictionsInAdvance: 0 });
  assert.deepEqual([queues.normal.bytes, queues.normal.elements, queues.index.bytes, queues.index.elements, queues.ttl.elements, queues.disposable.elements], [BLOCK, 1, 100, 1, 0, 0]);
  // Too big for the capacity: refused, nothing evicted.
  assert.equal(await store.put(cacheKeyHash('big'), 0, 'normal', Buffer.alloc(17 * BLOCK)), false);
  await store.removeObject(hash);
  assert.equal(store.stats().blocks, 0);
  // A block whose file vanished reads as false and is forgotten.
  await store.put(hash, 0, 'normal', data);
  const again = store.lookup(blockId(hash, 0))!;
  fs.rmSync(again.file);
  assert.equal(await store.readInto(again, 0, 10, out, 0), false);
  assert.equal(store.lookup(blockId(hash, 0)), undefined);
  await store.close();
});

test('cached reader: a miss goes to the range source, a hit does not', async () => {
  const source = new MemorySource();
  const data = pattern(5 * BLOCK + 10, 2);
  source.objects.set('data/1/a.dat', data);
  const blocks = await BlockStore.open({ path: tempDir('reader'), capacityBytes: 64 * BLOCK, blockSize: BLOCK });
  const reader = new CachedReader(blocks, source);
  const cold = profile();
  const file = await reader.open('data/1/a.dat', cold);
  assert.equal(file.size, data.length);
  assert.equal(source.sizes, 1, 'no known size: one size request');
  // Blocks 1..2, one source read of exactly those blocks.
  assert.deepEqual(await file.read(BLOCK + 5, BLOCK + 10, cold), data.subarray(BLOCK + 5, 2 * BLOCK + 15));
  assert.deepEqual(source.reads, [['data/1/a.dat', BLOCK, 2 * BLOCK]]);
  assert.equal(cold.get('FileCacheMisses'), 2);
  assert.equal(cold.get('NumRemoteIOTotal'), 1);
  assert.equal(cold.get('BytesScannedFromRemote'), 2 * BLOCK);
  assert.equal(cold.get('MemorySourceRequests'), 2, 'the source adds its own counters');
  await blocks.flush();
  assert.equal(cold.get('BytesWriteIntoCache'), 2 * BLOCK);
  // The same blocks again: served by the block store alone.
  source.reads.length = 0;
  const warm = profile();
  assert.deepEqual(await file.read(BLOCK, 2 * BLOCK, warm), data.subarray(BLOCK, 3 * BLOCK));
  assert.deepEqual(source.reads, []);
  assert.equal(warm.get('FileCacheHits'), 2);
  assert.equal(warm.get('NumLocalIOTotal'), 2);
  assert.equal(warm.get('BytesScannedFromCache'), 2 * BLOCK);
  assert.equal(warm.get('FileCacheMisses'), 0);
  // Blocks 0..5: 1 and 2 hit; 0 and 3..5 are two source reads (the last block is short).
  assert.deepEqual(await file.read(0, data.length, warm), data);
  assert.deepEqual(source.reads, [
    ['data/1/a.dat', 0, BLOCK],
    ['data/1/a.dat', 3 * BLOCK, 2 * BLOCK + 10],
  ]);
  // A known size needs no size request; a missing object is an IO_ERROR naming it.
  await reader.open('data/1/a.dat', warm, data.length);
  assert.equal(source.sizes, 1);
  await assert.rejects(reader.open('data/1/none.dat', warm), /object not found: data\/1\/none\.dat/);
  assert.deepEqual(reader.stats(), { hits: 2 + 2, misses: 2 + 4, remoteRequests: 1 + 1 + 2 + 1, remoteBytes: 2 * BLOCK + BLOCK + 2 * BLOCK + 10 });
  await blocks.close();
});

test('cached reader: an evicted block is a miss again; index blocks outlive a data scan', async () => {
  const source = new MemorySource();
  const data = pattern(24 * BLOCK, 3);
  source.objects.set('k', data);
  // 8 blocks of capacity, index share 25% = 2 blocks.
  const blocks = await BlockStore.open({ path: tempDir('evict'), capacityBytes: 8 * BLOCK, blockSize: BLOCK, indexPercent: 25 });
  const reader = new CachedReader(blocks, source);
  const file = await reader.open('k', profile(), data.length);
  await file.read(22 * BLOCK, 2 * BLOCK, profile(), 'index');
  await blocks.flush();
  for (let blockIdx = 0; blockIdx < 20; blockIdx++) {
    await file.read(blockIdx * BLOCK, BLOCK, profile());
    await blocks.flush();
  }
  const stats = blocks.stats();
  assert.equal(stats.usedBytes, 8 * BLOCK);
  assert.equal(stats.indexBytes, 2 * BLOCK);
  assert.equal(stats.evictions, 14);
  source.reads.length = 0;
  await file.read(22 * BLOCK, 2 * BLOCK, profile(), 'index');
  assert.deepEqual(source.reads, [], 'index blocks still cached');
  await file.read(19 * BLOCK, BLOCK, profile());
  assert.deepEqual(source.reads, [], 'the newest data block is cached');
  const evicted = profile();
  assert.deepEqual(await file.read(0, BLOCK, evicted), data.subarray(0, BLOCK));
  assert.deepEqual(source.reads, [['k', 0, BLOCK]], 'the oldest data block was evicted and fetched again');
  assert.equal(evicted.get('FileCacheMisses'), 1);
  await blocks.close();
});

test('cached reader: concurrent misses share one source read; a failed read is an IO_ERROR and is not cached', async () => {
  const source = new MemorySource();
  const data = pattern(2 * BLOCK, 4);
  source.objects.set('k', data);
  const blocks = await BlockStore.open({ path: tempDir('share'), capacityBytes: 8 * BLOCK, blockSize: BLOCK });
  const reader = new CachedReader(blocks, source);
  const file = await reader.open('k', profile(), data.length);
  const reads = await Promise.all([file.read(0, 100, profile()), file.read(50, 100, profile()), file.read(1000, 10, profile())]);
  assert.deepEqual(reads[2], data.subarray(1000, 1010));
  assert.equal(source.reads.length, 1);
  const gone = await reader.open('gone', profile(), BLOCK);
  await assert.rejects(gone.read(0, 10, profile()), (err: Error & { code?: string }) => err.code === 'IO_ERROR' && /no object gone/.test(err.message));
  await blocks.flush();
  assert.equal(blocks.lookup(blockId(cacheKeyHash('gone'), 0)), undefined);
  await blocks.close();
});
