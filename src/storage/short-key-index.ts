/**
 * The sparse short-key index: every SHORT_KEY_INTERVAL rows (and the last row), the values of the first
 * `numShortKeyColumns` key columns, encoded memcomparable so that byte order equals key order and the
 * entries can be binary-searched (Doris's short key index). Rows of a segment are sorted by key, NULLs
 * first (as Doris sorts them).
 *
 * Encoding per column: 0x00 for NULL, else 0x01 then: integers up to 32 bits as 4 bytes big-endian with
 * the sign bit flipped; BIGINT / LARGEINT / wide DECIMAL as 16 bytes (128-bit two's complement, sign bit
 * flipped); floats (DOUBLE, scaled DECIMAL, DATETIME) as the 8 IEEE bytes big-endian, all bits flipped for
 * negatives and the sign bit flipped otherwise; strings as their bytes with 0x00 escaped to 0x00 0xFF and a
 * 0x00 0x00 terminator. Each column's encoding is prefix-free, so "the first m columns of an entry equal a
 * bound" is "the entry starts with the bound".
 */
import type { RawValue, Vector } from '../common/column';
import { encodeUtf8 } from '../common/column';
import type { PhysicalKind } from '../common/types';
import { GaleneError } from '../common/errors';
import { ByteReader, ByteWriter } from './encoding/byte-buffer';

export const SHORT_KEY_INTERVAL = 1024;

const TWO_127 = 1n << 127n;
const MASK_128 = (1n << 128n) - 1n;
const floatView = new DataView(new ArrayBuffer(8));

/** Memcomparable bytes of one non-null value, or null when the value cannot be placed (wrong type). */
export function encodeKeyValue(value: RawValue, kind: PhysicalKind, out: number[]): boolean {
  if (value === null) {
    out.push(0);
    return true;
  }
  switch (kind) {
    case 'u8':
    case 'i8':
    case 'i16':
    case 'i32': {
      if (typeof value !== 'number' && typeof value !== 'bigint') return false;
      const num = Number(value);
      if (!Number.isInteger(num) || num < -2147483648 || num > 4294967295) return false;
      const biased = (num + 2147483648) >>> 0;
      out.push(1, biased >>> 24, (biased >>> 16) & 0xff, (biased >>> 8) & 0xff, biased & 0xff);
      return true;
    }
    case 'i64':
    case 'bigint': {
      let big: bigint;
      if (typeof value === 'bigint') big = value;
      else if (typeof value === 'number' && Number.isInteger(value)) big = BigInt(value);
      else return false;
      let biased = (big + TWO_127) & MASK_128;
      const bytes = new Array<number>(16);
      for (let byteIdx = 15; byteIdx >= 0; byteIdx--) {
        bytes[byteIdx] = Number(biased & 0xffn);
        biased >>= 8n;
      }
      out.push(1, ...bytes);
      return true;
    }
    case 'f32':
    case 'f64': {
      if (typeof value !== 'number' && typeof value !== 'bigint') return false;
      let num = Number(value);
      if (num === 0) num = 0; // -0 sorts with 0
      floatView.setFloat64(0, num);
      const negative = (floatView.getUint8(0) & 0x80) !== 0;
      out.push(1);
      for (let byteIdx = 0; byteIdx < 8; byteIdx++) {
        const byte = floatView.getUint8(byteIdx);
        out.push(negative ? ~byte & 0xff : byteIdx === 0 ? byte ^ 0x80 : byte);
      }
      return true;
    }
    case 'list':
    case 'struct':
      return false;
    case 'string': {
      if (typeof value !== 'string') return false;
      out.push(1);
      for (const byte of encodeUtf8(value)) {
        if (byte === 0) out.push(0, 0xff);
        else out.push(byte);
      }
      out.push(0, 0);
      return true;
    }
  }
}

/** The raw value of a key column's row, for encodeKeyValue (dictionary and plain strings as text). */
export function rawKeyAt(vec: Vector, rowIdx: number): RawValue {
  if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return null;
  switch (vec.kind) {
    case 'fixed':
      return vec.values[rowIdx];
    case 'object':
      return vec.values[rowIdx];
    case 'dict':
      return vec.dict[vec.codes[rowIdx]];
    case 'string':
      return Buffer.from(vec.bytes.buffer, vec.bytes.byteOffset + vec.offsets[rowIdx], vec.offsets[rowIdx + 1] - vec.offsets[rowIdx]).toString('utf8');
    case 'array':
    case 'struct':
      throw new GaleneError('INTERNAL', ['short-key index over an ARRAY, MAP or STRUCT column']);
  }
}

/** Raw short-key index page for sorted key columns. */
export function buildShortKeyIndex(keys: readonly Vector[], kinds: readonly PhysicalKind[], numRows: number): Uint8Array {
  const rows: number[] = [];
  for (let rowIdx = 0; rowIdx < numRows; rowIdx += SHORT_KEY_INTERVAL) rows.push(rowIdx);
  if (numRows > 0) rows.push(numRows - 1);
  const entries = rows.map((rowIdx) => {
    const bytes: number[] = [];
    keys.forEach((vec, colIdx) => encodeKeyValue(rawKeyAt(vec, rowIdx), kinds[colIdx], bytes));
    return Uint8Array.from(bytes);
  });
  const offsets = new Int32Array(entries.length + 1);
  entries.forEach((entry, entryIdx) => (offsets[entryIdx + 1] = offsets[entryIdx] + entry.length));
  const out = new ByteWriter(offsets[entries.length] + offsets.byteLength + 16);
  out.u32(SHORT_KEY_INTERVAL);
  out.u32(entries.length);
  out.typed(offsets);
  for (const entry of entries) out.bytes(entry);
  return out.finish();
}

/** A loaded short-key index. */
export class ShortKeyIndex {
  readonly interval: number;
  readonly numRows: number;
  private readonly offsets: Int32Array;
  private readonly bytes: Uint8Array;

  constructor(raw: Uint8Array, numRows: number, what: string) {
    const input = new ByteReader(raw, what);
    this.interval = input.u32();
    const count = input.u32();
    this.offsets = input.typed(Int32Array, count + 1);
    this.bytes = input.bytes(this.offsets[count]);
    this.numRows = numRows;
    const expected = numRows === 0 ? 0 : Math.ceil(numRows / this.interval) + 1;
    if (this.interval <= 0 || count !== expected) input.fail(`short key index has ${count} entries, expected ${expected}`);
  }

  get blockCount(): number {
    return this.offsets.length - 2;
  }

  /** entry vs bound: negative, 0 (the entry starts with the bound), positive. */
  private comparePrefix(entryIdx: number, bound: Uint8Array): number {
    const start = this.offsets[entryIdx];
    const len = this.offsets[entryIdx + 1] - start;
    const common = len < bound.length ? len : bound.length;
    for (let byteIdx = 0; byteIdx < common; byteIdx++) {
      const diff = this.bytes[start + byteIdx] - bound[byteIdx];
      if (diff !== 0) return diff;
    }
    return len >= bound.length ? 0 : -1;
  }

  /**
   * Rows [start, end) that may hold keys whose encoded prefix lies between `lower` and `upper` (either may
   * be null for unbounded; inclusive flags as in the predicate). Whole blocks of `interval` rows.
   */
  rowRange(lower: Uint8Array | null, lowerInclusive: boolean, upper: Uint8Array | null, upperInclusive: boolean): [number, number] {
    const blocks = this.blockCount;
    if (blocks <= 0) return [0, 0];
    // Block b spans keys entry[b] .. entry[b + 1].
    const belowLower = (block: number): boolean => {
      if (lower === null) return false;
      const order = this.comparePrefix(block + 1, lower);
      return lowerInclusive ? order < 0 : order <= 0;
    };
    const aboveUpper = (block: number): boolean => {
      if (upper === null) return false;
      const order = this.comparePrefix(block, upper);
      return upperInclusive ? order > 0 : order >= 0;
    };
    let lo = 0;
    let hi = blocks;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (belowLower(mid)) lo = mid + 1;
      else hi = mid;
    }
    const firstBlock = lo;
    lo = firstBlock;
    hi = blocks;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (aboveUpper(mid)) hi = mid;
      else lo = mid + 1;
    }
    const endBlock = lo;
    if (endBlock <= firstBlock) return [0, 0];
    return [firstBlock * this.interval, Math.min(this.numRows, endBlock * this.interval)];
  }
}
