/**
 * JSON columns through Stream Load over real HTTP with curl: JSON text in a CSV cell is parsed and stored
 * in canonical form, a nested object or array value of a JSON-format body goes in as JSON (a string value is read as JSON text), and a cell that
 * is not valid JSON is a filtered row (the load fails under the default max_filter_ratio, loads the good
 * rows with a ratio that allows it).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from './helpers';

describe('Stream Load into JSON columns', () => {
  let server: GaleneProcess;
  let conn: Connection;
  let url: (table: string) => string;
  const files = makeDataDir('galene-json-load-');
  const file = (name: string, content: string): string => {
    const full = path.join(files, name);
    fs.writeFileSync(full, content);
    return full;
  };

  before(async () => {
    server = await startGalene();
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE jl');
    await conn.query('CREATE TABLE jl.c (id INT NOT NULL, j JSON) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
    await conn.query('CREATE TABLE jl.n (id INT NOT NULL, j JSONB) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
    url = (table) => `http://127.0.0.1:${server.ports.http_port}/api/jl/${table}/_stream_load`;
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  test('CSV: JSON text in a cell is stored in canonical form; an invalid cell is a filtered row', async () => {
    const good = await curlLoad(url('c'), file('good.csv', '1|{"a": 1, "b": [true, null]}\n2|[1, "x"]\n3|\\N\n'), ['column_separator:|']);
    assert.equal(good.json.Status, 'Success', good.body);
    assert.equal(good.json.NumberLoadedRows, 3);
    const bad = await curlLoad(url('c'), file('bad.csv', '4|{"a": 1\n5|7\n'), ['column_separator:|']);
    assert.equal(bad.json.Status, 'Fail', bad.body);
    assert.equal(bad.json.NumberFilteredRows, 1, bad.body);
    const allowed = await curlLoad(url('c'), file('bad2.csv', '4|{"a": 1\n5|7\n'), ['column_separator:|', 'max_filter_ratio:0.5']);
    assert.equal(allowed.json.Status, 'Success', allowed.body);
    assert.equal(allowed.json.NumberLoadedRows, 1);
    assert.deepEqual(await queryRows(conn, "SELECT id, j, json_extract(j, '$.b[0]') FROM jl.c ORDER BY id"), [
      ['1', '{"a":1,"b":[true,null]}', 'true'],
      ['2', '[1,"x"]', null],
      ['3', null, null],
      ['5', '7', null],
    ]);
  });

  test('JSON body: nested objects and arrays go in as JSON values', async () => {
    const body = '[{"id": 1, "j": {"k": {"x": 2}, "arr": [1, 2]}}, {"id": 2, "j": [3, {"y": "z"}]}, {"id": 3, "j": "{\\"s\\": 1}"}, {"id": 4, "j": null}]';
    const result = await curlLoad(url('n'), file('rows.json', body), ['format:json', 'strip_outer_array:true']);
    assert.equal(result.json.Status, 'Success', result.body);
    assert.deepEqual(await queryRows(conn, "SELECT id, j, json_extract_int(j, '$.k.x'), json_type(j) FROM jl.n ORDER BY id"), [
      ['1', '{"k":{"x":2},"arr":[1,2]}', '2', 'object'],
      ['2', '[3,{"y":"z"}]', null, 'array'],
      ['3', '{"s":1}', null, 'object'],
      ['4', null, null, null],
    ]);
  });
});
