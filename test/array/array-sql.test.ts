/**
 * ARRAY<T> end to end on a real server: DDL and Doris's type text, literals and functions, INSERT VALUES /
 * SELECT, the MySQL text and binary protocols through mysql2 (arrays go as text), prepared parameters, the
 * mariadb CLI, Stream Load CSV and JSON with curl (a malformed array is a filtered row with its reason in
 * the ErrorURL log), group commit, restart, compaction and the UNIQUE KEY merge.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlGet, curlLoad } from '../stream-load/helpers';

let server: GaleneProcess;
let conn: Connection;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-array-'));

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port, { charset: 'utf8mb4' });
  await conn.query('CREATE DATABASE arr');
  await conn.query('USE arr');
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

function loadUrl(table: string): string {
  return `http://127.0.0.1:${server.ports.http_port}/api/arr/${table}/_stream_load`;
}

async function versionCount(table: string): Promise<number> {
  const rows = await queryRows(conn, `SHOW TABLETS FROM ${table}`);
  return rows.reduce((sum, row) => sum + Number(row[2]), 0);
}

test('DDL: ARRAY columns, Doris type text, no array keys', async () => {
  await conn.query('CREATE TABLE docs (id INT, embedding ARRAY<FLOAT> NOT NULL, tags ARRAY<STRING>, grid ARRAY<ARRAY<INT>>) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
  const desc = await queryRows(conn, 'DESC docs');
  assert.deepEqual(desc.map((row) => [row[0], row[1], row[2]]), [
    ['id', 'int', 'Yes'],
    ['embedding', 'array<float>', 'No'],
    ['tags', 'array<text>', 'Yes'],
    ['grid', 'array<array<int>>', 'Yes'],
  ]);
  const [[, createText]] = await queryRows(conn, 'SHOW CREATE TABLE docs');
  assert.match(createText!, /`embedding` array<float> NOT NULL,/);
  const columns = await queryRows(conn, "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'arr' AND TABLE_NAME = 'docs' ORDER BY ORDINAL_POSITION");
  assert.deepEqual(columns[1], ['embedding', 'array<float>']);
  await assert.rejects(conn.query('CREATE TABLE bad1 (v ARRAY<INT>, id INT) DUPLICATE KEY(v) DISTRIBUTED BY HASH(id) BUCKETS 1'), /Array can only be used in the non-key column of the duplicate table at present\./);
  await assert.rejects(conn.query('CREATE TABLE bad2 (id INT, v ARRAY<INT>) UNIQUE KEY(id, v) DISTRIBUTED BY HASH(id) BUCKETS 1'), /Array can only be used in the non-key column/);
  await assert.rejects(conn.query('CREATE TABLE bad3 (id INT, v ARRAY<INT> MAX) AGGREGATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1'), /Array column can't support aggregation MAX/);
  await conn.query('CREATE TABLE aggok (id INT, v ARRAY<INT> REPLACE) AGGREGATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  await assert.rejects(conn.query('ALTER TABLE aggok ADD COLUMN w ARRAY<INT> MIN'), /Array column can't support aggregation MIN/);
  await conn.query('INSERT INTO aggok VALUES (1, [1, 2])');
  await conn.query('INSERT INTO aggok VALUES (1, [3])');
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM aggok'), [['1', '[3]']], 'REPLACE keeps the newest array');
  // Without a KEY clause the sort key stops before the first array column.
  await conn.query('CREATE TABLE autokey (v ARRAY<INT>, id INT) DISTRIBUTED BY RANDOM BUCKETS 1');
  assert.deepEqual((await queryRows(conn, 'DESC autokey')).map((row) => row[3]), ['false', 'false']);
});

test('literals, CAST, subscripts and array functions print as Doris does', async () => {
  assert.deepEqual(await queryRows(conn, "SELECT [1, 2, 3], ARRAY(1, 2, 'abc'), [0.5, 1.5], [], [[1, 2], [3]], ['a', NULL]"), [['[1, 2, 3]', '["1", "2", "abc"]', '[0.5, 1.5]', '[]', '[[1, 2], [3]]', '["a", null]']]);
  assert.deepEqual(await queryRows(conn, "SELECT CAST('[1,2]' AS ARRAY<FLOAT>), CAST('[\"x\", \"y,z\"]' AS ARRAY<STRING>), CAST('[1, x]' AS ARRAY<INT>), CAST([1, 2] AS STRING)"), [['[1, 2]', '["x", "y,z"]', null, '[1, 2]']]);
  assert.deepEqual(await queryRows(conn, 'SELECT [10, 20, 30][2], [10, 20, 30][-1], [10, 20][5], element_at([10, 20], 0), [[1, 2], [3]][1][2]'), [['20', '30', null, null, '2']]);
  assert.deepEqual(await queryRows(conn, "SELECT array_size([1, NULL, 3]), size([]), cardinality(['a']), array_size(NULL), array_contains([1, 2], 2), array_contains(['a', NULL], NULL), array_contains([1], 5)"), [['3', '0', '1', null, '1', '1', '0']]);
  assert.deepEqual(await queryRows(conn, 'SELECT l2_distance([4, 5], [6, 8]), l1_distance([4, 5], [6, 8]), inner_product([1, 2], [3, 4]), cosine_distance([1, 0], [0, 1]), cosine_distance([0, 0], [1, 1])'), [['3.605551', '5', '11', '1', '2']]);
  await assert.rejects(conn.query('SELECT l2_distance([1, 2, 3], [1, 2])'), /\[INVALID_ARGUMENT\]function l2_distance have different input element sizes of array: 3 and 2/);
  await assert.rejects(conn.query('SELECT inner_product([1, NULL], [1, 2])'), /First argument for function inner_product cannot have null/);
  await assert.rejects(conn.query("SELECT l1_distance(['a'], [1])"), /No matching function with signature: l1_distance/);
});

test('INSERT VALUES / INSERT SELECT / SELECT over the text and binary protocols, prepared parameters', async () => {
  await conn.query(`INSERT INTO docs VALUES (1, [0.1, 0.2, 0.3], ['a', 'b"q'], [[1, 2], [3]]), (2, [1, 0, 0], NULL, [[]]), (3, [0, 1, 0], [NULL], NULL)`);
  await conn.query('INSERT INTO docs SELECT id + 10, embedding, tags, grid FROM docs');
  const expected = [
    ['1', '[0.1, 0.2, 0.3]', '["a", "b\\"q"]', '[[1, 2], [3]]'],
    ['2', '[1, 0, 0]', null, '[[]]'],
    ['3', '[0, 1, 0]', '[null]', null],
  ];
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM docs WHERE id < 10 ORDER BY id'), expected);
  assert.deepEqual(await queryRows(conn, 'SELECT id, embedding[2], array_size(tags), grid[1][2] FROM docs WHERE id > 10 ORDER BY id'), [['11', '0.2', '2', '2'], ['12', '0', null, null], ['13', '1', '1', null]]);
  // Binary protocol (COM_STMT_EXECUTE): arrays arrive as text cells with a string column type.
  const binary = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '', database: 'arr' });
  const [binaryRows, fields] = await binary.execute({ sql: 'SELECT id, embedding, tags FROM docs WHERE id = ?', values: [1], rowsAsArray: true });
  assert.deepEqual(binaryRows, [[1, '[0.1, 0.2, 0.3]', '["a", "b\\"q"]']]);
  assert.equal(fields[1].columnType, 253, 'VAR_STRING, as Doris sends arrays');
  // A string parameter becomes the column's array type; a vector parameter feeds a distance.
  await binary.execute('INSERT INTO docs (id, embedding, tags) VALUES (?, ?, ?)', [20, '[3, 4, 0]', '["p"]']);
  const [distances] = await binary.execute({ sql: 'SELECT id, l2_distance(embedding, ?) AS d FROM docs WHERE id IN (2, 20) ORDER BY d', values: ['[0, 0, 0]'], rowsAsArray: true });
  assert.deepEqual(distances, [[2, 1], [20, 5]]);
  await binary.end();
  // Exact nearest neighbours by ORDER BY distance.
  assert.deepEqual(await queryRows(conn, 'SELECT id FROM docs ORDER BY l2_distance(embedding, [0.9, 0.1, 0]) LIMIT 2'), [['2'], ['12']]);
  assert.deepEqual(await queryRows(conn, 'SELECT id FROM docs ORDER BY inner_product(embedding, [0, 1, 0]) DESC, id LIMIT 3'), [['20'], ['3'], ['13']]);
  await assert.rejects(conn.query("INSERT INTO docs (id, embedding) VALUES (30, '[1, oops]')"), /Incorrect array value: '\[1, oops\]' for column 'embedding'/);
  await assert.rejects(conn.query('INSERT INTO docs (id, embedding) VALUES (31, NULL)'), /cannot be null/);
  await conn.query('PREPARE near FROM "SELECT id FROM docs WHERE l2_distance(embedding, ?) < 0.5 ORDER BY id"');
  await conn.query("SET @q = '[1, 0.1, 0]'");
  assert.deepEqual(await queryRows(conn, 'EXECUTE near USING @q'), [['2'], ['12']]);
});

test('the mariadb CLI shows arrays as text', { skip: fs.existsSync('/usr/bin/mariadb') ? false : 'mariadb client not installed' }, async () => {
  const out = await new Promise<string>((resolve, reject) => {
    execFile('/usr/bin/mariadb', ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '--skip-ssl', '--batch', '-e', 'SELECT id, embedding, grid FROM arr.docs WHERE id IN (1, 3) ORDER BY id'], (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)));
  });
  assert.equal(out, 'id\tembedding\tgrid\n1\t[0.1, 0.2, 0.3]\t[[1, 2], [3]]\n3\t[0, 1, 0]\tNULL\n');
});

test('Stream Load: CSV [..] fields, JSON native arrays, a malformed array is a filtered row with its reason', async () => {
  await conn.query('CREATE TABLE vec (id INT, emb ARRAY<FLOAT> NOT NULL, tags ARRAY<STRING>) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
  const csv = path.join(work, 'vec.csv');
  fs.writeFileSync(csv, '1|[0.1,0.2]|["a","b"]\n2|[1, 2]|\\N\n3|[1, x]|[]\n4|[3,4]|["c,d"]\n5|3,4|[]\n');
  const strict = await curlLoad(loadUrl('vec'), csv, ['column_separator:|']);
  assert.equal(strict.json.Status, 'Fail', 'two bad rows of five exceed max_filter_ratio 0');
  const loaded = await curlLoad(loadUrl('vec'), csv, ['column_separator:|', 'max_filter_ratio:0.5']);
  assert.equal(loaded.json.Status, 'Success', loaded.body);
  assert.equal(loaded.json.NumberLoadedRows, 3);
  assert.equal(loaded.json.NumberFilteredRows, 2);
  const log = await curlGet(String(loaded.json.ErrorURL));
  assert.match(log.body, /Line: 3; Reason: column\(emb\) value is not a valid array<float>, src value is \[1, x\]; Src line: \[3\|\[1, x\]\|\[\]\];/);
  assert.match(log.body, /Line: 5; Reason: column\(emb\) value is not a valid array<float>, src value is 3,4;/);
  const json = path.join(work, 'vec.json');
  fs.writeFileSync(json, '{"id": 6, "emb": [6.5, 7], "tags": ["j\\n1", null, "\\u00e9"]}\n{"id": 7, "emb": "[7, 8]", "tags": null}\n{"id": 8, "emb": [1, "x"], "tags": []}\n');
  const fromJson = await curlLoad(loadUrl('vec'), json, ['format:json', 'read_json_by_line:true', 'max_filter_ratio:0.5']);
  assert.equal(fromJson.json.NumberLoadedRows, 2, fromJson.body);
  assert.equal(fromJson.json.NumberFilteredRows, 1);
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM vec ORDER BY id'), [
    ['1', '[0.1, 0.2]', '["a", "b"]'],
    ['2', '[1, 2]', null],
    ['4', '[3, 4]', '["c,d"]'],
    ['6', '[6.5, 7]', '["j\n1", null, "é"]'],
    ['7', '[7, 8]', null],
  ]);
});

test('group commit carries arrays through the WAL batch', async () => {
  await conn.query('CREATE TABLE gc (id INT, emb ARRAY<FLOAT>, grid ARRAY<ARRAY<STRING>>) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  const csv = path.join(work, 'gc.csv');
  fs.writeFileSync(csv, '1|[1.5, null]|[["a"], []]\n2|\\N|\\N\n');
  const result = await curlLoad(loadUrl('gc'), csv, ['column_separator:|', 'group_commit:sync_mode']);
  assert.equal(result.json.Status, 'Success', result.body);
  assert.equal(result.json.GroupCommit, true);
  await conn.query("SET group_commit = 'async_mode'");
  await conn.query('INSERT INTO gc VALUES (3, [3], [["b", NULL]])');
  await conn.query("SET group_commit = 'off_mode'");
  const deadline = Date.now() + 30_000;
  let rows = await queryRows(conn, 'SELECT * FROM gc ORDER BY id');
  while (rows.length < 3 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    rows = await queryRows(conn, 'SELECT * FROM gc ORDER BY id');
  }
  assert.deepEqual(rows, [
    ['1', '[1.5, null]', '[["a"], []]'],
    ['2', null, null],
    ['3', '[3]', '[["b", null]]'],
  ]);
});

test('compaction and the UNIQUE KEY merge carry arrays; a restart reads them back', async () => {
  await conn.query('CREATE TABLE uk (id INT, emb ARRAY<FLOAT>, tags ARRAY<STRING>) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  await conn.query('CREATE TABLE dup (id INT, emb ARRAY<DOUBLE>) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  for (let load = 0; load < 6; load++) {
    await conn.query(`INSERT INTO uk VALUES (1, [${load}, ${load + 0.5}], ['v${load}']), (${load + 2}, [${load}], [])`);
    await conn.query(`INSERT INTO dup VALUES (${load}, [${load}, -${load}])`);
  }
  const ukExpected = [['1', '[5, 5.5]', '["v5"]'], ...Array.from({ length: 6 }, (_v, load) => [String(load + 2), `[${load}]`, '[]'])];
  const dupExpected = Array.from({ length: 6 }, (_v, load) => [String(load), load === 0 ? '[0, 0]' : `[${load}, -${load}]`]);
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM uk ORDER BY id'), ukExpected);
  const deadline = Date.now() + 60_000;
  // Six loads each: a count below six means compaction merged rowsets of that tablet (the size-tiered
  // policy need not merge everything into one).
  while ((await versionCount('uk')) >= 6 || (await versionCount('dup')) >= 6) {
    assert.ok(Date.now() < deadline, `compaction merged rowsets of both tablets within 60 s (versions: uk ${await versionCount('uk')}, dup ${await versionCount('dup')}); server log: ${server.stderr().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM uk ORDER BY id'), ukExpected, 'after compaction');
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM dup ORDER BY id'), dupExpected, 'after compaction');
  await conn.end();
  await server.stop();
  server = await startGalene({ dataDir: server.dataDir });
  conn = await connect(server.ports.query_port, { charset: 'utf8mb4', database: 'arr' });
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM uk ORDER BY id'), ukExpected, 'after restart');
  assert.deepEqual(await queryRows(conn, 'SELECT id, embedding FROM docs WHERE id = 1'), [['1', '[0.1, 0.2, 0.3]']]);
  assert.deepEqual((await queryRows(conn, 'DESC docs'))[1].slice(0, 2), ['embedding', 'array<float>']);
});
