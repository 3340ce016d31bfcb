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
import { mulberry32 } from '../src/common/prng';
import { startGalene } from '../test/helpers/galene-process';
import { connect } from '../test/helpers/mysql-client';
import { waitForCompactionToSettle } from './lib/compaction-settle';
import { parseBenchArgs, peakRssMiB, report, Row, timeMedian } from './lib/report';

const SHIP_MODES = ['AIR', 'FOB', 'MAIL', 'RAIL', 'REG AIR', 'SHIP', 'TRUCK'];
const INSTRUCTIONS = ['COLLECT COD', 'DELIVER IN PERSON', 'NONE', 'TAKE BACK RETURN'];
const WORDS = ['carefully', 'final', 'deposits', 'quickly', 'regular', 'ideas', 'furiously', 'express', 'accounts', 'blithely', 'pending', 'requests'];
const EPOCH_1992 = Date.UTC(1992, 0, 1) / 86_400_000;

const isoDate = (days: number): string => new Date(days * 86_400_000).toISOString().slice(0, 10);
/** isoDate for the few thousand days the generator uses, each formatted once (generation competes with the server for the CPU). */
const isoDates: string[] = [];
const cachedIsoDate = (days: number): string => (isoDates[days - EPOCH_1992] ??= isoDate(days));

/** A generated row as one `( ... )` tuple of an INSERT (columns 8-15 quoted). */
export function sqlTuple(row: readonly string[]): string {
  return `(${row[0]},${row[1]},${row[2]},${row[3]},${row[4]},${row[5]},${row[6]},${row[7]},'${row[8]}','${row[9]}','${row[10]}','${row[11]}','${row[12]}','${row[13]}','${row[14]}','${row[15]}')`;
}

/** One lineitem row as SQL literal values and as a CSV line. */
export function* lineitemRows(count: number): Generator<string[]> {
  const random = mulberry32(42);
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
    const wordCount = 2 + Math.floor(random() * 4);
    let comment = WORDS[Math.floor(random() * WORDS.length)];
    for (let wordIdx = 1; wordIdx < wordCount; wordIdx++) comment += ' ' + WORDS[Math.floor(random() * WORDS.length)];
    comment = comment.slice(0, 44);
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
      cachedIsoDate(shipDays),
      cachedIsoDate(shipDays + 30 + Math.floor(random() * 60)),
      cachedIsoDate(shipDays + 1 + Math.floor(random() * 30)),
      INSTRUCTIONS[Math.floor(random() * INSTRUCTIONS.length)],
      SHIP_MODES[Math.floor(random() * SHIP_MODES.length)],
      comment,
    ];
    lineNumber++;
  }
}

export const COLUMNS = `l_orderkey INT, l_partkey INT, l_suppkey INT, l_linenumber INT, l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2),
  l_discount DECIMAL(15,2), l_tax DECIMAL(15,2), l_returnflag CHAR(1), l_linestatus CHAR(1), l_shipdate DATE, l_commitdate DATE,
  l_receiptdate DATE, l_shipinstruct VARCHAR(25), l_shipmode VARCHAR(10), l_comment VARCHAR(44)`;

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
    // Load: two connections, each with one INSERT in flight, so the server parses and encodes one statement
    // while the other waits for its fsyncs; the next INSERT is generated meanwhile.
    const conns = [conn, await connect(server.ports.query_port)];
    await conns[1].query('USE bench');
    const inFlight: Promise<unknown>[] = conns.map(() => Promise.resolve());
    let statementCount = 0;
    let batch: string[] = [];
    let csvLines: string[] = [];
    let lastOrderKey = 1;
    const flush = async (): Promise<void> => {
      const sql = `INSERT INTO lineitem VALUES ${batch.join(',')}`;
      batch = [];
      csv.write(csvLines.join(''));
      csvLines = [];
      const slot = statementCount++ % conns.length;
      await inFlight[slot];
      inFlight[slot] = conns[slot].query(sql);
      inFlight[slot].catch(() => undefined); // awaited (and so reported) by the next flush or below
    };
    const loadStart = performance.now();
    for (const row of lineitemRows(rowCount)) {
      lastOrderKey = Number(row[0]);
      batch.push(sqlTuple(row));
      csvLines.push(row.join('|') + '\n');
      if (batch.length === insertRows) await flush();
    }
    if (batch.length) await flush();
    await Promise.all(inFlight);
    await conns[1].end();
    const loadWallMs = performance.now() - loadStart;
    await new Promise<void>((resolve) => csv.end(resolve));
    const loadRss = peakRssMiB(server.child.pid!);

    // Galene's default scan_thread_num is the core count (GALENE_SCAN_THREAD_NUM overrides it); DuckDB is
    // measured at one thread and at that count.
    const scanThreads = Math.max(1, Number(process.env.GALENE_SCAN_THREAD_NUM ?? os.cpus().length));
    const duck = await DuckDBInstance.create(':memory:', { threads: '1' });
    const duckConn = await duck.connect();
    await duckConn.run(`CREATE TABLE lineitem (${COLUMNS.replace(/VARCHAR\(\d+\)|CHAR\(1\)/g, 'VARCHAR')})`);
    const duckLoadStart = performance.now();
    await duckConn.run(`INSERT INTO lineitem SELECT * FROM read_csv('${csvPath}', delim='|', header=false, columns={${COLUMNS.split(/,\s*(?=l_)/).map((def) => def.trim().split(/\s+/)).map(([name, ...type]) => `'${name}': '${type.join(' ').replace(/VARCHAR\(\d+\)|CHAR\(1\)/, 'VARCHAR')}'`).join(', ')}})`);
    const duckLoadMs = performance.now() - duckLoadStart;

    const pointKey = Math.floor(lastOrderKey / 2);
    const rows: Row[] = [];
    rows.push({ measure: `load ${rowCount} rows (INSERT ${insertRows} rows/stmt)`, galene_ms: Math.round(loadWallMs), duckdb_ms: Math.round(duckLoadMs), ratio: loadWallMs / duckLoadMs, galene_rows_per_s: Math.round(rowCount / (loadWallMs / 1000)), galene_peak_rss_mib: loadRss, [`duckdb_${scanThreads}t_ms`]: '', [`ratio_${scanThreads}t`]: '' });
    // Background compaction merges the load's rowsets for a few seconds after the load.
    await waitForCompactionToSettle(conn, ['lineitem']);
    for (const query of QUERIES) {
      const sql = query.sql(pointKey);
      const galeneMs = await timeMedian(runs, () => conn.query(sql));
      const duckMs = await timeMedian(runs, () => duckConn.runAndReadAll(sql));
      await duckConn.run(`SET threads = ${scanThreads}`);
      const duckParallelMs = await timeMedian(runs, () => duckConn.runAndReadAll(sql));
      await duckConn.run('SET threads = 1');
      rows.push({
        measure: query.name,
        galene_ms: galeneMs,
        duckdb_ms: duckMs,
        ratio: galeneMs / duckMs,
        galene_rows_per_s: Math.round(rowCount / (galeneMs / 1000)),
        galene_peak_rss_mib: peakRssMiB(server.child.pid!),
        [`duckdb_${scanThreads}t_ms`]: duckParallelMs,
        [`ratio_${scanThreads}t`]: galeneMs / duckParallelMs,
      });
    }
    await conn.end();
    duckConn.closeSync();
    report(`core: ${rowCount} lineitem rows, Galene (${scanThreads} scan worker threads, the default) vs DuckDB threads=1 (ratio) and threads=${scanThreads} (ratio_${scanThreads}t), median of ${runs}`, rows, options);
  } finally {
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
