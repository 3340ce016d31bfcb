/**
 * Parallel scans (src/be/scan-worker-pool.ts, src/exec/parallel): aggregates and filters computed in
 * scan worker threads give exactly the rows the single-thread path gives, over random data with NULLs,
 * for every aggregate, with and without GROUP BY, and for the UNIQUE / AGGREGATE models (which scan
 * in-thread). The same data directory is queried by a server with 2 scan threads, then by one with none.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../src/common/prng';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { queryAll } from '../helpers/model-tables';
import { connect, queryRows, type TextRow } from '../helpers/mysql-client';

const random = mulberry32(11);
const maybe = (text: string): string => (random() < 0.1 ? 'NULL' : text);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

function randomRow(id: number): string {
  return `(${id}, ${maybe(String(Math.floor(random() * 100)))}, ${maybe(`'${pick(['a', 'b', 'c'])}'`)}, ${maybe(String(Math.floor(random() * 2000) - 1000))}, ${maybe((random() * 10000 - 5000).toFixed(2))}, ${maybe((Math.round(random() * 1e6) / 64).toString())}, ${maybe(`'${pick(['x', 'yy', 'zzz'])}'`)}, ${maybe(`'2024-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}'`)})`;
}

const COLUMNS = 'id INT, k INT, g VARCHAR(4), x INT, d DECIMAL(10,2), f DOUBLE, s VARCHAR(8), dt DATE';
const AGGREGATES = 'count(*), count(x), sum(x), avg(x), min(x), max(x), sum(d), avg(d), min(d), max(d), min(s), max(s), min(dt), max(dt), sum(d * (1 - d)), count(s, x)';
/** Aggregates without a partial form: the query stays in-thread, still with the same answer. */
const IN_THREAD_AGGREGATES = 'sum(f), count(DISTINCT x), group_concat(s), variance(f)';

const QUERIES = [
  `SELECT ${AGGREGATES} FROM dup`,
  `SELECT ${AGGREGATES} FROM dup WHERE k > 9`,
  `SELECT ${AGGREGATES} FROM dup WHERE k < 5`,
  `SELECT g, ${AGGREGATES} FROM dup GROUP BY g ORDER BY g`,
  `SELECT g, s, ${AGGREGATES} FROM dup WHERE k > 9 GROUP BY g, s ORDER BY g, s`,
  `SELECT k % 7, ${AGGREGATES} FROM dup WHERE x IS NOT NULL GROUP BY k % 7 ORDER BY 1`,
  `SELECT dt, count(*), sum(d) FROM dup WHERE dt >= '2024-03-01' GROUP BY dt ORDER BY dt`,
  `SELECT g, ${IN_THREAD_AGGREGATES} FROM dup GROUP BY g ORDER BY g`,
  `SELECT DISTINCT s FROM dup WHERE k < 50 ORDER BY s`,
  'SELECT id, k, d, s FROM dup WHERE k BETWEEN 10 AND 12 AND x > 0 ORDER BY id',
  'SELECT count(*) FROM dup WHERE s LIKE \'y%\'',
  `SELECT g, ${AGGREGATES} FROM uniq WHERE k > 9 GROUP BY g ORDER BY g`,
  'SELECT id, k, d FROM uniq WHERE k < 3 ORDER BY id',
  'SELECT g, k, count(*), sum(x), min(d), max(s) FROM agg WHERE x > 0 GROUP BY g, k ORDER BY g, k',
];

const answers = (port: number): Promise<TextRow[][]> => queryAll(port, 'par', QUERIES);

async function explainOf(port: number, sql: string): Promise<string> {
  const conn = await connect(port);
  try {
    await conn.query('USE par');
    return (await queryRows(conn, `EXPLAIN ${sql}`)).map(([line]) => line).join('\n');
  } finally {
    await conn.end();
  }
}

async function profileOf(port: number, sql: string): Promise<Map<string, string>> {
  const conn = await connect(port);
  try {
    await conn.query('USE par');
    await queryRows(conn, sql);
    const [[id]] = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
    return new Map((await queryRows(conn, `SHOW QUERY PROFILE "/${id}"`)).map(([name, value]) => [name!, value!]));
  } finally {
    await conn.end();
  }
}

test('parallel scans give the single-thread answers', async () => {
  const dataDir = makeDataDir('galene-parallel-');
  const parallelArgs = ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000'];
  let server = await startGalene({ dataDir, args: parallelArgs });
  let parallel: TextRow[][];
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE par');
    await conn.query('USE par');
    await conn.query(`CREATE TABLE dup (${COLUMNS}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2`);
    await conn.query(`CREATE TABLE uniq (${COLUMNS}) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES ('enable_unique_key_merge_on_write' = 'false')`);
    await conn.query('CREATE TABLE agg (id INT, k INT, g VARCHAR(4), x BIGINT SUM, d DECIMAL(10,2) MAX, s VARCHAR(8) MIN) AGGREGATE KEY(id, k, g) DISTRIBUTED BY HASH(id) BUCKETS 2');
    for (let chunk = 0; chunk < 4; chunk++) {
      const rows = Array.from({ length: 1500 }, (_v, idx) => randomRow(chunk * 1500 + idx));
      await conn.query(`INSERT INTO dup VALUES ${rows.join(',')}`);
      // Overlapping ids: later loads replace (UNIQUE) or merge into (AGGREGATE) earlier rows.
      await conn.query(`INSERT INTO uniq VALUES ${rows.map((row) => row.replace(/^\((\d+)/, (_m, id: string) => `(${Number(id) % 2000}`)).join(',')}`);
      await conn.query(`INSERT INTO agg SELECT id % 500, k % 3, g, x, d, s FROM dup WHERE id >= ${chunk * 1500}`);
    }
    await conn.end();
    parallel = await answers(server.ports.query_port);
    const profile = await profileOf(server.ports.query_port, QUERIES[4]);
    assert.ok(Number(profile.get('ParallelScanTasks') ?? 0) >= 2, `the aggregate ran in the workers: ${JSON.stringify([...profile])}`);
    const filterProfile = await profileOf(server.ports.query_port, QUERIES[9]);
    assert.ok(Number(filterProfile.get('ParallelScanTasks') ?? 0) >= 2, 'the filter ran in the workers');
    const uniqueProfile = await profileOf(server.ports.query_port, QUERIES[11]);
    assert.equal(uniqueProfile.get('ParallelScanTasks'), undefined, 'merge-on-read UNIQUE KEY scans merge in-thread');
    // The plan shows where the work runs: a final aggregate over a fragment of degree 2, a filter as a fragment.
    assert.match(await explainOf(server.ports.query_port, QUERIES[4]), /mode: final[\s\S]*-> SCAN FRAGMENT #\d+\n\s+degree: 2\n/);
    assert.match(await explainOf(server.ports.query_port, QUERIES[9]), /-> SCAN FRAGMENT #\d+\n\s+degree: 2\n\s+filter: /);
    assert.doesNotMatch(await explainOf(server.ports.query_port, QUERIES[11]), /SCAN FRAGMENT/, 'merge-on-read: no fragment');
  } finally {
    await server.stop();
  }
  server = await startGalene({ dataDir, args: ['--scan_thread_num', '0'] });
  try {
    const single = await answers(server.ports.query_port);
    for (let queryIdx = 0; queryIdx < QUERIES.length; queryIdx++) {
      assert.ok(single[queryIdx].length > 0, `${QUERIES[queryIdx]} returns rows`);
      assert.deepEqual(parallel[queryIdx], single[queryIdx], QUERIES[queryIdx]);
    }
    const profile = await profileOf(server.ports.query_port, QUERIES[4]);
    assert.equal(profile.get('ParallelScanTasks'), undefined, 'scan_thread_num 0 scans in-thread');
    assert.doesNotMatch(await explainOf(server.ports.query_port, QUERIES[4]), /SCAN FRAGMENT/, 'no workers: no fragment');
  } finally {
    await server.stop();
  }
});
