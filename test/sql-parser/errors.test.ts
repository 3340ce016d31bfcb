/**
 * Bad input: every failure is a GaleneError naming the offending text with its line and column; deep
 * nesting and random byte soup never crash or hang the parser.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GaleneError } from '../../src/common/errors';
import { parseExpression, parseStatement, parseStatements } from '../../src/sql/parser';

function expectError(sql: string, code: string, pattern: RegExp, offset?: number): GaleneError {
  let caught: unknown;
  try {
    parseStatements(sql);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof GaleneError, `${sql}: expected a GaleneError, got ${String(caught)}`);
  assert.equal(caught.code, code, `${sql}: ${caught.message}`);
  assert.match(caught.message, pattern, sql);
  if (offset !== undefined) assert.equal(caught.span?.offset, offset, `${sql}: span ${JSON.stringify(caught.span)}`);
  return caught;
}

const PREFIX = /^You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near /;

test('syntax errors name the token, its line and column', () => {
  const first = expectError('SELEC 1', 'SYNTAX_ERROR', /near 'SELEC 1' at line 1, column 1$/, 0);
  assert.match(first.message, PREFIX);
  assert.equal(first.errno, 1064);
  assert.equal(first.sqlState, '42000');
  expectError('SELECT * FROMM t', 'SYNTAX_ERROR', /near 'FROMM t' at line 1, column 10$/, 9);
  expectError('SELECT (1', 'SYNTAX_ERROR', /near '' at line 1, column 10 \(unexpected end of input\)$/, 9);
  expectError("SELECT 'abc", 'SYNTAX_ERROR', /near ''abc' at line 1, column 8 \(unterminated string literal\)$/, 7);
  expectError('CREATE TABLE t (a INT(11) NOT NULL DEFAULT', 'SYNTAX_ERROR', /near '' at line 1, column 43 \(unexpected end of input\)/);
  expectError('SELECT a,\n  b\nFROM t\nWHERE a = = 1', 'SYNTAX_ERROR', /near '= 1' at line 4, column 11/);
  expectError('SELECT select FROM t', 'SYNTAX_ERROR', /near 'select FROM t' at line 1, column 8/);
  expectError('SELECT 1 2', 'SYNTAX_ERROR', /near '2'/);
  expectError('SELECT * FROM t WHERE a IN ()', 'SYNTAX_ERROR', /near '\)'/);
  expectError('SELECT * FROM t LIMIT -1', 'SYNTAX_ERROR', /near '-1'/);
  expectError('INSERT INTO t VALUES (1', 'SYNTAX_ERROR', /unexpected end of input/);
  expectError('SELECT `abc', 'SYNTAX_ERROR', /unterminated quoted identifier/);
  expectError('SELECT 1 /* never closed', 'SYNTAX_ERROR', /unterminated comment/);
  expectError('SHOW FOO', 'SYNTAX_ERROR', /near 'FOO'/);
  expectError('SELECT a FROM t WHERE', 'SYNTAX_ERROR', /unexpected end of input/);
  expectError('DROP TABLE', 'SYNTAX_ERROR', /unexpected end of input/);
  expectError('SELECT 1; SELEC 2', 'SYNTAX_ERROR', /near 'SELEC 2' at line 1, column 11/);
  expectError('SELECT ' + 'x'.repeat(100) + ' +', 'SYNTAX_ERROR', /unexpected end of input/);
  // the near text is at most 40 characters
  const long = expectError('SELECT * FROM t WHERE ) ' + 'a'.repeat(100), 'SYNTAX_ERROR', /near '\) a+' at/);
  assert.equal(/near '([^']*)'/.exec(long.message)?.[1].length, 40);
  // LEFT JOIN needs a condition; reserved words need backticks
  expectError('SELECT * FROM a LEFT JOIN b', 'SYNTAX_ERROR', /unexpected end of input/);
  expectError('CREATE TABLE key (a INT)', 'SYNTAX_ERROR', /near 'key/);
});

test('semantic parse checks and unsupported syntax use their own codes', () => {
  expectError('CREATE TABLE t (a DECIMAL(40, 2))', 'INVALID_TABLE_DEFINITION', /Precision of decimal must between 1 and 38\. Precision was set to: 40\./);
  expectError('SELECT CAST(a AS DECIMAL(10, 11)) FROM t', 'INVALID_TABLE_DEFINITION', /Scale of decimal/);
  expectError('SELECT a FROM t AS x WINDOW w AS (ORDER BY a)', 'UNSUPPORTED', /named windows/);
  expectError('SELECT (1, 2) IN ((1, 2))', 'UNSUPPORTED', /row constructors/);
  expectError('CREATE TABLE t (v VARIANT)', 'UNSUPPORTED', /VARIANT/);
  expectError('SELECT d + INTERVAL 1 DAY_HOUR', 'UNSUPPORTED', /DAY_HOUR/);
  expectError('SELECT 1 FROM t WHERE a = ANY (SELECT b FROM u)', 'UNSUPPORTED', /ANY \(subquery\)/);
  expectError('INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = 2', 'UNSUPPORTED', /ON DUPLICATE KEY UPDATE/);
});

test('deep nesting is rejected cleanly instead of overflowing the stack', { timeout: 30_000 }, () => {
  const depth = 5000;
  const cases = [
    '('.repeat(depth) + '1' + ')'.repeat(depth),
    '- '.repeat(depth) + 'a',
    'NOT '.repeat(depth) + '1',
    'SELECT * FROM ' + '('.repeat(depth) + 'SELECT 1' + ')'.repeat(depth) + ' t',
    'f('.repeat(depth) + ')'.repeat(depth),
    'CASE WHEN '.repeat(depth) + '1',
    '['.repeat(depth),
  ];
  for (const sql of cases) {
    assert.throws(() => (sql.startsWith('SELECT') ? parseStatement(sql) : parseExpression(sql)),
      (err: unknown) => err instanceof GaleneError && (err.code === 'SYNTAX_ERROR' || err.code === 'EXPR_TOO_DEEP'), sql.slice(0, 30));
  }
  // moderately deep input still parses
  assert.equal(parseExpression('('.repeat(200) + '1' + ')'.repeat(200)).kind, 'literal');
  // (a left-deep chain is as deep as it is long: past EXPR_DEPTH_LIMIT the binder's recursion would overflow)
  assert.equal(parseExpression(Array.from({ length: 999 }, (_, termIdx) => `a${termIdx}`).join(' + ')).kind, 'binary');
});

/** mulberry32: a small seeded generator so failures reproduce. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS = [
  'SELECT', 'FROM', 'WHERE', 'GROUP BY', 'ORDER BY', 'LIMIT', 'JOIN', 'ON', 'AND', 'OR', 'NOT', 'IN', 'LIKE', 'BETWEEN',
  'CASE', 'WHEN', 'THEN', 'END', 'CREATE TABLE', 'INSERT INTO', 'VALUES', 'SET', 'SHOW', 'INTERVAL', 'DISTINCT', 'CAST', 'AS',
  '(', ')', ',', ';', '.', '*', '+', '-', '/', '=', '<=>', '!=', '<', '>', '?', '@x', '@@y', "'s'", '"d"', '`q`', '1', '2.5',
  '1e9', '0x1f', "X'41'", 'a', 'b', 't', 'NULL', 'TRUE', '[', ']', '/*', '*/', '--', '#', '\n', '\\', "'", '"', '`', '@', '$',
  'CHARACTER', 'CHARACTER SET', 'CHARSET', 'COLLATE', 'KEY', 'DEFAULT', 'COMMENT', 'NOT NULL', 'AUTO_INCREMENT', 'SUM',
  'UNSIGNED', 'INT(11)', 'DECIMAL(10,2)', 'INDEX', 'USING', 'ALTER TABLE t', 'ADD COLUMN', 'SHOW FULL', 'EXPLAIN', 'IS', 'ESCAPE',
  'é', '中', '\u0000', '\uffff', '\ud83d\ude00', 'PARTITION BY', 'DISTRIBUTED BY HASH(a)', 'PROPERTIES', 'COUNT(*)',
];

const VALID = [
  'SELECT a, b FROM t WHERE a > 1 AND b IN (1, 2) ORDER BY a LIMIT 10',
  'INSERT INTO t (a, b) VALUES (1, \'x\'), (2, DEFAULT)',
  'CREATE TABLE t (a INT NOT NULL, b VARCHAR(10)) DUPLICATE KEY(a) DISTRIBUTED BY HASH(a) BUCKETS 2 PROPERTIES ("a" = "b")',
  'CREATE TABLE t (a INT(11) NOT NULL DEFAULT "1" COMMENT \'c\', b VARCHAR(5) CHARACTER SET utf8 SUM, INDEX i (b) USING INVERTED) AGGREGATE KEY(a) PARTITION BY RANGE(a) (PARTITION p VALUES LESS THAN ("1")) DISTRIBUTED BY RANDOM',
  'ALTER TABLE t ADD COLUMN c INT KEY DEFAULT "0" AFTER b, MODIFY COLUMN d BIGINT, SET ("a" = "b")',
  'SHOW FULL COLUMNS FROM t FROM db LIKE \'%\'; SET NAMES utf8mb4 COLLATE x; SET @@global.a = ON',
  'SELECT CASE WHEN x THEN 1 ELSE 2 END, count(DISTINCT y) FROM u JOIN v ON u.k = v.k GROUP BY 1 HAVING sum(z) > 3',
];

function assertParsesOrGaleneError(sql: string): boolean {
  try {
    parseStatements(sql);
    return true;
  } catch (err) {
    assert.ok(err instanceof GaleneError, `non-GaleneError for ${JSON.stringify(sql)}: ${String(err)}`);
    if (err.span) {
      assert.ok(err.span.offset >= 0 && err.span.offset <= sql.length, `span out of range for ${JSON.stringify(sql)}`);
    }
    return false;
  }
}

test('random byte soup and mutated statements: always a result or a GaleneError', { timeout: 30_000 }, () => {
  const random = seededRandom(20240601);
  let parsed = 0;
  const iterations = 6000;
  for (let caseIdx = 0; caseIdx < iterations; caseIdx++) {
    let sql = '';
    if (caseIdx % 3 === 0) {
      // raw characters, including control and non-BMP
      const length = Math.floor(random() * 60);
      for (let charIdx = 0; charIdx < length; charIdx++) sql += String.fromCharCode(Math.floor(random() * (random() < 0.9 ? 128 : 0x10000)));
    } else if (caseIdx % 3 === 1) {
      const count = 1 + Math.floor(random() * 20);
      const parts: string[] = [];
      for (let partIdx = 0; partIdx < count; partIdx++) parts.push(FRAGMENTS[Math.floor(random() * FRAGMENTS.length)]);
      sql = parts.join(random() < 0.5 ? ' ' : '');
    } else {
      // mutate a valid statement: delete, duplicate or replace a slice
      const base = VALID[Math.floor(random() * VALID.length)];
      const cut = Math.floor(random() * base.length);
      const cutLength = Math.floor(random() * 8);
      const action = random();
      if (action < 0.33) sql = base.slice(0, cut) + base.slice(cut + cutLength);
      else if (action < 0.66) sql = base.slice(0, cut) + base.slice(cut, cut + cutLength).repeat(3) + base.slice(cut);
      else sql = base.slice(0, cut) + FRAGMENTS[Math.floor(random() * FRAGMENTS.length)] + base.slice(cut + cutLength);
    }
    if (assertParsesOrGaleneError(sql)) parsed++;
  }
  assert.ok(parsed > 0 && parsed < iterations, `parsed ${parsed} of ${iterations}`);
});
