/**
 * Hostile connections: floods of sockets that never log in, huge packets before and after login, idle
 * sessions, and connection limits changed at run time. After each the server must keep serving, refuse
 * with MySQL's error (1040, 1153, 1203, 4031) and never buffer what a stranger announces.
 *
 * The first part drives the protocol server in process (limits from a backend the test controls); the
 * last part runs a real Galene process and sets the limits with SQL.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import * as fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import mysql from 'mysql2/promise';
import type { ConnectionLimits, SessionHandler, SessionInfo } from '../../src/protocol/backend';
import { MysqlServer } from '../../src/protocol/mysql-server';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { CLIENT, packet, parseErr, RawClient } from '../protocol/raw-client';
import { TestBackend, TestSession } from '../protocol/test-backend';

const COM_QUERY = 0x03;
const COM_PING = 0x0e;
const MAX_CHUNK = 0xffffff;
const MiB = 1024 * 1024;

class IdleSession extends TestSession {
  constructor(
    info: SessionInfo,
    private readonly backend: LimitsBackend,
  ) {
    super(info);
  }

  idleTimeoutSeconds(): number {
    return this.backend.idleSeconds;
  }
}

/** The test backend with limits and an idle timeout the tests change between connections. */
class LimitsBackend extends TestBackend {
  limits: Partial<ConnectionLimits> = {};
  idleSeconds = 0;
  readonly infos: SessionInfo[] = [];

  connectionLimits(): Partial<ConnectionLimits> {
    return this.limits;
  }

  override async openSession(info: SessionInfo): Promise<SessionHandler> {
    await super.openSession(info); // database check
    this.infos.push(info);
    return new IdleSession(info, this);
  }
}

const backend = new LimitsBackend();
/** Its own defaults apply where the backend's limits leave a field out. */
const server = new MysqlServer(backend, { host: '127.0.0.1', port: 0 });
let port = 0;
before(async () => (port = await server.listen()));
after(() => server.close());

/** Every test starts from the server's own limits. */
function setLimits(limits: Partial<ConnectionLimits>, idleSeconds = 0): void {
  backend.limits = limits;
  backend.idleSeconds = idleSeconds;
}

async function assertServing(): Promise<void> {
  const client = await RawClient.login(port);
  const reply = await client.command(COM_QUERY, Buffer.from('select 1'));
  assert.equal(reply.payload[0], 1, 'a result set with one column');
  client.end();
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Stream `total` bytes (after `head`) to the server, honouring back-pressure, until the server answers or
 * closes. Returns the first packet (or null) and how many bytes the socket took before that.
 */
async function streamUntilAnswered(client: RawClient, head: Buffer, total: number): Promise<{ reply: Buffer | null; written: number }> {
  let answered = false;
  const replyPromise = client.readPacket(60_000).then(
    (reply) => {
      answered = true;
      return reply?.payload ?? null;
    },
    () => {
      answered = true;
      return null;
    },
  );
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  let written = 0;
  client.socket.write(head);
  while (!answered && !client.closed && written < total) {
    const ok = client.socket.write(chunk.subarray(0, Math.min(chunk.length, total - written)));
    written += Math.min(chunk.length, total - written);
    if (!ok) await Promise.race([once(client.socket, 'drain'), replyPromise]);
  }
  return { reply: await replyPromise, written };
}

describe('half-open sockets', () => {
  test('80 sockets that never log in: the budget of 50 holds, the oldest get 1040, a mysql2 client still connects and queries', async () => {
    setLimits({ maxUnauthenticatedConnections: 50 });
    const sockets: RawClient[] = [];
    try {
      for (let socketIdx = 0; socketIdx < 80; socketIdx++) sockets.push(await RawClient.connect(port));
      const firstPackets = await Promise.all(sockets.map((socket) => socket.readPacket(10_000)));
      assert.ok(firstPackets.every((first) => first !== null && first.payload[0] === 10), 'every socket was greeted');
      // The 30 oldest silent sockets were told 1040 and closed to make room; the 50 newest wait.
      const refused = async (socket: RawClient): Promise<boolean> => {
        const next = await socket.readPacket(10_000);
        if (next === null) return false;
        const err = parseErr(next.payload);
        assert.equal(err.errno, 1040);
        assert.equal(err.message, 'Too many connections');
        return socket.waitClosed(10_000);
      };
      for (const socket of sockets.slice(0, 30)) assert.equal(await refused(socket), true);
      assert.equal(server.unauthenticatedCount, 50);
      const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
      const [rows] = await conn.query('select 1');
      assert.deepEqual(rows, [{ 1: 1 }]);
      assert.ok(server.unauthenticatedCount <= 50);
      // The mysql2 client took the place of the oldest remaining silent socket.
      assert.equal(await refused(sockets[30]), true);
      await conn.end();
    } finally {
      for (const socket of sockets) socket.end();
    }
    await waitFor(() => server.unauthenticatedCount === 0, 'the half-open sockets to be gone');
    await assertServing();
  });

  test('a full budget of handshakes under way: the next socket gets 1040 instead of the greeting', async () => {
    setLimits({ maxUnauthenticatedConnections: 2 });
    const busy = [await RawClient.connect(port), await RawClient.connect(port)];
    try {
      for (const socket of busy) {
        await socket.readGreeting();
        socket.write(Buffer.from([0x40, 0x00, 0x00])); // a header begun: this client is talking
      }
      await waitFor(() => server.unauthenticatedCount === 2, 'two handshakes');
      const late = await RawClient.connect(port);
      const first = await late.readPacket();
      assert.notEqual(first, null);
      assert.equal(first!.sequenceId, 0);
      assert.equal(parseErr(first!.payload).errno, 1040);
      assert.ok(await late.waitClosed(10_000));
    } finally {
      for (const socket of busy) socket.end();
    }
    setLimits({});
    await waitFor(() => server.unauthenticatedCount === 0, 'the busy sockets to be gone');
    await assertServing();
  });

  test('connect_timeout: a socket that does not finish logging in is closed', async () => {
    setLimits({ connectTimeoutSeconds: 1 });
    const silent = await RawClient.connect(port);
    const partial = await RawClient.connect(port);
    await silent.readGreeting();
    await partial.readGreeting();
    partial.write(Buffer.from([0x50, 0x00, 0x00, 0x01, 0x00, 0x00])); // half a handshake response
    assert.equal(await silent.waitClosed(15_000), true);
    assert.equal(await partial.waitClosed(15_000), true);
    // A client that logs in in time is not affected, even when it then sits idle past connect_timeout.
    const loggedIn = await RawClient.login(port);
    await waitFor(() => server.unauthenticatedCount === 0, 'the timed-out sockets to be gone');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal((await loggedIn.command(COM_PING)).payload[0], 0x00);
    loggedIn.end();
    setLimits({});
  });
});

describe('packet sizes', () => {
  test('before login: a 16 MiB packet announced in the handshake gets 1153 after a few MiB, not 80', async () => {
    setLimits({});
    const client = await RawClient.connect(port);
    await client.readGreeting();
    const total = 5 * MAX_CHUNK; // five 16 MiB pieces: an 80 MiB "handshake response"
    const head = Buffer.from([0xff, 0xff, 0xff, 0x01]);
    const { reply, written } = await streamUntilAnswered(client, head, total);
    assert.notEqual(reply, null, 'the server answered');
    const err = parseErr(reply!);
    assert.equal(err.errno, 1153);
    assert.equal(err.message, "Got a packet bigger than 'max_allowed_packet' bytes");
    assert.ok(written < 32 * MiB, `the server stopped reading early (the socket took ${written} bytes)`);
    assert.ok(await client.waitClosed(15_000));
    client.end();
    await assertServing();
  });

  test('after login: a packet under max_allowed_packet (joined from two pieces) runs; one over it gets 1153 and a close', async () => {
    setLimits({ maxAllowedPacket: 20 * MiB });
    const client = await RawClient.login(port);
    // 17 MiB of COM_QUERY: 'select 1' padded with spaces, in a 16 MiB - 1 piece and the rest.
    const query = Buffer.alloc(17 * MiB, 0x20);
    query[0] = COM_QUERY;
    query.write('select 1', 1);
    client.write(Buffer.concat([packet(0, query.subarray(0, MAX_CHUNK)), packet(1, query.subarray(MAX_CHUNK))]));
    const answer = await client.readPacket(30_000);
    assert.notEqual(answer, null);
    assert.equal(answer!.payload[0], 1, 'the long query ran: a result set with one column');
    client.end();

    // 24 MiB: refused at the second piece's header, before its payload is read.
    const big = await RawClient.login(port);
    const head = packet(0, Buffer.concat([Buffer.from([COM_QUERY]), Buffer.alloc(MAX_CHUNK - 1, 0x20)]));
    const second = Buffer.from([0x00, 0x00, 0x80, 0x01]); // 8 MiB piece
    const { reply } = await streamUntilAnswered(big, Buffer.concat([head, second]), 8 * MiB);
    assert.notEqual(reply, null);
    assert.equal(parseErr(reply!).errno, 1153);
    assert.ok(await big.waitClosed(15_000));
    big.end();

    // A smaller limit applies to the next connection at once.
    setLimits({ maxAllowedPacket: 1 * MiB });
    const small = await RawClient.login(port);
    small.send(0, Buffer.concat([Buffer.from([COM_QUERY]), Buffer.alloc(2 * MiB, 0x20)]));
    const refused = await small.readPacket(30_000);
    assert.equal(parseErr(refused!.payload).errno, 1153);
    small.end();
    setLimits({});
    await assertServing();
  });
});

describe('idle sessions and session counts', () => {
  test('wait_timeout: an idle session gets 4031 and is closed; CLIENT_INTERACTIVE reaches the session', async () => {
    setLimits({}, 1);
    const client = await RawClient.login(port, 'root', '', CLIENT.PROTOCOL_41 | CLIENT.SECURE_CONNECTION | CLIENT.PLUGIN_AUTH | 0x400);
    assert.equal(backend.infos[backend.infos.length - 1].interactive, true);
    assert.equal((await client.command(COM_PING)).payload[0], 0x00);
    const notice = await client.readPacket(15_000);
    assert.notEqual(notice, null, 'the server said why before closing');
    assert.equal(notice!.sequenceId, 0);
    const err = parseErr(notice!.payload);
    assert.equal(err.errno, 4031);
    assert.match(err.message, /disconnected by the server because of inactivity/);
    assert.ok(await client.waitClosed(15_000));
    setLimits({});
    const plain = await RawClient.login(port);
    assert.equal(backend.infos[backend.infos.length - 1].interactive, false);
    plain.end();
  });

  test('max_connections and max_user_connections apply to the next login: 1040 and 1203', async () => {
    await waitFor(() => server.sessionCount === 0, 'earlier sessions to be gone');
    setLimits({ maxConnections: 2 });
    const first = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    const second = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    await assert.rejects(mysql.createConnection({ host: '127.0.0.1', port, user: 'root' }), (err: mysql.QueryError) => err.errno === 1040 && err.message === 'Too many connections');
    backend.limits = { maxConnections: 3 };
    const third = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    backend.limits = { maxUserConnections: 3 };
    await assert.rejects(mysql.createConnection({ host: '127.0.0.1', port, user: 'root' }), (err: mysql.QueryError) => {
      assert.equal(err.errno, 1203);
      assert.equal(err.message, "User root already has more than 'max_user_connections' active connections");
      return true;
    });
    const alice = await mysql.createConnection({ host: '127.0.0.1', port, user: 'alice', password: 'secret' });
    await alice.end();
    await third.end();
    await waitFor(() => server.sessionCount === 2, 'the third session to be gone');
    const again = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
    for (const conn of [first, second, again]) await conn.end();
    setLimits({});
    await assertServing();
  });
});

describe('a real server, limits set with SQL', () => {
  let galene: GaleneProcess;
  before(async () => {
    galene = await startGalene({ args: ['--max_unauthenticated_connections', '20'] });
  });
  after(async () => {
    await galene.stop();
  });

  test('SET GLOBAL max_connections / max_user_connections apply at once; SET SESSION is refused with 1229', async () => {
    const queryPort = galene.ports.query_port;
    const admin = await connect(queryPort);
    assert.deepEqual(await queryRows(admin, 'SELECT @@max_connections, @@max_allowed_packet, @@connect_timeout, @@max_user_connections'), [['1024', '67108864', '10', '100']]);
    await assert.rejects(admin.query('SET max_connections = 5'), (err: mysql.QueryError) => {
      assert.equal(err.errno, 1229);
      assert.equal(err.message, "Variable 'max_connections' is a GLOBAL variable and should be set with SET GLOBAL");
      return true;
    });
    await assert.rejects(admin.query('SET max_allowed_packet = 1048576'), (err: mysql.QueryError) => {
      assert.equal(err.errno, 1621);
      assert.equal(err.message, "SESSION variable 'max_allowed_packet' is read-only. Use SET GLOBAL to assign the value");
      return true;
    });
    await assert.rejects(admin.query('SET GLOBAL max_connections = 0'), (err: mysql.QueryError) => err.errno === 1231);
    await admin.query('SET GLOBAL max_connections = 2');
    const second = await connect(queryPort);
    await assert.rejects(connect(queryPort), (err: mysql.QueryError) => err.errno === 1040 && err.message === 'Too many connections');
    await admin.query('SET GLOBAL max_connections = 3');
    const third = await connect(queryPort);
    await admin.query('SET GLOBAL max_user_connections = 3');
    await admin.query('SET GLOBAL max_connections = 10');
    await assert.rejects(connect(queryPort), (err: mysql.QueryError) => err.errno === 1203);
    await admin.query('SET GLOBAL max_user_connections = DEFAULT');
    const fourth = await connect(queryPort);
    for (const conn of [second, third, fourth]) await conn.end();
    // max_allowed_packet: a new connection gets the new limit; a 2 MiB statement is refused with 1153.
    await admin.query('SET GLOBAL max_allowed_packet = 1048576');
    const limited = await connect(queryPort);
    assert.deepEqual(await queryRows(limited, 'SELECT @@max_allowed_packet'), [['1048576']]);
    await assert.rejects(limited.query(`SELECT '${'x'.repeat(2 * 1024 * 1024)}'`), (err: mysql.QueryError) => err.errno === 1153);
    limited.destroy();
    await admin.query('SET GLOBAL max_allowed_packet = DEFAULT');
    assert.deepEqual(await queryRows(admin, `SELECT length('${'x'.repeat(2 * 1024 * 1024)}')`), [['2097152']]);
    await admin.query('SET GLOBAL max_connections = DEFAULT');
    assert.deepEqual(await queryRows(admin, 'SELECT @@global.max_connections'), [['1024']]);
    await admin.end();
  });

  test('CLIENT_INTERACTIVE sessions start with wait_timeout = interactive_timeout; idle sessions are closed with 4031', async () => {
    const queryPort = galene.ports.query_port;
    const admin = await connect(queryPort);
    await admin.query('SET GLOBAL interactive_timeout = 1');
    const interactive = await RawClient.login(queryPort, 'root', '', CLIENT.PROTOCOL_41 | CLIENT.SECURE_CONNECTION | CLIENT.PLUGIN_AUTH | 0x400);
    const notice = await interactive.readPacket(15_000);
    assert.notEqual(notice, null);
    assert.equal(parseErr(notice!.payload).errno, 4031);
    assert.ok(await interactive.waitClosed(15_000));
    // A non-interactive session keeps wait_timeout (28800) until it sets its own.
    assert.deepEqual(await queryRows(admin, 'SELECT @@wait_timeout'), [['28800']]);
    await admin.query('SET GLOBAL interactive_timeout = DEFAULT');
    const idle = await connect(queryPort);
    await idle.query('SET wait_timeout = 1');
    const core = (idle as unknown as { connection: NodeJS.EventEmitter }).connection; // mysql2's callback connection
    const closed = new Promise<Error>((resolve) => core.once('error', resolve));
    // mysql2 turns the unsolicited ERR packet into a fatal connection error carrying MySQL's message.
    const err = await closed;
    assert.match(err.message, /disconnected by the server because of inactivity/);
    idle.destroy();
    assert.deepEqual(await queryRows(admin, 'SELECT 1'), [['1']]);
    await admin.end();
  });

  test('ten strangers each announcing 80 MiB before login: the server answers 1153 and its memory stays small', async () => {
    const queryPort = galene.ports.query_port;
    const rssKiB = (): number => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${galene.child.pid}/status`, 'utf8'))![1]);
    const before = rssKiB();
    const strangers = await Promise.all(Array.from({ length: 10 }, () => RawClient.connect(queryPort)));
    try {
      await Promise.all(strangers.map((socket) => socket.readGreeting()));
      const results = await Promise.all(strangers.map((socket) => streamUntilAnswered(socket, Buffer.from([0xff, 0xff, 0xff, 0x01]), 5 * MAX_CHUNK)));
      for (const { reply } of results) assert.equal(parseErr(reply!).errno, 1153);
      const grownMiB = (rssKiB() - before) / 1024;
      assert.ok(grownMiB < 64, `the server grew by ${grownMiB.toFixed(1)} MiB for 800 MiB announced`);
    } finally {
      for (const socket of strangers) socket.end();
    }
    const conn = await connect(queryPort);
    assert.deepEqual(await queryRows(conn, 'SELECT 1'), [['1']]);
    await conn.end();
  });

  test('a flood of half-open sockets does not lock a client out of a real server', async () => {
    const queryPort = galene.ports.query_port;
    const sockets: RawClient[] = [];
    try {
      for (let socketIdx = 0; socketIdx < 40; socketIdx++) sockets.push(await RawClient.connect(queryPort));
      await Promise.all(sockets.map((socket) => socket.readPacket(10_000)));
      // max_unauthenticated_connections = 20: the 20 oldest were told 1040 to make room for the newer ones.
      for (const socket of sockets.slice(0, 20)) assert.equal(parseErr((await socket.readPacket(10_000))!.payload).errno, 1040);
      const conn = await connect(queryPort);
      assert.deepEqual(await queryRows(conn, 'SELECT 1'), [['1']]);
      await conn.end();
    } finally {
      for (const socket of sockets) socket.end();
    }
  });
});
