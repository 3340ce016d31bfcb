/**
 * Global TopN lazy materialization through a real server and mysql2: with
 * topn_lazy_materialization_threshold on (Doris's default, 1024) and off (-1), random ORDER BY / LIMIT /
 * OFFSET / WHERE shapes give the same rows — ties, NULLs, DESC, several tablets and segments, a
 * merge-on-write table with upserts and deletes, after compaction, in-thread scans and scan fragments in
 * the workers, prepared statements with parameters in the filter. EXPLAIN shows MATERIALIZE; the profile
 * shows the wide column read for the final rows only; merge-on-read tables stay eager.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as mysql from 'mysql2/promise';
import { mulberry32 } from '../../src/common/prng';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows, type TextRow } from '../helpers/mysql-client';

const random = mulberry32(11);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const maybe = (text: string): string => (random() < 0.12 ? 'NULL' : text);
const ROWS_PER_LOAD = 2000;
const LOADS = 4;

function row(id: number): string {
  const body = `'${id}:${'abcdefghij'.repeat(20 + (id % 7))}'`;
  return `(${id}, ${maybe(String(Math.floor(random() * 30)))}, ${maybe(`'${pick(['a', 'b', 'c', 'dd'])}'`)}, ${maybe(String(Math.floor(random() * 1000) - 500))}, ${body})`;
}

async function load(conn: mysql.Connection, table: string, firstId: number, count: number): Promise<void> {
  await conn.query(`INSERT INTO ${table} VALUES ${Array.from({ length: count }, (_v, idx) => row(firstId + idx)).join(',')}`);
}

async function explain(conn: mysql.Connection, sql: string): Promise<string> {
  return (await queryRows(conn, `EXPLAIN ${sql}`)).map(([line]) => line).join('\n');
}

async function lastProfile(conn: mysql.Connection): Promise<Map<string, string>> {
  const [[id]] = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
  return new Map((await queryRows(conn, `SHOW QUERY PROFILE "/${id}"`)).map(([name, value]) => [name!, value!]));
}

async function withThreshold(conn: mysql.Connection, threshold: number, sql: string): Promise<TextRow[]> {
  await conn.query(`SET topn_lazy_materialization_threshold = ${threshold}`);
  return queryRows(conn, sql);
}

/** A random TopN query over `table` (select list, filter, keys with ties and NULLs, LIMIT, OFFSET). */
function randomQuery(table: string): string {
  const lists = ['*', 'id, body', 'body, g', 'upper(substr(body, 1, 12)), k', 'id, concat(g, body), x + k', 'g, length(body)'];
  const filters = ['', 'WHERE k > 5', 'WHERE g IS NULL', "WHERE g IN ('a', 'dd') AND x < 100", 'WHERE x % 3 = 1', 'WHERE k = 7', 'WHERE id BETWEEN 1000 AND 5000'];
  const keys = ['k', 'k DESC', 'g', 'g DESC, x', 'x', 'k, g DESC', 'abs(x) DESC', 'k DESC, x, id', 'length(body) DESC, id'];
  const limit = pick([1, 3, 10, 64, 500]);
  const offset = pick([0, 0, 2, 300]);
  return `SELECT ${pick(lists)} FROM ${table} ${pick(filters)} ORDER BY ${pick(keys)} LIMIT ${limit}${offset > 0 ? ` OFFSET ${offset}` : ''}`;
}

async function versionCount(conn: mysql.Connection, table: string): Promise<number> {
  return (await queryRows(conn, `SHOW TABLETS FROM ${table}`)).reduce((sum, tablet) => sum + Number(tablet[2]), 0);
}

async function compareShapes(conn: mysql.Connection, table: string, rounds: number): Promise<number> {
  let lazy = 0;
  for (let round = 0; round < rounds; round++) {
    const sql = randomQuery(table);
    await conn.query('SET topn_lazy_materialization_threshold = 1024');
    if (/MATERIALIZE/.test(await explain(conn, sql))) lazy++;
    const on = await queryRows(conn, sql);
    assert.deepEqual(await withThreshold(conn, -1, sql), on, sql);
  }
  return lazy;
}

test('TopN lazy materialization over a real server: same rows on and off, the wide column read for the final rows only', async () => {
  const server = await startGalene({ dataDir: makeDataDir('galene-topn-lazy-'), args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000'] });
  const conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE lazy');
    await conn.query('USE lazy');
    const columns = '(id INT, k INT, g VARCHAR(8), x INT, body STRING)';
    await conn.query(`CREATE TABLE d ${columns} DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3 PROPERTIES ("disable_auto_compaction" = "true")`);
    await conn.query(`CREATE TABLE u ${columns} UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES ("disable_auto_compaction" = "true")`);
    await conn.query(`CREATE TABLE mor ${columns} UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES ("enable_unique_key_merge_on_write" = "false")`);
    for (let loadIdx = 0; loadIdx < LOADS; loadIdx++) await load(conn, 'd', loadIdx * ROWS_PER_LOAD, ROWS_PER_LOAD);
    // Upserts over earlier keys and deletes: phase one skips the hidden rows, phase two never sees them.
    await load(conn, 'u', 0, 3000);
    await load(conn, 'u', 1500, 3000);
    await load(conn, 'u', 500, 700);
    await conn.query('DELETE FROM u WHERE x < -300');
    await load(conn, 'mor', 0, 1500);
    await load(conn, 'mor', 700, 1500);
    const [[variable, value]] = await queryRows(conn, "SHOW VARIABLES LIKE 'topn_lazy_materialization_threshold'");
    assert.deepEqual([variable, value], ['topn_lazy_materialization_threshold', '1024'], "Doris's default");

    // The plan: phase one reads the keys and the filter's columns plus the row id; MATERIALIZE the rest.
    const top10 = 'SELECT id, body FROM d ORDER BY k DESC, id LIMIT 10';
    assert.match(await explain(conn, top10), /MATERIALIZE #\d+\n\s+table: lazy\.d\n\s+lazy materialization: \[body\]\n\s+row id: __DORIS_GLOBAL_ROWID_COL__d\n/);
    assert.match(await explain(conn, top10), /TABLE SCAN #\d+\n\s+table: lazy\.d\n\s+columns: \[id, k\]\n\s+global row id: __DORIS_GLOBAL_ROWID_COL__d\n/);
    const onRows = await queryRows(conn, top10);
    let profile = await lastProfile(conn);
    assert.equal(profile.get('Column.body.RowsRead'), '10', 'the wide column is read for the 10 final rows');
    assert.equal(profile.get('MaterializeColumn.body.RowsRead'), '10');
    assert.ok(Number(profile.get('MaterializeColumn.body.BytesRead')) > 0);
    assert.equal(profile.get('MaterializedRows'), '10');
    assert.equal(profile.get('Column.k.RowsRead'), String(LOADS * ROWS_PER_LOAD), 'phase one reads the key of every row');
    assert.deepEqual(await withThreshold(conn, -1, top10), onRows);
    profile = await lastProfile(conn);
    assert.equal(profile.get('Column.body.RowsRead'), String(LOADS * ROWS_PER_LOAD), 'eager: every row of the wide column');
    assert.equal(profile.get('MaterializedRows'), undefined);
    assert.doesNotMatch(await explain(conn, top10), /MATERIALIZE/);
    await conn.query('SET topn_lazy_materialization_threshold = 10');
    assert.match(await explain(conn, top10), /MATERIALIZE/);
    assert.doesNotMatch(await explain(conn, `${top10} OFFSET 1`), /MATERIALIZE/, 'limit + offset above the threshold');
    await conn.query('SET topn_lazy_materialization_threshold = 1024');

    // A filter over the large table runs as a scan fragment in the workers: the row ids come back with the rows.
    const filtered = "SELECT id, g, body FROM d WHERE x > 100 AND g <> 'b' ORDER BY x DESC, id LIMIT 25";
    assert.match(await explain(conn, filtered), /MATERIALIZE #\d+[\s\S]*SCAN FRAGMENT #\d+\n\s+degree: 2\n\s+filter: [^\n]+\n\s+output: \[id, g, x, __DORIS_GLOBAL_ROWID_COL__d\]/);
    const filteredOn = await queryRows(conn, filtered);
    profile = await lastProfile(conn);
    assert.ok(Number(profile.get('ParallelScanTasks') ?? 0) >= 2, 'phase one ran in the scan workers');
    assert.equal(profile.get('Column.body.RowsRead'), '25');
    assert.equal(filteredOn.length, 25);
    assert.deepEqual(await withThreshold(conn, -1, filtered), filteredOn);

    // Random shapes over the duplicate and merge-on-write tables.
    assert.ok((await compareShapes(conn, 'd', 40)) > 20);
    assert.ok((await compareShapes(conn, 'u', 30)) > 15);
    // Merge-on-read: a merged row has no single address; the plan stays eager, the answers are right.
    await conn.query('SET topn_lazy_materialization_threshold = 1024');
    assert.doesNotMatch(await explain(conn, 'SELECT * FROM mor ORDER BY k LIMIT 5'), /MATERIALIZE/);
    assert.equal(await compareShapes(conn, 'mor', 8), 0);

    // Prepared statements (binary protocol, plan cache): parameters in the filter; LIMIT ? stays eager.
    // The binary protocol needs mysql2's own value parsing.
    const binary = await connect(server.ports.query_port, { typeCast: true, database: 'lazy' });
    const prepared = 'SELECT id, body, k FROM d WHERE x > ? AND g = ? ORDER BY k DESC, x, id LIMIT 15';
    const execute = async (sql: string, params: (string | number)[]): Promise<unknown[]> => (await binary.execute({ sql, rowsAsArray: true }, params))[0] as unknown[];
    for (const [threshold, rounds] of [[1024, 2], [-1, 1]] as const) {
      await binary.query(`SET topn_lazy_materialization_threshold = ${threshold}`);
      for (let round = 0; round < rounds; round++) {
        for (const [bound, group] of [[0, 'a'], [-200, 'dd'], [300, 'c']] as const) {
          const rows = await execute(prepared, [bound, group]);
          if (round === 0 && bound === 0) {
            // The first execution after SET plans again (the cached plan recorded the variable) and keeps the plan text.
            const plan = (await lastProfile(conn)).get('Plan') ?? '';
            assert.match(plan, /TOP-N/);
            if (threshold > 0) assert.match(plan, /MATERIALIZE/);
            else assert.doesNotMatch(plan, /MATERIALIZE/);
          }
          const plain = await queryRows(conn, `SELECT id, body, k FROM d WHERE x > ${bound} AND g = '${group}' ORDER BY k DESC, x, id LIMIT 15`);
          assert.equal(rows.length, 15);
          assert.deepEqual((rows as unknown[][]).map((cells) => cells.map((cell) => (cell === null ? null : String(cell)))), plain, `${threshold} ${bound} ${group}`);
        }
      }
    }
    await binary.query('SET topn_lazy_materialization_threshold = 1024');
    const limited = await execute('SELECT id, body FROM d WHERE x > ? ORDER BY k, id LIMIT ?', [0, 12]);
    assert.deepEqual((limited as unknown[][]).map((cells) => cells.map(String)), await queryRows(conn, 'SELECT id, body FROM d WHERE x > 0 ORDER BY k, id LIMIT 12'));
    await binary.end();

    // After compaction merged the rowsets, the row ids address the new segments.
    await conn.query(`CREATE TABLE c ${columns} DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
    for (let loadIdx = 0; loadIdx < 12; loadIdx++) await load(conn, 'c', loadIdx * 300, 300);
    const deadline = Date.now() + 30_000;
    while ((await versionCount(conn, 'c')) >= 5) {
      assert.ok(Date.now() < deadline, 'compaction reduced the version count within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Compared once compaction has settled: a merge in between would change the order of tied rows.
    for (let settled = await versionCount(conn, 'c'); ; ) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const now = await versionCount(conn, 'c');
      if (now === settled) break;
      settled = now;
    }
    assert.ok((await compareShapes(conn, 'c', 15)) > 5);
  } finally {
    await conn.end();
    await server.stop();
  }
});
