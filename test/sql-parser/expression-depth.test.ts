import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Expr } from '../../src/sql/ast';
import { EXPR_DEPTH_LIMIT } from '../../src/sql/parse-expression';
import { parseExpression } from '../../src/sql/parser';

const tooDeep = /Exceeded the maximum depth of an expression tree \(1000\)\./;

function depth(expr: Expr): number {
  if (expr.kind === 'binary') return 1 + Math.max(depth(expr.left), depth(expr.right));
  return 1;
}

test('expressions deeper than the limit answer Doris error, whatever makes them deep', () => {
  assert.equal(EXPR_DEPTH_LIMIT, 1000);
  const n = 100_000;
  assert.throws(() => parseExpression('('.repeat(n) + '1' + ')'.repeat(n)), tooDeep);
  assert.throws(() => parseExpression(Array(n).fill('1').join('+')), tooDeep);
  assert.throws(() => parseExpression(Array(1001).fill('a').join(' - ')), tooDeep);
  assert.throws(() => parseExpression('NOT '.repeat(n) + '1'), tooDeep);
  assert.throws(() => parseExpression('- '.repeat(n) + 'a'), tooDeep);
  assert.throws(() => parseExpression('abs('.repeat(n) + '1' + ')'.repeat(n)), tooDeep);
  // Depth adds up across kinds: a chain inside a call inside a chain.
  const chain = Array(600).fill('x').join(' * ');
  assert.throws(() => parseExpression(`abs(${chain}) + ${Array(600).fill('y').join(' + ')}`), tooDeep);
  assert.doesNotThrow(() => parseExpression(`${Array(600).fill('y').join(' + ')} + abs(${chain})`));
  assert.doesNotThrow(() => parseExpression(Array(999).fill('a').join(' - ')));
});

test('long AND / OR chains are balanced, short ones stay left-deep', () => {
  const terms = Array.from({ length: 5000 }, (_, idx) => `a = ${idx}`);
  const or = parseExpression(terms.join(' OR '));
  assert.ok(depth(or) <= 20, `depth ${depth(or)}`);
  const and = parseExpression(terms.join(' AND '));
  assert.ok(depth(and) <= 20);
  const short = parseExpression('a OR b OR c') as Extract<Expr, { kind: 'binary' }>;
  assert.equal(short.op, 'OR');
  assert.equal(short.left.kind, 'binary');
  assert.equal(short.right.kind, 'column');
  const mixed = parseExpression('a AND b OR c AND d') as Extract<Expr, { kind: 'binary' }>;
  assert.equal(mixed.op, 'OR');
  assert.equal((mixed.left as Extract<Expr, { kind: 'binary' }>).op, 'AND');
  assert.doesNotThrow(() => parseExpression(`a IN (${Array.from({ length: 10_000 }, (_, idx) => idx).join(',')})`));
});
