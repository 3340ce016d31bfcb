/**
 * score() through a real server and mysql2: `... WHERE body MATCH_* 'x' ORDER BY score() DESC LIMIT n` over
 * several segments and two tablets returns the rows and scores of a brute-force BM25 in the test (the
 * column's analyzer, statistics over every row with the index file), with and without the index answering
 * the MATCH, by prepared statement too, without reading the text column; deleted rows are not returned;
 * rows of a segment written before CREATE INDEX score 0; the statements Doris rejects get Doris's message
 * (errno 1105) and change nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { TextCorpus } from '../../bench/lib/text-data';
import { lookupFunction } from '../../src/exec/expr/function-registry';
import { ensureFunctionsRegistered } from '../../src/exec/expr/functions/all-functions';
import type { IndexSchema } from '../../src/meta/schema';
import { analyze } from '../../src/storage/inverted/analyzer';
import { analyzerFor } from '../../src/storage/inverted/inverted-params';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows } from '../helpers/mysql-client';
import { bruteForceBm25 } from './tokenized-segment';

const PROPERTIES = { parser: 'english', support_phrase: 'true' };
const INDEX: IndexSchema = { name: 'idx_body', columns: ['body'], indexType: 'INVERTED', properties: PROPERTIES, comment: '' };
const CONFIG = analyzerFor(INDEX);
const terms = (text: string): string[] => analyze(text, CONFIG).map((token) => token.term);

/** The corpus rows: four loads (segments) of 150, every 13th body NULL. */
const corpus = new TextCorpus(21, { vocabulary: 80, minWords: 3, maxWords: 14 });
const ROWS = Array.from({ length: 600 }, (_, id) => ({ id, body: id % 13 === 5 ? null : corpus.document(id) }));
const W = corpus.vocabulary;

let server: GaleneProcess;
let conn: Connection;

before(async () => {
  server = await startGalene({ dataDir: makeDataDir('galene-bm25-') });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE bm25');
  await conn.query('USE bm25');
  await conn.query(`CREATE TABLE docs (id INT NOT NULL, status INT, body STRING,
    INDEX idx_body (body) USING INVERTED PROPERTIES("parser" = "english", "support_phrase" = "true"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  await conn.query("INSERT INTO docs VALUES (1, 200, 'olap is fast'), (2, 404, 'vector search'), (3, 200, 'olap and vector')");
  await conn.query(`CREATE TABLE corpus (id INT NOT NULL, body STRING, INDEX idx_body (body) USING INVERTED PROPERTIES("parser" = "english", "support_phrase" = "true"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES ("disable_auto_compaction" = "true")`);
  for (let first = 0; first < ROWS.length; first += 150) {
    const values = ROWS.slice(first, first + 150).map((row) => `(${row.id}, ${row.body === null ? 'NULL' : `'${row.body}'`})`);
    await conn.query(`INSERT INTO corpus VALUES ${values.join(', ')}`);
  }
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

async function errorOf(sql: string): Promise<{ errno: number; message: string }> {
  try {
    await conn.query(sql);
  } catch (err) {
    const { errno, sqlMessage } = err as { errno: number; sqlMessage: string };
    return { errno, message: sqlMessage };
  }
  throw new Error(`no error: ${sql}`);
}

test("score() outside WHERE MATCH ... ORDER BY score LIMIT n: Doris's messages", async () => {
  const usage = 'errCode = 2, detailMessage = score() function requires WHERE clause with MATCH function, ORDER BY and LIMIT for optimization';
  assert.deepEqual(await errorOf('SELECT score() AS score FROM docs LIMIT 10'), { errno: 1105, message: usage });
  assert.deepEqual(await errorOf('SELECT score() FROM docs'), { errno: 1105, message: usage });
  assert.deepEqual(await errorOf('SELECT score() AS score FROM docs WHERE status = 200 LIMIT 10'), { errno: 1105, message: usage });
  assert.deepEqual(await errorOf('SELECT * FROM (SELECT score() AS s FROM docs WHERE status = 200) t'), { errno: 1105, message: usage });
  assert.deepEqual(await errorOf("SELECT score() AS score FROM docs WHERE body = 'olap' ORDER BY score() LIMIT 10"), {
    errno: 1105,
    message: 'errCode = 2, detailMessage = WHERE clause must contain at least one MATCH function for score() push down optimization',
  });
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM docs'), [['3']], 'nothing changed');
});

/** Brute-force BM25 of every live row with a body for `queries` (one text per MATCH predicate), summed. */
function bruteScores(rows: readonly { id: number; body: string | null }[], queries: readonly string[]): Map<number, number> {
  const documents = rows.filter((row) => row.body !== null);
  const table = documents.map((row) => terms(row.body!));
  return new Map(documents.map((row, doc) => [row.id, queries.reduce((sum, text) => sum + bruteForceBm25(table, terms(text), doc), 0)]));
}

/** The query's (id, score) rows checked against the brute force: each score, and that they are the top k. */
function assertTopK(got: unknown[][], want: Map<number, number>, k: number, what: string, exclude: ReadonlySet<number> = new Set()): void {
  const best = [...want].filter(([id, score]) => score > 0 && !exclude.has(id)).sort((a, b) => b[1] - a[1]);
  assert.equal(got.length, Math.min(k, best.length), `${what}: rows`);
  got.forEach(([id, score], idx) => {
    const expected = want.get(Number(id))!;
    assert.ok(Math.abs(Number(score) - expected) <= 1e-4 * Math.max(1, expected), `${what}: id ${id} scored ${score}, brute force ${expected}`);
    assert.ok(Math.abs(Number(score) - best[idx][1]) <= 1e-4 * Math.max(1, best[idx][1]), `${what}: rank ${idx} scored ${score}, the brute-force rank ${idx} is ${best[idx][1]}`);
  });
}

test('ORDER BY score() DESC LIMIT n equals a brute-force BM25 over the table; the text column is not read', async () => {
  const cases: Array<{ where: string; texts: string[] }> = [
    { where: `body MATCH_ANY '${W[0]} ${W[7]} ${W[30]}'`, texts: [`${W[0]} ${W[7]} ${W[30]}`] },
    { where: `body MATCH_ALL '${W[1]} ${W[2]}'`, texts: [`${W[1]} ${W[2]}`] },
    { where: `body MATCH_PHRASE '${W[3]} ${W[4]}'`, texts: [`${W[3]} ${W[4]}`] },
    { where: `body MATCH_ANY '${W[5]}' AND id % 2 = 0 AND body MATCH_ANY '${W[9]} ${W[11]}'`, texts: [W[5], `${W[9]} ${W[11]}`] },
  ];
  for (const { where, texts } of cases) {
    const want = bruteScores(ROWS, texts);
    const filterOk = (id: number): boolean => !where.includes('id % 2') || id % 2 === 0;
    const wanted = new Map([...want].filter(([id]) => filterOk(id)));
    for (const indexQuery of [true, false]) {
      await conn.query(`SET enable_inverted_index_query = ${indexQuery}`);
      const sql = `SELECT id, score() AS s FROM corpus WHERE ${where} ORDER BY s DESC LIMIT 10`;
      const got = await queryRows(conn, sql);
      const profile = await lastQueryProfile(conn);
      if (indexQuery) assert.equal(Number(profile.get('Column.body.BytesRead') ?? 0), 0, `${where}: the text is not read`);
      assert.ok(Number(profile.get('ScoreRowsScored') ?? 0) > 0, JSON.stringify([...profile]));
      // MATCH_ALL / MATCH_PHRASE keep fewer rows than hold a term: compare among the rows the filter keeps.
      const kept = new Set((await queryRows(conn, `SELECT id FROM corpus WHERE ${where}`)).map(([id]) => Number(id)));
      assertTopK(got, new Map([...wanted].filter(([id]) => kept.has(id))), 10, `${where} (index query ${indexQuery})`);
    }
  }
  await conn.query('SET enable_inverted_index_query = true');
  // ASC and ORDER BY score() itself.
  const asc = await queryRows(conn, `SELECT id, score() FROM corpus WHERE body MATCH_ANY '${W[0]}' ORDER BY score() LIMIT 3`);
  const ascending = [...bruteScores(ROWS, [W[0]]).values()].filter((score) => score > 0).sort((a, b) => a - b);
  asc.forEach(([, score], idx) => assert.ok(Math.abs(Number(score) - ascending[idx]) < 1e-4, `asc ${idx}`));
});

test('a prepared statement binds the MATCH text; deleted rows are not returned', async () => {
  const binary = await connect(server.ports.query_port, { database: 'bm25', typeCast: true });
  try {
    for (const text of [W[0], `${W[6]} ${W[8]}`]) {
      const [rows] = await binary.execute({ sql: 'SELECT id, score() AS s FROM corpus WHERE body MATCH_ANY ? ORDER BY s DESC LIMIT 5', rowsAsArray: true }, [text]);
      assertTopK(rows as unknown[][], bruteScores(ROWS, [text]), 5, `prepared ${text}`);
    }
  } finally {
    await binary.end();
  }
  const before = bruteScores(ROWS, [W[0]]);
  const top = [...before].sort((a, b) => b[1] - a[1])[0][0];
  await conn.query(`DELETE FROM corpus WHERE id = ${top}`);
  const got = await queryRows(conn, `SELECT id, score() AS s FROM corpus WHERE body MATCH_ANY '${W[0]}' ORDER BY s DESC LIMIT 10`);
  assert.ok(!got.some(([id]) => Number(id) === top), 'the deleted row is gone');
  // Statistics still count the deleted row until compaction rewrites its segment (as Lucene's do).
  assertTopK(got, before, 10, 'after DELETE', new Set([top]));
});

test('rows of a segment written before CREATE INDEX score 0; the statistics come from the indexed segments', async () => {
  await conn.query('CREATE TABLE late (id INT NOT NULL, body STRING) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("disable_auto_compaction" = "true")');
  const old = ROWS.slice(0, 100);
  const fresh = ROWS.slice(100, 300);
  await conn.query(`INSERT INTO late VALUES ${old.map((row) => `(${row.id}, ${row.body === null ? 'NULL' : `'${row.body}'`})`).join(', ')}`);
  await conn.query('CREATE INDEX idx_body ON late (body) USING INVERTED PROPERTIES("parser" = "english", "support_phrase" = "true")');
  await conn.query(`INSERT INTO late VALUES ${fresh.map((row) => `(${row.id}, ${row.body === null ? 'NULL' : `'${row.body}'`})`).join(', ')}`);
  const got = await queryRows(conn, `SELECT id, score() AS s FROM late WHERE body MATCH_ANY '${W[0]}' ORDER BY s DESC LIMIT 1000`);
  const want = bruteScores(fresh, [W[0]]);
  const oldIds = new Set(old.map((row) => row.id));
  assert.ok(got.some(([id]) => oldIds.has(Number(id))), 'old rows still match (exactly, without the file)');
  for (const [id, score] of got) {
    if (oldIds.has(Number(id))) assert.equal(Number(score), 0, `old row ${id}`);
    else assert.ok(Math.abs(Number(score) - want.get(Number(id))!) <= 1e-4 * Math.max(1, want.get(Number(id))!), `new row ${id}`);
  }
});

test("score()'s declared example runs", async () => {
  ensureFunctionsRegistered();
  await conn.query('CREATE TABLE docs_example (id INT NOT NULL, body STRING, INDEX idx_body (body) USING INVERTED PROPERTIES("parser" = "english")) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  await conn.query("INSERT INTO docs_example VALUES (1, 'olap olap engine'), (2, 'an olap database for analytics'), (3, 'vectors')");
  const example = lookupFunction('score')!.example.replace('FROM docs ', 'FROM docs_example ');
  const rows = await queryRows(conn, example);
  assert.deepEqual(
    rows.map(([id]) => id),
    ['1', '2'],
  );
});
