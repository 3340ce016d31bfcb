/**
 * Group Commit benchmark: the four performance tables of the Group Commit seed (004), scaled to this
 * machine, each with the same workload without Group Commit (off_mode) measured in the same run:
 *
 *   1. Stream Load of the httplogs-like rows (bench/streamload.ts's generator) at 10 KB, 100 KB, 500 KB,
 *      1 MB and 10 MB per request, 10 and 30 concurrent clients: async_mode vs off_mode, plus async_mode
 *      with the WAL fsync turned off (the test-only group_commit_wal_fsync=false) to show what the fsync
 *      costs. rows/s and MB/s count until the last request is answered; visible_s is when every row was
 *      visible; versions are the most any tablet got.
 *   2. Prepared INSERT (mysql2 execute), 100 rows a statement, 10 / 20 / 30 connections, async_mode.
 *   3. Single-row prepared INSERT in sync_mode, group_commit_interval_ms 10 / 20 / 50 / 100, 30 / 100 /
 *      500 connections.
 *   4. 1000-row INSERT in sync_mode, same grid.
 *
 *   npm run bench -- groupcommit [--quick] [--json FILE] [--s3]
 *
 * --s3: the tables live in a default S3 storage vault on the test S3 server (s3rver on loopback); the WALs
 * stay on the local disk, as in Doris.
 *
 * Tables 2-4 use the seed's lineitem schema (16 columns), 4 buckets. The clients (mysql2, node http) run
 * in the benchmark process, on the same 2 cores as the server: the seed's Doris numbers had a 16-core
 * client machine and 16-core servers.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { startGalene, GaleneProcess } from '../test/helpers/galene-process';
import { connect, queryRows } from '../test/helpers/mysql-client';
import { httpRequest } from '../test/group-commit/helpers';
import { parseBenchArgs, peakRssMiB, report, Row } from './lib/report';
import { logRecords, makeBodies, streamLoad } from './streamload';

const LINEITEM = `(L_ORDERKEY INTEGER NOT NULL, L_PARTKEY INTEGER NOT NULL, L_SUPPKEY INTEGER NOT NULL, L_LINENUMBER INTEGER NOT NULL,
  L_QUANTITY DECIMAL(15,2) NOT NULL, L_EXTENDEDPRICE DECIMAL(15,2) NOT NULL, L_DISCOUNT DECIMAL(15,2) NOT NULL, L_TAX DECIMAL(15,2) NOT NULL,
  L_RETURNFLAG CHAR(1) NOT NULL, L_LINESTATUS CHAR(1) NOT NULL, L_SHIPDATE DATE NOT NULL, L_COMMITDATE DATE NOT NULL, L_RECEIPTDATE DATE NOT NULL,
  L_SHIPINSTRUCT CHAR(25) NOT NULL, L_SHIPMODE CHAR(10) NOT NULL, L_COMMENT VARCHAR(44) NOT NULL)
  DUPLICATE KEY(L_ORDERKEY, L_PARTKEY, L_SUPPKEY, L_LINENUMBER) DISTRIBUTED BY HASH(L_ORDERKEY) BUCKETS 4`;

/** One lineitem row's parameters (the seed's Go client shape: random keys, constant measures). */
function lineitemParams(key: number): unknown[] {
  return [key, key % 1000, key % 997, key % 7, '1.00', '1.00', '1.00', '1.00', 'N', 'O', '2024-05-01', '2024-05-02', '2024-05-03', 'DELIVER IN PERSON', 'SHIP', 'N/A'];
}

function lineitemLiteral(key: number): string {
  return `(${key}, ${key % 1000}, ${key % 997}, ${key % 7}, 1.00, 1.00, 1.00, 1.00, 'N', 'O', '2024-05-01', '2024-05-02', '2024-05-03', 'DELIVER IN PERSON', 'SHIP', 'N/A')`;
}

const PLACEHOLDER_ROW = `(${Array.from({ length: 16 }, () => '?').join(', ')})`;

async function waitForCount(conn: Connection, table: string, expected: number, timeoutMs = 120_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [[count]] = await queryRows(conn, `SELECT count(*) FROM ${table}`);
    if (Number(count) >= expected || Date.now() > deadline) return Number(count);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function maxVersions(conn: Connection, table: string): Promise<number> {
  const rows = await queryRows(conn, `SHOW TABLETS FROM ${table}`);
  return Math.max(...rows.map((row) => Number(row[2])));
}

async function setBe(server: GaleneProcess, query: string): Promise<void> {
  const answer = await httpRequest('POST', `http://127.0.0.1:${server.ports.webserver_port}/api/update_config?${query}`, { auth: 'root:' });
  if (!answer.body.includes('"OK"')) throw new Error(`update_config ${query}: ${answer.body}`);
}

/**
 * `concurrency` connections running `statement(connIdx, seq)` for `seconds`; returns acknowledged rows,
 * elapsed seconds and errors.
 */
async function runClients(conns: readonly Connection[], seconds: number, rowsPerStatement: number, statement: (conn: Connection, connIdx: number, seq: number) => Promise<unknown>): Promise<{ rows: number; seconds: number; errors: number; firstError: string }> {
  let rows = 0;
  let errors = 0;
  let firstError = '';
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    conns.map(async (conn, connIdx) => {
      for (let seq = 0; performance.now() < end; seq++) {
        try {
          await statement(conn, connIdx, seq);
          rows += rowsPerStatement;
        } catch (err) {
          errors++;
          firstError ||= (err as Error).message;
          if (errors > 100) return;
        }
      }
    }),
  );
  return { rows, seconds: (performance.now() - start) / 1000, errors, firstError };
}

export async function main(args: readonly string[]): Promise<void> {
  // --s3: tables in a default S3 storage vault (the test s3rver on loopback) instead of the local directory.
  const storage = args.includes('--s3') ? 's3' : 'local';
  const options = parseBenchArgs(args.filter((arg) => arg !== '--s3'));
  const quick = options.quick;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-groupcommit-'));
  const server = await startGalene({ dataDir: path.join(workDir, 'galene'), args: ['--disable_auto_compaction', 'true', '--max_connections', '2000', '--max_tablet_version_num', '100000'], storage });
  const conn = await connect(server.ports.query_port);
  // Up to 500 sessions of root: past Doris's per-user default of 100.
  await conn.query('SET GLOBAL max_user_connections = 2000');
  await conn.query('CREATE DATABASE bench');
  await conn.query('USE bench');
  let tableIdx = 0;
  const all: Row[] = [];
  try {
    // ---------------------------------------------------------------- 1. Stream Load
    const totalRows = quick ? 200_000 : 2_000_000;
    const maxRequests = quick ? 200 : 1000;
    const records = [...logRecords(totalRows)];
    const streamRows: Row[] = [];
    const sizes = [10_000, 100_000, 500_000, 1_000_000, 10_000_000];
    for (const requestBytes of sizes) {
      const { bodies, rows: rowCount } = makeBodies(records, 'csv', requestBytes, maxRequests);
      const totalBytes = bodies.reduce((sum, body) => sum + body.length, 0);
      for (const concurrency of [10, 30]) {
        const modes = concurrency === 10 || !quick ? ['off_mode', 'async_mode', 'async_mode, no fsync'] : ['off_mode', 'async_mode'];
        for (const mode of modes) {
          const table = `httplogs_${tableIdx++}`;
          await conn.query(`CREATE TABLE ${table} (timestamp DATETIME, clientip VARCHAR(20), request VARCHAR(200), status INT, size INT) DUPLICATE KEY(timestamp) DISTRIBUTED BY HASH(clientip) BUCKETS 2 PROPERTIES ("group_commit_interval_ms" = "1000")`);
          const noFsync = mode.includes('no fsync');
          if (noFsync) await setBe(server, 'group_commit_wal_fsync=false');
          const headers = mode === 'off_mode' ? {} : { group_commit: 'async_mode' };
          let next = 0;
          let failures = 0;
          let firstError = '';
          const start = performance.now();
          await Promise.all(
            Array.from({ length: concurrency }, async () => {
              while (next < bodies.length) {
                const body = bodies[next++];
                const result = await streamLoad(server.ports.webserver_port, 'bench', table, body, 'csv', headers).catch((err: Error) => ({ Status: 'Fail', Message: err.message }));
                if (result.Status !== 'Success') {
                  failures++;
                  firstError ||= result.Message ?? result.Status;
                }
              }
            }),
          );
          const seconds = (performance.now() - start) / 1000;
          if (noFsync) await setBe(server, 'group_commit_wal_fsync=true');
          const loaded = await waitForCount(conn, table, rowCount);
          const visibleSeconds = (performance.now() - start) / 1000;
          if (failures) console.error(`stream load ${requestBytes} x${concurrency} ${mode}: ${failures} failed: ${firstError}`);
          streamRows.push({
            request_size: requestBytes >= 1_000_000 ? `${requestBytes / 1_000_000} MB` : `${requestBytes / 1000} KB`,
            concurrency,
            mode,
            requests: bodies.length,
            rows: loaded,
            rows_per_s: Math.round(rowCount / seconds),
            mb_per_s: totalBytes / 1e6 / seconds,
            visible_s: visibleSeconds,
            versions: await maxVersions(conn, table),
            failed: failures,
            peak_rss_mib: peakRssMiB(server.child.pid!),
          });
          await conn.query(`DROP TABLE ${table}`);
        }
      }
    }
    // async / off and async / no-fsync ratios, per size and concurrency.
    for (const row of streamRows) {
      const peer = (mode: string): Row | undefined => streamRows.find((other) => other.request_size === row.request_size && other.concurrency === row.concurrency && other.mode === mode);
      const off = peer('off_mode');
      const noFsync = peer('async_mode, no fsync');
      row.vs_off = off ? Number(row.rows_per_s) / Number(off.rows_per_s) : '';
      row.vs_no_fsync = noFsync && row.mode === 'async_mode' ? Number(row.rows_per_s) / Number(noFsync.rows_per_s) : '';
    }
    report(`groupcommit 1: Stream Load, httplogs-like CSV (${totalRows} rows, at most ${maxRequests} requests a cell), interval 1000 ms, ${storage === 's3' ? 'tables in an S3 vault (s3rver on loopback)' : 'local directory'}, ${os.cpus().length} cores`, streamRows, { ...options, jsonFile: null });
    all.push(...streamRows.map((row) => ({ table: 'stream_load', ...row })));

    // ---------------------------------------------------------------- 2. prepared 100-row INSERT
    const seconds = quick ? 2 : 6;
    const preparedRows: Row[] = [];
    const batchSql = (table: string): string => `INSERT INTO ${table} VALUES ${Array.from({ length: 100 }, () => PLACEHOLDER_ROW).join(', ')}`;
    for (const concurrency of quick ? [10, 30] : [10, 20, 30]) {
      for (const mode of ['off_mode', 'async_mode']) {
        const table = `lineitem_${tableIdx++}`;
        await conn.query(`CREATE TABLE ${table} ${LINEITEM} PROPERTIES ("group_commit_interval_ms" = "1000")`);
        const conns = await Promise.all(Array.from({ length: concurrency }, () => connect(server.ports.query_port, { database: 'bench' })));
        for (const client of conns) await client.query(`SET group_commit = ${mode}`);
        const sql = batchSql(table);
        const result = await runClients(conns, seconds, 100, (client, connIdx, seq) => {
          const params: unknown[] = [];
          for (let rowIdx = 0; rowIdx < 100; rowIdx++) params.push(...lineitemParams((connIdx * 100_000 + seq) * 100 + rowIdx));
          return client.execute(sql, params as never);
        });
        await waitForCount(conn, table, result.rows);
        preparedRows.push({ rows_per_insert: 100, concurrency, mode, rows: result.rows, rows_per_s: Math.round(result.rows / result.seconds), versions: await maxVersions(conn, table), errors: result.errors, peak_rss_mib: peakRssMiB(server.child.pid!) });
        if (result.errors) console.error(`prepared ${concurrency} ${mode}: ${result.firstError}`);
        await Promise.all(conns.map((client) => client.end()));
        await conn.query(`DROP TABLE ${table}`);
      }
    }
    report('groupcommit 2: prepared INSERT (mysql2 execute), 100 lineitem rows a statement, interval 1000 ms', preparedRows, { ...options, jsonFile: null });
    all.push(...preparedRows.map((row) => ({ table: 'prepared_100', ...row })));

    // ---------------------------------------------------------------- 3 and 4. sync_mode grids
    const intervals = quick ? [10, 100] : [10, 20, 50, 100];
    const concurrencies = quick ? [30, 500] : [30, 100, 500];
    const maxConcurrency = Math.max(...concurrencies);
    const pool = await Promise.all(Array.from({ length: maxConcurrency }, () => connect(server.ports.query_port, { database: 'bench' })));
    for (const [tableName, rowsPerInsert] of [['sync_single_row', 1], ['sync_1000_rows', 1000]] as const) {
      const gridRows: Row[] = [];
      const literalBlocks = rowsPerInsert === 1000 ? Array.from({ length: maxConcurrency }, (_, connIdx) => Array.from({ length: 1000 }, (_, rowIdx) => lineitemLiteral(connIdx * 1000 + rowIdx)).join(', ')) : [];
      for (const concurrency of concurrencies) {
        const conns = pool.slice(0, concurrency);
        for (const interval of ['off', ...intervals]) {
          const table = `lineitem_${tableIdx++}`;
          await conn.query(`CREATE TABLE ${table} ${LINEITEM} PROPERTIES ("group_commit_interval_ms" = "${interval === 'off' ? 10 : interval}")`);
          for (const client of conns) await client.query(`SET group_commit = ${interval === 'off' ? 'off_mode' : 'sync_mode'}`);
          const single = `INSERT INTO ${table} VALUES ${PLACEHOLDER_ROW}`;
          const result = await runClients(conns, quick ? 2 : 4, rowsPerInsert, (client, connIdx, seq) =>
            rowsPerInsert === 1 ? client.execute(single, lineitemParams(connIdx * 1_000_000 + seq) as never) : client.query(`INSERT INTO ${table} VALUES ${literalBlocks[connIdx]}`),
          );
          gridRows.push({
            rows_per_insert: rowsPerInsert,
            concurrency,
            interval_ms: interval === 'off' ? 'off_mode' : interval,
            rows: result.rows,
            rows_per_s: Math.round(result.rows / result.seconds),
            versions: await maxVersions(conn, table),
            errors: result.errors,
            peak_rss_mib: peakRssMiB(server.child.pid!),
          });
          if (result.errors) console.error(`${tableName} ${concurrency} ${interval}: ${result.firstError}`);
          await conn.query(`DROP TABLE ${table}`);
        }
      }
      report(`groupcommit ${rowsPerInsert === 1 ? 3 : 4}: ${rowsPerInsert === 1 ? 'single-row prepared' : '1000-row'} INSERT in sync_mode (off_mode row: the same without Group Commit)`, gridRows, { ...options, jsonFile: null });
      all.push(...gridRows.map((row) => ({ table: tableName, ...row })));
    }
    await Promise.all(pool.map((client) => client.end()));
    if (options.jsonFile) fs.writeFileSync(options.jsonFile, JSON.stringify(all, null, 2) + '\n');
  } finally {
    await conn.end().catch(() => undefined);
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
