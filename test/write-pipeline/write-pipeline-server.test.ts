/**
 * The write pipeline through a real server: a Stream Load's batches accumulate in one memtable per tablet
 * (one segment per tablet, not one per batch) until write_buffer_size, changeable at run time; a small
 * load memory limit makes an INSERT ... SELECT wait (profile WaitFlushLimitTime > 0, BE metrics) and
 * still load every row; SIGKILL while several Stream Loads flush and upload leaves, after restart, each
 * load either whole or absent and no orphan segment files.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeDataDir, startGalene, updateBackendConfig } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows } from '../helpers/mysql-client';
import { count, curlLoad, httpGet, segmentFiles, sleep, streamLoadFilesOnClients } from '../stream-load/helpers';

function csvFile(dir: string, name: string, rows: number, start = 0): string {
  const file = path.join(dir, name);
  const lines: string[] = [];
  for (let rowIdx = start; rowIdx < start + rows; rowIdx++) lines.push(`${rowIdx},name_${rowIdx % 977},${(rowIdx * 7) % 1000}`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

async function segmentsPerTablet(conn: Awaited<ReturnType<typeof connect>>, table: string): Promise<number[]> {
  return (await queryRows(conn, `SHOW TABLETS FROM ${table}`)).map((row) => Number(row[5]));
}

test('Stream Load batches accumulate in one memtable per tablet up to write_buffer_size', async () => {
  const server = await startGalene({ args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE wp');
    await conn.query('CREATE TABLE wp.t (id INT NOT NULL, name VARCHAR(20), v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
    // 300,000 rows: the Stream Load hands them over in several batches (at most 65,536 rows each).
    const file = csvFile(server.dataDir, 'big.csv', 300_000);
    const first = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/wp/t/_stream_load`, file, ['column_separator:,', 'label:acc1']);
    assert.equal(first.json.Status, 'Success', first.body);
    assert.deepEqual(await segmentsPerTablet(conn, 'wp.t'), [1, 1], 'the default 200 MB buffer holds the whole load: one segment per tablet');
    // A small buffer: each tablet's memtable fills several times during the load.
    assert.equal((await updateBackendConfig(server.ports.webserver_port, 'write_buffer_size=262144')).status, 'OK');
    const second = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/wp/t/_stream_load`, file, ['column_separator:,', 'label:acc2']);
    assert.equal(second.json.Status, 'Success', second.body);
    const segments = await segmentsPerTablet(conn, 'wp.t');
    assert.ok(segments.every((segmentCount) => segmentCount - 1 >= 2), `the second load flushed each tablet's memtable several times: ${segments}`);
    assert.equal(await count(conn, 'wp.t'), 600_000);
    const [[distinct]] = await queryRows(conn, 'SELECT count(DISTINCT id) FROM wp.t');
    assert.equal(distinct, '300000');
    const metrics = (await httpGet(`http://127.0.0.1:${server.ports.webserver_port}/metrics`)).body;
    const flushes = Number(/^doris_be_memtable_flush_total (\d+)/m.exec(metrics)?.[1]);
    assert.ok(flushes >= segments.reduce((sum, value) => sum + value, 0) - 2, `flushes counted: ${flushes}`);
    assert.match(metrics, /^doris_be_memtable_flush_duration_us \d+/m);
    assert.match(metrics, /^doris_be_s3_file_upload_queue_size 0$/m);
    assert.match(metrics, /^doris_be_memtable_memory_bytes 0$/m, 'no load memory held after the loads');
    conn.destroy();
  } finally {
    await server.stop();
  }
});

test('a small load memory limit makes INSERT ... SELECT wait (WaitFlushLimitTime) and loads every row', async () => {
  // mem_limit 4 MiB, load limit 50%: 2 MiB of memtables at most (+ one batch).
  const server = await startGalene({ args: ['--disable_auto_compaction', 'true', '--mem_limit', '4m', '--load_process_max_memory_limit_percent', '50'] });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE wp');
    await conn.query('CREATE TABLE wp.src (id INT NOT NULL, name VARCHAR(20), v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
    await conn.query('CREATE TABLE wp.dst (id INT NOT NULL, name VARCHAR(20), v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3');
    const file = csvFile(server.dataDir, 'src.csv', 200_000);
    const loaded = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/wp/src/_stream_load`, file, ['column_separator:,']);
    assert.equal(loaded.json.Status, 'Success', loaded.body);
    await conn.query('INSERT INTO wp.dst SELECT * FROM wp.src');
    const profile = await lastQueryProfile(conn);
    assert.ok(Number(profile.get('WaitFlushLimitTime')) > 0, `the INSERT waited for the memory limit: ${profile.get('WaitFlushLimitTime')}`);
    assert.equal(await count(conn, 'wp.dst'), 200_000);
    const [[sum]] = await queryRows(conn, 'SELECT sum(v) FROM wp.dst');
    const [[expected]] = await queryRows(conn, 'SELECT sum(v) FROM wp.src');
    assert.equal(sum, expected);
    const metrics = (await httpGet(`http://127.0.0.1:${server.ports.webserver_port}/metrics`)).body;
    assert.ok(Number(/^doris_be_load_wait_flush_limit_total (\d+)/m.exec(metrics)?.[1]) > 0, 'the wait is in the BE metrics');
    assert.match(metrics, /^doris_be_load_memory_limit_bytes\{type="hard"\} 2097152$/m);
    assert.ok(Number(/^doris_be_memtable_memory_peak_bytes (\d+)/m.exec(metrics)?.[1]) <= 2097152 + 3 * 1024 * 1024, 'load memory stayed near its limit');
    conn.destroy();
  } finally {
    await server.stop();
  }
});

test('SIGKILL while Stream Loads flush and upload: after restart each load is whole or absent, no orphans', async () => {
  const dataDir = makeDataDir();
  const first = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true', '--write_buffer_size', '65536'] });
  const conn = await connect(first.ports.query_port);
  await conn.query('CREATE DATABASE wk');
  await conn.query('CREATE TABLE wk.t (id INT NOT NULL, name VARCHAR(20), v INT) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3');
  const ROWS = 100_000;
  const files = Array.from({ length: 6 }, (_v, loadIdx) => csvFile(dataDir, `load${loadIdx}.csv`, ROWS, loadIdx * ROWS));
  // Loads one after another on each of three clients; the server is killed while they run.
  const results = streamLoadFilesOnClients(first.ports.webserver_port, '/api/wk/t/_stream_load', files);
  // Kill once some load has written segment files of its own.
  for (let attempt = 0; attempt < 200 && (await segmentFiles(conn, dataDir, ['wk.t'])).onDisk === 0; attempt++) await sleep(20);
  conn.destroy();
  await first.kill('SIGKILL');
  await Promise.all(results);

  const second = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn2 = await connect(second.ports.query_port);
    let visible = 0;
    for (let loadIdx = 0; loadIdx < files.length; loadIdx++) {
      const [[rows]] = await queryRows(conn2, `SELECT count(*) FROM wk.t WHERE id >= ${loadIdx * ROWS} AND id < ${(loadIdx + 1) * ROWS}`);
      assert.ok(rows === '0' || rows === String(ROWS), `load ${loadIdx}: whole or absent, not ${rows} rows`);
      const txns = await queryRows(conn2, `SHOW TRANSACTION FROM wk WHERE LABEL = 'kill_${loadIdx}'`);
      if (rows === String(ROWS)) {
        visible++;
        assert.equal(txns[0]?.[3], 'VISIBLE');
      } else if (txns.length > 0) {
        assert.notEqual(txns[0][3], 'VISIBLE');
      }
    }
    assert.ok(visible < files.length, 'the kill came before every load finished');
    const segments = await segmentFiles(conn2, dataDir, ['wk.t']);
    assert.equal(segments.onDisk, segments.referenced, 'no orphan segment files after restart');
    conn2.destroy();
  } finally {
    await second.stop();
  }
});
