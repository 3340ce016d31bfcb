/**
 * Doris's BITMAP and HLL scalar functions: building states (to_bitmap, bitmap_from_string / _array /
 * _base64, bitmap_hash / bitmap_hash64, hll_hash, the empty states), set algebra (bitmap_and / or / xor /
 * not / and_not and their _count forms), tests (bitmap_contains, bitmap_has_any / _all), reading values
 * out (bitmap_count, bitmap_min / max, bitmap_to_string / _array / _base64, hll_cardinality,
 * hll_to_base64) and subsets (bitmap_remove, bitmap_subset_in_range / _limit, sub_bitmap); and the
 * QUANTILE_STATE ones (to_quantile_state, quantile_percent, quantile_state_empty).
 *
 * States are the serialized bytes of common/bitmap-value.ts and common/hll-value.ts, read per row; a
 * constant argument (a literal bitmap_from_string('1,2')) is read once per batch. The functions that
 * Doris declares always-not-nullable take NULL themselves: to_bitmap / bitmap_hash / hll_hash of NULL
 * give an empty state, bitmap_count / hll_cardinality of NULL give 0.
 */
import { BitmapValue } from '../../../common/bitmap-value';
import { toPlainStrings, type ArrayVector, type StringVector, type Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { HllValue } from '../../../common/hll-value';
import { MURMUR3_32_SEED, MURMUR64A_SEED, murmur3x64_64, murmur3x86_32, murmur64A } from '../../../common/murmur-hash';
import { QUANTILE_COMPRESSION_MAX, QUANTILE_COMPRESSION_MIN, QuantileStateValue } from '../../../common/quantile-state';
import { bitmapAt, hllAt, quantileStateAt } from '../../../common/sketch-state';
import { DataType, isIntegerType, isStringType, Types, typeToSql } from '../../../common/types';
import { castVector } from '../cast';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { arg, defineFunction, FunctionDecl, rest } from '../signature';
import { StringOut, toF64 } from '../vector-ops';

function bitmapFn(name: string, decl: Omit<FunctionDecl, 'name' | 'family'>): FunctionDef {
  return defineFunction({ name, family: 'bitmap', ...decl });
}

function quantileFn(name: string, decl: Omit<FunctionDecl, 'name' | 'family'>): FunctionDef {
  return defineFunction({ name, family: 'quantile', ...decl });
}

function hllFn(name: string, decl: Omit<FunctionDecl, 'name' | 'family'>): FunctionDef {
  return defineFunction({ name, family: 'hll', ...decl });
}

const noMatch = (name: string, argTypes: readonly DataType[]) => galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${argTypes.map(typeToSql).join(', ')})`);

/** Every argument must be a BITMAP (or NULL); the result is `returnType`. */
function bitmapArgs(name: string, returnType: DataType): (argTypes: readonly DataType[]) => Resolution {
  return (argTypes) => {
    if (!argTypes.every((t) => t.name === 'BITMAP' || t.name === 'NULL')) throw noMatch(name, argTypes);
    return { argTypes: argTypes.map(() => Types.BITMAP), returnType };
  };
}

/** Argument 0 a BITMAP, the rest BIGINT (values, offsets, limits). */
function bitmapThenInts(name: string, returnType: DataType): (argTypes: readonly DataType[]) => Resolution {
  return (argTypes) => {
    if (!(argTypes[0].name === 'BITMAP' || argTypes[0].name === 'NULL')) throw noMatch(name, argTypes);
    return { argTypes: argTypes.map((t, argIdx) => (argIdx === 0 ? Types.BITMAP : t.name === 'LARGEINT' ? t : Types.BIGINT)), returnType };
  };
}

function hllArg(name: string, returnType: DataType): (argTypes: readonly DataType[]) => Resolution {
  return (argTypes) => {
    if (!(argTypes[0].name === 'HLL' || argTypes[0].name === 'NULL')) throw noMatch(name, argTypes);
    return { argTypes: [Types.HLL], returnType };
  };
}

/** Any value, hashed as its text (Doris hashes the string form). */
const anyAsString = (argTypes: readonly DataType[]): DataType[] => argTypes.map((t) => (isStringType(t) ? t : Types.STRING));

// ---------------------------------------------------------------- reading and writing states

/** The bitmap of each row (null for NULL or bytes that are not one); a constant argument is read once. */
export function bitmapsOf(vec: Vector, rowCount: number, isConst = false): (BitmapValue | null)[] {
  const out = new Array<BitmapValue | null>(rowCount);
  if (vec.kind !== 'string') return out.fill(null);
  if (isConst && rowCount > 0) {
    const only = bitmapAt(vec, 0);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = rowIdx === 0 ? only : only === null ? null : only.clone();
    return out;
  }
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = bitmapAt(vec, rowIdx);
  return out;
}

function hllsOf(vec: Vector, rowCount: number): (HllValue | null)[] {
  const out = new Array<HllValue | null>(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = vec.kind === 'string' ? hllAt(vec, rowIdx) : null;
  return out;
}

/** A BITMAP / HLL vector of serialized states (null: a NULL row). */
export function statesVector(type: DataType, states: readonly ({ serialize(): Uint8Array } | null)[]): StringVector {
  const out = new StringOut(type, states.length, states.length * 8);
  for (const state of states) {
    if (state === null) out.pushNull();
    else {
      const bytes = state.serialize();
      out.pushBytes(bytes, 0, bytes.length);
    }
  }
  return out.finish();
}

export function bigintsOut(values: readonly (bigint | number | null)[]): Vector {
  const out = new BigInt64Array(values.length);
  let nulls: Uint8Array | null = null;
  values.forEach((value, rowIdx) => {
    if (value === null) (nulls ??= new Uint8Array(values.length))[rowIdx] = 1;
    else out[rowIdx] = BigInt.asIntN(64, BigInt(value));
  });
  return { kind: 'fixed', type: Types.BIGINT, length: values.length, values: out, nulls };
}

function booleansOut(values: readonly (boolean | null)[]): Vector {
  const out = new Uint8Array(values.length);
  let nulls: Uint8Array | null = null;
  values.forEach((value, rowIdx) => {
    if (value === null) (nulls ??= new Uint8Array(values.length))[rowIdx] = 1;
    else out[rowIdx] = value ? 1 : 0;
  });
  return { kind: 'fixed', type: Types.BOOLEAN, length: values.length, values: out, nulls };
}

function stringsOut(values: readonly (string | null)[]): Vector {
  const out = new StringOut(Types.STRING, values.length);
  for (const value of values) {
    if (value === null) out.pushNull();
    else out.push(value);
  }
  return out.finish();
}

/** Integer values of a row as bigint (null for NULL); reads BIGINT, LARGEINT and smaller integers. */
export function integerAt(vec: Vector, rowIdx: number): bigint | null {
  if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return null;
  if (vec.kind === 'fixed') {
    const value = vec.values[rowIdx];
    return typeof value === 'bigint' ? value : BigInt(Math.trunc(value));
  }
  if (vec.kind === 'object') return vec.values[rowIdx];
  return null;
}

const U64_MAX = (1n << 64n) - 1n;
const UINT64_TEXT = /^\s*\d+\s*$/;

/** A uint64 from text (to_bitmap('123'), bitmap_from_string items); null when it is not one. */
function parseUint64(text: string): bigint | null {
  if (!UINT64_TEXT.test(text)) return null;
  const value = BigInt(text.trim());
  return value <= U64_MAX ? value : null;
}

function bitmapFromText(text: string): BitmapValue | null {
  const out = new BitmapValue();
  if (text.trim() === '') return out;
  for (const item of text.split(',')) {
    const value = parseUint64(item);
    if (value === null) return null;
    out.add(value);
  }
  return out;
}

function stringAt(vec: StringVector, rowIdx: number): string | null {
  if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return null;
  return Buffer.from(vec.bytes.buffer, vec.bytes.byteOffset + vec.offsets[rowIdx], vec.offsets[rowIdx + 1] - vec.offsets[rowIdx]).toString('utf8');
}

/** The argument as a plain StringVector (a dictionary vector expanded). */
function plainStrings(vec: Vector): StringVector {
  if (vec.kind === 'string') return vec;
  return toPlainStrings(isStringType(vec.type) ? vec : castVector(vec, Types.STRING));
}

function decodeBase64(text: string): Uint8Array | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(trimmed) || trimmed.length % 4 !== 0) return null;
  return new Uint8Array(Buffer.from(trimmed, 'base64'));
}

const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

// ---------------------------------------------------------------- kernels

/** bitmap_from_base64 / hll_from_base64: a state from base64 text; NULL for text that is not one. */
function fromBase64Kernel(type: DataType, deserialize: (bytes: Uint8Array) => { serialize(): Uint8Array } | null) {
  return (args: readonly Vector[], rowCount: number): Vector => {
    const texts = plainStrings(args[0]);
    return statesVector(type, Array.from({ length: rowCount }, (_unused, rowIdx) => {
      const text = stringAt(texts, rowIdx);
      const bytes = text === null ? null : decodeBase64(text);
      return bytes === null ? null : deserialize(bytes);
    }));
  };
}

/** to_bitmap(x): x an integer in [0, 2^64) or its text; anything else (NULL, negative) an empty bitmap. */
function toBitmapKernel(args: readonly Vector[], rowCount: number): Vector {
  const vec = args[0];
  const out = new StringOut(Types.BITMAP, rowCount, rowCount * 5);
  const push = (value: bigint | null) => {
    const bytes = BitmapValue.serializeSingle(value);
    out.pushBytes(bytes, 0, bytes.length);
  };
  if (isStringType(vec.type)) {
    const texts = plainStrings(vec);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const text = stringAt(texts, rowIdx);
      push(text === null ? null : parseUint64(text));
    }
  } else {
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const value = integerAt(vec, rowIdx);
      push(value === null || value < 0n || value > U64_MAX ? null : value);
    }
  }
  return out.finish();
}

function hashKernel(hash: (bytes: Uint8Array, start: number, end: number) => number | bigint) {
  return (args: readonly Vector[], rowCount: number): Vector => {
    const texts = plainStrings(args[0]);
    const states = new Array<BitmapValue>(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const state = new BitmapValue();
      if (texts.nulls === null || texts.nulls[rowIdx] === 0) state.add(hash(texts.bytes, texts.offsets[rowIdx], texts.offsets[rowIdx + 1]));
      states[rowIdx] = state;
    }
    return statesVector(Types.BITMAP, states);
  };
}

function hllHashKernel(args: readonly Vector[], rowCount: number): Vector {
  const texts = plainStrings(args[0]);
  const out = new StringOut(Types.HLL, rowCount, rowCount * 10);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const isNull = texts.nulls !== null && texts.nulls[rowIdx] === 1;
    const bytes = HllValue.serializeSingle(isNull ? null : murmur64A(texts.bytes, texts.offsets[rowIdx], texts.offsets[rowIdx + 1], MURMUR64A_SEED));
    out.pushBytes(bytes, 0, bytes.length);
  }
  return out.finish();
}

type SetOp = 'and' | 'or' | 'xor' | 'andNot';

/** Each row's bitmaps combined left to right; `skipNulls` (bitmap_or): NULL arguments are left out. */
function combineRows(args: readonly Vector[], rowCount: number, site: CallSite, op: SetOp, skipNulls: boolean): (BitmapValue | null)[] {
  const columns = args.map((vec, argIdx) => bitmapsOf(vec, rowCount, site.isConst[argIdx]));
  const out = new Array<BitmapValue | null>(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    let acc: BitmapValue | null = null;
    let sawNull = false;
    for (const column of columns) {
      const value = column[rowIdx];
      if (value === null) {
        sawNull = true;
        continue;
      }
      if (acc === null) acc = value.clone();
      else acc[op](value);
    }
    out[rowIdx] = sawNull && !skipNulls ? null : acc ?? (skipNulls ? null : new BitmapValue());
  }
  return out;
}

function setOpKernel(op: SetOp, skipNulls: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => statesVector(Types.BITMAP, combineRows(args, rowCount, site, op, skipNulls));
}

/** The _count forms: and / and_not of a NULL count 0 (Doris: always not nullable); or / xor skip NULLs. */
function setOpCountKernel(op: SetOp) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const skipNulls = op === 'or' || op === 'xor';
    return bigintsOut(combineRows(args, rowCount, site, op, skipNulls).map((value) => value?.size ?? 0));
  };
}

/** A kernel over each row's bitmap (NULL rows are NULL: nulls 'propagate'). */
function perBitmap<T>(build: (values: (T | null)[]) => Vector, compute: (bitmap: BitmapValue, args: readonly Vector[], rowIdx: number) => T | null) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const bitmaps = bitmapsOf(args[0], rowCount, site.isConst[0]);
    const out = new Array<T | null>(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const bitmap = bitmaps[rowIdx];
      out[rowIdx] = bitmap === null ? null : compute(bitmap, args, rowIdx);
    }
    return build(out);
  };
}

function bitmapToArrayKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const bitmaps = bitmapsOf(args[0], rowCount, site.isConst[0]);
  const offsets = new Int32Array(rowCount + 1);
  const elements: (bigint | number)[] = [];
  let nulls: Uint8Array | null = null;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const bitmap = bitmaps[rowIdx];
    if (bitmap === null) (nulls ??= new Uint8Array(rowCount))[rowIdx] = 1;
    else bitmap.forEach((value) => void elements.push(value));
    offsets[rowIdx + 1] = elements.length;
  }
  const child = bigintsOut(elements);
  return { kind: 'array', type: site.returnType, length: rowCount, offsets, child, nulls } satisfies ArrayVector;
}

function bitmapFromArrayKernel(args: readonly Vector[], rowCount: number): Vector {
  const list = args[0] as ArrayVector;
  const states = new Array<BitmapValue | null>(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (list.nulls !== null && list.nulls[rowIdx] === 1) {
      states[rowIdx] = null;
      continue;
    }
    let state: BitmapValue | null = new BitmapValue();
    for (let elemIdx = list.offsets[rowIdx]; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) {
      const value = integerAt(list.child, elemIdx);
      if (value === null) continue;
      if (value < 0n) {
        // Doris: a negative element makes the whole result NULL.
        state = null;
        break;
      }
      state.add(value);
    }
    states[rowIdx] = state;
  }
  return statesVector(Types.BITMAP, states);
}

/** Values of `bitmap` in ascending order passing `keep`, at most `limit`. */
function subset(bitmap: BitmapValue, keep: (value: bigint, position: number) => boolean | 'stop', limit = Infinity): BitmapValue {
  const out = new BitmapValue();
  let position = 0;
  let taken = 0;
  bitmap.forEach((value) => {
    if (taken >= limit) return false;
    const big = BigInt(value);
    const verdict = keep(big, position++);
    if (verdict === 'stop') return false;
    if (verdict) {
      out.add(value);
      taken++;
    }
    return true;
  });
  return out;
}

// ---------------------------------------------------------------- declarations

const BITMAP_ARRAY = Types.array(Types.BIGINT);

export const BITMAP_FUNCTIONS: readonly FunctionDef[] = [
  bitmapFn('to_bitmap', {
    args: [arg('x')],
    returns: Types.BITMAP,
    resolve: (argTypes) => {
      const t = argTypes[0];
      if (!(isIntegerType(t) || isStringType(t) || t.name === 'NULL' || t.name === 'BOOLEAN')) throw noMatch('to_bitmap', argTypes);
      return { argTypes: [isStringType(t) || t.name === 'LARGEINT' ? t : Types.BIGINT], returnType: Types.BITMAP };
    },
    nulls: 'custom',
    kernel: toBitmapKernel,
    description: 'A bitmap holding x (an integer in [0, 2^64) or its text); NULL, a negative value or other text give an empty bitmap.',
    example: 'SELECT bitmap_to_string(to_bitmap(10))',
  }),
  bitmapFn('bitmap_from_string', {
    args: [arg('str', 'STRING')],
    returns: Types.BITMAP,
    kernel: (args, rowCount) => {
      const texts = plainStrings(args[0]);
      return statesVector(Types.BITMAP, Array.from({ length: rowCount }, (_unused, rowIdx) => {
        const text = stringAt(texts, rowIdx);
        return text === null ? null : bitmapFromText(text);
      }));
    },
    description: "A bitmap of comma-separated unsigned integers ('0, 1, 2'); NULL when an item is not one, empty for ''.",
    example: "SELECT bitmap_to_string(bitmap_from_string('3, 1, 2'))",
  }),
  bitmapFn('bitmap_from_array', {
    args: [arg('arr')],
    returns: Types.BITMAP,
    resolve: (argTypes) => {
      const t = argTypes[0];
      if (t.name !== 'ARRAY' || !(isIntegerType(t.element ?? Types.NULL) || t.element?.name === 'NULL')) throw noMatch('bitmap_from_array', argTypes);
      return { argTypes: [t], returnType: Types.BITMAP };
    },
    kernel: bitmapFromArrayKernel,
    description: 'A bitmap of the non-NULL elements of an integer array; NULL when an element is negative.',
    example: 'SELECT bitmap_to_string(bitmap_from_array([1, 2, 2, 3]))',
  }),
  bitmapFn('bitmap_empty', {
    args: [],
    returns: Types.BITMAP,
    kernel: (_args, rowCount) => statesVector(Types.BITMAP, Array.from({ length: rowCount }, () => new BitmapValue())),
    description: 'An empty bitmap (for loads and INSERT into BITMAP columns).',
    example: 'SELECT bitmap_count(bitmap_empty())',
  }),
  bitmapFn('bitmap_hash', {
    args: [arg('x')],
    returns: Types.BITMAP,
    resolve: (argTypes) => ({ argTypes: anyAsString(argTypes), returnType: Types.BITMAP }),
    nulls: 'custom',
    kernel: hashKernel((bytes, start, end) => murmur3x86_32(bytes, start, end, MURMUR3_32_SEED)),
    description: "A bitmap holding the 32-bit MurmurHash3 of x's text (Doris's seed); NULL gives an empty bitmap.",
    example: "SELECT bitmap_to_string(bitmap_hash('hello'))",
  }),
  bitmapFn('bitmap_hash64', {
    args: [arg('x')],
    returns: Types.BITMAP,
    resolve: (argTypes) => ({ argTypes: anyAsString(argTypes), returnType: Types.BITMAP }),
    nulls: 'custom',
    kernel: hashKernel((bytes, start, end) => murmur3x64_64(bytes, start, end, 0n)),
    description: "A bitmap holding the 64-bit MurmurHash3 of x's text; NULL gives an empty bitmap.",
    example: "SELECT bitmap_to_string(bitmap_hash64('hello'))",
  }),
  bitmapFn('bitmap_count', {
    args: [arg('bitmap')],
    returns: Types.BIGINT,
    resolve: bitmapArgs('bitmap_count', Types.BIGINT),
    nulls: 'custom',
    kernel: (args, rowCount, site) => bigintsOut(bitmapsOf(args[0], rowCount, site.isConst[0]).map((bitmap) => bitmap?.size ?? 0)),
    description: 'How many values the bitmap holds (0 for NULL).',
    example: "SELECT bitmap_count(bitmap_from_string('1,2,3'))",
  }),
  ...(['and', 'or', 'xor'] as const).map((op) =>
    bitmapFn(`bitmap_${op}`, {
      args: [arg('a'), rest('b')],
      returns: Types.BITMAP,
      resolve: bitmapArgs(`bitmap_${op}`, Types.BITMAP),
      nulls: 'custom',
      kernel: setOpKernel(op, op === 'or'),
      description: `The ${op === 'and' ? 'intersection' : op === 'or' ? 'union' : 'symmetric difference'} of two or more bitmaps${op === 'or' ? ' (NULL arguments are left out)' : ' (NULL if one is NULL)'}.`,
      example: `SELECT bitmap_to_string(bitmap_${op}(bitmap_from_string('1,2,3'), bitmap_from_string('2,3,4')))`,
    }),
  ),
  bitmapFn('bitmap_and_not', {
    aliases: ['bitmap_andnot'],
    args: [arg('a'), arg('b')],
    returns: Types.BITMAP,
    resolve: bitmapArgs('bitmap_and_not', Types.BITMAP),
    nulls: 'custom',
    kernel: setOpKernel('andNot', false),
    description: 'The values of a that are not in b (NULL if one is NULL).',
    example: "SELECT bitmap_to_string(bitmap_and_not(bitmap_from_string('1,2,3'), bitmap_from_string('2,3,4')))",
  }),
  bitmapFn('bitmap_not', {
    args: [arg('a'), arg('b')],
    returns: Types.BITMAP,
    resolve: bitmapArgs('bitmap_not', Types.BITMAP),
    nulls: 'custom',
    kernel: setOpKernel('andNot', false),
    description: 'The values of a that are not in b, as bitmap_and_not.',
    example: "SELECT bitmap_to_string(bitmap_not(bitmap_from_string('2,3'), bitmap_from_string('1,2,3,4')))",
  }),
  ...(['and', 'or', 'xor'] as const).map((op) =>
    bitmapFn(`bitmap_${op}_count`, {
      args: [arg('a'), rest('b')],
      returns: Types.BIGINT,
      resolve: bitmapArgs(`bitmap_${op}_count`, Types.BIGINT),
      nulls: 'custom',
      kernel: setOpCountKernel(op),
      description: `bitmap_count(bitmap_${op}(a, b, ...))${op === 'and' ? ' (0 when an argument is NULL)' : ' (NULL arguments are left out)'}.`,
      example: `SELECT bitmap_${op}_count(bitmap_from_string('1,2,3'), bitmap_from_string('2,3,4'))`,
    }),
  ),
  bitmapFn('bitmap_and_not_count', {
    aliases: ['bitmap_andnot_count'],
    args: [arg('a'), arg('b')],
    returns: Types.BIGINT,
    resolve: bitmapArgs('bitmap_and_not_count', Types.BIGINT),
    nulls: 'custom',
    kernel: setOpCountKernel('andNot'),
    description: 'bitmap_count(bitmap_and_not(a, b)) (0 when an argument is NULL).',
    example: "SELECT bitmap_and_not_count(bitmap_from_string('1,2,3'), bitmap_from_string('2,3,4'))",
  }),
  bitmapFn('bitmap_contains', {
    args: [arg('bitmap'), arg('x')],
    returns: Types.BOOLEAN,
    resolve: bitmapThenInts('bitmap_contains', Types.BOOLEAN),
    kernel: perBitmap(booleansOut, (bitmap, args, rowIdx) => bitmap.has(integerAt(args[1], rowIdx) ?? -1n)),
    description: 'Whether the bitmap holds x.',
    example: "SELECT bitmap_contains(bitmap_from_string('1,2'), 2)",
  }),
  bitmapFn('bitmap_has_any', {
    args: [arg('a'), arg('b')],
    returns: Types.BOOLEAN,
    resolve: bitmapArgs('bitmap_has_any', Types.BOOLEAN),
    kernel: (args, rowCount, site) => {
      const right = bitmapsOf(args[1], rowCount, site.isConst[1]);
      return perBitmap(booleansOut, (bitmap, _args, rowIdx) => (right[rowIdx] === null ? null : bitmap.intersects(right[rowIdx]!)))(args, rowCount, site);
    },
    description: 'Whether the two bitmaps share a value.',
    example: "SELECT bitmap_has_any(bitmap_from_string('1,2'), bitmap_from_string('2,3'))",
  }),
  bitmapFn('bitmap_has_all', {
    args: [arg('a'), arg('b')],
    returns: Types.BOOLEAN,
    resolve: bitmapArgs('bitmap_has_all', Types.BOOLEAN),
    kernel: (args, rowCount, site) => {
      const right = bitmapsOf(args[1], rowCount, site.isConst[1]);
      return perBitmap(booleansOut, (bitmap, _args, rowIdx) => (right[rowIdx] === null ? null : bitmap.containsAll(right[rowIdx]!)))(args, rowCount, site);
    },
    description: 'Whether a holds every value of b.',
    example: "SELECT bitmap_has_all(bitmap_from_string('1,2,3'), bitmap_from_string('1,2'))",
  }),
  bitmapFn('bitmap_min', {
    args: [arg('bitmap')],
    returns: Types.BIGINT,
    resolve: bitmapArgs('bitmap_min', Types.BIGINT),
    kernel: perBitmap(bigintsOut, (bitmap) => bitmap.min()),
    description: 'The smallest value of the bitmap (NULL when it is empty).',
    example: "SELECT bitmap_min(bitmap_from_string('3,1,2'))",
  }),
  bitmapFn('bitmap_max', {
    args: [arg('bitmap')],
    returns: Types.BIGINT,
    resolve: bitmapArgs('bitmap_max', Types.BIGINT),
    kernel: perBitmap(bigintsOut, (bitmap) => bitmap.max()),
    description: 'The largest value of the bitmap (NULL when it is empty).',
    example: "SELECT bitmap_max(bitmap_from_string('3,1,2'))",
  }),
  bitmapFn('bitmap_to_string', {
    args: [arg('bitmap')],
    returns: Types.STRING,
    resolve: bitmapArgs('bitmap_to_string', Types.STRING),
    kernel: perBitmap(stringsOut, (bitmap) => bitmap.toStrings().join(',')),
    description: 'The values of the bitmap in ascending order, comma-separated.',
    example: 'SELECT bitmap_to_string(bitmap_or(to_bitmap(2), to_bitmap(1)))',
  }),
  bitmapFn('bitmap_to_array', {
    args: [arg('bitmap')],
    returns: BITMAP_ARRAY,
    resolve: bitmapArgs('bitmap_to_array', BITMAP_ARRAY),
    kernel: bitmapToArrayKernel,
    description: 'The values of the bitmap in ascending order, as ARRAY<BIGINT>.',
    example: "SELECT bitmap_to_array(bitmap_from_string('3,1,2'))",
  }),
  bitmapFn('bitmap_to_base64', {
    args: [arg('bitmap')],
    returns: Types.STRING,
    resolve: bitmapArgs('bitmap_to_base64', Types.STRING),
    kernel: perBitmap(stringsOut, (bitmap) => toBase64(bitmap.serialize())),
    description: "Base64 of the bitmap's serialized form (Doris's BitmapValue format, readable by bitmap_from_base64 in Galene and Doris).",
    example: "SELECT bitmap_to_base64(bitmap_from_string('1'))",
  }),
  bitmapFn('bitmap_from_base64', {
    args: [arg('str', 'STRING')],
    returns: Types.BITMAP,
    kernel: fromBase64Kernel(Types.BITMAP, (bytes) => BitmapValue.deserialize(bytes, 0, bytes.length)),
    description: 'The bitmap a bitmap_to_base64 string holds; NULL for a string that is not one.',
    example: "SELECT bitmap_to_string(bitmap_from_base64('AQEAAAA='))",
  }),
  bitmapFn('bitmap_remove', {
    args: [arg('bitmap'), arg('x')],
    returns: Types.BITMAP,
    resolve: bitmapThenInts('bitmap_remove', Types.BITMAP),
    kernel: (args, rowCount, site) => {
      const bitmaps = bitmapsOf(args[0], rowCount, site.isConst[0]);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) bitmaps[rowIdx]?.remove(integerAt(args[1], rowIdx) ?? -1n);
      return statesVector(Types.BITMAP, bitmaps);
    },
    description: 'The bitmap without x.',
    example: "SELECT bitmap_to_string(bitmap_remove(bitmap_from_string('1,2,3'), 2))",
  }),
  bitmapFn('bitmap_subset_in_range', {
    args: [arg('bitmap'), arg('range_start'), arg('range_end')],
    returns: Types.BITMAP,
    resolve: bitmapThenInts('bitmap_subset_in_range', Types.BITMAP),
    kernel: (args, rowCount, site) =>
      statesVector(Types.BITMAP, bitmapsOf(args[0], rowCount, site.isConst[0]).map((bitmap, rowIdx) => {
        const start = integerAt(args[1], rowIdx);
        const end = integerAt(args[2], rowIdx);
        if (bitmap === null || start === null || end === null || start < 0n || end < 0n) return null;
        return subset(bitmap, (value) => (value >= end ? 'stop' : value >= start));
      })),
    description: 'The values v of the bitmap with range_start <= v < range_end (NULL for a negative bound).',
    example: "SELECT bitmap_to_string(bitmap_subset_in_range(bitmap_from_string('1,2,3,4,5'), 2, 4))",
  }),
  bitmapFn('bitmap_subset_limit', {
    args: [arg('bitmap'), arg('range_start'), arg('cardinality_limit')],
    returns: Types.BITMAP,
    resolve: bitmapThenInts('bitmap_subset_limit', Types.BITMAP),
    kernel: (args, rowCount, site) =>
      statesVector(Types.BITMAP, bitmapsOf(args[0], rowCount, site.isConst[0]).map((bitmap, rowIdx) => {
        const start = integerAt(args[1], rowIdx);
        const limit = integerAt(args[2], rowIdx);
        if (bitmap === null || start === null || limit === null || start < 0n || limit < 0n) return null;
        return subset(bitmap, (value) => value >= start, Number(limit));
      })),
    description: 'At most cardinality_limit values of the bitmap, the smallest ones from range_start on.',
    example: "SELECT bitmap_to_string(bitmap_subset_limit(bitmap_from_string('1,2,3,4,5'), 2, 2))",
  }),
  bitmapFn('sub_bitmap', {
    args: [arg('bitmap'), arg('position'), arg('cardinality_limit')],
    returns: Types.BITMAP,
    resolve: bitmapThenInts('sub_bitmap', Types.BITMAP),
    kernel: (args, rowCount, site) =>
      statesVector(Types.BITMAP, bitmapsOf(args[0], rowCount, site.isConst[0]).map((bitmap, rowIdx) => {
        const position = integerAt(args[1], rowIdx);
        const limit = integerAt(args[2], rowIdx);
        if (bitmap === null || position === null || limit === null || limit < 0n) return null;
        // A negative position counts from the end (Doris); one outside the bitmap gives NULL.
        const size = BigInt(bitmap.size);
        const from = position < 0n ? size + position : position;
        if (from < 0n || from >= size) return null;
        return subset(bitmap, (_value, index) => BigInt(index) >= from, Number(limit));
      })),
    description: 'cardinality_limit values of the bitmap from the position-th one (0-based; negative counts from the end).',
    example: "SELECT bitmap_to_string(sub_bitmap(bitmap_from_string('1,2,3,4,5'), 1, 3))",
  }),
  hllFn('hll_hash', {
    args: [arg('x')],
    returns: Types.HLL,
    resolve: (argTypes) => ({ argTypes: anyAsString(argTypes), returnType: Types.HLL }),
    nulls: 'custom',
    kernel: hllHashKernel,
    description: "An HLL holding the 64-bit hash of x's text (Doris's MurmurHash64A); NULL gives an empty HLL.",
    example: "SELECT hll_cardinality(hll_hash('abc'))",
  }),
  hllFn('hll_empty', {
    args: [],
    returns: Types.HLL,
    kernel: (_args, rowCount) => statesVector(Types.HLL, Array.from({ length: rowCount }, () => new HllValue())),
    description: 'An empty HLL (for loads and INSERT into HLL columns).',
    example: 'SELECT hll_cardinality(hll_empty())',
  }),
  hllFn('hll_cardinality', {
    args: [arg('hll')],
    returns: Types.BIGINT,
    resolve: hllArg('hll_cardinality', Types.BIGINT),
    nulls: 'custom',
    kernel: (args, rowCount) => bigintsOut(hllsOf(args[0], rowCount).map((hll) => hll?.cardinality() ?? 0)),
    description: "The HLL's estimate of its distinct values (exact up to 160; 0 for NULL).",
    example: "SELECT hll_cardinality(hll_hash('abc'))",
  }),
  hllFn('hll_to_base64', {
    args: [arg('hll')],
    returns: Types.STRING,
    resolve: hllArg('hll_to_base64', Types.STRING),
    kernel: (args, rowCount) => stringsOut(hllsOf(args[0], rowCount).map((hll) => (hll === null ? null : toBase64(hll.serialize())))),
    description: "Base64 of the HLL's serialized form (Doris's format).",
    example: "SELECT hll_to_base64(hll_hash('abc'))",
  }),
  hllFn('hll_from_base64', {
    args: [arg('str', 'STRING')],
    returns: Types.HLL,
    kernel: fromBase64Kernel(Types.HLL, (bytes) => HllValue.deserialize(bytes, 0, bytes.length)),
    description: 'The HLL an hll_to_base64 string holds; NULL for a string that is not one.',
    example: "SELECT hll_cardinality(hll_from_base64('AQEC5XSzrpDsdw=='))",
  }),
  quantileFn('to_quantile_state', {
    args: [arg('x', 'DOUBLE'), arg('compression', 'DOUBLE')],
    returns: Types.QUANTILE_STATE,
    kernel: (args, rowCount) => {
      const values = toF64(args[0]);
      const compression = toF64(args[1])[0];
      // Doris: the compression is a constant in [2048, 10000].
      if (!(compression >= QUANTILE_COMPRESSION_MIN && compression <= QUANTILE_COMPRESSION_MAX)) throw galeneError('INVALID_ARGUMENT', `compression should be in [${QUANTILE_COMPRESSION_MIN}, ${QUANTILE_COMPRESSION_MAX}], but got ${compression}`);
      return statesVector(Types.QUANTILE_STATE, Array.from({ length: rowCount }, (_unused, rowIdx) => {
        const state = new QuantileStateValue(compression);
        state.add(values[rowIdx]);
        return state;
      }));
    },
    description: 'A QUANTILE_STATE holding x, with the given t-digest compression (2048..10000).',
    example: 'SELECT quantile_percent(to_quantile_state(5, 2048), 0.5)',
  }),
  quantileFn('quantile_state_empty', {
    args: [],
    returns: Types.QUANTILE_STATE,
    kernel: (_args, rowCount) => statesVector(Types.QUANTILE_STATE, Array.from({ length: rowCount }, () => new QuantileStateValue())),
    description: 'An empty QUANTILE_STATE (for loads and INSERT into QUANTILE_STATE columns).',
    example: 'SELECT quantile_percent(quantile_state_empty(), 0.5)',
  }),
  quantileFn('quantile_percent', {
    args: [arg('state'), arg('p')],
    returns: Types.DOUBLE,
    resolve: (argTypes) => {
      if (!(argTypes[0].name === 'QUANTILE_STATE' || argTypes[0].name === 'NULL')) throw noMatch('quantile_percent', argTypes);
      return { argTypes: [Types.QUANTILE_STATE, Types.DOUBLE], returnType: Types.DOUBLE };
    },
    kernel: (args, rowCount) => {
      const levels = toF64(args[1]);
      const out = new Float64Array(rowCount);
      let nulls: Uint8Array | null = null;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const level = levels[rowIdx];
        if (!(level >= 0 && level <= 1)) throw galeneError('INVALID_ARGUMENT', `quantile_percent level must be in [0, 1], but given ${level}`);
        const state = args[0].kind === 'string' ? quantileStateAt(args[0], rowIdx) : null;
        const value = state === null ? NaN : state.percent(level);
        if (Number.isNaN(value)) (nulls ??= new Uint8Array(rowCount))[rowIdx] = 1;
        else out[rowIdx] = value;
      }
      return { kind: 'fixed', type: Types.DOUBLE, length: rowCount, values: out, nulls };
    },
    description: 'The p-quantile (p in [0, 1]) of the values a QUANTILE_STATE holds: exact interpolation up to 2048 values, the t-digest beyond; NULL when it is empty.',
    example: 'SELECT quantile_percent(quantile_union(to_quantile_state(x, 2048)), 0.5) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 4) t',
  }),
];
