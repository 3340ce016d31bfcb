/**
 * Which tablets and which keys a scan's pushed predicates pin down. Bucket pruning (Doris's
 * OlapScanNode `tablets=1/64`): equalities (or IN lists) on every HASH distribution column name the
 * buckets the values hash to — exactly the loads' hash (common/bucket-hash.ts) — and only those tablets
 * are read. Key tuples: equalities on every key column of a merge-on-write table name the rows a
 * primary-key index can find directly (primary-key-index.ts). Both are pure functions of the schema and
 * the predicates, so the scan and EXPLAIN agree.
 */
import { getRaw, type RawValue, VectorBuilder, type Vector } from '../common/column';
import { computeBuckets } from '../common/bucket-hash';
import { compareRawValues } from '../common/row-order';
import type { ScanPredicate } from '../common/scan-predicate';
import { findColumn, type TableSchema } from '../meta/schema';

/** Combinations of pinned values beyond this are not enumerated (no pruning). */
export const MAX_PINNED_TUPLES = 1024;

/**
 * Every combination of the values the predicates allow for `columns` (each needs an `=` or `IN`; several
 * on one column intersect), as one vector per column holding the tuples; null when a column is not
 * pinned, a value is not exactly representable in the column's type, or there are too many combinations.
 * No tuple at all (an empty intersection, or only NULLs): zero-length vectors — nothing matches.
 */
export function pinnedTuples(schema: TableSchema, columns: readonly string[], predicates: readonly ScanPredicate[]): Vector[] | null {
  const valueLists: RawValue[][] = [];
  for (const name of columns) {
    let values: RawValue[] | null = null;
    for (const predicate of predicates) {
      if (predicate.column.toLowerCase() !== name.toLowerCase()) continue;
      const allowed = predicate.op === '=' ? [predicate.value] : predicate.op === 'in' ? [...predicate.values] : null;
      if (allowed === null) continue;
      // A comparison with NULL is never true.
      const nonNull = allowed.filter((value) => value !== null);
      values = values === null ? nonNull : values.filter((value) => nonNull.some((other) => compareRawValues(value, other) === 0));
    }
    if (values === null) return null;
    valueLists.push(dedupe(values));
  }
  let count = 1;
  for (const list of valueLists) count *= list.length;
  if (count > MAX_PINNED_TUPLES) return null;
  const builders = columns.map((name) => {
    const column = findColumn(schema, name);
    return column === undefined ? null : new VectorBuilder(column.type, count);
  });
  if (builders.some((builder) => builder === null)) return null;
  const tuple: RawValue[] = new Array<RawValue>(columns.length);
  const emit = (colIdx: number): void => {
    if (colIdx === columns.length) {
      tuple.forEach((value, idx) => builders[idx]!.append(value));
      return;
    }
    for (const value of valueLists[colIdx]) {
      tuple[colIdx] = value;
      emit(colIdx + 1);
    }
  };
  try {
    if (count > 0) emit(0);
  } catch {
    return null; // a value of another type than the column's: no pruning
  }
  const vectors = builders.map((builder) => builder!.finish());
  // A value the column's type cannot hold exactly (1.5 for an INT) would hash as another value: no pruning.
  for (let colIdx = 0; colIdx < columns.length; colIdx++) {
    for (let rowIdx = 0; rowIdx < count; rowIdx++) if (!sameValue(getRaw(vectors[colIdx], rowIdx), tupleValue(valueLists, colIdx, rowIdx))) return null;
  }
  return vectors;
}

function sameValue(stored: RawValue, given: RawValue): boolean {
  const numeric = (value: RawValue): boolean => typeof value === 'number' || typeof value === 'bigint';
  if (typeof stored !== typeof given && !(numeric(stored) && numeric(given))) return false;
  return compareRawValues(stored, given) === 0;
}

/** The value of column `colIdx` in tuple `rowIdx` of the cartesian product of `lists` (last column fastest). */
function tupleValue(lists: readonly RawValue[][], colIdx: number, rowIdx: number): RawValue {
  let stride = 1;
  for (let idx = lists.length - 1; idx > colIdx; idx--) stride *= lists[idx].length;
  return lists[colIdx][Math.floor(rowIdx / stride) % lists[colIdx].length];
}

function dedupe(values: readonly RawValue[]): RawValue[] {
  const out: RawValue[] = [];
  for (const value of values) if (!out.some((other) => compareRawValues(value, other) === 0)) out.push(value);
  return out;
}

/**
 * The buckets (tablet positions, ascending) a scan with these predicates must read, or null for all of
 * them: only HASH-distributed tables with every distribution column pinned prune.
 */
export function prunedBuckets(schema: TableSchema, bucketCount: number, predicates: readonly ScanPredicate[]): number[] | null {
  const distribution = schema.distribution as TableSchema['distribution'] | undefined; // absent in hand-made test schemas
  if (bucketCount <= 1 || distribution?.type !== 'HASH' || distribution.columns.length === 0) return null;
  const tuples = pinnedTuples(schema, distribution.columns, predicates);
  if (tuples === null) return null;
  const buckets = computeBuckets(tuples, tuples[0].length, bucketCount);
  return [...new Set(buckets)].sort((a, b) => a - b);
}
