/**
 * The parser's OVER clause: PARTITION BY, ORDER BY with directions and NULLS, ROWS / RANGE frames in the
 * BETWEEN and single-bound forms, and the syntax errors of a malformed window.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GaleneError } from '../../src/common/errors';
import { parseStatement } from '../../src/sql/parser';
import { assertFragment, call, col, int } from './ast-match';

/** The first select item's expression of `SELECT <expr> FROM t`. */
function firstItem(expr: string): unknown {
  const stmt = parseStatement(`SELECT ${expr} FROM t`) as unknown as { query: { items: { expr: unknown }[] } };
  return stmt.query.items[0].expr;
}

test('OVER clauses parse into the window spec of the call', () => {
  assertFragment(firstItem('row_number() OVER ()'), { ...call('row_number'), over: { partitionBy: [], orderBy: [], frame: null } });
  assertFragment(firstItem('sum(x) OVER (PARTITION BY a, b ORDER BY c DESC NULLS FIRST, d)'), {
    ...call('sum', col('x')),
    over: {
      partitionBy: [col('a'), col('b')],
      orderBy: [
        { expr: col('c'), direction: 'DESC', nulls: 'FIRST' },
        { expr: col('d'), direction: 'ASC', nulls: null },
      ],
      frame: null,
    },
  });
  assertFragment(firstItem('avg(x) OVER (ORDER BY c ROWS BETWEEN 3 PRECEDING AND UNBOUNDED FOLLOWING)'), {
    over: { frame: { units: 'ROWS', start: { kind: 'PRECEDING', offset: int('3') }, end: { kind: 'UNBOUNDED_FOLLOWING', offset: null } } },
  });
  assertFragment(firstItem('count(*) OVER (ORDER BY c RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)'), {
    over: { frame: { units: 'RANGE', start: { kind: 'UNBOUNDED_PRECEDING' }, end: { kind: 'CURRENT_ROW' } } },
  });
  // The single-bound form: the end is CURRENT ROW (null here, filled in by the binder).
  assertFragment(firstItem('sum(x) OVER (ORDER BY c ROWS 2 FOLLOWING)'), { over: { frame: { units: 'ROWS', start: { kind: 'FOLLOWING', offset: int('2') }, end: null } } });
  // A window call inside an expression.
  assertFragment(firstItem('x - lag(x, 1, 0) OVER (ORDER BY c)'), { kind: 'binary', op: '-', right: { ...call('lag', col('x'), int('1'), int('0')), over: { orderBy: [{ expr: col('c') }] } } });
});

test('malformed windows are syntax errors', () => {
  for (const sql of [
    'SELECT sum(x) OVER FROM t',
    'SELECT sum(x) OVER w FROM t',
    'SELECT sum(x) OVER (ORDER BY c ROWS BETWEEN 1 PRECEDING) FROM t',
    'SELECT sum(x) OVER (ORDER BY c ROWS UNBOUNDED) FROM t',
    'SELECT sum(x) OVER (ORDER BY c ROWS BETWEEN 1 AND 2 FOLLOWING) FROM t',
    'SELECT sum(x) OVER (PARTITION BY a FROM t',
  ]) {
    assert.throws(() => parseStatement(sql), (err: unknown) => err instanceof GaleneError && err.code === 'SYNTAX_ERROR', sql);
  }
});
