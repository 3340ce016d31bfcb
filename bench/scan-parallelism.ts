/**
 * Scan scheduling under concurrency (src/be/scan-scheduler.ts): the dynamic window — each query's scan
 * tasks in flight sized from the scan pool's pressure — against the fixed window of two tasks per worker
 * per query (Galene before dynamic parallelism, `enable_scan_dynamic_parallelism = false`), in the same
 * run on the same server and data (switched with ADMIN SET FRONTEND CONFIG).
 *
 * Data: `t (k BIGINT, g INT, v DOUBLE, s VARCHAR(16))`, 2 buckets, auto compaction off, loaded by Stream
 * Load in batches, so the table has many segments: 1,000,000 rows in 20 loads (40 segments); --quick
 * 200,000 rows in 8 loads (16 segments). Two shapes, each in the scan workers (SCAN FRAGMENT): a filtered
 * partial aggregate, and a selective filter returning rows. At 1, 8 and 32 connections every connection
 * sends the query back to back for a fixed time; QPS = queries finished / wall time, p50 / p99 of the
 * round trips; qps_ratio = dynamic / fixed, p99_ratio = fixed / dynamic (above 1: the dynamic window is
 * better). Each cell runs fixed, dynamic, fixed, dynamic for half the time each, so drift in the machine's
 * load falls on both; at one connection the two modes schedule alike (an idle pool gives the full window),
 * so that row's ratios show the noise.
 *
 *   npm run bench -- scan-parallelism [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as mysql from 'mysql2/promise';
import { mulberry32 } from '../src/common/prng';
import { startGalene } from '../test/helpers/galene-process';
import { connect, queryRows } from '../test/helpers/mysql-client';
import { percentile } from './lib/latency';
import { parseBenchArgs, peakRssMiB, report, Row } from './lib/report';
import { streamLoad } from './streamload';

const QUERIES = [
  { name: 'filtered aggregate', sql: "SELECT g, count(*), sum(k), max(s) FROM t WHERE v > 0.25 AND s LIKE 'a%' GROUP BY g ORDER BY g" },
  { name: 'selective filter', sql: 'SELECT k, v FROM t WHERE g = 7 AND v < 0.01 ORDER BY k' },
];
const CONCURRENCY = [1, 8, 32];

function csvChunk(random: () => number, first: number, count: number): Buffer {
  const lines: string[] = [];
  for (let rowIdx = first; rowIdx < first + count; rowIdx++) {
    lines.push(`${rowIdx}\t${Math.floor(random() * 50)}\t${random().toFixed(6)}\t${'abcd'[Math.floor(random() * 4)]}${Math.floor(random() * 1e6).toString(36)}`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

interface Measured {
  readonly qps: number;
  readonly p50: number;
  readonly p99: number;
}

/** Every connection sends `sql` back to back for `durationMs`; each answer must equal `expected`. */
async function measure(conns: readonly mysql.Connection[], sql: string, expected: string, durationMs: number): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    conns.map(async (conn) => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        const rows = await queryRows(conn, sql);
        latencies.push(performance.now() - sent);
        if (JSON.stringify(rows) !== expected) throw new Error(`wrong answer under concurrency: ${sql}`);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - start };
}

function summarize(latencies: readonly number[], wallMs: number): Measured {
  return { qps: latencies.length / (wallMs / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** A counter of the profile of the last statement the server finished. */
async function lastCounter(conn: mysql.Connection, name: string): Promise<string> {
  const [[id]] = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
  const found = (await queryRows(conn, `SHOW QUERY PROFILE "/${id}"`)).find(([counter]) => counter === name);
  return found?.[1] ?? '';
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const rowCount = options.quick ? 200_000 : 1_000_000;
  const loads = options.quick ? 8 : 20;
  const durationMs = options.quick ? 1_500 : 6_000;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-scanpar-'));
  const server = await startGalene({ dataDir: path.join(workDir, 'galene'), args: ['--disable_auto_compaction', 'true'] });
  const conns: mysql.Connection[] = [];
  try {
    for (let connIdx = 0; connIdx < Math.max(...CONCURRENCY); connIdx++) conns.push(await connect(server.ports.query_port));
    const admin = conns[0];
    await admin.query('CREATE DATABASE bench');
    await admin.query('CREATE TABLE bench.t (k BIGINT, g INT, v DOUBLE, s VARCHAR(16)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    const random = mulberry32(4242);
    const perLoad = Math.ceil(rowCount / loads);
    const loadStart = performance.now();
    for (let first = 0; first < rowCount; first += perLoad) {
      const result = await streamLoad(server.ports.webserver_port, 'bench', 't', csvChunk(random, first, Math.min(perLoad, rowCount - first)), 'csv');
      if (result.Status !== 'Success') throw new Error(`stream load failed: ${result.Message ?? result.Status}`);
    }
    const loadMs = performance.now() - loadStart;
    for (const conn of conns) await conn.query('USE bench');
    const segments = (await queryRows(admin, 'SHOW TABLETS FROM bench.t')).reduce((sum, row) => sum + Number(row[5]), 0);
    const scanThreads = os.cpus().length; // scan_thread_num's default
    const setMode = (dynamic: boolean): Promise<unknown> => admin.query(`ADMIN SET FRONTEND CONFIG ("enable_scan_dynamic_parallelism" = "${dynamic}")`);
    const rows: Row[] = [];
    for (const query of QUERIES) {
      const expected = JSON.stringify(await queryRows(admin, query.sql)); // also the warm-up
      const tasks = await lastCounter(admin, 'ParallelScanTasks');
      for (const concurrency of CONCURRENCY) {
        const active = conns.slice(0, concurrency);
        // Fixed, dynamic, fixed, dynamic: drift in the machine's load falls on both modes alike.
        const samples = { fixed: [] as number[], dynamic: [] as number[] };
        let fixedMs = 0;
        let dynamicMs = 0;
        for (let rep = 0; rep < 2; rep++) {
          for (const dynamicMode of [false, true]) {
            await setMode(dynamicMode);
            const measured = await measure(active, query.sql, expected, durationMs / 2);
            (dynamicMode ? samples.dynamic : samples.fixed).push(...measured.latencies);
            if (dynamicMode) dynamicMs += measured.wallMs;
            else fixedMs += measured.wallMs;
          }
        }
        const fixed = summarize(samples.fixed, fixedMs);
        const dynamic = summarize(samples.dynamic, dynamicMs);
        rows.push({
          query: query.name,
          connections: concurrency,
          tasks_per_query: tasks,
          dynamic_qps: dynamic.qps,
          fixed_qps: fixed.qps,
          qps_ratio: dynamic.qps / fixed.qps,
          dynamic_p50_ms: dynamic.p50,
          fixed_p50_ms: fixed.p50,
          dynamic_p99_ms: dynamic.p99,
          fixed_p99_ms: fixed.p99,
          p99_ratio: fixed.p99 / dynamic.p99,
        });
      }
    }
    console.log(
      `${rowCount} rows in ${segments} segments (Stream Load, ${loads} loads, ${Math.round(loadMs)} ms); scan_thread_num ${scanThreads}; ${durationMs} ms per cell; ` +
        `server peak RSS ${peakRssMiB(server.child.pid!)} MiB; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`,
    );
    report(`scan scheduling: dynamic vs fixed window (${rowCount} rows, ${segments} segments)`, rows, options);
  } finally {
    await Promise.all(conns.map((conn) => conn.end().catch(() => undefined)));
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
