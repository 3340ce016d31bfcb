/**
 * Small vector helpers shared by the kernels of the expression engine: null-map merging, reading any
 * numeric vector as float64 or exact bigint, 64-bit integers without BigInt allocation, UTF-8 byte
 * comparison, string output builders and branch selection (CASE / IF / COALESCE).
 *
 * Internal to src/exec/expr; imports only common/.
 */
import { anyNullIn, constantVector, decodeUtf8, encodeUtf8, FixedArray, getRaw, newFixedArray, ObjectVector, RawValue, StringVector, Vector, VectorBuilder } from '../../common/column';
import { pow10 } from '../../common/convert';
import { galeneError } from '../../common/errors';
import { DataType, physicalKind } from '../../common/types';

export const TWO_POW_32 = 4294967296;
/** Sums and products below this magnitude are exact in a float64. */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** OR of null maps (null = no nulls). Returns a fresh array when more than one input has nulls. */
export function orNulls(maps: readonly (Uint8Array | null)[], length: number): Uint8Array | null {
  let out: Uint8Array | null = null;
  let owned = false;
  for (const map of maps) {
    if (map === null) continue;
    if (out === null) {
      out = map;
      continue;
    }
    if (!owned) {
      const copy = new Uint8Array(length);
      copy.set(out.subarray(0, length));
      out = copy;
      owned = true;
    }
    for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] |= map[rowIdx];
  }
  return out;
}

/** A vector with its null map replaced (vectors are immutable values: returns a new object). */
export function withNulls(vec: Vector, nulls: Uint8Array | null): Vector {
  if (vec.nulls === nulls) return vec;
  return { ...vec, nulls } as Vector;
}

/** True when any row is null. */
export function hasAnyNull(vec: Vector): boolean {
  return anyNullIn(vec.nulls, 0, vec.length);
}

/** Low/high 32-bit views over a BigInt64Array: read and write 64-bit integers as numbers, no BigInt. */
export function i64Views(values: BigInt64Array): { lo: Uint32Array; hi: Int32Array } {
  return {
    lo: new Uint32Array(values.buffer, values.byteOffset, values.length * 2),
    hi: new Int32Array(values.buffer, values.byteOffset, values.length * 2),
  };
}

/** Build a BigInt64Array from exact integer numbers (|x| < 2^53) without BigInt conversions. */
export function i64FromNumbers(src: ArrayLike<number>, length: number): BigInt64Array {
  const out = new BigInt64Array(length);
  const { lo, hi } = i64Views(out);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    const value = src[rowIdx];
    lo[rowIdx * 2] = value;
    hi[rowIdx * 2 + 1] = Math.floor(value / TWO_POW_32);
  }
  return out;
}

/** Values of a BigInt64Array as float64 (exact below 2^53). */
export function i64ToNumbers(values: BigInt64Array, length: number): Float64Array {
  const out = new Float64Array(length);
  const { lo, hi } = i64Views(values);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = hi[rowIdx * 2 + 1] * TWO_POW_32 + lo[rowIdx * 2];
  return out;
}

/** True when every value of a BigInt64Array is exactly representable as a float64 integer. */
export function i64AllSafe(values: BigInt64Array, length: number): boolean {
  const { hi } = i64Views(values);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    const high = hi[rowIdx * 2 + 1];
    if (high >= 0x200000 || high < -0x200000) return false;
  }
  return true;
}

/**
 * Exact float64 form of bigint-typed vectors (wide DECIMAL, LARGEINT).
 *
 * Wide decimals are declared with up to 38 digits, so their physical form is bigint[]; but the values a
 * query meets (prices times discounts, sums of them) are almost always far below 2^53, where a float64
 * holds every integer exactly and arithmetic is ~50x cheaper than on bigints. Kernels that produce such a
 * vector from exact float64 arithmetic register the scaled values here; kernels that know this form
 * (decimal arithmetic, SUM/AVG, toF64 / toNumberScaled) read it, everything else reads `values`, which
 * is built from the numbers on first access. Keyed by the vector object, so a copy made by spreading or
 * slicing simply loses the form and falls back to its bigint values: never a wrong answer.
 */
const exactNumberForms = new WeakMap<Vector, Float64Array>();

/** Largest magnitude (exclusive) of a scaled value kept in exact float64 form: 2^53. */
export const EXACT_NUMBER_LIMIT = 2 ** 53;

/** The scaled values of a bigint-typed vector as exact float64s, when a kernel produced them so. */
export function exactNumbers(vec: Vector): Float64Array | null {
  return vec.kind === 'object' ? (exactNumberForms.get(vec) ?? null) : null;
}

/**
 * An ObjectVector (wide DECIMAL / LARGEINT) over integers `values` with |value| < 2^53 (the caller
 * checks); its bigint[] `values` is materialised lazily.
 */
export function objectVectorFromExactNumbers(type: DataType, values: Float64Array, nulls: Uint8Array | null): ObjectVector {
  const length = values.length;
  let big: bigint[] | null = null;
  const vec = { kind: 'object', type, length, nulls } as { kind: 'object'; type: DataType; length: number; nulls: Uint8Array | null; values: bigint[] };
  Object.defineProperty(vec, 'values', {
    enumerable: true,
    get(): bigint[] {
      if (big === null) {
        big = new Array<bigint>(length);
        for (let rowIdx = 0; rowIdx < length; rowIdx++) big[rowIdx] = BigInt(values[rowIdx]);
      }
      return big;
    },
  });
  exactNumberForms.set(vec, values);
  return vec;
}

/** Largest |value| of the first `length` entries (NaN when any is NaN). */
export function maxAbs(values: ArrayLike<number>, length: number): number {
  let max = 0;
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    const value = values[rowIdx];
    const magnitude = value < 0 ? -value : value;
    if (!(magnitude <= max)) max = magnitude;
  }
  return max;
}

/** Scale of a decimal type (0 for everything else). */
export function scaleOf(t: DataType): number {
  return t.name === 'DECIMAL' ? t.scale ?? 0 : 0;
}

/**
 * Any numeric / temporal vector as float64 values (decimals unscaled to their real value, 64-bit and
 * 128-bit integers converted). Returns the vector's own array when it already is a plain Float64Array.
 */
export function toF64(vec: Vector): Float64Array {
  const length = vec.length;
  const scale = scaleOf(vec.type);
  if (vec.kind === 'object') {
    const out = new Float64Array(length);
    const div = pow10(scale);
    const exact = exactNumbers(vec);
    if (exact !== null) for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = exact[rowIdx] / div;
    else for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = Number(vec.values[rowIdx]) / div;
    return out;
  }
  if (vec.kind !== 'fixed') throw new TypeError(`numeric vector expected, got ${vec.kind}`);
  let out: Float64Array;
  if (vec.values instanceof BigInt64Array) out = i64ToNumbers(vec.values, length);
  else if (vec.values instanceof Float64Array) out = vec.values;
  else out = Float64Array.from(vec.values as ArrayLike<number>);
  if (scale > 0) {
    const div = pow10(scale);
    const scaled = out === vec.values ? new Float64Array(length) : out;
    for (let rowIdx = 0; rowIdx < length; rowIdx++) scaled[rowIdx] = out[rowIdx] / div;
    out = scaled;
  }
  return out;
}

/** Integer / decimal vector as exact bigint values scaled to `targetScale` (>= the vector's own scale). */
export function toBigScaled(vec: Vector, targetScale: number): bigint[] {
  const length = vec.length;
  const mul = 10n ** BigInt(targetScale - scaleOf(vec.type));
  const out = new Array<bigint>(length);
  if (vec.kind === 'object') {
    for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = vec.values[rowIdx] * mul;
    return out;
  }
  if (vec.kind !== 'fixed') throw new TypeError(`numeric vector expected, got ${vec.kind}`);
  const values = vec.values;
  if (values instanceof BigInt64Array) {
    for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = values[rowIdx] * mul;
  } else {
    const nums = values as Float64Array;
    for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = BigInt(Math.round(nums[rowIdx])) * mul;
  }
  return out;
}

/** Integer / narrow-decimal vector as exact numbers scaled to `targetScale` (caller checks exactness). */
export function toNumberScaled(vec: Vector, targetScale: number): Float64Array {
  const length = vec.length;
  const mul = pow10(targetScale - scaleOf(vec.type));
  if (vec.kind === 'object') {
    const exact = exactNumbers(vec);
    if (exact !== null && mul === 1) return exact;
    const out = new Float64Array(length);
    if (exact !== null) for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = exact[rowIdx] * mul;
    else for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = Number(vec.values[rowIdx]) * mul;
    return out;
  }
  if (vec.kind !== 'fixed') throw new TypeError(`numeric vector expected, got ${vec.kind}`);
  let out: Float64Array;
  if (vec.values instanceof BigInt64Array) out = i64ToNumbers(vec.values, length);
  else if (vec.values instanceof Float64Array && mul === 1) return vec.values;
  else out = Float64Array.from(vec.values as ArrayLike<number>);
  if (mul !== 1) for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] *= mul;
  return out;
}

/** Round half away from zero of a bigint division (decimal rescaling and division). */
export function bigDivRound(numerator: bigint, denominator: bigint): bigint {
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const quotient = numerator / denominator;
  const remainder = numerator - quotient * denominator;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice >= denominator) return numerator < 0n ? quotient - 1n : quotient + 1n;
  return quotient;
}

/** Round half away from zero (Math.round rounds half up: -2.5 -> -2). */
export function roundHalfAway(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

/** A fixed vector from a typed array. */
export function fixedVector(type: DataType, values: FixedArray, nulls: Uint8Array | null = null): Vector {
  return { kind: 'fixed', type, length: values.length, values, nulls };
}

/** A vector of `type` from float64 values (integers must be exact; i64 written without BigInt). */
export function vectorFromNumbers(type: DataType, values: Float64Array, nulls: Uint8Array | null): Vector {
  const kind = physicalKind(type);
  const length = values.length;
  if (kind === 'f64') return { kind: 'fixed', type, length, values, nulls };
  if (kind === 'i64') return { kind: 'fixed', type, length, values: i64FromNumbers(values, length), nulls };
  if (kind === 'bigint') {
    const out = new Array<bigint>(length);
    for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = BigInt(Math.round(values[rowIdx]));
    return { kind: 'object', type, length, values: out, nulls };
  }
  if (kind === 'string') throw new TypeError('string type has no numeric form');
  const out = newFixedArray(kind, length) as Float64Array;
  out.set(values);
  return { kind: 'fixed', type, length, values: out, nulls };
}

/** Strings of a string-typed vector as JS strings (null under NULL rows). */
export function toJsStrings(vec: Vector): (string | null)[] {
  const out = new Array<string | null>(vec.length);
  const nulls = vec.nulls;
  if (vec.kind === 'dict') {
    for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out[rowIdx] = nulls !== null && nulls[rowIdx] ? null : vec.dict[vec.codes[rowIdx]];
  } else if (vec.kind === 'string') {
    for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out[rowIdx] = nulls !== null && nulls[rowIdx] ? null : decodeUtf8(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
  } else {
    for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) {
      const raw = getRaw(vec, rowIdx);
      out[rowIdx] = raw === null ? null : String(raw);
    }
  }
  return out;
}

/** A reader of row values as RawValue (JS strings for string vectors): for row-at-a-time kernels. */
export function rawReader(vec: Vector): (rowIdx: number) => RawValue {
  const nulls = vec.nulls;
  switch (vec.kind) {
    case 'fixed': {
      const values = vec.values;
      if (nulls === null) return (rowIdx) => values[rowIdx];
      return (rowIdx) => (nulls[rowIdx] ? null : values[rowIdx]);
    }
    case 'object': {
      const values = vec.values;
      return (rowIdx) => (nulls !== null && nulls[rowIdx] ? null : values[rowIdx]);
    }
    case 'dict': {
      const { codes, dict } = vec;
      return (rowIdx) => (nulls !== null && nulls[rowIdx] ? null : dict[codes[rowIdx]]);
    }
    case 'string': {
      const { offsets, bytes } = vec;
      return (rowIdx) => (nulls !== null && nulls[rowIdx] ? null : decodeUtf8(bytes, offsets[rowIdx], offsets[rowIdx + 1]));
    }
    case 'array':
    case 'struct':
      return (rowIdx) => getRaw(vec, rowIdx);
  }
}

/**
 * Grows a plain string vector from JS strings or byte ranges. Faster than VectorBuilder for ASCII (no
 * TextEncoder call per row).
 */
/**
 * Most bytes one string value may have. Doris's hard limit is 2 GiB - 4 and its columns overflow at 4 GiB
 * (STRING_OVERFLOW_IN_VEC_ENGINE); V8 cannot hold a string of more than ~512 Mi UTF-16 units, so Galene
 * stops at 256 MiB: lpad(s, 1e9, 'x') fails with Doris's error instead of ending the process.
 */
export const STRING_VALUE_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Most bytes one string column (one kernel's result over one batch) may hold, so that repeat() over
 * thousands of rows cannot take all memory: 512 MiB (a batch of 4,096 values of the VARCHAR maximum,
 * 65,533 bytes, fits).
 */
export const STRING_COLUMN_MAX_BYTES = 512 * 1024 * 1024;

/**
 * Throws Doris's STRING_OVERFLOW_IN_VEC_ENGINE error when appending a value of `valueBytes` to a string
 * column holding `columnBytes` as its `elementCount`-th value would pass STRING_VALUE_MAX_BYTES or
 * STRING_COLUMN_MAX_BYTES. Kernels that multiply their input (repeat, lpad, space, replace,
 * group_concat...) call it with the planned size before building the value; StringOut calls it on growth.
 */
export function checkStringBytes(columnBytes: number, valueBytes: number, elementCount: number): void {
  const total = columnBytes + valueBytes;
  if (valueBytes > STRING_VALUE_MAX_BYTES || total > STRING_COLUMN_MAX_BYTES || !Number.isFinite(total)) {
    throw galeneError('STRING_TOO_LARGE', String(total), elementCount);
  }
}

const utf8Encoder = new TextEncoder();

export class StringOut {
  private offsets: Int32Array;
  private bytes: Uint8Array;
  private byteLength = 0;
  private rowCount = 0;
  private nulls: Uint8Array | null = null;

  constructor(private readonly type: DataType, private readonly capacity: number, bytesHint = capacity * 8) {
    checkStringBytes(bytesHint, 0, capacity);
    this.offsets = new Int32Array(capacity + 1);
    this.bytes = new Uint8Array(Math.max(64, bytesHint));
  }

  private ensure(extra: number): void {
    const need = this.byteLength + extra;
    if (need <= this.bytes.length) return;
    checkStringBytes(this.byteLength, extra, this.rowCount + 1);
    const next = new Uint8Array(Math.min(Math.max(need, this.bytes.length * 2), STRING_COLUMN_MAX_BYTES));
    next.set(this.bytes.subarray(0, this.byteLength));
    this.bytes = next;
  }

  /** Bytes written so far (kernels pass it with a planned value's size to checkStringBytes). */
  get bytesWritten(): number {
    return this.byteLength;
  }

  /** Append a JS string (ASCII written directly, otherwise encoded). */
  push(text: string): void {
    const len = text.length;
    if (len > 512) {
      // Long values (repeat, lpad...): one native encode beats a JS loop per character.
      this.ensure(Buffer.byteLength(text, 'utf8'));
      this.byteLength += utf8Encoder.encodeInto(text, this.bytes.subarray(this.byteLength)).written;
      this.offsets[++this.rowCount] = this.byteLength;
      return;
    }
    this.ensure(len);
    let ascii = true;
    let bytes = this.bytes;
    let pos = this.byteLength;
    for (let charIdx = 0; charIdx < len; charIdx++) {
      const code = text.charCodeAt(charIdx);
      if (code > 0x7f) {
        ascii = false;
        break;
      }
      bytes[pos++] = code;
    }
    if (ascii) this.byteLength = pos;
    else {
      this.ensure(Buffer.byteLength(text, 'utf8'));
      bytes = this.bytes;
      const written = new TextEncoder().encodeInto(text, bytes.subarray(this.byteLength)).written;
      this.byteLength += written;
    }
    this.offsets[++this.rowCount] = this.byteLength;
  }

  pushBytes(src: Uint8Array, start: number, end: number): void {
    this.ensure(end - start);
    this.bytes.set(src.subarray(start, end), this.byteLength);
    this.byteLength += end - start;
    this.offsets[++this.rowCount] = this.byteLength;
  }

  /** Append the bytes of several ranges as one value (concat): appendPart()* then endValue(). */
  appendPart(src: Uint8Array, start: number, end: number): void {
    this.ensure(end - start);
    this.bytes.set(src.subarray(start, end), this.byteLength);
    this.byteLength += end - start;
  }
  endValue(): void {
    this.offsets[++this.rowCount] = this.byteLength;
  }

  pushNull(): void {
    if (this.nulls === null) this.nulls = new Uint8Array(this.capacity);
    this.nulls[this.rowCount] = 1;
    this.offsets[++this.rowCount] = this.byteLength;
  }

  finish(): StringVector {
    return { kind: 'string', type: this.type, length: this.rowCount, offsets: this.offsets.subarray(0, this.rowCount + 1), bytes: this.bytes.subarray(0, this.byteLength), nulls: this.nulls };
  }
}

/** A vector of `type` built from raw values (null = NULL). */
export function vectorFromValues(type: DataType, values: readonly RawValue[]): Vector {
  const builder = new VectorBuilder(type, values.length);
  for (const value of values) builder.append(value);
  return builder.finish();
}

/**
 * Pick, per row, the value of branch `choice[row]` (-1 = NULL). All branches have `type`'s physical
 * layout. Dictionary branches (typical for string constants in CASE) give a dictionary result.
 */
export function gatherBranches(type: DataType, branches: readonly Vector[], choice: Int32Array, rowCount: number): Vector {
  const kind = physicalKind(type);
  const nulls = new Uint8Array(rowCount);
  let anyNull = false;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const branchIdx = choice[rowIdx];
    const isNullRow = branchIdx < 0 || (branches[branchIdx].nulls !== null && branches[branchIdx].nulls![rowIdx] === 1);
    if (isNullRow) {
      nulls[rowIdx] = 1;
      anyNull = true;
    }
  }
  const outNulls = anyNull ? nulls : null;
  if (kind === 'list' || kind === 'struct') {
    const builder = new VectorBuilder(type, rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls[rowIdx]) builder.append(null);
      else builder.appendFrom(branches[choice[rowIdx]], rowIdx);
    }
    return builder.finish();
  }
  if (kind === 'string') {
    if (branches.every((branch) => branch.kind === 'dict')) {
      const dict: string[] = [];
      const bases: number[] = [];
      for (const branch of branches) {
        bases.push(dict.length);
        for (const entry of (branch as { dict: readonly string[] }).dict) dict.push(entry);
      }
      const codes = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const branchIdx = choice[rowIdx];
        if (branchIdx >= 0) codes[rowIdx] = bases[branchIdx] + (branches[branchIdx] as { codes: Int32Array }).codes[rowIdx];
      }
      if (dict.length === 0) dict.push('');
      return { kind: 'dict', type, length: rowCount, codes, dict, nulls: outNulls };
    }
    const out = new StringOut(type, rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const branchIdx = choice[rowIdx];
      if (branchIdx < 0 || nulls[rowIdx]) {
        out.pushBytes(EMPTY_BYTES, 0, 0);
        continue;
      }
      const branch = branches[branchIdx];
      if (branch.kind === 'string') out.pushBytes(branch.bytes, branch.offsets[rowIdx], branch.offsets[rowIdx + 1]);
      else if (branch.kind === 'dict') out.push(branch.dict[branch.codes[rowIdx]]);
      else out.push(String(getRaw(branch, rowIdx)));
    }
    const vec = out.finish();
    return { ...vec, nulls: outNulls };
  }
  if (kind === 'bigint') {
    const values = new Array<bigint>(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const branchIdx = choice[rowIdx];
      values[rowIdx] = branchIdx < 0 ? 0n : (branches[branchIdx] as { values: bigint[] }).values[rowIdx];
    }
    return { kind: 'object', type, length: rowCount, values, nulls: outNulls };
  }
  const values = newFixedArray(kind, rowCount);
  const branchValues = branches.map((branch) => (branch as { values: FixedArray }).values);
  if (kind === 'i64') {
    const out = values as BigInt64Array;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const branchIdx = choice[rowIdx];
      if (branchIdx >= 0) out[rowIdx] = (branchValues[branchIdx] as BigInt64Array)[rowIdx];
    }
  } else {
    const out = values as Float64Array;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const branchIdx = choice[rowIdx];
      if (branchIdx >= 0) out[rowIdx] = (branchValues[branchIdx] as Float64Array)[rowIdx];
    }
  }
  return { kind: 'fixed', type, length: rowCount, values, nulls: outNulls };
}

export const EMPTY_BYTES = new Uint8Array(0);

/** All-NULL vector of a type. */
export function nullVector(type: DataType, length: number): Vector {
  return constantVector(type, null, length);
}

/** Encode once, reuse: UTF-8 bytes of a constant string. */
export function utf8(text: string): Uint8Array {
  return encodeUtf8(text);
}

/** A Float64Array of `rowCount` for a kernel's result: the call site's reused buffer when it allows one. */
export function outputF64(site: { readonly reuseOutput?: boolean; readonly cache: Map<string, unknown> }, rowCount: number): Float64Array {
  if (site.reuseOutput !== true) return new Float64Array(rowCount);
  let buffer = site.cache.get('out.f64') as Float64Array | undefined;
  if (buffer === undefined || buffer.length < rowCount) site.cache.set('out.f64', (buffer = new Float64Array(Math.max(rowCount, 4096))));
  return buffer.length === rowCount ? buffer : buffer.subarray(0, rowCount);
}

/** A Uint8Array of `rowCount` (0/1 results): the call site's reused buffer when it allows one. */
export function outputU8(site: { readonly reuseOutput?: boolean; readonly cache: Map<string, unknown> } | null, rowCount: number): Uint8Array {
  if (site === null || site.reuseOutput !== true) return new Uint8Array(rowCount);
  let buffer = site.cache.get('out.u8') as Uint8Array | undefined;
  if (buffer === undefined || buffer.length < rowCount) site.cache.set('out.u8', (buffer = new Uint8Array(Math.max(rowCount, 4096))));
  return buffer.length === rowCount ? buffer : buffer.subarray(0, rowCount);
}
