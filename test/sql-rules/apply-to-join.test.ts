/**
 * Plan shapes of subquery decorrelation (src/sql/rules/apply-to-join.ts): each correlated subquery
 * becomes one join of the type its use calls for — LEFT SEMI / LEFT ANTI for a WHERE conjunct, NULL AWARE
 * LEFT ANTI for NOT IN over nullable values, a mark join under OR or in the select list, a LEFT OUTER join
 * over the regrouped aggregate for a scalar subquery — and the inner table is scanned once, not once per
 * outer row. Results are checked against hand-computed rows; the SQL corpus (test/sql/query/subqueries.test)
 * checks many more against DuckDB.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GaleneError } from '../../src/common/errors';
import { Types } from '../../src/common/types';
import { planQuery } from '../../src/sql/query';
import { explain, makeDb, norm, parseQuery, run, sorted } from '../exec-plan/helpers';

const db = makeDb({
  o: {
    columns: [{ name: 'id', type: Types.INT, nullable: false }, { name: 'k', type: Types.INT }, { name: 'v', type: Types.INT }],
    rows: [[1, 1, 10], [2, 2, 20], [3, 3, 30], [4, null, 40]],
  },
  i: {
    columns: [{ name: 'k', type: Types.INT }, { name: 'w', type: Types.INT }, { name: 'nn', type: Types.INT, nullable: false }],
    rows: [[1, 5, 1], [1, 15, 2], [2, 30, 3], [null, 7, 4]],
    batchSize: 2,
  },
});

function joinTypes(sql: string): string[] {
  return explain(db, sql).filter((line) => line.includes('join type:')).map((line) => line.trim().replace('join type: ', ''));
}

test('EXISTS / NOT EXISTS conjuncts become semi / anti hash joins on the correlation keys', async () => {
  const semi = 'SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.k = o.k)';
  assert.deepEqual(joinTypes(semi), ['LEFT SEMI JOIN']);
  assert.ok(explain(db, semi).some((line) => line.includes('HASH JOIN')));
  assert.deepEqual(sorted(norm((await run(db, semi)).rows)), [[1], [2]]);
  const anti = 'SELECT id FROM o WHERE NOT EXISTS (SELECT 1 FROM i WHERE i.k = o.k AND i.w > o.v)';
  assert.deepEqual(joinTypes(anti), ['LEFT ANTI JOIN']);
  assert.deepEqual(sorted(norm((await run(db, anti)).rows)), [[3], [4]]);
});

test('the inner table is scanned once, not once per outer row', async () => {
  const before = db.requests.get('i')?.length ?? 0;
  await run(db, 'SELECT id, (SELECT count(*) FROM i WHERE i.k = o.k) FROM o');
  assert.equal((db.requests.get('i')?.length ?? 0) - before, 1);
});

test('IN is a semi join on operand = value; NOT IN is null-aware unless neither side can be NULL', async () => {
  assert.deepEqual(joinTypes('SELECT id FROM o WHERE o.v IN (SELECT i.w * 2 FROM i WHERE i.k = o.k)'), ['LEFT SEMI JOIN']);
  const nullAware = 'SELECT id FROM o WHERE o.v NOT IN (SELECT i.w * 2 FROM i WHERE i.k = o.k)';
  assert.deepEqual(joinTypes(nullAware), ['NULL AWARE LEFT ANTI JOIN']);
  // o.k = 1: {10, 30} holds 10 -> out; o.k = 2: {60}; o.k = 3: {} -> kept; o.k NULL: {} -> kept.
  assert.deepEqual(sorted(norm((await run(db, nullAware)).rows)), [[2], [3], [4]]);
  // Both sides NOT NULL: a plain anti join hashing on the compared values too.
  const plain = 'SELECT id FROM o WHERE o.id NOT IN (SELECT i.nn FROM i WHERE i.w > o.v)';
  assert.deepEqual(joinTypes(plain), ['LEFT ANTI JOIN']);
  // id 1: {2, 3} -> kept; id 2: {3} -> kept; ids 3, 4: {} -> kept.
  assert.deepEqual(sorted(norm((await run(db, plain)).rows)), [[1], [2], [3], [4]]);
  const some = 'SELECT id FROM o WHERE o.id NOT IN (SELECT i.nn FROM i WHERE i.w < o.v)';
  // id 1: {1, 4} -> out; id 2: {1, 2, 4} -> out; id 3: {1, 2, 4} -> kept; id 4: {1, 2, 3, 4} -> out.
  assert.deepEqual(sorted(norm((await run(db, some)).rows)), [[3]]);
});

test('under OR and in the select list the subquery is a mark join', async () => {
  assert.deepEqual(joinTypes('SELECT id FROM o WHERE o.v > 25 OR EXISTS (SELECT 1 FROM i WHERE i.k = o.k)'), ['LEFT SEMI JOIN (MARK)']);
  const select = 'SELECT id, o.k IN (SELECT i.k FROM i WHERE i.w < o.v) FROM o';
  assert.deepEqual(joinTypes(select), ['LEFT SEMI JOIN (MARK)']);
  assert.ok(explain(db, select).some((line) => line.includes('mark condition:')));
  // id 1: {5 < 10: k=1, 7: NULL} -> TRUE; 2: {1, 1, NULL} -> NULL; 3: {1, 1, 2, NULL} -> NULL; 4: NULL operand -> NULL.
  assert.deepEqual(sorted(norm((await run(db, select)).rows)), [[1, 1], [2, null], [3, null], [4, null]]);
});

test('a correlated scalar aggregate is a left join over the aggregate regrouped by the correlation key', async () => {
  const sql = 'SELECT id, (SELECT count(*) FROM i WHERE i.k = o.k), (SELECT sum(i.w) FROM i WHERE i.k = o.k) FROM o';
  assert.deepEqual(joinTypes(sql), ['LEFT OUTER JOIN', 'LEFT OUTER JOIN']);
  const text = explain(db, sql).join('\n');
  assert.match(text, /HASH AGGREGATE|AGGREGATE/);
  // COUNT over no rows is 0 (not NULL), SUM is NULL.
  assert.deepEqual(sorted(norm((await run(db, sql)).rows)), [[1, 2, 20], [2, 1, 30], [3, 0, null], [4, 0, null]]);
});

test('a scalar subquery without an aggregate checks one match per outer row', async () => {
  const sql = 'SELECT id, (SELECT i.w FROM i WHERE i.k = o.k) FROM o';
  assert.ok(explain(db, sql).some((line) => line.includes('assert: at most 1 match per left row')));
  await assert.rejects(run(db, sql), (err: unknown) => err instanceof GaleneError && err.code === 'SCALAR_SUBQUERY_ROWS' && /Expected EQ 1 to be returned by expression \(SELECT i\.w/.test(err.message));
});

test('with the rule skipped a correlated subquery is refused, not run per row', () => {
  const sql = 'SELECT id FROM o WHERE EXISTS (SELECT 1 FROM i WHERE i.k = o.k)';
  assert.throws(() => planQuery(parseQuery(sql), db.ctx(), { sql, disabledRules: ['apply_to_join'] }), (err: unknown) => err instanceof GaleneError && err.code === 'UNSUPPORTED');
});
