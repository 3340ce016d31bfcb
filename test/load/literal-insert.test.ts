/**
 * INSERT of plain literals (the bulk-load fast path: parse-literal-rows.ts + literalRowsToColumns) against
 * the general path, over a real server: the same rows are inserted once as plain literals and once with
 * an extra row holding an expression (which sends the whole statement down the general path); the stored
 * rows, and the errors of bad rows (errno and message, including which row is named), must be the same.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

let server: GaleneProcess;
let conn: Connection;
before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE lit');
  await conn.query('USE lit');
  for (const name of ['fast_t', 'slow_t']) {
    await conn.query(`CREATE TABLE ${name} (k INT NOT NULL, ti TINYINT, si SMALLINT, bi BIGINT, li LARGEINT, f FLOAT, d DOUBLE,
      dec2 DECIMAL(15,2), wdec DECIMAL(27,9), dt DATE, dtm DATETIME, dtm3 DATETIME(3), b BOOLEAN, c CHAR(5), v VARCHAR(8) DEFAULT 'dv',
      s STRING, nn INT NOT NULL) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3`);
  }
});
after(async () => {
  await conn.end();
  await server.stop();
});

/** An extra last row whose expression forces the general path; its k (1000) is filtered out on reads. */
const SLOW_ROW = "(1000 + 0, 1, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)";

const ROWS = [
  "(1, -128, 32767, -9223372036854775808, 170141183460469231731687303715884105727, 3.4e38, -1.5E-3, 1234567890123.45, 123456789012345678.123456789, '1992-01-01', '1998-12-31 23:59:59', '2024-02-29 12:34:56.789', TRUE, 'abc', 'it''s', 'a\\nb\\tc', 0)",
  "(2, 127, -32768, 9223372036854775807, -5, -0, 0.1, -0.005, -0.0000000005, '2024-02-29', '2000-01-01 00:00:00', '2000-01-01', FALSE, 'ééééé', '漢字😀', '', -1)",
  "(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 2)",
  "(4, '5', '  6 ', '7', '8', '9.5', '1e3', '12.345', '1.5e2', '20240301', '2024-03-01 1:2:3', '2024-03-01T04:05:06', '0', 'ab', DEFAULT, 'x\\%y\\_z', '42')",
  "(5, 1.4, 2.5, 3.5, 4, .5, 1., 99.999, 7, '1992-1-2', '1992-01-02', '1992-01-02 03:04:05.123456', 1, \"dq\", \"q\"\"q\", '\\'', 3.7)",
  "(6, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, 6)",
  "(7, 0, 0, 0, 0, 0, 0, 0.00, 0, '0000-01-01', '9999-12-31 23:59:59', '1970-01-01 00:00:00', true, 'UPPER', 'MiXeD', 'tab\there', 0)",
];

async function outcome(sql: string): Promise<{ errno: number; message: string } | 'ok'> {
  try {
    await conn.query(sql);
    return 'ok';
  } catch (err) {
    const { errno, message } = err as { errno: number; message: string };
    return { errno, message };
  }
}

test('plain-literal rows are stored exactly as the general path stores them', async () => {
  assert.equal(await outcome(`INSERT INTO fast_t VALUES ${ROWS.join(', ')}`), 'ok');
  assert.equal(await outcome(`INSERT INTO slow_t VALUES ${ROWS.join(', ')}, ${SLOW_ROW}`), 'ok');
  const fast = await queryRows(conn, 'SELECT * FROM fast_t WHERE k < 1000 ORDER BY k');
  const slow = await queryRows(conn, 'SELECT * FROM slow_t WHERE k < 1000 ORDER BY k');
  assert.equal(fast.length, ROWS.length);
  assert.deepEqual(fast, slow);
  // spot checks that the comparison is not vacuous
  assert.deepEqual(fast[0].slice(0, 4), ['1', '-128', '32767', '-9223372036854775808']);
  assert.equal(fast[0][15], 'a\nb\tc');
  assert.equal(fast[1][14], '漢字😀');
  assert.equal(fast[5][14], 'dv');
});

test('a column list and defaults for the columns left out behave the same', async () => {
  const rows = "(10, 'x', '2001-02-03', 4), (11, NULL, '2001-02-04', -4)";
  assert.equal(await outcome(`INSERT INTO fast_t (k, v, dt, nn) VALUES ${rows}`), 'ok');
  assert.equal(await outcome(`INSERT INTO slow_t (k, v, dt, nn) VALUES ${rows}, (1000 + 1, 'y', '2001-01-01', 0)`), 'ok');
  const query = 'SELECT * FROM %t WHERE k BETWEEN 10 AND 11 ORDER BY k';
  assert.deepEqual(await queryRows(conn, query.replace('%t', 'fast_t')), await queryRows(conn, query.replace('%t', 'slow_t')));
});

test('bad rows fail with the same error, naming the same row and column, and change nothing', async () => {
  const good = "(20, 1, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)";
  const badSets: string[][] = [
    [good, "(21, 128, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)"],
    [good, "(21, 1, 1, 1, 1, 1, 1, 1, 1, '2000-02-30', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)"],
    // row 3 fails in an early column, row 2 in a late one: the row-by-row path names row 2
    [good, "(21, 1, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 'bad')", "(22, 999, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)"],
    [good, "(21, 1, 1, 1, 1, 1, 1, 10000000000000.00, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)"],
    [good, "(21, 1, 1, 1, 1, 1, 1, 'abc', 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)"],
    [good, "(21, 1, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'éééééé', 'x', 'x', 1)"],
    [good, "(21, 1, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', '123456789', 'x', 1)"],
    [good, "(21, 1, 1, 99999999999999999999, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)"],
    [good, "(21, 1, 1, 1, 1, 1e39, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)"],
    [good, "(21, 1, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01 25:00:00', '2000-01-01', 1, 'x', 'x', 'x', 1)"],
    [good, "(NULL, 1, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', 1)"],
    [good, "(21, 1, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 1, 'x', 'x', 'x', DEFAULT)"],
    [good, "(21, 1, 1, 1, 1, 1, 1, 1, 1, '2000-01-01', '2000-01-01', '2000-01-01', 'maybe', 'x', 'x', 'x', 1)"],
  ];
  const before = await queryRows(conn, 'SELECT count(*) FROM fast_t');
  for (const rows of badSets) {
    const fast = await outcome(`INSERT INTO fast_t VALUES ${rows.join(', ')}`);
    const slow = await outcome(`INSERT INTO slow_t VALUES ${rows.join(', ')}, ${SLOW_ROW}`);
    assert.notEqual(fast, 'ok', rows.join(', '));
    assert.deepEqual(fast, slow, rows.join(', '));
  }
  // a width that differs from the column count
  const narrow = await outcome('INSERT INTO fast_t VALUES (1, 2)');
  assert.deepEqual(narrow, await outcome('INSERT INTO slow_t VALUES (1, 2 + 0)'));
  assert.notEqual(narrow, 'ok');
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM fast_t'), before);
});

test('UNIQUE KEY keeps the last row of a key within one literal INSERT, rows come back sorted with NULL keys first', async () => {
  await conn.query('CREATE TABLE u (k1 INT, k2 VARCHAR(10), v INT) UNIQUE KEY(k1, k2) DISTRIBUTED BY HASH(k1) BUCKETS 2');
  await conn.query("INSERT INTO u VALUES (2, 'b', 1), (1, 'z', 2), (2, 'b', 3), (NULL, 'a', 4), (1, 'é', 5), (1, 'z', 6), (NULL, 'a', 7), (1, 'Z', 8)");
  assert.deepEqual(await queryRows(conn, 'SELECT k1, k2, v FROM u ORDER BY k1, k2'), [
    [null, 'a', '7'],
    ['1', 'Z', '8'],
    ['1', 'z', '6'],
    ['1', 'é', '5'],
    ['2', 'b', '3'],
  ]);
});
