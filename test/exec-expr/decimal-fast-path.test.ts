/**
 * The exact float64 paths for decimals: wide-DECIMAL arithmetic kept as float64 while every value is an
 * integer below 2^53 (falling back to bigint beyond), and exact SUM/AVG across the 2^52 spill limit.
 * Every result is compared with bigint arithmetic done in the test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getRaw, type Vector } from '../../src/common/column';
import { formatValue } from '../../src/common/convert';
import { Types, type DataType } from '../../src/common/types';
import { compileExpr, resolveAggregate } from '../../src/exec/expr';
import { exactNumbers } from '../../src/exec/expr/vector-ops';
import { batchOf, call, col, column, ctx, num } from './expr-test-helpers';

const D15_2 = Types.decimal(15, 2);

/** Scaled bigint of a decimal text with `scale` digits. */
function scaled(text: string, scale: number): bigint {
  const negative = text.startsWith('-');
  const [intPart, frac = ''] = text.replace('-', '').split('.');
  const value = BigInt(intPart + frac.padEnd(scale, '0'));
  return negative ? -value : value;
}

function fmt(type: DataType, value: bigint): string | null {
  return formatValue(type, value);
}

/** A DECIMAL(15,2) column from decimal texts (physical values are scaled numbers). */
function decColumn(texts: readonly string[]): Vector {
  return column(D15_2, texts.map((text) => Number(scaled(text, 2))));
}

function evalVector(expr: ReturnType<typeof call>, columns: Vector[]): Vector {
  return compileExpr(expr)(batchOf(columns), ctx);
}

test('price * (1 - discount) * (1 + tax) stays exact float64 and matches bigint arithmetic', () => {
  const prices = ['0.01', '99999.99', '1234567890123.45', '-5000.55', '7.00'];
  const discounts = ['0.10', '0.00', '0.05', '0.07', '1.00'];
  const taxes = ['0.08', '0.01', '0.00', '0.02', '0.03'];
  const expr = call('multiply', call('multiply', col(0, D15_2), call('subtract', num('1'), col(1, D15_2))), call('add', num('1'), col(2, D15_2)));
  assert.equal(expr.type.name, 'DECIMAL');
  assert.ok((expr.type.precision ?? 0) > 15, 'result type is a wide decimal');
  const vec = evalVector(expr, [decColumn(prices), decColumn(discounts), decColumn(taxes)]);
  const scale = expr.type.scale ?? 0;
  for (let rowIdx = 0; rowIdx < prices.length; rowIdx++) {
    const want = scaled(prices[rowIdx], 2) * (100n - scaled(discounts[rowIdx], 2)) * (100n + scaled(taxes[rowIdx], 2));
    assert.equal(scale, 6);
    assert.equal(formatValue(vec.type, getRaw(vec, rowIdx)), fmt(expr.type, want), `row ${rowIdx}`);
  }
});

test('wide decimal products at and beyond 2^53 fall back to bigint and stay exact', () => {
  // 9999999999999.99 * 9999999999999.99 needs ~2^99: far past the float64 range of exact integers.
  const big = ['9999999999999.99', '949062.65', '949062.66', '-9999999999999.99'];
  const expr = call('multiply', col(0, D15_2), col(1, D15_2));
  const vec = evalVector(expr, [decColumn(big), decColumn(big)]);
  assert.equal(exactNumbers(vec), null, 'no float64 form for a batch with values beyond 2^53');
  for (let rowIdx = 0; rowIdx < big.length; rowIdx++) {
    const want = scaled(big[rowIdx], 2) * scaled(big[rowIdx], 2);
    assert.equal(formatValue(vec.type, getRaw(vec, rowIdx)), fmt(expr.type, want), `row ${rowIdx}`);
  }
  // Just below 2^53 the float64 form is kept, and exact.
  const small = ['949062.65', '1.00'];
  const below = evalVector(expr, [decColumn(small), decColumn(small)]);
  assert.notEqual(exactNumbers(below), null);
  assert.equal(formatValue(below.type, getRaw(below, 0)), fmt(expr.type, scaled('949062.65', 2) ** 2n));
  assert.ok(scaled('949062.65', 2) ** 2n < 2n ** 53n && scaled('949062.66', 2) ** 2n > 2n ** 53n);
  // Addends between 2^52 and 2^53 after a partial sum just below 2^52: the float64 sum needs 54 bits
  // (odd), so it must spill from its exact parts, not from the rounded sum.
  const near = ['663325.01', '949062.64', '663325.01', '949062.64', '-949062.65'];
  const nearVec = evalVector(expr, [decColumn(near), decColumn(near.map((text) => text.replace('-', '')))]);
  assert.notEqual(exactNumbers(nearVec), null);
  const acc = resolveAggregate('sum', [expr.type], false);
  for (const groupIds of [[0, 0, 0, 0, 0], [0, 0, 1, 1, 0]]) {
    const groupCount = Math.max(...groupIds) + 1;
    const state = acc.create();
    state.resize(groupCount);
    state.update(Int32Array.from(groupIds), [nearVec], near.length);
    const out = state.finalize(groupCount);
    const want = new Array<bigint>(groupCount).fill(0n);
    near.forEach((text, rowIdx) => (want[groupIds[rowIdx]] += scaled(text, 2) * scaled(text.replace('-', ''), 2)));
    assert.deepEqual(Array.from({ length: groupCount }, (_v, group) => formatValue(out.type, getRaw(out, group))), want.map((value) => fmt(acc.returnType, value)));
  }
});

/** SUM / AVG of `values` (one group per entry of `groups`) through the accumulator, split into batches. */
function aggregate(name: string, type: DataType, values: Vector[], groups: number[][], groupCount: number): (string | null)[] {
  const acc = resolveAggregate(name, [type], false).create();
  values.forEach((vec, batchIdx) => {
    acc.resize(groupCount);
    acc.update(Int32Array.from(groups[batchIdx]), [vec], vec.length);
  });
  const out = acc.finalize(groupCount);
  return Array.from({ length: groupCount }, (_v, group) => formatValue(out.type, getRaw(out, group)));
}

test('SUM of exact float64 wide decimals crosses 2^52 and 2^53 exactly, grouped and not', () => {
  // Products near 2^53 / 10^4 ... summed many times: partial sums pass 2^52 and 2^53 repeatedly.
  const expr = call('multiply', col(0, D15_2), col(1, D15_2));
  const prices = Array.from({ length: 3000 }, (_v, rowIdx) => (949062 - rowIdx * 7).toString() + '.' + String(rowIdx % 100).padStart(2, '0'));
  const factor = Array.from({ length: 3000 }, (_v, rowIdx) => (rowIdx % 3 === 0 ? '-' : '') + '9490.6' + (rowIdx % 10));
  const batches: Vector[] = [];
  const groups: number[][] = [];
  let want = [0n, 0n, 0n];
  for (let start = 0; start < prices.length; start += 1000) {
    const vec = evalVector(expr, [decColumn(prices.slice(start, start + 1000)), decColumn(factor.slice(start, start + 1000))]);
    assert.notEqual(exactNumbers(vec), null, 'products stay below 2^53: float64 form');
    batches.push(vec);
    groups.push(Array.from({ length: 1000 }, (_v, rowIdx) => (start + rowIdx) % 3));
  }
  prices.forEach((price, rowIdx) => (want[rowIdx % 3] += scaled(price, 2) * scaled(factor[rowIdx], 2)));
  const type = expr.type;
  const sumType = resolveAggregate('sum', [type], false).returnType;
  assert.deepEqual(aggregate('sum', type, batches, groups, 3), want.map((value) => fmt(sumType, value)));
  const total = want.reduce((a, b) => a + b, 0n);
  assert.deepEqual(aggregate('sum', type, batches, groups.map((ids) => ids.map(() => 0)), 1), [fmt(sumType, total)]);
  want = [0n];
  // AVG over the same values: exact total / count, rounded half away from zero.
  const avgType = resolveAggregate('avg', [type], false).returnType;
  const up = 10n ** BigInt((avgType.scale ?? 0) - (type.scale ?? 0));
  const count = BigInt(prices.length);
  const avg = (total * up * 2n + (total < 0n ? -count : count)) / (2n * count);
  assert.deepEqual(aggregate('avg', type, batches, groups.map((ids) => ids.map(() => 0)), 1), [fmt(avgType, avg)]);
});

test('SUM of narrow decimals near the spill limit stays exact without per-row checks', () => {
  // 9999999999999.99 scaled is ~2^50: four of them pass 2^52 within one batch.
  const values = Array.from({ length: 10 }, (_v, rowIdx) => (rowIdx % 2 ? '-' : '') + '9999999999999.9' + rowIdx);
  const plus = Array.from({ length: 10 }, () => '9999999999999.99');
  const groups = [Array.from({ length: 10 }, (_v, rowIdx) => rowIdx % 2), Array.from({ length: 10 }, (_v, rowIdx) => rowIdx % 2)];
  const sumType = resolveAggregate('sum', [D15_2], false).returnType;
  const want = [0n, 0n];
  values.forEach((value, rowIdx) => (want[rowIdx % 2] += scaled(value, 2) + scaled(plus[rowIdx], 2)));
  assert.deepEqual(aggregate('sum', D15_2, [decColumn(values), decColumn(plus)], groups, 2), want.map((value) => fmt(sumType, value)));
  // Many small batches of small values first (the bound-checked fast path), then large ones.
  const small = Array.from({ length: 50 }, () => decColumn(Array.from({ length: 20 }, () => '1.25')));
  const smallGroups = small.map(() => Array.from({ length: 20 }, (_v, rowIdx) => rowIdx % 2));
  const sums = aggregate('sum', D15_2, [...small, decColumn(plus), decColumn(plus)], [...smallGroups, groups[1], groups[1]], 2);
  assert.deepEqual(sums, [fmt(sumType, 500n * 125n + 10n * scaled(plus[0], 2)), fmt(sumType, 500n * 125n + 10n * scaled(plus[0], 2))]);
});

test('wide decimal results compared, cast and negated through their float64 form', () => {
  const expr = call('multiply', col(0, D15_2), call('subtract', num('1'), col(1, D15_2)));
  const vec = evalVector(expr, [decColumn(['100.00', '3.33']), decColumn(['0.10', '0.50'])]);
  assert.notEqual(exactNumbers(vec), null);
  const values = (vec as { values: bigint[] }).values;
  assert.deepEqual(values, [900000n, 16650n]);
  const cmp = compileExpr(call('gt', col(0, expr.type), num('89.99')))(batchOf([vec]), ctx);
  assert.deepEqual(Array.from({ length: 2 }, (_v, rowIdx) => getRaw(cmp, rowIdx)), [1, 0]);
  const neg = compileExpr(call('negative', col(0, expr.type)))(batchOf([vec]), ctx);
  assert.deepEqual([formatValue(neg.type, getRaw(neg, 0)), formatValue(neg.type, getRaw(neg, 1))], ['-90.0000', '-1.6650']);
  const asDouble = compileExpr({ kind: 'cast', operand: col(0, expr.type), type: Types.DOUBLE })(batchOf([vec]), ctx);
  assert.deepEqual([getRaw(asDouble, 0), getRaw(asDouble, 1)], [90, 1.665]);
});
