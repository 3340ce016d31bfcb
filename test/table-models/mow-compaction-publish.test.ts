/**
 * Merge-on-write compaction does not hold up loads: the tablet merge runs without the table's publish
 * lock. A fault hook pauses the compaction after its merge has read and written the rows (the widest
 * window), loads of every kind — INSERT upserts of compacted keys, a Stream Load, DELETE by key, new keys
 * — are published and finish while it is paused; after the swap the newest values win, deleted keys stay
 * deleted, no key has two rows, and the same holds after a restart (the output's delete bitmap is durable).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import type { RunningGalene } from '../../src/fe/galene-server';
import { makeDataDir } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';
import { pauseAfterMerge, startInProcess } from './in-process';

const KEYS = 3000;
const LOADS = 6;

async function rowsetCount(conn: Connection): Promise<number> {
  const rows = await queryRows(conn, 'SHOW TABLETS FROM t');
  return rows.reduce((sum, row) => sum + Number(row[2]), 0);
}

async function checkRows(conn: Connection, expected: Map<number, number>, when: string): Promise<void> {
  const want = [...expected].sort((a, b) => a[0] - b[0]).map(([key, value]) => [String(key), String(value)]);
  assert.deepEqual(await queryRows(conn, 'SELECT k, v FROM t ORDER BY k'), want, `rows ${when}`);
  assert.deepEqual(await queryRows(conn, 'SELECT count(*), count(DISTINCT k) FROM t'), [[String(want.length), String(want.length)]], `one row per key ${when}`);
}

test('loads publish while a merge-on-write compaction is paused; after the swap the newest rows win', { timeout: 120_000 }, async () => {
  const dataDir = makeDataDir('galene-mow-compact-');
  let server: RunningGalene = await startInProcess(dataDir);
  try {
    let conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE mc');
    await conn.query('USE mc');
    await conn.query('CREATE TABLE t (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "true")');
    const expected = new Map<number, number>();
    // Overlapping loads: each replaces the rows of earlier ones (delete bitmap entries on the inputs).
    for (let load = 0; load < LOADS; load++) {
      const values: string[] = [];
      for (let key = load * 100; key < KEYS + load * 100; key++) {
        values.push(`(${key}, ${load * 10_000 + key})`);
        expected.set(key, load * 10_000 + key);
      }
      await conn.query(`INSERT INTO t VALUES ${values.join(', ')}`);
    }
    await checkRows(conn, expected, 'before compaction');

    const frontend = server.frontend;
    const table = frontend.catalog.getTable('mc', 't');
    const tabletId = table.tablets[0].id;
    const pause = pauseAfterMerge(frontend.compaction);
    let compactionDone = false;
    const compaction = frontend.compaction.compactTablet(table, tabletId, table.rowsets).then(() => (compactionDone = true));
    await pause.reached;

    // While the merged rowset waits for its swap: upserts of compacted keys, a Stream Load, DELETE, new keys.
    const upserts: string[] = [];
    for (let key = 0; key < 200; key++) {
      upserts.push(`(${key}, ${-key})`);
      expected.set(key, -key);
    }
    await conn.query(`INSERT INTO t VALUES ${upserts.join(', ')}`);
    const file = path.join(dataDir, 'upsert.csv');
    const lines: string[] = [];
    for (let key = 1000; key < 1100; key++) {
      lines.push(`${key},${1_000_000 + key}`);
      expected.set(key, 1_000_000 + key);
    }
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const streamLoad = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/mc/t/_stream_load`, file, ['column_separator:,']);
    assert.equal(streamLoad.json.Status, 'Success', streamLoad.body);
    await conn.query('DELETE FROM t WHERE k >= 2000 AND k < 2050');
    for (let key = 2000; key < 2050; key++) expected.delete(key);
    await conn.query('DELETE FROM t WHERE k = 150'); // a key upserted during the merge, then deleted
    expected.delete(150);
    await conn.query('INSERT INTO t VALUES (100000, 1), (100001, 2)');
    expected.set(100000, 1).set(100001, 2);
    assert.equal(compactionDone, false, 'every load finished while the compaction was paused');
    await checkRows(conn, expected, 'during compaction');

    pause.release();
    await compaction;
    assert.equal(frontend.compaction.stats.failures, 0);
    // The six input rowsets became one; the three loads published meanwhile stay (DELETE adds none).
    assert.equal(await rowsetCount(conn), 1 + 3);
    await checkRows(conn, expected, 'after the swap');
    await conn.query('INSERT INTO t VALUES (1, 7)');
    expected.set(1, 7);
    await checkRows(conn, expected, 'after a load following the swap');
    await conn.end();

    await server.stop();
    server = await startInProcess(dataDir);
    conn = await connect(server.ports.query_port, { database: 'mc' });
    await checkRows(conn, expected, 'after a restart');
    await conn.end();
  } finally {
    await server.stop();
  }
});
