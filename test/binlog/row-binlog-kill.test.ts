/**
 * The row binlog commits with the data: SIGKILL while Stream Loads into a row-binlog table flush and upload
 * their data and change-log segments leaves, after restart, each load's data and its change log both
 * whole or both absent, and no orphan segment file of either kind.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { storedObjectKeys } from '../helpers/storage-matrix';
import { segmentFiles, sleep, streamLoadFilesOnClients } from '../stream-load/helpers';

function csvFile(dir: string, name: string, rows: number, start: number): string {
  const file = path.join(dir, name);
  const lines: string[] = [];
  for (let rowIdx = start; rowIdx < start + rows; rowIdx++) lines.push(`${rowIdx},name_${rowIdx % 977}`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** Segment objects the server stored (local directory or, under the S3 matrix, the bucket): data and change-log ones. */
async function storedSegments(dataDir: string): Promise<{ data: number; binlog: number }> {
  const names = (await storedObjectKeys(dataDir)).filter((name) => name.endsWith('.dat'));
  const binlog = names.filter((name) => path.posix.basename(name).includes('_binlog_')).length;
  return { data: names.length - binlog, binlog };
}

test('SIGKILL during loads into a row-binlog table: after restart data and change log are both whole or both absent', async () => {
  const dataDir = makeDataDir();
  const first = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true', '--write_buffer_size', '65536'] });
  const conn = await connect(first.ports.query_port);
  await conn.query('CREATE DATABASE bk');
  await conn.query('CREATE TABLE bk.t (id INT NOT NULL, name VARCHAR(20)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3 PROPERTIES ("binlog.enable" = "true")');
  const ROWS = 100_000;
  const files = Array.from({ length: 6 }, (_v, loadIdx) => csvFile(dataDir, `load${loadIdx}.csv`, ROWS, loadIdx * ROWS));
  const results = streamLoadFilesOnClients(first.ports.webserver_port, '/api/bk/t/_stream_load', files);
  // Kill once some load has written change-log segment files of its own.
  for (let attempt = 0; attempt < 300 && (await storedSegments(dataDir)).binlog === 0; attempt++) await sleep(20);
  conn.destroy();
  await first.kill('SIGKILL');
  await Promise.all(results);

  const second = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn2 = await connect(second.ports.query_port);
    let visible = 0;
    for (let loadIdx = 0; loadIdx < files.length; loadIdx++) {
      const range = `id >= ${loadIdx * ROWS} AND id < ${(loadIdx + 1) * ROWS}`;
      const [[rows]] = await queryRows(conn2, `SELECT count(*) FROM bk.t WHERE ${range}`);
      const [[logged, versions]] = await queryRows(conn2, `SELECT count(*), count(DISTINCT __version) FROM binlog("bk.t") WHERE ${range}`);
      assert.ok(rows === '0' || rows === String(ROWS), `load ${loadIdx}: whole or absent, not ${rows} rows`);
      assert.equal(logged, rows, `load ${loadIdx}: the change log has exactly the rows the data has`);
      if (rows === String(ROWS)) {
        visible++;
        assert.equal(versions, '1', 'one load, one version');
      }
    }
    assert.ok(visible < files.length, 'the kill came before every load finished');
    const segments = await segmentFiles(conn2, dataDir, ['bk.t']);
    const onDisk = await storedSegments(dataDir);
    assert.equal(onDisk.data, segments.referenced, 'no orphan data segment files after restart');
    assert.equal(onDisk.binlog, onDisk.data, 'no orphan change-log segment files: one beside each data segment');
    conn2.destroy();
  } finally {
    await second.stop();
  }
});
