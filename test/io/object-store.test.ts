import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NO_PROFILE, QueryProfile } from '../../src/common/profile';
import { createFileCache, parseFileCachePath } from '../../src/io/create-file-cache';
import { LocalObjectStore, TEMP_MARKER } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';

function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `galene-${name}-`));
}

test('LocalObjectStore: put parts, ranged get, head, list, delete', async () => {
  const root = tempDir('store');
  const store = new LocalObjectStore(root);
  await store.put('data/10/r1_0.dat', [Buffer.from('hello '), Buffer.from('world')]);
  await store.put('data/10/r1_1.dat', Buffer.from('x'));
  await store.put('data/11/r2_0.dat', Buffer.from('yz'));
  await store.put('meta/a', Buffer.from('m'));
  assert.equal((await store.get('data/10/r1_0.dat')).toString(), 'hello world');
  assert.equal((await store.get('data/10/r1_0.dat', { offset: 6, length: 5 })).toString(), 'world');
  assert.deepEqual(await store.head('data/10/r1_0.dat'), { size: 11 });
  assert.equal(await store.head('data/10/none.dat'), null);
  assert.deepEqual(await store.list('data/1'), ['data/10/r1_0.dat', 'data/10/r1_1.dat', 'data/11/r2_0.dat']);
  assert.deepEqual(await store.list('data/10/'), ['data/10/r1_0.dat', 'data/10/r1_1.dat']);
  assert.deepEqual(await store.list('nothing/'), []);
  assert.equal(store.localPath('data/10/r1_1.dat'), path.join(root, 'data', '10', 'r1_1.dat'));
  await store.delete('data/10/r1_1.dat');
  await store.delete('data/10/r1_1.dat');
  assert.equal(await store.head('data/10/r1_1.dat'), null);
  await assert.rejects(store.get('data/10/r1_1.dat'), (err: Error) => /IO error: object not found: data\/10\/r1_1\.dat/.test(err.message));
  await assert.rejects(store.get('data/10/r1_0.dat', { offset: 8, length: 10 }), /outside object/);
  await assert.rejects(store.put('../escape', Buffer.from('x')), /invalid object key/);
  await assert.rejects(store.put('a//b', Buffer.from('x')), /invalid object key/);
  store.close();
});

test('LocalObjectStore: a crashed put leaves no visible object; temp files are never listed', async () => {
  const root = tempDir('store-tmp');
  const store = new LocalObjectStore(root);
  await store.put('data/1/a.dat', Buffer.from('a'));
  // Simulate a crash mid-put: a temporary file beside the target.
  fs.writeFileSync(path.join(root, 'data', '1', `b.dat${TEMP_MARKER}999-1`), 'half');
  assert.deepEqual(await store.list('data/'), ['data/1/a.dat']);
  assert.equal(await store.head('data/1/b.dat'), null);
  assert.equal(await store.removeTempFiles(), 1);
  assert.deepEqual(fs.readdirSync(path.join(root, 'data', '1')), ['a.dat']);
  // A put over an unwritable directory fails cleanly and leaves nothing behind.
  fs.writeFileSync(path.join(root, 'blocker'), 'file, not a dir');
  await assert.rejects(store.put('blocker/x.dat', Buffer.from('x')), /IO error: put blocker\/x\.dat/);
  store.close();
});

test('RemoteLikeObjectStore counts requests and bytes and adds latency', async () => {
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(tempDir('remote')), { latencyMs: 20 });
  assert.equal(remote.kind, 'remote');
  assert.equal(remote.localPath(), null);
  await remote.put('k/obj', Buffer.alloc(1000, 1));
  const start = performance.now();
  const part = await remote.get('k/obj', { offset: 100, length: 50 });
  assert.ok(performance.now() - start >= 15, 'latency applied');
  assert.equal(part.length, 50);
  assert.equal(remote.requests, 2);
  assert.equal(remote.getRequests, 1);
  assert.equal(remote.bytesRead, 50);
  assert.equal(remote.bytesWritten, 1000);
  remote.close();
});

test('in-place file cache reads local objects where they lie', async () => {
  const store = new LocalObjectStore(tempDir('inplace'));
  await store.put('data/1/seg.dat', Buffer.from('0123456789'));
  const cache = await createFileCache(store);
  assert.equal(cache.kind, 'in-place');
  const profile = new QueryProfile('q', '', 'root', 'db');
  const file = await cache.open('data/1/seg.dat', profile);
  assert.equal(file.size, 10);
  assert.equal((await file.read(3, 4, profile)).toString(), '3456');
  assert.equal(profile.get('NumLocalIOTotal'), 1);
  await assert.rejects(file.read(8, 5, profile), /outside object/);
  await assert.rejects(cache.open('data/1/missing.dat', NO_PROFILE), /object not found: data\/1\/missing\.dat/);
  await cache.close();
  store.close();
});

test('parseFileCachePath: Doris JSON and clear errors', () => {
  // Doris's default shares: TTL 50, normal 40, disposable 5, index 5.
  assert.deepEqual(parseFileCachePath('[{"path":"/p","total_size":1024}]'), [{ path: '/p', totalSize: 1024, ttlPercent: 50, normalPercent: 40, disposablePercent: 5, indexPercent: 5 }]);
  const shares = parseFileCachePath('[{"path":"/p","total_size":1024,"ttl_percent":0,"normal_percent":70,"disposable_percent":10,"index_percent":20}]')[0];
  assert.deepEqual([shares.ttlPercent, shares.normalPercent, shares.disposablePercent, shares.indexPercent], [0, 70, 10, 20]);
  // The four shares must sum to 100 (missing ones take the defaults).
  assert.throws(() => parseFileCachePath('[{"path":"/p","total_size":1024,"index_percent":20}]'), /file_cache_path.*is 115, must be 100/);
  assert.throws(() => parseFileCachePath('[{"path":"/p","normal_percent":"x"}]'), /file_cache_path.*"normal_percent" must be an integer 0\.\.100/);
  assert.throws(() => parseFileCachePath('{bad'), /file_cache_path.*not JSON/);
  assert.throws(() => parseFileCachePath('[]'), /non-empty JSON array/);
  assert.throws(() => parseFileCachePath('[{"total_size":1}]'), /"path"/);
  assert.throws(() => parseFileCachePath('[{"path":"/p","total_size":-5}]'), /total_size/);
});
