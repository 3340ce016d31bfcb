/**
 * Stream Load into merge-on-write UNIQUE KEY tables: concurrent loads that arrive out of order converge
 * to the row with the largest sequence value per key (the Group Commit recipe: writers send change events
 * with an event time as the sequence column, in any order, retried or not), and `partial_columns: true`
 * updates only the loaded columns of existing rows.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { mulberry32 } from '../../src/common/prng';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';

describe('Stream Load into merge-on-write tables', () => {
  let server: GaleneProcess;
  let conn: Connection;
  const files = makeDataDir('galene-slm-files-');
  const url = (table: string): string => `http://127.0.0.1:${server.ports.webserver_port}/api/slm/${table}/_stream_load`;
  const file = (name: string, content: string): string => {
    const full = path.join(files, name);
    fs.writeFileSync(full, content);
    return full;
  };

  before(async () => {
    server = await startGalene();
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE slm');
    await conn.query("CREATE TABLE slm.ev (id INT NOT NULL, state VARCHAR(16), event_time BIGINT) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES ('function_column.sequence_col' = 'event_time')");
    await conn.query("CREATE TABLE slm.p (k INT NOT NULL, a INT, b VARCHAR(10) DEFAULT 'dflt', c INT NOT NULL) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2");
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  test('concurrent out-of-order loads converge to the largest sequence value per key', async () => {
    const random = mulberry32(3);
    const KEYS = 50;
    const LOADS = 12;
    // Every load carries an event for every key with a random event time; the winner per key is known.
    const best = new Map<number, { time: number; state: string }>();
    const bodies: string[] = [];
    for (let load = 0; load < LOADS; load++) {
      const lines: string[] = [];
      for (let id = 0; id < KEYS; id++) {
        const time = Math.floor(random() * 1_000_000) * 100 + load; // distinct times
        const state = `s${load}_${id}`;
        lines.push(`${id},${state},${time}`);
        if (!best.has(id) || best.get(id)!.time < time) best.set(id, { time, state });
      }
      bodies.push(lines.reverse().join('\n') + '\n');
    }
    const results = await Promise.all(bodies.map((body, load) => curlLoad(url('ev'), file(`ev-${load}.csv`, body), ['column_separator:,', 'function_column.sequence_col:event_time', `label:ev_${load}`])));
    for (const result of results) assert.equal(result.json.Status, 'Success', result.body);
    // A retry of an old load (new label) changes nothing: its events are older than the winners.
    const retry = await curlLoad(url('ev'), path.join(files, 'ev-0.csv'), ['column_separator:,', 'label:ev_retry']);
    assert.equal(retry.json.Status, 'Success', retry.body);
    const rows = await queryRows(conn, 'SELECT id, state, event_time FROM slm.ev ORDER BY id');
    assert.deepEqual(rows, [...best].sort((a, b) => a[0] - b[0]).map(([id, { time, state }]) => [String(id), state, String(time)]));
  });

  test('partial_columns updates only the loaded columns; new keys take defaults', async () => {
    await conn.query("INSERT INTO slm.p VALUES (1, 10, 'one', 100), (2, 20, 'two', 200)");
    const body = file('p.csv', '1,11\n3,33\n');
    const missingC = await curlLoad(url('p'), body, ['column_separator:,', 'partial_columns:true', 'columns:k,a']);
    assert.equal(missingC.json.Status, 'Fail', 'key 3 is new and c is NOT NULL without a default');
    assert.match(String(missingC.json.Message), /unmentioned column `c`/);
    const ok = await curlLoad(url('p'), file('p2.csv', '1,11,101\n3,33,303\n'), ['column_separator:,', 'partial_columns:true', 'columns:k,a,c']);
    assert.equal(ok.json.Status, 'Success', ok.body);
    assert.deepEqual(await queryRows(conn, 'SELECT k, a, b, c FROM slm.p ORDER BY k'), [
      ['1', '11', 'one', '101'],
      ['2', '20', 'two', '200'],
      ['3', '33', 'dflt', '303'],
    ]);
    const derived = await curlLoad(url('p'), file('p3.csv', '2,deux\n'), ['column_separator:,', 'partial_columns:true', 'columns:k,tmp,b=upper(tmp)']);
    assert.equal(derived.json.Status, 'Success', derived.body);
    assert.deepEqual(await queryRows(conn, 'SELECT k, a, b, c FROM slm.p WHERE k = 2'), [['2', '20', 'DEUX', '200']]);
  });
});
