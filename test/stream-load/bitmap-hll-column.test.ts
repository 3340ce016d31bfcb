/**
 * BITMAP_UNION and HLL_UNION columns of an AGGREGATE KEY table through Stream Load over real HTTP with
 * curl, the way Doris users write it (`columns: ..., uv=to_bitmap(user_id), h=hll_hash(user_id)`), with
 * and without group commit: the states merge on flush, on read and in compaction, survive a restart, and
 * the bitmap / HLL aggregates give the same counts in-thread and from scan fragments (partial states
 * serialized by the workers and merged by the final aggregate).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from './helpers';

const ARGS = ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '100'];
const LOADS = 6;
const ROWS_PER_LOAD = 3000;

/** Load `load`'s rows: day, page, user id; users overlap between loads (ids [load * 1000, load * 1000 + 3000)). */
function loadRows(load: number): string {
  const lines: string[] = [];
  for (let rowIdx = 0; rowIdx < ROWS_PER_LOAD; rowIdx++) lines.push(`2024-05-0${1 + (rowIdx % 2)},${rowIdx % 3 === 0 ? 'home' : 'cart'},${load * 1000 + rowIdx}`);
  return lines.join('\n') + '\n';
}

/** The exact distinct users per (day, page) over every load, for comparison. */
function expectedCounts(): Map<string, number> {
  const sets = new Map<string, Set<number>>();
  for (let load = 0; load < LOADS; load++) {
    for (let rowIdx = 0; rowIdx < ROWS_PER_LOAD; rowIdx++) {
      const key = `2024-05-0${1 + (rowIdx % 2)}|${rowIdx % 3 === 0 ? 'home' : 'cart'}`;
      if (!sets.has(key)) sets.set(key, new Set());
      sets.get(key)!.add(load * 1000 + rowIdx);
    }
  }
  return new Map([...sets].map(([key, set]) => [key, set.size]));
}

describe('Stream Load into BITMAP_UNION / HLL_UNION columns', () => {
  let server: GaleneProcess;
  let conn: Connection;
  const files = makeDataDir('galene-bitmap-load-');
  const url = (table: string) => `http://127.0.0.1:${server.ports.http_port}/api/bm/${table}/_stream_load`;
  const file = (name: string, content: string): string => {
    const full = path.join(files, name);
    fs.writeFileSync(full, content);
    return full;
  };
  const versionCount = async (): Promise<number> => (await queryRows(conn, 'SHOW TABLETS FROM uv')).reduce((sum, row) => sum + Number(row[2]), 0);
  const counts = async () => queryRows(conn, 'SELECT dt, page, bitmap_count(users), hll_cardinality(h) FROM uv ORDER BY dt, page');

  /** Bitmap counts exact; HLL counts within Doris's typical error (2%). */
  function checkCounts(rows: readonly (readonly (string | null)[])[], what: string): void {
    const expected = expectedCounts();
    assert.equal(rows.length, expected.size, what);
    for (const [dt, page, bitmapCount, hllCount] of rows) {
      const exact = expected.get(`${dt}|${page}`)!;
      assert.equal(Number(bitmapCount), exact, `${what}: bitmap_count for ${dt} ${page}`);
      assert.ok(Math.abs(Number(hllCount) - exact) / exact < 0.02, `${what}: hll_cardinality ${hllCount} for ${dt} ${page}, exact ${exact}`);
    }
  }

  before(async () => {
    server = await startGalene({ args: ARGS });
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE bm');
    await conn.query('USE bm');
    await conn.query('CREATE TABLE uv (dt DATE, page VARCHAR(16), users BITMAP BITMAP_UNION, h HLL HLL_UNION) AGGREGATE KEY(dt, page) DISTRIBUTED BY HASH(dt) BUCKETS 1 PROPERTIES ("group_commit_interval_ms" = "200")');
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  test('columns mappings build the states; loads with and without group commit merge per key', async () => {
    for (let load = 0; load < LOADS; load++) {
      const headers = ['column_separator:,', 'columns: dt, page, user_id, users=to_bitmap(user_id), h=hll_hash(user_id)'];
      if (load % 2 === 1) headers.push('group_commit:sync_mode');
      const result = await curlLoad(url('uv'), file(`load${load}.csv`, loadRows(load)), headers);
      assert.equal(result.json.Status, 'Success', result.body);
      assert.equal(result.json.NumberLoadedRows, ROWS_PER_LOAD, result.body);
    }
    checkCounts(await counts(), 'after the loads');
    // SELECT * shows the states as NULL, as Doris does.
    assert.deepEqual((await queryRows(conn, 'SELECT * FROM uv ORDER BY dt, page LIMIT 1'))[0], ['2024-05-01', 'cart', null, null]);
    // The binary protocol (a prepared statement) sends them as NULL too.
    const typed = await connect(server.ports.query_port, { database: 'bm', typeCast: true, dateStrings: true });
    const [binary] = await typed.execute('SELECT dt, users, h, bitmap_count(users) FROM uv WHERE page = ? ORDER BY dt LIMIT 1', ['cart']);
    typed.destroy();
    const row = (binary as unknown[][])[0];
    assert.equal(row[1], null);
    assert.equal(row[2], null);
    assert.equal(Number(row[3]), expectedCounts().get('2024-05-01|cart'));
  });

  test('a cell loaded straight into a BITMAP column is a filtered row', async () => {
    const result = await curlLoad(url('uv'), file('direct.csv', '2024-05-09,home,1,2\n'), ['column_separator:,']);
    assert.equal(result.json.Status, 'Fail', result.body);
    assert.equal(result.json.NumberFilteredRows, 1, result.body);
  });

  test('compaction merges the states; a restart reads them back', async () => {
    const deadline = Date.now() + 60_000;
    while ((await versionCount()) >= LOADS) {
      assert.ok(Date.now() < deadline, `compaction merged rowsets within 60 s (versions: ${await versionCount()}); server log: ${server.stderr().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    checkCounts(await counts(), 'after compaction');
    conn.destroy();
    await server.stop();
    server = await startGalene({ dataDir: server.dataDir, args: ARGS });
    conn = await connect(server.ports.query_port, { database: 'bm' });
    checkCounts(await counts(), 'after restart');
  });

  test('bitmap and HLL aggregates run in scan fragments with the in-thread results', async () => {
    await conn.query('CREATE TABLE visits (id INT, user_id BIGINT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 4');
    const body = Array.from({ length: 20_000 }, (_unused, rowIdx) => `${rowIdx},${(rowIdx * 7919) % 5000}`).join('\n') + '\n';
    const loaded = await curlLoad(url('visits'), file('visits.csv', body), ['column_separator:,']);
    assert.equal(loaded.json.Status, 'Success', loaded.body);
    const sql = 'SELECT id % 3, bitmap_union_count(to_bitmap(user_id)), bitmap_count(bitmap_union(to_bitmap(user_id))), hll_union_agg(hll_hash(user_id)), bitmap_union_int(user_id), bitmap_count(bitmap_agg(user_id)) FROM visits GROUP BY id % 3 ORDER BY 1';
    const plan = (await queryRows(conn, `EXPLAIN ${sql}`)).map((row) => row[0]).join('\n');
    assert.match(plan, /SCAN FRAGMENT/, plan);
    const fragments = await queryRows(conn, sql);
    await conn.query("SET disable_nereids_rules = 'plan_fragments'");
    const inThread = await queryRows(conn, sql);
    await conn.query("SET disable_nereids_rules = ''");
    assert.deepEqual(fragments, inThread);
    for (const row of fragments) {
      assert.equal(row[1], row[2]);
      assert.equal(row[1], row[4]);
      assert.equal(row[1], row[5]);
      assert.ok(Math.abs(Number(row[3]) - Number(row[1])) / Number(row[1]) < 0.02, `hll ${row[3]} vs exact ${row[1]}`);
    }
  });
});
