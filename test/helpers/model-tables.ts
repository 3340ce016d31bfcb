/**
 * The tables of every model that the remote-scan tests read (DUPLICATE, UNIQUE merge-on-write with
 * deletes, UNIQUE merge-on-read, AGGREGATE, a RANGE-partitioned one; ARRAY and JSON columns), filled with
 * the same seeded rows on every run, and the queries that compare a read through BEs with a direct one:
 * filters, aggregates (partial states from the BEs), a join, TopN with lazy materialization, ORDER BY,
 * LIMIT / OFFSET, point lookups, partition pruning.
 */
import type * as mysql from 'mysql2/promise';
import { mulberry32 } from '../../src/common/prng';
import { connect, queryRows, type TextRow } from './mysql-client';

let random = mulberry32(23);
const maybe = (text: string): string => (random() < 0.1 ? 'NULL' : text);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

function randomRow(id: number): string {
  const tags = maybe(`[${Array.from({ length: Math.floor(random() * 3) }, () => Math.floor(random() * 10)).join(',')}]`);
  return `(${id}, ${maybe(String(Math.floor(random() * 100)))}, ${maybe(`'${pick(['a', 'b', 'c'])}'`)}, ${maybe(String(Math.floor(random() * 2000) - 1000))}, ${maybe((random() * 10000 - 5000).toFixed(2))}, ${maybe(`'2024-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}'`)}, ${tags}, ${maybe(`'{"n":${Math.floor(random() * 5)},"s":"${pick(['x', 'y'])}"}'`)})`;
}

const COLUMNS = 'id INT, k INT, g VARCHAR(4), x INT, d DECIMAL(10,2), dt DATE, tags ARRAY<INT>, j JSON';

/** The queries (22) over the tables `loadModelTables` makes; [1] reads dup's 5 tablets, [4] is a point lookup. */
export const MODEL_QUERIES = [
  'SELECT count(*), count(x), sum(x), avg(x), min(d), max(d), min(dt), max(g) FROM dup',
  'SELECT g, count(*), sum(x), min(d), max(dt) FROM dup WHERE k > 20 GROUP BY g ORDER BY g',
  'SELECT k % 7, count(*), sum(d) FROM dup WHERE x IS NOT NULL GROUP BY k % 7 ORDER BY 1',
  'SELECT id, k, d, g FROM dup WHERE k BETWEEN 10 AND 12 AND x > 0 ORDER BY id',
  'SELECT id, g, x FROM dup WHERE id = 4321',
  'SELECT id, g, x FROM dup WHERE id IN (7, 77, 777, 7777)',
  'SELECT id, x, d, g, dt, tags, j FROM dup ORDER BY x DESC, id LIMIT 7',
  'SELECT id, x, tags, j FROM dup WHERE g = \'a\' ORDER BY d, id LIMIT 5 OFFSET 3',
  'SELECT id, x FROM dup LIMIT 9',
  'SELECT id, tags, j FROM dup WHERE array_contains(tags, 3) ORDER BY id LIMIT 20',
  'SELECT id, j, json_extract(j, \'$.s\') FROM dup WHERE id < 30 ORDER BY id',
  'SELECT size(tags), count(*) FROM dup GROUP BY 1 ORDER BY 1',
  'SELECT a.g, count(*), sum(b.x) FROM dup a JOIN uniq b ON a.id = b.id WHERE a.k < 30 GROUP BY a.g ORDER BY a.g',
  'SELECT g, count(*), sum(x), max(d) FROM uniq WHERE k > 9 GROUP BY g ORDER BY g',
  'SELECT id, k, d FROM uniq WHERE k < 3 ORDER BY id',
  'SELECT id, x FROM uniq WHERE id = 1234',
  'SELECT g, k, count(*), sum(x), max(d) FROM agg WHERE x > 0 GROUP BY g, k ORDER BY g, k',
  'SELECT id, x, g FROM mor WHERE k < 5 ORDER BY id',
  'SELECT count(*), sum(x) FROM mor',
  'SELECT dt, count(*), sum(x) FROM part WHERE dt >= \'2024-05-01\' GROUP BY dt ORDER BY dt',
  'SELECT count(*), sum(x) FROM part WHERE dt < \'2024-03-01\'',
  'SELECT id, dt FROM part WHERE id < 40 ORDER BY id',
];

/** Every query's rows, in order, over one connection to `port` using `database`. */
export async function queryAll(port: number, database: string, queries: readonly string[]): Promise<TextRow[][]> {
  const conn = await connect(port);
  try {
    await conn.query(`USE ${database}`);
    const out: TextRow[][] = [];
    for (const sql of queries) out.push(await queryRows(conn, sql));
    return out;
  } finally {
    await conn.end();
  }
}

/** Create `database` with the five tables and load them: 4 INSERTs of 1500 rows each, then a DELETE on dup and on uniq. */
export async function loadModelTables(conn: mysql.Connection, database: string): Promise<void> {
  random = mulberry32(23); // the same rows on every load
  await conn.query(`CREATE DATABASE ${database}`);
  await conn.query(`USE ${database}`);
  await conn.query(`CREATE TABLE dup (${COLUMNS}) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 5`);
  await conn.query(`CREATE TABLE uniq (${COLUMNS}) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3`);
  await conn.query(`CREATE TABLE mor (${COLUMNS}) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3 PROPERTIES ('enable_unique_key_merge_on_write' = 'false')`);
  await conn.query('CREATE TABLE agg (id INT, k INT, g VARCHAR(4), x BIGINT SUM, d DECIMAL(10,2) MAX) AGGREGATE KEY(id, k, g) DISTRIBUTED BY HASH(id) BUCKETS 3');
  await conn.query(`CREATE TABLE part (id INT, dt DATE, x INT) DUPLICATE KEY(id) PARTITION BY RANGE(dt) (PARTITION p1 VALUES LESS THAN ('2024-04-01'), PARTITION p2 VALUES LESS THAN ('2024-12-31')) DISTRIBUTED BY HASH(id) BUCKETS 2`);
  for (let chunk = 0; chunk < 4; chunk++) {
    const rows = Array.from({ length: 1500 }, (_v, idx) => randomRow(chunk * 1500 + idx));
    await conn.query(`INSERT INTO dup VALUES ${rows.join(',')}`);
    const overlapping = rows.map((row) => row.replace(/^\((\d+)/, (_m, id: string) => `(${Number(id) % 2000}`)).join(',');
    await conn.query(`INSERT INTO uniq VALUES ${overlapping}`);
    await conn.query(`INSERT INTO mor VALUES ${overlapping}`);
    await conn.query(`INSERT INTO agg SELECT id % 500, k % 3, g, x, d FROM dup WHERE id >= ${chunk * 1500}`);
    await conn.query(`INSERT INTO part SELECT id, dt, x FROM dup WHERE id >= ${chunk * 1500} AND dt IS NOT NULL`);
  }
  await conn.query('DELETE FROM uniq WHERE k = 50');
  await conn.query('DELETE FROM dup WHERE k = 51');
}
