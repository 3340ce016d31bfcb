/**
 * Hybrid text + vector search (the seed's Sql6 and Sql8-Sql11 with `comment MATCH_ANY 'olap'`) through a
 * real server: the text predicate is answered by the inverted index inside the scan (its rows become the
 * ANN search's allowed rows), the comment column is never read, and the embedding column is read exactly
 * where the seed says (IndexScan False). Results against the same statements with both index pushdowns
 * skipped (every predicate and distance evaluated row by row); a hybrid TopN returns LIMIT rows whenever
 * that many rows match, with recall >= 0.95 at 10%, 1% and 0.1% text selectivity.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { mixtureDataSet } from '../../bench/lib/vector-data';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows, withSessionVariable, type TextRow } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';

const DIM = 32;
const ROWS = 20_000;
const data = mixtureDataSet(ROWS, 8, DIM, 23);

let server: GaleneProcess;
let conn: Connection;

const vectorText = (row: number): string => `[${Array.from(data.base.subarray(row * DIM, (row + 1) * DIM), (value) => value.toFixed(5)).join(',')}]`;
const queryText = (queryIdx: number): string => `[${Array.from(data.queries.subarray(queryIdx * DIM, (queryIdx + 1) * DIM), (value) => value.toFixed(5)).join(',')}]`;

/** A third of the rows mention OLAP; `tenth`, `hundredth` and `thousandth` mark 10%, 1% and 0.1% of them. */
function commentOf(row: number): string {
  const words = [row % 3 === 0 ? 'Fast OLAP engine' : 'row store for oltp', `doc${row % 97}`];
  if (row % 10 === 1) words.push('tenth');
  if (row % 100 === 2) words.push('hundredth');
  if (row % 1000 === 3) words.push('thousandth');
  return words.join(' ');
}

before(async () => {
  server = await startGalene({ dataDir: makeDataDir('galene-hybrid-'), args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000', '--ann_search_in_thread_max_segments', '0'] });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE hyb');
  await conn.query('USE hyb');
  await conn.query(`CREATE TABLE docs (id INT NOT NULL, comment STRING, embedding ARRAY<FLOAT> NOT NULL,
    INDEX idx_comment (comment) USING INVERTED PROPERTIES("parser"="english"),
    INDEX idx_emb (embedding) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="${DIM}"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  const csv = path.join(server.dataDir, 'docs.csv');
  fs.writeFileSync(csv, Array.from({ length: ROWS }, (_v, row) => `${row}|${commentOf(row)}|${vectorText(row)}`).join('\n') + '\n');
  const loaded = await curlLoad(`http://127.0.0.1:${server.ports.http_port}/api/hyb/docs/_stream_load`, csv, ['column_separator:|']);
  assert.equal(loaded.json.Status, 'Success', loaded.body);
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

const counter = (profile: Map<string, string>, name: string): number => Number(profile.get(name) ?? 0);

async function run(sql: string): Promise<{ rows: TextRow[]; profile: Map<string, string> }> {
  const rows = await queryRows(conn, sql);
  return { rows, profile: await lastQueryProfile(conn) };
}

/** `sql` with both index pushdowns skipped: MATCH and the distances evaluated row by row. */
const exact = (sql: string): Promise<TextRow[]> => withSessionVariable(conn, 'disable_nereids_rules', "'ann_index_pushdown,inverted_index_pushdown'", "''", () => queryRows(conn, sql));

function recall(found: readonly (string | null)[], truth: readonly (string | null)[]): number {
  const expected = new Set(truth);
  return truth.length === 0 ? 1 : found.filter((id) => expected.has(id)).length / truth.length;
}

async function explain(sql: string): Promise<string> {
  return (await queryRows(conn, `EXPLAIN ${sql}`)).map(([line]) => line).join('\n');
}

test("the seed's Sql6, Sql8-Sql11 with comment MATCH_ANY 'olap': comment never read, embedding only where the seed says", async () => {
  const q = queryText(0);
  const dist = `l2_distance_approximate(embedding, ${q})`;
  const [[radiusText]] = await exact(`SELECT l2_distance(embedding, ${q}) AS d FROM docs ORDER BY d LIMIT 1 OFFSET 300`);
  const r = Number(radiusText);
  const N = 10;
  const match = "comment MATCH_ANY 'olap'";
  const cases: { name: string; sql: string; indexScan: boolean; compare: 'equal' | 'recall' }[] = [
    { name: 'Sql6', sql: `SELECT id, ${dist} FROM docs WHERE ${match} ORDER BY ${dist} LIMIT ${N}`, indexScan: true, compare: 'recall' },
    { name: 'Sql8', sql: `SELECT id, ${dist} FROM docs WHERE ${match} AND ${dist} > ${r} ORDER BY ${dist} LIMIT ${N}`, indexScan: true, compare: 'recall' },
    { name: 'Sql9', sql: `SELECT id, ${dist} FROM docs WHERE ${match} AND ${dist} < ${r} AND abs(${dist} + 10) > 10 ORDER BY ${dist} LIMIT ${N}`, indexScan: false, compare: 'equal' },
    { name: 'Sql10', sql: `SELECT id, ${dist} FROM docs WHERE ${match} AND ${dist} > ${r} AND abs(${dist} + 10) > 10 ORDER BY ${dist} LIMIT ${N}`, indexScan: false, compare: 'equal' },
    { name: 'Sql11', sql: `SELECT id, ${dist} FROM docs WHERE ${match} AND ${dist} < ${r} AND array_size(embedding) > 10 ORDER BY ${dist} LIMIT ${N}`, indexScan: false, compare: 'recall' },
  ];
  for (const { name, sql, indexScan, compare } of cases) {
    const { rows, profile } = await run(sql);
    const truth = await exact(sql);
    assert.ok(truth.length === N, `${name} has ${N} rows`);
    assert.equal(counter(profile, 'Column.comment.RowsRead'), 0, `${name}: the comment column is not read`);
    assert.equal(counter(profile, 'Column.comment.BytesRead'), 0, name);
    assert.ok(counter(profile, 'InvertedIndexSegmentsAnswered') >= 1, `${name}: answered by the inverted index`);
    assert.equal(counter(profile, 'InvertedIndexSegmentsFallback'), 0, name);
    const vectorRows = counter(profile, 'Column.embedding.RowsRead');
    assert.equal(vectorRows === 0, indexScan, `${name}: embedding rows read ${vectorRows}, seed says IndexScan: ${indexScan}`);
    if (indexScan) assert.ok(counter(profile, 'AnnSegmentsSearchedByIndex') >= 1, `${name} searched the ANN index`);
    assert.equal(rows.length, N, `${name}: LIMIT rows`);
    for (const [id] of rows) assert.equal(Number(id) % 3, 0, `${name}: row ${id} mentions OLAP`);
    if (compare === 'equal') assert.deepEqual(rows, truth, name);
    else assert.ok(recall(rows.map((row) => row[0]), truth.map((row) => row[0])) >= 0.8, `${name}: recall`);
  }
  const plan = await explain(cases[0].sql);
  assert.match(plan, /inverted index predicates: comment MATCH_ANY 'olap'\n/);
  assert.match(plan, /ann top-n: k=10 ASC per segment\n(.*\n)*?\s+index-only: true/);
  assert.doesNotMatch(plan, /ann allowed-row filter/, 'the text predicate is not evaluated row by row');
  assert.doesNotMatch(await explain(cases[2].sql), /ann index/, 'Sql9 keeps the exact distance');
});

test('hybrid TopN: LIMIT rows whenever that many match, recall >= 0.95 at 10%, 1% and 0.1% text selectivity', async () => {
  await conn.query('SET hnsw_ef_search = 64');
  try {
    for (const word of ['tenth', 'hundredth', 'thousandth']) {
      let total = 0;
      for (let queryIdx = 0; queryIdx < 6; queryIdx++) {
        const sql = `SELECT id FROM docs WHERE comment MATCH_ANY '${word}' ORDER BY l2_distance_approximate(embedding, ${queryText(queryIdx)}) LIMIT 10`;
        const { rows, profile } = await run(sql);
        assert.equal(rows.length, 10, `${word}: LIMIT rows`);
        const truth = await exact(sql);
        total += recall(rows.map((row) => row[0]), truth.map((row) => row[0]));
        if (queryIdx === 0) {
          assert.equal(counter(profile, 'Column.comment.RowsRead'), 0, word);
          assert.ok(counter(profile, 'AnnAllowedRows') === 0 || counter(profile, 'AnnAllowedRows') > 0);
        }
      }
      assert.ok(total / 6 >= 0.95, `${word}: recall ${total / 6}`);
    }
    // More rows than match: every matching row, nearest first.
    const all = `SELECT id FROM docs WHERE comment MATCH_ANY 'thousandth' ORDER BY l2_distance_approximate(embedding, ${queryText(1)}) LIMIT 100`;
    assert.deepEqual(await queryRows(conn, all), await exact(all));
  } finally {
    await conn.query('SET hnsw_ef_search = 32');
  }
});

test('a small table searches in-thread: the same index-only hybrid answer', async () => {
  await conn.query(`CREATE TABLE small (id INT NOT NULL, comment STRING, embedding ARRAY<FLOAT> NOT NULL,
    INDEX idx_comment (comment) USING INVERTED PROPERTIES("parser"="english"),
    INDEX idx_emb (embedding) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="${DIM}"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  await conn.query(`INSERT INTO small VALUES ${Array.from({ length: 600 }, (_v, row) => `(${row}, '${commentOf(row)}', ${vectorText(row)})`).join(',')}`);
  const sql = `SELECT id, l2_distance_approximate(embedding, ${queryText(2)}) AS d FROM small WHERE comment MATCH_ANY 'olap' AND NOT comment MATCH_ANY 'tenth' ORDER BY d LIMIT 7`;
  const { rows, profile } = await run(sql);
  assert.deepEqual(rows, await exact(sql), 'a segment this small is searched exactly: the exact answer');
  assert.equal(counter(profile, 'ParallelScanTasks'), 0, 'in-thread');
  assert.equal(counter(profile, 'Column.comment.RowsRead'), 0);
  assert.equal(counter(profile, 'InvertedIndexSegmentsAnswered'), 1);
  for (const [id] of rows) assert.ok(Number(id) % 3 === 0 && Number(id) % 10 !== 1, `row ${id}`);
});
