/**
 * Per-page zone maps: min, max, null count, all-null flag of each data page, and the test "may this page
 * hold a row matching a ScanPredicate?". Pruning only ever skips pages that cannot match; anything
 * uncertain (NaN in a float page, a predicate value of another type, an unbounded string max) keeps the
 * page, and the Filter operator re-checks every returned row.
 *
 * Bounds live in their comparison domain: number for fixed kinds, bigint for BIGINT / LARGEINT / wide
 * DECIMAL, UTF-8 bytes for strings (truncated to ZONE_STRING_BYTES: the min to a prefix, the max to a
 * prefix with its last byte incremented, so both stay bounds).
 */
import type { RawValue, Vector } from '../common/column';
import { compareByteArrays, compareBytes } from '../common/bytes';
import { countNulls, encodeUtf8 } from '../common/column';
import type { PhysicalKind } from '../common/types';
import type { ScanPredicate } from '../common/scan-predicate';

export const ZONE_STRING_BYTES = 64;

export type ZoneBound = number | bigint | Uint8Array;

export interface ZoneStats {
  readonly nullCount: number;
  readonly rowCount: number;
  /** null when the page has no usable bound (all NULL, NaN present, or unbounded string max). */
  readonly min: ZoneBound | null;
  readonly max: ZoneBound | null;
}

/** Smallest byte string >= every string having `bytes` as a prefix... truncated; null when none exists. */
function truncateMax(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length <= ZONE_STRING_BYTES) return bytes.slice();
  const out = bytes.slice(0, ZONE_STRING_BYTES);
  for (let byteIdx = out.length - 1; byteIdx >= 0; byteIdx--) {
    if (out[byteIdx] !== 0xff) {
      out[byteIdx]++;
      return out.slice(0, byteIdx + 1);
    }
  }
  return null;
}

/** Zone statistics of rows [start, end) of a vector. */
export function computeZoneStats(vec: Vector, kind: PhysicalKind, start: number, end: number): ZoneStats {
  const nulls = vec.nulls;
  const nullCount = countNulls(nulls, start, end);
  const rowCount = end - start;
  if (nullCount === rowCount) return { nullCount, rowCount, min: null, max: null };
  const valid = (rowIdx: number): boolean => nulls === null || nulls[rowIdx] === 0;
  switch (vec.kind) {
    case 'fixed': {
      if (kind === 'i64') {
        const words = new Int32Array(vec.values.buffer, vec.values.byteOffset, vec.values.length * 2);
        let minIdx = -1;
        let maxIdx = -1;
        for (let rowIdx = start; rowIdx < end; rowIdx++) {
          if (!valid(rowIdx)) continue;
          const hi = words[rowIdx * 2 + 1];
          const lo = words[rowIdx * 2] >>> 0;
          if (minIdx < 0) {
            minIdx = maxIdx = rowIdx;
            continue;
          }
          const minHi = words[minIdx * 2 + 1];
          if (hi < minHi || (hi === minHi && lo < words[minIdx * 2] >>> 0)) minIdx = rowIdx;
          const maxHi = words[maxIdx * 2 + 1];
          if (hi > maxHi || (hi === maxHi && lo > words[maxIdx * 2] >>> 0)) maxIdx = rowIdx;
        }
        const values = vec.values as BigInt64Array;
        return { nullCount, rowCount, min: values[minIdx], max: values[maxIdx] };
      }
      const values = vec.values as Float64Array;
      let min = Infinity;
      let max = -Infinity;
      let sawNaN = false;
      for (let rowIdx = start; rowIdx < end; rowIdx++) {
        if (!valid(rowIdx)) continue;
        const value = values[rowIdx];
        if (value < min) min = value;
        if (value > max) max = value;
        if (value !== value) sawNaN = true;
      }
      if (sawNaN) return { nullCount, rowCount, min: null, max: null };
      return { nullCount, rowCount, min, max };
    }
    case 'object': {
      let min: bigint | null = null;
      let max: bigint | null = null;
      for (let rowIdx = start; rowIdx < end; rowIdx++) {
        if (!valid(rowIdx)) continue;
        const value = vec.values[rowIdx];
        if (min === null || value < min) min = value;
        if (max === null || value > max) max = value;
      }
      return { nullCount, rowCount, min, max };
    }
    case 'dict': {
      // Codes of a sorted segment dictionary: code order is value order.
      let minCode = Infinity;
      let maxCode = -Infinity;
      for (let rowIdx = start; rowIdx < end; rowIdx++) {
        if (!valid(rowIdx)) continue;
        const code = vec.codes[rowIdx];
        if (code < minCode) minCode = code;
        if (code > maxCode) maxCode = code;
      }
      const minBytes = encodeUtf8(vec.dict[minCode]);
      return { nullCount, rowCount, min: minBytes.slice(0, ZONE_STRING_BYTES), max: truncateMax(encodeUtf8(vec.dict[maxCode])) };
    }
    case 'string': {
      const { offsets, bytes } = vec;
      let minIdx = -1;
      let maxIdx = -1;
      for (let rowIdx = start; rowIdx < end; rowIdx++) {
        if (!valid(rowIdx)) continue;
        if (minIdx < 0) {
          minIdx = maxIdx = rowIdx;
          continue;
        }
        if (compareBytes(bytes, offsets[rowIdx], offsets[rowIdx + 1], bytes, offsets[minIdx], offsets[minIdx + 1]) < 0) minIdx = rowIdx;
        if (compareBytes(bytes, offsets[rowIdx], offsets[rowIdx + 1], bytes, offsets[maxIdx], offsets[maxIdx + 1]) > 0) maxIdx = rowIdx;
      }
      const minBytes = bytes.slice(offsets[minIdx], Math.min(offsets[minIdx + 1], offsets[minIdx] + ZONE_STRING_BYTES));
      return { nullCount, rowCount, min: minBytes, max: truncateMax(bytes.subarray(offsets[maxIdx], offsets[maxIdx + 1])) };
    }
    case 'array':
    case 'struct':
      // No zone map for arrays, maps or structs (as Doris): only the null count prunes.
      return { nullCount, rowCount, min: null, max: null };
  }
}

/** JSON form of a bound (see ColumnIndex serialisation in segment-writer.ts). */
export function boundToJson(bound: ZoneBound | null): string | null {
  if (bound === null) return null;
  if (bound instanceof Uint8Array) return Buffer.from(bound.buffer, bound.byteOffset, bound.byteLength).toString('base64');
  return String(bound);
}

export function boundFromJson(text: string | null, kind: PhysicalKind): ZoneBound | null {
  if (text === null) return null;
  if (kind === 'string') return new Uint8Array(Buffer.from(text, 'base64'));
  if (kind === 'i64' || kind === 'bigint') return BigInt(text);
  return Number(text);
}

/** The predicate value in a page's bound domain, or undefined when it cannot be compared there. */
function toDomain(value: RawValue, kind: PhysicalKind): ZoneBound | null | undefined {
  if (value === null) return null;
  if (kind === 'string') return typeof value === 'string' ? encodeUtf8(value) : undefined;
  if (kind === 'i64' || kind === 'bigint') {
    if (typeof value === 'bigint') return value;
    if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
    return undefined;
  }
  if (typeof value === 'string') return undefined;
  const num = Number(value);
  return num === num ? num : undefined;
}

function cmp(a: ZoneBound, b: ZoneBound): number {
  if (a instanceof Uint8Array) return compareByteArrays(a, b as Uint8Array);
  const x = a as number;
  const y = b as number;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Could a page with these statistics hold a row matching `pred`? (false only when it certainly cannot) */
export function zoneMayMatch(stats: ZoneStats, pred: ScanPredicate, kind: PhysicalKind): boolean {
  if (pred.op === 'isnull') return stats.nullCount > 0;
  if (pred.op === 'isnotnull') return stats.nullCount < stats.rowCount;
  if (stats.nullCount === stats.rowCount) return false;
  const values = pred.op === 'in' ? pred.values : [(pred as { readonly value: RawValue }).value];
  for (const raw of values) {
    const value = toDomain(raw, kind);
    if (value === null) continue; // comparing with NULL matches nothing
    if (value === undefined) return true;
    const { min, max } = stats;
    switch (pred.op) {
      case '=':
      case 'in':
        if ((min === null || cmp(min, value) <= 0) && (max === null || cmp(max, value) >= 0)) return true;
        break;
      case '<':
        if (min === null || cmp(min, value) < 0) return true;
        break;
      case '<=':
        if (min === null || cmp(min, value) <= 0) return true;
        break;
      case '>':
        if (max === null || cmp(max, value) > 0) return true;
        break;
      case '>=':
        if (max === null || cmp(max, value) >= 0) return true;
        break;
    }
  }
  return false;
}
