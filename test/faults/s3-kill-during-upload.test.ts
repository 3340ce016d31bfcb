/**
 * SIGKILL of the Galene process while Stream Loads into a table of an S3 vault are uploading (slow
 * uploads: the fault proxy adds latency to every request), several loads at once: after the restart each
 * load is whole or absent, every acknowledged load is there, and the start-up sweep has removed the
 * objects of the loads the crash cut short (the bucket holds exactly the visible rowsets' segments).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { queryRows } from '../helpers/mysql-client';
import { httpPut, sleep } from '../stream-load/helpers';
import { csvRows, IN_VAULT, startFaultRig, visibleSegments } from './helpers';

test('SIGKILL while Stream Loads upload to S3: after restart each load is whole or absent, no orphan objects', async () => {
  const ARGS = ['--disable_auto_compaction', 'true', '--write_buffer_size', '65536'];
  const rig = await startFaultRig({ args: ARGS });
  try {
    await rig.conn.query(`CREATE TABLE k (id INT NOT NULL, name VARCHAR(20), v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3 PROPERTIES (${IN_VAULT})`);
    const ROWS = 60_000;
    const LOADS = 6;
    const files = Array.from({ length: LOADS }, (_v, loadIdx) => csvRows(rig.dataDir, `load${loadIdx}.csv`, ROWS, loadIdx * ROWS));
    // Every S3 request waits ~150 ms (p99 400 ms): a load's many small segments are in flight for seconds.
    rig.proxy.configure({ latency: { p50Ms: 150, p99Ms: 400 } });
    const acknowledged = new Set<number>();
    const port = rig.server.ports.webserver_port;
    const clients: Promise<unknown>[] = [];
    for (let client = 0; client < 3; client++) {
      clients.push(
        (async () => {
          for (let loadIdx = client; loadIdx < LOADS; loadIdx += 3) {
            const answer = await httpPut(port, '/api/fdb/k/_stream_load', { column_separator: ',', label: `kill_${loadIdx}` }, async (req) => {
              req.write(fs.readFileSync(files[loadIdx]));
            });
            if (answer.json.Status === 'Success') acknowledged.add(loadIdx);
          }
        })().catch(() => 'gone'),
      );
    }
    // Kill once objects are landing in the bucket and before every load is done.
    for (let attempt = 0; attempt < 600 && (await rig.bucketKeys()).length < 4; attempt++) await sleep(25);
    assert.ok(acknowledged.size < LOADS, 'the kill comes while loads still run');
    await rig.restart('kill');
    await Promise.all(clients);
    rig.proxy.configure({});

    let visible = 0;
    for (let loadIdx = 0; loadIdx < LOADS; loadIdx++) {
      const [[rows]] = await queryRows(rig.conn, `SELECT count(*) FROM k WHERE id >= ${loadIdx * ROWS} AND id < ${(loadIdx + 1) * ROWS}`);
      assert.ok(rows === '0' || rows === String(ROWS), `load ${loadIdx}: whole or absent, not ${rows} rows`);
      if (acknowledged.has(loadIdx)) assert.equal(rows, String(ROWS), `acknowledged load ${loadIdx} is there`);
      const txns = await queryRows(rig.conn, `SHOW TRANSACTION FROM fdb WHERE LABEL = 'kill_${loadIdx}'`);
      if (rows === String(ROWS)) {
        visible++;
        assert.equal(txns[0]?.[3], 'VISIBLE');
      } else if (txns.length > 0) {
        assert.notEqual(txns[0][3], 'VISIBLE');
      }
    }
    assert.ok(visible < LOADS, 'some load was cut short by the kill');
    const keys = await rig.bucketKeys();
    assert.equal(keys.filter((key) => key.endsWith('.dat')).length, await visibleSegments(rig.conn, 'k'), `no orphan object in the bucket: ${keys.length} keys`);
    assert.deepEqual(keys.filter((key) => !key.endsWith('.dat')), [], 'nothing but segments (the table has no index)');
    // A load cut short can be run again under its label.
    const again = [...Array(LOADS).keys()].find((loadIdx) => !acknowledged.has(loadIdx))!;
    const [[before]] = await queryRows(rig.conn, `SELECT count(*) FROM k WHERE id >= ${again * ROWS} AND id < ${(again + 1) * ROWS}`);
    if (before === '0') {
      const answer = await httpPut(rig.server.ports.webserver_port, '/api/fdb/k/_stream_load', { column_separator: ',', label: `kill_${again}` }, async (req) => {
        req.write(fs.readFileSync(files[again]));
      });
      assert.equal(answer.json.Status, 'Success', answer.body);
    }
  } finally {
    await rig.close();
  }
});
