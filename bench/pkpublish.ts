/**
 * Publish cost of a merge-on-write UNIQUE KEY load against table size, with the primary-key index and
 * without it (the peer: the same table whose segments' index records were removed, as segments written
 * before the index existed — publish then reads the key columns of every overlapping segment). Each cell
 * is the median time of an INSERT of 1,000 upserts of random existing keys (every key hides an old row),
 * into tables of 10k / 100k / 1M rows (10k / 100k with --quick), compacted to one segment per tablet
 * first. A server in this process; compaction by hand.
 *
 *   npm run bench -- pkpublish [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { CompactionScheduler, DEFAULT_COMPACTION_POLICY } from '../src/be/compaction';
import { Config } from '../src/common/config';
import { mulberry32 } from '../src/common/prng';
import { startGalene, type RunningGalene } from '../src/fe/galene-server';
import { purgeIndexRecords } from '../src/fe/statements/build-index';
import { PRIMARY_KEY_INDEX_NAME } from '../src/storage/primary-key-index';
import { connect } from '../test/helpers/mysql-client';
import { median, parseBenchArgs, peakRssMiB, report, type Row } from './lib/report';

const LOAD_ROWS = 1000;
const BUILD_BATCH = 20_000;
const BUCKETS = 4;
const RUNS = 7;

async function build(conn: Connection, table: string, rows: number): Promise<void> {
  await conn.query(`CREATE TABLE ${table} (k BIGINT NOT NULL, v INT, s VARCHAR(24)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS ${BUCKETS} PROPERTIES ("disable_auto_compaction" = "true")`);
  for (let first = 0; first < rows; first += BUILD_BATCH) {
    const values: string[] = [];
    for (let key = first; key < Math.min(rows, first + BUILD_BATCH); key++) values.push(`(${key * 2},${key % 997},'value-${key}')`);
    await conn.query(`INSERT INTO ${table} VALUES ${values.join(',')}`);
  }
}

async function compact(server: RunningGalene, table: string): Promise<void> {
  const compaction = new CompactionScheduler(server.frontend.catalog, server.frontend.backend, { ...DEFAULT_COMPACTION_POLICY, retiredFileGraceMs: 0 });
  try {
    for (const tablet of server.frontend.catalog.getTable('bench', table).tablets) {
      const state = server.frontend.catalog.getTable('bench', table);
      const rowsets = state.rowsets.filter((rowset) => rowset.tabletId === tablet.id);
      if (rowsets.length > 1) await compaction.compactTablet(state, tablet.id, rowsets);
    }
  } finally {
    compaction.stop();
  }
}

/** Median ms of an INSERT of LOAD_ROWS upserts of random existing keys. */
async function publishMs(conn: Connection, table: string, rows: number, seed: number): Promise<number> {
  const rand = mulberry32(seed);
  const times: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const values: string[] = [];
    for (let rowIdx = 0; rowIdx < LOAD_ROWS; rowIdx++) values.push(`(${Math.floor(rand() * rows) * 2},${run},'upsert-${run}')`);
    const start = performance.now();
    await conn.query(`INSERT INTO ${table} VALUES ${values.join(',')}`);
    if (run > 0) times.push(performance.now() - start); // run 0 warms the readers
  }
  return median(times);
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const sizes = options.quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-pkpublish-'));
  const server = await startGalene(new Config({ data_dir: path.join(workDir, 'galene'), query_port: 0, http_port: 0, webserver_port: 0, brpc_port: 0, disable_auto_compaction: true }));
  const conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE bench');
    await conn.query('USE bench');
    const rows: Row[] = [];
    for (const size of sizes) {
      const indexed = `idx_${size}`;
      const plain = `old_${size}`;
      await build(conn, indexed, size);
      await build(conn, plain, size);
      await compact(server, indexed);
      await compact(server, plain);
      purgeIndexRecords(server.frontend.catalog, server.frontend.catalog.getTable('bench', plain).schema.id, [PRIMARY_KEY_INDEX_NAME]);
      const withIndex = await publishMs(conn, indexed, size, 1);
      const without = await publishMs(conn, plain, size, 1);
      rows.push({ table_rows: size, load_rows: LOAD_ROWS, with_index_ms: withIndex, without_index_ms: without, speedup: without / withIndex });
    }
    console.log(`${BUCKETS} buckets, one segment per tablet after compaction, median of ${RUNS} INSERTs per cell; peak RSS ${peakRssMiB(process.pid)} MiB`);
    report('merge-on-write publish of a 1,000-row upsert vs table size', rows, options);
  } finally {
    await conn.end().catch(() => undefined);
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
