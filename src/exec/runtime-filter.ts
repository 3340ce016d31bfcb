/**
 * Runtime filters (Doris's RuntimeFilter): what a hash join's finished build side says about the keys its
 * probe side can match, handed to the probe side's scan before that scan starts, so rows that cannot
 * match are dropped at the scan — by zone maps (min/max), or per row before the other columns are read
 * (IN / bloom). The planner pass (plan/runtime-filters.ts) decides which join key feeds which scan
 * column; this module is the run-time half: building a filter from the build keys and testing a column.
 *
 * A RuntimeFilterValue is plain, structured-cloneable data (typed arrays, raw values), so a scan in a
 * worker thread gets it inside its fragment spec. Every filter is a superset test: it keeps every row
 * whose key is among the build keys, and may keep others (a bloom false positive); the join still checks
 * each pair. NULL keys never match an equi-join, so NULL rows are always dropped and NULL build keys are
 * left out.
 */
import { decodeUtf8, encodeUtf8, selectRows, type Batch, type RawValue, type Vector } from '../common/column';
import type { ProfileSink } from '../common/profile';
import { compareByteArrays } from '../common/bytes';
import { murmur3x86_32 } from '../common/murmur-hash';
import type { ScanPredicate } from '../common/scan-predicate';
import { physicalKind, type DataType } from '../common/types';
import type { RuntimeFilterType } from './plan/physical-plan';

export type { RuntimeFilterType };

/** The value domain the filter tests in: JS numbers, bigints (BIGINT, LARGEINT, wide DECIMAL) or strings. */
type Domain = 'number' | 'bigint' | 'string';

/** One built filter for one probe-side scan column. */
export interface RuntimeFilterValue {
  /** RF id (EXPLAIN's RF000 is 0). */
  readonly id: number;
  readonly type: RuntimeFilterType;
  /** The stored column of the target scan it tests. */
  readonly column: string;
  readonly domain: Domain;
  /** No non-NULL build key: nothing passes. */
  readonly empty: boolean;
  /** Smallest and largest build key (min_max; null when not known, e.g. strings above the IN limit). */
  readonly min: RawValue;
  readonly max: RawValue;
  /** The distinct build keys when an IN filter was built. */
  readonly inValues: readonly RawValue[] | null;
  /** A split-block bloom filter (8 words of 32 bits per block, a power-of-two block count) otherwise. */
  readonly bloom: Uint32Array | null;
}

/** Limits of one filter, from the session variables when planned. */
export interface RuntimeFilterLimits {
  /** runtime_filter_max_in_num: more distinct keys than this make an in_or_bloom filter a bloom filter. */
  readonly maxInNum: number;
  /** runtime_bloom_filter_max_size: the bloom filter's most bytes. */
  readonly bloomMaxBytes: number;
}

function domainOf(type: DataType): Domain {
  const kind = physicalKind(type);
  return kind === 'string' ? 'string' : kind === 'i64' || kind === 'bigint' ? 'bigint' : 'number';
}

// ---- hashing (the same for build and probe, per domain) -------------------------------------------

const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer);

function mix32(lo: number, hi: number): number {
  let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0xcc9e2d51);
  h ^= h >>> 15;
  h = Math.imul(h, 0x1b873593) ^ hi;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function hashNumber(value: number): number {
  f64[0] = value === 0 ? 0 : value; // -0 equals 0
  return mix32(f64Words[0], f64Words[1]);
}

/** The hash of a 64-bit integer by its two 32-bit words: the same for a bigint and a BigInt64Array element. */
function hashWords(lo: number, hi: number): number {
  return mix32(lo >>> 0, hi >>> 0);
}

function hashBigint(value: bigint): number {
  const lo = Number(BigInt.asUintN(32, value));
  const hi = Number(BigInt.asUintN(32, value >> 32n));
  // LARGEINT beyond 64 bits: fold the rest in (such values never sit in a BigInt64Array).
  return BigInt.asIntN(64, value) === value ? hashWords(lo, hi) : hashWords(lo, hi ^ Number(BigInt.asUintN(32, value >> 64n)) ^ 0x5bd1e995);
}

const STRING_SEED = 0x2d358dcc;

// ---- split-block bloom filter (Parquet's SBBF layout) ---------------------------------------------

const SALTS = new Uint32Array([0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31]);

/** The second hash that picks the 8 bits inside a block (the first picks the block). */
function bitHash(hash: number): number {
  let h = Math.imul(hash ^ (hash >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

function bloomInsert(bloom: Uint32Array, hash: number): void {
  const base = (hash & ((bloom.length >>> 3) - 1)) << 3;
  const bits = bitHash(hash);
  for (let word = 0; word < 8; word++) bloom[base + word] |= 1 << (Math.imul(bits, SALTS[word]) >>> 27);
}

function bloomHas(bloom: Uint32Array, hash: number): boolean {
  const base = (hash & ((bloom.length >>> 3) - 1)) << 3;
  const bits = bitHash(hash);
  for (let word = 0; word < 8; word++) if ((bloom[base + word] & (1 << (Math.imul(bits, SALTS[word]) >>> 27))) === 0) return false;
  return true;
}

/** 2 bytes per key (about 0.1% false positives with 8 bits set per key), a power of two, 1 KiB .. max. */
function bloomWords(keyCount: number, maxBytes: number): number {
  let bytes = 1024;
  while (bytes < keyCount * 2 && bytes * 2 <= maxBytes) bytes *= 2;
  return bytes >>> 2;
}

// ---- reading a key vector -------------------------------------------------------------------------

/** Calls `visit(row)` for each non-NULL row, with the value in the filter's domain. */
function forEachKey(vec: Vector, rowCount: number, domain: Domain, visit: (value: number | bigint | string) => void): void {
  const nulls = vec.nulls;
  switch (vec.kind) {
    case 'fixed': {
      const values = vec.values;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx] === 1) continue;
        const value = values[rowIdx];
        visit(domain === 'bigint' ? BigInt(value) : typeof value === 'bigint' ? Number(value) : value === 0 ? 0 : value);
      }
      return;
    }
    case 'object':
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (nulls === null || nulls[rowIdx] !== 1) visit(domain === 'bigint' ? vec.values[rowIdx] : Number(vec.values[rowIdx]));
      return;
    case 'dict':
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (nulls === null || nulls[rowIdx] !== 1) visit(vec.dict[vec.codes[rowIdx]]);
      return;
    case 'string':
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (nulls === null || nulls[rowIdx] !== 1) visit(decodeUtf8(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]));
      return;
    case 'array':
      return;
  }
}

function hashOf(value: number | bigint | string): number {
  if (typeof value === 'number') return hashNumber(value);
  if (typeof value === 'bigint') return hashBigint(value);
  const bytes = encodeUtf8(value);
  return murmur3x86_32(bytes, 0, bytes.length, STRING_SEED);
}

/**
 * The filter of `type` over the build side's key column `keys` (`rowCount` rows), for scan column `column`
 * of type `columnType` (the key's type: the planner only pairs keys and columns of one type).
 */
export function buildRuntimeFilter(id: number, type: RuntimeFilterType, column: string, columnType: DataType, keys: Vector | undefined, rowCount: number, limits: RuntimeFilterLimits): RuntimeFilterValue {
  const domain = domainOf(columnType);
  const distinct = new Set<number | bigint | string>();
  let min: number | bigint | string | null = null;
  let max: number | bigint | string | null = null;
  const wantsIn = type === 'in' || type === 'in_or_bloom';
  const maxIn = type === 'in' ? Number.POSITIVE_INFINITY : limits.maxInNum;
  let overflow = false;
  const int64 = keys !== undefined && keys.kind === 'fixed' && keys.values instanceof BigInt64Array ? int64Keys(keys.values, keys.nulls, rowCount, wantsIn ? maxIn : -1) : null;
  if (int64 !== null) {
    ({ min, max } = int64);
    if (int64.distinct === null) overflow = true;
    else for (const value of int64.distinct) distinct.add(value);
  } else if (keys !== undefined) {
    forEachKey(keys, rowCount, domain, (value) => {
      if (domain !== 'string') {
        if (min === null || value < min) min = value;
        if (max === null || value > max) max = value;
      }
      if (wantsIn && !overflow) {
        distinct.add(value);
        if (distinct.size > maxIn) overflow = true;
      }
    });
  }
  const empty = keys === undefined || !anyNonNull(keys, rowCount);
  if (domain === 'string' && wantsIn && !overflow && distinct.size > 0) {
    // Zone maps order strings by their UTF-8 bytes, so min/max are taken in that order.
    const encoded = [...distinct].map((value) => ({ value, bytes: encodeUtf8(value as string) }));
    encoded.sort((a, b) => compareByteArrays(a.bytes, b.bytes));
    min = encoded[0].value;
    max = encoded[encoded.length - 1].value;
  }
  const base = { id, type, column, domain, empty, min: type === 'in' || type === 'bloom' ? null : min, max: type === 'in' || type === 'bloom' ? null : max };
  if (empty || type === 'min_max') return { ...base, inValues: null, bloom: null };
  if (wantsIn && !overflow) return { ...base, inValues: [...distinct] as RawValue[], bloom: null };
  // Shared memory: every scan task's fragment spec carries the filter, and a structured clone of a view on
  // a SharedArrayBuffer shares the bytes instead of copying them per task.
  const bloom = new Uint32Array(new SharedArrayBuffer(bloomWords(rowCount, limits.bloomMaxBytes) * 4));
  if (int64 !== null) {
    const values = (keys as { values: BigInt64Array }).values;
    const words = new Int32Array(values.buffer, values.byteOffset, rowCount * 2);
    const nulls = keys!.nulls;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (nulls === null || nulls[rowIdx] !== 1) bloomInsert(bloom, hashWords(words[2 * rowIdx], words[2 * rowIdx + 1]));
  } else if (keys !== undefined) {
    forEachKey(keys, rowCount, domain, (value) => bloomInsert(bloom, hashOf(value)));
  }
  return { ...base, inValues: null, bloom };
}

/**
 * Min, max and (up to `maxDistinct`; null past it, none when -1) the distinct values of BIGINT keys, read
 * as 32-bit words — compared exactly as (high signed, low unsigned) — so that no BigInt is made per row
 * once the distinct set overflowed.
 */
function int64Keys(values: BigInt64Array, nulls: Uint8Array | null, rowCount: number, maxDistinct: number): { min: bigint | null; max: bigint | null; distinct: Set<bigint> | null } {
  const words = new Int32Array(values.buffer, values.byteOffset, rowCount * 2);
  let minIdx = -1;
  let maxIdx = -1;
  let distinct: Set<bigint> | null = maxDistinct >= 0 ? new Set() : null;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (nulls !== null && nulls[rowIdx] === 1) continue;
    const low = words[2 * rowIdx] >>> 0;
    const hi = words[2 * rowIdx + 1];
    if (minIdx < 0 || hi < words[2 * minIdx + 1] || (hi === words[2 * minIdx + 1] && low < words[2 * minIdx] >>> 0)) minIdx = rowIdx;
    if (maxIdx < 0 || hi > words[2 * maxIdx + 1] || (hi === words[2 * maxIdx + 1] && low > words[2 * maxIdx] >>> 0)) maxIdx = rowIdx;
    if (distinct !== null) {
      distinct.add(values[rowIdx]);
      if (distinct.size > maxDistinct) distinct = null;
    }
  }
  const overflowed = maxDistinct >= 0 && distinct === null;
  return { min: minIdx < 0 ? null : values[minIdx], max: maxIdx < 0 ? null : values[maxIdx], distinct: overflowed ? null : (distinct ?? new Set()) };
}

function anyNonNull(vec: Vector, rowCount: number): boolean {
  if (vec.nulls === null) return rowCount > 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (vec.nulls[rowIdx] !== 1) return true;
  return false;
}

/** Doris's name of what was built, for the profile: in, bloomfilter, minmax (or empty). */
export function realFilterType(filter: RuntimeFilterValue): string {
  if (filter.empty) return 'empty';
  if (filter.inValues !== null) return 'in';
  if (filter.bloom !== null) return 'bloomfilter';
  return 'minmax';
}

/**
 * Pruning predicates storage can use for the filter (zone maps of segments and pages, tablet pruning):
 * `column >= min AND column <= max`, and `column IN (...)` for an IN filter. Must-hold predicates: every
 * row the join can match satisfies them.
 */
export function runtimeFilterPredicates(filter: RuntimeFilterValue): ScanPredicate[] {
  if (filter.empty) return []; // the row test drops every row
  const preds: ScanPredicate[] = [];
  if (filter.min !== null && filter.max !== null) preds.push({ column: filter.column, op: '>=', value: filter.min }, { column: filter.column, op: '<=', value: filter.max });
  if (filter.inValues !== null && filter.inValues.length <= 64) preds.push({ column: filter.column, op: 'in', values: filter.inValues });
  return preds;
}

/**
 * Marks in `keep` (1 = keep, one byte per row) the rows of `vec` that fail the filter (sets them to 0):
 * NULLs, values outside [min, max], values not in the IN set or not in the bloom filter.
 */
export function applyRuntimeFilter(filter: RuntimeFilterValue, vec: Vector, rowCount: number, keep: Uint8Array): void {
  if (filter.empty) {
    keep.fill(0, 0, rowCount);
    return;
  }
  const nulls = vec.nulls;
  if (nulls !== null) for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (nulls[rowIdx] === 1) keep[rowIdx] = 0;
  const test = valueTest(filter);
  switch (vec.kind) {
    case 'fixed': {
      const values = vec.values;
      if (values instanceof BigInt64Array) {
        applyToInt64Words(filter, values, rowCount, keep);
        return;
      }
      if (filter.domain === 'number') {
        const numberTest = test as (value: number) => boolean;
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (keep[rowIdx] === 1 && !numberTest(values[rowIdx] as number)) keep[rowIdx] = 0;
      } else {
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
          if (keep[rowIdx] !== 1) continue;
          const raw = values[rowIdx];
          if (!test(filter.domain === 'bigint' ? BigInt(raw) : Number(raw))) keep[rowIdx] = 0;
        }
      }
      return;
    }
    case 'object':
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (keep[rowIdx] === 1 && !test(filter.domain === 'bigint' ? vec.values[rowIdx] : Number(vec.values[rowIdx]))) keep[rowIdx] = 0;
      return;
    case 'dict': {
      // One test per dictionary entry, then a lookup per row.
      const entryPasses = new Uint8Array(vec.dict.length);
      for (let entry = 0; entry < vec.dict.length; entry++) entryPasses[entry] = test(vec.dict[entry]) ? 1 : 0;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (keep[rowIdx] === 1 && entryPasses[vec.codes[rowIdx]] === 0) keep[rowIdx] = 0;
      return;
    }
    case 'string': {
      const { offsets, bytes } = vec;
      if (filter.bloom !== null) {
        const bloom = filter.bloom;
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (keep[rowIdx] === 1 && !bloomHas(bloom, murmur3x86_32(bytes, offsets[rowIdx], offsets[rowIdx + 1], STRING_SEED))) keep[rowIdx] = 0;
        return;
      }
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (keep[rowIdx] === 1 && !test(decodeUtf8(bytes, offsets[rowIdx], offsets[rowIdx + 1]))) keep[rowIdx] = 0;
      return;
    }
    case 'array':
      return;
  }
}

function inRange(value: number | bigint, min: number | bigint, max: number | bigint): boolean {
  return value >= min && value <= max;
}

/**
 * BIGINT rows read as their two 32-bit words, without a BigInt per row: the bloom filter hashes the words
 * (hashWords, as the build hashed the bigints); min/max and IN compare `hi * 2^32 + lo` as a double, which
 * rounds monotonically — so a matching key always passes (two keys beyond 2^53 may share a double: the IN
 * test then checks the exact BigInt, the range test keeps the row, which the join drops).
 */
function applyToInt64Words(filter: RuntimeFilterValue, values: BigInt64Array, rowCount: number, keep: Uint8Array): void {
  const words = new Int32Array(values.buffer, values.byteOffset, rowCount * 2);
  const hasRange = filter.min !== null && filter.max !== null;
  const lo = hasRange ? Number(filter.min) : 0;
  const hi = hasRange ? Number(filter.max) : 0;
  const set = filter.inValues === null ? null : new Set(filter.inValues.map((value) => Number(value)));
  const exact = filter.inValues === null ? null : new Set(filter.inValues);
  const bloom = filter.bloom;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (keep[rowIdx] !== 1) continue;
    const low = words[2 * rowIdx];
    const high = words[2 * rowIdx + 1];
    const value = high * 4294967296 + (low >>> 0);
    if ((hasRange && (value < lo || value > hi)) || (set !== null && (!set.has(value) || (Math.abs(value) > Number.MAX_SAFE_INTEGER && !exact!.has(values[rowIdx])))) || (bloom !== null && !bloomHas(bloom, hashWords(low, high)))) keep[rowIdx] = 0;
  }
}

/** The per-value test of a filter in its domain. */
function valueTest(filter: RuntimeFilterValue): (value: number | bigint | string) => boolean {
  const { min, max } = filter;
  const hasRange = min !== null && max !== null && filter.domain !== 'string';
  if (filter.inValues !== null) {
    const set = new Set<unknown>(filter.inValues);
    return (value) => set.has(typeof value === 'number' && value === 0 ? 0 : value);
  }
  if (filter.bloom !== null) {
    const bloom = filter.bloom;
    if (filter.domain === 'number' && hasRange) {
      const lo = min as number;
      const hi = max as number;
      return (value) => (value as number) >= lo && (value as number) <= hi && bloomHas(bloom, hashNumber(value as number));
    }
    return (value) => (!hasRange || inRange(value as number | bigint, min as number | bigint, max as number | bigint)) && bloomHas(bloom, hashOf(value));
  }
  if (hasRange) return (value) => inRange(value as number | bigint, min as number | bigint, max as number | bigint);
  return () => true;
}

/** The row ids (ascending) whose `keep` byte is 1, and their count. */
export function keptRows(keep: Uint8Array, rowCount: number): { rowIds: Int32Array; count: number } {
  const rowIds = new Int32Array(rowCount);
  let count = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    rowIds[count] = rowIdx;
    count += keep[rowIdx];
  }
  return { rowIds, count };
}

/** Profile counter names (Doris's RuntimeFilterInfo): per scan and per filter. */
export function runtimeFilterCounter(scanId: number, metric: 'RowsFilteredByRuntimeFilter' | 'RuntimeFilterInputRows' | 'RuntimeFilterUntestedRows' | 'FilterTimeMs'): string {
  return `TableScan#${scanId}.RuntimeFilterInfo.${metric}`;
}

/** EXPLAIN's name of a filter: RF000. */
export function runtimeFilterName(id: number): string {
  return `RF${String(id).padStart(3, '0')}`;
}

/**
 * Rows tested before a scan may judge its filters weak, and the share they must drop to stay: a filter
 * that drops under a tenth of the first rows (a build side holding most keys) costs more than it saves,
 * and is no longer tested on that scan's (or scan task's) remaining rows. Rows left untested count as
 * RuntimeFilterUntestedRows.
 */
export const RUNTIME_FILTER_SAMPLE_ROWS = 4096;
export const RUNTIME_FILTER_MIN_DROPPED = 0.1;

/** Whether filters that dropped `dropped` of `tested` rows are worth testing further. */
export function worthTesting(tested: number, dropped: number): boolean {
  return tested < RUNTIME_FILTER_SAMPLE_ROWS || dropped >= tested * RUNTIME_FILTER_MIN_DROPPED;
}

/** A scan's running totals, so an in-thread scan stops testing weak filters (see worthTesting). */
export interface RuntimeFilterTally {
  tested: number;
  dropped: number;
}

/**
 * The rows of `batch` (whose column `columnIdx[k]` is filter k's column) every filter keeps: the same
 * batch when all are kept, or once `tally` shows the filters weak. Counts the rows tested and dropped on
 * scan `scanId`.
 */
export function filterBatch(batch: Batch, filters: readonly RuntimeFilterValue[], columnIdx: readonly number[], scanId: number, profile: ProfileSink, tally: RuntimeFilterTally): Batch {
  if (filters.length === 0 || batch.length === 0) return batch;
  if (!worthTesting(tally.tested, tally.dropped)) {
    profile.add(runtimeFilterCounter(scanId, 'RuntimeFilterUntestedRows'), batch.length);
    return batch;
  }
  const keep = new Uint8Array(batch.length).fill(1);
  filters.forEach((filter, filterIdx) => applyRuntimeFilter(filter, batch.columns[columnIdx[filterIdx]], batch.length, keep));
  const { rowIds, count } = keptRows(keep, batch.length);
  profile.add(runtimeFilterCounter(scanId, 'RuntimeFilterInputRows'), batch.length);
  profile.add(runtimeFilterCounter(scanId, 'RowsFilteredByRuntimeFilter'), batch.length - count);
  tally.tested += batch.length;
  tally.dropped += batch.length - count;
  return count === batch.length ? batch : selectRows(batch, rowIds, count);
}
