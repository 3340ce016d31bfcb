/**
 * The protocol server driven by mysql2/promise, the Node driver users meet first: types and values of
 * every column type, errors with errno/SQLSTATE, OK info strings, authentication, databases, ping, big
 * packets in both directions, pipelined queries.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import mysql from 'mysql2/promise';
import { MysqlServer } from '../../src/protocol/mysql-server';
import { ALL_TYPES, INSERT_INFO, TestBackend } from './test-backend';

const backend = new TestBackend();
let server: MysqlServer;
let port = 0;

before(async () => {
  server = new MysqlServer(backend, { host: '127.0.0.1', port: 0 });
  port = await server.listen();
});

after(async () => {
  await server.close();
});

function connect(options: mysql.ConnectionOptions = {}): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port, user: 'root', password: '', ...options });
}

// MySQL column type codes (mysql2's Types).
const T = { TINY: 1, SHORT: 2, LONG: 3, FLOAT: 4, DOUBLE: 5, NULL: 6, LONGLONG: 8, DATE: 10, DATETIME: 12, NEWDECIMAL: 246, VAR_STRING: 253, STRING: 254 };

test('root with empty password: rows of every type with the right column types and values', async () => {
  const conn = await connect({ dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });
  try {
    const [rows, fields] = await conn.query<mysql.RowDataPacket[]>('select all_types');
    assert.deepEqual(
      fields.map((f) => [f.name, f.columnType]),
      [
        ['c_bool', T.TINY],
        ['c_tinyint', T.TINY],
        ['c_smallint', T.SHORT],
        ['c_int', T.LONG],
        ['c_bigint', T.LONGLONG],
        ['c_largeint', T.STRING],
        ['c_float', T.FLOAT],
        ['c_double', T.DOUBLE],
        ['c_decimal', T.NEWDECIMAL],
        ['c_decimal_wide', T.NEWDECIMAL],
        ['c_date', T.DATE],
        ['c_datetime', T.DATETIME],
        ['c_datetime3', T.DATETIME],
        ['c_char', T.VAR_STRING],
        ['c_varchar', T.VAR_STRING],
        ['c_string', T.VAR_STRING],
        ['c_null', T.NULL],
      ],
    );
    assert.equal(fields.length, ALL_TYPES.length);
    const byName = new Map(fields.map((f) => [f.name, f]));
    assert.equal(byName.get('c_decimal')!.decimals, 2);
    assert.equal(byName.get('c_decimal')!.columnLength, 12);
    assert.equal(byName.get('c_datetime3')!.decimals, 3);
    assert.equal(byName.get('c_bool')!.columnLength, 1);
    assert.equal(Number(byName.get('c_int')!.flags) & 1, 1, 'NOT_NULL on a non-nullable column');
    assert.equal(Number(byName.get('c_bigint')!.flags) & 1, 0);
    assert.equal(byName.get('c_bigint')!.characterSet, 63);
    assert.equal(byName.get('c_varchar')!.characterSet, 45);
    assert.equal(rows.length, 3);
    assert.deepEqual(rows[0], {
      c_bool: 1,
      c_tinyint: -128,
      c_smallint: -32768,
      c_int: -2147483648,
      c_bigint: '-9223372036854775808',
      c_largeint: '-170141183460469231731687303715884105728',
      c_float: 1.5,
      c_double: 3.141592653589793,
      c_decimal: '123.45',
      c_decimal_wide: '123456789012345678.123456789',
      c_date: '2024-02-29',
      c_datetime: '2024-02-29 13:14:15',
      c_datetime3: '2024-01-02 03:04:05.678',
      c_char: 'ab',
      c_varchar: 'héllo wörld',
      c_string: '日本語 ✓',
      c_null: null,
    });
    assert.deepEqual(rows[1], {
      c_bool: 0,
      c_tinyint: 127,
      c_smallint: 12345,
      c_int: 2147483647,
      c_bigint: '9007199254740993',
      c_largeint: '170141183460469231731687303715884105727',
      c_float: -0.25,
      c_double: -0.001,
      c_decimal: '-0.05',
      c_decimal_wide: '-0.000000001',
      c_date: '1970-01-01',
      c_datetime: '1999-12-31 23:59:59',
      c_datetime3: '2000-01-01 00:00:00.000',
      c_char: 'xyz',
      c_varchar: '',
      c_string: 'tab\there',
      c_null: null,
    });
    for (const value of Object.values(rows[2])) assert.equal(value, null);
  } finally {
    await conn.end();
  }
});

test('dates decode as JS Dates by default and dictionary strings come through', async () => {
  const conn = await connect({ timezone: 'Z' });
  try {
    const [rows] = await conn.query<mysql.RowDataPacket[]>('select all_types');
    assert.ok(rows[0].c_date instanceof Date);
    assert.equal((rows[0].c_datetime as Date).toISOString(), '2024-02-29T13:14:15.000Z');
    const [colors] = await conn.query<mysql.RowDataPacket[]>('select dict');
    assert.deepEqual(colors.map((row) => row.color), ['red', 'grün', 'red', null]);
  } finally {
    await conn.end();
  }
});

test('errors carry errno and SQLSTATE and the connection stays usable', async () => {
  const conn = await connect();
  try {
    await assert.rejects(conn.query('select * from nope'), (err: mysql.QueryError) => {
      assert.equal(err.errno, 1146);
      assert.equal(err.sqlState, '42S02');
      assert.equal(err.message, "Table 'db1.nope' doesn't exist");
      return true;
    });
    await assert.rejects(conn.query('throw plain'), (err: mysql.QueryError) => {
      assert.equal(err.errno, 1105);
      assert.equal(err.sqlState, 'HY000');
      assert.equal(err.message, 'plain failure');
      return true;
    });
    const [rows] = await conn.query<mysql.RowDataPacket[]>('select 1');
    assert.deepEqual(rows, [{ 1: 1 }]);
    await assert.rejects(conn.execute('select 1'), (err: mysql.QueryError) => err.errno === 1295);
    const [again] = await conn.query<mysql.RowDataPacket[]>('select 1');
    assert.equal(again.length, 1);
  } finally {
    await conn.end();
  }
});

test('OK packet: affected rows, warnings and the Doris info string reach mysql2', async () => {
  const conn = await connect();
  try {
    const [header] = await conn.query<mysql.ResultSetHeader>('insert ok');
    assert.equal(header.affectedRows, 2);
    assert.equal(header.warningStatus, 1);
    assert.equal(header.info, INSERT_INFO);
    assert.equal(header.serverStatus & 0x0002, 0x0002, 'autocommit flag');
    const [began] = await conn.query<mysql.ResultSetHeader>('begin');
    assert.equal(began.serverStatus & 0x0001, 0x0001, 'in-transaction flag');
    const [committed] = await conn.query<mysql.ResultSetHeader>('commit');
    assert.equal(committed.serverStatus & 0x0001, 0);
  } finally {
    await conn.end();
  }
});

test('authentication: wrong password and unknown user get 1045, a user with a password logs in', async () => {
  await assert.rejects(connect({ user: 'alice', password: 'wrong' }), (err: mysql.QueryError) => {
    assert.equal(err.errno, 1045);
    assert.equal(err.sqlState, '28000');
    assert.equal(err.message, "Access denied for user 'alice'@'127.0.0.1' (using password: YES)");
    return true;
  });
  await assert.rejects(connect({ user: 'alice', password: '' }), (err: mysql.QueryError) => {
    assert.equal(err.message, "Access denied for user 'alice'@'127.0.0.1' (using password: NO)");
    return true;
  });
  await assert.rejects(connect({ user: 'nobody' }), (err: mysql.QueryError) => err.errno === 1045);
  await assert.rejects(connect({ user: 'root', password: 'notempty' }), (err: mysql.QueryError) => err.errno === 1045);
  const conn = await connect({ user: 'alice', password: 'secret' });
  try {
    const session = backend.sessions[backend.sessions.length - 1];
    assert.equal(session.info.user, 'alice');
    assert.equal(session.info.host, '127.0.0.1');
    const [rows] = await conn.query<mysql.RowDataPacket[]>('select connection_id()');
    assert.equal(Number(rows[0]['connection_id()']), conn.threadId);
    assert.ok(conn.threadId >= 1);
  } finally {
    await conn.end();
  }
});

test('multi-statements are off unless the client asks; multiple results when on', async () => {
  const conn = await connect();
  try {
    await assert.rejects(conn.query('select 1; select 1'), (err: mysql.QueryError) => err.errno === 1064);
  } finally {
    await conn.end();
  }
  const multi = await connect({ multipleStatements: true });
  try {
    const [results] = await multi.query('select 1; insert ok; select dict');
    const parts = results as unknown as unknown[];
    assert.equal(parts.length, 3);
    assert.deepEqual(parts[0], [{ 1: 1 }]);
    assert.equal((parts[1] as mysql.ResultSetHeader).info, INSERT_INFO);
    assert.equal((parts[2] as mysql.RowDataPacket[]).length, 4);
  } finally {
    await multi.end();
  }
});

test('database in connect options, COM_INIT_DB, unknown database', async () => {
  const conn = await connect({ database: 'db1' });
  try {
    const [rows] = await conn.query<mysql.RowDataPacket[]>('select database()');
    assert.equal(rows[0]['database()'], 'db1');
  } finally {
    await conn.end();
  }
  await assert.rejects(connect({ database: 'nodb' }), (err: mysql.QueryError) => {
    assert.equal(err.errno, 1049);
    assert.equal(err.message, "Unknown database 'nodb'");
    return true;
  });
});

// Speed is a benchmark's business (bench/prepared.ts reports latency); this only logs the time, which
// shows Nagle-style 40 ms stalls at a glance if corking or setNoDelay ever regress.
test('50 sequential queries on one connection all answer', async () => {
  const conn = await connect();
  try {
    const started = process.hrtime.bigint();
    for (let queryIdx = 0; queryIdx < 50; queryIdx++) {
      const [rows] = await conn.query({ sql: 'select 1', rowsAsArray: true });
      assert.deepEqual(rows, [[1]]);
    }
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(`50 sequential queries: ${elapsedMs.toFixed(1)} ms`);
  } finally {
    await conn.end();
  }
});

test('ping, a large result (many flushes) and pipelined queries in order', async () => {
  const conn = await connect();
  try {
    await conn.ping();
    const [many] = await conn.query<mysql.RowDataPacket[]>('select many');
    assert.equal(many.length, 12000);
    assert.deepEqual(many[11999], { id: 11999, name: 'name-11999' });
    const replies = await Promise.all([conn.query('select sleep 30'), conn.query('select 1'), conn.query('select sleep 5')]);
    assert.deepEqual(
      replies.map(([rows]) => rows),
      [[{ slept: 30 }], [{ 1: 1 }], [{ slept: 5 }]],
    );
  } finally {
    await conn.end();
  }
});

test('packets over 16 MiB in both directions', async () => {
  const conn = await connect();
  try {
    const literal = 'y'.repeat(17 * 1024 * 1024);
    const [rows] = await conn.query<mysql.RowDataPacket[]>(`select length('${literal}')`);
    assert.equal(Number(rows[0].length), literal.length);
    const [big] = await conn.query<mysql.RowDataPacket[]>('select big');
    assert.equal((big[0].big as string).length, 17 * 1024 * 1024 + 5);
    const [after1] = await conn.query<mysql.RowDataPacket[]>('select 1');
    assert.equal(after1.length, 1);
  } finally {
    await conn.end();
  }
});

test('sessions are closed when clients leave; connection ids increase from 1', async () => {
  const first = await connect();
  const second = await connect();
  assert.ok(second.threadId > first.threadId);
  assert.ok(first.threadId >= 1);
  const before = server.connectionCount;
  const session = backend.sessions[backend.sessions.length - 1];
  await second.end();
  await first.end();
  for (let attempt = 0; attempt < 50 && (server.connectionCount > before - 2 || !session.closed); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(session.closed, true);
  assert.equal(server.connectionCount, before - 2);
});

test('too many connections: 1040', async () => {
  const small = new MysqlServer(backend, { host: '127.0.0.1', port: 0, maxConnections: 1 });
  const smallPort = await small.listen();
  try {
    const first = await mysql.createConnection({ host: '127.0.0.1', port: smallPort, user: 'root' });
    await assert.rejects(mysql.createConnection({ host: '127.0.0.1', port: smallPort, user: 'root' }), (err: mysql.QueryError) => {
      assert.equal(err.errno, 1040);
      assert.equal(err.message, 'Too many connections');
      return true;
    });
    await first.end();
  } finally {
    await small.close();
  }
});
