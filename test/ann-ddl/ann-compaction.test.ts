/**
 * Compaction and ANN index files (server in this process, driven through mysql2, compactions run by
 * hand): the compacted segment carries its own index file, built from the rows it keeps — a merge-on-write
 * table's replaced and deleted rows are not in it — and the retired segments' index files are deleted
 * with them, including files a BUILD INDEX attached to the inputs while the merge ran.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { CompactionScheduler, DEFAULT_COMPACTION_POLICY } from '../../src/be/compaction';
import { Config } from '../../src/common/config';
import { buildJobsIdle } from '../../src/fe/statements/build-index';
import type { SegmentIndexRecord, SegmentRecord } from '../../src/meta/meta-store';
import { RunningGalene, startGalene } from '../../src/fe/galene-server';
import { AnnIndexReader } from '../../src/storage/ann';
import { makeDataDir } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { pauseAfterMerge } from '../table-models/in-process';

let server: RunningGalene;
let conn: Connection;
let dataDir: string;
let compaction: CompactionScheduler;

before(async () => {
  dataDir = makeDataDir('galene-ann-compact-');
  server = await startGalene(new Config({ data_dir: dataDir, query_port: 0, http_port: 0, webserver_port: 0, brpc_port: 0, disable_auto_compaction: true, ann_index_build_min_segment_rows: 100 }));
  // Retired files are deleted at once (the default waits 5 minutes for queries still reading them).
  compaction = new CompactionScheduler(server.frontend.catalog, server.frontend.backend, { ...DEFAULT_COMPACTION_POLICY, retiredFileGraceMs: 0 });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE anncompact');
  await conn.query('USE anncompact');
});

after(async () => {
  compaction?.stop();
  await conn?.end();
  await server?.stop();
});

const ANN = 'USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="4")';
const vectorOf = (row: number): number[] => [Math.sin(row), Math.cos(row * 0.7), (row % 97) / 97, (row % 13) / 13];
const valuesOf = (keys: readonly number[], shift = 0): string => keys.map((key) => `(${key}, [${vectorOf(key + shift).join(',')}])`).join(',');
const range = (from: number, count: number): number[] => Array.from({ length: count }, (_, idx) => from + idx);

function objectFile(key: string): string {
  return path.join(dataDir, 'objects', key);
}

function tableSegments(table: string) {
  return server.frontend.catalog.getTable('anncompact', table).rowsets.flatMap((rowset) => rowset.segments);
}

async function waitGone(files: readonly string[]): Promise<void> {
  for (let attempt = 0; attempt < 100 && files.some((file) => fs.existsSync(file)); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(files.filter((file) => fs.existsSync(file)), [], 'retired index files are deleted');
}

/** A segment's ANN index records (merge-on-write segments also carry their primary-key index). */
function annRecords(segment: SegmentRecord): SegmentIndexRecord[] {
  return (segment.indexes ?? []).filter((record) => record.kind === 'ann');
}

async function compactAll(table: string): Promise<void> {
  const state = server.frontend.catalog.getTable('anncompact', table);
  await compaction.compactTablet(state, state.tablets[0].id, state.rowsets);
}

test('a compacted DUPLICATE KEY segment carries an index of all its rows; the inputs\' files are deleted', async () => {
  await conn.query(`CREATE TABLE dup (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX ann_e (e) ${ANN}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  for (let load = 0; load < 5; load++) await conn.query(`INSERT INTO dup VALUES ${valuesOf(range(load * 1000, 200))}`);
  const inputs = tableSegments('dup');
  assert.equal(inputs.length, 5);
  const inputFiles = inputs.flatMap((segment) => (segment.indexes ?? []).map((record) => objectFile(record.key)));
  assert.equal(inputFiles.length, 5);
  await compactAll('dup');
  const [merged, ...others] = tableSegments('dup');
  assert.equal(others.length, 0);
  assert.equal(merged.numRows, 1000);
  assert.equal(merged.indexes?.length, 1);
  const reader = await AnnIndexReader.openFile(objectFile(merged.indexes![0].key), { verify: true });
  try {
    assert.equal(reader.header.vectorCount, 1000);
  } finally {
    reader.close();
  }
  await waitGone(inputFiles);
  assert.deepEqual(await queryRows(conn, `SELECT id FROM dup ORDER BY l2_distance(e, [${vectorOf(3017).join(',')}]) LIMIT 1`), [['3017']]);
});

test('a merge-on-write compaction indexes only visible rows: replaced and deleted rows are not in its index', async () => {
  await conn.query(`CREATE TABLE mow (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX ann_e (e) ${ANN}) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  await conn.query(`INSERT INTO mow VALUES ${valuesOf(range(0, 400))}`);
  await conn.query(`INSERT INTO mow VALUES ${valuesOf(range(0, 150), 50_000)}`); // replaces 150 keys with new vectors
  await conn.query(`INSERT INTO mow VALUES ${valuesOf(range(400, 200))}`);
  await conn.query('DELETE FROM mow WHERE id >= 500');
  const visible = Number((await queryRows(conn, 'SELECT count(*) FROM mow'))[0][0]);
  assert.equal(visible, 500);
  const inputFiles = tableSegments('mow').flatMap((segment) => annRecords(segment).map((record) => objectFile(record.key)));
  assert.equal(inputFiles.length, 3, 'each load of >= 100 rows built a file');
  await compactAll('mow');
  const segments = tableSegments('mow');
  assert.equal(segments.length, 1);
  assert.equal(segments[0].numRows, visible);
  const file = objectFile(annRecords(segments[0])[0].key);
  const reader = await AnnIndexReader.openFile(file, { verify: true });
  try {
    assert.equal(reader.header.vectorCount, visible, 'no replaced or deleted row is in the index');
    // A replaced key's old vector is no longer a stored vector: its nearest neighbour is some other row.
    const oldVector = Float32Array.from(vectorOf(7));
    const hit = reader.searchIndex(oldVector, 1, 64);
    assert.ok(hit.keys[0] > 1e-6, `the old vector of key 7 is gone (nearest: row ${hit.rows[0]} at ${hit.keys[0]})`);
  } finally {
    reader.close();
  }
  await waitGone(inputFiles);
  assert.deepEqual(await queryRows(conn, `SELECT id FROM mow ORDER BY l2_distance(e, [${vectorOf(7 + 50_000).join(',')}]) LIMIT 1`), [['7']]);
});

test('index files a BUILD INDEX attaches to compaction inputs during the merge are retired with them', async () => {
  await conn.query('CREATE TABLE late (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  for (let load = 0; load < 3; load++) await conn.query(`INSERT INTO late VALUES ${valuesOf(range(load * 1000, 150))}`);
  await conn.query(`CREATE INDEX ann_e ON late (e) ${ANN}`);
  const pause = pauseAfterMerge(compaction);
  const state = server.frontend.catalog.getTable('anncompact', 'late');
  const compacting = compaction.compactTablet(state, state.tablets[0].id, state.rowsets);
  await pause.reached;
  await conn.query('BUILD INDEX ann_e ON late');
  await buildJobsIdle(server.frontend);
  const attached = tableSegments('late').flatMap((segment) => annRecords(segment).map((record) => objectFile(record.key)));
  assert.equal(attached.length, 3, 'the build attached a file to each input segment');
  assert.ok(attached.every((file) => fs.existsSync(file)));
  pause.release();
  await compacting;
  const [merged] = tableSegments('late');
  assert.equal(merged.numRows, 450);
  assert.equal(annRecords(merged).length, 1, 'the merge (begun after CREATE INDEX) built its own file');
  await waitGone(attached);
});
