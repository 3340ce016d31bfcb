/**
 * Hostile and heavy statements: one session's heavy statement never freezes the others, and it can be
 * seen (SHOW PROCESSLIST), stopped (KILL QUERY / KILL CONNECTION), timed out (query_timeout,
 * insert_timeout) and bounded (exec_mem_limit). A cross join of three 2,000-row tables (8e9 rows) is the
 * statement that never ends on its own, so no test depends on the machine's speed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';

const ENDLESS = 'SELECT count(*) FROM t a, t b, t c';
let server: GaleneProcess;
let root: Connection;
/** SHOW TABLE STATUS Version of `big` before and after its INSERT ... SELECT. */
let bigVersions: [number, number];

before(async () => {
  server = await startGalene();
  root = await connect(server.ports.query_port, { multipleStatements: true });
  await root.query('CREATE DATABASE h');
  await root.query('USE h');
  await root.query('CREATE TABLE t (k INT, s VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
  const tuples: string[] = [];
  for (let k = 0; k < 2000; k++) tuples.push(`(${k}, 'v${k % 37}')`);
  await root.query(`INSERT INTO t VALUES ${tuples.join(',')}`);
  // 200,000 rows with distinct keys, written by one INSERT ... SELECT (several write chunks).
  await root.query('CREATE TABLE big (k BIGINT, g INT, v DOUBLE) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
  const version = async (): Promise<number> => Number((await queryRows(root, "SHOW TABLE STATUS LIKE 'big'"))[0][2]);
  const before = await version();
  await root.query('INSERT INTO big SELECT a.k * 100 + b.k, a.k % 10, a.k + b.k * 0.5 FROM t a, t b WHERE b.k < 100');
  bigVersions = [before, await version()];
});

after(async () => {
  await root?.end();
  await server?.stop();
});

async function connectionId(conn: Connection): Promise<string> {
  const [[id]] = await queryRows(conn, 'SELECT connection_id()');
  return id!;
}

/** Poll SHOW PROCESSLIST (on `watcher`) until connection `id` runs a statement; returns its row. */
async function waitRunning(watcher: Connection, id: string): Promise<Record<string, string | null>> {
  for (const started = Date.now(); Date.now() - started < 60_000; ) {
    const rows = await queryRecords(watcher, 'SHOW FULL PROCESSLIST');
    const row = rows.find((candidate) => candidate.Id === id);
    if (row !== undefined && row.Command === 'Query') return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`connection ${id} never showed a running statement`);
}

test('INSERT ... SELECT of 200,000 rows in several chunks is one load: every row, once', async () => {
  const [[count, distinct, sum]] = await queryRows(root, 'SELECT count(*), count(DISTINCT k), sum(k) FROM big');
  assert.equal(count, '200000');
  assert.equal(distinct, '200000');
  // k = a*100 + b over a < 2000, b < 100 is every integer in [0, 200000) once.
  assert.equal(sum, String((199999 * 200000) / 2));
  // One transaction: the table moved by exactly one version.
  assert.equal(bigVersions[1] - bigVersions[0], 1);
});

test('a heavy statement leaves the server answering: SHOW PROCESSLIST shows it, KILL QUERY stops it', { timeout: 120_000 }, async () => {
  const heavy = await connect(server.ports.query_port, { database: 'h' });
  const watcher = await connect(server.ports.query_port, { database: 'h' });
  try {
    const heavyId = await connectionId(heavy);
    let settled = false;
    const running = heavy.query(ENDLESS).finally(() => (settled = true));
    running.catch(() => undefined);
    // Answered while the heavy statement runs (before the fix the loop was held until it ended).
    const row = await waitRunning(watcher, heavyId);
    assert.equal(settled, false);
    assert.equal(row.Info, ENDLESS, 'Info is the running statement');
    assert.match(row.State!, /Executing|Sending data/);
    const [[one]] = await queryRows(watcher, 'SELECT 1');
    assert.equal(one, '1');
    assert.equal(settled, false);
    await watcher.query(`KILL QUERY ${heavyId}`);
    await assert.rejects(running, (err: { errno: number; message: string }) => {
      assert.equal(err.errno, 1105);
      assert.match(err.message, /cancel query by user/);
      return true;
    });
    // KILL QUERY keeps the connection.
    const [[still]] = await queryRows(heavy, 'SELECT 2');
    assert.equal(still, '2');
    const rows = await queryRecords(watcher, 'SHOW PROCESSLIST');
    assert.equal(rows.find((candidate) => candidate.Id === heavyId)?.Command, 'Sleep');
  } finally {
    await heavy.end().catch(() => undefined);
    await watcher.end();
  }
});

test('KILL CONNECTION stops the statement and closes the connection; unknown ids and other users are refused', { timeout: 120_000 }, async () => {
  const heavy = await connect(server.ports.query_port, { database: 'h' });
  const heavyId = await connectionId(heavy);
  const running = heavy.query(ENDLESS);
  running.catch(() => undefined);
  await waitRunning(root, heavyId);
  await root.query(`KILL ${heavyId}`);
  await assert.rejects(running);
  await assert.rejects(heavy.query('SELECT 1'));
  const rows = await queryRecords(root, 'SHOW PROCESSLIST');
  for (let attempt = 0; attempt < 50 && rows.some((row) => row.Id === heavyId); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    rows.splice(0, rows.length, ...(await queryRecords(root, 'SHOW PROCESSLIST')));
  }
  assert.equal(rows.some((row) => row.Id === heavyId), false, 'the killed connection is gone');
  await assert.rejects(root.query('KILL 987654'), { errno: 1094 });

  await root.query("CREATE USER 'mallory'@'%' IDENTIFIED BY 'pw'");
  const mallory = await connect(server.ports.query_port, { user: 'mallory', password: 'pw' });
  try {
    await assert.rejects(mallory.query(`KILL QUERY ${await connectionId(root)}`), { errno: 1095 });
    // A user may kill their own statements.
    const own = await connect(server.ports.query_port, { user: 'mallory', password: 'pw' });
    const ownId = await connectionId(own);
    await mallory.query(`KILL ${ownId}`);
    await assert.rejects(own.query('SELECT 1'));
  } finally {
    await mallory.end();
    await root.query("DROP USER 'mallory'@'%'");
  }
});

test('query_timeout stops a query with Doris\'s Timeout error; insert_timeout stops INSERT ... SELECT and writes nothing', { timeout: 120_000 }, async () => {
  const conn = await connect(server.ports.query_port, { database: 'h' });
  try {
    await conn.query('SET query_timeout = 1');
    await assert.rejects(conn.query(ENDLESS), (err: { errno: number; message: string }) => {
      assert.equal(err.errno, 1105);
      assert.match(err.message, /Timeout/);
      assert.match(err.message, /query_timeout \(1 s\)/);
      return true;
    });
    // Rows already streamed, then the timeout: the client gets an error, not a silently short result.
    await assert.rejects(conn.query('SELECT a.k FROM t a, t b, t c'), /Timeout/);
    await conn.query('SET query_timeout = 900');
    await conn.query('CREATE TABLE sink (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await conn.query('SET insert_timeout = 1');
    await assert.rejects(conn.query('INSERT INTO sink SELECT a.k FROM t a, t b, t c'), /Timeout/);
    const [[count]] = await queryRows(conn, 'SELECT count(*) FROM sink');
    assert.equal(count, '0', 'an INSERT that timed out wrote nothing visible');
    const [[one]] = await queryRows(conn, 'SELECT 1');
    assert.equal(one, '1');
  } finally {
    await conn.end();
  }
});

test('exec_mem_limit: GROUP BY, ORDER BY and a join build past the limit fail with MEM_LIMIT_EXCEEDED; the server stays up', async () => {
  const conn = await connect(server.ports.query_port, { database: 'h' });
  try {
    await conn.query('SET exec_mem_limit = 1048576');
    const memLimit = (err: { errno: number; message: string }): boolean => {
      assert.equal(err.errno, 1105);
      assert.match(err.message, /MEM_LIMIT_EXCEEDED/);
      assert.match(err.message, /exec_mem_limit/);
      return true;
    };
    await assert.rejects(conn.query('SELECT k, count(*) FROM big GROUP BY k'), memLimit);
    await assert.rejects(conn.query('SELECT k, v FROM big ORDER BY v DESC'), memLimit);
    await assert.rejects(conn.query('SELECT count(*) FROM big a JOIN big b ON a.k = b.k'), memLimit);
    await assert.rejects(conn.query('SELECT count(DISTINCT k) FROM big'), memLimit);
    // Small statements still fit.
    const [[groups]] = await queryRows(conn, 'SELECT count(*) FROM (SELECT g, count(*) FROM big GROUP BY g) x');
    assert.equal(groups, '10');
    await conn.query('SET exec_mem_limit = 2147483648');
    const [[distinct]] = await queryRows(conn, 'SELECT count(*) FROM (SELECT k, count(*) FROM big GROUP BY k) x');
    assert.equal(distinct, '200000');
    const [[distinctCount, distinctGroups]] = await queryRows(conn, 'SELECT count(DISTINCT k), count(DISTINCT g) FROM big');
    assert.deepEqual([distinctCount, distinctGroups], ['200000', '10']);
    const rows = await queryRows(conn, 'SELECT k FROM big ORDER BY v DESC, k LIMIT 2');
    // v = a + b * 0.5 for k = a * 100 + b: the two largest are a = 1999 with b = 99, 98.
    assert.deepEqual(rows, [['199999'], ['199998']]);
  } finally {
    await conn.end();
  }
});

test('a large sort is ordered exactly like a small one (sliced run sort + merge)', async () => {
  const rows = await queryRows(root, 'SELECT k FROM big ORDER BY g DESC, v, k');
  assert.equal(rows.length, 200000);
  const keys = rows.map((row) => Number(row[0]));
  // Expected order computed here: g = floor(k / 100) % 10, v = floor(k / 100) + (k % 100) * 0.5.
  const expected = keys.slice().sort((left, right) => {
    const g = (k: number): number => Math.floor(k / 100) % 10;
    const v = (k: number): number => Math.floor(k / 100) + (k % 100) * 0.5;
    return g(right) - g(left) || v(left) - v(right) || left - right;
  });
  assert.deepEqual(keys, expected);
});

test('a client that stops reading holds its query back (the server does not buffer the whole result)', { timeout: 120_000 }, async () => {
  const slow = await connect(server.ports.query_port, { database: 'h' });
  try {
    const slowId = await connectionId(slow);
    // The client's socket stops reading once the first rows arrive.
    const socket = (slow as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection.stream;
    let rows = 0;
    // About 50 MB of rows: far more than the socket buffers between server and client can hold.
    const query = (slow as unknown as { connection: { query(sql: string): NodeJS.EventEmitter } }).connection.query("SELECT k, concat(repeat('x', 250), k) FROM big a");
    const done = new Promise<void>((resolve, reject) => {
      query.on('result', () => {
        if (rows++ === 0) socket.pause();
      });
      query.on('end', resolve);
      query.on('error', reject);
    });
    await waitRunning(root, slowId);
    // While the client does not read, the statement stays unfinished, waiting on the socket.
    for (let check = 0; check < 5; check++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const row = (await queryRecords(root, 'SHOW PROCESSLIST')).find((candidate) => candidate.Id === slowId);
      assert.equal(row?.Command, 'Query');
      assert.equal(row?.State, 'Sending data');
    }
    socket.resume();
    await done;
    assert.equal(rows, 200000);
  } finally {
    await slow.end();
  }
});

test('SHOW ... LIKE matches in linear time (a pattern of many % against a long name answers at once)', { timeout: 30_000 }, async () => {
  const name = 'a'.repeat(60) + 'c';
  await root.query(`CREATE TABLE ${name} (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`);
  const hostile = '%a%a%a%a%a%a%a%a%a%a%b';
  assert.deepEqual(await queryRows(root, `SHOW TABLES LIKE '${hostile}'`), []);
  assert.deepEqual(await queryRows(root, `SHOW TABLES LIKE '%A%a%C'`), [[name]], 'SHOW matching ignores case, as MySQL');
  await root.query(`DROP TABLE ${name}`);
});
