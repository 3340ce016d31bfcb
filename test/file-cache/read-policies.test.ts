/**
 * What a read asks of the block cache: compaction's reads (withReadKind 'disposable') fill the disposable
 * queue; the per-query session settings — disable_file_cache (skip the cache, NumSkipCacheIOTotal),
 * file_cache_query_limit_bytes (remote-only on misses past the threshold, footers/index not counted) and
 * file_cache_query_limit_percent (the query's own oldest blocks go first) — over a remote-shaped store
 * whose requests are counted; and information_schema.file_cache_info's rows over the blocks held.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { fileCacheQueryPolicy, QueryProfile } from '../../src/common/profile';
import { BlockFileCache } from '../../src/io/block-file-cache';
import { cacheKeyHash } from '../../src/io/block-store';
import { createFileCache } from '../../src/io/create-file-cache';
import { withReadKind } from '../../src/io/file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import { FILE_CACHE_TABLES } from '../../src/fe/information-schema/file-cache-tables';
import type { SchemaFacts } from '../../src/fe/information-schema/schema-facts';

const BLOCK = 4096;

function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `galene-fcp-${name}-`));
}

async function openCache(blocks: number): Promise<{ remote: RemoteLikeObjectStore; cache: BlockFileCache; cacheDir: string }> {
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(tempDir('store')));
  const cacheDir = tempDir('cache');
  const cache = (await createFileCache(remote, { paths: [{ path: cacheDir, totalSize: blocks * BLOCK, ttlPercent: 0, indexPercent: 10, normalPercent: 80, disposablePercent: 10 }], blockSize: BLOCK, evictInAdvance: null })) as BlockFileCache;
  return { remote, cache, cacheDir };
}

const profileWith = (skip: boolean, limitBytes: number, limitPercent: number): QueryProfile => {
  const profile = new QueryProfile('q', '', 'u', 'd');
  profile.fileCache = fileCacheQueryPolicy(skip, limitBytes, limitPercent);
  return profile;
};

const typesOf = (cache: BlockFileCache): string[] => cache.cachedBlocks().map((block) => `${block.offset / BLOCK}:${block.type}`).sort();

test('compaction reads fill the disposable queue, whatever kind the segment reader asks for', async () => {
  const { remote, cache } = await openCache(64);
  const data = Buffer.alloc(4 * BLOCK, 9);
  await remote.put('data/3/1_0.dat', data);
  const profile = new QueryProfile('compaction', '', 'c', 'd');
  const file = withReadKind(await cache.open('data/3/1_0.dat', profile, data.length), 'disposable');
  await file.read(0, 2 * BLOCK, profile);
  await file.read(3 * BLOCK, BLOCK, profile, 'index');
  await cache.flush();
  assert.deepEqual(typesOf(cache), ['0:disposable', '1:disposable', '3:disposable']);
  assert.equal(cache.stats().queues?.disposable.elements, 3);
  // A query's reads of the same file keep their own kinds.
  const query = new QueryProfile('q', '', 'u', 'd');
  await (await cache.open('data/3/1_0.dat', query, data.length)).read(2 * BLOCK, BLOCK, query, 'index');
  await cache.flush();
  assert.ok(typesOf(cache).includes('2:index'));
  await cache.close();
  remote.close();
});

test('disable_file_cache: every read goes to the store and counts NumSkipCacheIOTotal; nothing is filled', async () => {
  const { remote, cache } = await openCache(64);
  const data = Buffer.alloc(3 * BLOCK, 1);
  await remote.put('k', data);
  const warm = new QueryProfile('q', '', 'u', 'd');
  await (await cache.open('k', warm, data.length)).read(0, BLOCK, warm);
  await cache.flush();
  remote.resetCounters();
  const skip = profileWith(true, -1, -1);
  const file = await cache.open('k', skip, data.length);
  assert.deepEqual(await file.read(0, 3 * BLOCK, skip), data);
  await cache.flush();
  assert.equal(remote.getRequests, 1, 'one ranged read, even for the cached block');
  assert.equal(skip.get('NumSkipCacheIOTotal'), 1);
  assert.equal(skip.get('BytesScannedFromRemote'), 3 * BLOCK);
  assert.equal(skip.get('BytesWriteIntoCache'), 0);
  assert.equal(cache.stats().blocks, 1, 'nothing new was cached');
  await cache.close();
  remote.close();
});

test('file_cache_query_limit_bytes: blocks admitted up to the threshold, then remote-only on misses; index blocks not counted', async () => {
  const { remote, cache } = await openCache(64);
  const data = Buffer.alloc(8 * BLOCK, 2);
  await remote.put('k', data);
  const limited = profileWith(false, 2 * BLOCK, -1);
  const file = await cache.open('k', limited, data.length);
  for (let blockIdx = 0; blockIdx < 5; blockIdx++) {
    await file.read(blockIdx * BLOCK, BLOCK, limited);
    await cache.flush();
  }
  await file.read(7 * BLOCK, BLOCK, limited, 'index');
  await cache.flush();
  assert.deepEqual(typesOf(cache), ['0:normal', '1:normal', '7:index']);
  assert.equal(limited.get('RemoteOnlyOnMissTriggered'), 1);
  assert.equal(limited.get('NumSkipCacheIOTotal'), 3);
  assert.equal(limited.get('BytesWriteIntoCache'), 3 * BLOCK);
  // Cached blocks are still read locally in remote-only mode.
  remote.resetCounters();
  await file.read(0, 2 * BLOCK, limited);
  assert.equal(remote.getRequests, 0);
  // 0: no fills from the start.
  const none = profileWith(false, 0, -1);
  await (await cache.open('k', none, data.length)).read(5 * BLOCK, BLOCK, none);
  await cache.flush();
  assert.equal(cache.stats().blocks, 3);
  assert.equal(none.get('NumSkipCacheIOTotal'), 1);
  await cache.close();
  remote.close();
});

test("file_cache_query_limit_percent: a query's own oldest blocks are evicted first, others' stay", async () => {
  const { remote, cache } = await openCache(20);
  const data = Buffer.alloc(12 * BLOCK, 3);
  await remote.put('a', data);
  await remote.put('b', data);
  const other = new QueryProfile('q1', '', 'u', 'd');
  const otherFile = await cache.open('b', other, data.length);
  for (let blockIdx = 0; blockIdx < 4; blockIdx++) await otherFile.read(blockIdx * BLOCK, BLOCK, other);
  await cache.flush();
  // 20% of 20 blocks: the query may hold 4 of its own.
  const limited = profileWith(false, -1, 20);
  const file = await cache.open('a', limited, data.length);
  for (let blockIdx = 0; blockIdx < 10; blockIdx++) {
    await file.read(blockIdx * BLOCK, BLOCK, limited);
    await cache.flush();
  }
  const held = (key: string) => cache.cachedBlocks().filter((block) => block.hash === cacheKeyHash(key)).map((block) => block.offset / BLOCK).sort((x, y) => x - y);
  assert.deepEqual(held('a'), [6, 7, 8, 9]);
  assert.deepEqual(held('b'), [0, 1, 2, 3], "the other query's blocks stayed");
  await cache.close();
  remote.close();
});

test('information_schema.file_cache_info: one row per cached block, TABLET_ID from the catalog', async () => {
  const { remote, cache, cacheDir } = await openCache(64);
  await remote.put('data/42/9_0.dat', Buffer.alloc(2 * BLOCK, 4));
  await remote.put('orphan', Buffer.alloc(BLOCK, 5));
  const profile = new QueryProfile('q', '', 'u', 'd');
  await (await cache.open('data/42/9_0.dat', profile)).read(0, 2 * BLOCK, profile, 'index');
  await (await cache.open('orphan', profile)).read(0, 100, profile);
  await cache.flush();
  const catalog = {
    listDatabases: () => [{ name: 'db' }],
    listTables: () => [{ rowsets: [{ tabletId: 42, segments: [{ key: 'data/42/9_0.dat', numRows: 1, size: 2 * BLOCK }] }] }],
  };
  const facts = { catalog, server: { backend: { fileCache: cache } } } as unknown as SchemaFacts;
  const table = FILE_CACHE_TABLES.file_cache_info;
  assert.deepEqual(table.columns.map(([name]) => name), ['HASH', 'OFFSET', 'TABLET_ID', 'SIZE', 'TYPE', 'REMOTE_PATH', 'CACHE_PATH', 'BE_ID']);
  const rows = table.rows(facts).map((row) => row.slice(0, 7)).sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1]));
  const segmentHash = cacheKeyHash('data/42/9_0.dat');
  const expected = [
    [segmentHash, 0n, 42n, BigInt(BLOCK), 'index', '', path.resolve(cacheDir)],
    [segmentHash, BigInt(BLOCK), 42n, BigInt(BLOCK), 'index', '', path.resolve(cacheDir)],
    [cacheKeyHash('orphan'), 0n, 0n, BigInt(BLOCK), 'normal', '', path.resolve(cacheDir)],
  ].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1]));
  assert.deepEqual(rows, expected);
  await cache.close();
  remote.close();
});

test('single flight: 16 concurrent cold reads of one block, through two handles, make one request', async () => {
  const { remote, cache } = await openCache(64);
  remote.latencyMs = 20;
  const data = Buffer.alloc(2 * BLOCK, 6);
  await remote.put('hot', data);
  const profile = new QueryProfile('q', '', 'u', 'd');
  const handles = [await cache.open('hot', profile, data.length), await cache.open('hot', profile, data.length)];
  remote.resetCounters();
  const reads = await Promise.all(Array.from({ length: 16 }, (_v, readIdx) => handles[readIdx % 2].read(readIdx * 100, 50, profile)));
  for (const [readIdx, read] of reads.entries()) assert.deepEqual(read, data.subarray(readIdx * 100, readIdx * 100 + 50));
  assert.equal(remote.getRequests, 1);
  assert.equal(profile.get('NumRemoteIOTotal'), 1);
  assert.equal(profile.get('FileCacheMisses'), 16, 'every read of the cold block counts a miss');
  await cache.close();
  remote.close();
});
