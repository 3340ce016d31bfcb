/**
 * A table in an S3 storage vault, end to end through a real server, mysql2 and curl: INSERT, Stream Load
 * and Group Commit land as objects in the bucket under the vault's root path (none in the local object
 * directory); SELECT in-thread and on the scan workers (parallel_scan_min_rows_per_scanner lowered);
 * compaction; an ANN and an inverted index; a restart keeps it readable; new credentials at run time
 * (the server rotates its secret, ALTER STORAGE VAULT follows without a restart); DROP TABLE removes the
 * table's objects from the bucket. s3rver behind the fault proxy, which checks the credentials.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { makeDataDir, startGalene, updateBackendConfig, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { useS3BehindProxy } from '../helpers/s3-behind-proxy';
import { curlLoad } from '../stream-load/helpers';

const ROOT = 'vault-e2e';
const DIM = 4;
let secret = 'first-secret';
let server: GaleneProcess;
let conn: Connection;
const dataDir = makeDataDir('galene-vault-e2e-');
// Small scanners (parallel scans on the workers), ANN index files on every segment, compaction when the test says.
const ARGS = ['--parallel_scan_min_rows_per_scanner', '64', '--ann_index_build_min_segment_rows', '1', '--disable_auto_compaction', 'true'];

before(async () => {
  server = await startGalene({ dataDir, args: ARGS, storage: 'local' });
  conn = await connect(server.ports.query_port);
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

// After the server's hooks: the S3 server stops after Galene does.
const s3 = useS3BehindProxy({ proxy: { credentials: { S3RVER: { secretKey: secret } } } });

/** Keys in the bucket under the vault's root path (as the vault's own store lists them). */
const bucketKeys = (prefix = 'data/'): Promise<string[]> => s3.bucketKeys(ROOT, prefix);

/** Files under the server's local object directory. */
function localObjects(): string[] {
  const dir = path.join(dataDir, 'objects', 'data');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
}

const vector = (id: number): string => `[${Array.from({ length: DIM }, (_, dimIdx) => ((id * (dimIdx + 3)) % 17) / 4).join(',')}]`;

test('loads into a table of an S3 vault write objects to the bucket and read back', async () => {
  await conn.query(`CREATE STORAGE VAULT e2e ${s3.vaultProperties(ROOT, { 's3.secret_key': secret })}`);
  await conn.query('CREATE DATABASE vdb');
  await conn.query('USE vdb');
  await conn.query(`CREATE TABLE docs (id INT NOT NULL, grp INT, note VARCHAR(64), embedding ARRAY<FLOAT> NOT NULL,
      INDEX idx_note (note) USING INVERTED PROPERTIES("parser" = "english"),
      INDEX idx_emb (embedding) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="${DIM}"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 4 PROPERTIES ("storage_vault_name" = "e2e")`);
  // INSERT
  const values = Array.from({ length: 200 }, (_, idx) => `(${idx}, ${idx % 5}, '${idx % 2 === 0 ? 'red apple' : 'green pear'} ${idx}', '${vector(idx)}')`);
  await conn.query(`INSERT INTO docs VALUES ${values.join(', ')}`);
  // Stream Load
  const csvFile = path.join(dataDir, 'rows.csv');
  fs.writeFileSync(csvFile, Array.from({ length: 300 }, (_, idx) => `${1000 + idx}|${idx % 5}|blue plum ${idx}|${vector(1000 + idx)}`).join('\n') + '\n');
  const loaded = await curlLoad(`http://127.0.0.1:${server.ports.http_port}/api/vdb/docs/_stream_load`, csvFile, ['column_separator:|']);
  assert.equal(loaded.json.Status, 'Success', loaded.body);
  assert.equal(loaded.json.NumberLoadedRows, 300);
  // Group Commit (async: acknowledged from the WAL, published by the commit thread)
  await conn.query("SET group_commit = 'async_mode'");
  for (let idx = 0; idx < 5; idx++) await conn.query(`INSERT INTO docs VALUES (${2000 + idx}, 9, 'group commit ${idx}', '${vector(2000 + idx)}')`);
  await conn.query("SET group_commit = 'off_mode'");
  const deadline = Date.now() + 30_000;
  while (Number((await queryRows(conn, 'SELECT count(*) FROM docs WHERE grp = 9'))[0][0]) < 5) {
    assert.ok(Date.now() < deadline, 'group commit published within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const keys = await bucketKeys();
  assert.ok(keys.some((key) => /^data\/\d+\/\d+_\d+\.dat$/.test(key)), `segments in the bucket: ${keys.join(' ')}`);
  assert.ok(keys.some((key) => key.endsWith('.idx')), 'index files in the bucket');
  assert.deepEqual(localObjects(), [], 'nothing of the table in the local object directory');
  assert.deepEqual(await bucketKeys('galene_vault_probe/'), [], 'the CREATE probe object is gone');

  // In-thread and scan-worker reads (505 rows over 4 tablets, 64 rows per scanner).
  assert.deepEqual(await queryRows(conn, 'SELECT count(*), sum(id), count(DISTINCT grp) FROM docs'), [['505', String((199 * 200) / 2 + 300 * 1000 + (299 * 300) / 2 + 5 * 2000 + 10), '6']]);
  assert.deepEqual(await queryRows(conn, 'SELECT grp, count(*) FROM docs GROUP BY grp ORDER BY grp'), [['0', '100'], ['1', '100'], ['2', '100'], ['3', '100'], ['4', '100'], ['9', '5']]);
  assert.deepEqual(await queryRows(conn, "SELECT count(*) FROM docs WHERE note MATCH_ANY 'apple'"), [['100']]);
  const nearest = await queryRows(conn, `SELECT id FROM docs ORDER BY l2_distance_approximate(embedding, ${vector(7)}) LIMIT 1`);
  assert.equal(nearest.length, 1);
  assert.deepEqual(await queryRows(conn, `SELECT l2_distance(embedding, ${vector(7)}) FROM docs WHERE id = ${nearest[0][0]}`), [['0']]);
});

test('compaction of a table in an S3 vault keeps its rows', async () => {
  await conn.query('CREATE TABLE small (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("storage_vault_name" = "e2e")');
  for (let load = 0; load < 8; load++) await conn.query(`INSERT INTO small VALUES (${load % 3}, ${load}), (${100 + load}, ${load})`);
  const versions = async (): Promise<number> => (await queryRows(conn, 'SHOW TABLETS FROM small')).reduce((sum, row) => sum + Number(row[2]), 0);
  assert.equal(await versions(), 8);
  const expected = await queryRows(conn, 'SELECT k, v FROM small ORDER BY k');
  assert.deepEqual(expected.slice(0, 3), [['0', '6'], ['1', '7'], ['2', '5']]);
  await updateBackendConfig(server.ports.webserver_port, 'disable_auto_compaction=false');
  const deadline = Date.now() + 60_000;
  while ((await versions()) >= 5) {
    assert.ok(Date.now() < deadline, 'compaction reduced the version count within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await updateBackendConfig(server.ports.webserver_port, 'disable_auto_compaction=true');
  assert.deepEqual(await queryRows(conn, 'SELECT k, v FROM small ORDER BY k'), expected);
  assert.deepEqual(localObjects(), []);
});

test('a restart keeps the table readable; rotated credentials are followed by ALTER without a restart', async () => {
  const expected = await queryRows(conn, 'SELECT count(*), sum(id) FROM docs');
  await conn.end();
  await server.stop();
  server = await startGalene({ dataDir, args: ARGS, storage: 'local' });
  conn = await connect(server.ports.query_port);
  await conn.query('USE vdb');
  assert.deepEqual(await queryRows(conn, 'SELECT count(*), sum(id) FROM docs'), expected);

  // The store's secret changes: loads fail with S3's error until the vault has the new one.
  secret = 'second-secret';
  s3.proxy.configure({ credentials: { S3RVER: { secretKey: secret } } });
  await assert.rejects(conn.query("INSERT INTO docs VALUES (5000, 8, 'after rotation', '[0,0,0,0]')"), /SignatureDoesNotMatch/);
  await conn.query(`ALTER STORAGE VAULT e2e PROPERTIES ("type" = "S3", "s3.secret_key" = "${secret}")`);
  await conn.query("INSERT INTO docs VALUES (5000, 8, 'after rotation', '[0,0,0,0]')");
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM docs WHERE grp = 8'), [['1']]);
});

test('DROP TABLE removes the table\'s objects from the bucket', async () => {
  const tablets = (await queryRows(conn, 'SHOW TABLETS FROM docs')).map((row) => row[0]);
  const ofDocs = async (): Promise<string[]> => (await bucketKeys()).filter((key) => tablets.includes(key.split('/')[1]));
  assert.ok((await ofDocs()).length > 0);
  await conn.query('DROP TABLE docs');
  assert.deepEqual(await ofDocs(), []);
});
