/** Seeded random column data for storage tests (every physical kind, NULLs, extremes). */
import type { RawValue, Vector } from '../../src/common/column';
import { getRaw, vectorFromRaw } from '../../src/common/column';
import type { DataType } from '../../src/common/types';
import { physicalKind } from '../../src/common/types';
import { mulberry32 } from '../../src/common/prng';

/** Seeded generator (mulberry32). */
export const rng = mulberry32;

export type Shape = 'random' | 'small-range' | 'runs' | 'constant' | 'extremes' | 'sorted';

const UNICODE = ['a', 'é', 'ß', '中', '文', '😀', '\u0000', 'z', '𝄞', ' '];

/** One random raw value of a type. */
export function randomValue(type: DataType, rand: () => number, shape: Shape, rowIdx: number): RawValue {
  const kind = physicalKind(type);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const run = Math.floor(rowIdx / 37);
  switch (kind) {
    case 'u8':
      return shape === 'constant' ? 1 : shape === 'runs' ? run % 2 : Math.floor(rand() * 2);
    case 'i8':
      return shape === 'extremes' ? pick([-128, 127, 0, -1]) : shape === 'constant' ? -5 : shape === 'runs' ? (run % 7) - 3 : Math.floor(rand() * 256) - 128;
    case 'i16':
      return shape === 'extremes' ? pick([-32768, 32767, 0]) : shape === 'small-range' ? 1000 + Math.floor(rand() * 20) : Math.floor(rand() * 65536) - 32768;
    case 'i32':
      if (shape === 'extremes') return pick([-2147483648, 2147483647, 0, -1]);
      if (shape === 'small-range') return 19000 + Math.floor(rand() * 400);
      if (shape === 'runs') return run * 3;
      if (shape === 'sorted') return rowIdx * 2;
      if (shape === 'constant') return 42;
      return Math.floor(rand() * 4294967296) - 2147483648;
    case 'i64':
      if (shape === 'extremes') return pick([-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 2n ** 53n + 1n]);
      if (shape === 'small-range') return BigInt(1_000_000_000_000 + Math.floor(rand() * 5000));
      if (shape === 'runs') return BigInt(run) * 1000n;
      if (shape === 'sorted') return BigInt(rowIdx) * 7n - 100n;
      return BigInt(Math.floor(rand() * 2 ** 52)) * (rand() < 0.5 ? -1n : 1n) * BigInt(1 + Math.floor(rand() * 4000));
    case 'f32':
      return shape === 'extremes' ? pick([3.4028234663852886e38, -0, Infinity, -Infinity, NaN, 1.401298464324817e-45]) : Math.fround((rand() - 0.5) * 1000);
    case 'f64':
      if (type.name === 'DATETIME') return shape === 'small-range' ? 1.7e15 + Math.floor(rand() * 86400) * 1e6 : 1.7e15 + Math.floor(rand() * 1e12);
      if (type.name === 'DECIMAL') return shape === 'extremes' ? pick([999999999999999, -999999999999999, 0]) : Math.floor(rand() * 2000000) - 1000000;
      if (shape === 'extremes') return pick([Number.MAX_VALUE, -Number.MAX_VALUE, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE]);
      if (shape === 'small-range') return Math.floor(rand() * 100);
      if (shape === 'runs') return run + 0.5;
      if (shape === 'sorted') return rowIdx * 0.25;
      return (rand() - 0.5) * 1e6;
    case 'bigint':
      if (shape === 'extremes') return pick([-(2n ** 127n), 2n ** 127n - 1n, 0n, 10n ** 37n, -(10n ** 37n)]);
      if (shape === 'small-range') return BigInt(Math.floor(rand() * 1000)) * 10n ** 10n;
      return (BigInt(Math.floor(rand() * 2 ** 53)) << 50n) * (rand() < 0.5 ? -1n : 1n) + BigInt(Math.floor(rand() * 1000));
    case 'string': {
      if (shape === 'constant') return 'same';
      if (shape === 'runs' || shape === 'small-range') return `city_${Math.floor(rand() * 7)}`;
      if (shape === 'sorted') return `key${String(rowIdx).padStart(8, '0')}`;
      const length = shape === 'extremes' ? Math.floor(rand() * 200) : Math.floor(rand() * 12);
      let out = '';
      for (let charIdx = 0; charIdx < length; charIdx++) out += shape === 'extremes' ? pick(UNICODE) : String.fromCharCode(97 + Math.floor(rand() * 26));
      return out;
    }
    case 'list': {
      const element = type.element!;
      const length = shape === 'constant' ? 3 : Math.floor(rand() * 6);
      const out: RawValue[] = [];
      // A map's entries are never NULL (their keys and values may be).
      const entryNullRate = type.name === 'MAP' ? 0 : 0.1;
      for (let elemIdx = 0; elemIdx < length; elemIdx++) out.push(rand() < entryNullRate ? null : randomValue(element, rand, shape, rowIdx * 8 + elemIdx));
      return out;
    }
    case 'struct':
      return (type.fields ?? []).map((field, fieldIdx) => (rand() < 0.1 ? null : randomValue(field.type, rand, shape, rowIdx * 8 + fieldIdx)));
  }
}

/** A vector of `count` random values; `nullRate` of them NULL. */
export function randomVector(type: DataType, count: number, seed: number, shape: Shape, nullRate = 0): Vector {
  const rand = rng(seed);
  const values: RawValue[] = [];
  for (let rowIdx = 0; rowIdx < count; rowIdx++) values.push(rand() < nullRate ? null : randomValue(type, rand, shape, rowIdx));
  return vectorFromRaw(type, values);
}

/** Raw values with floats compared by identity (-0, NaN). */
export function rawValues(vec: Vector): RawValue[] {
  const out: RawValue[] = [];
  for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out.push(getRaw(vec, rowIdx));
  return out;
}

/** Assert-friendly form: -0 and NaN spelled out, bigint tagged. */
export function comparable(vec: Vector): string[] {
  return rawValues(vec).map((value) => {
    if (value === null) return 'NULL';
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
    return JSON.stringify(value);
  });
}
