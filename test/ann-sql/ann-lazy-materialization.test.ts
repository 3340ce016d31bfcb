/**
 * Global TopN lazy materialization over ANN TopN scans (the seed's "全局 TopN 延迟物化") through a real
 * server and mysql2: phase one is the index search alone (each segment returns its k distances and global
 * row ids), the TopN merges them, MATERIALIZE reads the other columns of the final rows. With
 * topn_lazy_materialization_threshold on (1024) and off (-1), random select lists, filters, LIMIT and
 * OFFSET give identical rows over several tablets and segments (scan workers and in-thread), a
 * merge-on-write table with upserts and deletes, and prepared statements with a vector `?`. The profile
 * shows the wide STRING column read for exactly LIMIT rows (on) vs LIMIT x segments (off); range-only
 * searches stay eager.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { mixtureDataSet } from '../../bench/lib/vector-data';
import { mulberry32 } from '../../src/common/prng';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows, type TextRow } from '../helpers/mysql-client';

/** 128: segments of 750 rows exceed the exact-scan crossover (exactMaxRowsFor), so unfiltered searches use the index. */
const DIM = 128;
const LOAD_ROWS = 1500;
const LOADS = 4;
const BUCKETS = 2;
const QUERIES = 16;
const data = mixtureDataSet(LOADS * LOAD_ROWS, QUERIES, DIM, 5);
const random = mulberry32(23);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

let server: GaleneProcess;
let conn: Connection;

const vectorText = (row: number): string => `[${Array.from(data.base.subarray(row * DIM, (row + 1) * DIM), (value) => value.toFixed(5)).join(',')}]`;
const queryText = (queryIdx: number): string => `[${Array.from(data.queries.subarray(queryIdx * DIM, (queryIdx + 1) * DIM), (value) => value.toFixed(5)).join(',')}]`;
const tagOf = (row: number): string => (row % 3 === 0 ? 'olap' : 'oltp');
/** A wide STRING value: what phase one should not read for rows the sort drops. */
const bodyOf = (row: number, version: string): string => `${version}:${row}:${'abcdefghij'.repeat(20 + (row % 5))}`;

function values(firstRow: number, count: number, version: string): string {
  return Array.from({ length: count }, (_v, idx) => firstRow + idx)
    .map((row) => `(${row}, '${tagOf(row)}', ${row % 1000}, '${bodyOf(row, version)}', ${vectorText(row)})`)
    .join(',');
}

const COLUMNS = '(id INT NOT NULL, tag VARCHAR(8), sel INT, body STRING, embedding ARRAY<FLOAT> NOT NULL, INDEX idx_emb (embedding) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="128"))';

before(async () => {
  server = await startGalene({
    dataDir: makeDataDir('galene-ann-lazy-'),
    args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000', '--ann_index_build_min_segment_rows', '100', '--ann_search_in_thread_max_segments', '0'],
  });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE annlazy');
  await conn.query('USE annlazy');
  // Parallel-scanned tables search in the workers (ann_search_in_thread_max_segments 0), one task per segment.
  await conn.query('SET optimize_index_scan_parallelism = true');
  const props = 'PROPERTIES ("disable_auto_compaction" = "true")';
  await conn.query(`CREATE TABLE d ${COLUMNS} DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS ${BUCKETS} ${props}`);
  for (let loadIdx = 0; loadIdx < LOADS; loadIdx++) await conn.query(`INSERT INTO d VALUES ${values(loadIdx * LOAD_ROWS, LOAD_ROWS, 'v1')}`);
  await conn.query(`CREATE TABLE u ${COLUMNS} UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS ${BUCKETS} ${props}`);
  await conn.query(`INSERT INTO u VALUES ${values(0, 3000, 'v1')}`);
  // Upserts over earlier keys: the row ids must address the newest version of each key.
  await conn.query(`INSERT INTO u VALUES ${values(1000, 1500, 'v2')}`);
  await conn.query('DELETE FROM u WHERE sel < 100');
  // Small: scanned in-thread (below parallel_scan_min_rows_per_scanner).
  await conn.query(`CREATE TABLE small ${COLUMNS} DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS ${BUCKETS} ${props}`);
  await conn.query(`INSERT INTO small VALUES ${values(0, 400, 'v1')}`);
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

const lastProfile = (): Promise<Map<string, string>> => lastQueryProfile(conn);

const counter = (profile: Map<string, string>, name: string): number => Number(profile.get(name) ?? 0);

async function explain(sql: string): Promise<string> {
  return (await queryRows(conn, `EXPLAIN ${sql}`)).map(([line]) => line).join('\n');
}

async function withThreshold(threshold: number, sql: string): Promise<{ rows: TextRow[]; profile: Map<string, string> }> {
  await conn.query(`SET topn_lazy_materialization_threshold = ${threshold}`);
  const rows = await queryRows(conn, sql);
  return { rows, profile: await lastProfile() };
}

const dist = (queryIdx: number): string => `l2_distance_approximate(embedding, ${queryText(queryIdx)})`;

function randomQuery(table: string): string {
  const queryIdx = Math.floor(random() * QUERIES);
  const lists = ['id, body, DIST AS d', 'body, tag, DIST AS d', 'id', 'id, embedding, DIST AS d', 'concat(tag, body), sel, DIST AS d', 'upper(substr(body, 1, 12)), id + sel, DIST AS d'];
  const filters = ['', "WHERE tag = 'olap'", 'WHERE sel < 100', 'WHERE id BETWEEN 1000 AND 4000', "WHERE sel % 7 = 1 AND tag <> 'x'"];
  const limit = pick([1, 5, 10, 50]);
  const offset = pick([0, 0, 3]);
  return `SELECT ${pick(lists).replace('DIST', dist(queryIdx))} FROM ${table} ${pick(filters)} ORDER BY ${dist(queryIdx)} LIMIT ${limit}${offset > 0 ? ` OFFSET ${offset}` : ''}`;
}

/** Random shapes: same rows on and off; how many planned MATERIALIZE over an ANN scan, and how many returned rows. */
async function compareShapes(table: string, rounds: number): Promise<{ lazy: number; nonEmpty: number }> {
  let lazy = 0;
  let nonEmpty = 0;
  for (let round = 0; round < rounds; round++) {
    const sql = randomQuery(table);
    await conn.query('SET topn_lazy_materialization_threshold = 1024');
    const plan = await explain(sql);
    assert.match(plan, /ann top-n: k=\d+ ASC per segment/, sql);
    if (/MATERIALIZE/.test(plan)) lazy++;
    const on = await withThreshold(1024, sql);
    const off = await withThreshold(-1, sql);
    assert.deepEqual(on.rows, off.rows, sql);
    if (on.rows.length > 0) nonEmpty++;
  }
  await conn.query('SET topn_lazy_materialization_threshold = 1024');
  return { lazy, nonEmpty };
}

test('EXPLAIN: the ANN scan returns distances and row ids, MATERIALIZE the select list; range-only searches stay eager', async () => {
  await conn.query('SET topn_lazy_materialization_threshold = 1024');
  const plan = await explain(`SELECT id, body, ${dist(0)} AS d FROM d ORDER BY d LIMIT 10`);
  assert.match(plan, /MATERIALIZE #\d+\n\s+table: annlazy\.d\n\s+lazy materialization: \[id, body\]\n\s+row id: __DORIS_GLOBAL_ROWID_COL__d\n/);
  assert.match(plan, /TABLE SCAN #\d+\n\s+table: annlazy\.d\n\s+columns: \[\]\n\s+global row id: __DORIS_GLOBAL_ROWID_COL__d\n\s+ann index: idx_emb [^\n]+\n\s+ann top-n: k=10 ASC per segment\n\s+index-only: true, distance column: from the index\n\s+output: \[__ann_distance, __DORIS_GLOBAL_ROWID_COL__d\]/);
  // The allowed-row filter reads its columns inside the search; the select list's come after the sort.
  const filtered = await explain(`SELECT id, body, sel FROM d WHERE sel < 100 ORDER BY ${dist(0)} LIMIT 10`);
  assert.match(filtered, /lazy materialization: \[id, sel, body\]/);
  assert.match(filtered, /columns: \[\]\n\s+pushed predicates: sel < 100\n\s+global row id: [^\n]+\n\s+ann index: [^\n]+\n\s+ann top-n: k=10 ASC per segment\n\s+ann allowed-row filter: \(sel < 100\)/);
  // Only the distance is asked for: nothing to defer.
  assert.doesNotMatch(await explain(`SELECT ${dist(0)} AS d FROM d ORDER BY d LIMIT 10`), /MATERIALIZE/);
  // Range-only (no per-segment k), also under a TopN on another key: eager.
  assert.doesNotMatch(await explain(`SELECT id, body FROM d WHERE ${dist(0)} < 3`), /MATERIALIZE/);
  const otherKey = await explain(`SELECT id, body FROM d WHERE ${dist(0)} < 3 ORDER BY id LIMIT 10`);
  assert.match(otherKey, /ann range: /);
  assert.doesNotMatch(otherKey, /MATERIALIZE/);
  // Range + TopN on the distance: the search has its k, so the pass applies.
  assert.match(await explain(`SELECT id, body, ${dist(0)} AS d FROM d WHERE ${dist(0)} < 30 ORDER BY d LIMIT 10`), /MATERIALIZE[\s\S]*ann top-n: k=10[\s\S]*ann range: /);
  await conn.query('SET topn_lazy_materialization_threshold = -1');
  assert.doesNotMatch(await explain(`SELECT id, body, ${dist(0)} AS d FROM d ORDER BY d LIMIT 10`), /MATERIALIZE/);
  await conn.query('SET topn_lazy_materialization_threshold = 1024');
});

test('profile: the wide STRING column is read for LIMIT rows with the feature on, LIMIT x segments with it off', async () => {
  const limit = 10;
  const sql = `SELECT id, body, ${dist(1)} AS d FROM d ORDER BY d LIMIT ${limit}`;
  const on = await withThreshold(1024, sql);
  const segments = counter(on.profile, 'AnnSegmentsSearchedByIndex') + counter(on.profile, 'AnnSegmentsSearchedExactly');
  assert.equal(segments, LOADS * BUCKETS, 'one search per segment');
  assert.equal(counter(on.profile, 'AnnSegmentsSearchedByIndex'), LOADS * BUCKETS, 'every segment has an index file');
  assert.equal(counter(on.profile, 'ParallelScanTasks'), segments, 'phase one ran in the scan workers');
  assert.equal(counter(on.profile, 'AnnRowsReturned'), limit * segments, 'phase one: k distances per segment');
  assert.equal(counter(on.profile, 'Column.body.RowsRead'), limit, 'on: body read for the final rows only');
  assert.equal(counter(on.profile, 'MaterializeColumn.body.RowsRead'), limit, 'all of it in phase two');
  assert.ok(counter(on.profile, 'MaterializeColumn.body.BytesRead') > 0);
  assert.equal(counter(on.profile, 'Column.id.RowsRead'), limit);
  assert.equal(counter(on.profile, 'MaterializedRows'), limit);
  assert.equal(counter(on.profile, 'Column.embedding.RowsRead'), 0, 'index-only in both phases');
  const off = await withThreshold(-1, sql);
  assert.equal(counter(off.profile, 'Column.body.RowsRead'), limit * segments, 'off: body read for every segment\'s k rows');
  assert.equal(counter(off.profile, 'MaterializedRows'), 0);
  assert.equal(counter(off.profile, 'Column.embedding.RowsRead'), 0);
  assert.deepEqual(on.rows, off.rows);
  assert.equal(on.rows.length, limit);
  // The bodies are the rows' own.
  for (const [id, body] of on.rows) assert.equal(body, bodyOf(Number(id), 'v1'));
  await conn.query('SET topn_lazy_materialization_threshold = 1024');
});

test('random shapes: identical rows on and off over tablets and segments (scan workers and in-thread)', async () => {
  const large = await compareShapes('d', 24);
  assert.ok(large.lazy >= 12 && large.nonEmpty >= 20, JSON.stringify(large));
  const small = await compareShapes('small', 12);
  assert.ok(small.lazy >= 6 && small.nonEmpty >= 6, JSON.stringify(small));
  // The in-thread path returns row ids too.
  const inThread = await withThreshold(1024, `SELECT id, body, ${dist(2)} AS d FROM small ORDER BY d LIMIT 7`);
  assert.equal(counter(inThread.profile, 'ParallelScanTasks'), 0, 'in-thread');
  assert.equal(counter(inThread.profile, 'MaterializedRows'), 7);
  assert.equal(counter(inThread.profile, 'Column.body.RowsRead'), 7);
  for (const [id, body] of inThread.rows) assert.equal(body, bodyOf(Number(id), 'v1'));
});

test('merge-on-write UNIQUE: upserted keys show their newest row, deleted rows never come back', async () => {
  const shapes = await compareShapes('u', 16);
  assert.ok(shapes.lazy >= 8 && shapes.nonEmpty >= 8, JSON.stringify(shapes));
  for (let queryIdx = 0; queryIdx < 4; queryIdx++) {
    const { rows, profile } = await withThreshold(1024, `SELECT id, sel, body, ${dist(queryIdx)} AS d FROM u ORDER BY d LIMIT 50`);
    assert.equal(counter(profile, 'MaterializedRows'), 50);
    assert.equal(rows.length, 50);
    for (const [id, sel, body] of rows) {
      assert.ok(Number(sel) >= 100, `deleted row ${id} returned`);
      assert.equal(body, bodyOf(Number(id), Number(id) >= 1000 && Number(id) < 2500 ? 'v2' : 'v1'), `row ${id}`);
    }
  }
});

test('prepared statements with a vector ? (binary protocol): same rows on and off, MATERIALIZE in the plan', async () => {
  const binary = await connect(server.ports.query_port, { database: 'annlazy', typeCast: true });
  try {
    const sql = 'SELECT id, body, l2_distance_approximate(embedding, ?) AS d FROM d WHERE sel < ? ORDER BY d LIMIT 10';
    const results = new Map<number, unknown[][]>();
    for (const threshold of [1024, -1]) {
      await binary.query(`SET topn_lazy_materialization_threshold = ${threshold}`);
      for (let queryIdx = 0; queryIdx < 3; queryIdx++) {
        const [rows] = await binary.execute({ sql, rowsAsArray: true }, [queryText(queryIdx), 500]);
        const profile = await lastProfile();
        if (queryIdx === 0) {
          // The first execution after SET plans again (the cached plan recorded the variable).
          const planText = profile.get('Plan') ?? '';
          assert.match(planText, /ann top-n: k=10 ASC per segment/);
          if (threshold > 0) assert.match(planText, /MATERIALIZE/);
          else assert.doesNotMatch(planText, /MATERIALIZE/);
        }
        assert.equal(counter(profile, 'MaterializedRows'), threshold > 0 ? 10 : 0, `execution ${queryIdx} at ${threshold}`);
        const out = rows as unknown[][];
        assert.equal(out.length, 10);
        if (threshold > 0) results.set(queryIdx, out);
        else assert.deepEqual(out, results.get(queryIdx), `query ${queryIdx}: on vs off`);
        // The text protocol agrees on the rows.
        const text = await queryRows(conn, `SELECT id, body FROM d WHERE sel < 500 ORDER BY ${dist(queryIdx)} LIMIT 10`);
        assert.deepEqual(out.map((cells) => [String(cells[0]), String(cells[1])]), text);
      }
    }
  } finally {
    await binary.query('SET topn_lazy_materialization_threshold = 1024');
    await binary.end();
  }
});
