/**
 * A loading table's usual shape: indexed segments plus a tail segment below
 * `ann_index_build_min_segment_rows`, searched exactly. The tail here holds 5,000 x 64 = 320,000 vector
 * values — more than one page of the column, so the exact scan runs over the cached pages as several
 * chunks (ann-segment-scan.ts readVectorChunks, exact-scan.ts exactTopKChunks) — and within the in-thread
 * budget (OlapTableSource IN_THREAD_EXACT_VALUES), so an unfiltered TopN stays on the main thread. The
 * answer equals the scan workers' (setting 0), and the tail's rows and distances equal exact search.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { mixtureDataSet } from '../../bench/lib/vector-data';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, lastQueryProfile } from '../helpers/mysql-client';

const DIM = 64;
const INDEXED_ROWS = 6000;
const TAIL_ROWS = 5000;
const TOTAL = 2 * INDEXED_ROWS + TAIL_ROWS;
const data = mixtureDataSet(TOTAL, 4, DIM, 11);

let server: GaleneProcess;
let conn: Connection;

const vectorText = (values: Float32Array, row: number): string => `[${Array.from(values.subarray(row * DIM, (row + 1) * DIM), (value) => value.toFixed(5)).join(',')}]`;

before(async () => {
  server = await startGalene({ dataDir: makeDataDir('galene-ann-tail-'), args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000', '--ann_index_build_min_segment_rows', String(INDEXED_ROWS)] });
  conn = await connect(server.ports.query_port, { typeCast: true });
  await conn.query('CREATE DATABASE anntail');
  await conn.query('USE anntail');
  await conn.query(`CREATE TABLE docs (id INT NOT NULL, embedding ARRAY<FLOAT> NOT NULL,
    INDEX idx_emb (embedding) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="${DIM}"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("disable_auto_compaction" = "true")`);
  // One INSERT per segment: two indexed segments, then the tail.
  for (const [first, count] of [
    [0, INDEXED_ROWS],
    [INDEXED_ROWS, INDEXED_ROWS],
    [2 * INDEXED_ROWS, TAIL_ROWS],
  ]) {
    const rows = Array.from({ length: count }, (_v, idx) => first + idx);
    await conn.query(`INSERT INTO docs VALUES ${rows.map((row) => `(${row}, ${vectorText(data.base, row)})`).join(',')}`);
  }
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

const counter = (profile: Map<string, string>, name: string): number => Number(profile.get(name) ?? 0);
const SQL = 'SELECT id, l2_distance_approximate(embedding, ?) AS d FROM docs ORDER BY d LIMIT 10';

async function search(query: string): Promise<{ rows: [number, number][]; profile: Map<string, string> }> {
  const [rows] = await conn.execute({ sql: SQL, values: [query], rowsAsArray: true });
  return { rows: (rows as unknown[][]).map(([id, d]) => [Number(id), Number(d)]), profile: await lastQueryProfile(conn) };
}

test('indexed segments plus an exactly searched tail: in-thread, the workers give the same rows, the tail is exact', async () => {
  for (let queryIdx = 0; queryIdx < 4; queryIdx++) {
    const query = vectorText(data.queries, queryIdx);
    const inThread = await search(query);
    assert.equal(inThread.rows.length, 10);
    assert.equal(counter(inThread.profile, 'AnnSearchesInThread'), 3, 'every segment searched on the main thread');
    assert.equal(counter(inThread.profile, 'AnnSegmentsSearchedByIndex'), 2);
    assert.equal(counter(inThread.profile, 'AnnSegmentsSearchedExactly'), 1);
    assert.equal(counter(inThread.profile, 'ParallelScanTasks'), 0);

    await conn.query('ADMIN SET FRONTEND CONFIG ("ann_search_in_thread_max_segments" = "0")');
    let workers: Awaited<ReturnType<typeof search>>;
    try {
      workers = await search(query);
    } finally {
      await conn.query('ADMIN SET FRONTEND CONFIG ("ann_search_in_thread_max_segments" = "8")');
    }
    assert.equal(counter(workers.profile, 'AnnSearchesInThread'), 0);
    assert.deepEqual(workers.rows, inThread.rows, 'workers and main thread agree');

    // The tail's nearest rows by exact search, with their exact distances, are the tail rows of the answer
    // (those within the answer's radius).
    const [exact] = await conn.execute({ sql: `SELECT id, l2_distance(embedding, ?) AS d FROM docs WHERE id >= ${2 * INDEXED_ROWS} ORDER BY d, id LIMIT 10`, values: [query], rowsAsArray: true });
    const radius = inThread.rows[inThread.rows.length - 1][1];
    const exactTail = (exact as unknown[][]).map(([id, d]) => [Number(id), Number(d)] as [number, number]).filter(([, d]) => d < radius);
    const answerTail = inThread.rows.filter(([id]) => id >= 2 * INDEXED_ROWS);
    assert.deepEqual(
      answerTail.filter(([, d]) => d < radius).map(([id]) => id),
      exactTail.map(([id]) => id),
      `query ${queryIdx}: tail rows`,
    );
    for (const [id, d] of answerTail) {
      const match = (exact as unknown[][]).find(([exactId]) => Number(exactId) === id);
      assert.ok(match !== undefined, `tail row ${id} is among the exact tail top 10`);
      assert.ok(Math.abs(Number(match[1]) - d) <= 1e-4 * Math.max(1, d), `tail row ${id}: distance ${d} vs exact ${String(match[1])}`);
    }
  }
});
