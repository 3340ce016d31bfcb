/**
 * SIGKILL of a real server process while an ANN index is being built — at the flush of a big Stream Load,
 * and during BUILD INDEX — then a restart on the same data directory: every acknowledged row is there,
 * no half-written index file is left (temporary build files and unreferenced index files are swept at
 * start-up), every index file on disk is referenced by a segment in the meta store, and a later BUILD
 * INDEX completes.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { checkNoHalfFiles, indexFiles, indexTemps, until, waitForJob } from '../helpers/index-files';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';
import { skipUnderS3 } from '../helpers/storage-matrix';

const DIM = 48;

function writeCsv(file: string, from: number, count: number): void {
  const lines: string[] = [];
  for (let row = from; row < from + count; row++) {
    const vector = Array.from({ length: DIM }, (_, dimIdx) => Math.sin(row * 0.37 + dimIdx * 1.3).toFixed(5));
    lines.push(`${row}|[${vector.join(',')}]`);
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

async function streamLoad(server: GaleneProcess, table: string, file: string): Promise<Record<string, unknown>> {
  const result = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/annkill/${table}/_stream_load`, file, ['column_separator:|']);
  return result.json;
}

// Local directory only: the kill is timed on, and the check reads, the temporary index files of
// <data_dir>/objects (an S3 PUT has no half-written object; F's vault fault tests kill uploads).
const LOCAL_ONLY = skipUnderS3('times its SIGKILL on the temporary index files (TEMP_MARKER) of <data_dir>/objects');

test('SIGKILL during the index build at a big load\'s flush loses no acknowledged row and leaves no half-written index', { timeout: 240_000, ...LOCAL_ONLY }, async () => {
  const dataDir = makeDataDir('galene-ann-kill-flush-');
  let server = await startGalene({ dataDir });
  let conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE annkill');
    await conn.query('USE annkill');
    await conn.query(`CREATE TABLE t (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX ann_e (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="${DIM}")) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
    const first = path.join(dataDir, 'first.csv');
    writeCsv(first, 0, 12_000);
    assert.equal((await streamLoad(server, 't', first)).Status, 'Success');
    assert.equal(indexFiles(dataDir).final.length, 1, 'the acknowledged load has its index file');
    const big = path.join(dataDir, 'big.csv');
    writeCsv(big, 100_000, 60_000);
    let acknowledged = false;
    const load = streamLoad(server, 't', big).then(
      (json) => (acknowledged = json.Status === 'Success'),
      () => false,
    );
    // Kill as soon as the big segment's index build has its temporary file (or the load answered).
    let answered = false;
    void load.then(() => (answered = true));
    assert.ok(await until(() => answered || indexTemps(dataDir).length > 0, 60_000));
    await server.kill('SIGKILL');
    await load;
    await conn.end().catch(() => undefined);

    server = await startGalene({ dataDir });
    conn = await connect(server.ports.query_port, { database: 'annkill' });
    const expected = 12_000 + (acknowledged ? 60_000 : 0);
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM t'), [[String(expected)]]);
    checkNoHalfFiles(dataDir, 'after the restart');
    await conn.query('BUILD INDEX ann_e ON t');
    assert.equal((await waitForJob(conn, 't', ['FINISHED', 'CANCELLED'])).State, 'FINISHED');
    checkNoHalfFiles(dataDir, 'after BUILD INDEX');
    assert.equal(indexFiles(dataDir).final.length, acknowledged ? 2 : 1);
  } finally {
    await conn.end().catch(() => undefined);
    await server.stop();
  }
});

test('SIGKILL during BUILD INDEX leaves nothing half-built; a BUILD INDEX after the restart completes', { timeout: 240_000, ...LOCAL_ONLY }, async () => {
  const dataDir = makeDataDir('galene-ann-kill-build-');
  let server = await startGalene({ dataDir });
  let conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE annkill');
    await conn.query('USE annkill');
    await conn.query('CREATE TABLE b (id INT NOT NULL, e ARRAY<FLOAT> NOT NULL) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
    for (let load = 0; load < 3; load++) {
      const file = path.join(dataDir, `load${load}.csv`);
      writeCsv(file, load * 100_000, 25_000);
      assert.equal((await streamLoad(server, 'b', file)).Status, 'Success');
    }
    await conn.query(`CREATE INDEX ann_e ON b (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="${DIM}")`);
    assert.deepEqual(indexFiles(dataDir).final, []);
    await conn.query('BUILD INDEX ann_e ON b');
    assert.ok(await until(() => indexTemps(dataDir).length > 0 || indexFiles(dataDir).final.length > 0, 60_000));
    const [job] = await queryRecords(conn, 'SHOW BUILD INDEX WHERE TableName = "b"');
    assert.ok(job.State === 'RUNNING' || job.State === 'FINISHED', JSON.stringify(job));
    await server.kill('SIGKILL');
    await conn.end().catch(() => undefined);

    server = await startGalene({ dataDir });
    conn = await connect(server.ports.query_port, { database: 'annkill' });
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM b'), [['75000']]);
    checkNoHalfFiles(dataDir, 'after the restart');
    assert.deepEqual(await queryRows(conn, 'SHOW BUILD INDEX'), [], 'jobs are not kept across a restart');
    await conn.query('BUILD INDEX ann_e ON b');
    const done = await waitForJob(conn, 'b', ['FINISHED', 'CANCELLED']);
    assert.equal(done.State, 'FINISHED', JSON.stringify(done));
    checkNoHalfFiles(dataDir, 'after BUILD INDEX');
    assert.equal(indexFiles(dataDir).final.length, 3, 'every segment has its index file');
    const probe = 100_000 + 4321;
    const vector = Array.from({ length: DIM }, (_, dimIdx) => Math.sin(probe * 0.37 + dimIdx * 1.3).toFixed(5));
    assert.deepEqual(await queryRows(conn, `SELECT id FROM b ORDER BY l2_distance(e, [${vector.join(',')}]) LIMIT 1`), [[String(probe)]]);
  } finally {
    await conn.end().catch(() => undefined);
    await server.stop();
  }
});
