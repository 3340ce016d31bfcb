/**
 * The FileCache served over a MessagePort: a FileReadClient's opens and reads return the cache's bytes,
 * their counters land in the profile the service names for the port (the late BytesWriteIntoCache
 * too), and errors come back as the GaleneError they were.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { GaleneError } from '../../src/common/errors';
import { NO_PROFILE, QueryProfile } from '../../src/common/profile';
import { createFileCache } from '../../src/io/create-file-cache';
import { FileReadClient, FileReadService } from '../../src/io/file-read-service';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';

const BLOCK = 4096;

test('file read service: a client reads through the one block cache, counted in the served profile', async () => {
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-frs-store-'))));
  const data = Buffer.from(Array.from({ length: 3 * BLOCK + 7 }, (_v, byteIdx) => (byteIdx * 31) & 0xff));
  await remote.put('data/1/s.dat', data);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-frs-cache-'));
  const cache = await createFileCache(remote, { paths: [{ path: cacheDir, totalSize: 1 << 20, indexPercent: 5, normalPercent: 95 }], blockSize: BLOCK });
  const service = new FileReadService(cache);
  const channel = new MessageChannel();
  let served = new QueryProfile('q1', '', 'u', 'd');
  const stop = service.serve(channel.port1, () => served);
  const client = new FileReadClient(channel.port2);
  try {
    const file = await client.open('data/1/s.dat', NO_PROFILE, data.length);
    assert.equal(file.size, data.length);
    // Blocks 0..2 in one GET, then block 3 in another (0..2 hit).
    assert.deepEqual(await file.read(BLOCK - 3, BLOCK + 6, NO_PROFILE), data.subarray(BLOCK - 3, 2 * BLOCK + 3));
    await cache.flush();
    assert.deepEqual(await file.read(0, data.length, NO_PROFILE, 'index'), data);
    await cache.flush();
    assert.equal(served.get('FileCacheMisses'), 4);
    assert.equal(served.get('FileCacheHits'), 3);
    assert.equal(served.get('ObjectStoreRequests'), 2);
    assert.equal(served.get('BytesWriteIntoCache'), data.length, 'background block writes are counted too');
    assert.equal(cache.stats().misses, 4, 'the reads went to the main FileCache');
    // Warm: every block hits, and no request reaches the store.
    served = new QueryProfile('q2', '', 'u', 'd');
    remote.resetCounters();
    assert.deepEqual(await file.read(0, data.length, NO_PROFILE), data);
    assert.equal(remote.requests, 0);
    assert.equal(served.get('FileCacheHits'), 4);
    assert.equal(served.get('BytesScannedFromCache'), data.length);
    // Errors keep their code and message.
    const missing = await client.open('data/1/none.dat', NO_PROFILE).then(
      () => null,
      (err: unknown) => err,
    );
    assert.ok(missing instanceof GaleneError, String(missing));
    assert.equal(missing.code, 'IO_ERROR');
    assert.match(missing.message, /object not found: data\/1\/none\.dat/);
    await assert.rejects(file.read(data.length - 1, 2, NO_PROFILE), /outside object/);
  } finally {
    stop();
    channel.port2.close();
    await cache.close();
    remote.close();
  }
});
