/**
 * The prepared-statement commands byte by byte over a raw socket against a real Galene process: the
 * COM_STMT_PREPARE reply, binary parameters and the binary row (NULL bitmap at offset 2), long data,
 * COM_STMT_RESET, COM_STMT_CLOSE (no reply), unknown handles (1243), max_prepared_stmt_count (1461) and
 * malformed packets — each an error reply on a connection that stays usable, never a crash.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { parseErr, RawClient, RawPacket } from '../protocol/raw-client';

const COM = { QUERY: 0x03, PING: 0x0e, STMT_PREPARE: 0x16, STMT_EXECUTE: 0x17, STMT_SEND_LONG_DATA: 0x18, STMT_CLOSE: 0x19, STMT_RESET: 0x1a };
const TYPE = { LONGLONG: 0x08, VAR_STRING: 0xfd, NULL: 0x06, DOUBLE: 0x05, DATE: 0x0a };

let server: GaleneProcess;

before(async () => {
  server = await startGalene();
});

after(async () => {
  await server?.stop();
});

const u32 = (value: number): Buffer => {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(value);
  return out;
};

async function next(client: RawClient): Promise<RawPacket> {
  const reply = await client.readPacket();
  assert.ok(reply, 'connection closed');
  return reply;
}

interface Prepared {
  readonly id: number;
  readonly columns: number;
  readonly params: number;
}

/** COM_STMT_PREPARE and its whole reply (no CLIENT_DEPRECATE_EOF: each definition list ends with EOF). */
async function prepare(client: RawClient, sql: string): Promise<Prepared> {
  const first = await client.command(COM.STMT_PREPARE, Buffer.from(sql));
  if (first.payload[0] === 0xff) throw Object.assign(new Error('ERR'), parseErr(first.payload));
  assert.equal(first.payload[0], 0x00);
  const prepared = { id: first.payload.readUInt32LE(1), columns: first.payload.readUInt16LE(5), params: first.payload.readUInt16LE(7) };
  for (const count of [prepared.params, prepared.columns]) {
    if (count === 0) continue;
    for (let defIdx = 0; defIdx < count; defIdx++) assert.notEqual((await next(client)).payload[0], 0xfe);
    assert.equal((await next(client)).payload[0], 0xfe, 'EOF after the definitions');
  }
  return prepared;
}

/** COM_STMT_EXECUTE body: id, flags, iteration count, NULL bitmap, bound flag, types, values. */
function executeBody(id: number, params: { type: number; value: Buffer | null }[], bound = true): Buffer {
  const parts = [u32(id), Buffer.from([0]), u32(1)];
  if (params.length > 0) {
    const bitmap = Buffer.alloc((params.length + 7) >> 3);
    params.forEach((param, paramIdx) => {
      if (param.value === null) bitmap[paramIdx >> 3] |= 1 << (paramIdx & 7);
    });
    parts.push(bitmap, Buffer.from([bound ? 1 : 0]));
    if (bound) for (const param of params) parts.push(Buffer.from([param.type, 0]));
    for (const param of params) if (param.value !== null) parts.push(param.value);
  }
  return Buffer.concat(parts);
}

const longlong = (value: bigint): { type: number; value: Buffer } => {
  const out = Buffer.alloc(8);
  out.writeBigInt64LE(value);
  return { type: TYPE.LONGLONG, value: out };
};
const text = (value: string): { type: number; value: Buffer } => {
  const bytes = Buffer.from(value);
  return { type: TYPE.VAR_STRING, value: Buffer.concat([Buffer.from([bytes.length]), bytes]) };
};

/** Execute and read a binary result set of one row; returns the row payload. */
async function executeOneRow(client: RawClient, body: Buffer, columns: number): Promise<Buffer> {
  const head = await client.command(COM.STMT_EXECUTE, body);
  if (head.payload[0] === 0xff) throw Object.assign(new Error(parseErr(head.payload).message), parseErr(head.payload));
  assert.equal(head.payload[0], columns, 'column count');
  for (let colIdx = 0; colIdx < columns; colIdx++) await next(client);
  assert.equal((await next(client)).payload[0], 0xfe);
  const row = await next(client);
  assert.equal((await next(client)).payload[0], 0xfe, 'one row, then EOF');
  return row.payload;
}

async function expectPing(client: RawClient): Promise<void> {
  assert.equal((await client.command(COM.PING)).payload[0], 0x00, 'the connection still answers');
}

test('prepare reply, binary parameters and a binary row with its NULL bitmap', async () => {
  const client = await RawClient.login(server.ports.query_port);
  try {
    const stmt = await prepare(client, 'SELECT ? AS a, ? AS b, ? AS c');
    assert.deepEqual({ columns: stmt.columns, params: stmt.params }, { columns: 3, params: 3 });
    const row = await executeOneRow(client, executeBody(stmt.id, [longlong(41n), { type: TYPE.NULL, value: null }, text('hi')]), 3);
    assert.equal(row[0], 0x00, 'binary row header');
    assert.equal(row[1], 1 << 3, 'column 1 (b) is NULL: bit 1 + 2');
    assert.equal(row.readBigInt64LE(2), 41n, 'a as LONGLONG');
    assert.deepEqual(row.subarray(10), Buffer.from([2, 0x68, 0x69]), 'c as a length-encoded string');
    // Without new types (flag 0), the second execution decodes with the first one's.
    const again = await executeOneRow(client, executeBody(stmt.id, [longlong(1n), { type: TYPE.NULL, value: null }, text('yz')], false), 3);
    assert.equal(again.readBigInt64LE(2), 1n);
    assert.deepEqual(again.subarray(10).toString(), '\x02yz');
  } finally {
    client.end();
  }
});

test('long data is sent without replies, used once, and dropped by COM_STMT_RESET', async () => {
  const client = await RawClient.login(server.ports.query_port);
  try {
    const stmt = await prepare(client, 'SELECT concat(?, ?)');
    const longData = (chunk: string): Buffer => Buffer.concat([Buffer.from([COM.STMT_SEND_LONG_DATA]), u32(stmt.id), Buffer.from([0, 0]), Buffer.from(chunk)]);
    client.send(0, longData('hel'));
    client.send(0, longData('lo '));
    // Parameter 0 came as long data, so only parameter 1's value is in the packet.
    const body = Buffer.concat([u32(stmt.id), Buffer.from([0]), u32(1), Buffer.from([0, 1, TYPE.VAR_STRING, 0, TYPE.VAR_STRING, 0]), Buffer.from([5]), Buffer.from('world')]);
    const row = await executeOneRow(client, body, 1);
    assert.equal(row.subarray(3).toString(), 'hello world');
    client.send(0, longData('stale'));
    assert.equal((await client.command(COM.STMT_RESET, u32(stmt.id))).payload[0], 0x00, 'COM_STMT_RESET answers OK');
    const fresh = await executeOneRow(client, executeBody(stmt.id, [text('a'), text('b')]), 1);
    assert.equal(fresh.subarray(3).toString(), 'ab');
    assert.equal(parseErr((await client.command(COM.STMT_RESET, u32(999))).payload).errno, 1243);
  } finally {
    client.end();
  }
});

test('unknown and closed handles get 1243; the connection stays usable', async () => {
  const client = await RawClient.login(server.ports.query_port);
  try {
    assert.deepEqual(parseErr((await client.command(COM.STMT_EXECUTE, executeBody(77, []))).payload), {
      errno: 1243,
      sqlState: 'HY000',
      message: 'Unknown prepared statement handler (77) given to mysqld_stmt_execute',
    });
    await expectPing(client);
    const stmt = await prepare(client, 'SELECT 1');
    client.send(0, Buffer.concat([Buffer.from([COM.STMT_CLOSE]), u32(stmt.id)]));
    client.send(0, Buffer.concat([Buffer.from([COM.STMT_CLOSE]), u32(12345)])); // unknown: still no reply
    await expectPing(client); // the ping's OK is the next packet: the closes sent nothing
    assert.equal(parseErr((await client.command(COM.STMT_EXECUTE, executeBody(stmt.id, []))).payload).errno, 1243);
    // Handles belong to their connection.
    const mine = await prepare(client, 'SELECT 2');
    const other = await RawClient.login(server.ports.query_port);
    try {
      assert.equal(parseErr((await other.command(COM.STMT_EXECUTE, executeBody(mine.id, []))).payload).errno, 1243);
    } finally {
      other.end();
    }
  } finally {
    client.end();
  }
});

test('malformed execute packets are errors, not crashes', async () => {
  const client = await RawClient.login(server.ports.query_port);
  try {
    const stmt = await prepare(client, 'SELECT ?');
    assert.equal(parseErr((await client.command(COM.STMT_EXECUTE, u32(stmt.id).subarray(0, 2))).payload).errno, 1835, 'truncated id');
    assert.equal(parseErr((await client.command(COM.STMT_EXECUTE, executeBody(stmt.id, [text('x')]).subarray(0, 12))).payload).errno, 1835, 'truncated value');
    assert.equal(parseErr((await client.command(COM.STMT_EXECUTE, executeBody(stmt.id, [text('x')], false))).payload).errno, 1210, 'no types ever bound');
    assert.equal(parseErr((await client.command(COM.STMT_EXECUTE, executeBody(stmt.id, [{ type: 0x33, value: Buffer.from([1]) }]))).payload).errno, 1210, 'unknown type');
    const bad = await client.command(COM.STMT_PREPARE, Buffer.from('SELEC 1'));
    assert.equal(parseErr(bad.payload).errno, 1064);
    const nested = await client.command(COM.STMT_PREPARE, Buffer.from("PREPARE s FROM 'select 1'"));
    assert.equal(parseErr(nested.payload).errno, 1295);
    await expectPing(client);
  } finally {
    client.end();
  }
});

test('max_prepared_stmt_count caps open statements with error 1461', async () => {
  const client = await RawClient.login(server.ports.query_port);
  try {
    assert.equal((await client.command(COM.QUERY, Buffer.from('SET max_prepared_stmt_count = 2'))).payload[0], 0x00);
    const first = await prepare(client, 'SELECT 1');
    await prepare(client, 'SELECT 2');
    await assert.rejects(prepare(client, 'SELECT 3'), (err: { errno: number; message: string }) => {
      assert.equal(err.errno, 1461);
      assert.equal(err.message, "Can't create more than max_prepared_stmt_count statements (current value: 2)");
      return true;
    });
    client.send(0, Buffer.concat([Buffer.from([COM.STMT_CLOSE]), u32(first.id)]));
    await prepare(client, 'SELECT 3');
  } finally {
    client.end();
  }
});
