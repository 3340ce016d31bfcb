/**
 * The object-store requests of a point lookup on a table in an S3 vault (s3rver behind the fault proxy,
 * which counts every request), through a real server and mysql2's prepared statements (the short-circuit
 * path): cold — the file cache and the BE's in-memory caches cleared (`/api/file_cache?op=clear`,
 * `/api/clear_cache/all`) — a lookup costs at most 8 requests (footer + index + one data page per column:
 * docs/object-storage.md counts them), warm none. Segments whose key bounds exclude the key are not read
 * (and segments are searched newest first, the search ending at the key's visible row);
 * with `store_row_column` the lookup reads one page of the row column instead of one per column, and
 * SHOW CREATE TABLE shows the property. Results equal the planned path's, also after ADD COLUMN (the row
 * store cannot serve the new column: the columns are read) and with `row_store_columns` naming a subset.
 * Counts, never times.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import * as mysql from 'mysql2/promise';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows } from '../helpers/mysql-client';
import { useS3BehindProxy } from '../helpers/s3-behind-proxy';
import { curlLoad, httpGet } from '../stream-load/helpers';

const LOADS = 3;
const ROWS_PER_LOAD = 40_000;
const COLUMNS = 'k BIGINT, c1 INT, c2 INT, c3 BIGINT, d1 DOUBLE, d2 DOUBLE, p DECIMAL(15,2), s1 VARCHAR(32), s2 VARCHAR(8), day DATE';
let server: GaleneProcess;
let conn: mysql.Connection;
/** Binary-protocol rows, no text typeCast. */
let ps: mysql.Connection;
const dataDir = makeDataDir('galene-cold-read-');

/** A deterministic, poorly compressible row (so segments span several 1 MiB cache blocks). */
function line(key: number): string {
  const h = (key * 2654435761) >>> 0;
  const g = (h ^ (h >>> 13)) * 1274126177;
  const day = new Date(Date.UTC(2020, 0, 1) + (h % 1500) * 86_400_000).toISOString().slice(0, 10);
  return [key, h | 0, g | 0, h * 7919, h / 3, g / 7, ((h % 10_000_000) / 100).toFixed(2), h.toString(36) + g.toString(36), (h % 97).toString(16), day].join('\t');
}

// Registered before the server's hooks: S3 is up when before() creates the vault (and stops first: nothing uploads by then).
const s3 = useS3BehindProxy();

before(async () => {
  server = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true'], storage: 'local' });
  conn = await connect(server.ports.query_port);
  await s3.createVault(conn, 'cold', 'cold-read');
  await conn.query('CREATE DATABASE cr');
  await conn.query('USE cr');
  ps = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '', database: 'cr', dateStrings: true });
  const tables = { plain: '', rs: '"store_row_column" = "true", ', subset: '"row_store_columns" = "k,c1,s1", ' };
  for (const [name, properties] of Object.entries(tables)) {
    await conn.query(`CREATE TABLE ${name} (${COLUMNS}) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES (${properties}"storage_vault_name" = "cold")`);
  }
  for (let load = 0; load < LOADS; load++) {
    const file = path.join(dataDir, `load${load}.tsv`);
    fs.writeFileSync(file, Array.from({ length: ROWS_PER_LOAD }, (_v, rowIdx) => line(load * ROWS_PER_LOAD + rowIdx + 1)).join('\n') + '\n');
    for (const name of Object.keys(tables)) {
      const loaded = await curlLoad(`http://127.0.0.1:${server.ports.http_port}/api/cr/${name}/_stream_load`, file, ['column_separator:\\t']);
      assert.equal(loaded.json.Status, 'Success', loaded.body);
    }
  }
});

after(async () => {
  await ps?.end();
  await conn?.end();
  await server?.stop();
});

async function clearCaches(): Promise<void> {
  const base = `http://root:@127.0.0.1:${server.ports.webserver_port}`;
  for (const url of [`${base}/api/file_cache?op=clear&sync=true`, `${base}/api/clear_cache/all`]) {
    const answer = await httpGet(url);
    assert.equal(answer.status, 200, answer.body);
  }
}

/** A prepared lookup: its rows, the proxy's request count and the query's profile. */
async function lookup(sql: string, key: number): Promise<{ rows: unknown[]; requests: number; profile: Map<string, string> }> {
  const before = s3.proxy.stats.requests;
  const [rows] = await ps.execute(sql, [key]);
  const requests = s3.proxy.stats.requests - before;
  return { rows: rows as unknown[], requests, profile: await lastQueryProfile(ps) };
}

const counter = (profile: Map<string, string>, name: string): number => Number(profile.get(name) ?? 0);

test('a cold point lookup costs at most 8 object-store requests, a warm one none', async () => {
  const key = 12_345; // in the oldest segment: the newer ones are passed over by their key bounds
  for (const table of ['plain', 'rs']) {
    await clearCaches();
    const cold = await lookup(`SELECT * FROM ${table} WHERE k = ?`, key);
    assert.equal(cold.rows.length, 1);
    assert.equal(counter(cold.profile, 'ShortCircuitQueries'), 1);
    assert.ok(cold.requests >= 1 && cold.requests <= 8, `${table}: cold lookup made ${cold.requests} requests`);
    assert.equal(counter(cold.profile, 'ObjectStoreRequests'), cold.requests, 'the profile counts what the proxy saw');
    assert.equal(counter(cold.profile, 'SegmentsPrunedByKeyBounds'), LOADS - 1, 'the newer segments are not read at all');
    const warm = await lookup(`SELECT * FROM ${table} WHERE k = ?`, key);
    assert.deepEqual(warm.rows, cold.rows);
    assert.equal(warm.requests, 0, `${table}: warm lookup made ${warm.requests} requests`);
  }
});

test('store_row_column: the lookup reads one page of the row column instead of one per column', async () => {
  const key = 2 * ROWS_PER_LOAD + 777;
  await clearCaches();
  const plain = await lookup('SELECT * FROM plain WHERE k = ?', key);
  await clearCaches();
  const rs = await lookup('SELECT * FROM rs WHERE k = ?', key);
  assert.deepEqual(rs.rows, plain.rows);
  assert.equal(counter(plain.profile, 'PagesRead'), 10, 'one page per column without the row store');
  assert.equal(counter(rs.profile, 'PagesRead'), 1, 'one page with it');
  assert.ok(counter(rs.profile, 'Column.__DORIS_ROW_STORE_COL__.RowsRead') === 1);
  assert.ok(rs.requests <= plain.requests, `row store ${rs.requests} requests, columns ${plain.requests}`);
  const [[, createText]] = await queryRows(conn, 'SHOW CREATE TABLE rs');
  assert.match(String(createText), /"store_row_column" = "true"/);
  // The planned path (short-circuit off) answers the same.
  await ps.query('SET enable_short_circuit_query = false');
  try {
    const [planned] = await ps.execute('SELECT * FROM rs WHERE k = ?', [key]);
    assert.deepEqual(planned, rs.rows);
  } finally {
    await ps.query('SET enable_short_circuit_query = true');
  }
});

test('row_store_columns: lookups of those columns use the row store, others read the columns', async () => {
  const key = 4242;
  const expected = (await ps.execute('SELECT k, c1, s1, day FROM plain WHERE k = ?', [key]))[0] as unknown[];
  await clearCaches();
  const some = await lookup('SELECT k, s1, c1 FROM subset WHERE k = ?', key);
  assert.deepEqual(some.rows, (expected as Record<string, unknown>[]).map(({ k, s1, c1 }) => ({ k, s1, c1 })));
  assert.equal(counter(some.profile, 'PagesRead'), 1);
  const all = await lookup('SELECT k, c1, s1, day FROM subset WHERE k = ?', key);
  assert.deepEqual(all.rows, expected);
  assert.ok(counter(all.profile, 'Column.day.RowsRead') === 1, 'day is not in the row store: read from its column');
  await assert.rejects(conn.query('CREATE TABLE bad (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("row_store_columns" = "k,nope")'), /nope/);
});

test('a column added after the rows were written reads as its default through the row store table', async () => {
  await conn.query("ALTER TABLE rs ADD COLUMN extra VARCHAR(8) DEFAULT 'none'");
  const [rows] = await ps.execute('SELECT k, extra, c1 FROM rs WHERE k = ?', [99]);
  const [planned] = await ps.query('SELECT k, c1 FROM plain WHERE k = 99');
  assert.deepEqual(rows, [{ k: 99, extra: 'none', c1: (planned as { c1: number }[])[0].c1 }]);
});
