/**
 * Global TopN lazy materialization (session variable topn_lazy_materialization_threshold) on versus off
 * in the same run on the same server and data, and DuckDB on the same rows: a table of 1,000,000 rows
 * (100,000 with --quick) with a wide STRING column (about 300 bytes a row, seeded text), loaded through
 * Stream Load, queried with `ORDER BY ... LIMIT 10 / 100 / 1000` (in-thread scan) and a filtered shape
 * (phase one in the scan workers). Median of several runs each; ratio = off / on; duck_ratio = on / DuckDB
 * (DuckDB at the same thread count as Galene's scan workers). `body_rows_on` is the wide column's rows read
 * with the feature on (from the query profile), `body_rows_off` with it off.
 *
 *   npm run bench -- topn-lazy [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import * as mysql from 'mysql2/promise';
import { mulberry32 } from '../src/common/prng';
import { startGalene } from '../test/helpers/galene-process';
import { parseBenchArgs, peakRssMiB, report, Row, timeMedian } from './lib/report';
import { streamLoad } from './streamload';

const LOAD_ROWS = 50_000;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november'];

function csvChunk(random: () => number, first: number, count: number): string {
  const lines: string[] = [];
  for (let rowIdx = first; rowIdx < first + count; rowIdx++) {
    let body = `${rowIdx}`;
    while (body.length < 300) body += ` ${WORDS[Math.floor(random() * WORDS.length)]}${Math.floor(random() * 1000)}`;
    lines.push(`${rowIdx}\t${Math.floor(random() * 1_000_000)}\t${Math.floor(random() * 2000) - 1000}\t${body}`);
  }
  return lines.join('\n') + '\n';
}

async function bodyRowsRead(conn: mysql.Connection): Promise<number> {
  const [list] = await conn.query({ sql: 'SHOW QUERY PROFILE "/"', rowsAsArray: true });
  const id = (list as unknown as string[][])[0][0];
  const [profile] = await conn.query({ sql: `SHOW QUERY PROFILE "/${id}"`, rowsAsArray: true });
  const entry = (profile as unknown as string[][]).find(([name]) => name === 'Column.body.RowsRead');
  return entry ? Number(entry[1]) : 0;
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const rowCount = options.quick ? 100_000 : 1_000_000;
  const runs = options.quick ? 3 : 5;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-topn-lazy-'));
  const server = await startGalene({ dataDir: path.join(workDir, 'galene') });
  const csvPath = path.join(workDir, 't.tsv');
  let conn: mysql.Connection | null = null;
  try {
    conn = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '' });
    await conn.query('CREATE DATABASE bench');
    await conn.query('USE bench');
    await conn.query('CREATE TABLE t (id BIGINT, k INT, x INT, body STRING) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
    const random = mulberry32(1024);
    const loadStart = performance.now();
    fs.writeFileSync(csvPath, '');
    for (let first = 0; first < rowCount; first += LOAD_ROWS) {
      const chunk = csvChunk(random, first, Math.min(LOAD_ROWS, rowCount - first));
      fs.appendFileSync(csvPath, chunk);
      // A fresh connection per request: generating the next chunk can outlast the server's keep-alive timeout.
      const result = await streamLoad(server.ports.webserver_port, 'bench', 't', Buffer.from(chunk), 'csv', { Connection: 'close', label: `topn-lazy-${first}` }).catch((err: unknown) => {
        throw new Error(`stream load of rows ${first}.. failed (server stderr: ${server.stderr().slice(-2000)})`, { cause: err });
      });
      if (result.Status !== 'Success') throw new Error(`stream load failed: ${result.Message ?? result.Status}`);
    }
    const loadMs = performance.now() - loadStart;
    // Let background compaction finish before timing (version counts steady for one interval).
    let lastVersions = '';
    for (const started = performance.now(); performance.now() - started < 120_000; ) {
      const [tablets] = await conn.query({ sql: 'SHOW TABLETS FROM t', rowsAsArray: true });
      const versions = (tablets as unknown as string[][]).map((tablet) => tablet[2]).join(',');
      if (versions === lastVersions) break;
      lastVersions = versions;
      await new Promise((resolve) => setTimeout(resolve, 2500));
    }
    const threads = Math.max(1, Number(process.env.GALENE_SCAN_THREAD_NUM ?? os.cpus().length));
    const duck = await DuckDBInstance.create(':memory:', { threads: String(threads) });
    const duckConn = await duck.connect();
    await duckConn.run(`CREATE TABLE t AS SELECT * FROM read_csv('${csvPath}', delim='\t', header=false, quote='', escape='', columns={'id': 'BIGINT', 'k': 'INTEGER', 'x': 'INTEGER', 'body': 'VARCHAR'})`);

    const shapes = [
      ...[10, 100, 1000].map((limit) => ({ name: `ORDER BY k DESC LIMIT ${limit}`, sql: `SELECT id, k, body FROM t ORDER BY k DESC, id LIMIT ${limit}` })),
      { name: 'WHERE x > 500 ORDER BY k LIMIT 100 (scan fragments)', sql: 'SELECT id, x, body FROM t WHERE x > 500 ORDER BY k, id LIMIT 100' },
    ];
    const rows: Row[] = [];
    for (const shape of shapes) {
      const active = conn;
      const timed = async (threshold: number): Promise<{ ms: number; answer: string; bodyRows: number }> => {
        await active.query(`SET topn_lazy_materialization_threshold = ${threshold}`);
        let answer = '';
        const ms = await timeMedian(runs, async () => {
          const [result] = await active.query({ sql: shape.sql, rowsAsArray: true });
          answer = JSON.stringify(result);
        });
        return { ms, answer, bodyRows: await bodyRowsRead(active) };
      };
      const off = await timed(-1);
      const on = await timed(1024);
      if (on.answer !== off.answer) throw new Error(`${shape.name}: results differ with lazy materialization on`);
      const duckMs = await timeMedian(runs, () => duckConn.runAndReadAll(shape.sql));
      rows.push({ query: shape.name, off_ms: off.ms, on_ms: on.ms, ratio: off.ms / on.ms, duckdb_ms: duckMs, duck_ratio: on.ms / duckMs, body_rows_off: off.bodyRows, body_rows_on: on.bodyRows });
    }
    duckConn.closeSync();
    console.log(`loaded ${rowCount} rows in ${Math.round(loadMs)} ms (Stream Load, ${LOAD_ROWS} rows/request); median of ${runs} runs after a warm-up; DuckDB threads=${threads}; server peak RSS ${peakRssMiB(server.child.pid!)} MiB; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
    report(`TopN lazy materialization, on vs off and DuckDB (${rowCount} rows, ~300-byte STRING column)`, rows, options);
  } finally {
    await conn?.end().catch(() => undefined);
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
