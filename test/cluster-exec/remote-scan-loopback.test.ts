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
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { loadModelTables, MODEL_QUERIES, queryAll } from '../helpers/model-tables';
import { connect, queryRows, type TextRow } from '../helpers/mysql-client';

const QUERIES = MODEL_QUERIES;
const answers = (port: number): Promise<TextRow[][]> => queryAll(port, 'rs', QUERIES);

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
    await loadModelTables(conn, 'rs');
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
