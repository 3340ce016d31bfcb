/**
 * The file table-valued functions over a real server: s3() against a real s3rver on loopback (globs over
 * object keys, CSV, csv_with_names, JSON lines, gzip by suffix, INSERT INTO ... SELECT FROM s3()), local()
 * under user_files_secure_path (no path escapes, ADMIN only), DESC FUNCTION, and the errors of bad
 * properties, which change nothing.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { S3ObjectStore } from '../../src/io/s3-object-store';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { startS3Server, type S3Server } from '../helpers/s3-server';

describe('s3(), local() and file() table functions', () => {
  const dataDir = makeDataDir('galene-tvf-');
  const userFiles = makeDataDir('galene-tvf-files-');
  let server: GaleneProcess;
  let s3: S3Server;
  let conn: Connection;
  let s3Props = '';

  before(async () => {
    s3 = await startS3Server({ bucket: 'tvf' });
    const store = new S3ObjectStore({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'tvf', rootPath: '', accessKey: s3.accessKey, secretKey: s3.secretKey, usePathStyle: true });
    await store.put('csv/part-1.csv', Buffer.from('1,alice,10\n2,bob,20\n'));
    await store.put('csv/part-2.csv', Buffer.from('3,carol,30\n'));
    await store.put('csv/other.txt', Buffer.from('not,matched\n'));
    await store.put('named/a.csv', Buffer.from('id,name\n7,gina\n8,hugo\n'));
    await store.put('json/rows.json', Buffer.from('{"id": 1, "tag": "x"}\n{"id": 2, "tag": "y"}\n'));
    await store.put('typed/a.csv', Buffer.from('k,d\nINT,DATE\n4,2024-01-31\n'));
    await store.put('gz/rows.csv.gz', zlib.gzipSync(Buffer.from('5|e\n6|f\n')));
    s3Props = `"s3.endpoint" = "${s3.endpoint}", "s3.access_key" = "${s3.accessKey}", "s3.secret_key" = "${s3.secretKey}", "s3.region" = "us-east-1", "use_path_style" = "true"`;
    fs.mkdirSync(path.join(userFiles, 'in'));
    fs.writeFileSync(path.join(userFiles, 'in', 'a.csv'), '1\tx\n2\ty\n');
    fs.writeFileSync(path.join(userFiles, 'in', 'b.csv'), '3\tz\n');
    fs.writeFileSync(path.join(dataDir, 'secret.csv'), 'top\tsecret\n');
    fs.symlinkSync(path.join(dataDir, 'secret.csv'), path.join(userFiles, 'in', 'link.txt'));
    server = await startGalene({ dataDir, args: ['--user_files_secure_path', userFiles] });
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE tvf');
    await conn.query('CREATE TABLE tvf.people (id INT, name VARCHAR(20), score INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
    await s3?.stop();
  });

  test('CSV over a glob of keys: columns c1..cN, STRING, rows of every matching object', async () => {
    const rows = await queryRows(conn, `SELECT c1, c2, c3 FROM s3("uri" = "s3://tvf/csv/*.csv", ${s3Props}, "format" = "csv", "column_separator" = ",") ORDER BY c1`);
    assert.deepEqual(rows, [['1', 'alice', '10'], ['2', 'bob', '20'], ['3', 'carol', '30']]);
    const desc = await queryRows(conn, `DESC FUNCTION s3("uri" = "s3://tvf/csv/*.csv", ${s3Props}, "format" = "csv", "column_separator" = ",")`);
    assert.deepEqual(desc.map((row) => [row[0], row[2]]), [['c1', 'Yes'], ['c2', 'Yes'], ['c3', 'Yes']]);
    for (const row of desc) assert.match(String(row[1]), /^(string|text)$/i);
  });

  test('a LIMIT over several files; EXPLAIN does not show the credentials', async () => {
    assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM (SELECT c1 FROM s3("uri" = "s3://tvf/csv/*.csv", ${s3Props}, "format" = "csv", "column_separator" = ",") LIMIT 2) t`), [['2']]);
    const plan = (await queryRows(conn, `EXPLAIN SELECT c1 FROM s3("uri" = "s3://tvf/csv/*.csv", ${s3Props}, "format" = "csv", "column_separator" = ",")`)).flat().join('\n');
    assert.ok(!plan.includes(s3.secretKey), plan);
  });

  test('csv_with_names takes the header; JSON lines take the first object\'s keys; .gz is decompressed', async () => {
    assert.deepEqual(await queryRows(conn, `SELECT name, id FROM s3("uri" = "s3://tvf/named/a.csv", ${s3Props}, "format" = "csv_with_names", "column_separator" = ",") ORDER BY id`), [['gina', '7'], ['hugo', '8']]);
    assert.deepEqual(await queryRows(conn, `SELECT id, tag FROM s3("uri" = "s3://tvf/json/*.json", ${s3Props}, "format" = "json") WHERE tag = 'y'`), [['2', 'y']]);
    assert.deepEqual(await queryRows(conn, `SELECT count(*), max(c2) FROM s3("uri" = "s3://tvf/gz/rows.csv.gz", ${s3Props}, "format" = "csv", "column_separator" = "|")`), [['2', 'f']]);
  });

  test('INSERT INTO ... SELECT FROM s3() loads the rows, converted to the table\'s types', async () => {
    await conn.query(`INSERT INTO tvf.people SELECT c1, c2, c3 FROM s3("uri" = "s3://tvf/csv/part-{1,2}.csv", ${s3Props}, "format" = "csv", "column_separator" = ",")`);
    assert.deepEqual(await queryRows(conn, 'SELECT id, name, score + 1 FROM tvf.people ORDER BY id'), [['1', 'alice', '11'], ['2', 'bob', '21'], ['3', 'carol', '31']]);
  });

  test('a prepared statement over s3() describes the files at PREPARE and reads them at each EXECUTE', async () => {
    const [rows] = await conn.execute(`SELECT c2 FROM s3("uri" = "s3://tvf/csv/part-*.csv", ${s3Props}, "format" = "csv", "column_separator" = ",") WHERE c1 = ?`, ['2']);
    assert.deepEqual(rows, [['bob']]);
  });

  test('JSON as one array (strip_outer_array) with jsonpaths', async () => {
    const store = new S3ObjectStore({ endpoint: s3.endpoint, region: 'us-east-1', bucket: 'tvf', rootPath: '', accessKey: s3.accessKey, secretKey: s3.secretKey, usePathStyle: true });
    await store.put('arr/rows.json', Buffer.from('[{"k": {"id": 4}, "v": "d"}, {"k": {"id": 5}, "v": "e"}]'));
    store.close();
    const props = `"uri" = "s3://tvf/arr/rows.json", ${s3Props}, "format" = "json", "strip_outer_array" = "true", "jsonpaths" = '["$.k.id", "$.v"]'`;
    assert.deepEqual(await queryRows(conn, `SELECT id, v FROM s3(${props}) ORDER BY id`), [['4', 'd'], ['5', 'e']]);
  });

  test('csv_with_names_and_types takes names and types from the first two lines', async () => {
    const props = `"uri" = "s3://tvf/typed/a.csv", ${s3Props}, "format" = "csv_with_names_and_types", "column_separator" = ","`;
    assert.deepEqual(await queryRows(conn, `SELECT k + 1, date_add(d, 1) FROM s3(${props})`), [['5', '2024-02-01']]);
    const desc = await queryRows(conn, `DESC FUNCTION s3(${props})`);
    assert.deepEqual(desc.map((row) => String(row[1]).toLowerCase()), ['int', 'date']);
  });

  test('csv_schema gives names and types', async () => {
    assert.deepEqual(await queryRows(conn, `SELECT k + v FROM s3("uri" = "s3://tvf/csv/part-2.csv", ${s3Props}, "format" = "csv", "column_separator" = ",", "csv_schema" = "k:int;n:string;v:int")`), [['33']]);
  });

  test('local() reads under user_files_secure_path only', async () => {
    assert.deepEqual(await queryRows(conn, `SELECT c1, c2 FROM local("file_path" = "in/*.csv", "backend_id" = "10001", "format" = "csv") ORDER BY c1`), [['1', 'x'], ['2', 'y'], ['3', 'z']]);
    assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM file("file_path" = "in/a.csv", "shared_storage" = "true", "format" = "csv")`), [['2']]);
    await assert.rejects(conn.query(`SELECT * FROM local("file_path" = "../secret.csv", "backend_id" = "10001", "format" = "csv")`), /can not contain '\.\.' in path/);
    await assert.rejects(conn.query(`SELECT * FROM local("file_path" = "in/link.txt", "backend_id" = "10001", "format" = "csv")`), /leaves user_files_secure_path/);
    await assert.rejects(conn.query(`SELECT * FROM local("file_path" = "in/a.csv", "format" = "csv")`), /'backend_id' is required when 'shared_storage' is false/);
    await assert.rejects(conn.query(`SELECT * FROM local("file_path" = "in/*.parquet", "backend_id" = "10001", "format" = "csv")`), /No matches found/);
    await conn.query(`CREATE USER 'plain'@'%' IDENTIFIED BY 'pw'`);
    const plain = await connect(server.ports.query_port, { user: 'plain', password: 'pw' });
    try {
      await assert.rejects(plain.query(`SELECT * FROM local("file_path" = "in/a.csv", "backend_id" = "10001", "format" = "csv")`), /ADMIN/i);
    } finally {
      plain.destroy();
    }
  });

  test('bad properties get a clear error and change nothing', async () => {
    const before = await queryRows(conn, 'SELECT count(*) FROM tvf.people');
    // As Doris: no matching object reads as one column __dummy_col and no rows.
    assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM s3("uri" = "s3://tvf/nothing/*.csv", ${s3Props}, "format" = "csv")`), [['0']]);
    await assert.rejects(conn.query(`INSERT INTO tvf.people SELECT c1, c2, c3 FROM s3("uri" = "s3://tvf/nothing/*.csv", ${s3Props}, "format" = "csv")`), /c1/);
    await assert.rejects(conn.query(`SELECT * FROM s3(${s3Props}, "format" = "csv")`), /Property 'uri' is required/);
    await assert.rejects(conn.query(`SELECT * FROM s3("uri" = "s3://tvf/csv/part-1.csv", ${s3Props})`), /Property 'format' is required/);
    await assert.rejects(conn.query(`SELECT * FROM s3("uri" = "s3://tvf/csv/part-1.csv", ${s3Props}, "format" = "parquet")`), /parquet/);
    await assert.rejects(conn.query(`SELECT * FROM s3("uri" = "s3://tvf/csv/part-1.csv", ${s3Props}, "format" = "xml")`), /format:xml is not supported/);
    await assert.rejects(conn.query(`SELECT * FROM s3("uri" = "s3://tvf/csv/part-1.csv", ${s3Props}, "format" = "csv", "colum_separator" = ",")`), /Invalid property 'colum_separator'/);
    // An S3 error (a bucket that does not exist) is an error naming the request, not a crash.
    await assert.rejects(conn.query(`SELECT * FROM s3("uri" = "s3://no-such-bucket/a.csv", ${s3Props}, "format" = "csv")`), /NoSuchBucket|list/i);
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM tvf.people'), before);
    assert.deepEqual(await queryRows(conn, 'SELECT 1'), [['1']]);
  });
});
