/**
 * Virtual columns for common subexpressions (session variable experimental_enable_virtual_slot_for_cse),
 * on versus off in the same run on the same server and data: seed 003's ClickBench query, which repeats
 * `regexp_extract(referer, '^https?://([^/]+)', 1)` six times, over a generated hits-like table of
 * 500,000 rows (50,000 with --quick) whose referers are seeded URLs (mostly distinct, so no dictionary
 * shortcut), loaded through Stream Load. Two shapes: the seed's own (COUNT(DISTINCT) aggregates in-thread)
 * and the same filter with partial aggregates (scan fragments in the worker threads). Median of several
 * runs each; ratio = off / on.
 *
 *   npm run bench -- cse [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mysql from 'mysql2/promise';
import { mulberry32 } from '../src/common/prng';
import { startGalene } from '../test/helpers/galene-process';
import { parseBenchArgs, peakRssMiB, report, Row, timeMedian } from './lib/report';
import { streamLoad } from './streamload';

const LOAD_ROWS = 50_000;
const HOSTS = ['www.google.com', 'google.ru', 'images.google.de', 'yandex.ru', 'mail.ru', 'news.example.org', 'm.vk.com', 'GOOGLE.COM', 'search.yahoo.com', 'www.bing.com'];
const HOST = "regexp_extract(referer, '^https?://([^/]+)', 1)";
const FILTER = `(UPPER(${HOST}) = 'GOOGLE.COM' OR UPPER(${HOST}) = 'GOOGLE.RU' OR UPPER(${HOST}) LIKE '%GOOGLE%')
    AND (LENGTH(${HOST}) > 3 OR ${HOST} != '' OR ${HOST} IS NOT NULL)
    AND eventdate = '2013-07-15'`;
const QUERIES = [
  {
    name: 'seed query (COUNT DISTINCT, in-thread aggregate)',
    sql: `SELECT counterid, COUNT(*) AS hit_count, COUNT(DISTINCT userid) AS unique_users FROM hits WHERE ${FILTER}
          GROUP BY counterid HAVING hit_count > 100 ORDER BY hit_count DESC LIMIT 20`,
  },
  {
    name: 'seed filter, partial aggregates (scan fragments)',
    sql: `SELECT counterid, COUNT(*) AS hit_count, SUM(userid % 7) AS s FROM hits WHERE ${FILTER}
          GROUP BY counterid HAVING hit_count > 100 ORDER BY hit_count DESC LIMIT 20`,
  },
];

function csvChunk(random: () => number, first: number, count: number): Buffer {
  const lines: string[] = [];
  for (let rowIdx = first; rowIdx < first + count; rowIdx++) {
    const scheme = random() < 0.5 ? 'https://' : 'http://';
    const host = HOSTS[Math.floor(random() * HOSTS.length)];
    const referer = random() < 0.05 ? '\\N' : `${scheme}${host}/path/${Math.floor(random() * 1e9).toString(36)}?q=${rowIdx}`;
    lines.push(`${rowIdx}\t${Math.floor(random() * 50)}\t${Math.floor(random() * 100_000)}\t2013-07-${random() < 0.6 ? '15' : '14'}\t${referer}`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

/** The CSE table (off vs on per query shape) and a line on the load, from a server of its own. */
export async function cseRows(quick: boolean): Promise<{ rows: Row[]; note: string; title: string }> {
  const rowCount = quick ? 50_000 : 500_000;
  const runs = 3;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-cse-'));
  // Scan fragments from 10,000 rows (default 65,536), so --quick exercises the worker path too.
  const server = await startGalene({ dataDir: path.join(workDir, 'galene'), args: ['--parallel_scan_min_rows_per_scanner', '10000'] });
  let conn: mysql.Connection | null = null;
  try {
    conn = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '' });
    await conn.query('CREATE DATABASE bench');
    await conn.query('USE bench');
    await conn.query('CREATE TABLE hits (id BIGINT, counterid INT, userid BIGINT, eventdate DATE, referer STRING) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
    const random = mulberry32(2013);
    const loadStart = performance.now();
    for (let first = 0; first < rowCount; first += LOAD_ROWS) {
      const result = await streamLoad(server.ports.webserver_port, 'bench', 'hits', csvChunk(random, first, Math.min(LOAD_ROWS, rowCount - first)), 'csv');
      if (result.Status !== 'Success') throw new Error(`stream load failed: ${result.Message ?? result.Status}`);
    }
    const loadMs = performance.now() - loadStart;
    const rows: Row[] = [];
    for (const query of QUERIES) {
      const active = conn;
      const timed = async (cse: boolean): Promise<{ ms: number; rows: string }> => {
        await active.query(`SET experimental_enable_virtual_slot_for_cse = ${cse}`);
        let answer = '';
        const ms = await timeMedian(runs, async () => {
          const [result] = await active.query({ sql: query.sql, rowsAsArray: true });
          answer = JSON.stringify(result);
        });
        return { ms, rows: answer };
      };
      const off = await timed(false);
      const on = await timed(true);
      if (on.rows !== off.rows) throw new Error(`${query.name}: results differ with the optimization on`);
      rows.push({ query: query.name, off_ms: off.ms, on_ms: on.ms, ratio: off.ms / on.ms, result_rows: (JSON.parse(on.rows) as unknown[]).length });
    }
    const note = `loaded ${rowCount} rows in ${Math.round(loadMs)} ms (Stream Load, ${LOAD_ROWS} rows/request); median of ${runs} runs after a warm-up; server peak RSS ${peakRssMiB(server.child.pid!)} MiB; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`;
    return { rows, note, title: `virtual columns for common subexpressions (${rowCount} rows)` };
  } finally {
    await conn?.end().catch(() => undefined);
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const { rows, note, title } = await cseRows(options.quick);
  console.log(note);
  report(title, rows, options);
}
