/**
 * ClickBench (issue 14, "Proof"): a generated `hits` table of the published schema (bench/lib/hits-data.ts,
 * seeded) loaded into a Galene server through Stream Load into Doris's ClickBench DDL and into DuckDB
 * (threads=2, the same cores) from the same text, then Doris's 43 ClickBench queries
 * (bench/lib/clickbench-queries.ts) run unchanged on Galene. Each Galene result is checked against
 * DuckDB's: queries without ORDER BY as multisets; ORDER BY ... LIMIT queries against DuckDB's whole
 * ordered answer so that any valid order of tied rows is accepted (bench/lib/topn-compare.ts).
 *
 * Prints one row per query: status (ok / wrong result: what differs / error: Galene's message), Galene
 * ms, DuckDB ms and the ratio (medians of the timed runs after the checked one), and the geometric mean
 * of the ratios over the ok queries. A query Galene cannot run is reported, never fatal.
 *
 *   npm run bench -- clickbench [--quick] [--rows N] [--timeout SECONDS] [--json FILE]
 *
 * --quick: 1,000,000 rows (default 10,000,000); --rows overrides either. --timeout: Galene's
 * query_timeout per query (default 120 s quick, 600 s otherwise).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareRows, duckRows } from '../test/helpers/duckdb-peer';
import { queryRows, TextRow } from '../test/helpers/mysql-client';
import { CLICKBENCH_QUERIES, ClickBenchQuery, HITS_DDL } from './lib/clickbench-queries';
import { waitForCompactionToSettle } from './lib/compaction-settle';
import { duckdbDdl } from './lib/duckdb-ddl';
import { HITS_COLUMNS, hitsChunks } from './lib/hits-data';
import { takeOptions } from './lib/latency';
import { checkedAndTimed, geometricMean, runOnGalene, withPeers } from './lib/peer-run';
import { parseBenchArgs, peakRssMiB, report, Row } from './lib/report';
import { StreamLoadPipeline } from './lib/stream-load-pipeline';
import { checkLimitedAnswer } from './lib/topn-compare';

const LIMIT_CLAUSE = /\s+LIMIT\s+(\d+)(?:\s+OFFSET\s+(\d+))?\s*$/i;

/** Null when Galene's rows are a right answer to the query (see the file comment), else what differs. */
async function checkAnswer(duck: DuckDBConnection, query: ClickBenchQuery, duckSql: string, actual: TextRow[], expected: TextRow[]): Promise<string | null> {
  const limit = LIMIT_CLAUSE.exec(duckSql);
  if (!query.keys) return compareRows(actual, expected, false);
  const checkSql = query.check ?? duckSql.replace(LIMIT_CLAUSE, '');
  return checkLimitedAnswer(duck, checkSql, query.keys, actual, limit ? Number(limit[2] ?? 0) : 0, limit ? Number(limit[1]) : Infinity);
}

export async function main(args: readonly string[]): Promise<void> {
  const { values, rest } = takeOptions(args, ['rows', 'timeout']);
  const options = parseBenchArgs(rest);
  const rowCount = Number(values.get('rows') ?? (options.quick ? 1_000_000 : 10_000_000));
  const timeoutS = Number(values.get('timeout') ?? (options.quick ? 120 : 600));
  if (!(Number.isInteger(rowCount) && rowCount > 0) || !(timeoutS > 0)) throw new Error('--rows needs a positive integer and --timeout a positive number');
  const runs = options.quick ? 1 : 3;
  await withPeers('clickbench', async ({ workDir, server, galene, duckConn }) => {
    await galene.conn.query(HITS_DDL);
    await duckConn.run(duckdbDdl(HITS_DDL));

    // Generate and load: each chunk goes to Galene by Stream Load (one request in flight while the next
    // chunk is made) and to a file for DuckDB.
    const dataFile = path.join(workDir, 'hits.tsv');
    const fd = fs.openSync(dataFile, 'w');
    const pipeline = new StreamLoadPipeline(server.ports.webserver_port, 'clickbench');
    let loaded = 0;
    const loadStart = performance.now();
    for (const chunk of hitsChunks(rowCount)) {
      const body = Buffer.from(chunk.text);
      fs.writeSync(fd, body);
      loaded += chunk.rows;
      await pipeline.send('hits', body, { columns: HITS_COLUMNS.join(', ') });
    }
    await pipeline.finish();
    const loadMs = performance.now() - loadStart;
    fs.closeSync(fd);
    const duckLoadStart = performance.now();
    await duckConn.run(`COPY hits FROM '${dataFile}' (DELIMITER '\t', HEADER false, QUOTE '', ESCAPE '', NULLSTR '\\N')`);
    const duckLoadMs = performance.now() - duckLoadStart;
    fs.rmSync(dataFile);
    const [[galeneCount]] = await queryRows(galene.conn, 'SELECT count(*) FROM hits');
    if (Number(galeneCount) !== loaded) throw new Error(`hits: Galene has ${galeneCount} rows, ${loaded} were loaded`);
    await waitForCompactionToSettle(galene.conn, ['hits']);
    await galene.configure(`SET query_timeout = ${timeoutS}`);

    const rows: Row[] = [];
    rows.push({ query: `load ${loaded} rows`, status: 'ok', galene_ms: Math.round(loadMs), duckdb_ms: Math.round(duckLoadMs), ratio: loadMs / duckLoadMs, result_rows: loaded, galene_peak_rss_mib: peakRssMiB(server.child.pid!) });
    const ratios: number[] = [];
    for (const query of CLICKBENCH_QUERIES) {
      const duckSql = query.duckdb ?? query.sql;
      const expected = await checkedAndTimed(runs, () => duckRows(duckConn, duckSql));
      const row: Row = { query: query.name, status: '', galene_ms: '', duckdb_ms: expected.ms, ratio: '', result_rows: expected.rows.length, galene_peak_rss_mib: '' };
      rows.push(row);
      const ratio = await runOnGalene(galene, query.sql, runs, row, expected.ms, (actual) => checkAnswer(duckConn, query, duckSql, actual, expected.rows));
      if (ratio !== null) ratios.push(ratio);
    }
    rows.push({ query: 'geometric mean', status: `${ratios.length} of ${CLICKBENCH_QUERIES.length} ok`, galene_ms: '', duckdb_ms: '', ratio: ratios.length ? geometricMean(ratios) : '', result_rows: '', galene_peak_rss_mib: peakRssMiB(server.child.pid!) });
    report(`clickbench: ${loaded} rows of hits (seeded generator), Galene (${os.cpus().length} scan threads, the default) vs DuckDB threads=2, results checked against DuckDB, ${runs > 1 ? `median of ${runs} timed runs` : 'one timed run'} after the checked one`, rows, options);
  });
}
