/**
 * The protocol server under a raw socket: greeting contents, the auth switch, every command of the text
 * protocol at packet level, and hostile input (garbage, truncated and oversized packets, unknown commands,
 * clients vanishing mid-result, backends that throw) — after each, the server must keep serving.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionHandler, SessionInfo, UserAuthInfo } from '../../src/protocol/backend';
import { MysqlServer } from '../../src/protocol/mysql-server';
import { nativePasswordToken } from '../../src/protocol/native-password';
import { CLIENT, packet, parseErr, RawClient } from './raw-client';
import { TestBackend } from './test-backend';

/** The test backend plus users whose lookup or session opening fails with a plain Error. */
class FaultyBackend extends TestBackend {
  override lookupUser(user: string): UserAuthInfo | null {
    if (user === 'lookup_boom') throw new Error('user store unavailable');
    if (user === 'open_boom') return { passwordDoubleSha1: null };
    return super.lookupUser(user);
  }

  override async openSession(info: SessionInfo): Promise<SessionHandler> {
    if (info.user === 'open_boom') throw new Error('no session for you');
    return super.openSession(info);
  }
}

const backend = new FaultyBackend();
let server: MysqlServer;
let port = 0;

before(async () => {
  server = new MysqlServer(backend, { host: '127.0.0.1', port: 0 });
  port = await server.listen();
});

after(async () => {
  await server.close();
});

const COM = { QUERY: 0x03, INIT_DB: 0x02, FIELD_LIST: 0x04, STATISTICS: 0x09, PING: 0x0e, STMT_PREPARE: 0x16, STMT_CLOSE: 0x19, SET_OPTION: 0x1b, RESET: 0x1f };

/** The server still answers a fresh login and a query. */
async function assertServing(): Promise<void> {
  const client = await RawClient.login(port);
  const reply = await client.command(COM.QUERY, Buffer.from('select 1'));
  assert.equal(reply.payload[0], 1, 'column count 1');
  client.end();
}

test('greeting: v10, server version, no SSL, native password plugin, 20-byte scramble', async () => {
  const client = await RawClient.connect(port);
  const greeting = await client.readGreeting();
  assert.equal(greeting.protocolVersion, 10);
  assert.equal(greeting.serverVersion, '5.7.99');
  assert.ok(greeting.connectionId >= 1);
  assert.equal(greeting.capabilities & CLIENT.SSL, 0);
  for (const flag of [CLIENT.PROTOCOL_41, CLIENT.SECURE_CONNECTION, CLIENT.PLUGIN_AUTH, CLIENT.DEPRECATE_EOF, CLIENT.MULTI_STATEMENTS, CLIENT.CONNECT_ATTRS, CLIENT.PLUGIN_AUTH_LENENC]) {
    assert.equal(greeting.capabilities & flag, flag);
  }
  assert.equal(greeting.charset, 45);
  assert.equal(greeting.authPlugin, 'mysql_native_password');
  assert.equal(greeting.scramble.length, 20);
  assert.ok(!greeting.scramble.includes(0));
  client.end();
});

test('auth switch: a client starting with caching_sha2_password is moved to mysql_native_password', async () => {
  const client = await RawClient.connect(port);
  const greeting = await client.readGreeting();
  client.send(1, RawClient.handshakeResponse(greeting, 'alice', 'secret', { plugin: 'caching_sha2_password', authData: Buffer.alloc(32, 7), database: 'db1' }));
  const switchRequest = await client.readPacket();
  assert.ok(switchRequest);
  assert.equal(switchRequest.sequenceId, 2);
  assert.equal(switchRequest.payload[0], 0xfe);
  const nameEnd = switchRequest.payload.indexOf(0, 1);
  assert.equal(switchRequest.payload.toString('latin1', 1, nameEnd), 'mysql_native_password');
  const scramble = switchRequest.payload.subarray(nameEnd + 1, nameEnd + 21);
  assert.deepEqual(scramble, greeting.scramble);
  client.send(3, nativePasswordToken('secret', scramble));
  const ok = await client.readPacket();
  assert.ok(ok);
  assert.equal(ok.sequenceId, 4);
  assert.equal(ok.payload[0], 0x00);
  const session = backend.sessions[backend.sessions.length - 1];
  assert.equal(session.info.user, 'alice');
  assert.equal(session.info.database, 'db1');
  client.end();
});

test('commands: ping, unknown command, prepare, stmt close, truncated and empty packets', async () => {
  const client = await RawClient.login(port);
  const ping = await client.command(COM.PING);
  assert.equal(ping.payload[0], 0x00);
  assert.equal(ping.sequenceId, 1);
  assert.deepEqual(parseErr((await client.command(0x55)).payload), { errno: 1047, sqlState: '08S01', message: 'Unknown command' });
  assert.deepEqual(parseErr((await client.command(0x00)).payload).errno, 1047); // COM_SLEEP is server-internal
  assert.deepEqual(parseErr((await client.command(COM.STMT_PREPARE, Buffer.from('select ?'))).payload), {
    errno: 1295,
    sqlState: 'HY000',
    message: 'This command is not supported in the prepared statement protocol yet',
  });
  // COM_STMT_CLOSE has no reply: the next packet must be the ping's OK.
  client.send(0, Buffer.from([COM.STMT_CLOSE, 1, 0, 0, 0]));
  assert.equal((await client.command(COM.PING)).payload[0], 0x00);
  // COM_SET_OPTION needs two bytes of argument.
  assert.equal(parseErr((await client.command(COM.SET_OPTION, Buffer.from([0]))).payload).errno, 1835);
  client.send(0, Buffer.alloc(0));
  assert.equal(parseErr((await client.readPacket())!.payload).errno, 1835);
  assert.equal((await client.command(COM.PING)).payload[0], 0x00);
  client.end();
});

test('COM_INIT_DB, COM_FIELD_LIST (EOF and DEPRECATE_EOF), COM_STATISTICS, COM_RESET_CONNECTION, COM_SET_OPTION', async () => {
  const client = await RawClient.login(port);
  assert.equal(parseErr((await client.command(COM.INIT_DB, Buffer.from('nodb'))).payload).errno, 1049);
  assert.equal((await client.command(COM.INIT_DB, Buffer.from('db1'))).payload[0], 0x00);
  const firstDef = await client.command(COM.FIELD_LIST, Buffer.from('t1\0'));
  assert.ok(firstDef.payload.includes(Buffer.from('def')));
  const secondDef = await client.readPacket();
  assert.ok(secondDef!.payload.includes(Buffer.from('name')));
  assert.equal(secondDef!.payload[secondDef!.payload.length - 1], 0xfb, 'default value NULL');
  const eof = await client.readPacket();
  assert.equal(eof!.payload[0], 0xfe);
  assert.equal(eof!.payload.length, 5);
  assert.equal(parseErr((await client.command(COM.FIELD_LIST, Buffer.from('nope\0'))).payload).errno, 1146);
  const stats = await client.command(COM.STATISTICS);
  assert.match(stats.payload.toString(), /^Uptime: \d+ {2}Threads: \d+ {2}Questions: \d+/);
  assert.equal((await client.command(COM.RESET)).payload[0], 0x00);
  const setOption = await client.command(COM.SET_OPTION, Buffer.from([0, 0]));
  assert.equal(setOption.payload[0], 0xfe);
  const multi = await client.command(COM.QUERY, Buffer.from('select 1; select 1'));
  assert.equal(multi.payload[0], 1, 'multi-statements on after COM_SET_OPTION');
  client.end();

  const modern = await RawClient.login(port, 'root', '', CLIENT.PROTOCOL_41 | CLIENT.SECURE_CONNECTION | CLIENT.PLUGIN_AUTH | CLIENT.DEPRECATE_EOF | CLIENT.MULTI_STATEMENTS | CLIENT.MULTI_RESULTS);
  await modern.command(COM.FIELD_LIST, Buffer.from('t1\0')); // first column definition
  await modern.readPacket(); // second
  const end = await modern.readPacket();
  assert.equal(end!.payload[0], 0xfe);
  assert.ok(end!.payload.length >= 7, 'an OK packet with the 0xFE header, not a 5-byte EOF');
  // Two results: the first ends with MORE_RESULTS_EXISTS in its terminating OK.
  modern.send(0, Buffer.from('\x03select 1; select 1'));
  const packets = [];
  for (let packetIdx = 0; packetIdx < 6; packetIdx++) packets.push((await modern.readPacket())!);
  // count, def, row, OK(0xFE) | count, def, ...
  assert.equal(packets[3].payload[0], 0xfe);
  assert.equal(packets[3].payload.readUInt16LE(3) & 0x0008, 0x0008);
  modern.end();
});

test('replies keep order when commands are pipelined in one write', async () => {
  const client = await RawClient.login(port);
  client.write(Buffer.concat([packet(0, Buffer.from('\x03select sleep 40')), packet(0, Buffer.from([COM.PING])), packet(0, Buffer.from('\x03select * from nope'))]));
  const first = await client.readPacket();
  assert.equal(first!.payload[0], 1);
  // column def, EOF, row, EOF
  for (let packetIdx = 0; packetIdx < 4; packetIdx++) await client.readPacket();
  assert.equal((await client.readPacket())!.payload[0], 0x00, 'then the ping OK');
  assert.equal(parseErr((await client.readPacket())!.payload).errno, 1146, 'then the error');
  client.end();
});

test('garbage instead of a handshake response: 1043 Bad handshake, then close', async () => {
  const client = await RawClient.connect(port);
  await client.readGreeting();
  client.send(1, Buffer.from('this is not a handshake'));
  const reply = await client.readPacket();
  assert.equal(parseErr(reply!.payload).errno, 1043);
  assert.ok(await client.waitClosed());
  await assertServing();
});

test('random bytes and truncated packets, then a disconnect: no effect on other connections', async () => {
  const bystander = await RawClient.login(port);
  const garbage = await RawClient.login(port);
  garbage.write(Buffer.from([0x05, 0x00, 0x00, 0x00, 0x99, 0xde, 0xad, 0xbe, 0xef]));
  assert.equal(parseErr((await garbage.readPacket())!.payload).errno, 1047);
  garbage.write(Buffer.from([0x64, 0x00, 0x00, 0x00, 0x03, 0x73, 0x65])); // 100-byte packet, 3 bytes sent
  garbage.end();
  const truncatedHandshake = await RawClient.connect(port);
  await truncatedHandshake.readGreeting();
  truncatedHandshake.write(Buffer.from([0x40, 0x00, 0x00, 0x01, 0x00]));
  truncatedHandshake.end();
  assert.equal((await bystander.command(COM.PING)).payload[0], 0x00);
  bystander.end();
  await assertServing();
});

test('an oversized packet header gets 1153 and a close', async () => {
  const small = new MysqlServer(backend, { host: '127.0.0.1', port: 0, maxAllowedPacket: 1024 });
  const smallPort = await small.listen();
  try {
    const client = await RawClient.login(smallPort);
    client.write(Buffer.from([0xff, 0xff, 0x7f, 0x00, 0x03]));
    assert.equal(parseErr((await client.readPacket())!.payload).errno, 1153);
    assert.ok(await client.waitClosed());
    const again = await RawClient.login(smallPort);
    assert.equal((await again.command(COM.PING)).payload[0], 0x00);
    again.end();
  } finally {
    await small.close();
  }
});

test('a client that disconnects mid-result: its session is closed and the server goes on', async () => {
  const client = await RawClient.login(port);
  const session = backend.sessions[backend.sessions.length - 1];
  client.send(0, Buffer.from('\x03select big'));
  await client.readPacket(); // the column count: the 17 MiB row is on its way
  client.end();
  for (let attempt = 0; attempt < 100 && !session.closed; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(session.closed, true);
  await assertServing();
});

test('backends that throw in lookupUser or openSession: 1105 with the message, then close', async () => {
  for (const [user, message] of [
    ['lookup_boom', 'user store unavailable'],
    ['open_boom', 'no session for you'],
  ]) {
    const client = await RawClient.connect(port);
    const greeting = await client.readGreeting();
    client.send(1, RawClient.handshakeResponse(greeting, user, ''));
    assert.deepEqual(parseErr((await client.readPacket())!.payload), { errno: 1105, sqlState: 'HY000', message });
    assert.ok(await client.waitClosed());
  }
  await assertServing();
});
