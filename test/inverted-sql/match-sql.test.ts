/**
 * MATCH_* predicates and TOKENIZE through a real server and real clients (mysql2, the mariadb CLI), on
 * tables with INVERTED indexes of every parser. No index file answers yet (slice C adds that), so these
 * test the row-by-row path: each query's rows are compared with a brute-force evaluation over the same
 * rows (test/inverted-sql/brute-force.ts), including NULLs, ARRAY<STRING> columns, combinations with
 * AND / OR / NOT, prepared statements, several segments and a UNIQUE KEY table after updates and deletes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Connection } from 'mysql2/promise';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { parseInvertedProperties, type AnalyzerConfig, type MatchOp } from '../../src/storage/inverted';
import { bruteForceValue, seeded } from './brute-force';

let server: GaleneProcess;
let conn: Connection;

interface Doc {
  readonly id: number;
  readonly title: string | null;
  readonly body: string | null;
  readonly zh: string | null;
  readonly tags: readonly (string | null)[] | null;
  readonly code: string | null;
}

const WORDS = ['Apache', 'Doris', 'olap', 'fast', 'query', 'engine', 'vector', 'search', 'the', 'a', 'is', 'index', 'inverted', 'Index', 'searching', 'fastest', 'real-time', 'MPP', 'data', 'lake'];
const ZH = ['我们', '喜欢', '数据库', '北京', '清华大学', '武汉长江大桥', '倒排索引', '向量', '检索', '很快'];
const random = seeded(2026);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const sentence = (list: readonly string[], max: number, sep = ' '): string => Array.from({ length: 1 + Math.floor(random() * max) }, () => pick(list)).join(sep);

const DOCS: Doc[] = Array.from({ length: 240 }, (_, id) => ({
  id,
  title: id % 17 === 5 ? null : sentence(WORDS, 8, pick([' ', ', ', '. ', ' - '])),
  body: id % 23 === 7 ? null : `${sentence(WORDS, 10)} 数据${pick(['库', '湖'])} ${sentence(WORDS, 4)}`,
  zh: id % 19 === 3 ? null : sentence(ZH, 6, pick(['', '，', ' '])),
  tags: id % 13 === 2 ? null : Array.from({ length: Math.floor(random() * 4) }, () => (random() < 0.1 ? null : sentence(WORDS, 2))),
  code: id % 11 === 4 ? null : pick(['A-1', 'B-2', 'olap', 'Olap', 'olap engine', '']),
}));

const CONFIGS: Record<'title' | 'body' | 'zh' | 'tags' | 'code', AnalyzerConfig> = {
  title: parseInvertedProperties({ parser: 'english' }),
  body: parseInvertedProperties({ parser: 'unicode' }),
  zh: parseInvertedProperties({ parser: 'chinese' }),
  tags: parseInvertedProperties({ parser: 'english' }),
  code: parseInvertedProperties({}),
};

const sqlString = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
const sqlValue = (value: string | null): string => (value === null ? 'NULL' : sqlString(value));
const sqlArray = (value: readonly (string | null)[] | null): string => (value === null ? 'NULL' : `[${value.map(sqlValue).join(', ')}]`);

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE tmatch');
  await conn.query('USE tmatch');
  await conn.query(`CREATE TABLE docs (
      id INT NOT NULL,
      title VARCHAR(300),
      body STRING,
      zh STRING,
      tags ARRAY<STRING>,
      code VARCHAR(40),
      INDEX idx_title (title) USING INVERTED PROPERTIES("parser" = "english") COMMENT 'english titles',
      INDEX idx_body (body) USING INVERTED PROPERTIES("parser" = "unicode", "support_phrase" = "true"),
      INDEX idx_zh (zh) USING INVERTED PROPERTIES("parser" = "chinese"),
      INDEX idx_tags (tags) USING INVERTED PROPERTIES("parser" = "english"),
      INDEX idx_code (code) USING INVERTED
    ) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES ("replication_num" = "1")`);
  // three loads: three rowsets, several segments
  for (const part of [DOCS.slice(0, 80), DOCS.slice(80, 160), DOCS.slice(160)]) {
    await conn.query(`INSERT INTO docs VALUES ${part.map((doc) => `(${doc.id}, ${sqlValue(doc.title)}, ${sqlValue(doc.body)}, ${sqlValue(doc.zh)}, ${sqlArray(doc.tags)}, ${sqlValue(doc.code)})`).join(', ')}`);
  }
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

type Column = keyof typeof CONFIGS;

function expectedIds(column: Column, op: MatchOp, query: string, rows: readonly Doc[] = DOCS): number[] {
  return rows.filter((doc) => bruteForceValue(op, query, CONFIGS[column], doc[column])).map((doc) => doc.id);
}

async function idsOf(sql: string): Promise<number[]> {
  return (await queryRows(conn, sql)).map((row) => Number(row[0]));
}

const QUERIES: [Column, MatchOp, string][] = [
  ['title', 'match_any', 'doris olap'],
  ['title', 'match_any', 'DORIS'],
  ['title', 'match_any', 'the'],
  ['title', 'match_all', 'fast query'],
  ['title', 'match_all', 'apache doris engine'],
  ['title', 'match_phrase', 'fast query'],
  ['title', 'match_phrase', 'fast query ~2'],
  ['title', 'match_phrase', 'query fast ~2'],
  ['title', 'match_phrase', 'query fast ~2+'],
  ['title', 'match_phrase', 'fast query ~1+'],
  ['title', 'match_phrase', 'real-time MPP'],
  ['title', 'match_phrase_prefix', 'vector sea'],
  ['title', 'match_phrase_prefix', 'inv'],
  ['title', 'match_phrase_edge', 'ector search ind'],
  ['title', 'match_phrase_edge', 'ear'],
  ['title', 'match_regexp', '^sea.*g$'],
  ['title', 'match_regexp', 'ast'],
  ['title', 'match_any', ', . -'],
  ['body', 'match_any', 'the is a'],
  ['body', 'match_any', '数'],
  ['body', 'match_phrase', '数据库'],
  ['body', 'match_phrase', 'lake 数据湖 ~3'],
  ['body', 'match_all', 'index inverted 湖'],
  ['body', 'match_phrase', 'searching the index'],
  ['zh', 'match_any', '北京'],
  ['zh', 'match_all', '数据库 倒排索引'],
  ['zh', 'match_phrase', '我们喜欢'],
  ['zh', 'match_phrase_prefix', '向量检'],
  ['tags', 'match_any', 'olap'],
  ['tags', 'match_all', 'vector index'],
  ['tags', 'match_phrase', 'data lake'],
  ['code', 'match_any', 'olap'],
  ['code', 'match_any', 'olap engine'],
  ['code', 'match_any', ''],
  ['code', 'match_phrase_prefix', 'Ol'],
  ['code', 'match_regexp', '^[AB]-'],
];

test('every operator and analyzer returns the rows a brute-force evaluation finds', async () => {
  let nonEmpty = 0;
  for (const [column, op, query] of QUERIES) {
    const want = expectedIds(column, op, query);
    const got = await idsOf(`SELECT id FROM docs WHERE ${column} ${op.toUpperCase()} ${sqlString(query)} ORDER BY id`);
    assert.deepEqual(got, want, `${column} ${op} '${query}'`);
    if (want.length > 0 && want.length < DOCS.length) nonEmpty++;
  }
  assert.ok(nonEmpty >= QUERIES.length - 6, `only ${nonEmpty} queries select some but not all rows`);
  // MATCH is MATCH_ANY; a function-call spelling is the same predicate
  assert.deepEqual(await idsOf("SELECT id FROM docs WHERE title MATCH 'doris olap' ORDER BY id"), expectedIds('title', 'match_any', 'doris olap'));
  assert.deepEqual(await idsOf("SELECT id FROM docs WHERE match_all(title, 'fast query') ORDER BY id"), expectedIds('title', 'match_all', 'fast query'));
});

test('MATCH combines with AND / OR / NOT, other predicates and projections', async () => {
  const any = new Set(expectedIds('title', 'match_any', 'doris'));
  const all = new Set(expectedIds('body', 'match_all', 'fast engine'));
  const known = (doc: Doc): boolean => doc.title !== null;
  assert.deepEqual(await idsOf("SELECT id FROM docs WHERE title MATCH_ANY 'doris' AND body MATCH_ALL 'fast engine' ORDER BY id"), DOCS.filter((doc) => any.has(doc.id) && all.has(doc.id)).map((doc) => doc.id));
  assert.deepEqual(await idsOf("SELECT id FROM docs WHERE title MATCH_ANY 'doris' OR body MATCH_ALL 'fast engine' ORDER BY id"), DOCS.filter((doc) => any.has(doc.id) || all.has(doc.id)).map((doc) => doc.id));
  // NOT of a NULL value's match is NULL: the row is not returned
  assert.deepEqual(await idsOf("SELECT id FROM docs WHERE NOT (title MATCH_ANY 'doris') ORDER BY id"), DOCS.filter((doc) => known(doc) && !any.has(doc.id)).map((doc) => doc.id));
  assert.deepEqual(await idsOf("SELECT id FROM docs WHERE title MATCH_ANY 'doris' AND id % 2 = 0 ORDER BY id"), [...any].filter((id) => id % 2 === 0).sort((a, b) => a - b));
  const [[count]] = await queryRows(conn, "SELECT count(*) FROM docs WHERE title MATCH_ANY 'doris'");
  assert.equal(Number(count), any.size);
  const flags = await queryRows(conn, "SELECT id, title MATCH_ANY 'doris' FROM docs ORDER BY id");
  assert.deepEqual(flags.map((row) => row[1]), DOCS.map((doc) => (doc.title === null ? null : any.has(doc.id) ? '1' : '0')));
});

test('a prepared statement binds the query string', async () => {
  // the binary protocol with mysql2's own decoding (the helper's text typeCast is for COM_QUERY results)
  const binary = await connect(server.ports.query_port, { database: 'tmatch', typeCast: true });
  try {
    for (const query of ['doris', 'vector search', 'nothing-here']) {
      const [rows] = await binary.execute('SELECT id FROM docs WHERE title MATCH_PHRASE ? ORDER BY id', [query]);
      assert.deepEqual((rows as number[][]).map((row) => row[0]), expectedIds('title', 'match_phrase', query), query);
    }
  } finally {
    await binary.end();
  }
});

test('a UNIQUE KEY table: updates and deletes change what MATCH finds', async () => {
  await conn.query(`CREATE TABLE notes (id INT NOT NULL, note STRING, INDEX idx_note (note) USING INVERTED PROPERTIES("parser" = "english"))
    UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1", "enable_unique_key_merge_on_write" = "true")`);
  await conn.query("INSERT INTO notes VALUES (1, 'doris is fast'), (2, 'olap engine'), (3, 'doris olap')");
  await conn.query("INSERT INTO notes VALUES (2, 'doris vector'), (4, 'nothing')");
  await conn.query('DELETE FROM notes WHERE id = 3');
  assert.deepEqual(await idsOf("SELECT id FROM notes WHERE note MATCH_ANY 'doris' ORDER BY id"), [1, 2]);
  assert.deepEqual(await idsOf("SELECT id FROM notes WHERE note MATCH_ANY 'olap' ORDER BY id"), []);
});

test('MATCH without an inverted index compares whole values; enable_match_without_inverted_index = false refuses it', async () => {
  await conn.query('CREATE TABLE plain (id INT, s VARCHAR(50), n INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1")');
  await conn.query("INSERT INTO plain VALUES (1, 'doris', 1), (2, 'doris olap', 2), (3, NULL, 3)");
  assert.deepEqual(await idsOf("SELECT id FROM plain WHERE s MATCH_ANY 'doris' ORDER BY id"), [1]);
  assert.deepEqual(await idsOf("SELECT id FROM plain WHERE s MATCH_PHRASE 'doris olap' ORDER BY id"), [2]);
  await assert.rejects(conn.query("SELECT /*+ SET_VAR(enable_match_without_inverted_index = false) */ id FROM plain WHERE s MATCH_ANY 'doris'"), /\[E-6001\]match_any not support execute_match/);
  await assert.rejects(conn.query("SELECT id FROM plain WHERE n MATCH_ANY 'doris'"), /match_any only supports a column of string or array<string> type, but n is INT/);
  await assert.rejects(conn.query("SELECT id FROM plain WHERE concat(s, 'x') MATCH_ANY 'doris'"), /Only support match left operand is SlotRef, right operand is Literal\. But meet expression \(concat\(s, 'x'\) MATCH_ANY 'doris'\)/);
  await assert.rejects(conn.query('SELECT id FROM plain WHERE s MATCH_ANY s'), /Only support match left operand is SlotRef, right operand is Literal/);
  await assert.rejects(conn.query("SELECT id FROM plain WHERE match_any(s, 'a', 'b')"), /Incorrect parameter count in the call to native function 'match_any'/);
});

test('phrase queries need support_phrase on a tokenized index', async () => {
  await conn.query(`CREATE TABLE nophrase (id INT, s STRING, INDEX idx_s (s) USING INVERTED PROPERTIES("parser" = "english", "support_phrase" = "false"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1")`);
  await conn.query("INSERT INTO nophrase VALUES (1, 'fast query'), (2, 'query fast')");
  assert.deepEqual(await idsOf("SELECT id FROM nophrase WHERE s MATCH_ALL 'fast query' ORDER BY id"), [1, 2]);
  for (const op of ['MATCH_PHRASE', 'MATCH_PHRASE_PREFIX', 'MATCH_PHRASE_EDGE']) {
    await assert.rejects(conn.query(`SELECT id FROM nophrase WHERE s ${op} 'fast query'`), /phrase queries require setting support_phrase = true/, op);
  }
});

test('TOKENIZE shows the terms of each parser (mysql2)', async () => {
  const tokenize = async (text: string, properties: string): Promise<string | null> => (await queryRows(conn, `SELECT tokenize(${sqlString(text)}, ${sqlString(properties)})`))[0][0];
  assert.equal(await tokenize('I love Doris', '"parser"="english"'), '["i", "love", "doris"]');
  assert.equal(await tokenize('I love Doris', '"parser"="english","lower_case"="false"'), '["I", "love", "Doris"]');
  assert.equal(await tokenize('the Apache Doris 数据库', '"parser"="unicode"'), '["apache", "doris", "数", "据", "库"]');
  assert.equal(await tokenize('the Apache Doris', '"parser"="unicode","stopwords"="none"'), '["the", "apache", "doris"]');
  assert.equal(await tokenize('武汉长江大桥', '"parser"="chinese","parser_mode"="fine_grained"'), '["武汉", "武汉长江大桥", "长江", "长江大桥", "大桥"]');
  assert.equal(await tokenize('Hello World', '"parser"="none"'), '["Hello World"]');
  await assert.rejects(queryRows(conn, `SELECT tokenize('x', '"parser"="klingon"')`), /Invalid inverted index 'parser' value: klingon, parser must be none, english, unicode or chinese/);
  assert.deepEqual(await queryRows(conn, "SELECT tokenize(NULL, '\"parser\"=\"english\"')"), [[null]]);
});

const MARIADB = '/usr/bin/mariadb';

test('the mariadb CLI runs MATCH and TOKENIZE', { skip: existsSync(MARIADB) ? false : 'the mariadb client is not installed' }, async () => {
  const sql = "SELECT tokenize('Fast OLAP query', '\"parser\"=\"english\"'); SELECT id FROM docs WHERE title MATCH_ALL 'fast query' ORDER BY id;";
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(MARIADB, ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '-B', '-N', 'tmatch', '-e', sql], { timeout: 60_000 }, (err, out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out)));
  });
  const lines = stdout.trim().split('\n');
  assert.equal(lines[0], '["fast", "olap", "query"]');
  assert.deepEqual(lines.slice(1).map(Number), expectedIds('title', 'match_all', 'fast query'));
});
