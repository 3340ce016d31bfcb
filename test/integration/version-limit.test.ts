/**
 * A tablet at max_tablet_version_num rejects new loads with Doris's -235 error until compaction merges
 * its rowsets; the rejected load leaves nothing behind.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

test('too many versions: -235, nothing written, then compaction lets loads in again', async () => {
  const server = await startGalene({ args: ['--max_tablet_version_num', '6', '--disable_auto_compaction', 'true'] });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE vl');
    await conn.query('CREATE TABLE vl.t (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    for (let load = 0; load < 6; load++) await conn.query(`INSERT INTO vl.t VALUES (${load})`);
    await assert.rejects(conn.query('INSERT INTO vl.t VALUES (99)'), (err: { errno: number; message: string }) => {
      assert.equal(err.errno, 1105);
      assert.match(err.message, /E-235/);
      assert.match(err.message, /max_tablet_version_num/);
      return true;
    });
    assert.deepEqual(await queryRows(conn, 'SELECT count(*), max(k) FROM vl.t'), [['6', '5']]);
    await conn.end();
  } finally {
    await server.stop();
  }
  // The same data with compaction on: once the rowsets are merged, loads are accepted again.
  const again = await startGalene({ dataDir: server.dataDir, args: ['--max_tablet_version_num', '6'] });
  try {
    const conn = await connect(again.ports.query_port);
    const deadline = Date.now() + 30_000;
    while (Number((await queryRows(conn, 'SHOW TABLETS FROM vl.t'))[0][2]) >= 6) {
      assert.ok(Date.now() < deadline, 'compaction merged the rowsets within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await conn.query('INSERT INTO vl.t VALUES (99)');
    assert.deepEqual(await queryRows(conn, 'SELECT count(*), max(k) FROM vl.t'), [['7', '99']]);
    await conn.end();
  } finally {
    await again.stop();
  }
});
