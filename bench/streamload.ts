/**
 * Stream Load benchmark: an httplogs-like data set (timestamp, client IP, request line, status, size) in
 * CSV and in JSON lines, loaded over HTTP by N concurrent clients at request sizes of 10 KB, 100 KB,
 * 1 MB and 10 MB, concurrency 10 and 30 — the shape of the performance table in the Group Commit seed
 * (004), whose non-group-commit rows these are. Prints rows/s, MB/s, time, tablet versions created and
 * the server's peak RSS.
 *
 *   npm run bench -- streamload [--quick] [--json FILE] [--s3]
 *
 * --s3: the tables live in a default S3 storage vault on the test S3 server (s3rver on loopback).
 *
 * The peer, measured in the same run: DuckDB (threads=2, the same cores) ingesting the same rows from one
 * CSV / JSON-lines file with read_csv / read_json. Each combination loads into a fresh table; the number of requests per combination is capped so that
 * small request sizes finish in reasonable time (the rows loaded are printed).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { mulberry32 } from '../src/common/prng';
import { startGalene } from '../test/helpers/galene-process';
import { connect, queryRows } from '../test/helpers/mysql-client';
import { parseBenchArgs, peakRssMiB, report, Row } from './lib/report';

const METHODS = ['GET', 'GET', 'GET', 'POST', 'HEAD'];
const PATHS = ['/images/logo.gif', '/index.html', '/english/history/history_of/images/cup/', '/shop/basket.php?item=', '/api/v1/items/'];
const EPOCH_1998 = Date.UTC(1998, 4, 1) / 1000;

export interface LogRecord {
  timestamp: string;
  clientip: string;
  request: string;
  status: number;
  size: number;
}

/** The httplogs-like rows (fixed seed); also used by bench/groupcommit.ts. */
export function* logRecords(count: number): Generator<LogRecord> {
  const random = mulberry32(7);
  for (let rowIdx = 0; rowIdx < count; rowIdx++) {
    const seconds = EPOCH_1998 + Math.floor(rowIdx / 50);
    const ip = `${1 + Math.floor(random() * 223)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`;
    const request = `${METHODS[Math.floor(random() * METHODS.length)]} ${PATHS[Math.floor(random() * PATHS.length)]}${Math.floor(random() * 1000)} HTTP/1.0`;
    const status = random() < 0.9 ? 200 : random() < 0.5 ? 304 : 404;
    yield { timestamp: new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' '), clientip: ip, request, status, size: Math.floor(random() * 50_000) };
  }
}

/** Cut the data set into request bodies of about `requestBytes`, in one format. */
export function makeBodies(records: readonly LogRecord[], format: 'csv' | 'json', requestBytes: number, maxRequests: number): { bodies: Buffer[]; rows: number } {
  const bodies: Buffer[] = [];
  let lines: string[] = [];
  let bytes = 0;
  let rows = 0;
  for (const record of records) {
    const line = format === 'csv' ? `${record.timestamp}\t${record.clientip}\t${record.request}\t${record.status}\t${record.size}` : JSON.stringify(record);
    lines.push(line);
    bytes += line.length + 1;
    rows++;
    if (bytes >= requestBytes) {
      bodies.push(Buffer.from(lines.join('\n') + '\n'));
      lines = [];
      bytes = 0;
      if (bodies.length >= maxRequests) return { bodies, rows };
    }
  }
  if (lines.length) bodies.push(Buffer.from(lines.join('\n') + '\n'));
  return { bodies, rows };
}

/** One Stream Load request straight to the BE web port (`extraHeaders`: e.g. group_commit, or a column_separator other than tab). */
export function streamLoad(port: number, db: string, table: string, body: Buffer, format: 'csv' | 'json', extraHeaders: http.OutgoingHttpHeaders = {}): Promise<{ Status: string; Message?: string; NumberLoadedRows?: number }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = {
      Authorization: 'Basic ' + Buffer.from('root:').toString('base64'),
      'Content-Length': body.length,
      Expect: '100-continue',
      format,
      ...extraHeaders,
    };
    if (format === 'json') headers['read_json_by_line'] = 'true';
    else headers['column_separator'] ??= '\\t';
    // A fresh connection per load (agent: false): Node's default agent keeps sockets alive, and the server
    // closes one idle past its keep-alive timeout (5 s) — on a busy machine the next chunk takes longer to
    // make, and reusing the closed socket failed the load with "socket hang up".
    const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: `/api/${db}/${table}/_stream_load`, headers, agent: false });
    req.on('continue', () => req.end(body));
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        try {
          resolve(JSON.parse(text) as { Status: string });
        } catch {
          reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
        }
      });
    });
    req.on('error', reject);
  });
}

export async function main(args: readonly string[]): Promise<void> {
  // --s3: tables in a default S3 storage vault (the test s3rver on loopback) instead of the local directory.
  const storage = args.includes('--s3') ? 's3' : 'local';
  const options = parseBenchArgs(args.filter((arg) => arg !== '--s3'));
  const totalRows = options.quick ? 200_000 : 5_000_000;
  const maxRequests = options.quick ? 200 : 2000;
  const records = [...logRecords(totalRows)];
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-streamload-'));
  const server = await startGalene({ dataDir: path.join(workDir, 'galene'), args: ['--disable_auto_compaction', 'true'], storage });
  const rows: Row[] = [];
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE logs');
    let tableIdx = 0;
    const duck = await DuckDBInstance.create(':memory:', { threads: '2' });
    const duckConn = await duck.connect();
    for (const format of ['csv', 'json'] as const) {
      // Peer: DuckDB ingesting the whole data set of this format from a local file.
      const file = path.join(workDir, `httplogs.${format}`);
      // Written in 1 MB bodies: the whole data set as one string would pass V8's string length limit.
      const fd = fs.openSync(file, 'w');
      for (const body of makeBodies(records, format, 1_000_000, Infinity).bodies) fs.writeSync(fd, body);
      fs.closeSync(fd);
      const duckStart = performance.now();
      await duckConn.run(
        format === 'csv'
          ? `CREATE OR REPLACE TABLE h AS SELECT * FROM read_csv('${file}', delim='\t', header=false, columns={'timestamp': 'TIMESTAMP', 'clientip': 'VARCHAR', 'request': 'VARCHAR', 'status': 'INT', 'size': 'INT'})`
          : `CREATE OR REPLACE TABLE h AS SELECT * FROM read_json('${file}', format='newline_delimited', columns={'timestamp': 'TIMESTAMP', 'clientip': 'VARCHAR', 'request': 'VARCHAR', 'status': 'INT', 'size': 'INT'})`,
      );
      const duckRowsPerS = Math.round(totalRows / ((performance.now() - duckStart) / 1000));
      for (const requestBytes of [10_000, 100_000, 1_000_000, 10_000_000]) {
        const { bodies, rows: rowCount } = makeBodies(records, format, requestBytes, maxRequests);
        const totalBytes = bodies.reduce((sum, body) => sum + body.length, 0);
        for (const concurrency of [10, 30]) {
          const table = `httplogs_${tableIdx++}`;
          await conn.query(`CREATE TABLE logs.${table} (timestamp DATETIME, clientip VARCHAR(20), request VARCHAR(200), status INT, size INT) DUPLICATE KEY(timestamp) DISTRIBUTED BY HASH(clientip) BUCKETS 2`);
          let next = 0;
          let failures = 0;
          let firstError = '';
          const start = performance.now();
          await Promise.all(
            Array.from({ length: concurrency }, async () => {
              while (next < bodies.length) {
                const body = bodies[next++];
                const result = await streamLoad(server.ports.webserver_port, 'logs', table, body, format).catch((err: Error) => ({ Status: 'Fail', Message: err.message }));
                if (result.Status !== 'Success') {
                  failures++;
                  firstError ||= result.Message ?? result.Status;
                }
              }
            }),
          );
          const seconds = (performance.now() - start) / 1000;
          const [[loaded]] = await queryRows(conn, `SELECT count(*) FROM logs.${table}`);
          const tablets = await queryRows(conn, `SHOW TABLETS FROM logs.${table}`);
          const versions = tablets.reduce((sum, row) => sum + Number(row[2]), 0);
          rows.push({
            format,
            request_size: requestBytes >= 1_000_000 ? `${requestBytes / 1_000_000} MB` : `${requestBytes / 1000} KB`,
            concurrency,
            requests: bodies.length,
            rows_loaded: Number(loaded),
            time_s: seconds,
            rows_per_s: Math.round(Number(loaded) / seconds),
            duckdb_rows_per_s: duckRowsPerS,
            ratio: duckRowsPerS / (Number(loaded) / seconds),
            mb_per_s: totalBytes / 1e6 / seconds,
            versions_created: versions,
            failed_requests: failures,
            peak_rss_mib: peakRssMiB(server.child.pid!),
          });
          if (failures) console.error(`${format} ${requestBytes} x${concurrency}: ${failures} failed: ${firstError}`);
          if (Number(loaded) !== (failures ? Number(loaded) : rowCount)) console.error(`${table}: loaded ${loaded} of ${rowCount}`);
          await conn.query(`DROP TABLE logs.${table}`);
        }
      }
    }
    duckConn.closeSync();
    await conn.end();
    report(`streamload: httplogs-like rows, off_mode (no group commit), ${storage === 's3' ? 'tables in an S3 vault (s3rver on loopback)' : 'local directory'}, ${os.cpus().length} cores`, rows, options);
  } finally {
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
