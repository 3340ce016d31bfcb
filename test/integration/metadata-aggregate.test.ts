// COUNT(*) / COUNT(col) / MIN / MAX without WHERE answered from metadata (row counts, delete bitmaps, zone
// maps: the profile's MetadataAggregates counter, no row read) where that is exact, and by scanning
// elsewhere — every answer checked against the rows the test inserted, on DUPLICATE (partitioned, NULLs,
// several loads, in-thread and scan-fragment sized), empty, merge-on-write UNIQUE with updates and deletes,
// merge-on-read UNIQUE, AGGREGATE, DELETE-predicate and string-column tables.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows } from '../helpers/mysql-client';

let server: GaleneProcess;
let conn: Connection;

before(async () => {
  server = await startGalene({ dataDir: makeDataDir('galene-metaagg-'), args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000'] });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE m');
  await conn.query('USE m');
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

const counter = (profile: Map<string, string>, name: string): number => Number(profile.get(name) ?? 0);

/** The query's one row, and whether metadata answered it (and then that no row was read). */
async function answer(sql: string): Promise<{ row: (string | null)[]; fromMetadata: boolean }> {
  const [row] = await queryRows(conn, sql);
  const profile = await lastQueryProfile(conn);
  const fromMetadata = counter(profile, 'MetadataAggregates') > 0;
  if (fromMetadata) assert.equal(counter(profile, 'RowsRead'), 0, `${sql}: metadata answered, yet rows were read`);
  return { row, fromMetadata };
}

test('DUPLICATE: count, count(col) with NULLs, min/max of int, date, decimal across partitions and loads, from metadata', async () => {
  await conn.query(`CREATE TABLE d (k INT NOT NULL, v INT NULL, dt DATE NULL, m DECIMAL(10,2) NULL, s VARCHAR(20) NULL)
    DUPLICATE KEY (k) PARTITION BY RANGE (k) (PARTITION p0 VALUES LESS THAN (1000), PARTITION p1 VALUES LESS THAN (100000))
    DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ('replication_num' = '1')`);
  const rows: [number, number | null, string | null, string | null, string | null][] = [];
  for (let load = 0; load < 3; load++) {
    const batch: typeof rows = [];
    for (let idx = 0; idx < 900; idx++) {
      const k = load * 900 + idx;
      const v = k % 5 === 0 ? null : ((k * 7919) % 2001) - 1000;
      const day = k % 7 === 0 ? null : `2024-0${1 + (k % 9)}-1${k % 10}`;
      const m = k % 3 === 0 ? null : (((k * 31) % 10000) / 100 - 40).toFixed(2);
      batch.push([k, v, day, m, k % 4 === 0 ? null : `s${(k * 13) % 97}`]);
    }
    const text = (value: string | number | null): string => (value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${value}'`);
    await conn.query(`INSERT INTO d VALUES ${batch.map((row) => `(${row.map(text).join(', ')})`).join(', ')}`);
    rows.push(...batch);
  }
  const present = <T>(values: (T | null)[]): T[] => values.filter((value): value is T => value !== null);
  const ints = present(rows.map((row) => row[1]));
  const days = present(rows.map((row) => row[2])).sort();
  const decimals = present(rows.map((row) => row[3])).map(Number);
  const got = await answer('SELECT COUNT(*), COUNT(v), MIN(v), MAX(v), MIN(dt), MAX(dt), COUNT(m), MIN(m), MAX(m) FROM d');
  assert.deepEqual(got.row, [
    String(rows.length), String(ints.length), String(Math.min(...ints)), String(Math.max(...ints)), days[0], days[days.length - 1],
    String(decimals.length), Math.min(...decimals).toFixed(2), Math.max(...decimals).toFixed(2),
  ]);
  assert.ok(got.fromMetadata);
  // A string column's zone-map bounds may be truncated: scanned, still right.
  const strings = present(rows.map((row) => row[4])).sort();
  const str = await answer('SELECT MIN(s), MAX(s), COUNT(*) FROM d');
  assert.deepEqual(str.row, [strings[0], strings[strings.length - 1], String(rows.length)]);
  assert.equal(str.fromMetadata, false);
  // A WHERE, a GROUP BY, DISTINCT, or an expression argument: scanned.
  const filtered = await answer('SELECT COUNT(*) FROM d WHERE k < 1000');
  assert.deepEqual(filtered.row, ['1000']);
  assert.equal(filtered.fromMetadata, false);
  assert.equal((await answer('SELECT COUNT(DISTINCT v % 3) FROM d')).fromMetadata, false);
  assert.equal((await answer('SELECT MAX(v + 1) FROM d')).row[0], String(Math.max(...ints) + 1));
  // A DELETE predicate: its rows are known only by reading values, so every answer scans.
  await conn.query('DELETE FROM d WHERE k >= 2000');
  const kept = rows.filter((row) => row[0] < 2000);
  const keptInts = present(kept.map((row) => row[1]));
  const deleted = await answer('SELECT COUNT(*), MAX(v) FROM d');
  assert.deepEqual(deleted.row, [String(kept.length), String(Math.max(...keptInts))]);
  assert.equal(deleted.fromMetadata, false);
});

test('an empty table: COUNT 0, MIN / MAX NULL, from metadata', async () => {
  await conn.query("CREATE TABLE e (k INT NOT NULL, v BIGINT NULL) DUPLICATE KEY (k) DISTRIBUTED BY HASH(k) BUCKETS 3 PROPERTIES ('replication_num' = '1')");
  const got = await answer('SELECT COUNT(*), COUNT(v), MIN(v), MAX(v) FROM e');
  assert.deepEqual(got.row, ['0', '0', null, null]);
  assert.ok(got.fromMetadata);
});

test('merge-on-write UNIQUE with updates and deletes: COUNT(*) is row counts minus the delete bitmap; MIN / MAX scan', async () => {
  await conn.query("CREATE TABLE u (k INT NOT NULL, v INT NULL) UNIQUE KEY (k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ('replication_num' = '1', 'enable_unique_key_merge_on_write' = 'true')");
  const live = new Map<number, number>();
  for (let load = 0; load < 3; load++) {
    const batch: [number, number][] = [];
    for (let idx = 0; idx < 1500; idx++) batch.push([(idx * 3 + load * 500) % 2500, load * 10000 + idx]);
    await conn.query(`INSERT INTO u VALUES ${batch.map(([k, v]) => `(${k}, ${v})`).join(', ')}`);
    for (const [k, v] of batch) live.set(k, v);
  }
  await conn.query('DELETE FROM u WHERE k < 300');
  for (const k of [...live.keys()]) if (k < 300) live.delete(k);
  const count = await answer('SELECT COUNT(*), COUNT(k) FROM u');
  assert.deepEqual(count.row, [String(live.size), String(live.size)]);
  assert.ok(count.fromMetadata, 'COUNT(*) over merge-on-write UNIQUE comes from metadata');
  // Replaced and deleted rows still sit in the zone maps: MIN / MAX must read the values.
  const values = [...live.values()];
  const bounds = await answer('SELECT MIN(v), MAX(v) FROM u');
  assert.deepEqual(bounds.row, [String(Math.min(...values)), String(Math.max(...values))]);
  assert.equal(bounds.fromMetadata, false);
});

test('merge-on-read UNIQUE and AGGREGATE: stored rows are merged on read, so COUNT / MIN / MAX scan', async () => {
  await conn.query("CREATE TABLE r (k INT NOT NULL, v INT NULL) UNIQUE KEY (k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ('replication_num' = '1', 'enable_unique_key_merge_on_write' = 'false')");
  await conn.query("CREATE TABLE a (k INT NOT NULL, v INT SUM NULL, w INT MAX NULL) AGGREGATE KEY (k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ('replication_num' = '1')");
  for (let load = 0; load < 2; load++) {
    await conn.query(`INSERT INTO r VALUES ${Array.from({ length: 50 }, (_, idx) => `(${idx}, ${load * 100 + idx})`).join(', ')}`);
    await conn.query(`INSERT INTO a VALUES ${Array.from({ length: 50 }, (_, idx) => `(${idx}, ${idx}, ${load * 100 - idx})`).join(', ')}`);
  }
  const mor = await answer('SELECT COUNT(*), MIN(v), MAX(v) FROM r');
  assert.deepEqual(mor.row, ['50', '100', '149']);
  assert.equal(mor.fromMetadata, false);
  const agg = await answer('SELECT COUNT(*), MIN(w), MAX(w) FROM a');
  assert.deepEqual(agg.row, ['50', '51', '100']);
  assert.equal(agg.fromMetadata, false);
});
