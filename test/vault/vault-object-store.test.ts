/**
 * The routing object store of storage vaults and the composed FileCache: plain keys go to the built-in
 * store, `vault/<id>/...` keys to that vault's store with the prefix stripped (so the vault holds
 * `data/...`), kindOf per key, list under a vault prefix gives routed keys back, an unopened vault is an
 * error naming the key, a replaced vault store takes the next request; the FileCache reads local keys
 * in place and remote ones through its one block cache.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { QueryProfile } from '../../src/common/profile';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import { s3OptionsOfVault, vaultObjectKey, VaultObjectStore } from '../../src/io/vault-object-store';
import { VaultFileCache } from '../../src/io/vault-file-cache';
import { makeDataDir } from '../helpers/galene-process';

test('keys route to the built-in store or to their vault, prefix stripped', async () => {
  const root = makeDataDir('galene-vault-route-');
  const builtIn = new LocalObjectStore(path.join(root, 'local'));
  const vaultInner = new LocalObjectStore(path.join(root, 'vault7'));
  const remote = new RemoteLikeObjectStore(vaultInner);
  const store = new VaultObjectStore(builtIn);
  store.setVault(7, remote);
  try {
    assert.equal(vaultObjectKey(null, 'data/1/2_0.dat'), 'data/1/2_0.dat');
    assert.equal(vaultObjectKey(7, 'data/1/2_0.dat'), 'vault/7/data/1/2_0.dat');
    await store.put('data/1/2_0.dat', Buffer.from('local'));
    await store.put('vault/7/data/3/4_0.dat', Buffer.from('remote'));
    assert.ok(fs.existsSync(path.join(root, 'local', 'data', '1', '2_0.dat')));
    assert.ok(fs.existsSync(path.join(root, 'vault7', 'data', '3', '4_0.dat')), 'the vault holds data/... without the prefix');
    assert.equal(store.kind, 'local');
    assert.equal(store.kindOf('data/1/2_0.dat'), 'local');
    assert.equal(store.kindOf('vault/7/data/3/4_0.dat'), 'remote');
    assert.equal(store.localPath('vault/7/data/3/4_0.dat'), null);
    assert.equal(store.localPath('data/1/2_0.dat'), path.join(root, 'local', 'data', '1', '2_0.dat'));
    assert.equal((await store.get('vault/7/data/3/4_0.dat', { offset: 1, length: 3 })).toString(), 'emo');
    assert.deepEqual(await store.head('vault/7/data/3/4_0.dat'), { size: 6 });
    assert.deepEqual(await store.list('data/'), ['data/1/2_0.dat']);
    assert.deepEqual(await store.list('vault/7/data/'), ['vault/7/data/3/4_0.dat']);
    assert.deepEqual(store.vaultIds(), [7]);
    await assert.rejects(store.get('vault/8/data/1.dat'), /vault\/8\/data\/1\.dat: storage vault 8 is not open/);
    await assert.rejects(store.put('vault/x/data/1.dat', Buffer.from('')), /bad vault prefix/);
    // A replaced store (new credentials) serves the next request.
    const other = new RemoteLikeObjectStore(new LocalObjectStore(path.join(root, 'vault7b')));
    store.setVault(7, other);
    await store.put('vault/7/data/5.dat', Buffer.from('x'));
    assert.equal(other.putRequests, 1);
    await store.delete('vault/7/data/5.dat');
    assert.equal(await store.head('vault/7/data/5.dat'), null);
  } finally {
    store.close();
  }
});

test('the composed FileCache reads local keys in place and vault keys through one block cache', async () => {
  const root = makeDataDir('galene-vault-cache-');
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(path.join(root, 'vault')));
  const store = new VaultObjectStore(new LocalObjectStore(path.join(root, 'local')));
  store.setVault(3, remote);
  const cache = await createFileCache(store, { paths: [{ path: path.join(root, 'file_cache'), totalSize: 64 << 20, indexPercent: 5, normalPercent: 95 }] });
  try {
    assert.ok(cache instanceof VaultFileCache);
    assert.equal(cache.kind, 'in-place');
    await store.put('data/1/a.dat', Buffer.from('local bytes'));
    await store.put('vault/3/data/1/b.dat', Buffer.from('remote bytes'));
    const afterPuts = remote.requests;
    const profile = new QueryProfile('q', '', 'root', 'db');
    const local = await cache.open('data/1/a.dat', profile);
    assert.equal((await local.read(0, 5, profile)).toString(), 'local');
    assert.equal(remote.requests, afterPuts, 'a local key never reaches the vault');
    const far = await cache.open('vault/3/data/1/b.dat', profile, 12);
    assert.equal((await far.read(7, 5, profile)).toString(), 'bytes');
    const requests = remote.requests;
    assert.ok(requests > afterPuts);
    const again = await cache.open('vault/3/data/1/b.dat', new QueryProfile('q2', '', 'root', 'db'), 12);
    assert.equal((await again.read(0, 6, profile)).toString(), 'remote');
    assert.equal(remote.requests, requests, 'the second read is a block cache hit');
    assert.ok(cache.stats().capacityBytes > 0, 'the block tier is open');
    await cache.invalidate('vault/3/data/1/b.dat');
    await cache.invalidate('data/1/a.dat');
  } finally {
    await cache.close();
    store.close();
  }
});

test('S3 options from Doris vault properties', () => {
  const options = s3OptionsOfVault({ 's3.endpoint': 'minio:9000', 's3.region': 'us-east-1', 's3.bucket': 'b', 's3.root.path': 'p', 's3.access_key': 'a', 's3.secret_key': 's', 's3.connection.maximum': '8', 's3.connection.request.timeout': '1500', 's3.connection.timeout': '700' });
  assert.equal(options.endpoint, 'http://minio:9000');
  assert.equal(options.usePathStyle, true);
  assert.equal(options.maxSockets, 8);
  assert.equal(options.requestTimeoutMs, 1500);
  assert.equal(options.connectTimeoutMs, 700);
  assert.equal(s3OptionsOfVault({ 's3.endpoint': 'https://s3.amazonaws.com', use_path_style: 'false' }).usePathStyle, false);
  assert.equal(s3OptionsOfVault({ 's3.endpoint': 'https://s3.amazonaws.com' }).endpoint, 'https://s3.amazonaws.com');
  assert.throws(() => s3OptionsOfVault({ 's3.connection.maximum': 'lots' }), /Invalid value for property s3\.connection\.maximum: lots/);
});
