/**
 * Partitions of a partitioned table (Doris's RANGE / LIST partitions): which partition a row belongs to
 * (loads route with it), which partitions a scan's pushed predicates can match (partition pruning, read
 * by the scan and by EXPLAIN so both agree), and which tablet of its partition a row goes to. Pure
 * functions of the schema (meta/schema.ts PartitionInfo), the tablets and the values.
 *
 * Bounds are kept as text in the schema; they are parsed once per PartitionInfo object (the schema is
 * replaced, never mutated, on every change) into raw values of the partition columns' types.
 */
import { getRaw, type RawValue, type Vector } from '../common/column';
import { computeBuckets } from '../common/bucket-hash';
import { formatValue, parseValue } from '../common/convert';
import { GaleneError } from '../common/errors';
import { compareRawValues } from '../common/row-order';
import type { ScanPredicate } from '../common/scan-predicate';
import type { DataType } from '../common/types';
import type { TableState } from '../meta/catalog';
import type { TabletRecord } from '../meta/meta-store';
import { findColumn, partitionInfoOf, type PartitionBoundValue, type PartitionInfo, type TableSchema } from '../meta/schema';

/** A bound element parsed: a raw value, or -Infinity / +Infinity standing for MINVALUE / MAXVALUE. */
export type KeyValue = RawValue | typeof MIN | typeof MAX;
const MIN = Symbol('MINVALUE');
const MAX = Symbol('MAXVALUE');

interface CompiledPartitions {
  readonly info: PartitionInfo;
  readonly types: readonly DataType[];
  /** RANGE: partition indexes ordered by lower bound, with their parsed bounds. */
  readonly ranges: readonly { readonly idx: number; readonly lower: readonly KeyValue[]; readonly upper: readonly KeyValue[] }[];
  /** LIST: key text (listKey) -> partition index. */
  readonly lists: ReadonlyMap<string, number>;
}

const compiled = new WeakMap<PartitionInfo, CompiledPartitions>();

/** The partition columns' types, in partition-column order. */
export function partitionColumnTypes(schema: TableSchema, info: PartitionInfo): DataType[] {
  return info.columns.map((name) => {
    const column = findColumn(schema, name);
    if (column === undefined) throw new GaleneError('INTERNAL', [`partition column ${name} of ${schema.name} is missing`]);
    return column.type;
  });
}

/** Parse one bound element of a column of `type`. */
export function parseBoundValue(type: DataType, value: PartitionBoundValue): KeyValue {
  if (typeof value !== 'string') return value.infinity === 'min' ? MIN : MAX;
  const parsed = parseValue(type, value);
  if (parsed.failure !== null) throw new GaleneError('INTERNAL', [`partition bound ${value} is not a ${type.name}`]);
  return parsed.value;
}

function compile(schema: TableSchema, info: PartitionInfo): CompiledPartitions {
  let out = compiled.get(info);
  if (out !== undefined) return out;
  const types = partitionColumnTypes(schema, info);
  const ranges: { idx: number; lower: KeyValue[]; upper: KeyValue[] }[] = [];
  const lists = new Map<string, number>();
  info.partitions.forEach((partition, idx) => {
    if (info.type === 'RANGE') {
      ranges.push({ idx, lower: (partition.lower ?? []).map((value, colIdx) => parseBoundValue(types[colIdx], value)), upper: (partition.upper ?? []).map((value, colIdx) => parseBoundValue(types[colIdx], value)) });
    } else {
      for (const tuple of partition.values ?? []) lists.set(listKey(tuple.map((text, colIdx) => (text === null ? null : parseBoundValue(types[colIdx], text) as RawValue)), types), idx);
    }
  });
  ranges.sort((a, b) => compareKeys(a.lower, b.lower));
  out = { info, types, ranges, lists };
  compiled.set(info, out);
  return out;
}

/** Compare one key element: MINVALUE < NULL = (NULL sorts with the smallest) < values < MAXVALUE. */
function compareKeyValue(a: KeyValue, b: KeyValue): number {
  if (a === b) return 0;
  if (a === MIN) return -1;
  if (b === MIN) return 1;
  if (a === MAX) return 1;
  if (b === MAX) return -1;
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  return compareRawValues(a, b);
}

/** Lexicographic comparison of two keys (Doris's PartitionKey compareTo); a missing element is MINVALUE. */
export function compareKeys(a: readonly KeyValue[], b: readonly KeyValue[]): number {
  const length = Math.max(a.length, b.length);
  for (let colIdx = 0; colIdx < length; colIdx++) {
    const order = compareKeyValue(a[colIdx] ?? MIN, b[colIdx] ?? MIN);
    if (order !== 0) return order;
  }
  return 0;
}

/** The canonical text of a list key (one tuple of raw values). */
function listKey(values: readonly RawValue[], types: readonly DataType[]): string {
  return values.length === 1 ? (values[0] === null ? '\u0000' : `=${formatValue(types[0], values[0])}`) : JSON.stringify(values.map((value, colIdx) => formatValue(types[colIdx], value)));
}

/** Indexes of info.partitions in the order Doris lists them: RANGE partitions by range, LIST ones as created. */
export function partitionDisplayOrder(schema: TableSchema, info: PartitionInfo): number[] {
  return info.type === 'RANGE' ? compile(schema, info).ranges.map((range) => range.idx) : info.partitions.map((_, idx) => idx);
}

/** Index (in info.partitions) of the partition holding `key` (raw values of the partition columns), or -1. */
export function partitionOfKey(schema: TableSchema, info: PartitionInfo, key: readonly RawValue[]): number {
  const parts = compile(schema, info);
  if (info.type === 'LIST') return parts.lists.get(listKey(key, parts.types)) ?? -1;
  // The last range starting at or before the key, if the key is below its upper bound.
  let lo = 0;
  let hi = parts.ranges.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (compareKeys(parts.ranges[mid].lower, key) <= 0) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return -1;
  const range = parts.ranges[found];
  return compareKeys(key, range.upper) < 0 ? range.idx : -1;
}

/**
 * The partition index of every row (-1: no partition holds it), from the partition columns' vectors
 * (`columnOf(name)`). A single-column partitioning reads one value per row without building a tuple.
 */
export function partitionOfRows(schema: TableSchema, info: PartitionInfo, columnOf: (name: string) => Vector, length: number): Int32Array {
  const vectors = info.columns.map(columnOf);
  const out = new Int32Array(length);
  const key: RawValue[] = new Array<RawValue>(vectors.length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    for (let colIdx = 0; colIdx < vectors.length; colIdx++) key[colIdx] = getRaw(vectors[colIdx], rowIdx);
    out[rowIdx] = partitionOfKey(schema, info, key);
  }
  return out;
}

/** The tablets of each partition (by index in info.partitions), each list in bucket order: positions in `tablets`. */
const layouts = new WeakMap<readonly TabletRecord[], Map<PartitionInfo, Int32Array[]>>();

export function partitionTablets(info: PartitionInfo, tablets: readonly TabletRecord[]): Int32Array[] {
  let byInfo = layouts.get(tablets);
  if (byInfo === undefined) {
    byInfo = new Map();
    layouts.set(tablets, byInfo);
  }
  let layout = byInfo.get(info);
  if (layout === undefined) {
    const slot = new Map(info.partitions.map((partition, idx) => [partition.id, idx]));
    layout = info.partitions.map((partition) => new Int32Array(partition.buckets).fill(-1));
    tablets.forEach((tablet, position) => {
      const idx = slot.get(tablet.partitionId ?? 0);
      if (idx !== undefined && tablet.bucket < layout![idx].length) layout![idx][tablet.bucket] = position;
    });
    byInfo.set(info, layout);
  }
  return layout;
}

/**
 * The tablet (position in table.tablets) of every row: its partition's, then its bucket's within it (the
 * DISTRIBUTED BY hash modulo the partition's bucket count). -1: no partition holds the row (a load filters
 * those first). `randomStart`: where DISTRIBUTED BY RANDOM's round robin starts.
 */
export function tabletPositionsOfRows(table: TableState, columnOf: (name: string) => Vector, length: number, randomStart = 0): Int32Array {
  const schema = table.schema;
  const distribution = schema.distribution.type === 'HASH' ? schema.distribution.columns.map(columnOf) : [];
  const info = partitionInfoOf(schema);
  if (info === null) return computeBuckets(distribution, length, table.tablets.length, randomStart);
  const partitionIdxs = partitionOfRows(schema, info, columnOf, length);
  const layout = partitionTablets(info, table.tablets);
  const bucketsByCount = new Map<number, Int32Array>();
  const out = new Int32Array(length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    const partitionIdx = partitionIdxs[rowIdx];
    if (partitionIdx < 0) {
      out[rowIdx] = -1;
      continue;
    }
    const tablets = layout[partitionIdx];
    let buckets = bucketsByCount.get(tablets.length);
    if (buckets === undefined) {
      buckets = computeBuckets(distribution, length, tablets.length, randomStart);
      bucketsByCount.set(tablets.length, buckets);
    }
    out[rowIdx] = tablets[buckets[rowIdx]];
  }
  return out;
}

/**
 * Partition pruning (Doris's PartitionPruner): the indexes (in info.partitions, ascending) of the
 * partitions a scan with these must-hold predicates can find rows in; null: all of them. RANGE prunes on
 * the first partition column's `=`, IN, `<`, `<=`, `>`, `>=` (BETWEEN arrives as the two comparisons) and
 * IS NULL; LIST on `=` / IN on every partition column (or IS NULL).
 */
export function prunedPartitions(schema: TableSchema, predicates: readonly ScanPredicate[]): number[] | null {
  const info = partitionInfoOf(schema);
  if (info === null || predicates.length === 0) return null;
  const parts = compile(schema, info);
  const first = info.columns[0].toLowerCase();
  const mine = predicates.filter((predicate) => predicate.column.toLowerCase() === first);
  let keep: boolean[] = info.partitions.map(() => true);
  if (info.type === 'RANGE') {
    for (const predicate of mine) keep = keep.map((alive, idx) => alive && rangeMayMatch(parts, idx, predicate));
  } else {
    for (const predicate of mine) {
      if (info.columns.length !== 1) break;
      const allowed = predicate.op === '=' ? [predicate.value] : predicate.op === 'in' ? predicate.values : predicate.op === 'isnull' ? [null] : null;
      if (allowed === null) continue;
      let idxs: Set<number>;
      try {
        idxs = new Set(allowed.filter((value) => value !== null || predicate.op === 'isnull').map((value) => partitionOfKey(schema, info, [value])));
      } catch {
        continue; // a value of another type than the column's: no pruning
      }
      keep = keep.map((alive, idx) => alive && idxs.has(idx));
    }
  }
  const out: number[] = [];
  keep.forEach((alive, idx) => alive && out.push(idx));
  return out.length === info.partitions.length ? null : out;
}

/** Whether RANGE partition `idx` may hold a row whose first partition column satisfies `predicate`. */
function rangeMayMatch(parts: CompiledPartitions, idx: number, predicate: ScanPredicate): boolean {
  const range = parts.ranges.find((candidate) => candidate.idx === idx)!;
  // The first column of the rows in [lower, upper) lies in [lower[0], upper[0]] (upper[0] itself only when
  // a later column still leaves room: (5, MIN) excludes every row with first column 5).
  const low = range.lower[0] ?? MIN;
  const high = range.upper[0] ?? MIN;
  const highInclusive = range.upper.slice(1).some((value) => value !== MIN);
  const below = (value: KeyValue): boolean => compareKeyValue(value, low) < 0;
  const above = (value: KeyValue): boolean => (highInclusive ? compareKeyValue(value, high) > 0 : compareKeyValue(value, high) >= 0);
  switch (predicate.op) {
    case 'isnull':
      return !below(null) && !above(null);
    case 'isnotnull':
      return true;
    case '=':
      return predicate.value === null ? false : !below(predicate.value) && !above(predicate.value);
    case 'in':
      return predicate.values.some((value) => value !== null && !below(value) && !above(value));
    case '<':
      return predicate.value === null ? false : compareKeyValue(low, predicate.value) < 0;
    case '<=':
      return predicate.value === null ? false : compareKeyValue(low, predicate.value) <= 0;
    case '>':
      return predicate.value === null ? false : compareKeyValue(high, predicate.value) > 0;
    case '>=':
      return predicate.value === null ? false : highInclusive ? compareKeyValue(high, predicate.value) >= 0 : compareKeyValue(high, predicate.value) > 0;
  }
}
