/**
 * Encodings of fixed-width values within one page, chosen per page by size:
 *
 * - PLAIN: the little-endian values as they lie in memory; decoding is a zero-copy view.
 * - FOR (frame of reference + bit packing): `min`, an optional common divisor (DATETIME in whole seconds
 *   is a multiple of 10^6 µs), and `(value - min) / divisor` bit-packed; deltas up to 53 bits go in a
 *   low 32-bit stream plus a high stream. For integer kinds, DATE, and f64 / i64 columns holding only
 *   integers below 2^53 (scaled DECIMAL, DATETIME, most BIGINT).
 * - RLE: run values + run lengths, for sorted keys and flags.
 *
 * NULL rows carry no meaning, so they take the previous row's value to lengthen runs and keep FOR ranges
 * tight. Encoding is plain functions over typed arrays (it can move to a worker thread as is); decoding
 * loops are one per target kind so that each stays monomorphic.
 */
import type { FixedArray } from '../../common/column';
import { newFixedArray } from '../../common/column';
import type { PhysicalKind } from '../../common/types';
import { fixedWidth } from '../../common/types';
import { bitWidth, packBits, packedWords, unpackBits } from './bit-pack';
import { ByteReader, ByteWriter } from './byte-buffer';

export const ENC_PLAIN = 1;
export const ENC_FOR = 2;
export const ENC_RLE = 3;

const TWO_32 = 4294967296;
const SAFE = Number.MAX_SAFE_INTEGER;
const DIVISORS = [1000000, 1000, 100, 10];

type FixedKind = Exclude<PhysicalKind, 'string' | 'bigint' | 'list' | 'struct'>;

/** Values of a fixed page as numbers (NULL rows take the previous value), or null when not number-safe. */
function numberDomain(kind: FixedKind, values: FixedArray, start: number, end: number, nulls: Uint8Array | null): Float64Array | null {
  const count = end - start;
  const out = new Float64Array(count);
  if (kind === 'i64') {
    const src = values as BigInt64Array;
    const words = new Int32Array(src.buffer, src.byteOffset + start * 8, count * 2);
    for (let rowIdx = 0; rowIdx < count; rowIdx++) {
      const hi = words[rowIdx * 2 + 1];
      if (hi < -2097152 || hi >= 2097152) {
        if (nulls !== null && nulls[start + rowIdx] === 1) {
          out[rowIdx] = rowIdx > 0 ? out[rowIdx - 1] : 0;
          continue;
        }
        return null;
      }
      out[rowIdx] = hi * TWO_32 + (words[rowIdx * 2] >>> 0);
    }
  } else {
    const src = values as Float64Array;
    for (let rowIdx = 0; rowIdx < count; rowIdx++) out[rowIdx] = src[start + rowIdx];
  }
  if (nulls !== null) {
    let firstValid = 0;
    for (let rowIdx = 0; rowIdx < count; rowIdx++) {
      if (nulls[start + rowIdx] === 0) {
        firstValid = out[rowIdx];
        break;
      }
    }
    for (let rowIdx = 0; rowIdx < count; rowIdx++) {
      if (nulls[start + rowIdx] === 1) out[rowIdx] = rowIdx > 0 ? out[rowIdx - 1] : firstValid;
    }
  }
  return out;
}

function sameValue(a: number, b: number): boolean {
  // Distinguishes -0 from 0 (a float round trip must keep the sign); NaN never forms runs, which is safe.
  return a === b && (a !== 0 || 1 / a === 1 / b);
}

/** Append the encoded values of rows [start, end) of a fixed-width vector. */
export function writeFixedValues(out: ByteWriter, kind: FixedKind, values: FixedArray, start: number, end: number, nulls: Uint8Array | null): void {
  const count = end - start;
  const width = fixedWidth(kind);
  const plainSize = count * width;
  const numbers = count > 0 ? numberDomain(kind, values, start, end, nulls) : null;
  if (numbers === null) {
    out.u8(ENC_PLAIN);
    out.typed(values.subarray(start, end) as FixedArray);
    return;
  }
  let min = Infinity;
  let max = -Infinity;
  let integral = kind !== 'f32';
  let runs = 1;
  for (let rowIdx = 0; rowIdx < count; rowIdx++) {
    const value = numbers[rowIdx];
    if (value < min) min = value;
    if (value > max) max = value;
    if (rowIdx > 0 && !sameValue(value, numbers[rowIdx - 1])) runs++;
  }
  if (integral && (kind === 'f64' || kind === 'i64')) {
    for (let rowIdx = 0; rowIdx < count; rowIdx++) {
      const value = numbers[rowIdx];
      if (!Number.isInteger(value) || (value === 0 && 1 / value < 0)) {
        integral = false;
        break;
      }
    }
    if (integral && (min < -SAFE || max > SAFE || max - min > SAFE)) integral = false;
  }
  let divisor = 1;
  let forWidth = 64;
  if (integral) {
    const range = max - min;
    if (range > 0 && (kind === 'f64' || kind === 'i64')) {
      for (const candidate of DIVISORS) {
        if (range % candidate !== 0) continue;
        let divides = true;
        for (let rowIdx = 0; rowIdx < count; rowIdx++) {
          if ((numbers[rowIdx] - min) % candidate !== 0) {
            divides = false;
            break;
          }
        }
        if (divides) {
          divisor = candidate;
          break;
        }
      }
    }
    const scaled = range / divisor;
    forWidth = scaled < TWO_32 ? bitWidth(scaled) : 32 + bitWidth(Math.floor(scaled / TWO_32));
  }
  const forSize = integral ? Math.ceil((count * forWidth) / 8) + 24 : Infinity;
  const rleSize = runs * (Math.max(width, kind === 'i64' ? 8 : width) + 4) + 8;
  if (rleSize < forSize && rleSize * 2 < plainSize) {
    writeRle(out, kind, numbers, runs);
  } else if (forSize < plainSize * 0.9) {
    writeFor(out, numbers, min, divisor, forWidth);
  } else {
    out.u8(ENC_PLAIN);
    out.typed(values.subarray(start, end) as FixedArray);
  }
}

function writeFor(out: ByteWriter, numbers: Float64Array, min: number, divisor: number, width: number): void {
  const count = numbers.length;
  out.u8(ENC_FOR);
  out.u8(width);
  out.f64(min);
  out.f64(divisor);
  const lo = new Uint32Array(count);
  if (width <= 32) {
    for (let rowIdx = 0; rowIdx < count; rowIdx++) lo[rowIdx] = (numbers[rowIdx] - min) / divisor;
    out.typed(packBits(lo, count, width));
    return;
  }
  const hi = new Uint32Array(count);
  for (let rowIdx = 0; rowIdx < count; rowIdx++) {
    const delta = (numbers[rowIdx] - min) / divisor;
    const high = Math.floor(delta / TWO_32);
    hi[rowIdx] = high;
    lo[rowIdx] = delta - high * TWO_32;
  }
  out.typed(packBits(lo, count, 32));
  out.typed(packBits(hi, count, width - 32));
}

function writeRle(out: ByteWriter, kind: FixedKind, numbers: Float64Array, runs: number): void {
  const count = numbers.length;
  const runValues = newFixedArray(kind === 'i64' ? 'f64' : kind, runs) as Float64Array;
  const runLengths = new Uint32Array(runs);
  let runIdx = 0;
  let runStart = 0;
  for (let rowIdx = 1; rowIdx <= count; rowIdx++) {
    if (rowIdx === count || !sameValue(numbers[rowIdx], numbers[rowIdx - 1])) {
      runValues[runIdx] = numbers[runStart];
      runLengths[runIdx] = rowIdx - runStart;
      runIdx++;
      runStart = rowIdx;
    }
  }
  out.u8(ENC_RLE);
  out.u32(runs);
  out.typed(runValues);
  out.typed(runLengths);
}

const CTORS = {
  u8: Uint8Array,
  i8: Int8Array,
  i16: Int16Array,
  i32: Int32Array,
  i64: BigInt64Array,
  f32: Float32Array,
  f64: Float64Array,
} as const;

/** Decode `count` values written by writeFixedValues into a typed array of `kind`. */
export function readFixedValues(input: ByteReader, kind: FixedKind, count: number): FixedArray {
  const encoding = input.u8();
  switch (encoding) {
    case ENC_PLAIN:
      return input.typed(CTORS[kind] as unknown as typeof Float64Array, count) as FixedArray;
    case ENC_FOR:
      return readFor(input, kind, count);
    case ENC_RLE:
      return readRle(input, kind, count);
    default:
      return input.fail(`unknown value encoding ${encoding}`);
  }
}

/**
 * Scratch lanes for unpacking, reused across pages: decoding is synchronous, and writing into memory
 * touched before is several times faster here than into a fresh allocation (first-touch page faults).
 */
let scratchLo = new Uint32Array(0);
let scratchHi = new Uint32Array(0);

function scratch(count: number, high: boolean): Uint32Array {
  if (high) {
    if (scratchHi.length < count) scratchHi = new Uint32Array(Math.max(count, 65536));
    return scratchHi;
  }
  if (scratchLo.length < count) scratchLo = new Uint32Array(Math.max(count, 65536));
  return scratchLo;
}

function readFor(input: ByteReader, kind: FixedKind, count: number): FixedArray {
  const width = input.u8();
  const min = input.f64();
  const divisor = input.f64();
  if (width > 53) input.fail(`bad bit width ${width}`);
  const loWidth = Math.min(width, 32);
  const loWords = input.typed(Uint32Array, packedWords(count, loWidth));
  const hiWords = width > 32 ? input.typed(Uint32Array, packedWords(count, width - 32)) : null;
  if (kind === 'i32') {
    // Unpack straight into the result's memory, then add the base in place.
    const out = new Int32Array(count);
    unpackBits(loWords, count, loWidth, new Uint32Array(out.buffer));
    for (let rowIdx = 0; rowIdx < count; rowIdx++) out[rowIdx] = min + (out[rowIdx] >>> 0);
    return out;
  }
  const lo = unpackBits(loWords, count, loWidth, scratch(count, false));
  const hi = hiWords === null ? null : unpackBits(hiWords, count, width - 32, scratch(count, true));
  switch (kind) {
    case 'u8':
      return addBase(new Uint8Array(count), lo, min, count);
    case 'i8':
      return addBase(new Int8Array(count), lo, min, count);
    case 'i16':
      return addBase(new Int16Array(count), lo, min, count);
    case 'f32':
    case 'f64': {
      const out = newFixedArray(kind, count) as Float64Array;
      if (hi === null) {
        if (divisor === 1) for (let rowIdx = 0; rowIdx < count; rowIdx++) out[rowIdx] = min + lo[rowIdx];
        else for (let rowIdx = 0; rowIdx < count; rowIdx++) out[rowIdx] = min + lo[rowIdx] * divisor;
      } else {
        for (let rowIdx = 0; rowIdx < count; rowIdx++) out[rowIdx] = min + (hi[rowIdx] * TWO_32 + lo[rowIdx]) * divisor;
      }
      return out;
    }
    case 'i64': {
      const out = new BigInt64Array(count);
      const words = new Int32Array(out.buffer);
      for (let rowIdx = 0; rowIdx < count; rowIdx++) {
        const value = min + (hi === null ? lo[rowIdx] : hi[rowIdx] * TWO_32 + lo[rowIdx]) * divisor;
        const high = Math.floor(value / TWO_32);
        words[rowIdx * 2] = value - high * TWO_32;
        words[rowIdx * 2 + 1] = high;
      }
      return out;
    }
  }
  return input.fail(`FOR encoding for ${kind}`);
}

function addBase<T extends Uint8Array | Int8Array | Int16Array>(out: T, deltas: Uint32Array, min: number, count: number): T {
  for (let rowIdx = 0; rowIdx < count; rowIdx++) out[rowIdx] = min + deltas[rowIdx];
  return out;
}

function readRle(input: ByteReader, kind: FixedKind, count: number): FixedArray {
  const runs = input.u32();
  const storeKind = kind === 'i64' ? 'f64' : kind;
  const runValues = input.typed(CTORS[storeKind] as unknown as typeof Float64Array, runs);
  const runLengths = input.typed(Uint32Array, runs);
  const out = newFixedArray(kind, count);
  let rowIdx = 0;
  for (let runIdx = 0; runIdx < runs; runIdx++) {
    const end = rowIdx + runLengths[runIdx];
    if (end > count) input.fail('runs exceed the page');
    if (kind === 'i64') (out as BigInt64Array).fill(BigInt(runValues[runIdx]), rowIdx, end);
    else (out as Float64Array).fill(runValues[runIdx], rowIdx, end);
    rowIdx = end;
  }
  if (rowIdx !== count) input.fail('runs do not cover the page');
  return out;
}
