/**
 * `galene fe` and `galene be` as real processes on loopback: registration, heartbeats (a short
 * heartbeat_interval_ms; states are polled, never timed), a SIGKILLed BE marked not alive and back with
 * the same id, an FE SIGKILLed and restarted with its membership intact and its BEs registered again,
 * ALTER SYSTEM ADD / DECOMMISSION / DROP BACKEND, RENAME COMPUTE GROUP, SHOW COMPUTE GROUPS, and bad
 * input (SQL and RPC) that gets Doris's words and changes nothing.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as mysql from 'mysql2/promise';
import { FRONTEND_SERVICE, HEARTBEAT_SERVICE } from '../../src/be/be-rpc-services';
import { RpcClient } from '../../src/io/rpc';
import { startBackend, startFrontend, waitFor, type RoleProcess } from '../helpers/cluster-process';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';

type Row = Record<string, unknown>;
const HEARTBEAT = ['--heartbeat_interval_ms', '150', '--max_backend_heartbeat_failure_times', '3'];

async function rows(port: number, sql: string): Promise<Row[]> {
  const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', password: '' });
  try {
    const [result] = await conn.query(sql);
    return result as Row[];
  } finally {
    await conn.end();
  }
}

async function sqlError(port: number, sql: string): Promise<string> {
  try {
    await rows(port, sql);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`expected ${sql} to fail`);
}

const groupOf = (row: Row): string => (JSON.parse(String(row['Tag'])) as Record<string, string>)['compute_group_name'];
const byId = (list: Row[], id: number): Row | undefined => list.find((row) => Number(row['BackendId']) === id);

describe('galene fe + galene be processes', () => {
  const root = makeDataDir('galene-cluster-');
  const children: RoleProcess[] = [];
  let fe: RoleProcess;
  let be1: RoleProcess;
  let be2: RoleProcess;
  let queryPort: number;
  let feEndpoint: string;
  let id1: number;
  let id2: number;
  const dir = (name: string): string => {
    const full = path.join(root, name);
    fs.mkdirSync(full, { recursive: true });
    return full;
  };
  const track = (child: RoleProcess): RoleProcess => (children.push(child), child);
  const backends = (): Promise<Row[]> => rows(queryPort, 'SHOW BACKENDS');
  const untilBackend = (what: string, id: number, ok: (row: Row) => boolean): Promise<Row> => waitFor(what, async () => {
    const row = byId(await backends(), id);
    return row !== undefined && ok(row) ? row : undefined;
  });

  before(async () => {
    fe = track(await startFrontend(dir('fe'), HEARTBEAT));
    queryPort = Number(fe.ready['query_port']);
    feEndpoint = `127.0.0.1:${fe.ready['rpc_port']}`;
    [be1, be2] = await Promise.all([startBackend(dir('be1'), feEndpoint, 'g1'), startBackend(dir('be2'), feEndpoint, 'g2')]).then((list) => list.map(track));
  });

  after(async () => {
    for (const child of children) await child.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('lists both BEs alive, each in its compute group, with the ports they bound', async () => {
    const list = await waitFor('two alive backends', async () => {
      const current = await backends();
      return current.length === 2 && current.every((row) => row['Alive'] === 'true') ? current : undefined;
    });
    const row1 = list.find((row) => Number(row['HeartbeatPort']) === Number(be1.ready['heartbeat_service_port']))!;
    const row2 = list.find((row) => Number(row['HeartbeatPort']) === Number(be2.ready['heartbeat_service_port']))!;
    assert.ok(row1 && row2, JSON.stringify(list));
    id1 = Number(row1['BackendId']);
    id2 = Number(row2['BackendId']);
    assert.notEqual(id1, id2);
    assert.equal(groupOf(row1), 'g1');
    assert.equal(groupOf(row2), 'g2');
    assert.equal(Number(row1['HttpPort']), Number(be1.ready['webserver_port']));
    assert.equal(Number(row1['BrpcPort']), Number(be1.ready['brpc_port']));
    assert.match(String(row1['Tag']), /^\{"cloud_unique_id" : "[0-9a-f]{32}", .*"compute_group_name" : "g1", .*"compute_group_id" : ".+"\}$/);
    assert.notEqual(row1['LastHeartbeat'], null);
    const health = await fetch(`http://127.0.0.1:${be1.ready['webserver_port']}/api/health`);
    assert.deepEqual(await health.json(), { status: 'OK', msg: 'To Be Added' });
  });

  it('SHOW COMPUTE GROUPS lists both groups; each BE owns every tablet of its one-BE group', async () => {
    assert.deepEqual(await rows(queryPort, 'SHOW COMPUTE GROUPS'), [
      { Name: 'g1', IsCurrent: 'FALSE', Users: '', BackendNum: 1 },
      { Name: 'g2', IsCurrent: 'FALSE', Users: '', BackendNum: 1 },
    ]);
    await rows(queryPort, 'CREATE DATABASE d');
    await rows(queryPort, 'CREATE TABLE d.t (k INT) DISTRIBUTED BY HASH(k) BUCKETS 4');
    const list = await backends();
    assert.equal(Number(byId(list, id1)!['TabletNum']), 4);
    assert.equal(Number(byId(list, id2)!['TabletNum']), 4);
  });

  it('a SIGKILLed BE becomes not alive after its missed heartbeats, and comes back with the same id', async () => {
    await be1.kill('SIGKILL');
    const dead = await untilBackend('backend 1 not alive', id1, (row) => row['Alive'] === 'false');
    assert.ok(Number(dead['HeartbeatFailureCounter']) >= 3);
    assert.notEqual(dead['ErrMsg'], '');
    assert.equal(byId(await backends(), id2)!['Alive'], 'true');
    be1 = track(await startBackend(dir('be1'), feEndpoint, 'g1'));
    const back = await untilBackend('backend 1 alive again', id1, (row) => row['Alive'] === 'true' && Number(row['HeartbeatPort']) === Number(be1.ready['heartbeat_service_port']));
    assert.equal(groupOf(back), 'g1');
    assert.equal((await backends()).length, 2);
  });

  it('an FE SIGKILLed and restarted keeps its membership, and its BEs register again', async () => {
    const before1 = be1.registrations.length;
    const before2 = be2.registrations.length;
    await fe.kill('SIGKILL');
    fe = track(await startFrontend(dir('fe'), HEARTBEAT, { query_port: queryPort, http_port: Number(fe.ready['http_port']), rpc_port: Number(fe.ready['rpc_port']) }));
    const list = await backends();
    assert.deepEqual(list.map((row) => Number(row['BackendId'])).sort(), [id1, id2].sort());
    assert.deepEqual(list.map(groupOf).sort(), ['g1', 'g2']);
    await waitFor('both BEs registered again', async () => (be1.registrations.length > before1 && be2.registrations.length > before2 ? true : undefined)).catch((err: Error) => {
      throw new Error(`${err.message}\nbe1: ${be1.stderr()}\nbe2: ${be2.stderr()}\n${JSON.stringify(be1.registrations)} ${before1}`);
    });
    assert.deepEqual([be1.registrations.at(-1), be2.registrations.at(-1)], [id1, id2]);
    await untilBackend('backend 1 alive', id1, (row) => row['Alive'] === 'true');
    await untilBackend('backend 2 alive', id2, (row) => row['Alive'] === 'true');
  });

  it('bad ALTER SYSTEM input gets Doris\'s words and changes nothing', async () => {
    const snapshot = (list: Row[]): string => JSON.stringify(list.map((row) => [row['BackendId'], row['Host'], row['HeartbeatPort'], row['Tag'], row['SystemDecommissioned']]));
    const before = snapshot(await backends());
    assert.match(await sqlError(queryPort, "ALTER SYSTEM DROP BACKEND '127.0.0.1:1'"), /backend does not exists\[127\.0\.0\.1:1\]/);
    assert.match(await sqlError(queryPort, "ALTER SYSTEM DECOMMISSION BACKEND '127.0.0.1:1'"), /Backend does not exist\[127\.0\.0\.1:1\]/);
    assert.match(await sqlError(queryPort, "ALTER SYSTEM ADD BACKEND 'no-port-here'"), /Invalid host port: no-port-here/);
    assert.match(await sqlError(queryPort, "ALTER SYSTEM ADD BACKEND '127.0.0.1:70000'"), /Port is out of range: 70000/);
    assert.match(await sqlError(queryPort, `ALTER SYSTEM ADD BACKEND '127.0.0.1:5', '127.0.0.1:${be1.ready['heartbeat_service_port']}'`), /Same backend already exists/);
    // One unknown endpoint among known ones: nothing is dropped.
    assert.match(await sqlError(queryPort, `ALTER SYSTEM DROP BACKEND '127.0.0.1:${be2.ready['heartbeat_service_port']}', '127.0.0.1:2'`), /backend does not exists\[127\.0\.0\.1:2\]/);
    assert.match(await sqlError(queryPort, 'ALTER SYSTEM RENAME COMPUTE GROUP nope g9'), /compute group 'nope' not exist/);
    assert.match(await sqlError(queryPort, 'ALTER SYSTEM RENAME COMPUTE GROUP g1 g2'), /compute group 'g2' has existed/);
    assert.match(await sqlError(queryPort, 'USE @nope'), /compute group 'nope' not exist/);
    assert.match(await sqlError(queryPort, `ALTER SYSTEM ADD BACKEND '127.0.0.1:6' PROPERTIES ("tag.compute_group_name" = "bad name")`), /Incorrect compute group name 'bad name'/);
    assert.equal(snapshot(await backends()), before);
  });

  it('a garbage or bad RegisterBackend message is refused and the FE keeps serving', async () => {
    const raw = new grpc.Client(feEndpoint, grpc.credentials.createInsecure());
    const garbage = await new Promise<grpc.ServiceError | null>((resolve) => {
      raw.makeUnaryRequest('/galene.rpc.FrontendService/RegisterBackend', (b: Buffer) => b, (b: Buffer) => b, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x12, 0x99]), new grpc.Metadata(), { deadline: Date.now() + 5000 }, (err) => resolve(err));
    });
    raw.close();
    assert.ok(garbage !== null && garbage.code !== grpc.status.OK);
    // The same at a BE's HeartbeatService, and a heartbeat with a nonsense backend id: refused, the BE serves on.
    const beEndpoint = `127.0.0.1:${be1.ready['heartbeat_service_port']}`;
    const rawBe = new grpc.Client(beEndpoint, grpc.credentials.createInsecure());
    const beGarbage = await new Promise<grpc.ServiceError | null>((resolve) => {
      rawBe.makeUnaryRequest('/galene.rpc.HeartbeatService/Heartbeat', (b: Buffer) => b, (b: Buffer) => b, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x12, 0x99]), new grpc.Metadata(), { deadline: Date.now() + 5000 }, (err) => resolve(err));
    });
    rawBe.close();
    assert.ok(beGarbage !== null && beGarbage.code !== grpc.status.OK);
    const beClient = new RpcClient(beEndpoint);
    try {
      await assert.rejects(beClient.unary(HEARTBEAT_SERVICE, 'Heartbeat', { fe_host: 'x', fe_rpc_port: 1, fe_start_time: 1, backend_id: -5, compute_group: '', decommissioned: false }), /bad backend_id -5/);
    } finally {
      beClient.close();
    }
    assert.equal((await fetch(`http://127.0.0.1:${be1.ready['webserver_port']}/api/health`)).status, 200);
    const client = new RpcClient(feEndpoint);
    try {
      const good = { host: '127.0.0.1', heartbeat_port: 7, http_port: 8, brpc_port: 9, be_port: -1, compute_group: 'g1', start_time: Date.now(), version: 'x', unique_id: 'ab'.repeat(16) };
      for (const [bad, words] of [[{ host: '' }, /bad host/], [{ heartbeat_port: 70000 }, /heartbeat_port 70000 is not a port/], [{ unique_id: 'zz' }, /bad unique_id/], [{ compute_group: '1-bad' }, /Incorrect compute group name/]] as const) {
        await assert.rejects(client.unary(FRONTEND_SERVICE, 'RegisterBackend', { ...good, ...bad }), (err: Error) => /backend registration refused|Incorrect compute group/.test(err.message) && words.test(err.message));
      }
    } finally {
      client.close();
    }
    assert.equal((await backends()).length, 2);
  });

  it('RENAME COMPUTE GROUP keeps the BE and the group id; USE @cg makes it current', async () => {
    const tagBefore = JSON.parse(String(byId(await backends(), id2)!['Tag'])) as Record<string, string>;
    await rows(queryPort, 'ALTER SYSTEM RENAME COMPUTE GROUP g2 g3');
    const tagAfter = JSON.parse(String(byId(await backends(), id2)!['Tag'])) as Record<string, string>;
    assert.equal(tagAfter['compute_group_name'], 'g3');
    assert.equal(tagAfter['compute_group_id'], tagBefore['compute_group_id']);
    const conn = await mysql.createConnection({ host: '127.0.0.1', port: queryPort, user: 'root', password: '' });
    try {
      await conn.query('USE @g3');
      const [groups] = await conn.query('SHOW COMPUTE GROUPS');
      assert.deepEqual((groups as Row[]).map((row) => [row['Name'], row['IsCurrent']]), [['g1', 'FALSE'], ['g3', 'TRUE']]);
    } finally {
      await conn.end();
    }
  });

  it("SET PROPERTY 'default_compute_group' picks a user's group for new sessions; bad keys and groups change nothing", async () => {
    assert.match(await sqlError(queryPort, "SET PROPERTY 'default_compute_group' = 'nope'"), /compute group 'nope' not exist/);
    assert.match(await sqlError(queryPort, "SET PROPERTY 'default_compute_group' = 'g1', 'max_user_connections' = '5'"), /Unknown user property\(max_user_connections\)/);
    assert.match(await sqlError(queryPort, "SET PROPERTY FOR 'ghost' 'default_compute_group' = 'g1'"), /Unknown user: ghost/);
    assert.deepEqual(await rows(queryPort, "SHOW PROPERTY LIKE 'default_compute%'"), [{ Key: 'default_compute_group', Value: '' }]);
    await rows(queryPort, "SET PROPERTY FOR 'root' 'default_compute_group' = 'g1'");
    assert.deepEqual(await rows(queryPort, 'SHOW PROPERTY'), [{ Key: 'default_compute_group', Value: 'g1' }]);
    assert.deepEqual((await rows(queryPort, 'SHOW COMPUTE GROUPS')).map((row) => [row['Name'], row['IsCurrent']]), [['g1', 'TRUE'], ['g3', 'FALSE']]);
    await rows(queryPort, "SET PROPERTY 'default_compute_group' = ''");
    assert.deepEqual((await rows(queryPort, 'SHOW COMPUTE GROUPS')).map((row) => row['IsCurrent']), ['FALSE', 'FALSE']);
  });

  it('ALTER SYSTEM ADD BACKEND makes a BE started without --fe a member of the named group', async () => {
    const be3 = track(await startBackend(dir('be3'), null, 'default_compute_group'));
    const endpoint = `127.0.0.1:${be3.ready['heartbeat_service_port']}`;
    await rows(queryPort, `ALTER SYSTEM ADD BACKEND '${endpoint}' PROPERTIES ("tag.compute_group_name" = "g4")`);
    const row = await waitFor('added backend alive', async () => (await backends()).find((r) => Number(r['HeartbeatPort']) === Number(be3.ready['heartbeat_service_port']) && r['Alive'] === 'true'));
    assert.equal(groupOf(row), 'g4');
    assert.equal(Number(row['HttpPort']), Number(be3.ready['webserver_port']));
  });

  it('DECOMMISSION leaves the BE listed but owning no tablet; DROP removes it', async () => {
    const endpoint = `127.0.0.1:${be2.ready['heartbeat_service_port']}`;
    await rows(queryPort, `ALTER SYSTEM DECOMMISSION BACKEND '${endpoint}'`);
    const row = byId(await backends(), id2)!;
    assert.equal(row['SystemDecommissioned'], 'true');
    assert.equal(Number(row['TabletNum']), 0);
    await rows(queryPort, `ALTER SYSTEM DROP BACKEND '${endpoint}'`);
    const list = await backends();
    assert.equal(byId(list, id2), undefined);
    assert.equal(byId(list, id1)!['Alive'], 'true');
    assert.deepEqual((await rows(queryPort, 'SHOW COMPUTE GROUPS')).map((r) => r['Name']), ['g1', 'g4']);
  });
});

describe('embedded galene start: the one in-process BE', () => {
  let server: GaleneProcess;
  before(async () => {
    server = await startGalene({ storage: 'local' });
  });
  after(async () => {
    await server.kill('SIGKILL');
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('SHOW BACKENDS and SHOW COMPUTE GROUPS show BE 10001 in default_compute_group; bad input changes nothing', async () => {
    const port = server.ports.query_port;
    const list = await rows(port, 'SHOW BACKENDS');
    assert.equal(list.length, 1);
    assert.equal(Number(list[0]['BackendId']), 10001);
    assert.equal(list[0]['Tag'], '{"compute_group_name" : "default_compute_group"}');
    assert.deepEqual(await rows(port, 'SHOW COMPUTE GROUPS'), [{ Name: 'default_compute_group', IsCurrent: 'TRUE', Users: '', BackendNum: 1 }]);
    assert.match(await sqlError(port, "ALTER SYSTEM DROP BACKEND '127.0.0.1:9050'"), /backend does not exists\[127\.0\.0\.1:9050\]/);
    assert.match(await sqlError(port, 'ALTER SYSTEM RENAME COMPUTE GROUP nope x'), /compute group 'nope' not exist/);
    await rows(port, 'USE @default_compute_group');
    assert.equal((await rows(port, 'SHOW BACKENDS')).length, 1);
  });
});
