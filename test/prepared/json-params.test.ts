/**
 * JSON through prepared statements (binary protocol, mysql2 execute): a string parameter bound to a JSON
 * column is parsed and stored in canonical form, invalid JSON text is the INSERT's error, and JSON
 * functions take parameters as document and path.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect } from '../helpers/mysql-client';

describe('JSON parameters of prepared statements', () => {
  let server: GaleneProcess;
  let conn: Connection;

  before(async () => {
    server = await startGalene();
    // mysql2's own decoding of binary rows (the helper's text typeCast is for the text protocol).
    conn = await connect(server.ports.query_port, { typeCast: true });
    await conn.query('CREATE DATABASE jp');
    await conn.query('CREATE TABLE jp.t (id INT, j JSON) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  test('a string parameter into a JSON column is parsed and normalised; invalid text fails and writes nothing', async () => {
    await conn.execute('INSERT INTO jp.t VALUES (?, ?)', [1, '{"a" : [1, 2], "b": {"c": "x"}}']);
    await assert.rejects(conn.execute('INSERT INTO jp.t VALUES (?, ?)', [2, '{"a": ']), /Incorrect json value/);
    const [rows] = await conn.execute<RowDataPacket[]>('SELECT id, j, json_extract_string(j, ?) AS c FROM jp.t ORDER BY id', ['$.b.c']);
    assert.deepEqual(rows, [[1, '{"a":[1,2],"b":{"c":"x"}}', 'x']]);
  });

  test('document and path as parameters', async () => {
    const [rows] = await conn.execute<RowDataPacket[]>('SELECT json_extract(?, ?) AS v, get_json_int(?, ?) AS n', ['{"k": [5, 6]}', '$.k[1]', '{"n": 7}', '$.n']);
    assert.deepEqual(rows, [['6', 7]]);
  });
});
