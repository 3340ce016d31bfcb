/**
 * Cold and warm reads of a table in an S3 storage vault (s3rver in its own process behind the fault
 * proxy's lognormal request latency, p50 25 ms / p99 150 ms as anchors.md's small-GET figures): a
 * merge-on-write UNIQUE KEY table of lineitem-shaped rows (11 columns, key (l_orderkey, l_linenumber)),
 * loaded by several Stream Loads in key order (as order ids grow) so its one tablet holds several segments
 * with disjoint key ranges, read by
 *   - a prepared point lookup on the full key (the short-circuit path), on the table with and without the
 *     `store_row_column` row store, and
 *   - a TPC-H-Q1-shaped scan (filter + GROUP BY + sum / avg over four columns).
 * Each query runs cold — before it the BE's file cache (`/api/file_cache?op=clear&sync=true`) and its
 * in-memory caches (`/api/clear_cache/all`: decoded pages, open segment and primary-key index readers) are
 * cleared, as Doris's benchmark scripts do — and warm (run again at once). Per query: object-store
 * requests (the proxy's count, every method) and bytes (the query profile's ObjectStoreBytes), latency
 * p50 / p99 over the samples. The peer in the same run: DuckDB (1 thread) running the scan over the same
 * rows in a local Parquet file (latency only; no object store involved).
 *
 *   npm run bench -- coldread [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import * as mysql from 'mysql2/promise';
import { startGalene } from '../test/helpers/galene-process';
import { startS3BehindProxy } from '../test/helpers/s3-behind-proxy';
import { parseBenchArgs, report, type Row } from './lib/report';
import { streamLoad } from './streamload';

export const COLUMNS =
  'l_orderkey BIGINT, l_linenumber INT, l_partkey INT, l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), l_tax DECIMAL(15,2), l_returnflag VARCHAR(1), l_linestatus VARCHAR(1), l_shipdate DATE, l_comment VARCHAR(44)';
const POINT_SQL = (table: string): string => `SELECT * FROM ${table} WHERE l_orderkey = ? AND l_linenumber = ?`;
const Q1_SQL = (table: string): string =>
  `SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice), avg(l_discount), avg(l_tax), count(*) FROM ${table} WHERE l_shipdate <= '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus`;
const LINES_PER_ORDER = 4;
const EPOCH_1992 = Date.UTC(1992, 0, 1) / 86_400_000;
/** Words of TPC-H's comment text grammar (dbgen's l_comment is random text of up to 44 characters). */
const WORDS = ['furiously', 'quickly', 'carefully', 'blithely', 'slyly', 'final', 'pending', 'regular', 'express', 'ironic', 'special', 'bold', 'deposits', 'requests', 'accounts', 'packages', 'theodolites', 'foxes', 'pinto', 'beans', 'instructions', 'dependencies', 'asymptotes', 'across', 'among', 'haggle', 'sleep', 'nag', 'wake', 'integrate'];

/** dbgen-like comment of row `rowIdx`: random words (a 32-bit mix of the row number), at most 44 characters. */
function commentOf(rowIdx: number): string {
  let state = (rowIdx * 2654435761) >>> 0;
  const words: string[] = [];
  let length = 0;
  for (;;) {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    const word = WORDS[state % WORDS.length];
    if (length + word.length + 1 > 44 || words.length === 6) break;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

/** Row `rowIdx` as a tab-separated line (deterministic). */
export function lineOf(rowIdx: number): string {
  const order = Math.floor(rowIdx / LINES_PER_ORDER) + 1;
  const line = (rowIdx % LINES_PER_ORDER) + 1;
  const quantity = 1 + ((rowIdx * 7919) % 50);
  const price = ((rowIdx * 104_729) % 9_000_000) / 100 + 900;
  const discount = ((rowIdx * 31) % 11) / 100;
  const tax = ((rowIdx * 17) % 9) / 100;
  const flag = 'ANR'[rowIdx % 3];
  const status = 'FO'[(rowIdx >> 1) % 2];
  const ship = new Date((EPOCH_1992 + ((rowIdx * 13) % 2500)) * 86_400_000).toISOString().slice(0, 10);
  return `${order}\t${line}\t${(rowIdx * 37) % 200_000}\t${quantity}\t${price.toFixed(2)}\t${discount.toFixed(2)}\t${tax.toFixed(2)}\t${flag}\t${status}\t${ship}\t${commentOf(rowIdx)}`;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

function httpGet(port: number, urlPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers: { Authorization: 'Basic ' + Buffer.from('root:').toString('base64') } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${urlPath}: HTTP ${res.statusCode} ${text}`))));
      })
      .on('error', reject);
  });
}

/** The counters of the connection's last query profile. */
async function lastProfile(conn: mysql.Connection): Promise<Map<string, number>> {
  const [list] = await conn.query({ sql: 'SHOW QUERY PROFILE "/"', rowsAsArray: true });
  const id = (list as string[][])[0][0];
  const [details] = await conn.query({ sql: `SHOW QUERY PROFILE "/${id}"`, rowsAsArray: true });
  return new Map((details as string[][]).map(([name, value]) => [name, Number(value)]));
}

interface Sample {
  readonly ms: number;
  readonly requests: number;
  readonly bytes: number;
}

function summarize(query: string, table: string, state: string, samples: readonly Sample[]): Row {
  const times = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const requests = samples.map((sample) => sample.requests).sort((a, b) => a - b);
  const bytes = samples.map((sample) => sample.bytes).sort((a, b) => a - b);
  return {
    query,
    table,
    state,
    samples: samples.length,
    requests_p50: percentile(requests, 0.5),
    requests_max: requests[requests.length - 1],
    kib_p50: Math.round(percentile(bytes, 0.5) / 1024),
    p50_ms: percentile(times, 0.5),
    p99_ms: percentile(times, 0.99),
  };
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const rowCount = options.quick ? 60_000 : 400_000;
  const loads = 4;
  const samples = options.quick ? 5 : 30;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-coldread-'));
  const s3 = await startS3BehindProxy();
  const proxy = s3.proxy;
  const server = await startGalene({ dataDir: path.join(workDir, 'galene'), storage: 'local', args: ['--disable_auto_compaction', 'true'] });
  const conn = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '' });
  const rows: Row[] = [];
  try {
    await s3.createVault(conn, 'cold', 'coldread');
    await conn.query('CREATE DATABASE bench');
    await conn.query('USE bench');
    const tables = [
      { name: 'li_rowstore', label: 'store_row_column=true', properties: '"store_row_column" = "true", ' },
      { name: 'li', label: 'no row store', properties: '' },
    ];
    const csvPath = path.join(workDir, 'lineitem.tsv');
    const csv = fs.openSync(csvPath, 'w');
    const bodies: Buffer[] = [];
    const perLoad = Math.ceil(rowCount / loads);
    for (let load = 0; load < loads; load++) {
      const lines: string[] = [];
      for (let rowIdx = load * perLoad; rowIdx < Math.min(rowCount, (load + 1) * perLoad); rowIdx++) lines.push(lineOf(rowIdx));
      const body = Buffer.from(lines.join('\n') + '\n');
      fs.writeSync(csv, body);
      bodies.push(body);
    }
    fs.closeSync(csv);
    for (const table of tables) {
      await conn.query(`CREATE TABLE ${table.name} (${COLUMNS}) UNIQUE KEY(l_orderkey, l_linenumber) DISTRIBUTED BY HASH(l_orderkey) BUCKETS 1 PROPERTIES (${table.properties}"storage_vault_name" = "cold")`);
      for (const body of bodies) {
        const result = await streamLoad(server.ports.webserver_port, 'bench', table.name, body, 'csv');
        if (result.Status !== 'Success') throw new Error(`stream load into ${table.name}: ${result.Message ?? result.Status}`);
      }
    }
    const [segmentRows] = await conn.query({ sql: 'SHOW TABLETS FROM li', rowsAsArray: true });
    const versions = (segmentRows as string[][]).reduce((sum, row) => sum + Number(row[2]), 0);
    proxy.configure({ latency: { p50Ms: 25, p99Ms: 150 }, seed: 7 });
    const clearCaches = async (): Promise<void> => {
      await httpGet(server.ports.webserver_port, '/api/file_cache?op=clear&sync=true');
      await httpGet(server.ports.webserver_port, '/api/clear_cache/all');
    };
    const measure = async (run: () => Promise<unknown>): Promise<Sample> => {
      const before = proxy.stats.requests;
      const start = performance.now();
      await run();
      const ms = performance.now() - start;
      const requests = proxy.stats.requests - before;
      return { ms, requests, bytes: (await lastProfile(conn)).get('ObjectStoreBytes') ?? 0 };
    };
    const orders = Math.floor(rowCount / LINES_PER_ORDER);
    for (const table of tables) {
      const cold: Sample[] = [];
      const warm: Sample[] = [];
      for (let sample = 0; sample < samples; sample++) {
        const key = [1 + ((sample * 7919 + 13) % orders), 1 + (sample % LINES_PER_ORDER)];
        await clearCaches();
        cold.push(await measure(() => conn.execute(POINT_SQL(table.name), key)));
        warm.push(await measure(() => conn.execute(POINT_SQL(table.name), key)));
      }
      rows.push(summarize('point lookup (prepared, full key)', table.label, 'cold', cold), summarize('point lookup (prepared, full key)', table.label, 'warm', warm));
    }
    const scanSamples = Math.max(3, Math.floor(samples / 3));
    const coldScan: Sample[] = [];
    const warmScan: Sample[] = [];
    for (let sample = 0; sample < scanSamples; sample++) {
      await clearCaches();
      coldScan.push(await measure(() => conn.query(Q1_SQL('li'))));
      warmScan.push(await measure(() => conn.query(Q1_SQL('li'))));
    }
    rows.push(summarize('Q1-shaped scan', 'no row store', 'cold', coldScan), summarize('Q1-shaped scan', 'no row store', 'warm', warmScan));

    // The peer: DuckDB over the same rows in a local Parquet file (written once, outside the timing).
    const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
    const duckConn = await duck.connect();
    const parquet = path.join(workDir, 'lineitem.parquet');
    const duckColumns = COLUMNS.split(/,\s*(?=l_)/).map((def) => def.trim().split(/\s+/)).map(([name, ...type]) => `'${name}': '${type.join(' ').replace(/VARCHAR\(\d+\)/, 'VARCHAR')}'`).join(', ');
    await duckConn.run(`COPY (SELECT * FROM read_csv('${csvPath}', delim='\t', header=false, columns={${duckColumns}})) TO '${parquet}' (FORMAT parquet)`);
    const duckTimes: Sample[] = [];
    for (let sample = 0; sample < scanSamples + 1; sample++) {
      const start = performance.now();
      await duckConn.run(Q1_SQL(`read_parquet('${parquet}')`));
      if (sample > 0) duckTimes.push({ ms: performance.now() - start, requests: 0, bytes: 0 });
    }
    duckConn.closeSync();
    rows.push({ ...summarize('Q1-shaped scan', 'DuckDB, local Parquet (peer)', 'OS page cache', duckTimes), requests_p50: '', requests_max: '', kib_p50: '' });
    const galeneCold = rows[rows.length - 3].p50_ms as number;
    const galeneWarm = rows[rows.length - 2].p50_ms as number;
    const duckMs = rows[rows.length - 1].p50_ms as number;
    report(
      `coldread: ${rowCount} rows, ${versions} versions (${loads} Stream Loads) in 1 tablet of an S3 vault behind p50 25 ms / p99 150 ms request latency; ${samples} lookups, ${scanSamples} scans per state. Q1 scan cold/DuckDB ${(galeneCold / duckMs).toFixed(1)}x, warm/DuckDB ${(galeneWarm / duckMs).toFixed(1)}x`,
      rows,
      options,
    );
  } finally {
    await conn.end();
    await server.stop();
    await s3.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
