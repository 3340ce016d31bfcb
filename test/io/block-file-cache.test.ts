import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { QueryProfile } from '../../src/common/profile';
import { BlockFileCache } from '../../src/io/block-file-cache';
import { cacheKeyHash } from '../../src/io/block-store';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';

const BLOCK = 4096;

function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `galene-${name}-`));
}

function pattern(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  for (let byteIdx = 0; byteIdx < size; byteIdx++) out[byteIdx] = (byteIdx * 7 + seed) & 0xff;
  return out;
}

async function setup(capacity: number, indexPercent = 5): Promise<{ remote: RemoteLikeObjectStore; cacheDir: string; open: () => Promise<BlockFileCache> }> {
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(tempDir('blk-store')));
  const cacheDir = tempDir('blk-cache');
  const open = async (): Promise<BlockFileCache> =>
    (await createFileCache(remote, { paths: [{ path: cacheDir, totalSize: capacity, indexPercent, normalPercent: 100 - indexPercent }], blockSize: BLOCK })) as BlockFileCache;
  return { remote, cacheDir, open };
}

test('block cache: miss fills, hit makes no remote request, multi-block reads fetch only missing blocks', async () => {
  const { remote, cacheDir, open } = await setup(1024 * 1024);
  const data = pattern(10 * BLOCK + 100, 1);
  await remote.put('data/1/s.dat', data);
  const cache = await open();
  const profile = new QueryProfile('q1', '', 'root', 'db');
  const file = await cache.open('data/1/s.dat', profile, data.length);
  remote.resetCounters();
  // Block 2 only.
  assert.deepEqual(await file.read(2 * BLOCK + 10, 100, profile), data.subarray(2 * BLOCK + 10, 2 * BLOCK + 110));
  assert.equal(remote.getRequests, 1);
  assert.equal(remote.bytesRead, BLOCK);
  await cache.flush();
  // Blocks 1..4: 2 is cached; 1 and 3..4 are fetched as two ranged GETs.
  remote.resetCounters();
  assert.deepEqual(await file.read(BLOCK + 5, 3 * BLOCK + 10, profile), data.subarray(BLOCK + 5, 4 * BLOCK + 15));
  assert.equal(remote.getRequests, 2);
  assert.equal(remote.bytesRead, 3 * BLOCK);
  await cache.flush();
  remote.resetCounters();
  const warm = new QueryProfile('q2', '', 'root', 'db');
  assert.deepEqual(await file.read(BLOCK, 4 * BLOCK, warm), data.subarray(BLOCK, 5 * BLOCK));
  assert.equal(remote.requests, 0);
  assert.equal(warm.get('FileCacheHits'), 4);
  assert.equal(warm.get('NumRemoteIOTotal'), 0);
  assert.equal(warm.get('BytesScannedFromCache'), 4 * BLOCK);
  // Last, partial block.
  assert.deepEqual(await file.read(data.length - 50, 50, warm), data.subarray(data.length - 50));
  assert.equal(profile.get('FileCacheMisses'), 4);
  assert.ok(profile.get('BytesWriteIntoCache') >= 4 * BLOCK);
  // Layout (Doris): <path>/<3 hex>/<hash>_<expiration>/<offset>
  const hash = cacheKeyHash('data/1/s.dat');
  assert.ok(fs.existsSync(path.join(cacheDir, hash.slice(0, 3), `${hash}_0`, String(2 * BLOCK))));
  await assert.rejects(file.read(data.length - 10, 20, warm), /outside object/);
  await cache.close();
  remote.close();
});

test('block cache: survives a restart and keeps LRU order by mtime', async () => {
  const { remote, open } = await setup(1024 * 1024);
  const data = pattern(3 * BLOCK, 2);
  await remote.put('k', data);
  const first = await open();
  const file = await first.open('k', new QueryProfile('q', '', 'u', 'd'));
  await file.read(0, 3 * BLOCK, new QueryProfile('q', '', 'u', 'd'));
  await first.close();
  remote.resetCounters();
  const second = await open();
  assert.equal(second.stats().blocks, 3);
  const profile = new QueryProfile('q', '', 'u', 'd');
  const again = await second.open('k', profile, data.length);
  assert.deepEqual(await again.read(0, 3 * BLOCK, profile), data);
  assert.equal(remote.requests, 0);
  assert.equal(profile.get('FileCacheHits'), 3);
  await second.close();
  remote.close();
});

test('block cache: concurrent misses of one block make one remote request', async () => {
  const { remote, open } = await setup(1024 * 1024);
  remote.latencyMs = 30;
  const data = pattern(2 * BLOCK, 3);
  await remote.put('k', data);
  const cache = await open();
  const profile = new QueryProfile('q', '', 'u', 'd');
  const file = await cache.open('k', profile, data.length);
  remote.resetCounters();
  const reads = await Promise.all([file.read(0, 100, profile), file.read(50, 100, profile), file.read(1000, 10, profile)]);
  assert.deepEqual(reads[1], data.subarray(50, 150));
  assert.equal(remote.getRequests, 1);
  await cache.close();
  remote.close();
});

test('block cache: capacity eviction keeps index blocks over data blocks', async () => {
  // 20 blocks of capacity, index share 20% = 4 blocks.
  const { remote, open } = await setup(20 * BLOCK, 20);
  const data = pattern(40 * BLOCK, 4);
  await remote.put('k', data);
  const cache = await open();
  const profile = new QueryProfile('q', '', 'u', 'd');
  const file = await cache.open('k', profile, data.length);
  // Three index blocks (the tail), then a scan over 36 data blocks, one block at a time.
  await file.read(37 * BLOCK, 3 * BLOCK, profile, 'index');
  await cache.flush();
  for (let blockIdx = 0; blockIdx < 36; blockIdx++) {
    await file.read(blockIdx * BLOCK, BLOCK, profile, 'data');
    await cache.flush();
  }
  const stats = cache.stats();
  assert.ok(stats.usedBytes <= 20 * BLOCK, `used ${stats.usedBytes}`);
  assert.equal(stats.indexBytes, 3 * BLOCK);
  assert.ok(stats.evictions >= 16);
  remote.resetCounters();
  await file.read(37 * BLOCK, 3 * BLOCK, profile, 'index');
  assert.equal(remote.requests, 0, 'index blocks still cached');
  await file.read(0, BLOCK, profile, 'data');
  assert.equal(remote.requests, 1, 'oldest data block was evicted');
  // clear() empties everything.
  await cache.clear();
  assert.equal(cache.stats().blocks, 0);
  await cache.close();
  remote.close();
});

test('block cache: a block file deleted behind its back is fetched again', async () => {
  const { remote, cacheDir, open } = await setup(1024 * 1024);
  const data = pattern(BLOCK, 5);
  await remote.put('k', data);
  const cache = await open();
  const profile = new QueryProfile('q', '', 'u', 'd');
  const file = await cache.open('k', profile);
  await file.read(0, BLOCK, profile);
  await cache.flush();
  const hash = cacheKeyHash('k');
  fs.rmSync(path.join(cacheDir, hash.slice(0, 3), `${hash}_0`, '0'));
  remote.resetCounters();
  assert.deepEqual(await file.read(0, BLOCK, profile), data);
  assert.equal(remote.getRequests, 1);
  await assert.rejects(cache.open('missing', profile), /object not found: missing/);
  await cache.close();
  remote.close();
});
