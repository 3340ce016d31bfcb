/**
 * Group Commit WALs against a real server process: SIGKILL while hundreds of async clients write (every
 * acknowledged row visible exactly once after restart), a WAL whose tail was cut mid-write, a WAL that
 * outlived its committed batch (not applied twice), the per-table WAL limit changed at run time through
 * the BE's /api/update_config, /api/get_wal_size and the WAL metrics, and the memory limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { httpRequest, insertInfo, updateConfig, waitForRows, walFiles } from './helpers';

const CREATE = (name: string, intervalMs: number, extra = ''): string =>
  `CREATE TABLE ${name} (id INT NOT NULL, client INT NOT NULL, note VARCHAR(40)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES ("replication_num" = "1", "group_commit_mode" = "async_mode", "group_commit_interval_ms" = "${intervalMs}"${extra})`;

test('SIGKILL while 200 async clients write: after restart every acknowledged row is visible exactly once', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-gc-kill-'));
  let server = await startGalene({ dataDir });
  // Whatever fails below, no server is left running (the test process would wait for it).
  t.after(() => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  });
  const admin = await connect(server.ports.query_port);
  // 200 sessions of one user: past Doris's per-user default of 100.
  await admin.query('SET GLOBAL max_user_connections = 1000');
  await admin.query('CREATE DATABASE k');
  // A short interval: some batches commit before the kill, the open ones live only in their WALs.
  await admin.query(CREATE('k.t', 150));
  await admin.end();
  const acknowledged = new Set<number>();
  const attempted = new Set<number>();
  const clients = 200;
  const conns = await Promise.all(Array.from({ length: clients }, () => connect(server.ports.query_port, { database: 'k' })));
  let stop = false;
  const writers = conns.map(async (conn, clientIdx) => {
    for (let seq = 0; !stop; seq++) {
      const id = clientIdx * 100_000 + seq;
      attempted.add(id);
      try {
        await conn.query(`INSERT INTO t VALUES (${id}, ${clientIdx}, 'row ${id}')`);
        acknowledged.add(id);
      } catch {
        return; // the server went away
      }
    }
  });
  // Kill once the writers are well under way (after at least 1.2 s; longer on a busy machine).
  const started = Date.now();
  while (Date.now() - started < 1200 || (acknowledged.size <= clients && Date.now() - started < 60_000)) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(acknowledged.size > clients, `clients were writing (${acknowledged.size} acknowledged)`);
  await server.kill('SIGKILL');
  stop = true;
  await Promise.all(writers);
  await Promise.all(conns.map((conn) => conn.destroy()));
  assert.ok(walFiles(dataDir).length > 0, 'open batches left WALs behind');
  server = await startGalene({ dataDir });
  try {
    const check = await connect(server.ports.query_port, { database: 'k' });
    const rows = await queryRows(check, 'SELECT id, count(*) FROM t GROUP BY id');
    const seen = new Map(rows.map((row) => [Number(row[0]), Number(row[1])]));
    const duplicated = [...seen].filter(([, count]) => count !== 1);
    assert.deepEqual(duplicated, [], 'no row twice');
    const lost = [...acknowledged].filter((id) => !seen.has(id));
    assert.deepEqual(lost.slice(0, 10), [], `${lost.length} acknowledged rows lost of ${acknowledged.size}`);
    const unknown = [...seen.keys()].filter((id) => !attempted.has(id));
    assert.deepEqual(unknown, []);
    assert.deepEqual(walFiles(dataDir), [], 'each WAL deleted after its replay');
    await check.end();
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('SIGKILL with preallocated WALs (zero tails, one append past them): restart replays exactly the acknowledged rows, no corruption reported', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-gc-prealloc-'));
  // 64 KiB of zeros: the small inserts overwrite them, the 2000-row ones go past them and write new ones.
  const args = ['--group_commit_wal_preallocate_bytes', '65536'];
  let server = await startGalene({ dataDir, args });
  t.after(() => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  });
  const conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE p');
  await conn.query(CREATE('p.t', 600_000));
  await conn.query(CREATE('p.u', 600_000));
  const acknowledged: number[] = [];
  const insert = async (table: string, firstId: number, count: number): Promise<void> => {
    const values = Array.from({ length: count }, (_, idx) => `(${firstId + idx}, ${count}, 'row ${firstId + idx} ${'x'.repeat(20)}')`);
    await conn.query(`INSERT INTO p.${table} VALUES ${values.join(', ')}`);
    for (let idx = 0; idx < count; idx++) acknowledged.push(firstId + idx);
  };
  // Every insert answered before the kill: nothing is in flight, so replay must give these rows exactly.
  const clients = await Promise.all(Array.from({ length: 8 }, () => connect(server.ports.query_port)));
  await Promise.all(clients.map(async (client, clientIdx) => {
    for (let seq = 0; seq < 10; seq++) {
      const id = 1_000_000 + clientIdx * 1000 + seq;
      await client.query(`INSERT INTO p.t VALUES (${id}, ${clientIdx}, 'concurrent ${id}')`);
      acknowledged.push(id);
    }
  }));
  await Promise.all(clients.map((client) => client.end()));
  for (let round = 0; round < 3; round++) await insert('t', round * 10_000, round === 1 ? 2000 : 50);
  await insert('u', 500_000, 10);
  await conn.end();
  const wals = walFiles(dataDir);
  assert.equal(wals.length, 2, 'one open batch (and WAL) per table');
  for (const wal of wals) {
    const data = fs.readFileSync(wal);
    assert.ok(data.length >= 65536 && data.subarray(data.length - 4096).every((byte) => byte === 0), `${wal}: ${data.length} bytes ending in its zero tail`);
  }
  await server.kill('SIGKILL');
  server = await startGalene({ dataDir, args });
  try {
    const check = await connect(server.ports.query_port, { database: 'p' });
    const ids = (await queryRows(check, 'SELECT id FROM t UNION ALL SELECT id FROM u')).map((row) => Number(row[0])).sort((a, b) => a - b);
    assert.deepEqual(ids, [...acknowledged].sort((a, b) => a - b), 'exactly the acknowledged rows, each once');
    assert.match(server.stderr(), /WAL replay: 2 files, 2 replayed, 0 failed, 0 corrupt records skipped/);
    assert.doesNotMatch(server.stderr(), /corrupt data at|incomplete/, 'the zero tails are neither corruption nor a torn record');
    assert.deepEqual(walFiles(dataDir), [], 'each WAL deleted after its replay');
    await check.end();
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a WAL cut mid-record is replayed up to its last complete record; a WAL of a batch already visible is not applied again', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-gc-cut-'));
  // A WAL that grows with each append (no zero tail), so cutting its last bytes cuts its last record.
  let server = await startGalene({ dataDir, args: ['--group_commit_wal_preallocate_bytes', '0'] });
  try {
    let conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE w');
    await conn.query(CREATE('w.cut', 600_000));
    await conn.query('USE w');
    for (let id = 1; id <= 3; id++) await conn.query(`INSERT INTO cut VALUES (${id}, 0, 'record ${id}')`);
    const [wal] = walFiles(dataDir);
    assert.ok(wal, 'the open batch has a WAL');
    await server.kill('SIGKILL');
    // A crash in the middle of writing the third record: its last 5 bytes never reached the disk.
    const size = fs.statSync(wal).size;
    fs.truncateSync(wal, size - 5);
    server = await startGalene({ dataDir });
    conn = await connect(server.ports.query_port, { database: 'w' });
    assert.deepEqual(await queryRows(conn, 'SELECT id, note FROM cut ORDER BY id'), [['1', 'record 1'], ['2', 'record 2']]);
    assert.match(server.stderr(), /incomplete record/);
    assert.deepEqual(walFiles(dataDir), []);

    // A WAL that outlived its batch: copied while the batch was open, put back after it committed.
    await conn.query(CREATE('again', 1500));
    const info = await insertInfo(conn, "INSERT INTO again VALUES (1, 0, 'once')");
    const [open] = walFiles(dataDir);
    const copy = path.join(dataDir, 'wal-copy');
    fs.copyFileSync(open, copy);
    await waitForRows(conn, 'SELECT count(*) FROM again', (rows) => rows[0][0] === '1');
    await conn.end();
    await server.stop();
    fs.mkdirSync(path.dirname(open), { recursive: true });
    fs.renameSync(copy, open);
    server = await startGalene({ dataDir });
    conn = await connect(server.ports.query_port, { database: 'w' });
    assert.deepEqual(await queryRows(conn, 'SELECT id, note FROM again'), [['1', 'once']], `label ${info.label} was already visible: not applied twice`);
    assert.deepEqual(walFiles(dataDir), []);
    await conn.end();
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('group_commit_max_wal_num_per_table changed at run time, /api/get_wal_size, WAL metrics and /api/update_config errors', async () => {
  const server = await startGalene();
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE lim');
    await conn.query('USE lim');
    await conn.query(CREATE('t', 600_000));
    const feUrl = `http://127.0.0.1:${server.ports.http_port}/api/get_wal_size`;
    const walSize = async (): Promise<unknown> => JSON.parse((await httpRequest('GET', feUrl, { auth: 'root:' })).body);
    const hostPort = `127.0.0.1:${server.ports.brpc_port}`;
    assert.deepEqual(await walSize(), { msg: 'OK', code: 0, data: [`${hostPort}:0`], count: 0 });
    assert.deepEqual(await updateConfig(server.ports.webserver_port, 'group_commit_max_wal_num_per_table=1'), { status: 'OK', msg: '' });
    await conn.query("INSERT INTO t VALUES (1, 0, 'first batch')");
    await conn.query("INSERT INTO t VALUES (2, 0, 'same batch, same WAL')");
    assert.deepEqual(await walSize(), { msg: 'OK', code: 0, data: [`${hostPort}:1`], count: 0 });
    // A new schema version needs a new batch, hence a second WAL: past the limit of 1.
    await conn.query('ALTER TABLE t SET ("group_commit_interval_ms" = "600001")');
    await assert.rejects(conn.query("INSERT INTO t VALUES (3, 0, 'needs a new WAL')"), (err: Error & { errno?: number }) => {
      assert.match(err.message, /\[EXCEEDED_LIMIT\]Too many group commit async WALs for table t/);
      assert.equal(err.errno, 1105);
      return true;
    });
    assert.deepEqual(await updateConfig(server.ports.webserver_port, 'group_commit_max_wal_num_per_table=0'), { status: 'OK', msg: '' });
    await conn.query("INSERT INTO t VALUES (4, 0, 'unlimited again')");
    assert.deepEqual(await walSize(), { msg: 'OK', code: 0, data: [`${hostPort}:2`], count: 0 });
    const metrics = (await httpRequest('GET', `http://127.0.0.1:${server.ports.webserver_port}/metrics`)).body;
    assert.match(metrics, /^doris_be_wal_total_count 2$/m);
    assert.match(metrics, /^doris_be_wal_total_bytes [1-9]\d*$/m);
    assert.equal((await httpRequest('GET', feUrl)).status, 401, 'the FE API wants credentials');
    assert.deepEqual(await updateConfig(server.ports.webserver_port, 'no_such_setting=1'), { status: 'BAD', msg: "set no_such_setting=1 failed, reason: [NOT_FOUND]'no_such_setting' is not found" });
    assert.equal((await updateConfig(server.ports.webserver_port, 'query_port=1')).status, 'BAD', 'not changeable at run time');
    assert.match((await updateConfig(server.ports.webserver_port, 'group_commit_max_wal_num_per_table=many')).msg, /expected an integer/);
    assert.equal((await updateConfig(server.ports.webserver_port, 'a=1&b=2')).status, 'BAD');
    assert.equal((await httpRequest('GET', `http://127.0.0.1:${server.ports.webserver_port}/api/update_config?a=1`)).status, 405);
    await conn.end();
  } finally {
    await server.stop();
  }
});

test('memory: a writer past group_commit_queue_mem_limit makes open batches commit early; one that cannot get memory fails with Doris\'s message', async () => {
  const server = await startGalene({ args: ['--group_commit_queue_mem_limit', '16', '--group_commit_queue_mem_wait_timeout_seconds', '1'] });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE mem');
    await conn.query('USE mem');
    await conn.query(CREATE('a', 600_000));
    await conn.query(CREATE('b', 600_000));
    await conn.query("INSERT INTO a VALUES (1, 0, 'holds the budget')");
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM a'), [['0']]);
    // b's load does not fit next to a's open batch: a commits now instead of in ten minutes.
    await conn.query("INSERT INTO b VALUES (1, 0, 'waits for memory')");
    await waitForRows(conn, 'SELECT count(*) FROM a', (rows) => rows[0][0] === '1');

    // A Stream Load still sending its body keeps a's new batch open, so that memory cannot be freed.
    await conn.query("INSERT INTO a VALUES (2, 0, 'holds the budget again')");
    const pending = http.request({ host: '127.0.0.1', port: server.ports.webserver_port, method: 'PUT', path: '/api/mem/a/_stream_load', headers: { Authorization: 'Basic ' + Buffer.from('root:').toString('base64'), column_separator: ',', 'Transfer-Encoding': 'chunked' } });
    const answer = new Promise<string>((resolve, reject) => {
      pending.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      });
      pending.on('error', reject);
    });
    pending.write('3,0,streamed\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await assert.rejects(conn.query("INSERT INTO b VALUES (2, 0, 'cannot get memory')"), /Wal memory back pressure wait too much time!/);
    pending.end();
    const result = JSON.parse(await answer) as Record<string, unknown>;
    assert.equal(result.Status, 'Success', JSON.stringify(result));
    assert.equal(result.GroupCommit, true);
    await waitForRows(conn, 'SELECT id FROM a ORDER BY id', (rows) => rows.length === 3);
    await conn.end();
  } finally {
    await server.stop();
  }
});
