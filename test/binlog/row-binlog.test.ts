/**
 * The row binlog through a real server (mysql2 and curl): the "binlog.enable" table property (CREATE,
 * ALTER, SHOW CREATE TABLE, Doris-style errors), every load kind logging its rows with their operation
 * and commit version (INSERT, INSERT ... SELECT, prepared INSERT, Stream Load CSV and JSON, Group Commit
 * sync and async, DELETE, UPDATE, merge-on-write upserts, Stream Load MERGE deletes, explicit
 * transactions), read with binlog() under WHERE / ORDER BY / LIMIT / aggregation and SELECT_PRIV,
 * invisible to SELECT *, kept across a restart and dropped with the table.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type * as mysql from 'mysql2/promise';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { storedObjectKeys } from '../helpers/storage-matrix';
import { insertInfo, waitForRows } from '../group-commit/helpers';
import { curlLoad } from '../stream-load/helpers';

let server: GaleneProcess;
let conn: mysql.Connection;

const BINLOG = '"binlog.enable" = "true"';

before(async () => {
  server = await startGalene({ args: ['--disable_auto_compaction', 'true'] });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE bl');
  await conn.query('USE bl');
});

after(async () => {
  conn?.destroy();
  await server?.stop();
});

/** The table's row binlog as [k, v, __op, __version, __seq] text rows. */
async function binlog(table: string, extra = ''): Promise<(string | null)[][]> {
  return queryRows(conn, `SELECT k, v, __op, __version, __seq FROM binlog("bl.${table}") ${extra}`);
}

function visibleVersion(rows: (string | null)[][]): number {
  return Number(rows[rows.length - 1][3]);
}

test('binlog.enable: CREATE, SHOW CREATE TABLE, ALTER on and off, bad values refused', async () => {
  await conn.query(`CREATE TABLE p1 (k INT, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES (${BINLOG}, "binlog.ttl_seconds" = "3600")`);
  const [[, ddl]] = await queryRows(conn, 'SHOW CREATE TABLE p1');
  assert.match(ddl!, /"binlog\.enable" = "true"/);
  assert.match(ddl!, /"binlog\.ttl_seconds" = "3600"/);
  await assert.rejects(conn.query('CREATE TABLE p2 (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("binlog.enable" = "yes")'), /Invalid binlog.enable value: yes/);
  await assert.rejects(conn.query('CREATE TABLE p2 (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("binlog.ttl_seconds" = "-1")'), /Invalid binlog.ttl_seconds value: -1/);
  await assert.rejects(conn.query('CREATE TABLE p2 (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("binlog.format" = "SQL")'), /Invalid binlog.format value: SQL/);
  await assert.rejects(conn.query('ALTER TABLE p1 SET ("binlog.need_historical_value" = "true")'), /need_historical_value = true is not supported/);
  await assert.rejects(conn.query('ALTER TABLE p1 SET ("binlog.enable" = "1")'), /Invalid binlog.enable value: 1/);

  await conn.query("INSERT INTO p1 VALUES (1, 'a'), (2, 'b')");
  await conn.query('ALTER TABLE p1 SET ("binlog.enable" = "false")');
  assert.doesNotMatch((await queryRows(conn, 'SHOW CREATE TABLE p1'))[0][1]!, /"binlog\.enable" = "true"/);
  await conn.query("INSERT INTO p1 VALUES (3, 'c')");
  await conn.query('ALTER TABLE p1 SET ("binlog.enable" = "true")');
  await conn.query("INSERT INTO p1 VALUES (4, 'd')");
  const rows = await binlog('p1', 'ORDER BY __version, __seq');
  assert.deepEqual(
    rows.map((row) => [row[0], row[2]]),
    [
      ['1', 'INSERT'],
      ['2', 'INSERT'],
      ['4', 'INSERT'],
    ],
    'the load made while the binlog was off is not logged',
  );
  assert.equal(rows[0][3], rows[1][3], 'one load: one version');
  assert.ok(Number(rows[2][3]) > Number(rows[0][3]) + 1, 'the unlogged load took a version in between');
  // A table that never had a row binlog.
  await conn.query('CREATE TABLE plain (k INT, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  await assert.rejects(conn.query('SELECT * FROM binlog("bl.plain")'), /Table bl\.plain has no row binlog/);
  await assert.rejects(conn.query('SELECT * FROM binlog("bl.nope")'), /Unknown table|doesn't exist|does not exist/i);
  await assert.rejects(conn.query('SELECT * FROM binlog("bl.p1", "x")'), /from_version must be a non-negative integer/);
});

test('every load kind logs its rows with the operation and the commit version; SELECT * never shows them', async () => {
  await conn.query(`CREATE TABLE d (k INT, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES (${BINLOG}, "group_commit_interval_ms" = "200")`);
  await conn.query("INSERT INTO d VALUES (1, 'insert'), (2, 'insert')");
  await conn.query('CREATE TABLE src (k INT, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  await conn.query("INSERT INTO src VALUES (10, 'select'), (11, 'select'), (12, 'select')");
  await conn.query('INSERT INTO d SELECT * FROM src');
  await conn.execute('INSERT INTO d VALUES (?, ?)', [20, 'prepared']);
  const csv = path.join(server.dataDir, 'd.csv');
  fs.writeFileSync(csv, '30,csv\n31,csv\n');
  const csvLoad = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/bl/d/_stream_load`, csv, ['column_separator:,']);
  assert.equal(csvLoad.json.Status, 'Success', csvLoad.body);
  const json = path.join(server.dataDir, 'd.json');
  fs.writeFileSync(json, '{"k": 40, "v": "json"}\n{"k": 41, "v": "json"}\n');
  const jsonLoad = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/bl/d/_stream_load`, json, ['format:json', 'read_json_by_line:true']);
  assert.equal(jsonLoad.json.Status, 'Success', jsonLoad.body);
  await conn.query('SET group_commit = sync_mode');
  await insertInfo(conn, "INSERT INTO d VALUES (50, 'gc_sync')");
  await conn.query('SET group_commit = async_mode');
  await insertInfo(conn, "INSERT INTO d VALUES (60, 'gc_async')");
  await conn.query('SET group_commit = off_mode');
  await waitForRows(conn, 'SELECT count(*) FROM d WHERE k = 60', (rows) => rows[0][0] === '1');
  await conn.query('BEGIN');
  await conn.query("INSERT INTO d VALUES (70, 'txn')");
  await conn.query("INSERT INTO d VALUES (71, 'txn')");
  await conn.query('COMMIT');
  await conn.query('DELETE FROM d WHERE k = 1');

  const rows = await binlog('d');
  assert.deepEqual(
    rows.map((row) => `${row[0]} ${row[1]} ${row[2]}`),
    ['1 insert INSERT', '2 insert INSERT', '10 select INSERT', '11 select INSERT', '12 select INSERT', '20 prepared INSERT', '30 csv INSERT', '31 csv INSERT', '40 json INSERT', '41 json INSERT', '50 gc_sync INSERT', '60 gc_async INSERT', '70 txn INSERT', '71 txn INSERT', '1 insert DELETE'],
    'binlog() returns the rows in version then sequence order',
  );
  const versions = rows.map((row) => Number(row[3]));
  assert.ok(versions.every((version, idx) => idx === 0 || version >= versions[idx - 1]), `versions are monotone: ${versions}`);
  assert.equal(new Set(versions).size, 9, 'nine loads (the two-statement transaction is one), nine versions');
  // The sequence numbers a load's rows in the order it wrote them.
  const byVersion = new Map<number, number[]>();
  rows.forEach((row) => byVersion.set(Number(row[3]), [...(byVersion.get(Number(row[3])) ?? []), Number(row[4])]));
  for (const seqs of byVersion.values()) assert.deepEqual(seqs, seqs.map((_, idx) => idx));
  // The versions are the table's commit versions: the data rowsets' too (SHOW TABLETS' newest version).
  const [[count]] = await queryRows(conn, 'SELECT count(*) FROM d');
  assert.equal(count, '13', 'the data: 14 rows loaded, 1 deleted — the change log adds none');
  const star = await queryRows(conn, 'SELECT * FROM d ORDER BY k LIMIT 1');
  assert.equal(star[0].length, 2, 'SELECT * has the table columns only');
  // Any SQL around it.
  assert.deepEqual(await queryRows(conn, `SELECT __op, count(*) FROM binlog("bl.d") GROUP BY __op ORDER BY __op`), [['DELETE', '1'], ['INSERT', '14']]);
  assert.deepEqual(await queryRows(conn, `SELECT k FROM binlog("bl.d") WHERE v = 'csv' ORDER BY k DESC LIMIT 1`), [['31']]);
  const last = visibleVersion(rows);
  assert.deepEqual(await queryRows(conn, `SELECT k, __op FROM binlog("bl.d", ${last}) b`), [['1', 'DELETE']], 'from_version');
  assert.deepEqual((await queryRows(conn, `SELECT k FROM binlog("bl.d", 0, ${versions[2]}) ORDER BY k`)).map((row) => row[0]), ['1', '2', '10', '11', '12'], 'to_version');
  assert.deepEqual(await queryRows(conn, `SELECT b.k, s.v FROM binlog("d") AS b JOIN src s ON b.k = s.k ORDER BY b.k`), [['10', 'select'], ['11', 'select'], ['12', 'select']], 'a join, the table in the current database');
});

test('UNIQUE KEY merge-on-write: upserts are UPSERT, UPDATE logs the new row, DELETE and Stream Load MERGE log DELETE', async () => {
  await conn.query(`CREATE TABLE u (k INT, v VARCHAR(20)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES (${BINLOG})`);
  await conn.query("INSERT INTO u VALUES (1, 'one'), (2, 'two'), (3, 'three')");
  await conn.query("INSERT INTO u VALUES (1, 'uno')");
  await conn.query("UPDATE u SET v = 'dos' WHERE k = 2");
  await conn.query('DELETE FROM u WHERE k = 3');
  const csv = path.join(server.dataDir, 'u.csv');
  fs.writeFileSync(csv, '1,x\n');
  const merge = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/bl/u/_stream_load`, csv, ['column_separator:,', 'merge_type:DELETE']);
  assert.equal(merge.json.Status, 'Success', merge.body);
  assert.deepEqual(
    (await binlog('u')).map((row) => `${row[0]} ${row[1]} ${row[2]}`),
    ['1 one UPSERT', '2 two UPSERT', '3 three UPSERT', '1 uno UPSERT', '2 dos UPSERT', '3 three DELETE', '1 x DELETE'],
  );
  assert.deepEqual(await queryRows(conn, 'SELECT k, v FROM u ORDER BY k'), [['2', 'dos']]);
});

test('TRUNCATE TABLE drops the row binlog with the data; later loads log again', async () => {
  await conn.query(`CREATE TABLE tr (k INT, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES (${BINLOG})`);
  await conn.query("INSERT INTO tr VALUES (1, 'before')");
  await conn.query('TRUNCATE TABLE tr');
  assert.deepEqual(await binlog('tr'), []);
  await conn.query("INSERT INTO tr VALUES (2, 'after')");
  assert.deepEqual((await binlog('tr')).map((row) => row[1]), ['after']);
});

test('SELECT_PRIV on the table is needed to read its binlog', async () => {
  await conn.query("CREATE USER 'reader'@'%' IDENTIFIED BY 'pw'");
  await conn.query("GRANT SELECT_PRIV ON bl.d TO 'reader'@'%'");
  const reader = await connect(server.ports.query_port, { user: 'reader', password: 'pw' });
  try {
    assert.ok((await queryRows(reader, 'SELECT count(*) FROM binlog("bl.d")'))[0][0] !== '0');
    await assert.rejects(reader.query('SELECT count(*) FROM binlog("bl.u")'), { errno: 1142 });
  } finally {
    reader.destroy();
  }
});

test('the binlog survives a restart and goes with DROP TABLE', async () => {
  const before = await binlog('u');
  conn.destroy();
  await server.stop();
  server = await startGalene({ dataDir: server.dataDir, args: ['--disable_auto_compaction', 'true'] });
  conn = await connect(server.ports.query_port, { database: 'bl' });
  assert.deepEqual(await binlog('u'), before);
  // Change-log objects of u's tablets, wherever the server stores them (local directory or the S3 matrix's bucket).
  const tabletIds = (await queryRows(conn, 'SHOW TABLETS FROM u')).map((row) => row[0]);
  const files = async (): Promise<string[]> => (await storedObjectKeys(server.dataDir)).filter((name) => name.includes('_binlog_') && tabletIds.some((id) => name.includes(`data/${id}/`)));
  assert.ok((await files()).length > 0, 'change-log segment files of u exist');
  await conn.query('DROP TABLE u');
  assert.deepEqual(await files(), [], 'DROP TABLE deleted them');
  await assert.rejects(conn.query('SELECT * FROM binlog("bl.u")'), /Unknown table|doesn't exist|does not exist/i);
});
