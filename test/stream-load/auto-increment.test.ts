/**
 * AUTO_INCREMENT through every load path a user meets: Stream Load CSV (column omitted, `\N`) and JSON
 * (key missing, null), async group commit, an explicit transaction — and across a SIGKILL, generated values
 * never repeat (the block a load takes is committed to the meta store before its rows are written).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRecords } from '../helpers/mysql-client';
import { curlLoad, sleep } from './helpers';

test('AUTO_INCREMENT values are filled by Stream Load, group commit and transactions, unique across a crash', async () => {
  const dataDir = makeDataDir();
  const first = await startGalene({ dataDir });
  let conn = await connect(first.ports.query_port);
  await conn.query('CREATE DATABASE ai');
  await conn.query('CREATE TABLE ai.t (k INT, id BIGINT NOT NULL AUTO_INCREMENT(500), name VARCHAR(10)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(id) BUCKETS 3');
  const url = `http://127.0.0.1:${first.ports.http_port}/api/ai/t/_stream_load`;
  const csv = path.join(dataDir, 'a.csv');
  fs.writeFileSync(csv, '1,a\n2,b\n');
  assert.equal((await curlLoad(url, csv, ['column_separator:,', 'columns: k,name'])).json.Status, 'Success');
  fs.writeFileSync(csv, '3,\\N,c\n4,7,d\n');
  assert.equal((await curlLoad(url, csv, ['column_separator:,'])).json.Status, 'Success');
  const json = path.join(dataDir, 'a.json');
  fs.writeFileSync(json, JSON.stringify([{ k: 5, name: 'e' }, { k: 6, id: null, name: 'f' }, { k: 8, id: 9, name: 'h' }]));
  assert.equal((await curlLoad(url, json, ['format:json', 'strip_outer_array:true'])).json.Status, 'Success');
  await conn.query('SET group_commit = async_mode');
  await conn.query("INSERT INTO ai.t (k, name) VALUES (10, 'j'), (11, 'k')");
  await conn.query('SET group_commit = off_mode');
  await conn.query('BEGIN');
  await conn.query("INSERT INTO ai.t (k, name) VALUES (12, 'l')");
  await conn.query('COMMIT');
  // The async group commit becomes visible within group_commit_interval_ms.
  let rows: Record<string, string | null>[] = [];
  for (let attempt = 0; attempt < 100 && rows.length < 10; attempt++) {
    rows = await queryRecords(conn, 'SELECT k, id FROM ai.t ORDER BY k');
    if (rows.length < 10) await sleep(200);
  }
  const idOf = new Map(rows.map((row) => [Number(row.k), Number(row.id)]));
  assert.equal(idOf.size, 10);
  // Given values are kept; the others are generated from the start value, all distinct.
  assert.equal(idOf.get(4), 7);
  assert.equal(idOf.get(8), 9);
  const generated = [1, 2, 3, 5, 6, 10, 11, 12].map((k) => idOf.get(k)!);
  assert.ok(generated.every((id) => id >= 500), JSON.stringify(generated));
  assert.equal(new Set(generated).size, generated.length);
  await conn.end();

  // A crash: values generated after the restart are new ones.
  await first.kill('SIGKILL');
  const second = await startGalene({ dataDir });
  conn = await connect(second.ports.query_port);
  await conn.query("INSERT INTO ai.t (k, name) VALUES (13, 'm'), (14, 'n')");
  const after = await queryRecords(conn, 'SELECT id FROM ai.t WHERE id >= 500');
  const ids = after.map((row) => Number(row.id));
  assert.equal(ids.length, 10);
  assert.equal(new Set(ids).size, 10, `repeated values after restart: ${ids.join(',')}`);
  await conn.end();
  await second.stop();
});
