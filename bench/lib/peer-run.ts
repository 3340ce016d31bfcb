/**
 * Running a query set on Galene and on DuckDB side by side (bench/tpch.ts, bench/clickbench.ts): a
 * checked run then timed runs, short error text for the result table, and the geometric mean of ratios.
 */
import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, startGalene } from '../../test/helpers/galene-process';
import { connect, queryRows, TextRow } from '../../test/helpers/mysql-client';
import { median, peakRssMiB, Row } from './report';

/** First line of an error message, shortened for the table. */
export const shortError = (err: unknown): string => ((err as Error).message ?? String(err)).split('\n')[0].replace(/\|/g, '/').slice(0, 160);

/** One checked run (its rows and time), then `repeats` timed runs; ms is their median (the checked run's time when none). */
export async function checkedAndTimed(repeats: number, run: () => Promise<TextRow[]>): Promise<{ rows: TextRow[]; ms: number }> {
  const start = performance.now();
  const rows = await run();
  const times = [performance.now() - start];
  return { rows, ms: await timedRepeats(repeats, run, times) };
}

/** Median ms of `repeats` more runs (of `fallback` when none). */
export async function timedRepeats(repeats: number, run: () => Promise<unknown>, fallback: number[]): Promise<number> {
  const times: number[] = [];
  for (let runIdx = 0; runIdx < repeats; runIdx++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times.length ? times : fallback);
}

/** The geometric mean of positive ratios (NaN when there are none). */
export function geometricMean(ratios: readonly number[]): number {
  return ratios.length ? Math.exp(ratios.reduce((sum, ratio) => sum + Math.log(ratio), 0) / ratios.length) : NaN;
}

/** The Galene side of a peer run: its connection (replaced after a failure closes it) and server pid. */
export interface GaleneUnderTest {
  conn: Connection;
  readonly pid: number;
  /** Run a session statement (USE, SET) now and on every replacement connection. */
  configure(statement: string): Promise<void>;
  /** A fresh connection set up as `conn` was. */
  reconnect(): Promise<Connection>;
}

/**
 * Runs one query on Galene into `row` (status, galene_ms, ratio against `duckMs`, peak RSS): one checked
 * run whose rows `check` judges (null when right), then `runs` timed runs when right. An error is the
 * row's status, never thrown. Returns the ratio when the answer is right, else null.
 */
export async function runOnGalene(galene: GaleneUnderTest, sql: string, runs: number, row: Row, duckMs: number, check: (actual: TextRow[]) => Promise<string | null>): Promise<number | null> {
  const conn = galene.conn;
  const galeneRun = (): Promise<TextRow[]> => queryRows(conn, sql);
  let actual: TextRow[];
  const start = performance.now();
  try {
    actual = await galeneRun();
  } catch (err) {
    row.status = `error: ${shortError(err)}`;
    row.galene_peak_rss_mib = peakRssMiB(galene.pid);
    // A connection the failure closed is replaced for the next query.
    if (!(await conn.query('SELECT 1').then(() => true, () => false))) galene.conn = await galene.reconnect();
    return null;
  }
  const checkedMs = performance.now() - start;
  const difference = await check(actual);
  let ratio: number | null = null;
  if (difference) {
    row.status = `wrong result: ${difference.replace(/\|/g, '/')}`;
    row.galene_ms = checkedMs;
  } else {
    const galeneMs = await timedRepeats(runs, galeneRun, [checkedMs]);
    row.status = 'ok';
    row.galene_ms = galeneMs;
    ratio = galeneMs / duckMs;
    row.ratio = ratio;
  }
  row.galene_peak_rss_mib = peakRssMiB(galene.pid);
  return ratio;
}

/** `conn` to the server (`pid`, query `port`) as a GaleneUnderTest. */
export function galeneUnderTest(conn: Connection, pid: number, port: number): GaleneUnderTest {
  const setup: string[] = [];
  return {
    conn,
    pid,
    async configure(statement) {
      await this.conn.query(statement);
      setup.push(statement);
    },
    reconnect: async () => {
      const fresh = await connect(port);
      for (const statement of setup) await fresh.query(statement);
      return fresh;
    },
  };
}

/** What a peer benchmark works with: a scratch directory, a Galene server with database `db` in use, DuckDB. */
export interface Peers {
  readonly workDir: string;
  readonly server: GaleneProcess;
  readonly galene: GaleneUnderTest;
  readonly duckConn: DuckDBConnection;
}

/**
 * Starts a Galene server (data under a scratch directory) with database `db` created and in use, and an
 * in-memory DuckDB with threads=2 (the same cores), runs `body`, then stops and removes everything.
 */
export async function withPeers(db: string, body: (peers: Peers) => Promise<void>): Promise<void> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `galene-bench-${db}-`));
  const server = await startGalene({ dataDir: path.join(workDir, 'galene') });
  const duck = await DuckDBInstance.create(':memory:', { threads: '2' });
  const duckConn = await duck.connect();
  let galene: GaleneUnderTest | null = null;
  try {
    galene = galeneUnderTest(await connect(server.ports.query_port), server.child.pid!, server.ports.query_port);
    await galene.conn.query(`CREATE DATABASE ${db}`);
    await galene.configure(`USE ${db}`);
    await body({ workDir, server, galene, duckConn });
  } finally {
    await galene?.conn.end().catch(() => undefined);
    duckConn.closeSync();
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
