/**
 * Loads into a table of an S3 vault while the store fails (issue 13, "Faults"), through a real server,
 * mysql2 and curl, s3rver behind the fault proxy:
 *   - transient errors (503 SlowDown, 500, resets, a stalled request) during INSERT and Stream Load are
 *     retried by the store and the load gets every row; the proxy's request counters show the retries;
 *   - a load whose uploads finally fail (an outage longer than the retries) fails with the store's error
 *     naming the object, and SELECT shows nothing of it;
 *   - objects such a load left behind (its deletes failed too) are removed by the recycler
 *     (recycle_interval_seconds), leaving the bucket exactly as the committed loads made it;
 *   - index files (inverted and primary-key) go through the upload pool: the upload counters count them,
 *     and a failing index upload fails the load with nothing visible.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { updateBackendConfig } from '../helpers/galene-process';
import { queryRows } from '../helpers/mysql-client';
import { count, curlLoad } from '../stream-load/helpers';
import { csvRows, eventually, IN_VAULT, keysOfTablets, keysOfTxn, metric, startFaultRig, tabletIds, type FaultRig } from './helpers';

let rig: FaultRig;

before(async () => {
  // A stalled request is abandoned after 3 s and retried; the recycler waits until a test turns it on.
  rig = await startFaultRig({ args: ['--disable_auto_compaction', 'true', '--recycle_interval_seconds', '0'], vault: { 's3.connection.request.timeout': '3000' } });
  await rig.conn.query(`CREATE TABLE t (id INT NOT NULL, name VARCHAR(20), v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 4 PROPERTIES (${IN_VAULT})`);
});

after(async () => {
  await rig?.close();
});

const streamLoadUrl = (table: string): string => `http://127.0.0.1:${rig.server.ports.http_port}/api/fdb/${table}/_stream_load`;
const values = (start: number, rows: number): string => Array.from({ length: rows }, (_, idx) => `(${start + idx}, 'n${start + idx}', ${idx % 10})`).join(', ');
const puts = (): number => rig.proxy.stats.byMethod['PUT'] ?? 0;

test('transient S3 errors during INSERT and Stream Load are retried and the load gets every row', async () => {
  const keysBefore = (await rig.bucketKeys()).length;
  const putsBefore = puts();
  rig.proxy.injectNext('slowdown', 1, { method: 'PUT' });
  rig.proxy.injectNext('internal', 1, { method: 'PUT' });
  rig.proxy.injectNext('reset', 1, { method: 'PUT' });
  await rig.conn.query(`INSERT INTO t VALUES ${values(0, 1000)}`);
  assert.deepEqual(rig.proxy.stats.faults, { slowdown: 1, internal: 1, reset: 1, stall: 0, truncate: 0 }, 'every injected fault met a PUT');
  const afterInsert = (await rig.bucketKeys()).length;
  assert.equal(afterInsert - keysBefore, 4, 'one segment per tablet');
  assert.equal(puts() - putsBefore, 4 + 3, 'each fault cost one retried PUT');
  assert.equal(await count(rig.conn, 't'), 1000);

  const streamPutsBefore = puts();
  rig.proxy.injectNext('stall', 1, { method: 'PUT' });
  rig.proxy.injectNext('reset', 1, { method: 'PUT' });
  rig.proxy.injectNext('slowdown', 1, { method: 'PUT' });
  const file = csvRows(rig.dataDir, 'transient.csv', 5000, 10_000);
  const loaded = await curlLoad(streamLoadUrl('t'), file, ['column_separator:,', 'label:transient_1']);
  assert.equal(loaded.json.Status, 'Success', loaded.body);
  assert.equal(loaded.json.NumberLoadedRows, 5000);
  assert.deepEqual(rig.proxy.stats.faults, { slowdown: 2, internal: 1, reset: 2, stall: 1, truncate: 0 });
  assert.equal(puts() - streamPutsBefore, (await rig.bucketKeys()).length - afterInsert + 3);
  assert.equal(await count(rig.conn, 't'), 6000);
  assert.deepEqual(await queryRows(rig.conn, 'SELECT count(DISTINCT id), sum(v) FROM t WHERE id >= 10000'), [['5000', String(Array.from({ length: 5000 }, (_, idx) => ((10_000 + idx) * 7) % 1000).reduce((a, b) => a + b, 0))]]);
});

test('a load whose uploads finally fail during an outage fails naming the object and shows nothing', async () => {
  const rowsBefore = await count(rig.conn, 't');
  const keysBefore = await rig.bucketKeys();
  rig.proxy.outage('reset');
  try {
    await assert.rejects(rig.conn.query(`INSERT INTO t VALUES ${values(50_000, 500)}`), (err: Error) => {
      assert.match(err.message, /^errCode = 2, detailMessage = IO error: put data\/\d+\/\d+_\d+\.dat: /);
      return true;
    });
    const file = csvRows(rig.dataDir, 'outage.csv', 2000, 60_000);
    const failed = await curlLoad(streamLoadUrl('t'), file, ['column_separator:,', 'label:outage_1']);
    assert.equal(failed.json.Status, 'Fail', failed.body);
    assert.match(String(failed.json.Message), /IO error: put data\/\d+\/\d+_\d+\.dat: /);
  } finally {
    rig.proxy.outage(null);
  }
  assert.equal(await count(rig.conn, 't'), rowsBefore, 'nothing of the failed loads is visible');
  assert.deepEqual(await queryRows(rig.conn, 'SELECT count(*) FROM t WHERE id >= 50000'), [['0']]);
  assert.deepEqual(await rig.bucketKeys(), keysBefore, 'no object of the failed loads reached the bucket');
  // The label of the failed Stream Load is free again.
  const retried = await curlLoad(streamLoadUrl('t'), csvRows(rig.dataDir, 'outage.csv', 2000, 60_000), ['column_separator:,', 'label:outage_1']);
  assert.equal(retried.json.Status, 'Success', retried.body);
  assert.equal(await count(rig.conn, 't'), rowsBefore + 2000);
});

test('objects a failed load left in the bucket (its deletes failed too) are removed by the recycler', async () => {
  const rowsBefore = await count(rig.conn, 't');
  const keysBefore = await rig.bucketKeys();
  const [firstTablet] = await tabletIds(rig.conn, 't');
  // One tablet's uploads fail on every try; the other tablets' segments land, and the abort's deletes fail.
  rig.proxy.injectNext('internal', 100, { method: 'PUT', path: `/data/${firstTablet}/` });
  rig.proxy.injectNext('reset', 100, { method: 'DELETE' });
  const file = csvRows(rig.dataDir, 'partial.csv', 4000, 100_000);
  const failed = await curlLoad(streamLoadUrl('t'), file, ['column_separator:,', 'label:partial_1']);
  rig.proxy.clearFaults();
  assert.equal(failed.json.Status, 'Fail', failed.body);
  assert.match(String(failed.json.Message), new RegExp(`IO error: put data/${firstTablet}/\\d+_\\d+\\.dat: .*InternalError`));
  const txnId = Number(failed.json.TxnId);
  assert.ok(txnId > 0, failed.body);
  assert.equal(await count(rig.conn, 't'), rowsBefore, 'nothing of the failed load is visible');
  const leftOver = keysOfTxn(await rig.bucketKeys(), txnId);
  assert.ok(leftOver.length > 0, 'the failed load left objects of the other tablets (its deletes failed)');
  assert.deepEqual(keysOfTablets(leftOver, [firstTablet]), [], 'none of the failing tablet');

  // The recycler's round removes them, and nothing else.
  assert.equal((await updateBackendConfig(rig.server.ports.webserver_port, 'recycle_interval_seconds=1')).status, 'OK');
  assert.ok(await eventually(async () => keysOfTxn(await rig.bucketKeys(), txnId).length === 0, 30_000), 'the recycler removed the failed load\'s objects');
  assert.deepEqual(await rig.bucketKeys(), keysBefore, 'the bucket holds exactly the committed loads\' objects');
  assert.equal(await count(rig.conn, 't'), rowsBefore);
});

test('index files go through the upload pool: counted as uploads, and a failing index upload fails the load', async () => {
  await rig.conn.query(`CREATE TABLE docs (id INT NOT NULL, note VARCHAR(64), INDEX idx_note (note) USING INVERTED PROPERTIES("parser" = "english"))
    UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES (${IN_VAULT}, "enable_unique_key_merge_on_write" = "true")`);
  const port = rig.server.ports.webserver_port;
  const uploadsBefore = await metric(port, 'doris_be_s3_file_upload_total');
  const keysBefore = await rig.bucketKeys();
  const notes = (start: number, rows: number): string => Array.from({ length: rows }, (_, idx) => `(${start + idx}, 'red apple ${start + idx}')`).join(', ');
  await rig.conn.query(`INSERT INTO docs VALUES ${notes(0, 200)}`);
  const written = (await rig.bucketKeys()).filter((key) => !keysBefore.includes(key));
  // Per tablet: the segment, its inverted index and its primary-key index.
  assert.equal(written.filter((key) => key.endsWith('.dat')).length, 2, written.join(' '));
  assert.equal(written.filter((key) => key.endsWith('.idx')).length, 4, written.join(' '));
  assert.equal((await metric(port, 'doris_be_s3_file_upload_total')) - uploadsBefore, written.length, 'every object of the load went through the upload pool');

  // Index uploads that keep failing fail the load: nothing visible, and the recycler removes what landed.
  const keysBeforeFailure = await rig.bucketKeys();
  const failuresBefore = await metric(port, 'doris_be_s3_file_upload_failures_total');
  rig.proxy.injectNext('internal', 200, { method: 'PUT', path: '.idx_note.idx' });
  try {
    await assert.rejects(rig.conn.query(`INSERT INTO docs VALUES ${notes(1000, 200)}`), /IO error: put data\/\d+\/\d+_\d+\.idx_note\.idx: /);
  } finally {
    rig.proxy.clearFaults();
  }
  assert.ok((await metric(port, 'doris_be_s3_file_upload_failures_total')) > failuresBefore, 'the failed index upload is an upload-pool failure');
  assert.deepEqual(await queryRows(rig.conn, 'SELECT count(*) FROM docs'), [['200']]);
  assert.deepEqual(await queryRows(rig.conn, "SELECT count(*) FROM docs WHERE note MATCH_ANY 'apple'"), [['200']]);
  assert.ok(await eventually(async () => (await rig.bucketKeys()).length === keysBeforeFailure.length, 30_000), 'nothing of the failed load stays in the bucket');
  assert.deepEqual(await rig.bucketKeys(), keysBeforeFailure);
});
