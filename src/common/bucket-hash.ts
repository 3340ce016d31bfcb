/**
 * Which bucket (tablet) a row belongs to: a hash of its DISTRIBUTED BY columns modulo the bucket count.
 * The hash is a pure function of the values (never of their position or of the process), so it is stable
 * across restarts and identical for INSERT, Stream Load and compaction.
 */
import { getRaw, type Vector } from './column';
import { formatValue } from './convert';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** A 32-bit finalizer (murmur3's fmix32): spreads every input bit over the output. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashUtf8(bytes: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let byteIdx = start; byteIdx < end; byteIdx++) h = Math.imul(h ^ bytes[byteIdx], FNV_PRIME);
  return mix32(h);
}

const encoder = new TextEncoder();

/** Hash of every row of one column, combined into `out` (out = out * 31 + hash). NULL hashes to 0. */
function combineColumnHash(vec: Vector, out: Uint32Array): void {
  const nulls = vec.nulls;
  const length = vec.length;
  let rowHash: (rowIdx: number) => number;
  switch (vec.kind) {
    case 'fixed': {
      const values = vec.values;
      if (values instanceof BigInt64Array) {
        const halves = new Int32Array(values.buffer, values.byteOffset, length * 2);
        rowHash = (rowIdx) => mix32(halves[rowIdx * 2] ^ mix32(halves[rowIdx * 2 + 1]));
      } else if (values instanceof Float64Array || values instanceof Float32Array) {
        rowHash = (rowIdx) => {
          const value = values[rowIdx];
          const low = value % 4294967296 | 0;
          const high = Math.floor(value / 4294967296) | 0;
          return Number.isInteger(value) ? mix32(low ^ mix32(high)) : hashUtf8(encoder.encode(String(value)), 0, String(value).length);
        };
      } else {
        const ints = values as Int32Array;
        rowHash = (rowIdx) => mix32(ints[rowIdx]);
      }
      break;
    }
    case 'string': {
      const { offsets, bytes } = vec;
      rowHash = (rowIdx) => hashUtf8(bytes, offsets[rowIdx], offsets[rowIdx + 1]);
      break;
    }
    case 'dict': {
      const dictHashes = vec.dict.map((text) => {
        const encoded = encoder.encode(text);
        return hashUtf8(encoded, 0, encoded.length);
      });
      const codes = vec.codes;
      rowHash = (rowIdx) => dictHashes[codes[rowIdx]];
      break;
    }
    case 'object': {
      const values = vec.values;
      rowHash = (rowIdx) => {
        const encoded = encoder.encode(values[rowIdx].toString());
        return hashUtf8(encoded, 0, encoded.length);
      };
      break;
    }
    case 'array':
    case 'struct':
      // Never a distribution column (Doris rejects it); hashed by its text for completeness.
      rowHash = (rowIdx) => {
        const encoded = encoder.encode(formatValue(vec.type, getRaw(vec, rowIdx)) ?? '');
        return hashUtf8(encoded, 0, encoded.length);
      };
      break;
  }
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    const hash = nulls !== null && nulls[rowIdx] === 1 ? 0 : rowHash(rowIdx);
    out[rowIdx] = (Math.imul(out[rowIdx], 31) + hash) >>> 0;
  }
}

/** A 32-bit hash of every row of one column (NULL hashes to 0): approximate distinct counting hashes these. */
export function hashColumn(vec: Vector): Uint32Array {
  const out = new Uint32Array(vec.length);
  combineColumnHash(vec, out);
  return out;
}

/**
 * Bucket number of every row. With no distribution columns (DISTRIBUTED BY RANDOM) rows go round-robin
 * from `randomStart`, so one load spreads over the buckets.
 */
export function computeBuckets(columns: readonly Vector[], length: number, buckets: number, randomStart = 0): Int32Array {
  const out = new Int32Array(length);
  if (buckets <= 1) return out;
  if (columns.length === 0) {
    for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = (randomStart + rowIdx) % buckets;
    return out;
  }
  const hashes = new Uint32Array(length);
  for (const column of columns) combineColumnHash(column, hashes);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = hashes[rowIdx] % buckets;
  return out;
}
