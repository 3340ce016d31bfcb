/**
 * The table model's merge of rows that share a key — the one implementation used on flush (memtable.ts:
 * the rows of one load), on read (be/olap-table-source.ts: the rows of every rowset of a tablet) and so in
 * compaction, which reads through the table source. UNIQUE KEY keeps the newest row of a key (the last in
 * arrival order, or with a sequence column the one with the largest sequence value, the last of those on
 * ties); AGGREGATE KEY merges each value column with its aggregation. Keys and string MIN/MAX compare the
 * same way everywhere: UTF-8 bytes (Doris's binary collation, compareRawValues), NULL lowest.
 */
import { getRaw, RawValue, takeRows, Vector, VectorBuilder } from '../common/column';
import { compareRawValues, rowComparator, sortPermutation } from '../common/row-order';
import { unionCells } from '../common/sketch-state';
import { isSketchType } from '../common/types';
import type { ColumnSchema, KeysType } from '../meta/schema';

/** What the merge needs to know about the rows' columns. */
export interface ModelMergeSpec {
  readonly keysType: KeysType;
  /** The first `numKeyColumns` columns of the rows are the key, in key order. */
  readonly numKeyColumns: number;
  /** Schema of each column of the rows (the aggregation of AGGREGATE KEY value columns). */
  readonly columns: readonly ColumnSchema[];
  /** UNIQUE KEY: index (among the rows' columns) of the sequence column, or -1. */
  readonly sequenceIdx: number;
}

/**
 * Rows sorted by key (stable: arrival order among equal keys) and merged per key with the table model.
 * `columns` are in arrival order: for rows of several rowsets, older versions first. Returns the input
 * columns themselves when nothing moves.
 */
export function mergeRowsByKey(columns: readonly Vector[], length: number, spec: ModelMergeSpec): { columns: Vector[]; length: number } {
  const { keysType, numKeyColumns } = spec;
  if (numKeyColumns === 0 || length === 0) return { columns: [...columns], length };
  const keys = columns.slice(0, numKeyColumns).map((vector) => ({ vector, descending: false, nullsFirst: true }));
  const perm = sortPermutation(length, keys);
  if (keysType === 'DUPLICATE') return permuted(columns, perm, length);
  const starts = keyRuns(columns, perm, numKeyColumns);
  const runCount = starts.length - 1;
  if (keysType === 'AGGREGATE') {
    if (runCount === perm.length) return permuted(columns, perm, length);
    return { columns: aggregateRuns(columns, perm, starts, spec), length: runCount };
  }
  const kept = new Int32Array(runCount);
  const sequence = spec.sequenceIdx >= 0 ? columns[spec.sequenceIdx] : null;
  for (let runIdx = 0; runIdx < runCount; runIdx++) {
    const end = starts[runIdx + 1];
    let best = perm[end - 1];
    if (sequence !== null) {
      best = perm[starts[runIdx]];
      // The largest sequence value wins; of equal values the later row (Doris: >=). A NULL never wins.
      for (let pos = starts[runIdx] + 1; pos < end; pos++) if (compareRawValues(getRaw(sequence, perm[pos]), getRaw(sequence, best)) >= 0) best = perm[pos];
    }
    kept[runIdx] = best;
  }
  return permuted(columns, kept, length);
}

function permuted(columns: readonly Vector[], perm: Int32Array, length: number): { columns: Vector[]; length: number } {
  let identity = perm.length === length;
  for (let pos = 0; identity && pos < perm.length; pos++) identity = perm[pos] === pos;
  if (identity) return { columns: [...columns], length };
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

/** AGGREGATE KEY: one row per run, value columns merged in arrival order. */
function aggregateRuns(columns: readonly Vector[], perm: Int32Array, starts: readonly number[], spec: ModelMergeSpec): Vector[] {
  const runCount = starts.length - 1;
  const firstRows = Int32Array.from({ length: runCount }, (_unused, runIdx) => perm[starts[runIdx]]);
  return columns.map((vector, colIdx) => {
    const column = spec.columns[colIdx];
    if (colIdx < spec.numKeyColumns || column === undefined) return takeRows(vector, firstRows);
    if (isSketchType(column.type)) return sketchRuns(vector, perm, starts, column);
    const builder = new VectorBuilder(column.type, runCount);
    for (let runIdx = 0; runIdx < runCount; runIdx++) {
      let acc: RawValue = null;
      for (let pos = starts[runIdx]; pos < starts[runIdx + 1]; pos++) acc = aggregateValue(column, acc, getRaw(vector, perm[pos]));
      builder.append(acc);
    }
    return builder.finish();
  });
}

/**
 * A BITMAP / HLL / QUANTILE_STATE value column, on its bytes (never as text): the unions unite the run's
 * states; REPLACE keeps the newest cell, REPLACE_IF_NOT_NULL the newest non-NULL one.
 */
function sketchRuns(vector: Vector, perm: Int32Array, starts: readonly number[], column: ColumnSchema): Vector {
  const runCount = starts.length - 1;
  const builder = new VectorBuilder(column.type, runCount);
  for (let runIdx = 0; runIdx < runCount; runIdx++) {
    const from = starts[runIdx];
    let to = starts[runIdx + 1];
    if (column.aggregation === 'BITMAP_UNION' || column.aggregation === 'HLL_UNION' || column.aggregation === 'QUANTILE_UNION') {
      const union = unionCells(vector, perm, from, to);
      if (union === null) builder.append(null);
      else {
        const bytes = union.serialize();
        builder.appendBytes(bytes, 0, bytes.length);
      }
      continue;
    }
    if (column.aggregation === 'REPLACE_IF_NOT_NULL') while (to - 1 > from && vector.nulls !== null && vector.nulls[perm[to - 1]] === 1) to--;
    builder.appendFrom(vector, perm[to - 1]);
  }
  return builder.finish();
}

/** One step of a value column's aggregation: the accumulator after `value` (the newer row) is merged in. */
function aggregateValue(column: ColumnSchema, acc: RawValue, value: RawValue): RawValue {
  switch (column.aggregation) {
    case 'SUM':
      if (value === null) return acc;
      if (acc === null) return value;
      return typeof acc === 'bigint' || typeof value === 'bigint' ? BigInt(acc as number | bigint) + BigInt(value as number | bigint) : (acc as number) + (value as number);
    case 'MIN':
      return value !== null && (acc === null || compareRawValues(value, acc) < 0) ? value : acc;
    case 'MAX':
      return value !== null && (acc === null || compareRawValues(value, acc) > 0) ? value : acc;
    case 'REPLACE_IF_NOT_NULL':
      return value !== null ? value : acc;
    default: // REPLACE and the sketch aggregations keep the newest value
      return value;
  }
}
