/**
 * What an INSERT acknowledges survives SIGKILL; what was not acknowledged leaves no trace.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { storedObjectKeys } from '../helpers/storage-matrix';

test('acknowledged inserts survive SIGKILL; nothing half-written is visible after restart', async () => {
  const dataDir = makeDataDir();
  const first = await startGalene({ dataDir });
  const conn = await connect(first.ports.query_port);
  await conn.query('CREATE DATABASE dur');
  await conn.query('CREATE TABLE dur.t (id INT, payload VARCHAR(100)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 4');
  const acknowledged: number[] = [];
  let stop = false;
  // A writer that keeps inserting batches of 50 rows; the server is killed while it runs.
  const writer = (async () => {
    for (let batch = 0; !stop && batch < 10_000; batch++) {
      const values = Array.from({ length: 50 }, (_v, idx) => `(${batch * 50 + idx}, 'row ${batch}-${idx}')`).join(',');
      try {
        await conn.query(`INSERT INTO dur.t VALUES ${values}`);
        acknowledged.push(batch);
      } catch {
        return;
      }
    }
  })();
  // Kill once a few inserts are acknowledged (however busy the machine), while the writer keeps inserting.
  for (let waited = 0; acknowledged.length <= 3 && waited < 60_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const code = await first.kill('SIGKILL');
  stop = true;
  await writer;
  conn.destroy();
  assert.equal(code, null, 'killed by a signal');
  assert.ok(acknowledged.length > 3, `the writer got some inserts acknowledged (${acknowledged.length})`);

  // Compaction off: the file count below must match the committed rowsets exactly.
  const second = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn2 = await connect(second.ports.query_port);
    const [[count, distinct]] = await queryRows(conn2, 'SELECT count(*), count(DISTINCT id) FROM dur.t');
    // Every acknowledged batch is there; at most the one in flight at the kill may also be (committed, not yet acknowledged).
    assert.ok(Number(count) === acknowledged.length * 50 || Number(count) === (acknowledged.length + 1) * 50, `rows ${count} vs acknowledged batches ${acknowledged.length}`);
    assert.equal(count, distinct, 'no row twice');
    const [[maxAcked]] = await queryRows(conn2, `SELECT count(*) FROM dur.t WHERE id < ${acknowledged.length * 50}`);
    assert.equal(Number(maxAcked), acknowledged.length * 50);
    // No orphan segment files: every object under data/ belongs to a visible rowset.
    const [tablets] = await conn2.query('SHOW TABLETS FROM dur.t');
    const segmentCount = (tablets as string[][]).reduce((sum, row) => sum + Number(row[5]), 0);
    const files = await storedObjectKeys(dataDir);
    assert.equal(files.filter((name) => name.endsWith('.dat')).length, segmentCount, 'segment objects stored match the committed rowsets');
    await conn2.end();
  } finally {
    await second.stop();
  }
});
