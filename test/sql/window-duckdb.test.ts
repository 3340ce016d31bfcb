/**
 * Window functions on Galene and DuckDB over the same seeded, NULL-heavy rows: seeded random window
 * queries (ranking, LAG/LEAD, FIRST/LAST/NTH_VALUE, aggregates over ROWS and RANGE frames, many and few
 * partitions) must give DuckDB's answer, with DuckDB's NULL order set to Doris's (NULLS FIRST for ASC).
 * 30,000 rows: more than one output batch and more than one sorted run. Also: calls sharing PARTITION BY
 * and ORDER BY share one ANALYTIC node (one sort), EXPLAIN ANALYZE reports the node, and a window over
 * more rows than exec_mem_limit allows fails with MEM_LIMIT_EXCEEDED while the server stays up.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mulberry32 } from '../../src/common/prng';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const ROWS = 30_000;
let server: GaleneProcess;
let conn: Connection;
let duck: DuckDBConnection;

function tableRows(): string[] {
  const next = mulberry32(14);
  const pick = (nullShare: number, value: () => string): string => (next() < nullShare ? 'NULL' : value());
  const rows: string[] = [];
  for (let id = 1; id <= ROWS; id++) {
    const p = pick(0.05, () => String(Math.floor(next() * 97)));
    const g = pick(0.1, () => `'${'abc'[Math.floor(next() * 3)]}'`);
    const v = pick(0.2, () => String(Math.floor(next() * 50) - 10));
    const d = pick(0.2, () => (Math.floor(next() * 200000 - 100000) / 100).toFixed(2));
    const f = pick(0.2, () => String(Math.floor(next() * 64) / 8));
    const s = pick(0.2, () => `'s${Math.floor(next() * 300)}'`);
    rows.push(`(${id}, ${p}, ${g}, ${v}, ${d}, ${f}, ${s})`);
  }
  return rows;
}

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port, { supportBigNumbers: true, bigNumberStrings: true });
  await conn.query('CREATE DATABASE wd');
  await conn.query('USE wd');
  const columns = 'id INT, p INT, g VARCHAR(3), v INT, d DECIMAL(10,2), f DOUBLE, s VARCHAR(8)';
  await conn.query(`CREATE TABLE t (${columns}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3`);
  duck = await (await DuckDBInstance.create()).connect();
  await duck.run("SET default_null_order = 'nulls_first_on_asc_last_on_desc'");
  await duck.run(`CREATE TABLE t (${columns})`);
  const rows = tableRows();
  for (let start = 0; start < rows.length; start += 5000) {
    const values = rows.slice(start, start + 5000).join(',');
    await conn.query(`INSERT INTO t VALUES ${values}`);
    await duck.run(`INSERT INTO t VALUES ${values}`);
  }
});

after(async () => {
  await conn?.end();
  duck?.closeSync();
  await server?.stop();
});

/** Numbers compare within a relative 1e-6 (DOUBLE sums in another order, DECIMAL AVG's Doris scale). */
function sameValue(left: string | null, right: string | null): boolean {
  if (left === null || right === null) return left === right;
  if (left === right) return true;
  const a = Number(left);
  const b = Number(right);
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}

async function duckRows(sql: string): Promise<(string | null)[][]> {
  const reader = await duck.runAndReadAll(sql);
  return reader.getRows().map((row) => row.map((value) => (value === null ? null : String(value))));
}

/** The window call forms the generator draws from; `total` ones need an ORDER BY ending in id. */
const ORDER_SENSITIVE = ['row_number()', 'ntile(7)', 'lag(v)', 'lag(v, 3, -1)', 'lead(s, 2)', 'lead(d, 1, 0)', 'first_value(s)', 'last_value(v)', 'nth_value(d, 2)'];
const PEER_FUNCTIONS = ['rank()', 'dense_rank()', 'percent_rank()', 'cume_dist()'];
const AGGREGATES = ['sum(v)', 'count(v)', 'count(*)', 'avg(v)', 'min(v)', 'max(v)', 'sum(d)', 'avg(d)', 'min(s)', 'max(s)', 'sum(f)', 'avg(f)', 'max(d)'];
const ROWS_BOUNDS = ['UNBOUNDED PRECEDING', '5 PRECEDING', '1 PRECEDING', 'CURRENT ROW', '2 FOLLOWING', '40 FOLLOWING', 'UNBOUNDED FOLLOWING'];

function windowQueries(count: number): string[] {
  const next = mulberry32(2026);
  const choose = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const partitions = ['', 'PARTITION BY p', 'PARTITION BY g', 'PARTITION BY g, p % 3'];
  const peerOrders = ['v', 'v DESC', 'g, v', 's DESC', 'd'];
  const queries: string[] = [];
  while (queries.length < count) {
    const partition = choose(partitions);
    const kind = next();
    let call: string;
    if (kind < 0.3) {
      call = `${choose(ORDER_SENSITIVE)} OVER (${partition} ORDER BY ${choose(peerOrders)}, id)`;
    } else if (kind < 0.45) {
      call = `${choose(PEER_FUNCTIONS)} OVER (${partition} ORDER BY ${choose(peerOrders)})`;
    } else if (kind < 0.65) {
      // RANGE frames (default or explicit): order-insensitive aggregates over peer groups.
      const frame = choose(['', 'RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW', 'RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING', 'RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING']);
      const aggregate = choose(AGGREGATES.filter((agg) => !agg.includes('(f)')));
      call = partition === '' && frame === '' && next() < 0.3 ? `${aggregate} OVER ()` : `${aggregate} OVER (${partition} ORDER BY ${choose(peerOrders)} ${frame})`;
    } else {
      // ROWS frames: start before end, in Doris's allowed combinations.
      let startIdx = Math.floor(next() * (ROWS_BOUNDS.length - 1));
      let endIdx = startIdx + Math.floor(next() * (ROWS_BOUNDS.length - startIdx));
      if (endIdx === 0) endIdx = 1;
      if (ROWS_BOUNDS[startIdx] === 'UNBOUNDED FOLLOWING') startIdx--;
      const func = next() < 0.8 ? choose(AGGREGATES) : choose(['first_value(v)', 'last_value(s)', 'nth_value(v, 3)', 'first_value(d, true)', 'last_value(s, true)']);
      call = `${func} OVER (${partition} ORDER BY ${choose(peerOrders)}, id ROWS BETWEEN ${ROWS_BOUNDS[startIdx]} AND ${ROWS_BOUNDS[endIdx]})`;
    }
    queries.push(`SELECT id, ${call} FROM t ORDER BY id`);
  }
  return queries;
}

/** DuckDB spells Doris's first_value(x, true) as first_value(x IGNORE NULLS). */
function duckSql(sql: string): string {
  return sql.replace(/(first_value|last_value)\((\w+), true\)/g, '$1($2 IGNORE NULLS)');
}

test('seeded random window queries give DuckDB results over 30,000 NULL-heavy rows', async () => {
  for (const sql of windowQueries(70)) {
    const ours = await queryRows(conn, sql);
    const theirs = await duckRows(duckSql(sql));
    assert.equal(ours.length, theirs.length, sql);
    for (let rowIdx = 0; rowIdx < ours.length; rowIdx++) {
      const same = ours[rowIdx].every((value, colIdx) => sameValue(value, theirs[rowIdx][colIdx]));
      if (!same) assert.fail(`${sql}\nrow ${rowIdx}: galene ${JSON.stringify(ours[rowIdx])}, duckdb ${JSON.stringify(theirs[rowIdx])}`);
    }
  }
});

test('windows after GROUP BY and in ORDER BY give DuckDB results', async () => {
  const queries = [
    'SELECT p, sum(v), rank() OVER (ORDER BY sum(v) DESC, p), sum(sum(v)) OVER (ORDER BY p ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM t GROUP BY p ORDER BY p',
    'SELECT g, count(*), lag(count(*)) OVER (ORDER BY g), avg(avg(d)) OVER () FROM t GROUP BY g ORDER BY g',
    'SELECT id FROM t WHERE p = 3 ORDER BY row_number() OVER (ORDER BY v DESC, id) LIMIT 20',
    // Several windows: the ones whose keys lead another's are stacked on it and skip their sort.
    'SELECT id, sum(v) OVER (PARTITION BY g), rank() OVER (PARTITION BY g ORDER BY v), row_number() OVER (PARTITION BY g ORDER BY v, id), count(*) OVER (), lag(s) OVER (ORDER BY p, id) FROM t ORDER BY id',
  ];
  for (const sql of queries) {
    const ours = await queryRows(conn, sql);
    const theirs = await duckRows(sql);
    assert.equal(ours.length, theirs.length, sql);
    ours.forEach((row, rowIdx) => assert.ok(row.every((value, colIdx) => sameValue(value, theirs[rowIdx][colIdx])), `${sql}\nrow ${rowIdx}: ${JSON.stringify(row)} vs ${JSON.stringify(theirs[rowIdx])}`));
  }
});

test('calls with the same PARTITION BY and ORDER BY share one ANALYTIC node; EXPLAIN ANALYZE reports it', async () => {
  const sql = 'SELECT id, row_number() OVER (PARTITION BY g ORDER BY id), sum(v) OVER (PARTITION BY g ORDER BY id), lag(v) OVER (PARTITION BY g ORDER BY id), rank() OVER (ORDER BY v) FROM t';
  const plan = (await queryRows(conn, `EXPLAIN ${sql}`)).map((row) => row[0]).join('\n');
  assert.equal(plan.match(/ANALYTIC/g)?.length, 2, plan);
  assert.match(plan, /functions: row_number\(\), sum\(v\) RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW, lag\(v, 1\)/);
  assert.match(plan, /partition by: g/);
  const stacked = (await queryRows(conn, 'EXPLAIN SELECT id, sum(v) OVER (PARTITION BY g), rank() OVER (PARTITION BY g ORDER BY v), count(*) OVER () FROM t')).map((row) => row[0]).join('\n');
  assert.equal(stacked.match(/ANALYTIC/g)?.length, 3, stacked);
  assert.equal(stacked.match(/sort: none \(input already in this order\)/g)?.length, 1, stacked);
  assert.match(stacked, /functions: count\(\*\)/);
  const analyzed = (await queryRows(conn, `EXPLAIN ANALYZE ${sql}`)).map((row) => row[0]).join('\n');
  assert.match(analyzed, /ANALYTIC #\d+\n(?:[^\n]*\n)*?\s+actual: rows in 30000, rows out 30000, time [\d.]+ ms/, analyzed);
});

test('a window over more rows than exec_mem_limit fails with MEM_LIMIT_EXCEEDED; the server stays up', async () => {
  const limited = await connect(server.ports.query_port, { database: 'wd' });
  try {
    await limited.query('SET exec_mem_limit = 262144');
    await assert.rejects(limited.query('SELECT id, sum(v) OVER (PARTITION BY g ORDER BY id) FROM t'), (err: { errno: number; message: string }) => {
      assert.equal(err.errno, 1105);
      assert.match(err.message, /MEM_LIMIT_EXCEEDED/);
      return true;
    });
    const [[count]] = await queryRows(limited, 'SELECT count(*) FROM t');
    assert.equal(count, String(ROWS));
  } finally {
    await limited.end();
  }
});
