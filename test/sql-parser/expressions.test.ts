/**
 * Expression grammar: MySQL precedence, literals, special call syntaxes, parameters and variables.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExpression, parseStatement } from '../../src/sql/parser';
import { assertFragment, bin, call, col, int, str } from './ast-match';

const cases: [string, unknown][] = [
  // precedence
  ['1 + 2 * 3', bin('+', int('1'), bin('*', int('2'), int('3')))],
  ['1 - 2 - 3', bin('-', bin('-', int('1'), int('2')), int('3'))],
  ['a OR b AND c', bin('OR', col('a'), bin('AND', col('b'), col('c')))],
  ['a || b && c', bin('OR', col('a'), bin('AND', col('b'), col('c')))],
  ['a XOR b OR c', bin('OR', bin('XOR', col('a'), col('b')), col('c'))],
  ['a AND b XOR c', bin('XOR', bin('AND', col('a'), col('b')), col('c'))],
  ['NOT a = b', { kind: 'unary', op: 'NOT', operand: bin('=', col('a'), col('b')) }],
  ['NOT a AND b', bin('AND', { kind: 'unary', op: 'NOT', operand: col('a') }, col('b'))],
  ['!a = b', bin('=', { kind: 'unary', op: 'NOT', operand: col('a') }, col('b'))],
  ['a = 1 AND b <> 2', bin('AND', bin('=', col('a'), int('1')), bin('!=', col('b'), int('2')))],
  ['a <=> NULL', bin('<=>', col('a'), { kind: 'literal', literalType: 'null', value: null })],
  ['a | b & c', bin('|', col('a'), bin('&', col('b'), col('c')))],
  ['a & b + c', bin('&', col('a'), bin('+', col('b'), col('c')))],
  ['a + b ^ c', bin('+', col('a'), bin('^', col('b'), col('c')))],
  ['a DIV b MOD c % d', bin('%', bin('%', bin('DIV', col('a'), col('b')), col('c')), col('d'))],
  ['a << 2 + 1', call('bit_shift_left', col('a'), bin('+', int('2'), int('1')))],
  ['-a * b', bin('*', { kind: 'unary', op: '-', operand: col('a') }, col('b'))],
  ['~a', { kind: 'unary', op: '~', operand: col('a') }],
  ['- 5', int('-5')],
  ['1 - -2', bin('-', int('1'), int('-2'))],
  ['a = b = c', bin('=', bin('=', col('a'), col('b')), col('c'))],
  ['a + b < c * d', bin('<', bin('+', col('a'), col('b')), bin('*', col('c'), col('d')))],
  ['(a OR b) AND c', bin('AND', bin('OR', col('a'), col('b')), col('c'))],
  // predicates
  ['a IS NULL', { kind: 'isnull', operand: col('a'), negated: false }],
  ['a IS NOT NULL AND b', bin('AND', { kind: 'isnull', negated: true }, col('b'))],
  ['a IS TRUE', bin('<=>', col('a'), { kind: 'literal', literalType: 'boolean', value: true })],
  ['a IS NOT FALSE', { kind: 'unary', op: 'NOT', operand: bin('<=>', col('a'), { value: false }) }],
  ['a BETWEEN 1 AND 2 AND b', bin('AND', { kind: 'between', operand: col('a'), low: int('1'), high: int('2'), negated: false }, col('b'))],
  ['a NOT BETWEEN b + 1 AND c', { kind: 'between', negated: true, low: bin('+', col('b'), int('1')), high: col('c') }],
  ['a IN (1, 2, 3)', { kind: 'in', operand: col('a'), list: [int('1'), int('2'), int('3')], negated: false }],
  ['a NOT IN (1)', { kind: 'in', negated: true, list: [int('1')] }],
  ['a IN (SELECT b FROM t)', { kind: 'insubquery', negated: false, query: { kind: 'select' } }],
  ['a NOT LIKE \'x%\'', { kind: 'like', negated: true, regexp: false, pattern: str('x%') }],
  ['a REGEXP \'^x\'', { kind: 'like', regexp: true, negated: false }],
  ['a NOT RLIKE b', { kind: 'like', regexp: true, negated: true }],
  ['comment MATCH_ANY \'olap\'', call('MATCH_ANY', col('comment'), str('olap'))],
  ['EXISTS (SELECT 1)', { kind: 'exists', negated: false, query: { kind: 'select' } }],
  ['NOT EXISTS (SELECT 1)', { kind: 'exists', negated: true }],
  ['(SELECT max(a) FROM t) + 1', bin('+', { kind: 'subquery', query: { kind: 'select', from: { kind: 'table', name: 't' } } }, int('1'))],
  // literals
  ['1.50', { kind: 'literal', literalType: 'decimal', value: '1.50' }],
  ['1e3', { kind: 'literal', literalType: 'float', value: '1e3' }],
  ['.5', { kind: 'literal', literalType: 'decimal', value: '.5' }],
  ['2.5E-3', { kind: 'literal', literalType: 'float', value: '2.5E-3' }],
  ['0x1F', int('31')],
  ["X'4142'", str('AB')],
  ["'it''s' \"a\\tb\"", str("it'sa\tb")],
  ["'a\\nb\\\\c\\'d\\0'", str("a\nb\\c'd\0")],
  ["'100\\%'", str('100\\%')],
  ['TRUE', { kind: 'literal', literalType: 'boolean', value: true }],
  ['false', { kind: 'literal', literalType: 'boolean', value: false }],
  ["DATE '2024-01-02'", { kind: 'literal', literalType: 'date', value: '2024-01-02' }],
  ["TIMESTAMP '2024-01-02 03:04:05'", { kind: 'literal', literalType: 'datetime', value: '2024-01-02 03:04:05' }],
  // identifiers and keywords as names
  ['`select`.`a``b`', col('a`b', 'select')],
  ['db.t.c', col('c', 'db', 't')],
  ['status + type + name + value + date + timestamp + label + text + year + month + day + hour + user + data + query + profile + comment',
    { kind: 'binary', right: col('comment') }],
  ['t.*', { kind: 'star', qualifier: ['t'] }],
  // variables and parameters
  ['@x + @@session.sql_mode + @@global.max + @@autocommit', bin('+', bin('+', bin('+',
    { kind: 'variable', system: false, name: 'x', scope: null },
    { kind: 'variable', system: true, scope: 'session', name: 'sql_mode' }),
    { kind: 'variable', system: true, scope: 'global', name: 'max' }),
    { kind: 'variable', system: true, scope: null, name: 'autocommit' })],
  ['? + ?', bin('+', { kind: 'param', index: 0 }, { kind: 'param', index: 1 })],
  // functions
  ['count(*)', { kind: 'call', name: 'count', args: [{ kind: 'star', qualifier: [] }], distinct: false }],
  ['COUNT(DISTINCT a, b)', { kind: 'call', name: 'COUNT', distinct: true, args: [col('a'), col('b')] }],
  ['sum(distinct x)', { kind: 'call', distinct: true, args: [col('x')] }],
  ["group_concat(DISTINCT x ORDER BY y DESC SEPARATOR ';')",
    { kind: 'call', distinct: true, args: [col('x')], orderBy: [{ expr: col('y'), direction: 'DESC', nulls: null }], separator: ';' }],
  ['IF(a, LEFT(b, 1), RIGHT(b, 2))', call('IF', col('a'), call('LEFT', col('b'), int('1')), call('RIGHT', col('b'), int('2')))],
  ['DATE(ts) = CURRENT_DATE', bin('=', call('DATE', col('ts')), call('CURRENT_DATE'))],
  ['CURRENT_TIMESTAMP() > NOW()', bin('>', call('CURRENT_TIMESTAMP'), call('NOW'))],
  ['DATABASE()', call('DATABASE')],
  ['REPLACE(a, \'x\', \'y\')', call('REPLACE', col('a'), str('x'), str('y'))],
  ['MOD(a, 2)', call('MOD', col('a'), int('2'))],
  ['TRUNCATE(a, 2)', call('TRUNCATE', col('a'), int('2'))],
  ['CAST(a AS DECIMAL(10, 2))', { kind: 'cast', operand: col('a'), targetType: { name: 'DECIMAL', precision: 10, scale: 2 } }],
  ['CAST(a AS SIGNED)', { kind: 'cast', targetType: { name: 'BIGINT' } }],
  ['CAST(a AS CHAR)', { kind: 'cast', targetType: { name: 'STRING' } }],
  ['CONVERT(a, DATETIME(3))', { kind: 'cast', targetType: { name: 'DATETIME', scale: 3 } }],
  ['CONVERT(a USING utf8mb4)', col('a')],
  ['EXTRACT(YEAR FROM d)', call('EXTRACT', str('YEAR'), col('d'))],
  ['TRIM(a)', call('TRIM', col('a'))],
  ["TRIM(LEADING 'x' FROM a)", call('ltrim', col('a'), str('x'))],
  ['TRIM(BOTH FROM a)', call('trim', col('a'))],
  ["TRIM('x' FROM a)", call('trim', col('a'), str('x'))],
  ["POSITION('b' IN a)", call('locate', str('b'), col('a'))],
  ['SUBSTRING(a FROM 2 FOR 3)', call('SUBSTRING', col('a'), int('2'), int('3'))],
  ['TIMESTAMPDIFF(DAY, a, b)', call('TIMESTAMPDIFF', str('DAY'), col('a'), col('b'))],
  ['d + INTERVAL 1 DAY', bin('+', col('d'), { kind: 'interval', value: int('1'), unit: 'DAY' })],
  ['date_add(d, INTERVAL -2 MONTH)', call('date_add', col('d'), { kind: 'interval', value: int('-2'), unit: 'MONTH' })],
  ['[1.0, 2.5]', call('array', { value: '1.0' }, { value: '2.5' })],
  ['l2_distance_approximate(embedding, [1, 2, 3])', call('l2_distance_approximate', col('embedding'), call('array', int('1'), int('2'), int('3')))],
  ['CASE WHEN a > 1 THEN \'x\' ELSE \'y\' END', { kind: 'case', operand: null, whens: [{ when: bin('>', col('a'), int('1')), then: str('x') }], elseExpr: str('y') }],
  ['CASE a WHEN 1 THEN 2 WHEN 3 THEN 4 END', { kind: 'case', operand: col('a'), whens: [{ when: int('1') }, { when: int('3') }], elseExpr: null }],
  ["a COLLATE utf8mb4_bin = 'x'", bin('=', col('a'), str('x'))],
];

test('expressions parse with MySQL precedence and shapes', () => {
  for (const [sql, expected] of cases) {
    let expr;
    try {
      expr = parseExpression(sql);
    } catch (err) {
      assert.fail(`${sql}: ${(err as Error).message}`);
    }
    assertFragment(expr, expected, sql);
  }
});

test('spans cover the source text of each node', () => {
  const sql = 'a + f(b, 2) * 3';
  const expr = parseExpression(sql);
  assert.equal(expr.pos, 0);
  assert.equal(expr.end, sql.length);
  assert.ok(expr.kind === 'binary' && expr.right.kind === 'binary');
  if (expr.kind === 'binary' && expr.right.kind === 'binary') {
    assert.equal(sql.slice(expr.right.pos, expr.right.end), 'f(b, 2) * 3');
    assert.equal(sql.slice(expr.right.left.pos, expr.right.left.end), 'f(b, 2)');
  }
  const stmt = parseStatement('  SELECT x FROM t  ;');
  assert.equal(stmt.pos, 2);
  assert.equal(stmt.end, 17);
});

test('parameters count from 0 in text order across the whole statement', () => {
  const stmt = parseStatement('SELECT ? FROM t WHERE a = ? AND b IN (?, ?) ORDER BY c LIMIT ?, ?');
  const params: { index: number; pos: number }[] = [];
  JSON.stringify(stmt, (key, value) => {
    if (value && typeof value === 'object' && value.kind === 'param') params.push({ index: value.index, pos: value.pos });
    return value;
  });
  params.sort((a, b) => a.pos - b.pos);
  assert.deepEqual(params.map((param) => param.index), [0, 1, 2, 3, 4, 5]);
  assertFragment(stmt, { query: { limit: { offset: { kind: 'param', index: 4 }, count: { kind: 'param', index: 5 } } } });
});

test('comments and hints are skipped; /*! */ content is code', () => {
  assertFragment(parseExpression('1 /* c */ + -- line\n 2 # end'), bin('+', int('1'), int('2')));
  assertFragment(parseStatement('SELECT /*+ SET_VAR(a=1) */ a FROM t'), { kind: 'query', query: { items: [{ expr: col('a') }] } });
  assertFragment(parseStatement('/*!40101 SET NAMES utf8 */'), { kind: 'set', assignments: [{ scope: 'names', value: str('utf8') }] });
  assertFragment(parseExpression('1--1'), bin('-', int('1'), int('-1')));
});
