/**
 * Virtual columns for common subexpressions through a real server and mysql2: the session variable
 * experimental_enable_virtual_slot_for_cse switches them, scan fragments compute
 * them in the scan workers (EXPLAIN shows `virtual columns:` inside SCAN FRAGMENT, the profile counts
 * the worker tasks), results equal the variable off, and prepared statements (binary protocol and the
 * plan cache) give the same rows with each parameter value and after the variable changes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as mysql from 'mysql2/promise';
import { mulberry32 } from '../../src/common/prng';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows, type TextRow } from '../helpers/mysql-client';

const random = mulberry32(3);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const HOSTS = ['www.google.com', 'google.ru', 'mail.google.com', 'yandex.ru', 'news.example.org', 'GOOGLE.COM'];

function hitRow(id: number): string {
  const referer = random() < 0.08 ? 'NULL' : `'${pick(['https://', 'http://', ''])}${pick(HOSTS)}${pick(['/', '/search?q=x', ''])}'`;
  return `(${id}, ${Math.floor(random() * 40)}, ${Math.floor(random() * 300)}, '2013-07-${pick(['14', '15'])}', ${referer})`;
}

const HOST = "regexp_extract(referer, '^https?://([^/]+)', 1)";
const SEED_QUERY = `SELECT counterid, COUNT(*) AS hit_count, COUNT(DISTINCT userid) AS unique_users FROM hits
  WHERE (UPPER(${HOST}) = 'GOOGLE.COM' OR UPPER(${HOST}) = 'GOOGLE.RU' OR UPPER(${HOST}) LIKE '%GOOGLE%')
    AND (LENGTH(${HOST}) > 3 OR ${HOST} != '' OR ${HOST} IS NOT NULL) AND eventdate = '2013-07-15'
  GROUP BY counterid HAVING hit_count > 10 ORDER BY hit_count DESC, counterid LIMIT 20`;
const QUERIES = [
  SEED_QUERY,
  // Partial aggregate in the workers, the key and the filter sharing the column.
  `SELECT ${HOST} AS host, COUNT(*), SUM(LENGTH(${HOST})) FROM hits WHERE LENGTH(${HOST}) > 0 GROUP BY ${HOST} ORDER BY host`,
  // Filter fragment passing the virtual column to the select list and ORDER BY.
  `SELECT id, UPPER(${HOST}), ${HOST} FROM hits WHERE ${HOST} LIKE '%google%' AND id % 7 = 3 ORDER BY ${HOST}, id`,
  `SELECT id, CASE WHEN abs(userid - 150) > 100 THEN abs(userid - 150) ELSE NULL END FROM hits WHERE abs(userid - 150) < 120 AND id < 3000 ORDER BY id`,
];

async function all(conn: mysql.Connection, cse: boolean): Promise<TextRow[][]> {
  await conn.query(`SET experimental_enable_virtual_slot_for_cse = ${cse}`);
  const out: TextRow[][] = [];
  for (const sql of QUERIES) out.push(await queryRows(conn, sql));
  return out;
}

async function explain(conn: mysql.Connection, sql: string): Promise<string> {
  return (await queryRows(conn, `EXPLAIN ${sql}`)).map(([line]) => line).join('\n');
}

async function lastProfile(conn: mysql.Connection): Promise<Map<string, string>> {
  const [[id]] = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
  return new Map((await queryRows(conn, `SHOW QUERY PROFILE "/${id}"`)).map(([name, value]) => [name!, value!]));
}

test('virtual columns over a real server: same answers, computed in the scan fragments, prepared plans', async () => {
  const server = await startGalene({ dataDir: makeDataDir('galene-cse-'), args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000'] });
  const conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE cse');
    await conn.query('USE cse');
    await conn.query('CREATE TABLE hits (id INT, counterid INT, userid INT, eventdate DATE, referer VARCHAR(128)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
    for (let chunk = 0; chunk < 4; chunk++) {
      await conn.query(`INSERT INTO hits VALUES ${Array.from({ length: 2000 }, (_v, idx) => hitRow(chunk * 2000 + idx)).join(',')}`);
    }
    const [[variable, value]] = await queryRows(conn, "SHOW VARIABLES LIKE 'experimental_enable_virtual_slot_for_cse'");
    assert.deepEqual([variable, value], ['experimental_enable_virtual_slot_for_cse', '0'], "Doris's default: off");
    assert.doesNotMatch(await explain(conn, SEED_QUERY), /virtual columns/);

    const off = await all(conn, false);
    const on = await all(conn, true);
    for (let queryIdx = 0; queryIdx < QUERIES.length; queryIdx++) {
      assert.ok(off[queryIdx].length > 0, `${QUERIES[queryIdx]} returns rows`);
      assert.deepEqual(on[queryIdx], off[queryIdx], QUERIES[queryIdx]);
    }

    // COUNT(DISTINCT) has no partial form: the seed's query aggregates in-thread over a virtual-columns Project.
    assert.match(await explain(conn, SEED_QUERY), /PROJECT #\d+\n\s+virtual columns: \[v0 := regexp_extract\(referer, '\^https\?:\/\/\(\[\^\/\]\+\)', 1\), v1 := upper\(v0\)\]\n/);
    // The workers compute the shared columns: they sit in the fragment, before its filter.
    assert.match(await explain(conn, QUERIES[1]), /SCAN FRAGMENT #\d+\n\s+degree: 2\n\s+virtual columns: \[v0 := regexp_extract\(referer, '\^https\?:\/\/\(\[\^\/\]\+\)', 1\), v1 := length\(v0\)\]\n\s+filter: \(v1 > 0\)\n\s+partial group by: v0\n\s+partial aggregates: count\(\*\), sum\(v1\)\n/);
    await queryRows(conn, QUERIES[1]);
    assert.ok(Number((await lastProfile(conn)).get('ParallelScanTasks') ?? 0) >= 2, 'the fragment ran in the workers');
    assert.match(await explain(conn, QUERIES[2]), /SCAN FRAGMENT #\d+\n\s+degree: 2\n\s+virtual columns: \[v0 := regexp_extract/);

    // The binary protocol needs mysql2's own value parsing.
    const binary = await connect(server.ports.query_port, { typeCast: true, database: 'cse' });

    // Prepared (binary protocol): a parameter inside the shared expression; the cached plan follows the variable.
    const prepared = 'SELECT id, abs(userid - 150) FROM hits WHERE abs(userid - 150) > ? AND abs(userid - 150) < ? + 3 AND id < ? ORDER BY id';
    const executeRows = async (target: number): Promise<unknown[]> => {
      const [rows] = await binary.execute({ sql: prepared, rowsAsArray: true }, [target, target, 4000]);
      return rows as unknown[];
    };
    const expected = new Map<number, unknown[]>();
    for (const target of [20, 60, 120]) expected.set(target, await executeRows(target));
    // The cached plan recorded the variable: the next execution plans again, with the virtual column.
    const planOfLast = async (): Promise<string> => (await lastProfile(conn)).get('Plan') ?? '';
    await binary.query('SET experimental_enable_virtual_slot_for_cse = true');
    assert.deepEqual(await executeRows(60), expected.get(60));
    assert.match(await planOfLast(), /SCAN FRAGMENT #\d+\n\s+degree: 2\n\s+virtual columns: \[v0 := abs\(\(userid - 150\)\)/);
    for (const round of [1, 2]) {
      for (const [target, rows] of expected) {
        assert.ok(rows.length > 0);
        assert.deepEqual(await executeRows(target), rows, `round ${round}, target ${target}`);
      }
    }
    await binary.query('SET experimental_enable_virtual_slot_for_cse = false');
    assert.deepEqual(await executeRows(60), expected.get(60));
    assert.match(await planOfLast(), /FILTER|SCAN FRAGMENT/);
    assert.doesNotMatch(await planOfLast(), /virtual columns/);
    // A prepared lookup on the key keeps its short-key pruning under an in-thread virtual-columns Project.
    await binary.query("SET disable_nereids_rules = 'plan_fragments'");
    const lookup = 'SELECT id, abs(userid - 150) FROM hits WHERE id = ? AND abs(userid - 150) >= 0 AND abs(userid - 150) < 1000';
    const scannedRows = async (): Promise<number> => {
      const profile = await lastProfile(conn);
      return [...profile].filter(([name]) => /^TableScan#\d+\.RowsOut$/.test(name)).reduce((sum, [, value]) => sum + Number(value), 0);
    };
    const lookupWith = async (cse: boolean): Promise<{ rows: unknown[]; scanned: number }> => {
      await binary.query(`SET experimental_enable_virtual_slot_for_cse = ${cse}`);
      await binary.execute({ sql: lookup, rowsAsArray: true }, [77]);
      const [rows] = await binary.execute({ sql: lookup, rowsAsArray: true }, [4321]);
      return { rows: rows as unknown[], scanned: await scannedRows() };
    };
    const plainLookup = await lookupWith(false);
    const sharedLookup = await lookupWith(true);
    assert.equal(plainLookup.rows.length, 1);
    assert.deepEqual(sharedLookup.rows, plainLookup.rows);
    assert.ok(plainLookup.scanned > 0 && plainLookup.scanned < 8000, `pruned: ${plainLookup.scanned}`);
    assert.equal(sharedLookup.scanned, plainLookup.scanned);
    await binary.end();
  } finally {
    await conn.end();
    await server.stop();
  }
});
