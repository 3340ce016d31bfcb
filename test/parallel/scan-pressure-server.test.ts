/**
 * Scan scheduling through a real server and mysql2 (src/be/scan-scheduler.ts): 16 connections run
 * filtered scans and partial aggregates over a multi-segment table at once, with the session variable
 * optimize_index_scan_parallelism on and off, and with the dynamic window on and off
 * (enable_scan_dynamic_parallelism, ADMIN SET FRONTEND CONFIG). Every answer equals the one a single
 * connection gets alone; each query's profile shows its scan tasks and the most it had in flight — never
 * more than two per worker — and, with the dynamic window, that pressure from the other queries held
 * some of them below that; with the fixed window, none.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as mysql from 'mysql2/promise';
import { mulberry32 } from '../../src/common/prng';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows, type TextRow } from '../helpers/mysql-client';

const CONNECTIONS = 16;
const WORKERS = 2;
const random = mulberry32(16);

const QUERIES = [
  'SELECT g, count(*), sum(x), min(s), max(s) FROM t WHERE x % 3 <> 0 GROUP BY g ORDER BY g',
  'SELECT count(*), sum(x), avg(x) FROM t WHERE s LIKE \'b%\'',
  'SELECT id, x FROM t WHERE x BETWEEN 100 AND 104 ORDER BY id',
];

/** The counters of the profile whose statement carries `tag` (the query just run on this connection). */
async function profileOf(conn: mysql.Connection, tag: string): Promise<Map<string, string>> {
  const listed = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
  const row = listed.find((candidate) => candidate[8]?.includes(tag) && !candidate[8].startsWith('SHOW'));
  assert.ok(row, `a profile for ${tag}`);
  return new Map((await queryRows(conn, `SHOW QUERY PROFILE "/${row[0]}"`)).map(([name, value]) => [name!, value!]));
}

interface RunStats {
  readonly maxInFlight: number[];
  readonly limitedRounds: number[];
}

/** Every connection runs every query `rounds` times at once; answers must equal `expected`. */
async function concurrentRun(conns: readonly mysql.Connection[], expected: readonly TextRow[][], label: string, rounds = 1): Promise<RunStats> {
  const stats: RunStats = { maxInFlight: [], limitedRounds: [] };
  await Promise.all(
    conns.map(async (conn, connIdx) => {
      for (let round = 0; round < rounds; round++) {
        for (let queryIdx = 0; queryIdx < QUERIES.length; queryIdx++) {
          const tag = `/* ${label} c${connIdx} r${round} q${queryIdx} */`;
          assert.deepEqual(await queryRows(conn, `${tag} ${QUERIES[queryIdx]}`), expected[queryIdx], `${label}: ${QUERIES[queryIdx]} on connection ${connIdx}`);
          const profile = await profileOf(conn, tag);
          assert.ok(Number(profile.get("ParallelScanTasks") ?? 0) >= 8, `${tag} ran in the scan workers: ${JSON.stringify([...profile])}`);
          stats.maxInFlight.push(Number(profile.get('ScanTasksMaxInFlight') ?? 0));
          stats.limitedRounds.push(Number(profile.get('ScanPressureLimitedRounds') ?? 0));
        }
      }
    }),
  );
  return stats;
}

test('16 concurrent scans: same answers with optimize_index_scan_parallelism on and off; the window follows the pool pressure', async () => {
  const server = await startGalene({ dataDir: makeDataDir('galene-scanpar-'), args: ['--scan_thread_num', String(WORKERS), '--parallel_scan_min_rows_per_scanner', '1000'] });
  const conns: mysql.Connection[] = [];
  try {
    for (let connIdx = 0; connIdx < CONNECTIONS; connIdx++) conns.push(await connect(server.ports.query_port));
    const [first] = conns;
    await first.query('CREATE DATABASE sp');
    await first.query('CREATE TABLE sp.t (id INT, g INT, x INT, s VARCHAR(8)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES ("disable_auto_compaction" = "true")');
    // Eight loads, two buckets: sixteen segments, each one row-range task.
    for (let load = 0; load < 8; load++) {
      const rows = Array.from({ length: 3000 }, (_v, idx) => `(${load * 3000 + idx}, ${Math.floor(random() * 5)}, ${random() < 0.05 ? 'NULL' : Math.floor(random() * 1000)}, '${['a', 'b', 'bb', 'c'][Math.floor(random() * 4)]}${idx % 10}')`);
      await first.query(`INSERT INTO sp.t VALUES ${rows.join(',')}`);
    }
    for (const conn of conns) await conn.query('USE sp');
    const expected: TextRow[][] = [];
    for (const sql of QUERIES) expected.push(await queryRows(first, sql));
    assert.ok(expected.every((rows) => rows.length > 0));
    const alone = await profileOf(first, QUERIES[0]);
    assert.equal(alone.get('ScanTasksMaxInFlight'), String(2 * WORKERS), 'alone, the full window of two tasks per worker');
    assert.equal(alone.get('ScanPressureLimitedRounds'), undefined, 'alone, no round is held back');
    assert.equal(alone.get('ScanPoolQueuedAtStart'), '0', 'alone, nothing queued ahead of it');

    const [[name, value]] = await queryRows(first, "SHOW VARIABLES LIKE 'optimize_index_scan_parallelism'");
    assert.deepEqual([name, value], ['optimize_index_scan_parallelism', '0'], "Doris's default: off");
    for (const setting of [false, true]) {
      for (const conn of conns) await conn.query(`SET optimize_index_scan_parallelism = ${setting}`);
      const stats = await concurrentRun(conns, expected, `dynamic-${setting}`);
      assert.ok(stats.maxInFlight.every((most) => most >= 1 && most <= 2 * WORKERS), `in flight within 1..${2 * WORKERS}: ${stats.maxInFlight.join(',')}`);
      assert.ok(stats.limitedRounds.some((rounds) => rounds > 0), 'under 16 concurrent scans some rounds are held back by the pressure');
    }

    // The fixed window (the benchmark's peer): every query keeps two tasks per worker in flight.
    await first.query('ADMIN SET FRONTEND CONFIG ("enable_scan_dynamic_parallelism" = "false")');
    const fixed = await concurrentRun(conns, expected, 'fixed', 1);
    assert.ok(fixed.maxInFlight.every((most) => most === 2 * WORKERS), `fixed window: ${fixed.maxInFlight.join(',')}`);
    assert.ok(fixed.limitedRounds.every((rounds) => rounds === 0));
  } finally {
    await Promise.all(conns.map((conn) => conn.end().catch(() => undefined)));
    await server.stop();
  }
});
