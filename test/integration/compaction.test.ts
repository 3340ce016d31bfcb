/**
 * Background compaction keeps a tablet's version count small without changing what queries return.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startGalene, updateBackendConfig } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

async function versionCount(conn: Awaited<ReturnType<typeof connect>>, table: string): Promise<number> {
  const rows = await queryRows(conn, `SHOW TABLETS FROM ${table}`);
  return rows.reduce((sum, row) => sum + Number(row[2]), 0);
}

test('small rowsets are merged; UNIQUE, AGGREGATE and DUPLICATE results are unchanged', async () => {
  // Compaction starts only once the test has seen all 12 versions (under load it could merge them first).
  const server = await startGalene({ args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE comp');
    await conn.query('USE comp');
    await conn.query('CREATE TABLE u (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await conn.query('CREATE TABLE a (k INT, s BIGINT SUM, m INT MAX) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await conn.query('CREATE TABLE d (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    for (let load = 0; load < 12; load++) {
      await conn.query(`INSERT INTO u VALUES (${load % 3}, ${load}), (${100 + load}, ${load})`);
      await conn.query(`INSERT INTO a VALUES (${load % 3}, ${load}, ${load}), (7, 1, ${100 - load})`);
      await conn.query(`INSERT INTO d VALUES (${load}, ${load})`);
    }
    const before = {
      u: await queryRows(conn, 'SELECT k, v FROM u ORDER BY k'),
      a: await queryRows(conn, 'SELECT k, s, m FROM a ORDER BY k'),
      d: await queryRows(conn, 'SELECT count(*), sum(v) FROM d'),
    };
    assert.deepEqual(before.u.slice(0, 3), [['0', '9'], ['1', '10'], ['2', '11']]);
    assert.equal(await versionCount(conn, 'u'), 12);
    await updateBackendConfig(server.ports.webserver_port, 'disable_auto_compaction=false');
    const deadline = Date.now() + 30_000;
    while ((await versionCount(conn, 'u')) >= 5 || (await versionCount(conn, 'a')) >= 5 || (await versionCount(conn, 'd')) >= 5) {
      assert.ok(Date.now() < deadline, 'compaction reduced the version counts within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.deepEqual(await queryRows(conn, 'SELECT k, v FROM u ORDER BY k'), before.u);
    assert.deepEqual(await queryRows(conn, 'SELECT k, s, m FROM a ORDER BY k'), before.a);
    assert.deepEqual(await queryRows(conn, 'SELECT count(*), sum(v) FROM d'), before.d);
    const metrics = await (await fetch(`http://127.0.0.1:${server.ports.webserver_port}/metrics`)).text();
    assert.match(metrics, /doris_be_compaction_cumulative_total [1-9]/);
    assert.match(metrics, /doris_be_max_tablet_version_num [1-4]\n/);
    // Newer loads still win over the compacted rowset.
    await conn.query('INSERT INTO u VALUES (0, -1)');
    assert.deepEqual(await queryRows(conn, 'SELECT v FROM u WHERE k = 0'), [['-1']]);
    await conn.end();
  } finally {
    await server.stop();
  }
});
