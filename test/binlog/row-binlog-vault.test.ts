/**
 * A row-binlog table in an S3 storage vault (s3rver behind the fault proxy, with upload latency): the
 * change-log segments are uploaded through the upload pool into the vault beside the data segments, read
 * back by binlog() through the file cache (also after a restart), and deleted from the bucket with the table.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type * as mysql from 'mysql2/promise';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { useS3BehindProxy } from '../helpers/s3-behind-proxy';
import { curlLoad, httpGet } from '../stream-load/helpers';

const ROOT = 'binlog-vault';
const dataDir = makeDataDir();
let server: GaleneProcess;
let conn: mysql.Connection;

// Registered first: the server stops before the S3 fixture does.
after(async () => {
  conn?.destroy();
  await server?.stop();
});

const s3 = useS3BehindProxy({ proxy: { latency: { p50Ms: 20, p99Ms: 60 }, seed: 7 } });

before(async () => {
  server = await startGalene({ dataDir, storage: 'local', args: ['--disable_auto_compaction', 'true', '--write_buffer_size', '65536'] });
  conn = await connect(server.ports.query_port);
  await s3.createVault(conn, 'bv', ROOT);
  await conn.query('CREATE DATABASE bv');
  await conn.query('CREATE TABLE bv.t (k INT, v VARCHAR(20)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("storage_vault_name" = "bv", "binlog.enable" = "true")');
});

test('loads into a vault table write their change log to the vault through the upload pool; binlog() reads it back', async () => {
  const file = path.join(dataDir, 'rows.csv');
  fs.writeFileSync(file, Array.from({ length: 20_000 }, (_, idx) => `${idx},v${idx}`).join('\n') + '\n');
  const before = Number(/^doris_be_s3_file_upload_total (\d+)/m.exec((await httpGet(`http://127.0.0.1:${server.ports.webserver_port}/metrics`)).body)?.[1] ?? 0);
  const load = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/bv/t/_stream_load`, file, ['column_separator:,']);
  assert.equal(load.json.Status, 'Success', load.body);
  await conn.query("INSERT INTO bv.t VALUES (1, 'again')");
  await conn.query('DELETE FROM bv.t WHERE k = 2');
  const keys = await s3.bucketKeys(ROOT);
  const binlogKeys = keys.filter((key) => key.includes('_binlog_'));
  assert.ok(binlogKeys.length >= 3, `change-log segments in the vault: ${binlogKeys.length}`);
  const uploads = Number(/^doris_be_s3_file_upload_total (\d+)/m.exec((await httpGet(`http://127.0.0.1:${server.ports.webserver_port}/metrics`)).body)?.[1]) - before;
  assert.ok(uploads >= keys.filter((key) => key.endsWith('.dat') && !key.includes('_binlog_')).length + binlogKeys.length - 2, `data and change-log segments went through the upload pool (${uploads} uploads)`);
  assert.deepEqual(await queryRows(conn, 'SELECT __op, count(*) FROM binlog("bv.t") GROUP BY __op ORDER BY __op DESC'), [
    ['UPSERT', '20001'],
    ['DELETE', '1'],
  ]);
  assert.deepEqual(await queryRows(conn, 'SELECT k, v, __op FROM binlog("bv.t") WHERE k IN (1, 2) ORDER BY __version, __seq'), [
    ['1', 'v1', 'UPSERT'],
    ['2', 'v2', 'UPSERT'],
    ['1', 'again', 'UPSERT'],
    ['2', 'v2', 'DELETE'],
  ]);
  const beforeRestart = await queryRows(conn, 'SELECT k, v, __op, __version, __seq FROM binlog("bv.t") ORDER BY __version, __seq LIMIT 5');
  conn.destroy();
  await server.stop();
  server = await startGalene({ dataDir, storage: 'local', args: ['--disable_auto_compaction', 'true'] });
  conn = await connect(server.ports.query_port);
  assert.deepEqual(await queryRows(conn, 'SELECT k, v, __op, __version, __seq FROM binlog("bv.t") ORDER BY __version, __seq LIMIT 5'), beforeRestart, 'read back from the vault after a restart');
  assert.deepEqual((await s3.bucketKeys(ROOT)).filter((key) => key.includes('_binlog_')).sort(), binlogKeys.sort(), 'the start-up orphan sweep kept the change log');
  await conn.query('DROP TABLE bv.t');
  assert.deepEqual((await s3.bucketKeys(ROOT)).filter((key) => key.includes('_binlog_')), [], 'DROP TABLE deleted the change-log objects from the bucket');
});
