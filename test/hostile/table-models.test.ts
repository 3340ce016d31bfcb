/**
 * Hostile input for the table models: partial column updates where Doris refuses them (a table that is
 * not merge-on-write UNIQUE KEY, a new key whose NOT NULL column has no value) fail with Doris's message
 * and change nothing; odd strings (empty, NUL bytes, NULL) in AGGREGATE MIN/MAX and a NULL sequence value
 * merge the same on flush and on read; a table dropped or truncated while its compaction waits to swap
 * fails that compaction cleanly (no rowset of the dropped table comes back, nothing is left behind) and
 * the server keeps answering.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import type { RunningGalene } from '../../src/fe/galene-server';
import { makeDataDir } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { storedObjectKeys } from '../helpers/storage-matrix';
import { curlLoad } from '../stream-load/helpers';
import { pauseAfterMerge, startInProcess } from '../table-models/in-process';

let server: RunningGalene;
let conn: Connection;
let dataDir: string;

before(async () => {
  dataDir = makeDataDir('galene-hostile-models-');
  server = await startInProcess(dataDir);
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE hm');
  await conn.query('USE hm');
});

after(async () => {
  await conn.end();
  await server.stop();
});

const url = (table: string): string => `http://127.0.0.1:${server.ports.webserver_port}/api/hm/${table}/_stream_load`;

function file(name: string, text: string): string {
  const full = path.join(dataDir, name);
  fs.writeFileSync(full, text);
  return full;
}

test('partial_columns on a table that is not merge-on-write UNIQUE KEY fails and changes nothing', async () => {
  await conn.query('CREATE TABLE dup (k INT, a INT, b INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  await conn.query('CREATE TABLE mor (k INT, a INT, b INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "false")');
  await conn.query('CREATE TABLE agg (k INT, a INT SUM, b INT MAX) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  for (const table of ['dup', 'mor', 'agg']) {
    await conn.query(`INSERT INTO ${table} VALUES (1, 1, 1)`);
    const result = await curlLoad(url(table), file(`${table}.csv`, '1,5\n2,6\n'), ['column_separator:,', 'partial_columns:true', 'columns:k,a']);
    assert.equal(result.json.Status, 'Fail', result.body);
    assert.match(String(result.json.Message), /Only unique key merge on write support partial update/);
    await conn.query('SET enable_unique_key_partial_update = true');
    await conn.query(`INSERT INTO ${table} (k, a) VALUES (3, 7)`); // Doris: whole rows when the table cannot take partial updates
    await conn.query('SET enable_unique_key_partial_update = false');
    assert.deepEqual(await queryRows(conn, `SELECT k, a, b FROM ${table} ORDER BY k`), [
      ['1', '1', '1'],
      ['3', '7', null],
    ]);
  }
});

test('a partial update that would insert a key without its NOT NULL column fails whole; a concurrent one succeeds', async () => {
  await conn.query('CREATE TABLE req (k INT, a INT, need INT NOT NULL) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
  await conn.query('INSERT INTO req VALUES (1, 1, 10), (2, 2, 20)');
  const other = await connect(server.ports.query_port, { database: 'hm' });
  await conn.query('SET enable_unique_key_partial_update = true');
  await other.query('SET enable_unique_key_partial_update = true');
  const [bad, good] = await Promise.allSettled([conn.query('INSERT INTO req (k, a) VALUES (1, 100), (9, 900)'), other.query('INSERT INTO req (k, a) VALUES (2, 200)')]);
  assert.equal(bad.status, 'rejected');
  assert.match(String((bad as PromiseRejectedResult).reason.message), /the unmentioned column `need` should have default value or be nullable for newly inserted rows in partial update/);
  assert.equal(good.status, 'fulfilled');
  await conn.query('SET enable_unique_key_partial_update = false');
  assert.deepEqual(await queryRows(conn, 'SELECT k, a, need FROM req ORDER BY k'), [
    ['1', '1', '10'],
    ['2', '200', '20'],
  ]);
  await other.end();
});

test('empty strings, NUL bytes and NULLs merge alike on flush and on read', async () => {
  await conn.query('CREATE TABLE s (k INT, mn VARCHAR(8) MIN, mx VARCHAR(8) MAX, r VARCHAR(8) REPLACE_IF_NOT_NULL) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  const rows: [string | null, string | null, string | null][] = [
    ['b', 'b', 'x'],
    ['', '', null],
    [null, null, null],
    ['\u0000', 'b\u0000', null],
  ];
  await conn.query(`INSERT INTO s VALUES ${rows.map(() => '(1, ?, ?, ?)').join(', ')}`, rows.flat());
  for (const row of rows) await conn.query('INSERT INTO s VALUES (2, ?, ?, ?)', row);
  const expected = ['', 'b\u0000', 'x'];
  assert.deepEqual(await queryRows(conn, 'SELECT k, mn, mx, r FROM s ORDER BY k'), [
    ['1', ...expected],
    ['2', ...expected],
  ]);
  // A NULL sequence value never wins over a real one (merge-on-read UNIQUE KEY).
  await conn.query('CREATE TABLE sq (k INT, seq INT NULL, v VARCHAR(8)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "false", "function_column.sequence_col" = "seq")');
  await conn.query("INSERT INTO sq VALUES (1, 1, 'real'), (2, 1, 'real')");
  await conn.query("INSERT INTO sq VALUES (1, NULL, 'null-seq')");
  assert.deepEqual(await queryRows(conn, 'SELECT k, seq, v FROM sq ORDER BY k'), [
    ['1', '1', 'real'],
    ['2', '1', 'real'],
  ]);
});

for (const change of ['DROP TABLE', 'TRUNCATE TABLE'] as const) {
  test(`${change} while a merge-on-write compaction waits to swap fails the compaction cleanly`, async () => {
    const name = change === 'DROP TABLE' ? 'gone' : 'emptied';
    await conn.query(`CREATE TABLE ${name} (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`);
    for (let load = 0; load < 3; load++) await conn.query(`INSERT INTO ${name} VALUES (1, ${load}), (${10 + load}, ${load})`);
    const frontend = server.frontend;
    const table = frontend.catalog.getTable('hm', name);
    const pause = pauseAfterMerge(frontend.compaction);
    const compaction = frontend.compaction.compactTablet(table, table.tablets[0].id, table.rowsets);
    compaction.catch(() => undefined);
    await pause.reached;
    await conn.query(`${change} ${name}`);
    pause.release();
    await assert.rejects(compaction, /was dropped during compaction|compaction inputs of tablet \d+ changed/);
    if (change === 'TRUNCATE TABLE') {
      assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM ${name}`), [['0']]);
      await conn.query(`INSERT INTO ${name} VALUES (1, 1)`);
      assert.deepEqual(await queryRows(conn, `SELECT k, v FROM ${name}`), [['1', '1']]);
    } else {
      await assert.rejects(conn.query(`SELECT * FROM ${name}`), /Unknown table|doesn't exist/);
    }
    // The merged segments of the failed compaction are gone: only visible rowsets' files stay (the one
    // segment of the INSERT after TRUNCATE and its primary-key index).
    const files = (await storedObjectKeys(dataDir)).filter((key) => key.split('/').at(-2) === String(table.tablets[0].id)).map((key) => key.split('/').at(-1)!);
    const segment = files.find((file) => file.endsWith('.dat'))?.slice(0, -'.dat'.length);
    assert.deepEqual(files, change === 'TRUNCATE TABLE' ? [`${segment}.__primary_key.idx`, `${segment}.dat`] : []);
    assert.deepEqual(await queryRows(conn, 'SELECT 1'), [['1']]);
  });
}
