/**
 * The S3 object store against a real S3-protocol server (s3rver in its own process) behind the
 * fault-and-latency proxy: the ObjectStore contract (put / ranged get / head / list / delete, multipart
 * uploads), retries of every transient fault the proxy injects, the per-request timeout against a
 * stalled server, errors that name the object, an aborted multipart upload leaving nothing, and the
 * proxy's lognormal latency sampler.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GaleneError } from '../../src/common/errors';
import { mulberry32 } from '../../src/common/prng';
import { S3ObjectStore, type S3StoreOptions } from '../../src/io/s3-object-store';
import { lognormalSampler } from '../helpers/fault-proxy';
import { useS3BehindProxy } from '../helpers/s3-behind-proxy';

const s3 = useS3BehindProxy();

function storeThroughProxy(overrides: Partial<S3StoreOptions> = {}): S3ObjectStore {
  return new S3ObjectStore(s3.storeOptions('galene-test', { requestTimeoutMs: 2_000, maxAttempts: 4, ...overrides }));
}

const bytes = (length: number, seed: number): Buffer => {
  const random = mulberry32(seed);
  const out = Buffer.alloc(length);
  for (let idx = 0; idx < length; idx++) out[idx] = Math.floor(random() * 256);
  return out;
};

test('put, ranged get, head, list and delete keep the ObjectStore contract', async () => {
  s3.proxy.configure({});
  const store = storeThroughProxy({ rootPath: 'contract' });
  try {
    const data = bytes(100_000, 1);
    await store.put('data/1/a.dat', [data.subarray(0, 10), data.subarray(10)]);
    await store.put('data/1/b.dat', Buffer.from('second'));
    await store.put('data/2/c.dat', Buffer.from('third'));
    const proxyBytesBefore = s3.proxy.stats.bytes;
    assert.deepEqual(await store.get('data/1/a.dat'), data);
    assert.deepEqual(await store.get('data/1/a.dat', { offset: 99_990, length: 10 }), data.subarray(99_990));
    assert.equal(s3.proxy.stats.bytes - proxyBytesBefore, 100_010, 'the proxy counts the answer bodies it forwarded');
    assert.deepEqual(await store.get('data/1/a.dat', { offset: 5, length: 0 }), Buffer.alloc(0));
    assert.deepEqual(await store.head('data/1/a.dat'), { size: 100_000 });
    assert.equal(await store.head('data/1/missing.dat'), null);
    assert.deepEqual(await store.list('data/1/'), ['data/1/a.dat', 'data/1/b.dat']);
    assert.deepEqual(await store.list('data/'), ['data/1/a.dat', 'data/1/b.dat', 'data/2/c.dat']);
    await store.delete('data/1/b.dat');
    await store.delete('data/1/b.dat'); // deleting a missing object is not an error
    assert.deepEqual(await store.list('data/1/'), ['data/1/a.dat']);
    await assert.rejects(store.get('data/1/b.dat'), (err: GaleneError) => err.code === 'IO_ERROR' && /get data\/1\/b\.dat: NoSuchKey \(HTTP 404\)/.test(err.message));
    await assert.rejects(store.put('../escape', Buffer.from('x')), (err: GaleneError) => err.code === 'IO_ERROR' && /invalid object key/.test(err.message));
    assert.equal(store.stats.failures, 1, 'only the get of the deleted object failed');
    assert.equal(store.stats.bytesRead, 100_010);
  } finally {
    store.close();
  }
});

test('a large object is uploaded in parts and reads back whole and by range', async () => {
  s3.proxy.configure({});
  const store = storeThroughProxy({ rootPath: 'multipart', multipartThresholdBytes: 6 * 1024 * 1024, partSizeBytes: 5 * 1024 * 1024 });
  try {
    const data = bytes(12 * 1024 * 1024 + 17, 2);
    const before = store.stats.putRequests;
    // Parts given in pieces that do not line up with the upload's part size.
    await store.put('big.dat', [data.subarray(0, 3_000_000), data.subarray(3_000_000, 9_000_001), data.subarray(9_000_001)]);
    assert.equal(store.stats.putRequests - before, 5, 'create + 3 parts + complete');
    assert.deepEqual(await store.head('big.dat'), { size: data.length });
    assert.ok((await store.get('big.dat')).equals(data));
    assert.ok((await store.get('big.dat', { offset: 5 * 1024 * 1024 - 3, length: 7 })).equals(data.subarray(5 * 1024 * 1024 - 3, 5 * 1024 * 1024 + 4)));
  } finally {
    store.close();
  }
});

test('503 SlowDown, 500, connection resets and cut-off bodies are retried until the request succeeds', async () => {
  s3.proxy.configure({});
  const store = storeThroughProxy({ rootPath: 'retries' });
  try {
    const data = bytes(50_000, 3);
    s3.proxy.injectNext('slowdown', 2, { method: 'PUT' });
    await store.put('r.dat', data);
    assert.equal(store.stats.retries, 2);
    for (const kind of ['slowdown', 'internal', 'reset', 'truncate'] as const) {
      const retriesBefore: number = store.stats.retries;
      const faultsBefore: number = s3.proxy.stats.faults[kind];
      s3.proxy.injectNext(kind, 1, { method: 'GET' });
      assert.ok((await store.get('r.dat', { offset: 1000, length: 20_000 })).equals(data.subarray(1000, 21_000)), `${kind}: the retried get returns the right bytes`);
      assert.equal(s3.proxy.stats.faults[kind] - faultsBefore, 1, `${kind} was injected`);
      assert.equal(store.stats.retries - retriesBefore, 1, `${kind} cost one retry`);
    }
    assert.equal(store.stats.failures, 1, 'the cut-off body counted as a failed try');
  } finally {
    store.close();
  }
});

test('a stalled server hits the request timeout and the retry succeeds', async () => {
  s3.proxy.configure({});
  const store = storeThroughProxy({ rootPath: 'stall', requestTimeoutMs: 300 });
  try {
    await store.put('s.dat', Buffer.from('stalled once'));
    s3.proxy.injectNext('stall', 1, { method: 'GET' });
    assert.equal((await store.get('s.dat')).toString(), 'stalled once');
    assert.equal(s3.proxy.stats.faults.stall >= 1, true);
    assert.ok(store.stats.retries >= 1);
  } finally {
    store.close();
  }
});

test('a request that keeps failing ends in IO_ERROR with S3\'s code after maxAttempts tries', async () => {
  s3.proxy.configure({});
  const store = storeThroughProxy({ rootPath: 'fail', maxAttempts: 3 });
  try {
    await store.put('f.dat', Buffer.from('x'));
    const requestsBefore = s3.proxy.stats.requests;
    s3.proxy.injectNext('slowdown', 3, { method: 'GET' });
    await assert.rejects(store.get('f.dat'), (err: GaleneError) => err.code === 'IO_ERROR' && /get f\.dat: SlowDown \(HTTP 503\)/.test(err.message));
    assert.equal(s3.proxy.stats.requests - requestsBefore, 3, 'three tries, no more');
    // The store still works once the server recovers.
    assert.equal((await store.get('f.dat')).toString(), 'x');
  } finally {
    store.close();
  }
});

test('a multipart upload whose part keeps failing is aborted: no object, nothing listed', async () => {
  s3.proxy.configure({});
  const store = storeThroughProxy({ rootPath: 'abort', multipartThresholdBytes: 6 * 1024 * 1024, partSizeBytes: 5 * 1024 * 1024, maxAttempts: 2 });
  try {
    const data = bytes(11 * 1024 * 1024, 4);
    // Parts are PUTs with partNumber in the query; the second part fails on both tries.
    s3.proxy.injectNext('internal', 2, { method: 'PUT', path: 'partNumber=2' });
    await assert.rejects(store.put('aborted.dat', data), (err: GaleneError) => err.code === 'IO_ERROR' && /put aborted\.dat \(part 2\): InternalError \(HTTP 500\)/.test(err.message));
    assert.equal(await store.head('aborted.dat'), null);
    assert.deepEqual(await store.list(''), []);
  } finally {
    store.close();
  }
});

test('an unknown access key is refused with S3\'s error', async () => {
  // s3rver checks access keys but not SigV4 signatures, so a wrong secret alone is not caught here.
  const store = storeThroughProxy({ rootPath: 'auth', accessKey: 'NOT-A-KEY', maxAttempts: 1 });
  try {
    await assert.rejects(store.put('x.dat', Buffer.from('x')), (err: GaleneError) => err.code === 'IO_ERROR' && /put x\.dat: InvalidAccessKeyId \(HTTP 403\)/.test(err.message));
  } finally {
    store.close();
  }
});

test('the proxy\'s latency sampler has the asked median and 99th percentile', () => {
  const sample = lognormalSampler(25, 150, mulberry32(7));
  const draws = Float64Array.from({ length: 100_000 }, () => sample()).sort();
  const p50 = draws[50_000];
  const p99 = draws[99_000];
  assert.ok(Math.abs(p50 - 25) < 1, `p50 ${p50}`);
  assert.ok(Math.abs(p99 - 150) < 10, `p99 ${p99}`);
});
