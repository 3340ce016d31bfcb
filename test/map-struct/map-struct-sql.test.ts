/**
 * MAP and STRUCT columns end to end on a real server: Stream Load CSV (Doris's `{"k":1}` text) and JSON
 * (native objects), a malformed map is a filtered row with its reason, compaction merges rowsets holding
 * them, and a restart reads them back from the segments.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlGet, curlLoad } from '../stream-load/helpers';

let server: GaleneProcess;
let conn: Connection;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-map-'));

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port, { charset: 'utf8mb4' });
  await conn.query('CREATE DATABASE ms');
  await conn.query('USE ms');
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

function loadUrl(table: string): string {
  return `http://127.0.0.1:${server.ports.http_port}/api/ms/${table}/_stream_load`;
}

async function versionCount(table: string): Promise<number> {
  const rows = await queryRows(conn, `SHOW TABLETS FROM ${table}`);
  return rows.reduce((sum, row) => sum + Number(row[2]), 0);
}

test('Stream Load: CSV map and struct text, JSON objects, a malformed map is a filtered row with its reason', async () => {
  await conn.query('CREATE TABLE ev (id INT, attrs MAP<STRING, INT>, who STRUCT<name:STRING, age:INT>) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
  const csv = path.join(work, 'ev.csv');
  fs.writeFileSync(csv, '1|{"a":1, "b":2}|{"name": "ann", "age": 30}\n2|{}|\\N\n3|{"a":1|{"name": "x"}\n4|{"k":null}|{"bob", 41}\n');
  const loaded = await curlLoad(loadUrl('ev'), csv, ['column_separator:|', 'max_filter_ratio:0.5']);
  assert.equal(loaded.json.Status, 'Success', loaded.body);
  assert.equal(loaded.json.NumberLoadedRows, 3);
  assert.equal(loaded.json.NumberFilteredRows, 1);
  const log = await curlGet(String(loaded.json.ErrorURL));
  assert.match(log.body, /Line: 3; Reason: column\(attrs\) value is not a valid map<string,int>, src value is \{"a":1;/);
  const json = path.join(work, 'ev.json');
  fs.writeFileSync(json, '{"id": 5, "attrs": {"x": 5, "y": null}, "who": {"name": "cy", "age": 7}}\n{"id": 6, "attrs": null, "who": {"age": 8}}\n');
  const fromJson = await curlLoad(loadUrl('ev'), json, ['format:json', 'read_json_by_line:true']);
  assert.equal(fromJson.json.NumberLoadedRows, 2, fromJson.body);
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM ev ORDER BY id'), [
    ['1', '{"a":1, "b":2}', '{"name":"ann", "age":30}'],
    ['2', '{}', null],
    ['4', '{"k":null}', '{"name":"bob", "age":41}'],
    ['5', '{"x":5, "y":null}', '{"name":"cy", "age":7}'],
    ['6', null, '{"name":null, "age":8}'],
  ]);
  assert.deepEqual(await queryRows(conn, "SELECT id, attrs['a'], struct_element(who, 'name') FROM ev WHERE map_contains_key(attrs, 'a') ORDER BY id"), [['1', '1', 'ann']]);
});

test('compaction merges rowsets of maps and structs; a restart reads them back; SHOW CREATE TABLE prints the types', async () => {
  await conn.query('CREATE TABLE cm (id INT, m MAP<INT, STRING>, s STRUCT<a:INT, b:ARRAY<STRING>>) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  for (let load = 0; load < 6; load++) await conn.query(`INSERT INTO cm VALUES (${load}, map(${load}, 'v${load}'), named_struct('a', ${load}, 'b', ['x${load}']))`);
  const expected = Array.from({ length: 6 }, (_v, load) => [String(load), `{${load}:"v${load}"}`, `{"a":${load}, "b":["x${load}"]}`]);
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM cm ORDER BY id'), expected);
  const deadline = Date.now() + 60_000;
  while ((await versionCount('cm')) >= 6) {
    assert.ok(Date.now() < deadline, `compaction merged rowsets within 60 s; server log: ${server.stderr().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM cm ORDER BY id'), expected, 'after compaction');
  await conn.end();
  await server.stop();
  server = await startGalene({ dataDir: server.dataDir });
  conn = await connect(server.ports.query_port, { charset: 'utf8mb4', database: 'ms' });
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM cm ORDER BY id'), expected, 'after restart');
  const create = String((await queryRows(conn, 'SHOW CREATE TABLE cm'))[0][1]);
  assert.match(create, /`m` map<int,text> NULL/);
  assert.match(create, /`s` struct<a:int,b:array<text>> NULL/);
});

test('UNIQUE KEY tables keep the latest map and struct; group commit carries them through the WAL batch', async () => {
  await conn.query('CREATE TABLE uq (id INT, m MAP<STRING, DOUBLE>, s STRUCT<x:INT, y:STRING>) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  await conn.query(`INSERT INTO uq VALUES (1, map('a', 1.5), struct(1, 'old')), (2, NULL, NULL)`);
  await conn.query(`INSERT INTO uq VALUES (1, map('a', 2.5, 'b', NULL), struct(2, 'new'))`);
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM uq ORDER BY id'), [
    ['1', '{"a":2.5, "b":null}', '{"x":2, "y":"new"}'],
    ['2', null, null],
  ]);
  const csv = path.join(work, 'gc.csv');
  fs.writeFileSync(csv, '3|{"k":1}|{"x": 3, "y": "g"}\n4|\\N|\\N\n');
  const result = await curlLoad(loadUrl('uq'), csv, ['column_separator:|', 'group_commit:sync_mode']);
  assert.equal(result.json.Status, 'Success', result.body);
  assert.equal(result.json.GroupCommit, true);
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM uq WHERE id > 2 ORDER BY id'), [
    ['3', '{"k":1}', '{"x":3, "y":"g"}'],
    ['4', null, null],
  ]);
});
