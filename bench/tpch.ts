/**
 * TPC-H benchmark (issue 14, "Proof"): the eight tables generated in-process (bench/lib/tpch-data.ts,
 * seeded) at scale factor --sf, loaded into a Galene server through Stream Load into Doris's published
 * TPC-H tables (bench/lib/tpch-queries.ts) and into DuckDB (threads=2, the same cores) from the same
 * text, then Doris's 22 query texts run unchanged on both. Each Galene result is checked against
 * DuckDB's (numeric tolerance for floating sums; row order only where the query's ORDER BY fixes it).
 *
 * Prints one row per query: status (ok / wrong result: what differs / error: Galene's message), Galene
 * ms, DuckDB ms and the ratio (medians of the timed runs after the checked one), and the geometric mean
 * of the ratios over the ok queries. A query Galene cannot run is reported, never fatal. Then the same
 * query with runtime_filter_mode = OFF (checked the same way), and three timed runs each with runtime
 * filters on and off, alternating: galene_ms and rf_off_ms are their medians — the runtime filters' own
 * peer measured in the same conditions.
 *
 *   npm run bench -- tpch [--quick] [--sf N] [--timeout SECONDS] [--json FILE]
 *
 * --quick: SF 0.1 (default SF 1); --sf overrides either. --timeout: Galene's query_timeout per query
 * (default 60 s quick, 600 s otherwise).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareRows, duckRows } from '../test/helpers/duckdb-peer';
import { queryRows } from '../test/helpers/mysql-client';
import { waitForCompactionToSettle } from './lib/compaction-settle';
import { StreamLoadPipeline } from './lib/stream-load-pipeline';
import { takeOptions } from './lib/latency';
import { checkedAndTimed, geometricMean, runOnGalene, shortError, withPeers } from './lib/peer-run';
import { parseBenchArgs, peakRssMiB, report, Row } from './lib/report';
import { TBL_COLUMNS, TPCH_TABLES, tpchChunks, TpchTable } from './lib/tpch-data';
import { duckdbDdl } from './lib/duckdb-ddl';
import { REVENUE0_VIEW, TPCH_DDL, TPCH_QUERIES } from './lib/tpch-queries';

/** Whether a query's outermost statement ends in an ORDER BY (so its row order is part of the answer). */
export function hasOuterOrderBy(sql: string): boolean {
  let depth = 0;
  let lastOrderAt = -1;
  const tokens = sql.match(/\(|\)|'[^']*'|\border\s+by\b/gi) ?? [];
  tokens.forEach((token, tokenIdx) => {
    if (token === '(') depth++;
    else if (token === ')') depth--;
    else if (depth === 0 && /^order/i.test(token)) lastOrderAt = tokenIdx;
  });
  return lastOrderAt >= 0;
}

export async function main(args: readonly string[]): Promise<void> {
  const { values, rest } = takeOptions(args, ['sf', 'timeout']);
  const options = parseBenchArgs(rest);
  const sf = Number(values.get('sf') ?? (options.quick ? 0.1 : 1));
  const timeoutS = Number(values.get('timeout') ?? (options.quick ? 60 : 600));
  if (!(sf > 0) || !(timeoutS > 0)) throw new Error('--sf and --timeout need positive numbers');
  const runs = options.quick ? 1 : 3;
  await withPeers('tpch', async ({ workDir, server, galene, duckConn }) => {
    for (const ddl of TPCH_DDL) {
      await galene.conn.query(ddl);
      await duckConn.run(duckdbDdl(ddl));
    }
    // q15 reads this view; a Galene that cannot create it reports q15's error as the view's.
    let viewError: string | null = null;
    await galene.conn.query(REVENUE0_VIEW).catch((err: unknown) => (viewError = `CREATE VIEW revenue0: ${shortError(err)}`));

    // Generate and load: each chunk goes to Galene by Stream Load (one request in flight while the next
    // chunk is made) and to the table's file for DuckDB.
    const files = new Map<TpchTable, number>();
    const rowCounts = new Map<TpchTable, number>();
    const loadStart = performance.now();
    const pipeline = new StreamLoadPipeline(server.ports.webserver_port, 'tpch');
    for (const chunk of tpchChunks(sf)) {
      let fd = files.get(chunk.table);
      if (fd === undefined) files.set(chunk.table, (fd = fs.openSync(path.join(workDir, `${chunk.table}.tbl`), 'w')));
      const body = Buffer.from(chunk.text);
      fs.writeSync(fd, body);
      rowCounts.set(chunk.table, (rowCounts.get(chunk.table) ?? 0) + chunk.rows);
      await pipeline.send(chunk.table, body, { column_separator: '|', columns: TBL_COLUMNS[chunk.table].join(', ') });
    }
    await pipeline.finish();
    const loadMs = performance.now() - loadStart;
    for (const fd of files.values()) fs.closeSync(fd);
    const duckLoadStart = performance.now();
    for (const table of TPCH_TABLES) {
      await duckConn.run(`COPY ${table} (${TBL_COLUMNS[table].join(', ')}) FROM '${path.join(workDir, `${table}.tbl`)}' (DELIMITER '|', HEADER false)`);
    }
    await duckConn.run(REVENUE0_VIEW);
    const duckLoadMs = performance.now() - duckLoadStart;
    for (const table of TPCH_TABLES) {
      const [[galeneCount]] = await queryRows(galene.conn, `SELECT count(*) FROM ${table}`);
      if (Number(galeneCount) !== rowCounts.get(table)) throw new Error(`${table}: Galene has ${galeneCount} rows, ${rowCounts.get(table)} were loaded`);
    }
    await waitForCompactionToSettle(galene.conn, ['lineitem', 'orders', 'partsupp']);
    await galene.configure(`SET query_timeout = ${timeoutS}`);

    const rows: Row[] = [];
    const totalRows = [...rowCounts.values()].reduce((sum, count) => sum + count, 0);
    rows.push({ query: `load ${totalRows} rows`, status: 'ok', galene_ms: Math.round(loadMs), duckdb_ms: Math.round(duckLoadMs), ratio: loadMs / duckLoadMs, result_rows: totalRows, galene_peak_rss_mib: peakRssMiB(server.child.pid!), rf_off_ms: '', rf_off_ratio: '' });
    const ratios: number[] = [];
    const offRatios: number[] = [];
    for (const query of TPCH_QUERIES) {
      const expected = await checkedAndTimed(runs, () => duckRows(duckConn, query.sql));
      const row: Row = { query: query.name, status: '', galene_ms: '', duckdb_ms: expected.ms, ratio: '', result_rows: expected.rows.length, galene_peak_rss_mib: '', rf_off_ms: '', rf_off_ratio: '' };
      rows.push(row);
      if (query.name === 'q15' && viewError) {
        row.status = `error: ${viewError}`;
        continue;
      }
      const ratio = await runOnGalene(galene, query.sql, runs, row, expected.ms, async (actual) => compareRows(actual, expected.rows, hasOuterOrderBy(query.sql)));
      if (ratio !== null) ratios.push(ratio);
      // The same query with runtime filters off (the feature's own peer), checked, then timed alternately
      // with it on (3 runs each, medians), so both see the same machine: rf_off_ms and its ratio to DuckDB.
      if (ratio === null) continue;
      const offRow: Row = { ...row };
      await galene.configure("SET runtime_filter_mode = 'OFF'");
      const offRatio = await runOnGalene(galene, query.sql, 0, offRow, expected.ms, async (actual) => compareRows(actual, expected.rows, hasOuterOrderBy(query.sql)));
      if (offRatio === null) {
        row.rf_off_ms = String(offRow.status);
      } else {
        const onTimes: number[] = [];
        const offTimes: number[] = [];
        for (let pairIdx = 0; pairIdx < 3; pairIdx++) {
          for (const mode of ['GLOBAL', 'OFF'] as const) {
            await galene.configure(`SET runtime_filter_mode = '${mode}'`);
            const start = performance.now();
            await queryRows(galene.conn, query.sql);
            (mode === 'OFF' ? offTimes : onTimes).push(performance.now() - start);
          }
        }
        const mid = (times: number[]): number => [...times].sort((a, b) => a - b)[1];
        row.galene_ms = mid(onTimes);
        row.ratio = mid(onTimes) / expected.ms;
        ratios[ratios.length - 1] = mid(onTimes) / expected.ms;
        row.rf_off_ms = mid(offTimes);
        row.rf_off_ratio = mid(offTimes) / expected.ms;
        offRatios.push(mid(offTimes) / expected.ms);
      }
      await galene.configure("SET runtime_filter_mode = 'GLOBAL'");
    }
    const geomean = geometricMean(ratios);
    rows.push({ query: 'geometric mean', status: `${ratios.length} of ${TPCH_QUERIES.length} ok`, galene_ms: '', duckdb_ms: '', ratio: ratios.length ? geomean : '', result_rows: '', galene_peak_rss_mib: peakRssMiB(server.child.pid!), rf_off_ms: '', rf_off_ratio: offRatios.length ? geometricMean(offRatios) : '' });
    report(`tpch: SF ${sf} (seeded generator), Galene (${os.cpus().length} scan threads, the default) vs DuckDB threads=2, results checked against DuckDB, ${runs > 1 ? `median of ${runs} timed runs` : 'one timed run'} after the checked one`, rows, options);
  });
}
