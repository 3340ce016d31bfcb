/**
 * ANN index DDL on a real server through real clients (mysql2, curl Stream Load): Doris's validation
 * messages at CREATE TABLE / CREATE INDEX / ALTER TABLE ADD INDEX (an invalid DDL changes nothing),
 * CREATE INDEX on data is metadata only, BUILD INDEX builds the missing files as a job that SHOW BUILD INDEX
 * lists, DROP INDEX removes records and files and a re-created name picks up no old file, and a vector that
 * does not fit the index is a filtered row (Stream Load CSV/JSON with its reason in the ErrorURL log,
 * max_filter_ratio) or a failed INSERT (strict; filtered under enable_insert_strict = false), the same
 * under Group Commit. The server runs with ann_index_build_min_segment_rows = 100 so small tables get files.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';
import { storedObjectFile, storedObjectKeys } from '../helpers/storage-matrix';
import { curlGet, curlLoad } from '../stream-load/helpers';
import { AnnIndexReader } from '../../src/storage/ann';

let server: GaleneProcess;
let conn: Connection;

before(async () => {
  // These tests count the index files of the data directory: no background compaction adds merged ones.
  server = await startGalene({ args: ['--ann_index_build_min_segment_rows', '100', '--disable_auto_compaction', 'true'] });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE annddl');
  await conn.query('USE annddl');
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

const ANN = (dim = 4, extra = ''): string => `USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="${dim}"${extra})`;

/** Index files under the data directory. */
/** Index objects the server stored (local directory or the matrix's bucket), as keys. */
const indexFiles = async (): Promise<string[]> => (await storedObjectKeys(server.dataDir)).filter((key) => key.endsWith('.idx'));

async function expectError(sql: string, message: string | RegExp): Promise<void> {
  await assert.rejects(conn.query(sql), (err: Error) => {
    if (typeof message === 'string') assert.ok(err.message.includes(message), `${sql}\n  got: ${err.message}\n  want: ${message}`);
    else assert.match(err.message, message, sql);
    return true;
  });
}

const vectorOf = (row: number): number[] => [Math.sin(row), Math.cos(row * 0.7), (row % 97) / 97, (row % 13) / 13];
const valuesOf = (from: number, count: number): string => Array.from({ length: count }, (_, idx) => `(${from + idx}, [${vectorOf(from + idx).join(',')}])`).join(',');

async function waitForJob(table: string): Promise<Record<string, string | null>> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const jobs = await queryRecords(conn, `SHOW BUILD INDEX WHERE TableName = "${table}" ORDER BY JobId DESC LIMIT 1`);
    if (jobs[0] && (jobs[0].State === 'FINISHED' || jobs[0].State === 'CANCELLED')) return jobs[0];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`build index job on ${table} did not finish`);
}

test('CREATE TABLE with an invalid ANN index fails with Doris messages and creates nothing', async () => {
  const cases: [string, string][] = [
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NULL, INDEX i (e) ${ANN()}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'ANN index must be built on a column that is not nullable'],
    [`CREATE TABLE bad (id INT NOT NULL, e VARCHAR(10) NOT NULL, INDEX i (e) ${ANN()}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'ANN index column must be array type, invalid index: i'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<INT> NOT NULL, INDEX i (e) ${ANN()}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'ANN index column item type must be float type, invalid index: i'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<DOUBLE> NOT NULL, INDEX i (e) ${ANN()}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'ANN index column item type must be float type'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> REPLACE NOT NULL, INDEX i (e) ${ANN()}) AGGREGATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'ANN index can only be used in DUP_KEYS table or UNIQUE_KEYS table with merge-on-write enabled'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) ${ANN()}) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "false")`, 'ANN index can only be used in DUP_KEYS table'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance")) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'dim of ann index must be specified'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) ${ANN(0)}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'dim of ann index must be a positive integer'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="-3")) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'dim of ann index must be a positive integer'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) ${ANN(4, ', "colour"="red"')}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'unknown ann index property: colour'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="cosine_distance", "dim"="4")) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'only support ann index with metric l2_distance or inner_product'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) USING ANN PROPERTIES("metric_type"="l2_distance", "dim"="4")) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'index_type of ann index be specified.'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) USING ANN PROPERTIES("index_type"="hnsw", "dim"="4")) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'metric_type of ann index must be specified.'],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (nope) ${ANN()}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, "Unknown column 'nope'"],
    [`CREATE TABLE bad (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) ${ANN()}, INDEX I (id) USING INVERTED) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`, 'index `I` already exist.'],
  ];
  for (const [sql, message] of cases) await expectError(sql, message);
  assert.deepEqual(await queryRows(conn, "SHOW TABLES LIKE 'bad'"), []);
  // The valid forms: DUPLICATE KEY, and UNIQUE KEY (merge-on-write by default).
  await conn.query(`CREATE TABLE okdup (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) ${ANN(4, ', "max_degree"="16", "ef_construction"="64", "quantizer"="sq8"')}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  await conn.query(`CREATE TABLE okuniq (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="inner_product", "dim"="4")) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  const shown = await queryRecords(conn, 'SHOW INDEX FROM okuniq');
  assert.deepEqual(shown.filter((row) => row.Key_name !== 'PRIMARY').map((row) => [row.Key_name, row.Column_name]), [['i', 'e']]);
});

test('CREATE INDEX / ALTER TABLE ADD INDEX validate the same way; a refused one changes nothing', async () => {
  await conn.query('CREATE TABLE addidx (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, n ARRAY<FLOAT> NULL, s VARCHAR(10)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  await expectError(`CREATE INDEX i ON addidx (n) ${ANN()}`, 'ANN index must be built on a column that is not nullable');
  await expectError(`ALTER TABLE addidx ADD INDEX i (s) ${ANN()}`, 'ANN index must be built on a column that is not nullable');
  await expectError(`ALTER TABLE addidx ADD INDEX i (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="cosine_distance", "dim"="4")`, 'only support ann index with metric l2_distance or inner_product');
  await expectError(`CREATE INDEX i ON addidx (e) ${ANN(4, ', "bogus"="1"')}`, 'unknown ann index property: bogus');
  await expectError(`CREATE INDEX i ON addidx (missing) ${ANN()}`, "Unknown column 'missing'");
  assert.deepEqual(await queryRows(conn, 'SHOW INDEX FROM addidx'), []);
  await conn.query(`CREATE INDEX i ON addidx (e) ${ANN()}`);
  await expectError(`ALTER TABLE addidx ADD INDEX i (e) ${ANN()}`, 'index `i` already exist.');
  await expectError(`ALTER TABLE addidx ADD INDEX j (e) ${ANN()}`, 'index for columns (e ) already exist.');
  await expectError('DROP INDEX nope ON addidx', 'index nope does not exist');
  await conn.query('CREATE TABLE aggt (id INT NOT NULL, e ARRAY<FLOAT> REPLACE NOT NULL) AGGREGATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  await expectError(`CREATE INDEX i ON aggt (e) ${ANN()}`, 'ANN index can only be used in DUP_KEYS table');
  assert.deepEqual((await queryRecords(conn, 'SHOW INDEX FROM addidx')).map((row) => row.Key_name), ['i']);
});

test('CREATE INDEX on data is metadata only; BUILD INDEX builds the missing files as a job; DROP INDEX removes them', async () => {
  await conn.query('CREATE TABLE docs (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  await conn.query(`INSERT INTO docs VALUES ${valuesOf(0, 300)}`);
  await conn.query(`INSERT INTO docs VALUES ${valuesOf(1000, 250)}`);
  await conn.query(`INSERT INTO docs VALUES ${valuesOf(5000, 20)}`); // below the 100-row minimum: never indexed
  await conn.query(`CREATE INDEX ann_e ON docs (e) ${ANN()}`);
  assert.deepEqual(await indexFiles(), [], 'CREATE INDEX writes no file for existing segments');
  // A segment written after CREATE INDEX gets its file at flush.
  await conn.query(`INSERT INTO docs VALUES ${valuesOf(2000, 150)}`);
  assert.equal((await indexFiles()).length, 1);

  await conn.query('BUILD INDEX ann_e ON docs');
  const job = await waitForJob('docs');
  assert.equal(job.State, 'FINISHED', JSON.stringify(job));
  const columns = (await conn.query({ sql: 'SHOW BUILD INDEX', rowsAsArray: true }))[1] as { name: string }[];
  assert.deepEqual(columns.map((column) => column.name), ['JobId', 'TableName', 'PartitionName', 'AlterInvertedIndexes', 'CreateTime', 'FinishTime', 'TransactionId', 'State', 'Msg', 'Progress']);
  assert.equal(job.TableName, 'docs');
  assert.deepEqual((await queryRecords(conn, 'SHOW BUILD INDEX FROM annddl WHERE TableName = "docs"')).map((row) => row.JobId), [job.JobId]);
  assert.match(String(job.AlterInvertedIndexes), /ADD INDEX ann_e \(`e`\) USING ANN/);
  assert.ok(job.CreateTime && job.FinishTime, 'times are shown');
  const files = await indexFiles();
  assert.equal(files.length, 3, `the 300- and 250-row segments were built, the 20-row one skipped: ${files.join(', ')}`);
  for (const file of files) {
    const reader = await AnnIndexReader.openFile(await storedObjectFile(server.dataDir, file), { verify: true });
    try {
      assert.ok([300, 250, 150].includes(reader.header.vectorCount), `vectors ${reader.header.vectorCount}`);
      assert.equal(reader.params.dim, 4);
    } finally {
      reader.close();
    }
  }
  // A second BUILD INDEX has nothing left to do; results are unchanged.
  await conn.query('BUILD INDEX ann_e ON docs');
  assert.equal((await waitForJob('docs')).State, 'FINISHED');
  assert.equal((await indexFiles()).length, 3);
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM docs'), [['720']]);
  assert.deepEqual(await queryRows(conn, `SELECT id FROM docs ORDER BY l2_distance(e, [${vectorOf(1007).join(',')}]) LIMIT 1`), [['1007']]);
  await expectError('BUILD INDEX nope ON docs', 'index nope does not exist');
  await expectError('CANCEL BUILD INDEX ON docs', 'No job to cancel');

  // DROP INDEX: records and files go; re-creating the name picks up nothing old.
  await conn.query('DROP INDEX ann_e ON docs');
  assert.deepEqual(await indexFiles(), []);
  assert.deepEqual(await queryRows(conn, 'SHOW INDEX FROM docs'), []);
  await conn.query(`ALTER TABLE docs ADD INDEX ann_e (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="inner_product", "dim"="4")`);
  assert.deepEqual(await indexFiles(), [], 'a re-created index starts with no file');
  await conn.query('BUILD INDEX ann_e ON docs');
  assert.equal((await waitForJob('docs')).State, 'FINISHED');
  const rebuilt = await indexFiles();
  assert.equal(rebuilt.length, 3);
  const reader = await AnnIndexReader.openFile(await storedObjectFile(server.dataDir, rebuilt[0]), { verify: true });
  try {
    assert.equal(reader.params.metric, 'inner_product', 'the new file has the new parameters');
  } finally {
    reader.close();
  }
  await conn.query('ALTER TABLE docs DROP INDEX ann_e');
  assert.deepEqual(await indexFiles(), []);
});

test('ann_index_build_min_segment_rows changes at run time (ADMIN SET FRONTEND CONFIG)', async () => {
  await conn.query(`CREATE TABLE minrows (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) ${ANN()}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  const before = (await indexFiles()).length;
  await conn.query(`INSERT INTO minrows VALUES ${valuesOf(0, 50)}`);
  assert.equal((await indexFiles()).length, before, '50 rows < 100: no file');
  await conn.query('ADMIN SET FRONTEND CONFIG ("ann_index_build_min_segment_rows" = "10")');
  try {
    await conn.query(`INSERT INTO minrows VALUES ${valuesOf(100, 50)}`);
    assert.equal((await indexFiles()).length, before + 1, '50 rows >= 10: a file');
  } finally {
    await conn.query('ADMIN SET FRONTEND CONFIG ("ann_index_build_min_segment_rows" = "100")');
  }
});

test('a vector of the wrong length or with a NULL element is a filtered row on Stream Load (CSV, JSON) and a failed strict INSERT', async () => {
  await conn.query(`CREATE TABLE vload (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX i (e) ${ANN()}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  const url = `http://127.0.0.1:${server.ports.webserver_port}/api/annddl/vload/_stream_load`;
  const csv = path.join(server.dataDir, 'v.csv');
  const good = Array.from({ length: 8 }, (_, row) => `${row}|[${vectorOf(row).join(',')}]`);
  fs.writeFileSync(csv, [...good, '100|[1,2,3]', '101|[1,null,3,4]', '102|[1,2,3,4,5]'].join('\n') + '\n');
  const refused = await curlLoad(url, csv, ['column_separator:|']);
  assert.equal(refused.json.Status, 'Fail', refused.body);
  assert.equal(refused.json.NumberFilteredRows, 3);
  const log = await curlGet(String(refused.json.ErrorURL));
  assert.match(log.body, /vector has 3 elements but ANN index i has dim 4/);
  assert.match(log.body, /vector has a NULL element at position 2/);
  assert.match(log.body, /vector has 5 elements but ANN index i has dim 4/);
  assert.match(log.body, /100\|\[1,2,3\]/, 'the row text is in the log');
  const tolerated = await curlLoad(url, csv, ['column_separator:|', 'max_filter_ratio:0.5']);
  assert.equal(tolerated.json.Status, 'Success', tolerated.body);
  assert.equal(tolerated.json.NumberLoadedRows, 8);
  assert.equal(tolerated.json.NumberFilteredRows, 3);

  const json = path.join(server.dataDir, 'v.json');
  fs.writeFileSync(json, JSON.stringify([{ id: 20, e: [1, 2, 3, 4] }, { id: 21, e: [1, 2] }, { id: 22, e: [1, null, 3, 4] }]));
  const jsonLoad = await curlLoad(url, json, ['format:json', 'strip_outer_array:true', 'max_filter_ratio:0.9']);
  assert.equal(jsonLoad.json.Status, 'Success', jsonLoad.body);
  assert.equal(jsonLoad.json.NumberLoadedRows, 1);
  assert.equal(jsonLoad.json.NumberFilteredRows, 2);
  assert.match((await curlGet(String(jsonLoad.json.ErrorURL))).body, /vector has 2 elements but ANN index i has dim 4/);

  // Stream Load into Group Commit filters the same rows with the same reasons.
  const grouped = await curlLoad(url, csv, ['column_separator:|', 'max_filter_ratio:0.5', 'group_commit:sync_mode']);
  assert.equal(grouped.json.Status, 'Success', grouped.body);
  assert.equal(grouped.json.NumberLoadedRows, 8);
  assert.equal(grouped.json.NumberFilteredRows, 3);
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM vload WHERE id < 10'), [['16']], 'both loads kept their 8 good rows');

  await expectError('INSERT INTO vload VALUES (30, [1,2,3])', 'Insert has filtered data in strict mode. first_error_msg: column(e) vector has 3 elements but ANN index i has dim 4');
  await expectError('INSERT INTO vload VALUES (31, [1,2,3,4]), (32, [1,NULL,3,4])', 'vector has a NULL element at position 2');
  // The same answer under Group Commit (apache/doris #33453: validation identical on both paths).
  await conn.query("SET group_commit = 'sync_mode'");
  try {
    await expectError('INSERT INTO vload VALUES (33, [1,2])', 'Insert has filtered data in strict mode');
  } finally {
    await conn.query("SET group_commit = 'off_mode'");
  }
  await conn.query('SET enable_insert_strict = false');
  try {
    const [result] = (await conn.query('INSERT INTO vload VALUES (40, [1,2,3,4]), (41, [1,2])')) as unknown as [{ affectedRows: number }];
    assert.equal(result.affectedRows, 1);
    await conn.query('SET insert_max_filter_ratio = 0.1');
    await expectError('INSERT INTO vload VALUES (42, [1,2,3,4]), (43, [1,2])', 'too many filtered rows');
  } finally {
    await conn.query('SET enable_insert_strict = true');
    await conn.query('SET insert_max_filter_ratio = 1');
  }
  assert.deepEqual(await queryRows(conn, 'SELECT id FROM vload WHERE id >= 20 ORDER BY id'), [['20'], ['40']]);
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM vload'), [['18']]);
});

test('CANCEL BUILD INDEX cancels a waiting job (it builds nothing) and stops a running one', async () => {
  await conn.query('CREATE TABLE two (id INT NOT NULL, e1 ARRAY<FLOAT> NOT NULL, e2 ARRAY<FLOAT> NOT NULL) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  for (let load = 0; load < 3; load++) {
    const rows = Array.from({ length: 300 }, (_, idx) => load * 1000 + idx).map((id) => `(${id}, [${vectorOf(id).join(',')}], [${vectorOf(id + 1).join(',')}])`);
    await conn.query(`INSERT INTO two VALUES ${rows.join(',')}`);
  }
  await conn.query(`CREATE INDEX i1 ON two (e1) ${ANN()}`);
  await conn.query(`CREATE INDEX i2 ON two (e2) ${ANN()}`);
  const before = (await indexFiles()).length;
  await conn.query('BUILD INDEX i1 ON two');
  await conn.query('BUILD INDEX i2 ON two');
  await expectError('BUILD INDEX i2 ON two', 'there is already a build index job running on index i2');
  await conn.query('CANCEL BUILD INDEX ON two');
  for (let attempt = 0; attempt < 200; attempt++) {
    const states = (await queryRecords(conn, 'SHOW BUILD INDEX WHERE TableName = "two"')).map((job) => job.State);
    if (states.every((state) => state === 'FINISHED' || state === 'CANCELLED')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const jobs = await queryRecords(conn, 'SHOW BUILD INDEX WHERE TableName = "two" ORDER BY JobId');
  assert.equal(jobs.length, 2);
  assert.equal(jobs[1].State, 'CANCELLED', JSON.stringify(jobs[1]));
  assert.equal(jobs[1].Msg, 'user cancelled');
  assert.ok(jobs[0].State === 'CANCELLED' || jobs[0].State === 'FINISHED', JSON.stringify(jobs[0]));
  const built = (await indexFiles()).filter((file) => /\.i[12]\.idx$/.test(file) && file.includes('/'));
  assert.ok(built.every((file) => file.endsWith('.i1.idx')), `no i2 file: ${built.join(', ')}`);
  assert.equal((await indexFiles()).length - before, jobs[0].State === 'FINISHED' ? 3 : 0, 'a cancelled job leaves no file');
  // After the cancel, a new BUILD INDEX of i2 runs to the end.
  await conn.query('BUILD INDEX i2 ON two');
  assert.equal((await waitForJob('two')).State, 'FINISHED');
  assert.equal((await indexFiles()).filter((file) => file.endsWith('.i2.idx')).length, 3);
});

const MARIADB = '/usr/bin/mariadb';

/** The MariaDB command-line client, batch mode, against the server's database annddl. */
function mariadb(sql: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(MARIADB, ['-h', '127.0.0.1', '-P', String(server.ports.query_port), '-u', 'root', '-D', 'annddl', '--batch', '-e', sql], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

test('the MariaDB client: a refused ANN index shows the Doris message; BUILD INDEX and SHOW BUILD INDEX', { skip: fs.existsSync(MARIADB) ? false : 'mariadb client not installed' }, async () => {
  const refused = await mariadb(`CREATE TABLE cli_bad (id INT NOT NULL, e ARRAY<FLOAT> NULL, INDEX i (e) ${ANN()}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /ERROR 1105 \(HY000\) at line 1: errCode = 2, detailMessage = ANN index must be built on a column that is not nullable/);
  const created = await mariadb(`CREATE TABLE cli_t (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1; INSERT INTO cli_t VALUES ${valuesOf(0, 200)}; CREATE INDEX i ON cli_t (e) ${ANN()}; BUILD INDEX i ON cli_t`);
  assert.equal(created.code, 0, created.stderr);
  assert.equal((await waitForJob('cli_t')).State, 'FINISHED');
  const shown = await mariadb('SHOW BUILD INDEX WHERE TableName = "cli_t"');
  assert.equal(shown.code, 0, shown.stderr);
  const [header, row] = shown.stdout.trim().split('\n');
  assert.equal(header, ['JobId', 'TableName', 'PartitionName', 'AlterInvertedIndexes', 'CreateTime', 'FinishTime', 'TransactionId', 'State', 'Msg', 'Progress'].join('\t'));
  assert.match(row, /\tcli_t\tcli_t\t\[ADD INDEX i \(`e`\) USING ANN PROPERTIES\("index_type" = "hnsw", "metric_type" = "l2_distance", "dim" = "4"\)\], \t.*\tFINISHED\t\tNULL$/);
});
