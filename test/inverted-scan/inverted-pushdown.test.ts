/**
 * The inverted-index query path through a real server and mysql2 (rules/inverted-index-pushdown.ts,
 * be/inverted-segment-filter.ts): predicates on columns with an inverted index move into the scan, and
 * every answer equals the row-by-row answer (the same query with enable_inverted_index_query off) and a
 * brute-force evaluation in the test over the same rows — over several segments, in-thread and in the scan
 * workers, for `=`, `!=`, IN, NOT IN, ranges, BETWEEN, IS [NOT] NULL, array_contains and AND / OR / NOT of
 * them; EXPLAIN shows the index predicates on the scan; a column only index predicates read is not read
 * where segments have the index file; prepared statements bind the operand at execution.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows, type TextRow } from '../helpers/mysql-client';

const TAGS = ['olap', 'oltp', 'vector', 'text', null] as const;
const SEGMENTS = 4;
const SEGMENT_ROWS = 700;

interface Row {
  readonly id: number;
  readonly tag: string | null;
  readonly n: number | null;
  readonly arr: string[] | null;
}

const rows: Row[] = [];
for (let id = 0; id < SEGMENTS * SEGMENT_ROWS; id++) {
  const tag = TAGS[(id * 7) % TAGS.length];
  const n = id % 13 === 0 ? null : (id * 31) % 100;
  const arr = id % 11 === 0 ? null : [TAGS[id % 4]!, `w${id % 5}`];
  rows.push({ id, tag, n, arr });
}

let server: GaleneProcess;
let conn: Connection;

const sqlText = (value: string | null): string => (value === null ? 'NULL' : `'${value}'`);

before(async () => {
  server = await startGalene({ dataDir: makeDataDir('galene-tscan-'), args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000'] });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE tscan');
  await conn.query('USE tscan');
  await conn.query(`CREATE TABLE t (id INT NOT NULL, tag VARCHAR(16), n INT, arr ARRAY<STRING>,
    INDEX idx_tag (tag) USING INVERTED, INDEX idx_n (n) USING INVERTED, INDEX idx_arr (arr) USING INVERTED)
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("disable_auto_compaction" = "true")`);
  for (let segmentIdx = 0; segmentIdx < SEGMENTS; segmentIdx++) {
    const part = rows.slice(segmentIdx * SEGMENT_ROWS, (segmentIdx + 1) * SEGMENT_ROWS);
    const values = part.map((row) => `(${row.id}, ${sqlText(row.tag)}, ${row.n ?? 'NULL'}, ${row.arr === null ? 'NULL' : `[${row.arr.map(sqlText).join(', ')}]`})`);
    await conn.query(`INSERT INTO t VALUES ${values.join(',')}`);
  }
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

type Tri = boolean | null;
const not = (value: Tri): Tri => (value === null ? null : !value);
const and = (...values: Tri[]): Tri => (values.includes(false) ? false : values.includes(null) ? null : true);
const or = (...values: Tri[]): Tri => (values.includes(true) ? true : values.includes(null) ? null : false);
const cmp = (value: number | string | null, test: (v: number | string) => boolean): Tri => (value === null ? null : test(value));

/** WHERE clauses with their brute-force truth over a row (SQL three-valued logic). */
const CASES: { where: string; truth: (row: Row) => Tri }[] = [
  { where: "tag = 'olap'", truth: (row) => cmp(row.tag, (v) => v === 'olap') },
  { where: "tag != 'olap'", truth: (row) => cmp(row.tag, (v) => v !== 'olap') },
  { where: "tag IN ('olap', 'text')", truth: (row) => cmp(row.tag, (v) => v === 'olap' || v === 'text') },
  { where: "tag NOT IN ('olap', 'text')", truth: (row) => cmp(row.tag, (v) => v !== 'olap' && v !== 'text') },
  { where: "tag > 'oltp'", truth: (row) => cmp(row.tag, (v) => v > 'oltp') },
  { where: "tag <= 'oltp'", truth: (row) => cmp(row.tag, (v) => v <= 'oltp') },
  { where: 'tag IS NULL', truth: (row) => row.tag === null },
  { where: 'tag IS NOT NULL', truth: (row) => row.tag !== null },
  { where: 'n = 42', truth: (row) => cmp(row.n, (v) => v === 42) },
  { where: 'n < 10', truth: (row) => cmp(row.n, (v) => (v as number) < 10) },
  { where: 'n >= 90', truth: (row) => cmp(row.n, (v) => (v as number) >= 90) },
  { where: 'n BETWEEN 20 AND 25', truth: (row) => cmp(row.n, (v) => (v as number) >= 20 && (v as number) <= 25) },
  { where: '5 > n', truth: (row) => cmp(row.n, (v) => (v as number) < 5) },
  { where: 'n IS NULL', truth: (row) => row.n === null },
  { where: "array_contains(arr, 'w3')", truth: (row) => (row.arr === null ? null : row.arr.includes('w3')) },
  { where: "tag = 'olap' AND n < 50", truth: (row) => and(cmp(row.tag, (v) => v === 'olap'), cmp(row.n, (v) => (v as number) < 50)) },
  { where: "(tag = 'olap' OR n < 5)", truth: (row) => or(cmp(row.tag, (v) => v === 'olap'), cmp(row.n, (v) => (v as number) < 5)) },
  { where: "NOT (tag = 'olap')", truth: (row) => not(cmp(row.tag, (v) => v === 'olap')) },
  { where: "NOT (tag = 'olap' OR n < 50)", truth: (row) => not(or(cmp(row.tag, (v) => v === 'olap'), cmp(row.n, (v) => (v as number) < 50))) },
  { where: "NOT (tag IN ('olap', 'oltp') AND NOT n > 30)", truth: (row) => not(and(cmp(row.tag, (v) => v === 'olap' || v === 'oltp'), not(cmp(row.n, (v) => (v as number) > 30)))) },
  { where: "(tag IS NULL OR n IS NULL) AND id % 2 = 0", truth: (row) => and(or(row.tag === null, row.n === null), row.id % 2 === 0) },
];

const expectedIds = (truth: (row: Row) => Tri): string[] => rows.filter((row) => truth(row) === true).map((row) => String(row.id));

async function idsOf(where: string): Promise<string[]> {
  return (await queryRows(conn, `SELECT id FROM t WHERE ${where} ORDER BY id`)).map(([id]) => id!);
}

async function withIndexQuery<T>(enabled: boolean, use: () => Promise<T>): Promise<T> {
  await conn.query(`SET enable_inverted_index_query = ${enabled}`);
  try {
    return await use();
  } finally {
    await conn.query('SET enable_inverted_index_query = true');
  }
}

async function explain(sql: string): Promise<string> {
  return (await queryRows(conn, `EXPLAIN ${sql}`)).map(([line]) => line).join('\n');
}

const counter = (profile: Map<string, string>, name: string): number => Number(profile.get(name) ?? 0);

test('every operator answered in the scan equals the row-by-row answer and a brute force', async () => {
  for (const { where, truth } of CASES) {
    const expected = expectedIds(truth);
    assert.deepEqual(await idsOf(where), expected, where);
    assert.deepEqual(await withIndexQuery(false, () => idsOf(where)), expected, `${where} (row by row)`);
    // COUNT(*) runs as a scan fragment in the workers (a parallel aggregate).
    const [[count]] = await queryRows(conn, `SELECT count(*) FROM t WHERE ${where}`);
    assert.equal(Number(count), expected.length, `count(*) ${where}`);
  }
});

test('EXPLAIN shows the index predicates on the scan; the Filter keeps the rest; off keeps them in the Filter', async () => {
  const plan = await explain("SELECT id FROM t WHERE tag = 'olap' AND id % 2 = 0 AND NOT (n < 5 OR n IS NULL)");
  assert.match(plan, /inverted index predicates: tag = 'olap' AND NOT \(n < 5 OR n IS NULL\)\n\s+inverted indexes: \[idx_tag, idx_n\], exact fallback reads: \[tag, n\]/);
  assert.match(plan, /filter: \(\(id % 2\) = 0\)/);
  assert.match(plan, /columns: \[id\]\n/, 'tag and n are not scan output columns');
  const off = await withIndexQuery(false, () => explain("SELECT id FROM t WHERE tag = 'olap'"));
  assert.doesNotMatch(off, /inverted index predicates/);
  assert.match(await explain("SELECT id FROM t WHERE tag = 'olap'"), /inverted index predicates/);
  // Not indexable: a function of the column, a NULL constant, an inexact constant.
  for (const where of ["upper(tag) = 'OLAP'", 'n = NULL', 'n = 1.5', 'n IN (1, NULL)']) assert.doesNotMatch(await explain(`SELECT id FROM t WHERE ${where}`), /inverted index predicates/, where);
});

test('segments without the index file are filtered exactly (profile)', async () => {
  await queryRows(conn, "SELECT count(*) FROM t WHERE tag = 'olap'");
  const profile = await lastQueryProfile(conn);
  const answered = counter(profile, 'InvertedIndexSegmentsAnswered');
  const fallback = counter(profile, 'InvertedIndexSegmentsFallback');
  assert.equal(answered + fallback, SEGMENTS, JSON.stringify([...profile]));
});

test('prepared statements bind the operand at execution and reuse the cached plan', async () => {
  const binary = await connect(server.ports.query_port, { database: 'tscan', typeCast: true });
  try {
    for (const [tag, bound] of [['olap', 50], ['text', 20], ['vector', 95]] as const) {
      const [result] = await binary.execute({ sql: 'SELECT id FROM t WHERE tag = ? AND n < ? ORDER BY id', rowsAsArray: true }, [tag, bound]);
      const expected = expectedIds((row) => and(cmp(row.tag, (v) => v === tag), cmp(row.n, (v) => (v as number) < bound)));
      assert.deepEqual((result as unknown[][]).map((row) => String(row[0])), expected, `${tag} ${bound}`);
    }
    const profile = await lastQueryProfile(binary);
    assert.equal(counter(profile, 'PlanCacheHits'), 1);
    // A non-integer value for an integer column: no exact index form, every segment filters exactly.
    const [inexact] = await binary.execute({ sql: 'SELECT id FROM t WHERE n = ? ORDER BY id', rowsAsArray: true }, [42.5]);
    assert.deepEqual(inexact, []);
    const [exact] = await binary.execute({ sql: 'SELECT id FROM t WHERE n = ? ORDER BY id', rowsAsArray: true }, [42]);
    assert.deepEqual((exact as unknown[][]).map((row) => String(row[0])), expectedIds((row) => cmp(row.n, (v) => v === 42)));
  } finally {
    await binary.end();
  }
});
