/**
 * Rows of one tablet, from one load, made ready for a segment: sorted by the key columns (the short-key
 * index and zone maps depend on it) and, for UNIQUE KEY tables, reduced to the newest row per key (the
 * last one loaded wins within a load, as Doris's memtable does). AGGREGATE KEY rows are merged on read.
 */
import { getRaw, RawValue, takeRows, Vector, VectorBuilder } from '../common/column';
import { compareStrings, rowComparator, sortPermutation } from '../common/row-order';
import type { KeysType, TableSchema } from '../meta/schema';

/**
 * `schema` (optional for callers that only sort) brings the table model's merge into the memtable: with a
 * UNIQUE KEY sequence column (`function_column.sequence_col`) the row of a key kept is the one with the
 * largest sequence value (the last of them on ties), and AGGREGATE KEY rows of one key are merged into one
 * with each value column's aggregation (Doris merges on flush, compaction and read).
 */
export function prepareTabletRows(columns: readonly Vector[], length: number, numKeyColumns: number, keysType: KeysType, schema?: TableSchema): { columns: Vector[]; length: number } {
  if (numKeyColumns === 0 || length === 0) return { columns: [...columns], length };
  const keys = columns.slice(0, numKeyColumns).map((vector) => ({ vector, descending: false, nullsFirst: true }));
  let perm = sortPermutation(length, keys);
  const seqName = keysType === 'UNIQUE' ? schema?.properties['function_column.sequence_col'] : undefined;
  const seqIdx = seqName === undefined ? -1 : (schema?.columns.findIndex((column) => column.name.toLowerCase() === seqName.toLowerCase()) ?? -1);
  if (keysType === 'AGGREGATE' && schema !== undefined) {
    const merged = mergeAggregateRuns(columns, perm, numKeyColumns, schema);
    if (merged !== null) return merged;
  } else if (keysType === 'UNIQUE' && seqIdx >= 0) {
    perm = keepLargestSequence(columns, perm, numKeyColumns, columns[seqIdx]);
  } else if (keysType === 'UNIQUE') {
    // Stable sort keeps load order among equal keys: keep the last of each run.
    const keyComparators = keys.map((key) => rowComparator(key.vector, false, true));
    const sameKey = (rowA: number, rowB: number): boolean => keyComparators.every((compare) => compare(rowA, rowB) === 0);
    const kept = new Int32Array(length);
    let keptCount = 0;
    for (let pos = 0; pos < length; pos++) {
      const isLastOfRun = pos === length - 1 || !sameKey(perm[pos], perm[pos + 1]);
      if (isLastOfRun) kept[keptCount++] = perm[pos];
    }
    perm = kept.subarray(0, keptCount);
  }
  let sorted = true;
  for (let pos = 0; pos < perm.length; pos++) {
    if (perm[pos] !== pos) {
      sorted = false;
      break;
    }
  }
  if (sorted && perm.length === length) return { columns: [...columns], length };
  return { columns: columns.map((vector) => takeRows(vector, perm, perm.length)), length: perm.length };
}

/** Start positions (in `perm`) of the runs of equal keys, plus `perm.length` at the end. */
function keyRuns(columns: readonly Vector[], perm: Int32Array, numKeyColumns: number): number[] {
  const comparators = columns.slice(0, numKeyColumns).map((vector) => rowComparator(vector, false, true));
  const starts: number[] = [0];
  for (let pos = 1; pos < perm.length; pos++) {
    if (!comparators.every((compare) => compare(perm[pos - 1], perm[pos]) === 0)) starts.push(pos);
  }
  starts.push(perm.length);
  return starts;
}

/** NULL lowest; strings byte-wise. */
function compareRaw(a: RawValue, b: RawValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Per run of equal keys, the row with the largest sequence value (the last loaded of those on ties). */
function keepLargestSequence(columns: readonly Vector[], perm: Int32Array, numKeyColumns: number, sequence: Vector): Int32Array {
  const starts = keyRuns(columns, perm, numKeyColumns);
  const kept = new Int32Array(starts.length - 1);
  for (let runIdx = 0; runIdx + 1 < starts.length; runIdx++) {
    let best = perm[starts[runIdx]];
    for (let pos = starts[runIdx] + 1; pos < starts[runIdx + 1]; pos++) {
      if (compareRaw(getRaw(sequence, perm[pos]), getRaw(sequence, best)) >= 0) best = perm[pos];
    }
    kept[runIdx] = best;
  }
  return kept;
}

/** AGGREGATE KEY: one row per key, value columns merged in load order; null when every key is distinct. */
function mergeAggregateRuns(columns: readonly Vector[], perm: Int32Array, numKeyColumns: number, schema: TableSchema): { columns: Vector[]; length: number } | null {
  const starts = keyRuns(columns, perm, numKeyColumns);
  const runCount = starts.length - 1;
  if (runCount === perm.length) return null;
  const firstRows = Int32Array.from({ length: runCount }, (_unused, runIdx) => perm[starts[runIdx]]);
  const out = columns.map((vector, colIdx) => {
    const column = schema.columns[colIdx];
    if (colIdx < numKeyColumns || column === undefined) return takeRows(vector, firstRows);
    const builder = new VectorBuilder(column.type, runCount);
    for (let runIdx = 0; runIdx < runCount; runIdx++) {
      let acc: RawValue = null;
      for (let pos = starts[runIdx]; pos < starts[runIdx + 1]; pos++) {
        const value = getRaw(vector, perm[pos]);
        switch (column.aggregation) {
          case 'SUM':
            if (value !== null) acc = acc === null ? value : typeof acc === 'bigint' || typeof value === 'bigint' ? BigInt(acc) + BigInt(value) : (acc as number) + (value as number);
            break;
          case 'MIN':
            if (value !== null && (acc === null || compareRaw(value, acc) < 0)) acc = value;
            break;
          case 'MAX':
            if (value !== null && (acc === null || compareRaw(value, acc) > 0)) acc = value;
            break;
          case 'REPLACE_IF_NOT_NULL':
            if (value !== null) acc = value;
            break;
          default: // REPLACE and the sketch aggregations keep the newest value
            acc = value;
        }
      }
      builder.append(acc);
    }
    return builder.finish();
  });
  return { columns: out, length: runCount };
}
