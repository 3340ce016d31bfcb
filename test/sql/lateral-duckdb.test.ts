/**
 * LATERAL VIEW on Galene and DuckDB's unnest over the same seeded rows: arrays that are NULL, empty, hold
 * NULL elements or many elements, over more than one batch (20,000 rows, ~100,000 generated). explode,
 * explode_outer, posexplode, two LATERAL VIEWs (their cross product), filters and aggregates above the
 * generated column, and explode_numbers must give DuckDB's answer row for row. DuckDB's NULL order is set
 * to Doris's (NULLS FIRST for ASC).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mulberry32 } from '../../src/common/prng';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const ROWS = 20_000;
let server: GaleneProcess;
let conn: Connection;
let duck: DuckDBConnection;

/** A seeded array literal: NULL (5%), empty (10%), else 1-9 elements of which ~10% are NULL. */
function arrayLiteral(next: () => number, element: () => string): string {
  const shape = next();
  if (shape < 0.05) return 'NULL';
  if (shape < 0.15) return '[]';
  const length = 1 + Math.floor(next() * 9);
  const items: string[] = [];
  for (let i = 0; i < length; i++) items.push(next() < 0.1 ? 'NULL' : element());
  return `[${items.join(', ')}]`;
}

function tableRows(): string[] {
  const next = mulberry32(41);
  const rows: string[] = [];
  for (let id = 1; id <= ROWS; id++) {
    const g = Math.floor(next() * 13);
    const a = arrayLiteral(next, () => String(Math.floor(next() * 1000) - 300));
    const s = next() < 0.5 ? arrayLiteral(() => next() * 0.4 + 0.15, () => `'w${Math.floor(next() * 40)}'`) : 'NULL';
    rows.push(`(${id}, ${g}, ${a}, ${s})`);
  }
  return rows;
}

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE ld');
  await conn.query('USE ld');
  await conn.query('CREATE TABLE t (id INT, g INT, a ARRAY<INT>, s ARRAY<STRING>) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3');
  duck = await (await DuckDBInstance.create()).connect();
  await duck.run("SET default_null_order = 'nulls_first_on_asc_last_on_desc'");
  await duck.run('CREATE TABLE t (id INT, g INT, a INT[], s VARCHAR[])');
  const rows = tableRows();
  for (let start = 0; start < rows.length; start += 4000) {
    const values = rows.slice(start, start + 4000).join(',');
    await conn.query(`INSERT INTO t VALUES ${values}`);
    await duck.run(`INSERT INTO t VALUES ${values}`);
  }
});

after(async () => {
  await conn?.end();
  duck?.closeSync();
  await server?.stop();
});

async function duckRows(sql: string): Promise<(string | null)[][]> {
  const reader = await duck.runAndReadAll(sql);
  return reader.getRows().map((row) => row.map((value) => (value === null ? null : String(value))));
}

async function galeneRows(sql: string): Promise<(string | null)[][]> {
  return (await queryRows(conn, sql)).map((row) => row.map((value) => (value === null ? null : String(value))));
}

/** [Galene's LATERAL VIEW query, DuckDB's unnest form of it]; both end in a total ORDER BY. */
const PAIRS: readonly (readonly [string, string])[] = [
  ['SELECT id, x FROM t LATERAL VIEW explode(a) v AS x ORDER BY id, x', 'SELECT id, x FROM t, unnest(t.a) AS u(x) ORDER BY id, x'],
  [
    'SELECT id, x FROM t LATERAL VIEW explode_outer(a) v AS x ORDER BY id, x',
    'SELECT id, unnest(CASE WHEN a IS NULL OR len(a) = 0 THEN [NULL::INT] ELSE a END) AS x FROM t ORDER BY id, x',
  ],
  ['SELECT id, p, x FROM t LATERAL VIEW posexplode(a) v AS p, x ORDER BY id, p', 'SELECT id, generate_subscripts(a, 1) - 1 AS p, unnest(a) AS x FROM t ORDER BY id, p'],
  [
    'SELECT id, x, y FROM t LATERAL VIEW explode(a) v1 AS x LATERAL VIEW explode(s) v2 AS y WHERE x > 500 ORDER BY id, x, y',
    'SELECT id, x, y FROM t, unnest(t.a) AS u1(x), unnest(t.s) AS u2(y) WHERE x > 500 ORDER BY id, x, y',
  ],
  [
    'SELECT g, count(*), count(x), sum(x), min(x), max(x) FROM t LATERAL VIEW explode(a) v AS x GROUP BY g ORDER BY g',
    'SELECT g, count(*), count(x), sum(x), min(x), max(x) FROM t, unnest(t.a) AS u(x) GROUP BY g ORDER BY g',
  ],
  [
    'SELECT y, count(*) FROM t LATERAL VIEW explode_outer(s) v AS y WHERE id % 7 = 3 GROUP BY y ORDER BY y',
    'SELECT y, count(*) FROM (SELECT id, unnest(CASE WHEN s IS NULL OR len(s) = 0 THEN [NULL::VARCHAR] ELSE s END) AS y FROM t) WHERE id % 7 = 3 GROUP BY y ORDER BY y',
  ],
  [
    'SELECT id, n FROM t LATERAL VIEW explode_numbers(g) v AS n WHERE id <= 300 ORDER BY id, n',
    'SELECT id, n FROM t, range(t.g) AS u(n) WHERE id <= 300 ORDER BY id, n',
  ],
];

for (const [galeneSql, duckSql] of PAIRS) {
  test(galeneSql, async () => {
    const expected = await duckRows(duckSql);
    assert.ok(expected.length > 0, 'the DuckDB form returns rows');
    const actual = await galeneRows(galeneSql);
    assert.equal(actual.length, expected.length, 'row count');
    for (let i = 0; i < expected.length; i++) assert.deepEqual(actual[i], expected[i], `row ${i}`);
  });
}
