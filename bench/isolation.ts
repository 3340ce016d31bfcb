/**
 * Isolation benchmark (issue 8): how long a trivial statement on one connection waits while a heavy
 * statement runs on another. A "probe" connection sends `SELECT 1` back to back (5 ms pause between) from
 * the heavy statement's start until it ends; the table gives p50 / p99 / max of those round trips per
 * case, the heavy statement's own time and result, and the server's resident memory during the case.
 *
 *   npm run bench -- isolation [--quick] [--rows N] [--compare-setting NAME=VALUE] [--case-timeout-s S] [--json FILE]
 *
 * Data: `t (k BIGINT, g BIGINT, s VARCHAR(32), v DOUBLE)`, 2 buckets, k distinct in every row, g with
 * rows/10 distinct values, loaded through Stream Load over HTTP. 5,000,000 rows; 300,000 with --quick;
 * `--rows N` sets any count. Cases: (a) idle, (b) INSERT INTO t2 SELECT * FROM t, (c) SELECT * FROM t
 * streamed to the client, (d) count(DISTINCT k), (e) GROUP BY k (rows distinct keys) with
 * exec_mem_limit = 64 MiB on that session, (f) 8 GROUP BY g at once on 8 connections, (g) the answer
 * time of one SHOW PROCESSLIST sent 500 ms into (b). A heavy statement that fails records its error in
 * `result`; one that runs past --case-timeout-s (120) records `timeout`, and the server is killed and
 * restarted on the same data (a statement that holds the event loop cannot be reached by KILL QUERY).
 *
 * The peer measured in the same run: the same server with one setting changed, by default
 * `exec_yield_slice_ms=0` (cooperative time slicing off: a statement holds the event loop until it ends).
 * `--compare-setting NAME=VALUE` (or GALENE_BENCH_COMPARE_SETTING) picks another, `none` skips the peer;
 * every case runs a second time on a server started with `--NAME VALUE` and `ratio` = p99 with the
 * setting / p99 without it.
 *
 * The probe runs in a worker thread of the bench process with its own connection, so the main thread
 * parsing millions of streamed rows in (c) does not delay the probe's own reads; it also samples the
 * server's VmRSS every 50 ms (VmHWM, peak_rss_mib, only ever grows).
 */
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import * as mysql from 'mysql2';
import { mulberry32 } from '../src/common/prng';
import { GaleneProcess, startGalene } from '../test/helpers/galene-process';
import { connect, queryRows } from '../test/helpers/mysql-client';
import { currentRssMiB, percentile, takeOptions } from './lib/latency';
import { parseBenchArgs, peakRssMiB, report, Row } from './lib/report';

const PROBE_ROLE = 'isolation-probe';
/** The peer: Galene with cooperative time slicing off. */
const DEFAULT_COMPARE_SETTING = 'exec_yield_slice_ms=0';
const PROBE_PAUSE_MS = 5;
const RSS_SAMPLE_MS = 50;
const IDLE_MS = 2000;
const PROCESSLIST_DELAY_MS = 500;
const CONCURRENT_GROUP_BYS = 8;
const LOAD_BODY_ROWS = 250_000;
const TARGET = 'p99<20ms, max<100ms';
const TABLE_SCHEMA = '(k BIGINT, g BIGINT, s VARCHAR(32), v DOUBLE) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface ProbeResult {
  readonly latencies: number[];
  readonly rssMaxMiB: number;
  readonly probeErrors: number;
  readonly firstError: string;
}

/** Worker thread: one connection sending SELECT 1 between 'start' and 'stop', and VmRSS samples. */
async function runProbeWorker(port: number, serverPid: number): Promise<void> {
  const conn = await connect(port);
  conn.on('error', () => undefined); // a lost server fails the probe in flight; see probeLoop
  const latencies: number[] = [];
  let rssMaxMiB = 0;
  let probeErrors = 0;
  let firstError = '';
  let running = false;
  let loop: Promise<void> = Promise.resolve();
  let sampler: NodeJS.Timeout | undefined;
  const sampleRss = (): void => {
    const rss = currentRssMiB(serverPid);
    if (rss > rssMaxMiB) rssMaxMiB = rss;
  };
  const probeLoop = async (): Promise<void> => {
    while (running) {
      const start = performance.now();
      try {
        await conn.query('SELECT 1');
      } catch (err) {
        // The server went away (crash, or killed after a timeout): the wait so far is still a wait.
        latencies.push(performance.now() - start);
        probeErrors++;
        firstError ||= (err as Error).message;
        return;
      }
      latencies.push(performance.now() - start);
      await sleep(PROBE_PAUSE_MS);
    }
  };
  parentPort!.on('message', (message: 'start' | 'stop') => {
    if (message === 'start') {
      running = true;
      sampleRss();
      sampler = setInterval(sampleRss, RSS_SAMPLE_MS);
      loop = probeLoop();
      return;
    }
    running = false;
    void loop.then(() => {
      clearInterval(sampler);
      sampleRss();
      conn.destroy();
      const result: ProbeResult = { latencies, rssMaxMiB, probeErrors, firstError };
      parentPort!.postMessage(result);
    });
  });
  parentPort!.postMessage('ready');
}

if (!isMainThread && workerData?.role === PROBE_ROLE) void runProbeWorker(workerData.port, workerData.serverPid);

/** The probe seen from the main thread. */
class Probe {
  private constructor(private readonly worker: Worker) {}

  static async start(server: GaleneProcess): Promise<Probe> {
    const worker = new Worker(__filename, { workerData: { role: PROBE_ROLE, port: server.ports.query_port, serverPid: server.child.pid } });
    await once(worker, 'message'); // 'ready': connected
    worker.postMessage('start');
    return new Probe(worker);
  }

  async stop(): Promise<ProbeResult> {
    this.worker.postMessage('stop');
    const [result] = (await once(this.worker, 'message')) as [ProbeResult];
    await this.worker.terminate();
    return result;
  }
}

/** A callback-API mysql2 connection, whose query() can stream rows instead of buffering them. */
async function rawConnect(port: number): Promise<mysql.Connection> {
  const conn = mysql.createConnection({ host: '127.0.0.1', port, user: 'root', password: '', database: 'bench', rowsAsArray: true });
  await new Promise<void>((resolve, reject) => conn.connect((err) => (err ? reject(err) : resolve())));
  conn.on('error', () => undefined); // a lost server is reported through the statement that was running
  return conn;
}

/** Run one statement, counting result rows as they arrive (the client never holds them all). */
function streamStatement(conn: mysql.Connection, sql: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    let failed = false;
    conn
      .query(sql)
      .on('result', () => rows++)
      .on('error', (err) => {
        failed = true;
        reject(err);
      })
      .on('end', () => {
        if (!failed) resolve(rows);
      });
  });
}

/** What a failed statement said, short and safe inside a markdown cell. */
function errorResult(err: unknown): string {
  const { errno, code, message } = err as { errno?: number; code?: string; message?: string };
  const text = String(message ?? err);
  if (/MEM_LIMIT_EXCEEDED/.test(text)) return 'MEM_LIMIT_EXCEEDED';
  return `error ${errno ?? code ?? ''}: ${text.replace(/\|/g, '/').replace(/\s+/g, ' ').slice(0, 80)}`;
}

/** CSV (tab-separated, Stream Load's default) for rows [from, to) of t; fixed seed per body. */
function csvBody(from: number, to: number, rowCount: number): string {
  const random = mulberry32(from + 1);
  const groups = Math.max(1, Math.floor(rowCount / 10));
  const lines: string[] = [];
  for (let rowIdx = from; rowIdx < to; rowIdx++) {
    // An odd multiplier mod 2^32 is a bijection: k is distinct in every row but not in load order.
    const k = Number((BigInt(rowIdx) * 2654435761n) % 4294967296n);
    const g = Math.floor(random() * groups);
    lines.push(`${k}\t${g}\tgroup-${g.toString(36)}-${k % 9973}\t${(random() * 1000).toFixed(3)}\n`);
  }
  return lines.join('');
}

/**
 * One Stream Load request straight to the BE web port, on a connection of its own: reusing a kept-alive
 * socket with fetch failed with EPIPE now and then when the next load started right after an answer.
 */
function streamLoad(server: GaleneProcess, body: string): Promise<void> {
  const bytes = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const headers = { Authorization: 'Basic ' + Buffer.from('root:').toString('base64'), 'Content-Length': bytes.length, format: 'csv' };
    const req = http.request({ host: '127.0.0.1', port: server.ports.webserver_port, method: 'PUT', path: '/api/bench/t/_stream_load', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        let result: { Status?: string; Message?: string } = {};
        try {
          result = JSON.parse(text) as typeof result;
        } catch {
          // not JSON: reported below with the text
        }
        if (result.Status === 'Success') resolve();
        else reject(new Error(`Stream Load failed: HTTP ${res.statusCode} ${text.slice(0, 300)}`));
      });
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

/** Load the rows in bodies of LOAD_BODY_ROWS, the next body generated while the previous one loads. */
async function loadTable(server: GaleneProcess, rowCount: number): Promise<number> {
  const start = performance.now();
  let inFlight: Promise<void> = Promise.resolve();
  for (let from = 0; from < rowCount; from += LOAD_BODY_ROWS) {
    const body = csvBody(from, Math.min(rowCount, from + LOAD_BODY_ROWS), rowCount);
    await inFlight;
    inFlight = streamLoad(server, body);
    inFlight.catch(() => undefined); // awaited (and so reported) on the next turn or below
  }
  await inFlight;
  return performance.now() - start;
}

/** Wait until background compaction is done: every tablet's version count unchanged for 2.5 s (at most 120 s). */
async function waitForCompaction(server: GaleneProcess): Promise<void> {
  const conn = await connect(server.ports.query_port);
  const deadline = performance.now() + 120_000;
  let previous = '';
  for (;;) {
    const versions = (await queryRows(conn, 'SHOW TABLETS FROM bench.t')).map((tablet) => tablet[2]).join(',');
    if (versions === previous || performance.now() > deadline) break;
    previous = versions;
    await sleep(2500);
  }
  await conn.end();
}

interface CaseOutcome {
  readonly heavyMs: number;
  readonly result: string;
  /** Set when the heavy statement ran past the timeout or the server died: restart before the next case. */
  readonly serverLost: boolean;
  readonly extraRows?: Row[];
}

interface Case {
  readonly name: string;
  /** Before the probe starts (not measured). */
  readonly prepare?: (conns: mysql.Connection[]) => Promise<void>;
  readonly connections: number;
  /** The heavy part, measured; resolves with the result text ('ok' or what went wrong). */
  readonly run: (conns: mysql.Connection[], server: GaleneProcess, rowCount: number) => Promise<{ result: string; extraRows?: Row[] }>;
}

const sqlOnly = (statement: (conn: mysql.Connection) => Promise<string>): Case['run'] => async (conns) => ({ result: await statement(conns[0]) });

function buildCases(): Case[] {
  return [
    { name: '(a) idle baseline', connections: 1, run: async () => (await sleep(IDLE_MS), { result: 'ok' }) },
    {
      name: '(b) INSERT INTO t2 SELECT * FROM t',
      connections: 2, // the second one sends (g)
      prepare: async ([conn]) => {
        await streamStatement(conn, 'DROP TABLE IF EXISTS t2');
        await streamStatement(conn, `CREATE TABLE t2 ${TABLE_SCHEMA}`);
      },
      run: async ([conn, other]) => {
        const start = performance.now();
        let ended = false;
        const insert = streamStatement(conn, 'INSERT INTO t2 SELECT * FROM t').finally(() => (ended = true));
        insert.catch(() => undefined);
        // (g): one SHOW PROCESSLIST on a connection opened before the case, sent PROCESSLIST_DELAY_MS into the INSERT.
        const processlist = (async (): Promise<Row> => {
          await sleep(Math.max(0, PROCESSLIST_DELAY_MS - (performance.now() - start)));
          const sentWhileRunning = !ended;
          const sent = performance.now();
          let result = 'ok';
          try {
            await streamStatement(other, 'SHOW PROCESSLIST');
          } catch (err) {
            result = errorResult(err);
          }
          const answerMs = performance.now() - sent;
          if (!sentWhileRunning) result += ' (sent after the INSERT ended)';
          return { case: `(g) SHOW PROCESSLIST sent ${PROCESSLIST_DELAY_MS} ms into (b)`, heavy_ms: '', probes: 1, p50_ms: answerMs, p99_ms: answerMs, max_ms: answerMs, result };
        })();
        processlist.catch(() => undefined);
        let result = 'ok';
        try {
          await insert;
        } catch (err) {
          result = errorResult(err);
        }
        const processlistRow = await processlist.catch((err: unknown): Row => ({ case: '(g) SHOW PROCESSLIST', result: errorResult(err) }));
        return { result, extraRows: [processlistRow] };
      },
    },
    {
      name: '(c) SELECT * FROM t, streamed to the client',
      connections: 1,
      run: async ([conn], _server, rowCount) => {
        const rows = await streamStatement(conn, 'SELECT * FROM t');
        return { result: rows === rowCount ? 'ok' : `${rows} of ${rowCount} rows` };
      },
    },
    { name: '(d) SELECT count(DISTINCT k) FROM t', connections: 1, run: sqlOnly(async (conn) => (await streamStatement(conn, 'SELECT count(DISTINCT k) FROM t'), 'ok')) },
    {
      name: '(e) SELECT k, count(*) FROM t GROUP BY k, exec_mem_limit = 64 MiB',
      connections: 1,
      prepare: async ([conn]) => void (await streamStatement(conn, 'SET exec_mem_limit = 67108864')),
      run: async ([conn], _server, rowCount) => {
        const rows = await streamStatement(conn, 'SELECT k, count(*) FROM t GROUP BY k');
        return { result: rows === rowCount ? 'ok (no MEM_LIMIT_EXCEEDED)' : `${rows} of ${rowCount} groups` };
      },
    },
    {
      name: `(f) ${CONCURRENT_GROUP_BYS} x SELECT g, count(*), sum(v) FROM t GROUP BY g at once`,
      connections: CONCURRENT_GROUP_BYS,
      run: async (conns) => {
        const outcomes = await Promise.allSettled(conns.map((conn) => streamStatement(conn, 'SELECT g, count(*), sum(v) FROM t GROUP BY g')));
        const failures = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        return { result: failures.length ? `${failures.length} of ${conns.length} failed: ${errorResult(failures[0].reason)}` : 'ok' };
      },
    },
  ];
}

/** One case: probe on, heavy statement(s), probe off; a timeout or a dead server marks the server lost. */
async function runCase(testCase: Case, server: GaleneProcess, rowCount: number, timeoutMs: number): Promise<{ row: Row; extraRows: Row[]; serverLost: boolean }> {
  const loadAvg = os.loadavg()[0];
  const conns = await Promise.all(Array.from({ length: testCase.connections }, () => rawConnect(server.ports.query_port)));
  await testCase.prepare?.(conns);
  const probe = await Probe.start(server);
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  let outcome: CaseOutcome;
  try {
    const running = testCase.run(conns, server, rowCount);
    running.catch(() => undefined); // after a timeout nobody awaits it any more
    const done = await Promise.race([running, timeout]);
    const heavyMs = performance.now() - start;
    if (done === 'timeout') {
      await server.kill('SIGKILL');
      outcome = { heavyMs, result: `timeout (${timeoutMs / 1000} s)`, serverLost: true };
    } else outcome = { heavyMs, result: done.result, serverLost: server.child.exitCode !== null || server.child.signalCode !== null, extraRows: done.extraRows };
  } catch (err) {
    const exited = server.child.exitCode !== null || server.child.signalCode !== null;
    outcome = { heavyMs: performance.now() - start, result: exited ? `server exited (${server.child.exitCode ?? server.child.signalCode}): ${errorResult(err)}` : errorResult(err), serverLost: exited };
  } finally {
    clearTimeout(timer);
  }
  const probed = await probe.stop();
  for (const conn of conns) conn.destroy();
  const p99 = percentile(probed.latencies, 99);
  const max = Math.max(...probed.latencies);
  let result = outcome.result;
  if (probed.probeErrors) result += `; probe: ${probed.firstError.replace(/\|/g, '/').slice(0, 60)}`;
  const row: Row = {
    case: testCase.name,
    heavy_ms: Math.round(outcome.heavyMs),
    probes: probed.latencies.length,
    p50_ms: percentile(probed.latencies, 50),
    p99_ms: p99,
    max_ms: max,
    rss_max_mib: probed.rssMaxMiB,
    peak_rss_mib: outcome.serverLost ? '' : peakRssMiB(server.child.pid!),
    load_avg_1m: loadAvg,
    result,
  };
  return { row, extraRows: outcome.extraRows ?? [], serverLost: outcome.serverLost };
}

/** Every case on one server start; returns its rows (a lost server is restarted on the same data). */
async function runCases(startServer: () => Promise<GaleneProcess>, rowCount: number, timeoutMs: number): Promise<Row[]> {
  let server = await startServer();
  const rows: Row[] = [];
  try {
    for (const testCase of buildCases()) {
      await waitForCompaction(server);
      const { row, extraRows, serverLost } = await runCase(testCase, server, rowCount, timeoutMs);
      console.error(`${testCase.name}: heavy ${row.heavy_ms} ms, SELECT 1 p99 ${Number(row.p99_ms).toFixed(1)} ms, max ${Number(row.max_ms).toFixed(1)} ms, ${row.result}`);
      rows.push(row, ...extraRows);
      if (serverLost) {
        if (server.child.exitCode === null && server.child.signalCode === null) await server.kill('SIGKILL');
        server = await startServer();
      }
    }
  } finally {
    await server.stop();
  }
  return rows;
}

/** The probe's latencies against the target; a case cut short (timeout, lost server or probe) cannot meet it. */
function meetsTarget(row: Row): string {
  const cutShort = /^(timeout|server exited)|; probe: /.test(String(row.result));
  return !cutShort && typeof row.p99_ms === 'number' && typeof row.max_ms === 'number' && row.p99_ms < 20 && row.max_ms < 100 ? 'yes' : 'no';
}

export async function main(args: readonly string[]): Promise<void> {
  const { values, rest } = takeOptions(args, ['rows', 'compare-setting', 'case-timeout-s']);
  const options = parseBenchArgs(rest);
  const rowCount = values.has('rows') ? Number(values.get('rows')) : options.quick ? 300_000 : 5_000_000;
  if (!Number.isInteger(rowCount) || rowCount <= 0) throw new Error(`--rows must be a positive integer, not ${values.get('rows')}`);
  const timeoutMs = Number(values.get('case-timeout-s') ?? 120) * 1000;
  const compareOption = values.get('compare-setting') ?? process.env.GALENE_BENCH_COMPARE_SETTING ?? DEFAULT_COMPARE_SETTING;
  const compare = compareOption === 'none' ? '' : compareOption;
  const compareMatch = /^([a-z_][a-z0-9_]*)=(.*)$/i.exec(compare);
  if (compare && !compareMatch) throw new Error(`--compare-setting takes NAME=VALUE, not ${compare}`);

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-isolation-'));
  const dataDir = path.join(workDir, 'galene');
  try {
    const loader = await startGalene({ dataDir });
    let loadMs: number;
    try {
      const conn = await connect(loader.ports.query_port);
      await conn.query('CREATE DATABASE bench');
      await conn.query(`CREATE TABLE bench.t ${TABLE_SCHEMA}`);
      loadMs = await loadTable(loader, rowCount).catch((err: Error) => {
        throw new Error(`${err.message}; server stderr: ${loader.stderr().slice(-2000)}`);
      });
      const [[loaded]] = await queryRows(conn, 'SELECT count(*) FROM bench.t');
      if (Number(loaded) !== rowCount) throw new Error(`loaded ${loaded} of ${rowCount} rows`);
      await conn.end();
    } finally {
      await loader.stop();
    }
    console.error(`loaded ${rowCount} rows through Stream Load in ${Math.round(loadMs)} ms`);

    const baseRows = await runCases(() => startGalene({ dataDir }), rowCount, timeoutMs);
    let rows: Row[];
    if (!compareMatch) rows = baseRows;
    else {
      const [, name, value] = compareMatch;
      const comparedRows = await runCases(() => startGalene({ dataDir, args: [`--${name}`, value] }), rowCount, timeoutMs);
      // Paired by case name: a timed-out (b) has no (g) row on that side.
      rows = [];
      for (const baseRow of baseRows) {
        rows.push({ server: 'default', ...baseRow, ratio: '' });
        const compared = comparedRows.find((row) => row.case === baseRow.case);
        if (compared) rows.push({ server: `${name}=${value}`, ...compared, ratio: Number(compared.p99_ms) / Number(baseRow.p99_ms) });
      }
      for (const compared of comparedRows.filter((row) => !baseRows.some((baseRow) => baseRow.case === row.case))) rows.push({ server: `${name}=${value}`, ...compared, ratio: '' });
    }
    rows = rows.map((row) => ({ ...row, target: TARGET, meets_target: meetsTarget(row) }));
    report(`isolation: SELECT 1 on a second connection while a heavy statement runs, ${rowCount} rows, ${os.cpus().length} cores (load ${Math.round(loadMs)} ms through Stream Load)`, rows, options);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
