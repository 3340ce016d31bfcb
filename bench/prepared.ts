/**
 * Prepared statements versus plain COM_QUERY, measured in the same run on the same server and data:
 * (a) a point lookup by key on a UNIQUE KEY table of 1,000,000 rows (100,000 with --quick) and (b) an
 * aggregate filtered on five columns, each at 1 and 32 concurrent mysql2 connections. Prints QPS, p50/p99
 * latency, the share of server time spent parsing and planning (ParseTimeMs + PlanTimeMs over those plus
 * ExecTimeMs, from the query profiles of the last executions) and the prepared/plain QPS ratio. Prepared
 * runs take the short-circuit path where it applies (`enable_short_circuit_query`, on by default: the point
 * lookup); each workload also runs prepared with it off — the peer — and `sc_ratio` is prepared over that.
 *
 *   npm run bench -- prepared [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mysql from 'mysql2/promise';
import { startGalene } from '../test/helpers/galene-process';
import { parseBenchArgs, peakRssMiB, report, Row } from './lib/report';

const INSERT_ROWS = 10_000;
const TAGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
const EPOCH_2020 = Date.UTC(2020, 0, 1) / 86_400_000;

interface Workload {
  readonly name: string;
  /** The statement text with literals (COM_QUERY) for one draw of parameters. */
  plain(params: readonly (number | string)[]): string;
  /** The same statement with `?` (COM_STMT_EXECUTE). */
  readonly prepared: string;
  /** Parameters for iteration `iter` of worker `worker`. */
  params(worker: number, iter: number, rowCount: number): (number | string)[];
}

const isoDate = (days: number): string => new Date(days * 86_400_000).toISOString().slice(0, 10);

const WORKLOADS: Workload[] = [
  {
    name: 'point lookup by key',
    prepared: 'SELECT k, c1, c2, c3, tag, day FROM pk WHERE k = ?',
    plain: ([key]) => `SELECT k, c1, c2, c3, tag, day FROM pk WHERE k = ${key}`,
    params: (worker, iter, rowCount) => [1 + ((worker * 7919 + iter * 104_729) % rowCount)],
  },
  {
    name: '5-column filtered aggregate',
    prepared: 'SELECT tag, count(*), sum(c1), avg(c3) FROM pk WHERE k BETWEEN ? AND ? AND c1 >= ? AND c2 < ? AND c3 > ? AND day >= ? GROUP BY tag ORDER BY tag',
    plain: ([from, to, c1, c2, c3, day]) =>
      `SELECT tag, count(*), sum(c1), avg(c3) FROM pk WHERE k BETWEEN ${from} AND ${to} AND c1 >= ${c1} AND c2 < ${c2} AND c3 > ${c3} AND day >= '${day}' GROUP BY tag ORDER BY tag`,
    params: (worker, iter, rowCount) => {
      const from = 1 + ((worker * 7919 + iter * 104_729) % Math.max(1, rowCount - 2000));
      return [from, from + 1999, iter % 10, 900, 0.25, isoDate(EPOCH_2020 + (iter % 30))];
    },
  },
];

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function load(conn: mysql.Connection, rowCount: number): Promise<number> {
  await conn.query('CREATE TABLE pk (k INT, c1 INT, c2 INT, c3 DOUBLE, tag VARCHAR(16), day DATE) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
  const start = performance.now();
  for (let first = 1; first <= rowCount; first += INSERT_ROWS) {
    const values: string[] = [];
    for (let key = first; key < first + INSERT_ROWS && key <= rowCount; key++) {
      values.push(`(${key},${key % 100},${(key * 37) % 1000},${(key % 1000) / 1000},'${TAGS[key % TAGS.length]}','${isoDate(EPOCH_2020 + (key % 60))}')`);
    }
    await conn.query(`INSERT INTO pk VALUES ${values.join(',')}`);
  }
  return performance.now() - start;
}

interface RunResult {
  readonly qps: number;
  readonly p50: number;
  readonly p99: number;
  readonly parsePlanShare: number;
}

/** Run `workload` on `connections` for `durationMs`, each connection in a closed loop. */
async function runLoad(connections: readonly mysql.Connection[], workload: Workload, prepared: boolean, durationMs: number, rowCount: number): Promise<RunResult> {
  return runLoadWith(connections, workload, prepared, durationMs, rowCount);
}

/** runLoad with `enable_short_circuit_query` set to `shortCircuit` on every connection for the run. */
async function runLoadShortCircuit(connections: readonly mysql.Connection[], workload: Workload, durationMs: number, rowCount: number, shortCircuit: boolean): Promise<RunResult> {
  await Promise.all(connections.map((conn) => conn.query(`SET enable_short_circuit_query = ${shortCircuit}`)));
  try {
    return await runLoadWith(connections, workload, true, durationMs, rowCount);
  } finally {
    await Promise.all(connections.map((conn) => conn.query('SET enable_short_circuit_query = true')));
  }
}

async function runLoadWith(connections: readonly mysql.Connection[], workload: Workload, prepared: boolean, durationMs: number, rowCount: number): Promise<RunResult> {
  // Warm up: every connection prepares (or runs) once, outside the timing.
  await Promise.all(connections.map((conn, worker) => (prepared ? conn.execute(workload.prepared, workload.params(worker, 0, rowCount)) : conn.query(workload.plain(workload.params(worker, 0, rowCount))))));
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(
    connections.map(async (conn, worker) => {
      for (let iter = 1; performance.now() < deadline; iter++) {
        const params = workload.params(worker, iter, rowCount);
        const begin = performance.now();
        if (prepared) await conn.execute(workload.prepared, params);
        else await conn.query(workload.plain(params));
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const elapsed = performance.now() - start;
  latencies.sort((left, right) => left - right);
  return { qps: latencies.length / (elapsed / 1000), p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), parsePlanShare: await parsePlanShare(connections[0], workload, prepared) };
}

/** (ParseTimeMs + PlanTimeMs) / (those + ExecTimeMs) over the most recent profiles of this workload. */
async function parsePlanShare(conn: mysql.Connection, workload: Workload, prepared: boolean): Promise<number> {
  const [list] = await conn.query({ sql: 'SHOW QUERY PROFILE', rowsAsArray: true });
  const prefix = (prepared ? workload.prepared : workload.plain(workload.params(0, 0, 1))).slice(0, 40);
  const ids = (list as string[][]).filter((row) => row[8].startsWith(prefix) && (prepared ? row[8] === workload.prepared : row[8] !== workload.prepared)).slice(0, 20);
  let parsePlan = 0;
  let total = 0;
  for (const [id] of ids) {
    const [details] = await conn.query({ sql: `SHOW QUERY PROFILE "/${id}"`, rowsAsArray: true });
    const counters = new Map((details as string[][]).map(([name, value]) => [name, Number(value)]));
    const front = (counters.get('ParseTimeMs') ?? 0) + (counters.get('PlanTimeMs') ?? 0);
    parsePlan += front;
    total += front + (counters.get('ExecTimeMs') ?? 0);
  }
  return total > 0 ? parsePlan / total : NaN;
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const rowCount = options.quick ? 100_000 : 1_000_000;
  const durationMs = options.quick ? 2000 : 5000;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-prepared-'));
  const server = await startGalene({ dataDir: path.join(workDir, 'galene') });
  const connect = (): Promise<mysql.Connection> => mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '', database: 'bench' });
  const connections: mysql.Connection[] = [];
  try {
    const admin = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '' });
    await admin.query('CREATE DATABASE bench');
    await admin.end();
    const loader = await connect();
    const loadMs = await load(loader, rowCount);
    await loader.end();
    for (let connIdx = 0; connIdx < 32; connIdx++) connections.push(await connect());
    // Settle: the load leaves background work (compaction) and cold caches; run every workload untimed first.
    for (const workload of WORKLOADS) {
      await runLoad(connections.slice(0, 4), workload, false, durationMs / 2, rowCount);
      await runLoad(connections.slice(0, 4), workload, true, durationMs / 2, rowCount);
    }
    const rows: Row[] = [];
    for (const workload of WORKLOADS) {
      for (const concurrency of [1, 32]) {
        const active = connections.slice(0, concurrency);
        const plain = await runLoad(active, workload, false, durationMs, rowCount);
        const prepared = await runLoad(active, workload, true, durationMs, rowCount);
        const noShortCircuit = await runLoadShortCircuit(active, workload, durationMs, rowCount, false);
        rows.push({
          measure: `${workload.name}, ${concurrency} conn`,
          plain_qps: Math.round(plain.qps),
          prepared_qps: Math.round(prepared.qps),
          ratio: prepared.qps / plain.qps,
          prepared_sc_off_qps: Math.round(noShortCircuit.qps),
          sc_ratio: prepared.qps / noShortCircuit.qps,
          plain_p50_ms: plain.p50,
          plain_p99_ms: plain.p99,
          prepared_p50_ms: prepared.p50,
          prepared_p99_ms: prepared.p99,
          plain_parse_plan_pct: plain.parsePlanShare * 100,
          prepared_parse_plan_pct: prepared.parsePlanShare * 100,
        });
      }
    }
    console.log(`loaded ${rowCount} rows in ${Math.round(loadMs)} ms (INSERT ${INSERT_ROWS} rows/stmt); server peak RSS ${peakRssMiB(server.child.pid!)} MiB; ${durationMs} ms per cell`);
    report(`prepared vs plain (${rowCount} rows)`, rows, options);
  } finally {
    await Promise.all(connections.map((conn) => conn.end().catch(() => undefined)));
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
