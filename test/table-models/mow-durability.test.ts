/**
 * Merge-on-write under crashes and compaction: a SIGKILL while upserts publish leaves each load's rowsets
 * and delete bitmap both visible or both absent (no key ever shows twice, every key shows the value of the
 * last committed load that wrote it); background compaction of a merge-on-write tablet keeps the answers,
 * writes only visible rows, and later loads still replace the compacted rows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { makeDataDir, startGalene, updateBackendConfig } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const KEYS = 300;
const ROWS_PER_LOAD = 100;
/** Keys written by load `load`: a window sliding through the key space, so loads overlap. */
const keysOf = (load: number): number[] => Array.from({ length: ROWS_PER_LOAD }, (_v, idx) => (load * 37 + idx) % KEYS);

async function tabletStats(conn: Connection, table: string): Promise<{ versions: number; storedRows: number }> {
  const rows = await queryRows(conn, `SHOW TABLETS FROM ${table}`);
  return { versions: rows.reduce((sum, row) => sum + Number(row[2]), 0), storedRows: rows.reduce((sum, row) => sum + Number(row[3]), 0) };
}

test('SIGKILL during merge-on-write publishes leaves rowsets and delete bitmaps both or neither', async () => {
  const dataDir = makeDataDir('galene-mow-kill-');
  const first = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true'] });
  const conn = await connect(first.ports.query_port);
  await conn.query('CREATE DATABASE k');
  await conn.query('CREATE TABLE k.t (id INT, load_no INT, pad VARCHAR(20)) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
  let acknowledged = 0;
  let stop = false;
  const writer = (async () => {
    for (let load = 0; !stop && load < 100_000; load++) {
      const values = keysOf(load).map((id) => `(${id}, ${load}, 'pad-${load}')`).join(',');
      try {
        await conn.query(`INSERT INTO k.t VALUES ${values}`);
        acknowledged = load + 1;
      } catch {
        return;
      }
    }
  })();
  // Kill once a few loads are acknowledged (however busy the machine), while the writer keeps publishing.
  for (let waited = 0; acknowledged <= 5 && waited < 60_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 200));
  await first.kill('SIGKILL');
  stop = true;
  await writer;
  conn.destroy();
  assert.ok(acknowledged > 5, `some loads were acknowledged (${acknowledged})`);

  const second = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn2 = await connect(second.ports.query_port);
    const [[count, distinct, lastLoad]] = await queryRows(conn2, 'SELECT count(*), count(DISTINCT id), max(load_no) FROM k.t');
    assert.equal(count, distinct, 'no key is visible twice (a rowset never became visible without its delete bitmap)');
    // Committed: every acknowledged load, and maybe the one in flight at the kill.
    const committed = Number(lastLoad) + 1;
    assert.ok(committed === acknowledged || committed === acknowledged + 1, `last committed load ${committed} vs acknowledged ${acknowledged}`);
    const expected = new Map<number, number>();
    for (let load = 0; load < committed; load++) for (const id of keysOf(load)) expected.set(id, load);
    const rows = await queryRows(conn2, 'SELECT id, load_no, pad FROM k.t ORDER BY id');
    assert.deepEqual(
      rows,
      [...expected].sort((a, b) => a[0] - b[0]).map(([id, load]) => [String(id), String(load), `pad-${load}`]),
      'each key shows the last committed load that wrote it',
    );
    // The table keeps working: a new load replaces rows and its bitmap survives another restart.
    await conn2.query(`INSERT INTO k.t VALUES (${keysOf(0)[0]}, -1, 'after')`);
    await conn2.end();
  } finally {
    await second.stop();
  }
  const third = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn3 = await connect(third.ports.query_port);
    assert.deepEqual(await queryRows(conn3, `SELECT load_no, pad FROM k.t WHERE id = ${keysOf(0)[0]}`), [['-1', 'after']]);
    const [[count, distinct]] = await queryRows(conn3, 'SELECT count(*), count(DISTINCT id) FROM k.t');
    assert.equal(count, distinct);
    await conn3.end();
  } finally {
    await third.stop();
  }
});

test('compaction of merge-on-write tablets keeps the answers and writes only visible rows', async () => {
  // Compaction starts once the rows before it are counted (under load it could merge the loads first).
  const server = await startGalene({ args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE c');
    await conn.query('USE c');
    await conn.query('CREATE TABLE u (id INT, load_no INT) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
    await conn.query("CREATE TABLE s (id INT, v VARCHAR(10), seq INT) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ('function_column.sequence_col' = 'seq')");
    for (let load = 0; load < 12; load++) {
      await conn.query(`INSERT INTO u VALUES ${keysOf(load).map((id) => `(${id}, ${load})`).join(',')}`);
      // Sequence values go down and up: a later load with a smaller one never wins.
      const seq = load % 2 === 0 ? 100 - load : load;
      await conn.query(`INSERT INTO s VALUES ${[1, 2, 3].map((id) => `(${id}, 'l${load}', ${seq + id})`).join(',')}`);
      if (load === 6) await conn.query('DELETE FROM u WHERE id < 20');
    }
    const before = {
      u: await queryRows(conn, 'SELECT id, load_no FROM u ORDER BY id'),
      s: await queryRows(conn, 'SELECT id, v, seq FROM s ORDER BY id'),
    };
    assert.deepEqual(before.s, [['1', 'l0', '101'], ['2', 'l0', '102'], ['3', 'l0', '103']]);
    const stored = (await tabletStats(conn, 'u')).storedRows;
    assert.ok(stored > before.u.length, 'replaced and deleted rows are still stored before compaction');
    await updateBackendConfig(server.ports.webserver_port, 'disable_auto_compaction=false');
    const deadline = Date.now() + 60_000;
    while ((await tabletStats(conn, 'u')).versions >= 5 || (await tabletStats(conn, 's')).versions >= 5) {
      assert.ok(Date.now() < deadline, 'compaction reduced the version counts within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.deepEqual(await queryRows(conn, 'SELECT id, load_no FROM u ORDER BY id'), before.u);
    assert.deepEqual(await queryRows(conn, 'SELECT id, v, seq FROM s ORDER BY id'), before.s);
    assert.ok((await tabletStats(conn, 'u')).storedRows < stored, 'the merged rowset holds fewer rows than its inputs did');
    // Later loads still replace compacted rows; a smaller sequence value still loses.
    await conn.query('INSERT INTO u VALUES (25, 99)');
    await conn.query("INSERT INTO s VALUES (1, 'late', 5), (2, 'new', 500)");
    assert.deepEqual(await queryRows(conn, 'SELECT load_no FROM u WHERE id = 25'), [['99']]);
    assert.deepEqual(await queryRows(conn, 'SELECT id, v FROM s ORDER BY id'), [['1', 'l0'], ['2', 'new'], ['3', 'l0']]);
    const [[count, distinct]] = await queryRows(conn, 'SELECT count(*), count(DISTINCT id) FROM u');
    assert.equal(count, distinct);
    await conn.end();
  } finally {
    await server.stop();
  }
});
