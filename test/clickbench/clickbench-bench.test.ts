// The ClickBench benchmark's pieces (bench/clickbench.ts): the hits generator gives the published
// schema's 105 fields, deterministically, with the skew and empty strings the queries look for; and the
// LIMIT check accepts any valid order / choice of tied rows but rejects a wrong row, a wrong count and a
// wrong order of sort keys (checked against a small DuckDB table).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DuckDBInstance } from '@duckdb/node-api';
import { CLICKBENCH_QUERIES, HITS_DDL } from '../../bench/lib/clickbench-queries';
import { duckdbDdl } from '../../bench/lib/duckdb-ddl';
import { HITS_COLUMNS, hitsChunks, QUERY20_USER_ID } from '../../bench/lib/hits-data';
import { checkLimitedAnswer } from '../../bench/lib/topn-compare';

test('hits: 105 columns in the DDL order, deterministic, skewed, with empty strings', () => {
  const ddlColumns = [...HITS_DDL.matchAll(/^\s+(\w+) [A-Za-z]+/gm)].map((match) => match[1]);
  assert.deepEqual(ddlColumns, HITS_COLUMNS);
  assert.equal(HITS_COLUMNS.length, 105);
  assert.equal(CLICKBENCH_QUERIES.length, 43);
  const text = [...hitsChunks(30_000, 3)].map((chunk) => chunk.text).join('');
  assert.equal(text, [...hitsChunks(30_000, 3)].map((chunk) => chunk.text).join(''));
  const rows = text.trimEnd().split('\n').map((line) => line.split('\t'));
  assert.equal(rows.length, 30_000);
  assert.ok(rows.every((row) => row.length === 105));
  const column = (name: string): string[] => rows.map((row) => row[HITS_COLUMNS.indexOf(name)]);
  const share = (values: string[], value: string): number => values.filter((v) => v === value).length / values.length;
  assert.ok(share(column('SearchPhrase'), '') > 0.7 && share(column('SearchPhrase'), '') < 0.9);
  assert.ok(share(column('AdvEngineID'), '0') > 0.95);
  assert.ok(share(column('CounterID'), '62') > 0.1);
  assert.ok(column('UserID').includes(QUERY20_USER_ID));
  assert.ok(column('EventDate').every((date) => date >= '2013-07-01' && date <= '2013-07-31'));
  const urlCounts = new Map<string, number>();
  for (const url of column('URL')) urlCounts.set(url, (urlCounts.get(url) ?? 0) + 1);
  const counts = [...urlCounts.values()].sort((a, b) => b - a);
  assert.ok(counts[1] > 50 * counts[counts.length >> 1], `URL skew: ${counts[1]} vs median ${counts[counts.length >> 1]}`);
});

test('the LIMIT check accepts every valid tie order and rejects wrong answers', async () => {
  const duck = await DuckDBInstance.create(':memory:');
  const conn = await duck.connect();
  try {
    await conn.run(duckdbDdl('CREATE TABLE t (k STRING NOT NULL, c INT NOT NULL, ts DateTimeV2 NOT NULL) DUPLICATE KEY (k) DISTRIBUTED BY HASH(k) BUCKETS 1'));
    await conn.run("INSERT INTO t VALUES ('a', 5, '2013-07-01 00:00:01'), ('b', 4, '2013-07-01 00:00:02'), ('c', 4, '2013-07-01 00:00:02'), ('d', 4, '2013-07-01 00:00:03'), ('e', 1, '2013-07-01 00:00:04')");
    const sql = 'SELECT k, c FROM t ORDER BY c DESC';
    // LIMIT 2: 'a' then any one of b / c / d.
    assert.equal(await checkLimitedAnswer(conn, sql, [1], [['a', '5'], ['d', '4']], 0, 2), null);
    assert.equal(await checkLimitedAnswer(conn, sql, [1], [['a', '5'], ['b', '4']], 0, 2), null);
    assert.match((await checkLimitedAnswer(conn, sql, [1], [['a', '5'], ['e', '4']], 0, 2))!, /not rows of DuckDB's answer/);
    assert.match((await checkLimitedAnswer(conn, sql, [1], [['b', '4'], ['a', '5']], 0, 2))!, /sort key/);
    assert.match((await checkLimitedAnswer(conn, sql, [1], [['a', '5']], 0, 2))!, /1 rows, expected 2/);
    // OFFSET 3 LIMIT 2: one of the 4s, then 'e'; the same 4 twice is not an answer.
    assert.equal(await checkLimitedAnswer(conn, sql, [1], [['b', '4'], ['e', '1']], 3, 2), null);
    assert.match((await checkLimitedAnswer(conn, sql, [1], [['c', '4'], ['c', '4']], 1, 2))!, /not rows/);
    assert.equal(await checkLimitedAnswer(conn, sql, [1], [['d', '4'], ['c', '4']], 1, 2), null);
    assert.match((await checkLimitedAnswer(conn, sql, [1], [['a', '5']], 4, 2))!, /sort key/);
    // A hidden sort key (the check query adds it as a last column): the rows at the earliest times.
    const hidden = 'SELECT k, ts FROM t ORDER BY ts';
    assert.equal(await checkLimitedAnswer(conn, hidden, [1], [['a'], ['c']], 0, 2), null);
    assert.match((await checkLimitedAnswer(conn, hidden, [1], [['a'], ['d']], 0, 2))!, /not rows/);
    // No ORDER BY (keys []): any rows of the answer.
    assert.equal(await checkLimitedAnswer(conn, 'SELECT k FROM t', [], [['e'], ['b']], 0, 2), null);
    assert.match((await checkLimitedAnswer(conn, 'SELECT k FROM t', [], [['e'], ['z']], 0, 2))!, /not rows/);
  } finally {
    conn.closeSync();
  }
});
