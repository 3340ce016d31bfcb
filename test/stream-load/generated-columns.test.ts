/**
 * Generated columns through Stream Load: computed from the loaded row (columns given directly or through a
 * mapping), left out of the default column list, and never loadable themselves.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from './helpers';

test('Stream Load computes generated columns and refuses to load them', async () => {
  const dataDir = makeDataDir();
  const server = await startGalene({ dataDir });
  const conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE gc');
    await conn.query("CREATE TABLE gc.t (a INT, b INT, c INT AS (a * b), d VARCHAR(10) AS (concat(cast(c AS VARCHAR), 'x'))) DUPLICATE KEY(a) DISTRIBUTED BY HASH(a) BUCKETS 2");
    const url = `http://127.0.0.1:${server.ports.http_port}/api/gc/t/_stream_load`;
    const csv = path.join(dataDir, 'rows.csv');
    fs.writeFileSync(csv, '2,3\n4,5\n');
    assert.equal((await curlLoad(url, csv, ['column_separator:,'])).json.Status, 'Success');
    fs.writeFileSync(csv, '7,1\n');
    assert.equal((await curlLoad(url, csv, ['column_separator:,', 'columns: x, b, a = x + 1'])).json.Status, 'Success');
    const json = path.join(dataDir, 'rows.json');
    fs.writeFileSync(json, JSON.stringify([{ a: 10, b: 10 }]));
    assert.equal((await curlLoad(url, json, ['format:json', 'strip_outer_array:true'])).json.Status, 'Success');
    assert.deepEqual(await queryRows(conn, 'SELECT a, b, c, d FROM gc.t ORDER BY a'), [
      ['2', '3', '6', '6x'],
      ['4', '5', '20', '20x'],
      ['8', '1', '8', '8x'],
      ['10', '10', '100', '100x'],
    ]);
    fs.writeFileSync(csv, '1,2,3\n');
    const refused = await curlLoad(url, csv, ['column_separator:,', 'columns: a, b, c']);
    assert.equal(refused.json.Status, 'Fail');
    assert.match(String(refused.json.Message), /The value specified for generated column 'c' in table 't' is not allowed/);
  } finally {
    conn.destroy();
    await server.stop();
  }
});
