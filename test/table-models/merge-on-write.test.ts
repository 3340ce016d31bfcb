/**
 * UNIQUE KEY merge-on-write against merge-on-read: the same random upsert stream (INSERTs with repeated
 * keys, multi-batch Stream Loads, explicit transactions, DELETE by key, UPDATE) into a table with
 * enable_unique_key_merge_on_write = true and one with false gives the same answers — with the scan
 * workers on, so merge-on-write scans run in parallel — and on the merge-on-write table a predicate on a
 * value column prunes segments (it cannot on merge-on-read). Affected-row counts of DELETE and UPDATE are
 * checked too, and the answers survive a restart (delete bitmaps are durable).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { mulberry32 } from '../../src/common/prng';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';

const random = mulberry32(7);
const KEYS = 400;

async function profileOf(conn: Connection, sql: string): Promise<Map<string, string>> {
  await queryRows(conn, sql);
  const [[id]] = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
  return new Map((await queryRows(conn, `SHOW QUERY PROFILE "/${id}"`)).map(([name, value]) => [name!, value!]));
}

const QUERIES = [
  'SELECT k, v, s, n FROM TBL ORDER BY k',
  'SELECT count(*), sum(v), min(s), max(n) FROM TBL',
  'SELECT k, v FROM TBL WHERE v > 500 ORDER BY k',
  "SELECT s, count(*), sum(v) FROM TBL WHERE s <> 'x' GROUP BY s ORDER BY s",
  'SELECT count(*) FROM TBL WHERE n IS NULL',
];

test('merge-on-write gives the merge-on-read answers for a random upsert stream, in parallel, with value predicates pruning', async () => {
  const dataDir = makeDataDir('galene-mow-');
  const files = makeDataDir('galene-mow-files-');
  let server = await startGalene({ dataDir, args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '100', '--disable_auto_compaction', 'true'] });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE mow');
    await conn.query('USE mow');
    const columns = '(k INT, v INT, s VARCHAR(8), n BIGINT)';
    await conn.query(`CREATE TABLE t_mow ${columns} UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3`);
    await conn.query(`CREATE TABLE t_mor ${columns} UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES ('enable_unique_key_merge_on_write' = 'false')`);
    const [[, created]] = await queryRows(conn, 'SHOW CREATE TABLE t_mow');
    assert.ok(String(created).includes('"enable_unique_key_merge_on_write" = "true"'), String(created));
    const row = (): string => `(${Math.floor(random() * KEYS)}, ${Math.floor(random() * 1000)}, ${random() < 0.1 ? 'NULL' : `'${['x', 'yy', 'zzz'][Math.floor(random() * 3)]}'`}, ${random() < 0.1 ? 'NULL' : Math.floor(random() * 1e9)})`;
    const both = async (sql: string): Promise<[unknown, unknown]> => {
      const [mow] = await conn.query(sql.replace(/TBL/g, 't_mow'));
      const [mor] = await conn.query(sql.replace(/TBL/g, 't_mor'));
      return [mow, mor];
    };
    for (let step = 0; step < 30; step++) {
      const dice = random();
      if (dice < 0.55) {
        const values = Array.from({ length: 20 + Math.floor(random() * 200) }, row).join(',');
        await both(`INSERT INTO TBL VALUES ${values}`);
      } else if (dice < 0.7) {
        // A Stream Load of several batches (segments) in one transaction, keys repeating across batches.
        const lines = Array.from({ length: 3000 }, () => row().slice(1, -1).replace(/'/g, '').replace(/NULL/g, '\\N').replace(/, /g, ',')).join('\n') + '\n';
        const file = path.join(files, `load-${step}.csv`);
        fs.writeFileSync(file, lines);
        for (const table of ['t_mow', 't_mor']) {
          const result = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/mow/${table}/_stream_load`, file, ['column_separator:,', 'exec_mem_limit:4096']);
          assert.equal(result.json.Status, 'Success', result.body);
        }
      } else if (dice < 0.8) {
        const first = Array.from({ length: 30 }, row).join(',');
        const second = Array.from({ length: 30 }, row).join(',');
        for (const table of ['t_mow', 't_mor']) {
          await conn.query('BEGIN');
          await conn.query(`INSERT INTO ${table} VALUES ${first}`);
          await conn.query(`INSERT INTO ${table} VALUES ${second}`);
          await conn.query('COMMIT');
        }
      } else if (dice < 0.9) {
        const keys = Array.from({ length: 15 }, () => Math.floor(random() * KEYS)).join(',');
        const [mow, mor] = (await both(`DELETE FROM TBL WHERE k IN (${keys})`)) as [{ affectedRows: number }, { affectedRows: number }];
        assert.equal(mow.affectedRows, mor.affectedRows, 'DELETE counts the rows it removes');
      } else {
        const low = Math.floor(random() * KEYS);
        const [mow, mor] = (await both(`UPDATE TBL SET v = v + 1, s = 'upd' WHERE k BETWEEN ${low} AND ${low + 20}`)) as [{ affectedRows: number }, { affectedRows: number }];
        assert.equal(mow.affectedRows, mor.affectedRows, 'UPDATE counts the rows it changes');
      }
      if (step % 10 === 9) {
        for (const sql of QUERIES) assert.deepEqual(await queryRows(conn, sql.replace(/TBL/g, 't_mow')), await queryRows(conn, sql.replace(/TBL/g, 't_mor')), `${sql} after step ${step}`);
      }
    }
    const [[visible]] = await queryRows(conn, 'SELECT count(*) FROM t_mow');
    assert.ok(Number(visible) > 100 && Number(visible) <= KEYS, `rows ${visible}`);
    const parallel = await profileOf(conn, 'SELECT count(*), sum(v) FROM t_mow WHERE v > 10');
    assert.ok(Number(parallel.get('ParallelScanTasks') ?? 0) >= 2, `merge-on-write scans in the workers: ${JSON.stringify([...parallel])}`);
    const inThread = await profileOf(conn, 'SELECT count(*), sum(v) FROM t_mor WHERE v > 10');
    assert.equal(inThread.get('ParallelScanTasks'), undefined, 'merge-on-read merges in-thread');

    // Value-column pruning: one load of small values, one of large ones; v >= 5000 skips the first load's segments.
    await conn.query(`CREATE TABLE p_mow (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`);
    await conn.query(`CREATE TABLE p_mor (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ('enable_unique_key_merge_on_write' = 'false')`);
    for (const table of ['p_mow', 'p_mor']) {
      await conn.query(`INSERT INTO ${table} VALUES ${Array.from({ length: 500 }, (_v, idx) => `(${idx}, ${idx})`).join(',')}`);
      await conn.query(`INSERT INTO ${table} VALUES ${Array.from({ length: 500 }, (_v, idx) => `(${1000 + idx}, ${5000 + idx})`).join(',')}`);
    }
    const pruned = await profileOf(conn, 'SELECT k, v FROM p_mow WHERE v >= 5000 AND v < 5003 ORDER BY k');
    const unpruned = await profileOf(conn, 'SELECT k, v FROM p_mor WHERE v >= 5000 AND v < 5003 ORDER BY k');
    assert.ok(Number(pruned.get('PagesPruned') ?? 0) >= 1, `merge-on-write prunes by a value column: ${JSON.stringify([...pruned])}`);
    assert.equal(unpruned.get('PagesPruned'), undefined, 'merge-on-read cannot prune by a value column');
    assert.ok(Number(pruned.get('RowsRead')) < Number(unpruned.get('RowsRead')), `rows read ${pruned.get('RowsRead')} < ${unpruned.get('RowsRead')}`);
    assert.deepEqual(await queryRows(conn, 'SELECT k, v FROM p_mow WHERE v >= 5000 AND v < 5003 ORDER BY k'), [['1000', '5000'], ['1001', '5001'], ['1002', '5002']]);

    const before = await Promise.all(QUERIES.map((sql) => queryRows(conn, sql.replace(/TBL/g, 't_mow'))));
    await conn.end();
    await server.stop();
    server = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true'] });
    const conn2 = await connect(server.ports.query_port);
    await conn2.query('USE mow');
    for (let queryIdx = 0; queryIdx < QUERIES.length; queryIdx++) {
      assert.deepEqual(await queryRows(conn2, QUERIES[queryIdx].replace(/TBL/g, 't_mow')), before[queryIdx], `after restart: ${QUERIES[queryIdx]}`);
    }
    await conn2.end();
  } finally {
    await server.stop();
  }
});

test('DELETE and UPDATE report the rows they change, on every model', async () => {
  const server = await startGalene({ args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE cnt');
    await conn.query('USE cnt');
    await conn.query('CREATE TABLE mow (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query("CREATE TABLE mor (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ('enable_unique_key_merge_on_write' = 'false')");
    await conn.query('CREATE TABLE dup (k INT, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    const affected = async (sql: string): Promise<number> => ((await conn.query(sql))[0] as { affectedRows: number }).affectedRows;
    for (const table of ['mow', 'mor', 'dup']) {
      await conn.query(`INSERT INTO ${table} VALUES (1, 10), (2, 20), (3, 30), (4, 40)`);
      await conn.query(`INSERT INTO ${table} VALUES (1, 11), (5, 50)`);
    }
    assert.equal(await affected('DELETE FROM mow WHERE v >= 30'), 3);
    assert.equal(await affected('DELETE FROM mow WHERE v >= 30'), 0, 'deleted rows are gone');
    assert.equal(await affected('UPDATE mow SET v = v * 2 WHERE k <= 2'), 2);
    assert.deepEqual(await queryRows(conn, 'SELECT k, v FROM mow ORDER BY k'), [['1', '22'], ['2', '40']]);
    assert.equal(await affected('DELETE FROM mor WHERE k > 3'), 2);
    assert.equal(await affected('UPDATE mor SET v = 0 WHERE k = 1'), 1);
    assert.deepEqual(await queryRows(conn, 'SELECT k, v FROM mor ORDER BY k'), [['1', '0'], ['2', '20'], ['3', '30']]);
    assert.equal(await affected('DELETE FROM dup WHERE k = 1'), 2, 'both stored rows of key 1');
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM dup'), [['4']]);
    await conn.end();
  } finally {
    await server.stop();
  }
});
