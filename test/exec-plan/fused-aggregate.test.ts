/**
 * Filter fused into HashAggregate (fuse-operators.ts, grouped-aggregation.ts) against the unfused plan
 * (Filter then HashAggregate) over random data with NULLs: every aggregate, with and without GROUP BY,
 * at high selectivity (rejected rows go to the reserved group) and low selectivity (compacted columns).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getRaw, type RawValue } from '../../src/common/column';
import { mulberry32 } from '../../src/common/prng';
import { Types } from '../../src/common/types';
import { executePlan, explainPlan, planQuery } from '../../src/sql/query';
import { makeDb, parseQuery, sorted } from './helpers';

const random = mulberry32(7);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const maybe = <T>(value: T): T | null => (random() < 0.1 ? null : value);
const rows: RawValue[][] = [];
for (let rowIdx = 0; rowIdx < 5000; rowIdx++) {
  rows.push([
    maybe(pick(['a', 'b', 'c', 'd'])),
    maybe(Math.floor(random() * 100)),
    maybe(Math.floor(random() * 2000) - 1000),
    maybe(Math.floor(random() * 1_000_000) - 500_000), // DECIMAL(10,2) scaled
    maybe(Math.round(random() * 1e6) / 64),
    maybe(pick(['x', 'yy', 'zzz', 'é'])),
  ]);
}
const db = makeDb({
  t: {
    columns: [
      { name: 'g', type: Types.varchar(4) },
      { name: 'k', type: Types.INT },
      { name: 'x', type: Types.INT },
      { name: 'd', type: Types.decimal(10, 2) },
      { name: 'f', type: Types.DOUBLE },
      { name: 's', type: Types.varchar(8) },
    ],
    rows,
    batchSize: 1000,
  },
});

async function runWith(sql: string, disabledRules: string[]): Promise<{ rows: RawValue[][]; plan: string }> {
  const ctx = db.ctx();
  const plan = planQuery(parseQuery(sql), ctx, { sql, disabledRules });
  const out: RawValue[][] = [];
  for await (const batch of executePlan(plan, ctx)) {
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) out.push(batch.columns.map((vec) => getRaw(vec, rowIdx)));
  }
  return { rows: out, plan: explainPlan(plan).join('\n') };
}

const AGGREGATES = [
  'count(*)', 'count(x)', 'sum(x)', 'avg(x)', 'min(x)', 'max(x)', 'sum(d)', 'avg(d)', 'min(d)', 'max(d)',
  'sum(f)', 'avg(f)', 'min(f)', 'max(f)', 'min(s)', 'max(s)', 'count(DISTINCT x)', 'sum(DISTINCT d)',
  'group_concat(s)', 'variance(f)', 'stddev_samp(x)', 'sum(x * d)', 'sum(d * (1 - d))', 'count(s, x)',
].join(', ');

const FILTERS = ['k > 9', 'k < 5', 'k IS NULL', 'k IS NOT NULL AND x > 0', 's = \'yy\' OR k > 50', 'g IN (\'a\', \'b\')', 'k > 1000'];

for (const filter of FILTERS) {
  for (const groupBy of ['', 'GROUP BY g', 'GROUP BY g, s', 'GROUP BY k % 7']) {
    test(`fused = unfused: WHERE ${filter} ${groupBy || '(no GROUP BY)'}`, async () => {
      const keys = groupBy === '' ? '' : groupBy.slice('GROUP BY '.length) + ', ';
      const sql = `SELECT ${keys}${AGGREGATES} FROM t WHERE ${filter} ${groupBy}`;
      const fused = await runWith(sql, []);
      const unfused = await runWith(sql, ['fuse_operators']);
      assert.match(fused.plan, /filter \(fused\)/);
      assert.doesNotMatch(unfused.plan, /filter \(fused\)/);
      assert.match(unfused.plan, /FILTER/);
      assert.deepEqual(sorted(fused.rows), sorted(unfused.rows));
      if (groupBy === '') assert.equal(fused.rows.length, 1);
    });
  }
}

test('fused aggregate of a filter no row passes: one row without GROUP BY, none with', async () => {
  const global = await runWith('SELECT count(*), sum(x), min(s) FROM t WHERE k > 1000', []);
  assert.deepEqual(global.rows, [[0n, null, null]]);
  const grouped = await runWith('SELECT g, count(*) FROM t WHERE k > 1000 GROUP BY g', []);
  assert.deepEqual(grouped.rows, []);
});

test('a filter whose rejected rows would fail an argument keeps them out (compacted path)', async () => {
  // date_trunc with a per-row unit may throw: the fused aggregate must not evaluate it on rejected rows.
  const bad = makeDb({ u: { columns: [{ name: 'unit', type: Types.varchar(10) }, { name: 'd', type: Types.DATE }], rows: [['day', 19000], ['nonsense', 19001], ['day', 19002], ['day', 19003]] } });
  const sql = "SELECT count(date_trunc(d, unit)) FROM u WHERE unit = 'day'";
  const ctx = bad.ctx();
  const plan = planQuery(parseQuery(sql), ctx, { sql });
  const out: RawValue[] = [];
  for await (const batch of executePlan(plan, ctx)) out.push(getRaw(batch.columns[0], 0));
  assert.deepEqual(out, [3n]);
});
