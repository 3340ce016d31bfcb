/**
 * Distinct counting with BITMAP and HLL, against COUNT(DISTINCT) on the same server and data: a visits
 * table of 1,000,000 rows (100,000 with --quick; 30 days, seeded user ids below 200,000) loaded through
 * Stream Load plain, and again into an AGGREGATE KEY table through the `columns` mapping Doris users write
 * (`users=to_bitmap(user_id), h=hll_hash(user_id)`). Per query: the median of several runs, and the
 * ratio to COUNT(DISTINCT) over the raw rows (the peer); the load line compares the two loads.
 *
 *   npm run bench -- sketches [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mysql from 'mysql2/promise';
import { mulberry32 } from '../src/common/prng';
import { startGalene } from '../test/helpers/galene-process';
import { parseBenchArgs, peakRssMiB, report, Row, timeMedian } from './lib/report';
import { streamLoad } from './streamload';

const LOAD_ROWS = 100_000;
const PEER = 'SELECT day, COUNT(DISTINCT user_id) FROM visits GROUP BY day ORDER BY day';
const QUERIES = [
  { name: 'COUNT(DISTINCT) per day (peer)', sql: PEER, exact: true },
  { name: 'bitmap_union_count(to_bitmap(x)) per day', sql: 'SELECT day, bitmap_union_count(to_bitmap(user_id)) FROM visits GROUP BY day ORDER BY day', exact: true },
  { name: 'hll_union_agg(hll_hash(x)) per day', sql: 'SELECT day, hll_union_agg(hll_hash(user_id)) FROM visits GROUP BY day ORDER BY day', exact: false },
  { name: 'approx_count_distinct(x) per day', sql: 'SELECT day, approx_count_distinct(user_id) FROM visits GROUP BY day ORDER BY day', exact: false },
  { name: 'BITMAP_UNION column: bitmap_count per day', sql: 'SELECT day, bitmap_count(users) FROM uv ORDER BY day', exact: true },
  { name: 'HLL_UNION column: hll_cardinality per day', sql: 'SELECT day, hll_cardinality(h) FROM uv ORDER BY day', exact: false },
  { name: 'BITMAP_UNION column: distinct over all days', sql: 'SELECT 0, bitmap_union_count(users) FROM uv', exact: true },
];

function csvChunk(random: () => number, count: number): Buffer {
  const lines: string[] = [];
  for (let rowIdx = 0; rowIdx < count; rowIdx++) lines.push(`${Math.floor(random() * 30)},${Math.floor(random() * 200_000)}`);
  return Buffer.from(lines.join('\n') + '\n');
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const rowCount = options.quick ? 100_000 : 1_000_000;
  const runs = 5;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-sketches-'));
  const server = await startGalene({ dataDir: path.join(workDir, 'galene') });
  let conn: mysql.Connection | null = null;
  try {
    conn = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '' });
    await conn.query('CREATE DATABASE bench');
    await conn.query('USE bench');
    await conn.query('CREATE TABLE visits (day INT, user_id BIGINT) DUPLICATE KEY(day) DISTRIBUTED BY HASH(day) BUCKETS 4');
    await conn.query('CREATE TABLE uv (day INT, users BITMAP BITMAP_UNION, h HLL HLL_UNION) AGGREGATE KEY(day) DISTRIBUTED BY HASH(day) BUCKETS 4');
    const chunks: Buffer[] = [];
    const random = mulberry32(14);
    for (let first = 0; first < rowCount; first += LOAD_ROWS) chunks.push(csvChunk(random, Math.min(LOAD_ROWS, rowCount - first)));
    const load = async (table: string, headers: Record<string, string>): Promise<number> => {
      const start = performance.now();
      for (const chunk of chunks) {
        const result = await streamLoad(server.ports.webserver_port, 'bench', table, chunk, 'csv', { column_separator: ',', ...headers });
        if (result.Status !== 'Success') throw new Error(`stream load into ${table} failed: ${result.Message ?? result.Status}`);
      }
      return performance.now() - start;
    };
    const plainMs = await load('visits', {});
    const mappedMs = await load('uv', { columns: 'day, user_id, users=to_bitmap(user_id), h=hll_hash(user_id)' });
    const active = conn;
    const answer = async (sql: string): Promise<number[][]> => ((await active.query({ sql, rowsAsArray: true }))[0] as unknown[][]).map((row) => row.map(Number));
    const exact = await answer(PEER);
    let peerMs = 0;
    const rows: Row[] = [];
    for (const query of QUERIES) {
      const got = await answer(query.sql);
      const truth = query.name.includes('all days') ? [[0, new Set(chunks.flatMap((chunk) => chunk.toString().trim().split('\n').map((line) => line.split(',')[1]))).size]] : exact;
      let worst = 0;
      got.forEach((row, rowIdx) => (worst = Math.max(worst, Math.abs(row[1] - truth[rowIdx][1]) / truth[rowIdx][1])));
      if (query.exact && worst !== 0) throw new Error(`${query.name}: counts differ from COUNT(DISTINCT)`);
      const ms = await timeMedian(runs, () => active.query(query.sql));
      if (rows.length === 0) peerMs = ms;
      rows.push({ query: query.name, galene_ms: Number(ms.toFixed(1)), ratio_to_count_distinct: Number((ms / peerMs).toFixed(2)), max_error_pct: Number((worst * 100).toFixed(2)) });
    }
    console.log(`loaded ${rowCount} rows: plain ${Math.round(plainMs)} ms, into BITMAP_UNION + HLL_UNION through columns mappings ${Math.round(mappedMs)} ms (${(mappedMs / plainMs).toFixed(2)}x); median of ${runs} runs after a warm-up; server peak RSS ${peakRssMiB(server.child.pid!)} MiB; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
    report(`distinct counting with BITMAP / HLL (${rowCount} rows)`, rows, options);
  } finally {
    await conn?.end().catch(() => undefined);
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
