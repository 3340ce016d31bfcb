/**
 * Reciprocal-rank fusion of a text ranking (BM25 score()) and a vector ranking (ANN TopN) in one SQL
 * statement, the recipe of docs/full-text-search.md: the statement returns what fusing the two rankings
 * (each fetched by its own query) gives by RRF's definition, sum(1 / (60 + rank)) over the rankings a row
 * is in; its plan keeps the inverted-index score path and the ANN index TopN.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { mulberry32 } from '../../src/common/prng';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

/** Filler words; the query's words 'olap' and 'cache' are planted in a few rows. */
const FILLER = ['engine', 'vector', 'search', 'storage', 'query', 'index', 'segment', 'tablet', 'load', 'stream'];
const ROWS = 3000;
const DIM = 4;
const QUERY_VECTOR = [0.5, 0.5, 0.5, 0.5];
const K = 60;

/** The recipe, as docs/full-text-search.md gives it. */
const RRF_SQL = `
WITH text_hits AS (
  SELECT id, ROW_NUMBER() OVER (ORDER BY s DESC, id) AS r
  FROM (SELECT id, score() AS s FROM docs WHERE body MATCH_ANY 'olap cache' ORDER BY score() DESC LIMIT 200) t
), vector_hits AS (
  SELECT id, ROW_NUMBER() OVER (ORDER BY dist, id) AS r
  FROM (SELECT id, l2_distance_approximate(embedding, [${QUERY_VECTOR.join(', ')}]) AS dist FROM docs ORDER BY dist LIMIT 50) v
)
SELECT id, SUM(1.0 / (${K} + r)) AS rrf
FROM (SELECT id, r FROM text_hits UNION ALL SELECT id, r FROM vector_hits) hits
GROUP BY id ORDER BY rrf DESC, id LIMIT 20`;

let server: GaleneProcess;
let conn: Connection;

before(async () => {
  server = await startGalene({ dataDir: makeDataDir('galene-rrf-'), args: ['--ann_index_build_min_segment_rows', '500'] });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE rrf');
  await conn.query('USE rrf');
  await conn.query(`CREATE TABLE docs (id INT NOT NULL, body STRING, embedding ARRAY<FLOAT> NOT NULL,
    INDEX idx_body (body) USING INVERTED PROPERTIES("parser" = "english"),
    INDEX idx_emb (embedding) USING ANN PROPERTIES("index_type" = "hnsw", "metric_type" = "l2_distance", "dim" = "${DIM}"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2`);
  const random = mulberry32(7);
  for (let first = 0; first < ROWS; first += 1000) {
    const values: string[] = [];
    for (let id = first; id < first + 1000; id++) {
      // Mostly filler words; 'olap' and 'cache' in a few percent of the rows, repeated in some.
      const words = Array.from({ length: 3 + Math.floor(random() * 8) }, () => (random() < 0.005 ? (random() < 0.5 ? 'olap' : 'cache') : FILLER[Math.floor(random() * FILLER.length)]));
      const vector = Array.from({ length: DIM }, () => random().toFixed(4));
      values.push(`(${id}, '${words.join(' ')}', [${vector.join(', ')}])`);
    }
    await conn.query(`INSERT INTO docs VALUES ${values.join(', ')}`);
  }
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

test('the one-statement RRF equals the fusion of the two rankings fetched separately', async () => {
  const textRanking = (await queryRows(conn, "SELECT id, score() AS s FROM docs WHERE body MATCH_ANY 'olap cache' ORDER BY score() DESC LIMIT 200"))
    .map(([id, score]) => ({ id: Number(id), score: Number(score) }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
  // The text limit is above the number of matching rows: the ranking holds every match, no tie is cut.
  const matches = Number((await queryRows(conn, "SELECT count(*) FROM docs WHERE body MATCH_ANY 'olap cache'"))[0][0]);
  assert.ok(matches > 20 && matches < 200 && textRanking.length === matches, `${matches} matching rows, ${textRanking.length} ranked`);
  const vectorRanking = (await queryRows(conn, `SELECT id, l2_distance_approximate(embedding, [${QUERY_VECTOR.join(', ')}]) AS dist FROM docs ORDER BY dist LIMIT 50`))
    .map(([id, dist]) => ({ id: Number(id), dist: Number(dist) }))
    .sort((a, b) => a.dist - b.dist || a.id - b.id);
  assert.equal(vectorRanking.length, 50);

  const fused = new Map<number, number>();
  const add = (ids: number[]): void => ids.forEach((id, rankIdx) => fused.set(id, (fused.get(id) ?? 0) + 1 / (K + rankIdx + 1)));
  add(textRanking.map((row) => row.id));
  add(vectorRanking.map((row) => row.id));
  const expected = [...fused].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, 20);

  const actual = (await queryRows(conn, RRF_SQL)).map(([id, rrf]) => [Number(id), Number(rrf)] as const);
  assert.deepEqual(actual.map(([id]) => id), expected.map(([id]) => id));
  actual.forEach(([, rrf], rowIdx) => assert.ok(Math.abs(rrf - expected[rowIdx][1]) < 1e-4, `row ${rowIdx}: ${rrf} vs ${expected[rowIdx][1]}`));
  // Both rankings contribute: the top rows of each are in the fused top 20.
  const top = new Set(actual.map(([id]) => id));
  assert.ok(top.has(textRanking[0].id) && top.has(vectorRanking[0].id));
});

test("the recipe's plan keeps the inverted-index BM25 path and the ANN index TopN", async () => {
  const plan = (await queryRows(conn, `EXPLAIN ${RRF_SQL}`)).map(([line]) => line).join('\n');
  assert.match(plan, /inverted index predicates: body MATCH_ANY 'olap cache'/);
  assert.match(plan, /score: bm25\(body MATCH_ANY 'olap cache' \[idx_body\]\)/);
  assert.match(plan, /ann index: idx_emb \(l2_distance\) on embedding/);
  assert.match(plan, /ann top-n: k=50 ASC per segment/);
});
