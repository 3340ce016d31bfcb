/**
 * Peer Read between BE processes (seed 000): 1 `galene fe` and 2 `galene be` in two compute groups over
 * one S3 vault (s3rver behind the fault proxy). The write group's BE reads a table first (its cache is
 * warm); the read group's BE, with `enable_cache_read_from_peer`, then answers the same queries from the
 * write group's cache: its /metrics count peer reads and no object-store reads for those blocks, the
 * write group's count the blocks it served, and the answers equal the write group's. With no candidates,
 * a read goes to storage and asks the FE (GetTabletPeers) in the background; /api/peer_cache shows what it
 * learnt; `/api/update_config` switches it off at run time. The same cluster checks USAGE_PRIV ON COMPUTE
 * GROUP (USE @cg, SET PROPERTY, SHOW COMPUTE GROUPS, the automatic group choice). A SIGKILLed peer never
 * fails a query. Every child is SIGKILLed at the end.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBackend, startFrontend, waitFor, type RoleProcess } from '../helpers/cluster-process';
import { makeDataDir } from '../helpers/galene-process';
import { connect, queryRecords, queryRows, type TextRow } from '../helpers/mysql-client';
import { useS3BehindProxy } from '../helpers/s3-behind-proxy';

const HEARTBEAT = ['--heartbeat_interval_ms', '200', '--max_backend_heartbeat_failure_times', '15'];
// Sequential mode: the loopback S3 here answers in a few ms, so a race would often go to storage.
const PEER = ['--enable_cache_read_from_peer', 'true', '--enable_peer_s3_race', 'false', '--scan_thread_num', '1'];
const QUERIES = ['SELECT count(*), sum(v), min(name), max(name) FROM pr.t', 'SELECT k, v, name FROM pr.t WHERE k % 97 = 3 ORDER BY k', 'SELECT name, count(*) FROM pr.t GROUP BY name ORDER BY name'];

async function beMetric(be: RoleProcess, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${be.ready['webserver_port']}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  assert.ok(line !== undefined, `${name} in the BE's /metrics`);
  return Number(line.split(' ')[1]);
}

async function peerCache(be: RoleProcess, query: string, method = 'GET', body?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${be.ready['webserver_port']}/api/peer_cache?${query}`, { method, ...(body === undefined ? {} : { body }) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('peer read between BE processes of two compute groups', () => {
  const s3 = useS3BehindProxy({ proxy: { latency: { p50Ms: 5, p99Ms: 20 }, seed: 7 } });
  const root = makeDataDir('galene-peer-');
  const children: RoleProcess[] = [];
  let queryPort: number;
  let writer: RoleProcess;
  let reader: RoleProcess;
  const dir = (name: string): string => {
    const full = path.join(root, name);
    fs.mkdirSync(full, { recursive: true });
    return full;
  };
  const answersIn = async (group: string, queries: readonly string[]): Promise<TextRow[][]> => {
    const conn = await connect(queryPort);
    try {
      await conn.query(`USE @${group}`);
      const out: TextRow[][] = [];
      for (const sql of queries) out.push(await queryRows(conn, sql));
      return out;
    } finally {
      await conn.end();
    }
  };

  before(async () => {
    const fe = await startFrontend(dir('fe'), HEARTBEAT);
    children.push(fe);
    queryPort = Number(fe.ready['query_port']);
    const feEndpoint = `127.0.0.1:${fe.ready['rpc_port']}`;
    [writer, reader] = await Promise.all([startBackend(dir('be_w'), feEndpoint, 'g_write', PEER), startBackend(dir('be_r'), feEndpoint, 'g_read', PEER)]);
    children.push(writer, reader);
    await waitFor('both BEs registered', async () => (writer.registrations.length > 0 && reader.registrations.length > 0 ? true : undefined));
    const conn = await connect(queryPort);
    try {
      await waitFor('both BEs alive', async () => ((await queryRecords(conn, 'SHOW BACKENDS')).filter((row) => row['Alive'] === 'true').length === 2 ? true : undefined));
      await s3.createVault(conn, 'peer_vault', 'peer-root');
      await conn.query('CREATE DATABASE pr');
      for (const table of ['t', 'lazy']) {
        await conn.query(`CREATE TABLE pr.${table} (k INT, v BIGINT, name VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("replication_num" = "1", "storage_vault_name" = "peer_vault")`);
        const rows = Array.from({ length: 3000 }, (_, idx) => `(${idx}, ${idx * 7}, 'n${idx % 13}')`).join(',');
        await conn.query(`INSERT INTO pr.${table} VALUES ${rows}`);
      }
    } finally {
      await conn.end();
    }
  });

  after(async () => {
    await Promise.all(children.map((child) => child.kill('SIGKILL')));
  });

  it('the read group reads the blocks the write group cached from its cache, not from storage', async () => {
    const expected = await answersIn('g_write', QUERIES);
    assert.equal(await beMetric(writer, 'doris_be_file_cache_get_by_peer_num'), 0);
    const conn = await connect(queryPort);
    let tablets: number[];
    try {
      tablets = (await queryRecords(conn, 'SHOW TABLETS FROM pr.t')).map((row) => Number(row['TabletId']));
    } finally {
      await conn.end();
    }
    assert.equal(tablets.length, 2);
    // Manual candidates (an operator's op=set): the write BE for every tablet of the table.
    for (const tabletId of tablets) {
      const set = await peerCache(reader, `op=set&tablet_id=${tabletId}`, 'POST', JSON.stringify([{ host: '127.0.0.1', brpc_port: Number(writer.ready['brpc_port']), compute_group_id: 'g_write_id' }]));
      assert.equal(set.status, 200, JSON.stringify(set.json));
    }
    const storageBefore = await beMetric(reader, 'doris_be_cached_remote_reader_s3_read');
    const got = await answersIn('g_read', QUERIES);
    assert.deepEqual(got, expected, 'the read group answers as the write group');
    assert.ok((await beMetric(reader, 'doris_be_cached_remote_reader_peer_read')) > 0, 'the read BE read from its peer');
    assert.equal(await beMetric(reader, 'doris_be_cached_remote_reader_s3_read'), storageBefore, 'and nothing of pr.t from storage');
    assert.ok((await beMetric(writer, 'doris_be_file_cache_get_by_peer_success_num')) > 0, 'the write BE served blocks');
    const shown = await peerCache(reader, `op=show&tablet_id=${tablets[0]}`);
    assert.equal(shown.json['last_successful_compute_group_id'], 'g_write_id');
  });

  it('with no candidates, reads storage and learns the tablet owners from the FE in the background', async () => {
    await answersIn('g_write', ['SELECT sum(v) FROM pr.lazy']);
    const triggered = await beMetric(reader, 'doris_be_peer_lazy_fetch_triggered');
    const got = await answersIn('g_read', ['SELECT sum(v) FROM pr.lazy']);
    assert.equal(got[0]![0]![0], String((2999 * 3000 / 2) * 7));
    assert.ok((await beMetric(reader, 'doris_be_peer_lazy_fetch_triggered')) > triggered, 'the miss asked the FE');
    const conn = await connect(queryPort);
    let tablets: number[];
    try {
      tablets = (await queryRecords(conn, 'SHOW TABLETS FROM pr.lazy')).map((row) => Number(row['TabletId']));
    } finally {
      await conn.end();
    }
    const learnt = await waitFor('the FE answer in /api/peer_cache', async () => {
      const shown = await peerCache(reader, `op=show&tablet_id=${tablets[0]}`);
      const candidates = (shown.json['candidates'] ?? []) as { brpc_port: number; source: string }[];
      return candidates.length > 0 ? candidates : undefined;
    });
    assert.deepEqual(learnt.map((peer) => [peer.brpc_port, peer.source]), [[Number(writer.ready['brpc_port']), 'fe']], 'the write group\'s owner, never the reader itself');
  });

  it('/api/update_config changes a BE setting at run time: with Peer Read switched off, misses go to storage', async () => {
    const update = async (query: string, method = 'POST'): Promise<{ status: number; json: { status: string; msg: string } }> => {
      const response = await fetch(`http://127.0.0.1:${reader.ready['webserver_port']}/api/update_config?${query}`, { method });
      return { status: response.status, json: (await response.json()) as { status: string; msg: string } };
    };
    assert.deepEqual((await update('peer_race_hedge_delay_ms=30')).json, { status: 'OK', msg: '' });
    assert.match((await update('no_such_setting=1')).json.msg, /\[NOT_FOUND\]'no_such_setting' is not found/);
    assert.match((await update('brpc_peer_fetch_pool_threads=8')).json.msg, /is not support to modify/);
    assert.match((await update('peer_race_hedge_delay_ms=-1')).json.msg, /\[INVALID_ARGUMENT\]/);
    assert.equal((await update('peer_race_hedge_delay_ms=30', 'GET')).status, 405);
    assert.deepEqual((await update('enable_cache_read_from_peer=false')).json, { status: 'OK', msg: '' });
    try {
      const conn = await connect(queryPort);
      try {
        await conn.query("INSERT INTO pr.lazy VALUES (7000, 1, 'off'), (7001, 1, 'off'), (7002, 1, 'off'), (7003, 1, 'off')");
      } finally {
        await conn.end();
      }
      await answersIn('g_write', ['SELECT count(*), sum(v) FROM pr.lazy WHERE name = \'off\'']);
      const peerReads = await beMetric(reader, 'doris_be_cached_remote_reader_peer_read');
      const storageReads = await beMetric(reader, 'doris_be_cached_remote_reader_s3_read');
      assert.deepEqual(await answersIn('g_read', ['SELECT count(*), sum(v) FROM pr.lazy WHERE name = \'off\'']), [[['4', '4']]]);
      assert.equal(await beMetric(reader, 'doris_be_cached_remote_reader_peer_read'), peerReads, 'no peer read while switched off');
      assert.ok((await beMetric(reader, 'doris_be_cached_remote_reader_s3_read')) > storageReads);
    } finally {
      assert.deepEqual((await update('enable_cache_read_from_peer=true')).json, { status: 'OK', msg: '' });
    }
  });

  it('USAGE_PRIV ON COMPUTE GROUP decides USE @cg, SET PROPERTY, SHOW COMPUTE GROUPS and the group a query reads through', async () => {
    const root = await connect(queryPort);
    try {
      await root.query("CREATE USER jack IDENTIFIED BY 'pw'");
      await root.query('GRANT SELECT_PRIV ON pr.* TO jack');
      const asJack = async <T>(use: (conn: Awaited<ReturnType<typeof connect>>) => Promise<T>): Promise<T> => {
        const conn = await connect(queryPort, { user: 'jack', password: 'pw' });
        try {
          return await use(conn);
        } finally {
          await conn.end();
        }
      };
      const errorOf = async (conn: Awaited<ReturnType<typeof connect>>, sql: string): Promise<{ errno?: number; sqlMessage?: string }> => {
        try {
          await conn.query(sql);
        } catch (err) {
          return err as { errno?: number; sqlMessage?: string };
        }
        assert.fail(`${sql} should fail`);
      };
      await asJack(async (conn) => {
        const denied = await errorOf(conn, 'USE @g_read');
        assert.equal(denied.errno, 5042);
        assert.match(denied.sqlMessage ?? '', /USAGE denied to user 'jack'@'[^']+' for compute group 'g_read'/);
        assert.deepEqual(await queryRows(conn, 'SHOW COMPUTE GROUPS'), []);
        assert.match((await errorOf(conn, 'SELECT sum(v) FROM pr.t')).sqlMessage ?? '', /USAGE denied to user 'jack'/);
      });
      await root.query('GRANT USAGE_PRIV ON COMPUTE GROUP g_write TO jack');
      const served = await beMetric(writer, 'doris_be_fragment_requests_total');
      await asJack(async (conn) => {
        assert.deepEqual((await queryRows(conn, 'SHOW COMPUTE GROUPS')).map((row) => row[0]), ['g_write']);
        assert.match((await errorOf(conn, "SET PROPERTY 'default_compute_group' = 'g_read'")).sqlMessage ?? '', /for compute group 'g_read'/);
        // g_read sorts first, but jack may only use g_write: the automatic choice reads through it.
        assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM pr.t WHERE v >= 0'), [['3000']]);
        await conn.query('USE @g_write');
      });
      assert.ok((await beMetric(writer, 'doris_be_fragment_requests_total')) > served, 'the query ran on g_write');
      await root.query('REVOKE USAGE_PRIV ON COMPUTE GROUP g_write FROM jack');
      await asJack(async (conn) => assert.equal((await errorOf(conn, 'USE @g_write')).errno, 5042));
    } finally {
      await root.end();
    }
  });

  it('a killed peer never fails a query: storage answers', async () => {
    await writer.kill('SIGKILL');
    const storageBefore = await beMetric(reader, 'doris_be_cached_remote_reader_s3_read');
    const conn = await connect(queryPort);
    try {
      // A new segment: the read BE misses, and its only candidate for pr.t is gone.
      await conn.query("INSERT INTO pr.t VALUES (5000, 1, 'late'), (5001, 2, 'late')");
      await conn.query('USE @g_read');
      const rows = await queryRows(conn, 'SELECT count(*), sum(v) FROM pr.t WHERE name >= \'a\'');
      assert.deepEqual(rows, [['3002', String((2999 * 3000 / 2) * 7 + 3)]]);
    } finally {
      await conn.end();
    }
    assert.ok((await beMetric(reader, 'doris_be_cached_remote_reader_s3_read')) > storageBefore, 'the new segment came from storage');
  });
});
