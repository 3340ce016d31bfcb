import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawValue, sliceVector, Vector } from '../../src/common/column';
import { DataType, Types } from '../../src/common/types';
import { isAggregateFunctionName, resolveAggregate } from '../../src/exec/expr';
import { column, dictColumn, printVector } from './expr-test-helpers';

interface Step {
  groupIds: number[];
  args: Vector[];
}

/** Run an aggregate over batches as the hash-aggregate operator does; returns printed results. */
function runAggregate(name: string, argTypes: DataType[], distinct: boolean, groupCount: number, steps: Step[]): (string | null)[] {
  const resolved = resolveAggregate(name, argTypes, distinct);
  const acc = resolved.create();
  for (const step of steps) {
    acc.resize(groupCount);
    acc.update(Int32Array.from(step.groupIds), step.args, step.groupIds.length);
  }
  acc.resize(groupCount);
  const out = acc.finalize(groupCount);
  assert.equal(out.length, groupCount);
  return printVector(out);
}

/** One group (no GROUP BY), one batch. */
function single(name: string, type: DataType, values: RawValue[], distinct = false): string | null {
  return runAggregate(name, [type], distinct, 1, [{ groupIds: values.map(() => 0), args: [column(type, values)] }])[0];
}

test('count, count(x), empty input', () => {
  assert.equal(runAggregate('count', [], false, 1, [{ groupIds: [0, 0, 0], args: [] }])[0], '3');
  assert.equal(single('count', Types.INT, [1, null, 3]), '2');
  assert.deepEqual(runAggregate('count', [], false, 1, []), ['0']);
  assert.deepEqual(runAggregate('sum', [Types.INT], false, 1, []), [null]);
  assert.deepEqual(runAggregate('avg', [Types.INT], false, 1, []), [null]);
  assert.deepEqual(runAggregate('min', [Types.STRING], false, 1, []), [null]);
  assert.equal(single('sum', Types.INT, [null, null]), null);
  assert.equal(single('count', Types.INT, [null]), '0');
  assert.ok(isAggregateFunctionName('COUNT'));
  assert.ok(!isAggregateFunctionName('concat'));
});

test('grouped aggregates with nulls and empty groups', () => {
  const groupIds = [0, 1, 0, 1, 2];
  const values = column(Types.INT, [1, 2, 3, null, 5]);
  assert.deepEqual(runAggregate('sum', [Types.INT], false, 4, [{ groupIds, args: [values] }]), ['4', '2', '5', null]);
  assert.deepEqual(runAggregate('count', [Types.INT], false, 4, [{ groupIds, args: [values] }]), ['2', '1', '1', '0']);
  assert.deepEqual(runAggregate('count', [], false, 4, [{ groupIds, args: [] }]), ['2', '2', '1', '0']);
  assert.deepEqual(runAggregate('avg', [Types.INT], false, 4, [{ groupIds, args: [values] }]), ['2', '2', '5', null]);
  assert.deepEqual(runAggregate('min', [Types.INT], false, 4, [{ groupIds, args: [values] }]), ['1', '2', '5', null]);
  assert.deepEqual(runAggregate('max', [Types.INT], false, 4, [{ groupIds, args: [values] }]), ['3', '2', '5', null]);
  // Groups appear across batches.
  const steps: Step[] = [
    { groupIds: [0, 0], args: [column(Types.DOUBLE, [1.5, 2.5])] },
    { groupIds: [1, 0], args: [column(Types.DOUBLE, [10, 1])] },
  ];
  assert.deepEqual(runAggregate('sum', [Types.DOUBLE], false, 2, steps), ['5', '10']);
});

test('sum is exact: decimals, integer overflow, bigint spill', () => {
  const cents = Types.decimal(15, 2);
  const resolved = resolveAggregate('sum', [cents], false);
  assert.deepEqual(resolved.returnType, Types.decimal(38, 2));
  const acc = resolved.create();
  const batch = column(cents, new Array<RawValue>(4096).fill(1));
  let remaining = 1_000_000;
  const zeros = new Int32Array(4096);
  while (remaining > 0) {
    const rows = Math.min(4096, remaining);
    acc.resize(1);
    acc.update(zeros, [rows === 4096 ? batch : sliceVector(batch, 0, rows)], rows);
    remaining -= rows;
  }
  assert.deepEqual(printVector(acc.finalize(1)), ['10000.00']);
  assert.equal(single('sum', Types.INT, [2147483647, 2147483647, 2147483647]), '6442450941');
  assert.equal(single('sum', Types.BIGINT, [2n ** 61n, 2n ** 61n, 2n ** 61n]), '6917529027641081856');
  assert.equal(single('sum', Types.BIGINT, [2n ** 51n, 2n ** 51n, 2n ** 51n, -(2n ** 51n)]), String(2n ** 52n));
  assert.equal(single('sum', Types.decimal(15, 2), [99999999999999, 99999999999999, 1]), '1999999999999.99');
  const wide = Types.decimal(30, 4);
  assert.equal(single('sum', wide, [10n ** 25n, 1n, null]), '1000000000000000000000.0001');
  assert.equal(single('sum', Types.LARGEINT, [2n ** 100n, 1n]), String(2n ** 100n + 1n));
  assert.equal(single('sum', Types.decimal(3, 1), [1, 2]), '0.3');
  // Grouped spill.
  const big = column(Types.BIGINT, [2n ** 60n, 1n, 2n ** 60n, 2n]);
  assert.deepEqual(runAggregate('sum', [Types.BIGINT], false, 2, [{ groupIds: [0, 1, 0, 1], args: [big] }]), [String(2n ** 61n), '3']);
});

test('avg: DOUBLE for numbers, exact DECIMAL(38, s+4) for decimals', () => {
  assert.equal(single('avg', Types.INT, [1, 2]), '1.5');
  const resolved = resolveAggregate('avg', [Types.decimal(5, 2)], false);
  assert.deepEqual(resolved.returnType, Types.decimal(38, 6));
  assert.equal(single('avg', Types.decimal(5, 2), [100, 200, 200]), '1.666667');
  assert.equal(single('avg', Types.decimal(5, 2), [-100, -200, -200]), '-1.666667');
  assert.equal(single('avg', Types.DOUBLE, [0.5, null, 1.5]), '1');
});

test('min / max over all types', () => {
  assert.equal(single('max', Types.STRING, ['apple', 'é', 'zebra', null]), 'é');
  assert.equal(single('min', Types.STRING, ['apple', 'Zebra', null]), 'Zebra');
  assert.equal(single('max', Types.DATE, [19723, 19753, null]), '2024-01-31');
  assert.equal(single('min', Types.DATETIME, [86400e6, 1e6]), '1970-01-01 00:00:01');
  assert.equal(single('max', Types.BIGINT, [1n, 2n ** 62n, -5n]), String(2n ** 62n));
  assert.equal(single('min', Types.BIGINT, [1n, 2n ** 62n, -5n]), '-5');
  assert.equal(single('max', Types.decimal(5, 2), [150, -150]), '1.50');
  assert.equal(single('max', Types.decimal(30, 2), [10n ** 20n, 5n]), '1000000000000000000.00');
  assert.equal(single('min', Types.DOUBLE, [3.5, -1.25, null]), '-1.25');
  const dict = dictColumn(Types.STRING, ['pear', 'apple', 'fig'], [0, 1, 2, 0], [0, 0, 0, 0]);
  assert.deepEqual(runAggregate('max', [Types.STRING], false, 2, [{ groupIds: [0, 0, 1, 1], args: [dict] }]), ['pear', 'pear']);
  assert.deepEqual(runAggregate('min', [Types.STRING], false, 2, [{ groupIds: [0, 0, 1, 1], args: [dict] }]), ['apple', 'fig']);
  // BIGINT values switch to bigint state mid-way.
  const steps: Step[] = [
    { groupIds: [0], args: [column(Types.BIGINT, [5n])] },
    { groupIds: [0], args: [column(Types.BIGINT, [2n ** 60n + 1n])] },
  ];
  assert.deepEqual(runAggregate('max', [Types.BIGINT], false, 1, steps), [String(2n ** 60n + 1n)]);
});

test('DISTINCT aggregates', () => {
  assert.equal(single('count', Types.INT, [1, 1, 2, null], true), '2');
  assert.equal(single('sum', Types.INT, [1, 1, 2, null], true), '3');
  assert.equal(single('avg', Types.INT, [1, 1, 2], true), '1.5');
  const a = column(Types.INT, [1, 1, 1, null]);
  const b = column(Types.STRING, ['x', 'x', 'y', 'z']);
  assert.deepEqual(runAggregate('count', [Types.INT, Types.STRING], true, 1, [{ groupIds: [0, 0, 0, 0], args: [a, b] }]), ['2']);
  assert.deepEqual(runAggregate('count', [Types.INT], true, 2, [{ groupIds: [0, 1, 0, 1], args: [column(Types.INT, [7, 7, 7, 8])] }]), ['1', '2']);
  assert.deepEqual(runAggregate('count', [Types.INT], true, 1, []), ['0']);
});

test('any_value, group_concat, variance', () => {
  assert.equal(single('any_value', Types.INT, [null, 4, 5]), '4');
  assert.equal(single('group_concat', Types.STRING, ['a', null, 'b']), 'a, b');
  const sep = column(Types.STRING, ['|', '|', '|']);
  assert.deepEqual(runAggregate('group_concat', [Types.STRING, Types.STRING], false, 1, [{ groupIds: [0, 0, 0], args: [column(Types.STRING, ['a', 'b', 'a']), sep] }]), ['a|b|a']);
  assert.deepEqual(runAggregate('group_concat', [Types.STRING, Types.STRING], true, 1, [{ groupIds: [0, 0, 0], args: [column(Types.STRING, ['a', 'b', 'a']), sep] }]), ['a|b']);
  assert.equal(single('variance', Types.INT, [1, 2, 3, 4]), '1.25');
  assert.equal(single('var_samp', Types.INT, [1, 2, 3, 4]), String(5 / 3));
  assert.equal(single('stddev', Types.INT, [1, 2, 3, 4]), String(Math.sqrt(1.25)));
  assert.equal(single('stddev_samp', Types.INT, [1]), null);
});

test('COUNT(DISTINCT) past the set split (65,536 keys) counts every value once, per group, for every key kind', () => {
  const cases: { type: DataType; value: (n: number) => RawValue }[] = [
    { type: Types.BIGINT, value: (n) => BigInt(n) * 4294967296n - 7n },
    { type: Types.INT, value: (n) => n - 50_000 },
    { type: Types.DOUBLE, value: (n) => n / 8 },
    { type: Types.STRING, value: (n) => `key-${n % 1000}-${Math.floor(n / 1000)}` },
  ];
  for (const { type, value } of cases) {
    const acc = resolveAggregate('count', [type], true).create();
    acc.resize(2);
    const expected = [new Set<string>(), new Set<string>()];
    // 160,000 distinct values, each seen twice, spread over two groups; group 0 passes the split.
    const batchRows = 4096;
    for (let round = 0; round < 2; round++) {
      for (let start = 0; start < 160_000; start += batchRows) {
        const count = Math.min(batchRows, 160_000 - start);
        const values: RawValue[] = [];
        const groups = new Int32Array(count);
        for (let rowIdx = 0; rowIdx < count; rowIdx++) {
          const n = start + rowIdx;
          values.push(value(n));
          groups[rowIdx] = n % 5 === 0 ? 1 : 0;
          expected[groups[rowIdx]].add(String(value(n)));
        }
        acc.update(groups, [column(type, values)], count);
      }
    }
    const out = acc.finalize(2);
    assert.deepEqual(printVector(out), [String(expected[0].size), String(expected[1].size)], type.name);
  }
});
