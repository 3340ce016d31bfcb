/**
 * Hostile expressions from one client (issue #8, area `expr`): huge string results, LIKE and REGEXP
 * patterns that backtrack catastrophically, and expressions nested past any stack. Each gets Doris's error
 * or the right answer, and the server keeps serving other sessions.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

let server: GaleneProcess;
let conn: Connection;
let observer: Connection;

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port);
  observer = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE hx');
  await conn.query('CREATE TABLE hx.t (k INT NOT NULL, v VARCHAR(300)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
  const rows: string[] = [];
  for (let rowIdx = 0; rowIdx < 2000; rowIdx++) rows.push(`(${rowIdx}, '${rowIdx === 7 ? 'a'.repeat(204) + 'b' : 'a'.repeat(205)}')`);
  await conn.query(`INSERT INTO hx.t VALUES ${rows.join(',')}`);
});

after(async () => {
  await conn?.end();
  await observer?.end();
  await server.stop();
});

async function expectError(sql: string, errno: number, fragment: string): Promise<void> {
  await assert.rejects(conn.query(sql), (err: { errno?: number; message: string }) => {
    assert.equal(err.errno, errno, err.message);
    assert.ok(err.message.includes(fragment), err.message);
    return true;
  }, sql.slice(0, 80));
}

/** The server still answers another session, and the table is unchanged. */
async function stillServing(): Promise<void> {
  assert.deepEqual(await queryRows(observer, 'SELECT count(*), sum(length(v)) FROM hx.t'), [['2000', String(2000 * 205)]]);
}

test('string results past the limit answer STRING_OVERFLOW_IN_VEC_ENGINE instead of killing the process', async () => {
  const overflow = 'string column length is too large';
  await expectError("SELECT length(lpad('a', 1000000000, 'x'))", 1105, overflow);
  await expectError("SELECT length(rpad('a', 1000000000, 'x'))", 1105, overflow);
  await expectError("SELECT length(repeat('ab', 600000000))", 1105, overflow);
  await expectError('SELECT length(space(1000000000))', 1105, overflow);
  // 2,000 distinct rows x 4 MB: the batch's total is checked, not only each value.
  await expectError('SELECT sum(length(repeat(cast(k AS VARCHAR), 1000000))) FROM hx.t', 1105, overflow);
  await expectError('SELECT length(repeat(v, 10000000)) FROM hx.t', 1105, overflow);
  await expectError("SELECT length(replace(v, 'a', repeat('z', 2000000))) FROM hx.t", 1105, overflow);
  await stillServing();
  assert.deepEqual(await queryRows(conn, "SELECT lpad('7', 3, '0'), rpad('ab', 5, 'xy'), length(repeat('x', 1000000)), lpad('abc', 2, 'z'), lpad('a', -1, 'x')"), [['007', 'abxyx', '1000000', 'ab', null]]);
});

test('LIKE with many % runs in linear time and answers correctly', async () => {
  const pattern = '%a'.repeat(19) + '%b';
  assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM hx.t WHERE v LIKE '${pattern}'`), [['1']]);
  assert.deepEqual(await queryRows(conn, `SELECT k FROM hx.t WHERE v LIKE '${pattern}'`), [['7']]);
  assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM hx.t WHERE v NOT LIKE '${'%a_'.repeat(19)}%b'`), [['1999']]);
  await stillServing();
});

test('LIKE escapes follow Doris: a backslash escapes only %, _ and itself', async () => {
  assert.deepEqual(await queryRows(conn, "SELECT '\\\\b' LIKE '\\\\b', 'b' LIKE '\\\\b', '100%' LIKE '100\\%', '100x' LIKE '100\\%'"), [['1', '0', '1', '0']]);
});

test('REGEXP cannot backtrack catastrophically; invalid patterns answer Doris error', async () => {
  assert.deepEqual(await queryRows(conn, "SELECT 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' REGEXP '.*.*.*.*.*.*.*.*=x'"), [['0']]);
  assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM hx.t WHERE concat(v, '!') REGEXP '^(a+)+$'`), [['0']]);
  assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM hx.t WHERE v RLIKE '^(a|aa)+b$'`), [['1']]);
  assert.deepEqual(await queryRows(conn, "SELECT regexp_extract(concat(v, '!'), '^((a+)+)!$', 1) = v FROM hx.t WHERE k = 3"), [['1']]);
  assert.deepEqual(await queryRows(conn, "SELECT regexp_replace('aaaa!', '(a+)+!', '<\\\\1>')"), [['<aaaa>']]);
  await expectError("SELECT 'a' REGEXP '('", 1105, 'Invalid regex expression: (');
  await expectError("SELECT regexp_extract('a', '[a', 0)", 1105, 'Invalid regex expression: [a');
  await stillServing();
});

test('expressions nested past the depth limit answer Doris error; long flat lists still work', async () => {
  const tooDeep = 'Exceeded the maximum depth of an expression tree (1000).';
  const n = 100_000;
  await expectError(`SELECT ${'('.repeat(n)}1${')'.repeat(n)}`, 1105, tooDeep);
  await expectError(`SELECT ${Array(n).fill('1').join('+')}`, 1105, tooDeep);
  await expectError(`SELECT ${'NOT '.repeat(n)}1`, 1105, tooDeep);
  await expectError(`SELECT ${'- '.repeat(n)}1`, 1105, tooDeep);
  await expectError(`SELECT ${'abs('.repeat(n)}1${')'.repeat(n)}`, 1105, tooDeep);
  await expectError(`SELECT k FROM hx.t WHERE ${Array(1500).fill('k').join(' * ')} > 0`, 1105, tooDeep);
  await stillServing();
  const inList = Array.from({ length: 10_000 }, (_, idx) => idx * 2).join(',');
  assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM hx.t WHERE k IN (${inList})`), [['1000']]);
  const orChain = Array.from({ length: 3000 }, (_, idx) => `k = ${idx * 3}`).join(' OR ');
  assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM hx.t WHERE ${orChain}`), [['667']]);
  const andChain = Array.from({ length: 5000 }, (_, idx) => `k <> ${idx + 2000}`).join(' AND ');
  assert.deepEqual(await queryRows(conn, `SELECT count(*) FROM hx.t WHERE ${andChain} AND k < 10`), [['10']]);
  assert.deepEqual(await queryRows(conn, `SELECT ${Array(900).fill('1').join('+')}`), [['900']]);
});
