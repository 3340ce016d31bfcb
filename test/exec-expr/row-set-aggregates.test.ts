/**
 * The row-set aggregates' partial form: serialize() of two accumulators over consecutive row ranges,
 * merged in order, finalizes to what one accumulator over all rows gives (what a parallel scan relies on).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getRaw, vectorFromRaw, type RawValue } from '../../src/common/column';
import { Types, type DataType } from '../../src/common/types';
import { resolveAggregate } from '../../src/exec/expr';

const ROWS = 40;
const text = Array.from({ length: ROWS }, (_v, idx) => (idx % 7 === 0 ? null : `v${idx % 5}`));
const numbers = Array.from({ length: ROWS }, (_v, idx) => (idx % 9 === 0 ? null : (idx * 37) % 23));
const times = Array.from({ length: ROWS }, (_v, idx) => Date.UTC(2024, 0, 1, 0, 0, idx) * 1000);

const CASES: { name: string; types: DataType[]; columns: RawValue[][] }[] = [
  { name: 'topn', types: [Types.STRING, Types.INT], columns: [text, text.map(() => 3)] },
  { name: 'topn_weighted', types: [Types.STRING, Types.DOUBLE, Types.INT], columns: [text, numbers, text.map(() => 2)] },
  { name: 'histogram', types: [Types.INT, Types.INT], columns: [numbers, numbers.map(() => 4)] },
  { name: 'linear_histogram', types: [Types.DOUBLE, Types.DOUBLE], columns: [numbers, numbers.map(() => 5)] },
  { name: 'count_by_enum', types: [Types.STRING], columns: [text] },
  { name: 'sem', types: [Types.DOUBLE], columns: [numbers] },
  { name: 'percentile_reservoir', types: [Types.DOUBLE, Types.DOUBLE], columns: [numbers, numbers.map(() => 0.3)] },
  { name: 'percentile_approx_weighted', types: [Types.DOUBLE, Types.DOUBLE, Types.DOUBLE], columns: [numbers, text.map((_v, idx) => idx % 3), numbers.map(() => 0.7)] },
  { name: 'sequence_count', types: [Types.STRING, Types.DATETIME, Types.BOOLEAN, Types.BOOLEAN], columns: [text.map(() => '(?1).*(?2)'), times, numbers.map((n) => (n === null ? null : n % 2)), numbers.map((n) => (n === null ? null : n % 3 === 0 ? 1 : 0))] },
];

for (const { name, types, columns } of CASES) {
  test(`${name}: merged partials equal one pass`, () => {
    const agg = resolveAggregate(name, types, false);
    const vectors = columns.map((values, colIdx) => vectorFromRaw(agg.argTypes[colIdx], values));
    const groups = Int32Array.from({ length: ROWS }, (_v, idx) => idx % 2);
    const whole = agg.create();
    whole.resize(2);
    whole.update(groups, vectors, ROWS);
    const expected = [0, 1].map((group) => getRaw(whole.finalize(2), group));

    const half = ROWS / 2;
    const slice = (from: number) => columns.map((values, colIdx) => vectorFromRaw(agg.argTypes[colIdx], values.slice(from, from + half)));
    const merged = agg.create();
    merged.resize(2);
    for (const from of [0, half]) {
      const part = agg.create();
      part.resize(2);
      part.update(groups.subarray(from, from + half), slice(from), half);
      merged.merge!(part.serialize!(2), Int32Array.from([0, 1]), 0);
    }
    assert.deepEqual([0, 1].map((group) => getRaw(merged.finalize(2), group)), expected);
    assert.notEqual(expected[0], null);
  });
}
