/**
 * Queries read through the BE processes: 1 `galene fe` + 2 `galene be` in one compute group, the BEs
 * reading the FE's object store (--object_store_dir). Tables of every model (helpers/model-tables.ts:
 * DUPLICATE, UNIQUE merge-on-write with deletes, UNIQUE merge-on-read, AGGREGATE, a partitioned one) are
 * loaded through the FE and queried through the BEs (22 queries); the answers equal an embedded `galene start` over the same data directory
 * afterwards. The profile names both BEs and each BE's /metrics counts its calls; a LIMIT that stops early
 * cancels the BE's scan; a SIGKILLed BE's tablets are read by the other (failover while
 * the FE still thinks it alive, placement once heartbeats mark it dead) with the same answers; a group
 * without a live BE gets Doris's error. Every child is SIGKILLed at the end.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startBackend, startFrontend, waitFor, type RoleProcess } from '../helpers/cluster-process';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { loadModelTables, MODEL_QUERIES, queryAll } from '../helpers/model-tables';
import { connect, lastQueryProfile, queryRecords, queryRows, type TextRow } from '../helpers/mysql-client';

// Heartbeats every 200 ms; a BE is dead after 15 missed ones, which leaves the queries right after a
// SIGKILL to the failover path (the FE still thinks the BE alive; checked, never assumed).
const HEARTBEAT = ['--heartbeat_interval_ms', '200', '--max_backend_heartbeat_failure_times', '15'];
const SCAN = ['--scan_thread_num', '2', '--parallel_scan_min_rows_per_scanner', '1000'];
const GROUP = 'etl';

const QUERIES = MODEL_QUERIES;
const answers = (port: number): Promise<TextRow[][]> => queryAll(port, 'dist', QUERIES);

/** A series of a BE process's /metrics (webserver_port). */
async function beMetric(be: RoleProcess, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${be.ready['webserver_port']}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  assert.ok(line !== undefined, `${name} in the BE's /metrics`);
  return Number(line.split(' ')[1]);
}

describe('queries read through the BE processes', () => {
  const root = makeDataDir('galene-dist-');
  const children: RoleProcess[] = [];
  const feDir = path.join(root, 'fe');
  let fe: RoleProcess;
  let be1: RoleProcess;
  let bes: RoleProcess[];
  let queryPort: number;
  let id1: number;
  let id2: number;
  let beforeKill: TextRow[][];
  let afterKill: TextRow[][];
  let afterDead: TextRow[][];
  const dir = (name: string): string => {
    const full = path.join(root, name);
    fs.mkdirSync(full, { recursive: true });
    return full;
  };
  const withSession = async <T>(use: (conn: Awaited<ReturnType<typeof connect>>) => Promise<T>): Promise<T> => {
    const conn = await connect(queryPort);
    try {
      return await use(conn);
    } finally {
      await conn.end();
    }
  };
  const aliveOf = async (id: number): Promise<string> => {
    return withSession(async (conn) => {
      return String((await queryRecords(conn, 'SHOW BACKENDS')).find((row) => Number(row['BackendId']) === id)?.['Alive']);
    });
  };

  before(async () => {
    fe = await startFrontend(dir('fe'), [...HEARTBEAT, ...SCAN]);
    children.push(fe);
    queryPort = Number(fe.ready['query_port']);
    const feEndpoint = `127.0.0.1:${fe.ready['rpc_port']}`;
    const beArgs = ['--object_store_dir', path.join(feDir, 'objects'), ...SCAN];
    bes = await Promise.all([startBackend(dir('be1'), feEndpoint, GROUP, beArgs), startBackend(dir('be2'), feEndpoint, GROUP, beArgs)]);
    children.push(...bes);
    be1 = bes[0];
    [id1, id2] = await waitFor('both BEs registered', async () => (bes.every((be) => be.registrations.length > 0) ? bes.map((be) => be.registrations[0]) : undefined));
    await waitFor('both BEs alive', async () => ((await aliveOf(id1)) === 'true' && (await aliveOf(id2)) === 'true' ? true : undefined));
    await withSession(async (conn) => {
      // The FE's own BE writes the loads; a DELETE reads its rows through the BEs (MoW delete bitmaps in the descriptors).
      await loadModelTables(conn, 'dist');
    });
  });

  after(async () => {
    for (const child of children) await child.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('runs the queries on both BEs of the group (the profile names each), over the FE\'s loads', async () => {
    beforeKill = await answers(queryPort);
    await withSession(async (conn) => {
      await conn.query('USE dist');
      // Placement hashes each tablet to one BE: over the tablets of these five tables both BEs own some.
      const calls = new Map<number, number>();
      const rowsRead = new Map<number, number>();
      for (const sql of [QUERIES[1], QUERIES[13], QUERIES[16], QUERIES[17], QUERIES[19]]) {
        await queryRows(conn, sql);
        const profile = await lastQueryProfile(conn);
        let sum = 0;
        for (const id of [id1, id2]) {
          calls.set(id, (calls.get(id) ?? 0) + Number(profile.get(`Backend[${id}].ScanCalls`) ?? 0));
          rowsRead.set(id, (rowsRead.get(id) ?? 0) + Number(profile.get(`Backend[${id}].RowsRead`) ?? 0));
          sum += Number(profile.get(`Backend[${id}].ScanCalls`) ?? 0);
        }
        assert.equal(sum, Number(profile.get('TabletsScanned')), `every tablet of ${sql} was one call to a BE of the group: ${JSON.stringify([...profile])}`);
      }
      for (const id of [id1, id2]) {
        assert.ok(calls.get(id)! >= 1, `backend ${id} read tablets`);
        assert.ok(rowsRead.get(id)! > 0, `backend ${id} read rows`);
      }
      await queryRows(conn, QUERIES[4]);
      assert.equal(Number((await lastQueryProfile(conn)).get('TabletsPruned')), 4, 'a point lookup calls only the tablet its key hashes to');
      for (const be of bes) assert.ok((await beMetric(be, 'doris_be_fragment_requests_total')) >= 1, 'each BE process\'s /metrics counts the calls it served');
    });
  });

  it('sessions reading at the same time get the same answers', async () => {
    const concurrent = await Promise.all(Array.from({ length: 4 }, () => answers(queryPort)));
    for (const run of concurrent) assert.deepEqual(run, beforeKill);
  });

  it('a LIMIT that stops reading early cancels the scan on the BE process', async () => {
    await withSession(async (conn) => {
      await conn.query('USE dist');
      await conn.query('CREATE TABLE big (n BIGINT, s VARCHAR(40)) DUPLICATE KEY(n) DISTRIBUTED BY HASH(n) BUCKETS 1');
      await conn.query('INSERT INTO big SELECT number, concat(\'row-\', number) FROM numbers("number" = "200000")');
      const cancelled = async (): Promise<number> => (await beMetric(bes[0], 'doris_be_fragment_requests_cancelled_total')) + (await beMetric(bes[1], 'doris_be_fragment_requests_cancelled_total'));
      const before = await cancelled();
      // Not a scan predicate: the FE's LIMIT stops reading after 5 rows of the one tablet's stream.
      assert.equal((await queryRows(conn, 'SELECT n FROM big WHERE n % 2 = 0 LIMIT 5')).length, 5);
      await waitFor('the BE saw its scan cancelled, none left running', async () => {
        const running = (await beMetric(bes[0], 'doris_be_fragment_instance_count')) + (await beMetric(bes[1], 'doris_be_fragment_instance_count'));
        return (await cancelled()) === before + 1 && running === 0 ? true : undefined;
      });
    });
  });

  it('a group with no live BE is refused in Doris\'s words, and the session can go back', async () => {
    await withSession(async (conn) => {
      // A member that never answers a heartbeat: its group exists but has no live BE.
      await conn.query('ALTER SYSTEM ADD BACKEND \'127.0.0.1:1\' PROPERTIES ("tag.compute_group_name" = "idle")');
      await conn.query('USE dist@idle');
      await assert.rejects(queryRows(conn, 'SELECT count(*) FROM dup'), /There is no scanNode Backend available\.\[no alive backend in compute group idle\]/);
      await conn.query(`USE @${GROUP}`);
      assert.deepEqual(await queryRows(conn, QUERIES[0]), beforeKill[0]);
      await conn.query('ALTER SYSTEM DROP BACKEND \'127.0.0.1:1\'');
    });
  });

  it('a SIGKILLed BE: its tablets fail over to the other BE, then placement moves them once it is dead', async () => {
    await be1.kill('SIGKILL');
    // Right after the kill the FE still routes to the dead BE: each call fails over before delivering.
    const stillAlive = await aliveOf(id1);
    afterKill = await answers(queryPort);
    await withSession(async (conn) => {
      await conn.query('USE dist');
      await queryRows(conn, QUERIES[1]);
      const profile = await lastQueryProfile(conn);
      if (stillAlive === 'true' && (await aliveOf(id1)) === 'true') assert.ok(Number(profile.get('RemoteScanRetries') ?? 0) >= 1, `the dead BE's calls were retried: ${JSON.stringify([...profile])}`);
      await waitFor('the killed BE not alive', async () => ((await aliveOf(id1)) === 'false' ? true : undefined));
      afterDead = await answers(queryPort);
      await queryRows(conn, QUERIES[1]);
      const moved = await lastQueryProfile(conn);
      assert.equal(moved.get(`Backend[${id1}].ScanCalls`), undefined, 'no call goes to the dead BE');
      assert.equal(moved.get('RemoteScanRetries'), undefined, 'placement, not failover, sends its tablets on');
      assert.ok(Number(moved.get(`Backend[${id2}].ScanCalls`)) >= 5, 'the live BE reads every tablet');
    });
    for (let queryIdx = 0; queryIdx < QUERIES.length; queryIdx++) {
      assert.deepEqual(afterKill[queryIdx], beforeKill[queryIdx], `after the kill: ${QUERIES[queryIdx]}`);
      assert.deepEqual(afterDead[queryIdx], beforeKill[queryIdx], `once dead: ${QUERIES[queryIdx]}`);
    }
  });

  it('answers exactly as an embedded galene start over the same data directory', async () => {
    for (const child of children) await child.kill('SIGKILL');
    const embedded = await startGalene({ dataDir: feDir, args: SCAN, storage: 'local' });
    try {
      const direct = await answers(embedded.ports.query_port);
      for (let queryIdx = 0; queryIdx < QUERIES.length; queryIdx++) {
        assert.ok(direct[queryIdx].length > 0, `${QUERIES[queryIdx]} returns rows`);
        assert.deepEqual(beforeKill[queryIdx], direct[queryIdx], QUERIES[queryIdx]);
      }
    } finally {
      await embedded.kill('SIGKILL');
    }
  });
});
