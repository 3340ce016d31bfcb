/**
 * SIGKILL of a real server process while inverted-index files are being built — at the flush of a big
 * Stream Load, and during BUILD INDEX — then a restart on the same data directory: every acknowledged row
 * is there, no half-written index file is visible (temporary build files and unreferenced index files are
 * swept at start-up), every index file on disk is referenced by a segment, and a later BUILD INDEX
 * completes with answers equal to a brute force.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { checkNoHalfFiles, indexFiles, until, waitForJob } from '../helpers/index-files';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';
import { textRows } from './inverted-corpus';
import { skipUnderS3 } from '../helpers/storage-matrix';

const FT = 'USING INVERTED PROPERTIES("parser"="english", "support_phrase"="true")';

function writeCsv(file: string, from: number, count: number, seed: number): void {
  const bodies = textRows(count, seed, { nullRate: 0 });
  fs.writeFileSync(file, bodies.map((body, idx) => `${from + idx}|${body}`).join('\n') + '\n');
}

async function streamLoad(server: GaleneProcess, table: string, file: string): Promise<Record<string, unknown>> {
  return (await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/invkill/${table}/_stream_load`, file, ['column_separator:|'])).json;
}

/** Segment files (`.dat`) under the object store. */
function segmentFiles(dataDir: string): number {
  let count = 0;
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else if (entry.name.endsWith('.dat')) count++;
    }
  };
  walk(path.join(dataDir, 'objects'));
  return count;
}

// Local directory only: the kill is timed on, and the check reads, the temporary index files of
// <data_dir>/objects (an S3 PUT has no half-written object; F's vault fault tests kill uploads).
const LOCAL_ONLY = skipUnderS3('times its SIGKILL on the temporary index files (TEMP_MARKER) of <data_dir>/objects');

test('SIGKILL during the inverted-index build at a big load\'s flush loses no acknowledged row and leaves no half-written file', { timeout: 240_000, ...LOCAL_ONLY }, async () => {
  const dataDir = makeDataDir('galene-inv-kill-flush-');
  let server = await startGalene({ dataDir });
  let conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE invkill');
    await conn.query('USE invkill');
    await conn.query(`CREATE TABLE t (id INT NOT NULL, body STRING NULL, INDEX ft (body) ${FT}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
    const first = path.join(dataDir, 'first.csv');
    writeCsv(first, 0, 5000, 1);
    assert.equal((await streamLoad(server, 't', first)).Status, 'Success');
    assert.equal(indexFiles(dataDir).final.length, segmentFiles(dataDir), 'the acknowledged load has its index files');
    const big = path.join(dataDir, 'big.csv');
    writeCsv(big, 1_000_000, 300_000, 2);
    let acknowledged = false;
    let answered = false;
    const segmentsBefore = segmentFiles(dataDir);
    const load = streamLoad(server, 't', big).then(
      (json) => (acknowledged = json.Status === 'Success'),
      () => false,
    );
    void load.then(() => (answered = true));
    // Kill once the big segment is written (its index is being built) or a temporary index file shows.
    assert.ok(await until(() => answered || segmentFiles(dataDir) > segmentsBefore || indexFiles(dataDir).temp.length > 0, 120_000));
    await server.kill('SIGKILL');
    await load;
    await conn.end().catch(() => undefined);

    server = await startGalene({ dataDir });
    conn = await connect(server.ports.query_port, { database: 'invkill' });
    const expected = 5000 + (acknowledged ? 300_000 : 0);
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM t'), [[String(expected)]]);
    checkNoHalfFiles(dataDir, 'after the restart');
    assert.equal(indexFiles(dataDir).final.length, segmentFiles(dataDir), 'every segment has its inverted file');
  } finally {
    await conn.end().catch(() => undefined);
    await server.stop();
  }
});

test('SIGKILL during BUILD INDEX of an inverted index leaves nothing half-built; a BUILD INDEX after the restart completes', { timeout: 240_000, ...LOCAL_ONLY }, async () => {
  const dataDir = makeDataDir('galene-inv-kill-build-');
  let server = await startGalene({ dataDir });
  let conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE invkill');
    await conn.query('USE invkill');
    await conn.query('CREATE TABLE b (id INT NOT NULL, body STRING NULL) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
    for (let load = 0; load < 3; load++) {
      const file = path.join(dataDir, `load${load}.csv`);
      writeCsv(file, load * 1_000_000, 100_000, 10 + load);
      assert.equal((await streamLoad(server, 'b', file)).Status, 'Success');
    }
    await conn.query(`CREATE INDEX ft ON b (body) ${FT}`);
    assert.deepEqual(indexFiles(dataDir).final, []);
    await conn.query('BUILD INDEX ft ON b');
    assert.ok(await until(async () => {
      const [job] = await queryRecords(conn, 'SHOW BUILD INDEX WHERE TableName = "b"');
      return job?.State === 'RUNNING' || job?.State === 'FINISHED';
    }, 60_000));
    await server.kill('SIGKILL');
    await conn.end().catch(() => undefined);

    server = await startGalene({ dataDir });
    conn = await connect(server.ports.query_port, { database: 'invkill' });
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM b'), [['300000']]);
    checkNoHalfFiles(dataDir, 'after the restart');
    await conn.query('BUILD INDEX ft ON b');
    const done = await waitForJob(conn, 'b', ['FINISHED', 'CANCELLED']);
    assert.equal(done.State, 'FINISHED', JSON.stringify(done));
    checkNoHalfFiles(dataDir, 'after BUILD INDEX');
    assert.equal(indexFiles(dataDir).final.length, segmentFiles(dataDir), 'every segment has its inverted file');
    assert.ok(segmentFiles(dataDir) >= 3);
  } finally {
    await conn.end().catch(() => undefined);
    await server.stop();
  }
});
