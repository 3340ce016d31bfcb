/**
 * The cluster FE's read path (fe/remote-table-source.ts -> be/fragment-executor.ts, every call and item
 * through the wire codec) inside one server (`debug_remote_scan_backends`), in process and over real gRPC
 * (`debug_remote_scan_transport = grpc`, the BE's FragmentService on a local port): the same data answers the
 * same queries — filters, aggregates with partial states from the BEs, joins, TopN with lazy
 * materialization (global row ids mapped per tablet), ORDER BY, LIMIT, partitions, ARRAY and JSON
 * columns, every table model — exactly as the direct read does, rows in the same order; the profile
 * shows which backend read what; a backend that cannot be reached has its tablets read by another (over
 * gRPC: a port nothing listens on); over gRPC a LIMIT that stops early cancels the BE's scan stream.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../src/common/prng';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows, type TextRow } from '../helpers/mysql-client';

const random = mulberry32(23);
const maybe = (text: string): string => (random() < 0.1 ? 'NULL' : text);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

function randomRow(id: number): string {
  const tags = maybe(`[${Array.from({ length: Math.floor(random() * 3) }, () => Math.floor(random() * 10)).join(',')}]`);
  return `(${id}, ${maybe(String(Math.floor(random() * 100)))}, ${maybe(`'${pick(['a', 'b', 'c'])}'`)}, ${maybe(String(Math.floor(random() * 2000) - 1000))}, ${maybe((random() * 10000 - 5000).toFixed(2))}, ${maybe(`'2024-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}'`)}, ${tags}, ${maybe(`'{"n":${Math.floor(random() * 5)},"s":"${pick(['x', 'y'])}"}'`)})`;
}

const COLUMNS = 'id INT, k INT, g VARCHAR(4), x INT, d DECIMAL(10,2), dt DATE, tags ARRAY<INT>, j JSON';

const QUERIES = [
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

async function answers(port: number): Promise<TextRow[][]> {
  const conn = await connect(port);
  try {
    await conn.query('USE rs');
    const out: TextRow[][] = [];
    for (const sql of QUERIES) out.push(await queryRows(conn, sql));
    return out;
  } finally {
    await conn.end();
  }
}

async function lastProfile(conn: Awaited<ReturnType<typeof connect>>): Promise<Map<string, string>> {
  const [[id]] = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
  return new Map((await queryRows(conn, `SHOW QUERY PROFILE "/${id}"`)).map(([name, value]) => [name!, value!]));
}

test('reading through loopback backends (in-process and over gRPC) answers exactly as the direct read', async () => {
  const dataDir = makeDataDir('galene-remote-scan-');
  const common = ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000'];
  const server = await startGalene({ dataDir, args: common });
  let direct: TextRow[][];
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE rs');
    await conn.query('USE rs');
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
    await conn.end();
    direct = await answers(server.ports.query_port);
  } finally {
    await server.stop();
  }
  for (const transport of ['loopback', 'grpc']) await checkRemote(dataDir, [...common, '--debug_remote_scan_transport', transport], direct, transport);
});

/** A BE counter from its /metrics. */
async function beMetric(webserverPort: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${webserverPort}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  assert.ok(line !== undefined, `${name} in /metrics`);
  return Number(line.split(' ')[1]);
}

/** Every call went over gRPC, and a LIMIT that stops reading a big tablet cancels the BE's stream (its handler's signal fires). */
async function checkGrpcCancel(conn: Awaited<ReturnType<typeof connect>>, webserverPort: number): Promise<void> {
  assert.ok((await beMetric(webserverPort, 'doris_be_fragment_requests_total')) >= QUERIES.length, 'the scans were FragmentService calls');
  await conn.query('CREATE TABLE big (n BIGINT, s VARCHAR(40)) DUPLICATE KEY(n) DISTRIBUTED BY HASH(n) BUCKETS 1');
  await conn.query('INSERT INTO big SELECT number, concat(\'row-\', number) FROM numbers("number" = "200000")');
  const before = await beMetric(webserverPort, 'doris_be_fragment_requests_cancelled_total');
  // The filter is not a scan predicate, so the LIMIT is the FE's: it stops reading after 5 rows.
  assert.equal((await queryRows(conn, 'SELECT n FROM big WHERE n % 2 = 0 LIMIT 5')).length, 5);
  // The cancel reaches the BE after the answer: wait for it (a stream that is never cancelled fails the test).
  let cancelled = before;
  let running = 1;
  for (let attempt = 0; attempt < 400 && (cancelled === before || running > 0); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    cancelled = await beMetric(webserverPort, 'doris_be_fragment_requests_cancelled_total');
    running = await beMetric(webserverPort, 'doris_be_fragment_instance_count');
  }
  assert.equal(cancelled, before + 1, 'the BE saw its scan cancelled');
  assert.equal(running, 0, 'no scan stream left running on the BE');
}

/** The 22 queries through 2 backends over `transport` equal the direct read; the profile and the failover hook. */
async function checkRemote(dataDir: string, args: string[], direct: TextRow[][], transport: string): Promise<void> {
  const server = await startGalene({ dataDir, args: [...args, '--debug_remote_scan_backends', '2'] });
  try {
    const remote = await answers(server.ports.query_port);
    for (let queryIdx = 0; queryIdx < QUERIES.length; queryIdx++) {
      assert.ok(direct[queryIdx].length > 0, `${QUERIES[queryIdx]} returns rows`);
      assert.deepEqual(remote[queryIdx], direct[queryIdx], `${transport}: ${QUERIES[queryIdx]}`);
    }
    const conn = await connect(server.ports.query_port);
    try {
      await conn.query('USE rs');
      await queryRows(conn, QUERIES[1]);
      const profile = await lastProfile(conn);
      for (const backend of [1, 2]) assert.ok(Number(profile.get(`Backend[${backend}].ScanCalls`) ?? 0) >= 1, `backend ${backend} read tablets: ${JSON.stringify([...profile])}`);
      assert.equal(Number(profile.get('TabletsScanned')), 5, 'tablets counted once, by the FE');
      assert.ok(Number(profile.get('RowsRead')) > 0, 'the backends\' counters reach the statement profile');
      await queryRows(conn, QUERIES[4]);
      assert.equal(Number((await lastProfile(conn)).get('TabletsPruned')), 4, 'a point lookup calls only the tablet its key hashes to');
      // Backend 1 unreachable: its tablets are read by backend 2, with the same answers.
      await conn.query('ADMIN SET FRONTEND CONFIG ("debug_remote_scan_unreachable_backend" = "1")');
      for (const queryIdx of [1, 6, 13]) assert.deepEqual(await queryRows(conn, QUERIES[queryIdx]), direct[queryIdx], `${QUERIES[queryIdx]} after failover`);
      assert.ok(Number((await lastProfile(conn)).get('RemoteScanRetries') ?? 0) >= 1, 'the failed calls were retried elsewhere');
      if (transport === 'grpc') await checkGrpcCancel(conn, server.ports.webserver_port);
    } finally {
      await conn.end();
    }
  } finally {
    await server.stop();
  }
}
