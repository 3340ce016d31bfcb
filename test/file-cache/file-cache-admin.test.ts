/**
 * The file cache's admin surface on a real server, with real clients: curl on the BE web port
 * (`/api/file_cache?op=clear|reset`, Doris's JSON answers, admin only; `/metrics` with Doris's
 * file_cache_* names), mysql2 for information_schema.file_cache_info and the per-query session variables.
 * The BE opens its block cache at start even over the local store, so all of it answers.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { curl } from '../helpers/cli';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const CAPACITY = 8 * 1024 * 1024;

/** A gauge's value in the BE's /metrics text. */
function metric(text: string, name: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  assert.ok(line, `metric ${name} present`);
  return Number(line.slice(name.length + 1));
}

describe('file cache admin: /api/file_cache, information_schema.file_cache_info, session limits', () => {
  let server: GaleneProcess;
  let conn: Connection;
  let cacheDir: string;
  let be: string;

  before(async () => {
    const dataDir = makeDataDir('galene-fcache-admin-');
    cacheDir = path.join(dataDir, 'fc');
    server = await startGalene({ dataDir, args: ['--file_cache_path', JSON.stringify([{ path: cacheDir, total_size: CAPACITY, ttl_percent: 50, normal_percent: 40, disposable_percent: 5, index_percent: 5 }])] });
    conn = await connect(server.ports.query_port);
    be = `http://127.0.0.1:${server.ports.webserver_port}`;
  });

  after(async () => {
    await conn?.end();
    await server?.stop();
  });

  test('the block cache is open at start; clear and reset answer as Doris, for admins only', async () => {
    assert.ok(fs.existsSync(cacheDir), 'the cache directory was created at start');
    const refused = await curl(`${be}/api/file_cache?op=clear&sync=true`, null);
    assert.equal(refused.status, 401);
    const cleared = await curl(`${be}/api/file_cache?op=clear&sync=true`, 'root:');
    assert.equal(cleared.status, 200);
    assert.equal(JSON.parse(cleared.body).status, 'OK');
    const background = await curl(`${be}/api/file_cache?op=clear&sync=false`, 'root:');
    assert.equal(JSON.parse(background.body).status, 'OK');

    const metricsBefore = (await curl(`${be}/metrics`, null)).body;
    assert.equal(metric(metricsBefore, 'doris_be_file_cache_capacity'), CAPACITY);
    const reset = await curl(`${be}/api/file_cache?op=reset&capacity=${CAPACITY / 2}`, 'root:');
    assert.equal(reset.status, 200);
    const answer = JSON.parse(reset.body) as { status: string; msg: string };
    assert.equal(answer.status, 'OK');
    assert.match(answer.msg, new RegExp(`finish reset_capacity, path=.*new_capacity=${CAPACITY / 2}`));
    const metricsAfter = (await curl(`${be}/metrics`, null)).body;
    assert.equal(metric(metricsAfter, 'doris_be_file_cache_capacity'), CAPACITY / 2);
    for (const name of ['doris_be_file_cache_cache_size', 'doris_be_file_cache_hits_ratio', 'doris_be_file_cache_normal_queue_cache_size', 'doris_be_file_cache_normal_queue_element_count', 'doris_be_file_cache_index_queue_cache_size', 'doris_be_file_cache_disposable_queue_cache_size', 'doris_be_file_cache_ttl_cache_size', 'doris_be_file_cache_total_evict_size']) {
      assert.equal(metric(metricsAfter, name), 0, name);
    }

    const badCapacity = await curl(`${be}/api/file_cache?op=reset&capacity=lots`, 'root:');
    assert.equal(badCapacity.status, 500);
    assert.deepEqual(JSON.parse(badCapacity.body), { status: 'INVALID_ARGUMENT', msg: 'The capacity lots failed to be parsed, the capacity needs to be in the interval (0, INT64_MAX]' });
    const badOp = await curl(`${be}/api/file_cache?op=explode`, 'root:');
    assert.equal(badOp.status, 500);
    assert.deepEqual(JSON.parse(badOp.body), { status: 'INTERNAL_ERROR', msg: 'invalid operation: explode' });
  });

  test('information_schema.file_cache_info has Doris 4.1 columns', async () => {
    const [rows, fields] = await conn.query('SELECT * FROM information_schema.file_cache_info');
    assert.deepEqual(fields.map((field) => field.name), ['HASH', 'OFFSET', 'TABLET_ID', 'SIZE', 'TYPE', 'REMOTE_PATH', 'CACHE_PATH', 'BE_ID']);
    assert.deepEqual(rows, [], 'a local store reads in place: no blocks');
    const [grouped] = await conn.query('SELECT BE_ID, TYPE, SUM(SIZE) FROM information_schema.file_cache_info GROUP BY BE_ID, TYPE');
    assert.deepEqual(grouped, []);
  });

  test('per-query session variables: disable_file_cache, file_cache_query_limit_bytes / _percent', async () => {
    await conn.query('SET disable_file_cache = true');
    await conn.query('SET file_cache_query_limit_bytes = 1048576');
    await conn.query('SET file_cache_query_limit_percent = 50');
    const rows = await queryRows(conn, "SHOW VARIABLES LIKE 'file_cache_query_limit%'");
    assert.deepEqual(rows.map((row) => row.slice(0, 2)), [['file_cache_query_limit_bytes', '1048576'], ['file_cache_query_limit_percent', '50']]);
    await assert.rejects(conn.query('SET file_cache_query_limit_percent = 101'), /file_cache_query_limit_percent/);
    await assert.rejects(conn.query('SET file_cache_query_limit_bytes = -2'), /file_cache_query_limit_bytes/);
    // A query under the limits runs as usual.
    await conn.query('CREATE DATABASE IF NOT EXISTS fc');
    await conn.query('CREATE TABLE fc.t (k INT, v VARCHAR(8)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await conn.query("INSERT INTO fc.t VALUES (1, 'a'), (2, 'b')");
    const [result] = await conn.query('SELECT COUNT(*) AS n FROM fc.t');
    assert.deepEqual(result, [['2']]);
    await conn.query('SET disable_file_cache = false');
  });
});
