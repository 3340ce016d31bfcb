/**
 * A corrupt (bytes flipped) or truncated object read from S3 is an error naming the object, never rows
 * silently wrong; once the object is repaired (the original re-uploaded) the query works again, so the
 * file cache must not keep the bad bytes. Damage in the bucket itself (the object rewritten past the
 * proxy), and damage on the wire (the proxy flips a byte of, or cuts short, every answer for the key).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { queryRows } from '../helpers/mysql-client';
import { httpGet } from '../stream-load/helpers';
import { IN_VAULT, startFaultRig, type FaultRig } from './helpers';

let rig: FaultRig;

before(async () => {
  rig = await startFaultRig({ args: ['--disable_auto_compaction', 'true'] });
});

after(async () => {
  await rig?.close();
});

const ROWS = 3000;
const EXPECTED = [[String(ROWS), String((ROWS * (ROWS - 1)) / 2), String(ROWS)]];
const QUERY = (table: string): string => `SELECT count(*), sum(id), count(DISTINCT name) FROM ${table}`;

/** A one-tablet table with ROWS rows in one segment; its segment's key in the bucket. */
async function tableWithOneSegment(table: string): Promise<string> {
  const before = await rig.bucketKeys();
  await rig.conn.query(`CREATE TABLE ${table} (id INT NOT NULL, name VARCHAR(32)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES (${IN_VAULT})`);
  await rig.conn.query(`INSERT INTO ${table} VALUES ${Array.from({ length: ROWS }, (_, id) => `(${id}, 'name ${id}')`).join(', ')}`);
  const written = (await rig.bucketKeys()).filter((key) => !before.includes(key));
  assert.equal(written.length, 1, written.join(' '));
  return written[0];
}

/** Drop every cached block (a cold read follows). */
async function clearFileCache(): Promise<void> {
  const answer = await httpGet(`http://root:@127.0.0.1:${rig.server.ports.webserver_port}/api/file_cache?op=clear&sync=true`);
  assert.equal(answer.status, 200, answer.body);
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a corrupt object in the bucket is an error naming it; after the repair the query works (no bad bytes cached)', async () => {
  const key = await tableWithOneSegment('c1');
  const original = await rig.bucket.get(key);
  const damaged = Buffer.from(original);
  damaged[damaged.length >> 2] ^= 0xff; // inside the column data
  await rig.bucket.put(key, damaged);
  await clearFileCache();
  await assert.rejects(rig.conn.query(QUERY('c1')), (err: Error) => {
    assert.match(err.message, new RegExp(`\\[CORRUPTION\\] (vault/\\d+/)?${escape(key)}: .*checksum mismatch`));
    return true;
  });
  // Asked again: still the error, never rows.
  await assert.rejects(rig.conn.query(QUERY('c1')), /CORRUPTION/);
  await rig.bucket.put(key, original);
  assert.deepEqual(await queryRows(rig.conn, QUERY('c1')), EXPECTED);
});

test('a truncated object in the bucket is an error naming it; after the repair the query works', async () => {
  const key = await tableWithOneSegment('c2');
  const original = await rig.bucket.get(key);
  await rig.bucket.put(key, original.subarray(0, original.length >> 1));
  await clearFileCache();
  await assert.rejects(rig.conn.query(QUERY('c2')), (err: Error) => {
    assert.match(err.message, new RegExp(`(vault/\\d+/)?${escape(key)}`));
    assert.match(err.message, /IO error|CORRUPTION/);
    return true;
  });
  await rig.bucket.put(key, original);
  assert.deepEqual(await queryRows(rig.conn, QUERY('c2')), EXPECTED);
});

test('bytes flipped on the wire: an error naming the object, and nothing of the bad answer is kept', async () => {
  const key = await tableWithOneSegment('c3');
  await clearFileCache();
  rig.proxy.corrupt(key);
  try {
    await assert.rejects(rig.conn.query(QUERY('c3')), new RegExp(`\\[CORRUPTION\\] (vault/\\d+/)?${escape(key)}: `));
  } finally {
    rig.proxy.corrupt(key, true);
  }
  assert.deepEqual(await queryRows(rig.conn, QUERY('c3')), EXPECTED, 'the flipped bytes were not kept in the cache');
});

test('a body cut short on the wire is retried; cut on every try it is an error naming the object', async () => {
  // Tables never read before: their segments are read from S3 (no reader, page or block cached).
  const retried = await tableWithOneSegment('c4');
  await clearFileCache();
  const truncatedBefore = rig.proxy.stats.faults.truncate;
  rig.proxy.injectNext('truncate', 2, { method: 'GET', path: retried });
  assert.deepEqual(await queryRows(rig.conn, QUERY('c4')), EXPECTED);
  assert.equal(rig.proxy.stats.faults.truncate - truncatedBefore, 2, 'both cut answers were met and retried');

  const failing = await tableWithOneSegment('c5');
  await clearFileCache();
  rig.proxy.injectNext('truncate', 50, { method: 'GET', path: failing });
  try {
    await assert.rejects(rig.conn.query(QUERY('c5')), new RegExp(`errCode = 2, detailMessage = IO error: get ${escape(failing)}: `));
  } finally {
    rig.proxy.clearFaults();
  }
  assert.deepEqual(await queryRows(rig.conn, QUERY('c5')), EXPECTED);
});
