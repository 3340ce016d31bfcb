/**
 * Core benchmark: a TPC-H-like lineitem table (6,000,000 rows, the SF1 row count; 200,000 with --quick)
 * loaded into a Galene server through its own write path (multi-row INSERT over the MySQL protocol), then
 * four queries timed in Galene and in DuckDB (same data, same thread count) in the same run:
 * Q1-shape aggregation, a selective filter with projection, a key point lookup, GROUP BY on a string.
 *
 *   npm run bench -- core [--quick] [--json FILE]
 */
import { DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startGalene } from '../test/helpers/galene-process';
import { connect } from '../test/helpers/mysql-client';
import { parseBenchArgs, peakRssMiB, report, Row, timeMedian } from './lib/report';

const SHIP_MODES = ['AIR', 'FOB', 'MAIL', 'RAIL', 'REG AIR', 'SHIP', 'TRUCK'];
const INSTRUCTIONS = ['COLLECT COD', 'DELIVER IN PERSON', 'NONE', 'TAKE BACK RETURN'];
const WORDS = ['carefully', 'final', 'deposits', 'quickly', 'regular', 'ideas', 'furiously', 'express', 'accounts', 'blithely', 'pending', 'requests'];
const EPOCH_1992 = Date.UTC(1992, 0, 1) / 86_400_000;

/** Deterministic PRNG (mulberry32), so every run loads the same data. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isoDate = (days: number): string => new Date(days * 86_400_000).toISOString().slice(0, 10);

/** One lineitem row as SQL literal values and as a CSV line. */
function* lineitemRows(count: number): Generator<string[]> {
  const random = prng(42);
  let orderKey = 1;
  let lineNumber = 1;
  for (let rowIdx = 0; rowIdx < count; rowIdx++) {
    if (lineNumber > 1 + Math.floor(random() * 7)) {
      orderKey++;
      lineNumber = 1;
    }
    const quantity = 1 + Math.floor(random() * 50);
    const price = ((90000 + Math.floor(random() * 10_000_000)) / 100).toFixed(2);
    const discount = (Math.floor(random() * 11) / 100).toFixed(2);
    const tax = (Math.floor(random() * 9) / 100).toFixed(2);
    const shipDays = EPOCH_1992 + Math.floor(random() * 2526);
    const returnFlag = shipDays > EPOCH_1992 + 1260 ? 'N' : random() < 0.5 ? 'R' : 'A';
    const lineStatus = shipDays > EPOCH_1992 + 1270 ? 'O' : 'F';
    const comment = Array.from({ length: 2 + Math.floor(random() * 4) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ').slice(0, 44);
    yield [
      String(orderKey),
      String(1 + Math.floor(random() * 200_000)),
      String(1 + Math.floor(random() * 10_000)),
      String(lineNumber),
      String(quantity) + '.00',
      price,
      discount,
      tax,
      returnFlag,
      lineStatus,
      isoDate(shipDays),
      isoDate(shipDays + 30 + Math.floor(random() * 60)),
      isoDate(shipDays + 1 + Math.floor(random() * 30)),
      INSTRUCTIONS[Math.floor(random() * INSTRUCTIONS.length)],
      SHIP_MODES[Math.floor(random() * SHIP_MODES.length)],
      comment,
    ];
    lineNumber++;
  }
}

const COLUMNS = `l_orderkey INT, l_partkey INT, l_suppkey INT, l_linenumber INT, l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2),
  l_discount DECIMAL(15,2), l_tax DECIMAL(15,2), l_returnflag CHAR(1), l_linestatus CHAR(1), l_shipdate DATE, l_commitdate DATE,
  l_receiptdate DATE, l_shipinstruct VARCHAR(25), l_shipmode VARCHAR(10), l_comment VARCHAR(44)`;
const STRING_COLUMNS = new Set([8, 9, 10, 11, 12, 13, 14, 15]);

const QUERIES: { name: string; sql: (pointKey: number) => string }[] = [
  {
    name: 'Q1 aggregation',
    sql: () => `SELECT l_returnflag, l_linestatus, sum(l_quantity), sum(l_extendedprice), sum(l_extendedprice * (1 - l_discount)),
      sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)), avg(l_quantity), avg(l_extendedprice), avg(l_discount), count(*)
      FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus`,
  },
  {
    name: 'selective filter + projection',
    sql: () => `SELECT l_orderkey, l_extendedprice, l_discount, l_shipdate FROM lineitem
      WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1994-01-08' AND l_discount >= 0.09 AND l_quantity < 10`,
  },
  { name: 'point lookup by key', sql: (pointKey) => `SELECT * FROM lineitem WHERE l_orderkey = ${pointKey} AND l_linenumber = 1` },
  { name: 'GROUP BY string column', sql: () => `SELECT l_shipmode, count(*), sum(l_quantity) FROM lineitem GROUP BY l_shipmode ORDER BY l_shipmode` },
];

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const rowCount = options.quick ? 200_000 : 6_000_000;
  const runs = options.quick ? 3 : 5;
  const insertRows = 5000;
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-core-'));
  const server = await startGalene({ dataDir: path.join(workDir, 'galene') });
  const csvPath = path.join(workDir, 'lineitem.csv');
  const csv = fs.createWriteStream(csvPath);
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE bench');
    await conn.query('USE bench');
    await conn.query(`CREATE TABLE lineitem (${COLUMNS}) DUPLICATE KEY(l_orderkey) DISTRIBUTED BY HASH(l_orderkey) BUCKETS 2`);
    // Load: build each INSERT while the previous one runs, so generation overlaps the server's work.
    let pending: Promise<unknown> = Promise.resolve();
    let loadMs = 0;
    let batch: string[] = [];
    let lastOrderKey = 1;
    const flush = async (): Promise<void> => {
      const sql = `INSERT INTO lineitem VALUES ${batch.join(',')}`;
      batch = [];
      await pending;
      const start = performance.now();
      pending = conn.query(sql).then(() => (loadMs += performance.now() - start));
    };
    const loadStart = performance.now();
    for (const row of lineitemRows(rowCount)) {
      lastOrderKey = Number(row[0]);
      batch.push('(' + row.map((value, colIdx) => (STRING_COLUMNS.has(colIdx) ? `'${value}'` : value)).join(',') + ')');
      csv.write(row.join('|') + '\n');
      if (batch.length === insertRows) await flush();
    }
    if (batch.length) await flush();
    await pending;
    const loadWallMs = performance.now() - loadStart;
    await new Promise<void>((resolve) => csv.end(resolve));
    const loadRss = peakRssMiB(server.child.pid!);

    const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
    const duckConn = await duck.connect();
    await duckConn.run(`CREATE TABLE lineitem (${COLUMNS.replace(/VARCHAR\(\d+\)|CHAR\(1\)/g, 'VARCHAR')})`);
    const duckLoadStart = performance.now();
    await duckConn.run(`INSERT INTO lineitem SELECT * FROM read_csv('${csvPath}', delim='|', header=false, columns={${COLUMNS.split(/,\s*(?=l_)/).map((def) => def.trim().split(/\s+/)).map(([name, ...type]) => `'${name}': '${type.join(' ').replace(/VARCHAR\(\d+\)|CHAR\(1\)/, 'VARCHAR')}'`).join(', ')}})`);
    const duckLoadMs = performance.now() - duckLoadStart;

    const pointKey = Math.floor(lastOrderKey / 2);
    const rows: Row[] = [];
    rows.push({ measure: `load ${rowCount} rows (INSERT ${insertRows} rows/stmt)`, galene_ms: Math.round(loadWallMs), duckdb_ms: Math.round(duckLoadMs), ratio: loadWallMs / duckLoadMs, galene_rows_per_s: Math.round(rowCount / (loadWallMs / 1000)), galene_peak_rss_mib: loadRss });
    for (const query of QUERIES) {
      const sql = query.sql(pointKey);
      const galeneMs = await timeMedian(runs, () => conn.query(sql));
      const duckMs = await timeMedian(runs, () => duckConn.runAndReadAll(sql));
      rows.push({ measure: query.name, galene_ms: galeneMs, duckdb_ms: duckMs, ratio: galeneMs / duckMs, galene_rows_per_s: Math.round(rowCount / (galeneMs / 1000)), galene_peak_rss_mib: peakRssMiB(server.child.pid!) });
    }
    await conn.end();
    duckConn.closeSync();
    report(`core: ${rowCount} lineitem rows, Galene (1 scan thread) vs DuckDB (threads=1), median of ${runs}`, rows, options);
  } finally {
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
