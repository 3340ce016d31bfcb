/**
 * Runtime filters through a real server and mysql2: a hash join's build keys filter its probe side's
 * scan — in the scan workers (a SCAN FRAGMENT probe) and in-thread — for INT, BIGINT, VARCHAR, DATE and
 * DECIMAL keys, as IN filters and as bloom filters (runtime_filter_max_in_num = 0), with NULL keys on
 * both sides. Every answer equals runtime_filter_mode = OFF, and the profile counts the rows the filters
 * dropped (RuntimeFilterInfo.RowsFilteredByRuntimeFilter per scan, the built filter per join).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as mysql from 'mysql2/promise';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows, type TextRow } from '../helpers/mysql-client';

const FACT_ROWS = 8000;
const KEYS = ['k', 'kb', 'ks', 'kd', 'kdec'];

function factRow(id: number): string {
  if (id % 97 === 0) return `(${id}, NULL, NULL, NULL, NULL, NULL)`; // NULL keys never match
  const key = id % 400;
  const day = String((key % 28) + 1).padStart(2, '0');
  const month = String((Math.floor(key / 28) % 12) + 1).padStart(2, '0');
  return `(${id}, ${key}, ${10_000_000_000 + key}, 's${key}', '2024-${month}-${day}', ${key}.25)`;
}

function dimRow(key: number | null): string {
  if (key === null) return "(NULL, NULL, NULL, NULL, NULL, 'none')";
  const day = String((key % 28) + 1).padStart(2, '0');
  const month = String((Math.floor(key / 28) % 12) + 1).padStart(2, '0');
  return `(${key}, ${10_000_000_000 + key}, 's${key}', '2024-${month}-${day}', ${key}.25, 'n${key}')`;
}

/** A SCAN FRAGMENT probe (the WHERE on the fact table) and a plain in-thread probe, per key column. */
const QUERIES = KEYS.flatMap((key) => [
  `SELECT f.id, d.name FROM fact f JOIN dim d ON f.${key} = d.${key} WHERE f.id % 3 <> 1 ORDER BY f.id, d.name`,
  `SELECT count(*), sum(f.id) FROM fact f JOIN dim d ON f.${key} = d.${key}`,
]);

async function answers(conn: mysql.Connection): Promise<TextRow[][]> {
  const out: TextRow[][] = [];
  for (const sql of QUERIES) out.push(await queryRows(conn, sql));
  return out;
}

function counterSum(profile: Map<string, string>, pattern: RegExp): number {
  return [...profile].filter(([name]) => pattern.test(name)).reduce((sum, [, value]) => sum + Number(value), 0);
}

test('runtime filters over a real server: same answers as OFF, rows filtered in the workers and in-thread', async () => {
  const server = await startGalene({ dataDir: makeDataDir('galene-rf-'), args: ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000'] });
  const conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE rf');
    await conn.query('USE rf');
    await conn.query('CREATE TABLE fact (id INT, k INT, kb BIGINT, ks VARCHAR(10), kd DATE, kdec DECIMAL(10, 2)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
    await conn.query('CREATE TABLE dim (k INT, kb BIGINT, ks VARCHAR(10), kd DATE, kdec DECIMAL(10, 2), name VARCHAR(10)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    for (let chunk = 0; chunk < 4; chunk++) {
      await conn.query(`INSERT INTO fact VALUES ${Array.from({ length: FACT_ROWS / 4 }, (_v, idx) => factRow(chunk * (FACT_ROWS / 4) + idx)).join(',')}`);
    }
    // 12 keys of 400, spread over the range (min/max alone would keep most rows), and a NULL key.
    await conn.query(`INSERT INTO dim VALUES ${[3, 40, 77, 100, 150, 201, 222, 260, 301, 333, 350, 399, null].map(dimRow).join(',')}`);

    // dim is read whole: with enable_runtime_filter_prune (the default) its keys would make no filter.
    assert.doesNotMatch((await queryRows(conn, `EXPLAIN ${QUERIES[0]}`)).map(([line]) => line).join('\n'), /runtime filters/);
    await conn.query('SET enable_runtime_filter_prune = false');
    const plan = (await queryRows(conn, `EXPLAIN ${QUERIES[0]}`)).map(([line]) => line).join('\n');
    assert.match(plan, /runtime filters: RF000\[in_or_bloom\] <- k, RF001\[min_max\] <- k/);
    assert.match(plan, /SCAN FRAGMENT #\d+[\s\S]*TABLE SCAN #\d+[\s\S]*runtime filters: RF000\[in_or_bloom\] -> k, RF001\[min_max\] -> k/);

    await conn.query("SET runtime_filter_mode = 'OFF'");
    const off = await answers(conn);
    assert.doesNotMatch((await queryRows(conn, `EXPLAIN ${QUERIES[0]}`)).map(([line]) => line).join('\n'), /runtime filters/);
    await conn.query("SET runtime_filter_mode = 'GLOBAL'");

    for (const maxIn of [1024, 0]) {
      await conn.query(`SET runtime_filter_max_in_num = ${maxIn}`);
      for (let queryIdx = 0; queryIdx < QUERIES.length; queryIdx++) {
        const sql = QUERIES[queryIdx];
        assert.ok(off[queryIdx].length > 0 && off[queryIdx][0][0] !== '0', `${sql} returns rows`);
        assert.deepEqual(await queryRows(conn, sql), off[queryIdx], `max_in_num ${maxIn}: ${sql}`);
        const profile = await lastQueryProfile(conn);
        const filtered = counterSum(profile, /^TableScan#\d+\.RuntimeFilterInfo\.RowsFilteredByRuntimeFilter$/);
        const tested = counterSum(profile, /^TableScan#\d+\.RuntimeFilterInfo\.RuntimeFilterInputRows$/);
        // 12 of 400 keys match: the filters drop at least nine rows in ten of those they test.
        assert.ok(tested > 0 && filtered >= tested * 0.9, `max_in_num ${maxIn}: ${sql}: ${filtered} of ${tested} filtered`);
        const kind = maxIn === 0 ? /\.RuntimeFilterInfo\.RF000\.BloomFilterBytes$/ : /\.RuntimeFilterInfo\.RF000\.InFilterSize$/;
        assert.ok(counterSum(profile, new RegExp(`^HashJoin#\\d+${kind.source}`)) > 0, `max_in_num ${maxIn}: ${sql}: the join built its filter`);
        if (queryIdx % 2 === 0) assert.ok(Number(profile.get('ParallelScanTasks') ?? 0) >= 2, `${sql}: the probe ran in the workers`);
      }
    }
  } finally {
    await conn.end();
    await server.stop();
  }
});
