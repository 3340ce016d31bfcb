/**
 * Where an ANN scan runs (OlapTableSource.scanAnn) when the table scans in parallel: a TopN without
 * allowed-row filter over at most `ann_search_in_thread_max_segments` indexed segments runs on the main
 * thread (profile AnnSearchesInThread, no ParallelScanTasks); more segments, a filter, or the setting at 0
 * send it to the scan workers. Both paths give the same rows, through prepared statements
 * (mysql2 execute) and plain queries; and the cached per-index parameters follow DROP INDEX + CREATE INDEX
 * of the same name with another metric.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { mixtureDataSet } from '../../bench/lib/vector-data';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows } from '../helpers/mysql-client';

const DIM = 64;
// More rows than the searcher scans exactly (exactMaxRowsFor(64) = 1,024), so each segment uses its index.
const SEGMENT_ROWS = 1500;
const SEGMENTS = 3;
const data = mixtureDataSet(SEGMENT_ROWS * SEGMENTS, 4, DIM, 5);

let server: GaleneProcess;
let conn: Connection;

const vectorText = (values: Float32Array, row: number): string => `[${Array.from(values.subarray(row * DIM, (row + 1) * DIM), (value) => value.toFixed(5)).join(',')}]`;
const query = vectorText(data.queries, 0);

before(async () => {
  server = await startGalene({ dataDir: makeDataDir('galene-ann-thread-'), args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000', '--ann_index_build_min_segment_rows', '1000'] });
  // mysql2's own type casting: the helper's string cast does not apply to binary (prepared) results.
  conn = await connect(server.ports.query_port, { typeCast: true });
  await conn.query('CREATE DATABASE annt');
  await conn.query('USE annt');
  await conn.query(`CREATE TABLE docs (id INT NOT NULL, sel INT NOT NULL, embedding ARRAY<FLOAT> NOT NULL,
    INDEX idx_emb (embedding) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="${DIM}"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("disable_auto_compaction" = "true")`);
  for (let segmentIdx = 0; segmentIdx < SEGMENTS; segmentIdx++) {
    const rows = Array.from({ length: SEGMENT_ROWS }, (_v, idx) => segmentIdx * SEGMENT_ROWS + idx);
    await conn.query(`INSERT INTO docs VALUES ${rows.map((row) => `(${row}, ${row % 10}, ${vectorText(data.base, row)})`).join(',')}`);
  }
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

const lastProfile = (): Promise<Map<string, string>> => lastQueryProfile(conn);

/** The first column of a result (the helper's connections return rows as arrays). */
const firstColumn = (rows: unknown): string[] => (rows as object[]).map((row) => String(Object.values(row)[0]));
const counter = (profile: Map<string, string>, name: string): number => Number(profile.get(name) ?? 0);
const SQL = 'SELECT id FROM docs ORDER BY l2_distance_approximate(embedding, ?) LIMIT 10';

async function prepared(sql = SQL): Promise<{ rows: string[]; profile: Map<string, string> }> {
  const [rows] = await conn.execute(sql, [query]);
  return { rows: firstColumn(rows), profile: await lastProfile() };
}

async function withSetting(name: string, value: string, use: () => Promise<void>): Promise<void> {
  await conn.query(`ADMIN SET FRONTEND CONFIG ("${name}" = "${value}")`);
  try {
    await use();
  } finally {
    await conn.query(`ADMIN SET FRONTEND CONFIG ("${name}" = "8")`);
  }
}

test('a cheap ANN TopN runs in-thread; workers with the setting at 0 or fewer allowed segments; same answer', async () => {
  const inThread = await prepared();
  assert.equal(inThread.rows.length, 10);
  assert.equal(counter(inThread.profile, 'AnnSearchesInThread'), SEGMENTS, 'every segment searched on the main thread');
  assert.equal(counter(inThread.profile, 'AnnSegmentsSearchedByIndex'), SEGMENTS);
  assert.equal(counter(inThread.profile, 'ParallelScanTasks'), 0);
  // The same statement as a plain query.
  const plain = await queryRows(conn, SQL.replace('?', `'${query}'`));
  assert.deepEqual(plain.map(([id]) => String(id)), inThread.rows);
  assert.equal(counter(await lastProfile(), 'AnnSearchesInThread'), SEGMENTS);
  for (const value of ['0', '2']) {
    await withSetting('ann_search_in_thread_max_segments', value, async () => {
      const workers = await prepared();
      assert.equal(counter(workers.profile, 'AnnSearchesInThread'), 0, `setting ${value}: ${SEGMENTS} indexed segments go to the workers`);
      assert.equal(counter(workers.profile, 'ParallelScanTasks'), 1, 'segments grouped by the Doris row split');
      assert.equal(counter(workers.profile, 'AnnSegmentsSearchedByIndex'), SEGMENTS);
      assert.deepEqual(workers.rows, inThread.rows);
    });
  }
});

test('an allowed-row filter or a pruning predicate sends the search to the workers', async () => {
  for (const where of ['sel < 5', 'id >= 900']) {
    const sql = `SELECT id FROM docs WHERE ${where} ORDER BY l2_distance_approximate(embedding, ?) LIMIT 10`;
    const filtered = await prepared(sql);
    assert.equal(counter(filtered.profile, 'AnnSearchesInThread'), 0, where);
    assert.equal(counter(filtered.profile, 'ParallelScanTasks'), 1, where);
    await withSetting('ann_search_in_thread_max_segments', '0', async () => assert.deepEqual((await prepared(sql)).rows, filtered.rows));
  }
});

test('the cached index parameters follow DROP INDEX and CREATE INDEX of the same name with another metric', async () => {
  const before = await prepared();
  assert.equal(counter(before.profile, 'AnnSearchesInThread'), SEGMENTS);
  await conn.query('DROP INDEX idx_emb ON docs');
  await conn.query(`CREATE INDEX idx_emb ON docs (embedding) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="inner_product", "dim"="${DIM}")`);
  await conn.query('BUILD INDEX idx_emb ON docs');
  const ipSql = 'SELECT id FROM docs ORDER BY inner_product_approximate(embedding, ?) DESC LIMIT 10';
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [rows] = await conn.execute(ipSql, [query]);
    const profile = await lastProfile();
    if (counter(profile, 'AnnSegmentsSearchedByIndex') === SEGMENTS) {
      const [exact] = await conn.execute('SELECT id FROM docs ORDER BY inner_product(embedding, ?) DESC LIMIT 10', [query]);
      const truth = new Set(firstColumn(exact));
      const found = firstColumn(rows).filter((id) => truth.has(id)).length;
      assert.ok(found >= 8, `inner-product recall ${found}/10 through the new index`);
      break;
    }
    assert.ok(Date.now() < deadline, 'BUILD INDEX finished within a minute');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});
