/**
 * Runtime filter kernels (src/exec/runtime-filter.ts): for each key type, a filter built from build keys
 * keeps every row whose key is among them — as IN, bloom and min/max, through every vector layout the
 * probe side may have (typed arrays, BIGINT words, LARGEINT objects, strings, dictionaries) — and drops
 * NULLs; IN and min/max drop every other value; a bloom filter few of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { vectorFromRaw, type RawValue, type Vector } from '../../src/common/column';
import { Types, type DataType } from '../../src/common/types';
import { applyRuntimeFilter, buildRuntimeFilter, runtimeFilterPredicates, type RuntimeFilterType } from '../../src/exec/runtime-filter';

const LIMITS = { maxInNum: 1024, bloomMaxBytes: 1 << 20 };

function kept(type: RuntimeFilterType, columnType: DataType, build: readonly RawValue[], probe: Vector, maxInNum = 1024): boolean[] {
  const filter = buildRuntimeFilter(0, type, 'c', columnType, vectorFromRaw(columnType, build), build.length, { ...LIMITS, maxInNum });
  const keep = new Uint8Array(probe.length).fill(1);
  applyRuntimeFilter(filter, probe, probe.length, keep);
  return Array.from(keep, (byte) => byte === 1);
}

function asDict(type: DataType, values: readonly (string | null)[]): Vector {
  const entries = [...new Set(values.filter((value): value is string => value !== null))].reverse();
  return { kind: 'dict', type, length: values.length, codes: Int32Array.from(values, (value) => (value === null ? 0 : entries.indexOf(value))), dict: entries, nulls: Uint8Array.from(values, (value) => (value === null ? 1 : 0)) };
}

const BIG = 2n ** 60n;
const CASES: { name: string; type: DataType; build: RawValue[]; others: RawValue[] }[] = [
  { name: 'INT', type: Types.INT, build: [5, -3, 1000, 7], others: [0, 4, 6, 1001, -4, 2147483647] },
  { name: 'BIGINT', type: Types.BIGINT, build: [10_000_000_001n, -5n, BIG + 1n, BIG + 3n], others: [10_000_000_002n, -6n, 0n, BIG + 2n, BIG + 5n] },
  { name: 'LARGEINT', type: Types.LARGEINT, build: [2n ** 100n, -7n, 3n], others: [2n ** 100n + 1n, -8n, 4n] },
  { name: 'VARCHAR', type: Types.varchar(10), build: ['b', 'dd', 'é', 'zz'], others: ['a', 'c', 'd', 'e', 'zzz'] },
  { name: 'DATE', type: Types.DATE, build: [19000, 19005, 19010], others: [18999, 19001, 19011] },
  { name: 'DECIMAL', type: Types.decimal(10, 2), build: [150, 250, -450], others: [151, 249, 0] },
  { name: 'DOUBLE', type: Types.DOUBLE, build: [0, 1.5, -2.25], others: [-0.5, 1.25, 3] },
];

for (const { name, type, build, others } of CASES) {
  test(`runtime filters on ${name} keys: build keys pass, NULLs never, other values by filter kind`, () => {
    const probeValues = [...build, null, ...others];
    const probes: Vector[] = [vectorFromRaw(type, probeValues)];
    if (typeof build[0] === 'string') probes.push(asDict(type, probeValues as (string | null)[]));
    for (const probe of probes) {
      for (const [kind, maxIn] of [['in_or_bloom', 1024], ['in_or_bloom', 0], ['in', 1024], ['bloom', 1024], ['min_max', 1024]] as const) {
        const keep = kept(kind, type, [...build, null], probe, maxIn);
        const label = `${name} ${kind} (max_in ${maxIn}, ${probe.kind})`;
        build.forEach((_value, idx) => assert.ok(keep[idx], `${label}: build key ${String(build[idx])} passes`));
        assert.equal(keep[build.length], false, `${label}: NULL never passes`);
        const otherKept = keep.slice(build.length + 1);
        if (kind === 'in' || (kind === 'in_or_bloom' && maxIn > 0)) assert.deepEqual(otherKept, others.map(() => false), `${label}: IN drops the rest`);
        if (kind === 'min_max' && typeof build[0] !== 'string') {
          const sorted = [...build].sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0));
          others.forEach((value, idx) => {
            const inside = value! >= sorted[0]! && value! <= sorted[sorted.length - 1]!;
            // BIGINT words compare as doubles: beyond 2^53 a value just outside may be kept (never one inside dropped).
            const approximate = typeof value === 'bigint' && (value > 2n ** 53n || value < -(2n ** 53n));
            if (inside) assert.ok(otherKept[idx], `${label}: ${String(value)} inside the range is kept`);
            else if (!approximate) assert.equal(otherKept[idx], false, `${label}: ${String(value)} outside the range is dropped`);
          });
        }
      }
    }
  });
}

test('a bloom filter keeps every build key and few others (BIGINT words and INT values)', () => {
  for (const type of [Types.INT, Types.BIGINT]) {
    const build = Array.from({ length: 5000 }, (_v, idx) => (type === Types.INT ? idx * 7 : BigInt(idx * 7) + BIG));
    const probe = Array.from({ length: 35000 }, (_v, idx) => (type === Types.INT ? idx : BigInt(idx) + BIG));
    const keep = kept('bloom', type, build, vectorFromRaw(type, probe));
    let falsePositives = 0;
    keep.forEach((passes, idx) => {
      if (idx % 7 === 0) assert.ok(passes, `key ${idx} passes`);
      else if (passes) falsePositives++;
    });
    assert.ok(falsePositives < 30000 * 0.02, `${type.name}: ${falsePositives} false positives of 30000`);
  }
});

test('pruning predicates: min/max bounds as raw values of the column, short IN lists, none for an empty build', () => {
  const filter = buildRuntimeFilter(3, 'in_or_bloom', 'k', Types.BIGINT, vectorFromRaw(Types.BIGINT, [9n, null, -2n, 9n]), 4, LIMITS);
  assert.deepEqual(runtimeFilterPredicates(filter), [
    { column: 'k', op: '>=', value: -2n },
    { column: 'k', op: '<=', value: 9n },
    { column: 'k', op: 'in', values: [9n, -2n] },
  ]);
  const empty = buildRuntimeFilter(4, 'min_max', 'k', Types.INT, vectorFromRaw(Types.INT, [null, null]), 2, LIMITS);
  assert.equal(empty.empty, true);
  const keep = new Uint8Array(3).fill(1);
  applyRuntimeFilter(empty, vectorFromRaw(Types.INT, [1, 2, null]), 3, keep);
  assert.deepEqual([...keep], [0, 0, 0], 'no build key: nothing matches');
});
