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
 * better). Then the case dynamic parallelism is for: one connection sends a short scan (a table of 80,000
 * rows, a few tasks) back to back while 8 or 32 others send the heavy aggregate; the row gives the short
 * scan's QPS and latency, background_qps_ratio the heavy queries' QPS dynamic / fixed, and *_queued_ahead
 * the mean number of tasks waiting in the scan pool when a short scan started (its profile's
 * ScanPoolQueuedAtStart, over up to 5 short scans per slice): what its tasks queue behind, which does not
 * depend on the machine's noise.
 *
 * Each cell (1 s, 8 s in the full run) alternates fixed and dynamic in equal slices (2 pairs, 4 in the
 * full run), so drift in the machine's load falls on both; at one connection the two modes schedule alike
 * (an idle pool gives the full window), so those rows' ratios show the noise.
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
/** A short parallel scan (a few tasks) over a smaller table. */
const SHORT_QUERY = 'SELECT count(*), sum(k) FROM small WHERE v < 0.5';
const SMALL_ROWS = 80_000;

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
interface Sample {
  readonly latencies: number[];
  readonly wallMs: number;
  /** Queries the background connections finished meanwhile (the mixed cells). */
  readonly background?: number;
  /** ScanPoolQueuedAtStart of some of the short scans (the mixed cells). */
  readonly queuedAtStart?: number[];
}

async function measure(conns: readonly mysql.Connection[], sql: string, expected: string, durationMs: number): Promise<Sample> {
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

const PROBE_TAG = '/* short scan */';
const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

/** ScanPoolQueuedAtStart of the newest (up to 5) short scans among the kept profiles. */
async function probeQueues(conn: mysql.Connection): Promise<number[]> {
  const ids = (await queryRows(conn, 'SHOW QUERY PROFILE "/"')).filter((row) => row[8]?.startsWith(PROBE_TAG)).slice(0, 5).map((row) => row[0]);
  const out: number[] = [];
  for (const id of ids) out.push(Number((await queryRows(conn, `SHOW QUERY PROFILE "/${id}"`)).find(([name]) => name === 'ScanPoolQueuedAtStart')?.[1] ?? NaN));
  return out;
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
  const durationMs = options.quick ? 1_000 : 8_000;
  const alternations = options.quick ? 2 : 4;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-scanpar-'));
  const server = await startGalene({ dataDir: path.join(workDir, 'galene'), args: ['--disable_auto_compaction', 'true'] });
  const conns: mysql.Connection[] = [];
  try {
    for (let connIdx = 0; connIdx <= Math.max(...CONCURRENCY); connIdx++) conns.push(await connect(server.ports.query_port));
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
    await admin.query('CREATE TABLE bench.small (k BIGINT, g INT, v DOUBLE, s VARCHAR(16)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    const small = await streamLoad(server.ports.webserver_port, 'bench', 'small', csvChunk(random, 0, SMALL_ROWS), 'csv');
    if (small.Status !== 'Success') throw new Error(`stream load failed: ${small.Message ?? small.Status}`);
    for (const conn of conns) await conn.query('USE bench');
    const segments = (await queryRows(admin, 'SHOW TABLETS FROM bench.t')).reduce((sum, row) => sum + Number(row[5]), 0);
    const scanThreads = os.cpus().length; // scan_thread_num's default
    const setMode = (dynamic: boolean): Promise<unknown> => admin.query(`ADMIN SET FRONTEND CONFIG ("enable_scan_dynamic_parallelism" = "${dynamic}")`);
    const rows: Row[] = [];
    /** Fixed, dynamic, fixed, dynamic... (`alternations` pairs) sharing the cell's time: drift in the machine's load falls on both modes alike. */
    const compare = async (label: Row, once: (ms: number) => Promise<Sample>): Promise<void> => {
      const newSamples = () => ({ latencies: [] as number[], wallMs: 0, background: 0, queued: [] as number[] });
      const samples = { fixed: newSamples(), dynamic: newSamples() };
      for (let rep = 0; rep < alternations; rep++) {
        for (const dynamicMode of [false, true]) {
          await setMode(dynamicMode);
          const measured = await once(durationMs / (2 * alternations));
          const into = dynamicMode ? samples.dynamic : samples.fixed;
          into.latencies.push(...measured.latencies);
          into.wallMs += measured.wallMs;
          into.background += measured.background ?? 0;
          into.queued.push(...(measured.queuedAtStart ?? []));
        }
      }
      const fixed = summarize(samples.fixed.latencies, samples.fixed.wallMs);
      const dynamic = summarize(samples.dynamic.latencies, samples.dynamic.wallMs);
      rows.push({
        ...label,
        dynamic_qps: dynamic.qps,
        fixed_qps: fixed.qps,
        qps_ratio: dynamic.qps / fixed.qps,
        dynamic_p50_ms: dynamic.p50,
        fixed_p50_ms: fixed.p50,
        dynamic_p99_ms: dynamic.p99,
        fixed_p99_ms: fixed.p99,
        p99_ratio: fixed.p99 / dynamic.p99,
        background_qps_ratio: samples.fixed.background > 0 ? samples.dynamic.background / samples.dynamic.wallMs / (samples.fixed.background / samples.fixed.wallMs) : '',
        dynamic_queued_ahead: samples.dynamic.queued.length > 0 ? mean(samples.dynamic.queued) : '',
        fixed_queued_ahead: samples.fixed.queued.length > 0 ? mean(samples.fixed.queued) : '',
      });
    };
    const expected = new Map<string, string>();
    const tasks = new Map<string, string>();
    for (const sql of [...QUERIES.map((query) => query.sql), SHORT_QUERY]) {
      expected.set(sql, JSON.stringify(await queryRows(admin, sql))); // also the warm-up
      tasks.set(sql, await lastCounter(admin, 'ParallelScanTasks'));
    }
    for (const query of QUERIES) {
      for (const concurrency of CONCURRENCY) {
        await compare({ query: query.name, connections: concurrency, tasks_per_query: tasks.get(query.sql)! }, (ms) => measure(conns.slice(0, concurrency), query.sql, expected.get(query.sql)!, ms));
      }
    }
    // A short scan on one connection beside heavy aggregates on the others: its QPS and latency, and the heavy ones' QPS.
    for (const heavy of CONCURRENCY.filter((count) => count > 1)) {
      const heavySql = QUERIES[0].sql;
      await compare({ query: `short scan beside ${heavy} heavy`, connections: heavy + 1, tasks_per_query: tasks.get(SHORT_QUERY)! }, async (ms) => {
        const [probe, background] = await Promise.all([measure([conns[heavy]], `${PROBE_TAG} ${SHORT_QUERY}`, expected.get(SHORT_QUERY)!, ms), measure(conns.slice(0, heavy), heavySql, expected.get(heavySql)!, ms)]);
        return { ...probe, background: background.latencies.length, queuedAtStart: await probeQueues(admin) };
      });
    }
    console.log(
      `${rowCount} rows in ${segments} segments (Stream Load, ${loads} loads, ${Math.round(loadMs)} ms); scan_thread_num ${scanThreads}; ${durationMs} ms per cell in ${alternations} fixed/dynamic alternations; ` +
        `server peak RSS ${peakRssMiB(server.child.pid!)} MiB; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`,
    );
    report(`scan scheduling: dynamic vs fixed window (${rowCount} rows, ${segments} segments)`, rows, options);
  } finally {
    await Promise.all(conns.map((conn) => conn.end().catch(() => undefined)));
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
