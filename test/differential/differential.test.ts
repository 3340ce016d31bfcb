/**
 * The differential test (issue 14, "Proof"): seeded random queries (query-generator.ts) over three small,
 * NULL-heavy tables loaded into a real Galene server (over the MySQL protocol) and into DuckDB, each
 * query's result compared (test/helpers/duckdb-peer.ts: numeric tolerance, row order where the query's
 * ORDER BY fixes it). Any difference, and any query either engine refuses, fails the test with the SQL.
 *
 * ENABLED_FAMILIES are the construct families Galene supports today; a slice that lands a construct adds
 * its family (see the header of query-generator.ts). GALENE_DIFF_SEED and GALENE_DIFF_QUERIES replay or
 * widen a run (defaults: seed 14, 400 queries).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { Connection } from 'mysql2/promise';
import { compareRows, duckRows } from '../helpers/duckdb-peer';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { createTableSql, Family, insertSql, QueryGenerator } from './query-generator';

const ENABLED_FAMILIES: readonly Family[] = ['filter', 'expression', 'inner-join', 'left-join', 'aggregate', 'group-by', 'having', 'distinct', 'order-limit', 'outer-join', 'subquery', 'set-op', 'cte', 'window'];
const SEED = Number(process.env.GALENE_DIFF_SEED ?? 14);
const QUERIES = Number(process.env.GALENE_DIFF_QUERIES ?? 400);

let server: GaleneProcess;
let galene: Connection;
let duck: DuckDBInstance;
let duckConn: DuckDBConnection;

before(async () => {
  server = await startGalene();
  galene = await connect(server.ports.query_port);
  await galene.query('CREATE DATABASE diff');
  await galene.query('USE diff');
  duck = await DuckDBInstance.create(':memory:', { threads: '1' });
  duckConn = await duck.connect();
  // MySQL's and Doris's NULL order: first in ascending order, last in descending.
  await duckConn.run("SET default_null_order = 'nulls_first_on_asc_last_on_desc'");
  for (const sql of [...createTableSql('galene')]) await galene.query(sql);
  for (const sql of createTableSql('duckdb')) await duckConn.run(sql);
  for (const sql of insertSql(SEED)) {
    await galene.query(sql);
    await duckConn.run(sql);
  }
});

after(async () => {
  await galene?.end();
  duckConn?.closeSync();
  await server?.stop();
});

test('the loaded tables are the same in both engines', async () => {
  for (const table of ['t1', 't2', 't3']) {
    const sql = `SELECT * FROM ${table} ORDER BY k`;
    assert.equal(compareRows(await queryRows(galene, sql), await duckRows(duckConn, sql), true), null, table);
  }
});

test(`${QUERIES} random queries (seed ${SEED}) give DuckDB's answers`, async () => {
  const generator = new QueryGenerator(SEED, ENABLED_FAMILIES);
  const failures: string[] = [];
  let nonEmpty = 0;
  for (let queryIdx = 0; queryIdx < QUERIES; queryIdx++) {
    const { sql, ordered } = generator.query();
    let expected;
    try {
      expected = await duckRows(duckConn, sql);
    } catch (err) {
      failures.push(`#${queryIdx} DuckDB refused (a generator bug): ${(err as Error).message.split('\n')[0]}\n  ${sql}`);
      continue;
    }
    if (expected.length > 0) nonEmpty++;
    try {
      const difference = compareRows(await queryRows(galene, sql), expected, ordered);
      if (difference) failures.push(`#${queryIdx} ${difference}\n  ${sql}`);
    } catch (err) {
      failures.push(`#${queryIdx} Galene: ${(err as Error).message.split('\n')[0]}\n  ${sql}`);
    }
  }
  assert.deepEqual(failures, [], `seed ${SEED}: ${failures.length} of ${QUERIES} queries differ`);
  // The generator must exercise something: most queries return rows.
  assert.ok(nonEmpty > QUERIES / 2, `only ${nonEmpty} of ${QUERIES} queries returned rows`);
});
