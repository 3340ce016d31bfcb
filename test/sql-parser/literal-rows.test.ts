/**
 * The INSERT ... VALUES fast path (parse-literal-rows.ts) against the general parser: for every list the
 * fast path takes, the materialized rows (with spans) must equal what the general parser builds; lists
 * it must not take fall back and still parse (or fail) exactly as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GaleneError } from '../../src/common/errors';
import type { InsertStatement, ValuesQuery } from '../../src/sql/ast';
import { parseStatements } from '../../src/sql/parser';

function parseBoth(sql: string): { fast: InsertStatement; slow: InsertStatement } {
  const [fast] = parseStatements(sql) as InsertStatement[];
  const [slow] = parseStatements(sql, { fastPaths: false }) as InsertStatement[];
  return { fast, slow };
}

function source(statement: InsertStatement): ValuesQuery {
  assert.equal(statement.source.kind, 'values');
  return statement.source as ValuesQuery;
}

/** Same AST both ways, `rows` compared through the lazy materialization; returns whether the fast path ran. */
function assertParity(sql: string): boolean {
  const { fast, slow } = parseBoth(sql);
  assert.equal(source(slow).literals, undefined);
  assert.deepEqual(source(fast).rows, source(slow).rows, sql);
  const { source: fastSource, ...fastRest } = fast;
  const { source: slowSource, ...slowRest } = slow;
  assert.deepEqual(fastRest, slowRest, sql);
  assert.equal(fastSource.pos, slowSource.pos, sql);
  assert.equal(fastSource.end, slowSource.end, sql);
  return source(fast).literals !== undefined;
}

const TAKEN = [
  "INSERT INTO t VALUES (1, -2, 3.5, -0.5, .5, -.5, 1e3, -1.5E-3, 1., 007, 99999999999999999999999)",
  "INSERT INTO t VALUES ('a', \"b\", '', 'it''s', \"q\"\"q\", 'a\\nb\\tc\\\\d', 'x\\%y\\_z', '\\'', 'é漢字😀', 'tab\there')",
  'INSERT INTO t VALUES (NULL, null, TRUE, false, DEFAULT, default)',
  "INSERT INTO t (a, b) VALUES (1, 'x'),(2,'y') ,\n\t( 3 , 'z' )",
  "INSERT INTO db.t WITH LABEL l1 VALUES (1, '2020-01-01', '2020-01-01 10:11:12')",
  "INSERT INTO t VALUE (1)",
  "INSERT INTO t VALUES (1); SELECT 1",
  "INSERT INTO t VALUES (-9223372036854775808, 18446744073709551615, -0, 0.000)",
];

test('plain literal lists take the fast path and build the same AST', () => {
  for (const sql of TAKEN) assert.ok(assertParity(sql), `fast path not taken: ${sql}`);
  const [, select] = parseStatements('INSERT INTO t VALUES (1); SELECT 2');
  assert.equal(select.kind, 'query');
});

const NOT_TAKEN = [
  'INSERT INTO t VALUES (1 + 2)',
  "INSERT INTO t VALUES (-'5')",
  'INSERT INTO t VALUES (--5)',
  'INSERT INTO t VALUES (- 5)',
  'INSERT INTO t VALUES (+5)',
  "INSERT INTO t VALUES ('a' 'b')",
  'INSERT INTO t VALUES (x)',
  'INSERT INTO t VALUES (1, /* c */ 2)',
  'INSERT INTO t VALUES (1), (1, 2)',
  'INSERT INTO t VALUES (0x1F)',
  "INSERT INTO t VALUES (X'41')",
  "INSERT INTO t VALUES (DATE '2020-01-01')",
  "INSERT INTO t VALUES (_utf8'a')",
  'INSERT INTO t VALUES (NULL IS NULL)',
  "INSERT INTO t VALUES ('a' COLLATE utf8mb4_bin)",
  'INSERT INTO t VALUES ROW(1), ROW(2)',
  'INSERT INTO t VALUES (?)',
  'INSERT INTO t VALUES (1.5.5)',
  "INSERT INTO t VALUES (1, (2), 'c')",
  'INSERT INTO t VALUES ()',
  'INSERT INTO t VALUES (1) /* a comment */ , (2)',
  'INSERT INTO t VALUES (1) -- a comment\n, (2)',
  'INSERT INTO t VALUES (1) # a comment\n, (2)',
  'INSERT INTO t VALUES (1) # a comment after the list',
  'INSERT INTO t /*! VALUES (1) */',
];

test('anything but plain literals falls back to the general parser', () => {
  for (const sql of NOT_TAKEN) {
    let fastResult: unknown;
    let slowResult: unknown;
    try {
      fastResult = parseStatements(sql);
    } catch (err) {
      fastResult = err;
    }
    try {
      slowResult = parseStatements(sql, { fastPaths: false });
    } catch (err) {
      slowResult = err;
    }
    if (slowResult instanceof GaleneError) {
      assert.ok(fastResult instanceof GaleneError, sql);
      assert.equal(fastResult.message, slowResult.message, sql);
      continue;
    }
    assert.ok(!assertParity(sql), `fast path taken: ${sql}`);
  }
});

test('syntax errors inside or after a literal list are the general parser\'s', () => {
  const cases = [
    'INSERT INTO t VALUES (1',
    "INSERT INTO t VALUES (1, 'abc",
    'INSERT INTO t VALUES (1),',
    'INSERT INTO t VALUES (1) (2)',
    'INSERT INTO t VALUES (1) garbage',
    'INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 2',
    "INSERT INTO t VALUES (1, 'x'), (2, 'y'",
  ];
  for (const sql of cases) {
    const outcome = (options?: { fastPaths: boolean }): GaleneError => {
      try {
        parseStatements(sql, options);
      } catch (err) {
        assert.ok(err instanceof GaleneError, sql);
        return err;
      }
      assert.fail(`no error for ${sql}`);
    };
    const fast = outcome();
    const slow = outcome({ fastPaths: false });
    assert.equal(fast.message, slow.message, sql);
    assert.equal(fast.errno, slow.errno, sql);
    assert.deepEqual(fast.span, slow.span, sql);
  }
});

test('a large generated list parses the same both ways', () => {
  const rows: string[] = [];
  for (let rowIdx = 0; rowIdx < 2000; rowIdx++) {
    rows.push(`(${rowIdx}, -${rowIdx}.${rowIdx % 100}, '${'x'.repeat(rowIdx % 7)}\\'${rowIdx}', ${rowIdx % 5 === 0 ? 'NULL' : `'1995-0${1 + (rowIdx % 9)}-1${rowIdx % 10}'`}, ${rowIdx}e-${rowIdx % 4})`);
  }
  assert.ok(assertParity(`INSERT INTO t VALUES ${rows.join(',')}`));
});
