/**
 * The ordering core of Sort and TopN: evaluates the sort keys over one materialized batch and returns the
 * row permutation that orders it. Keys become typed arrays first (dictionary strings become ranks of their
 * sorted dictionary), so the comparator touches no vectors; ties keep input order (stable).
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { concatVectors, decodeUtf8, selectRows, BATCH_SIZE, type Batch, type Vector } from '../../common/column';
import { rowComparator as vectorComparator, sortPermutation as rowSortPermutation } from '../../common/row-order';
import type { SortKey } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { sliceBatch } from './limit';

interface KeyColumn {
  readonly values: ArrayLike<number | bigint | string>;
  readonly nulls: Uint8Array | null;
  /** 1 for ASC, -1 for DESC. */
  readonly direction: number;
  /** -1 when NULL sorts first, 1 when last. */
  readonly nullOrder: number;
}

/** Values of a vector that compare with `<` in its SQL order (dictionary strings: ranks). */
export function comparableValues(vec: Vector): ArrayLike<number | bigint | string> {
  switch (vec.kind) {
    case 'fixed':
      return vec.values;
    case 'object':
      return vec.values;
    case 'dict': {
      const order = vec.dict.map((_value, code) => code).sort((left, right) => (vec.dict[left] < vec.dict[right] ? -1 : vec.dict[left] > vec.dict[right] ? 1 : 0));
      const rank = new Int32Array(vec.dict.length);
      for (let pos = 0; pos < order.length; pos++) rank[order[pos]] = pos;
      const ranks = new Int32Array(vec.length);
      for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) ranks[rowIdx] = rank[vec.codes[rowIdx]];
      return ranks;
    }
    case 'string': {
      const strings = new Array<string>(vec.length);
      // Bytes that are not UTF-8 (convert_to(s, 'gbk'), binary values) order by their bytes, as Doris: one
      // character per byte keeps that order, where decoding would make them all U+FFFD and equal.
      const used = vec.bytes.subarray(vec.offsets[0], vec.offsets[vec.length]);
      if (!isAscii(used) && !isUtf8(used)) {
        const text = Buffer.from(vec.bytes.buffer, vec.bytes.byteOffset, vec.bytes.byteLength);
        for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) strings[rowIdx] = text.toString('latin1', vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
        return strings;
      }
      for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) strings[rowIdx] = decodeUtf8(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
      return strings;
    }
    case 'array':
    case 'struct': {
      // Arrays (structs) order element by element (Doris's dictionary order): rank the rows once.
      const order = rowSortPermutation(vec.length, [{ vector: vec, descending: false }]);
      const ranks = new Int32Array(vec.length);
      const compare = vectorComparator(vec);
      for (let pos = 1; pos < order.length; pos++) ranks[order[pos]] = ranks[order[pos - 1]] + (compare(order[pos - 1], order[pos]) === 0 ? 0 : 1);
      return ranks;
    }
  }
}

/** Concatenate batches of one schema into one batch. */
export function concatBatches(batches: readonly Batch[], columnCount: number): Batch {
  if (batches.length === 1) return batches[0];
  let length = 0;
  for (const batch of batches) length += batch.length;
  const columns: Vector[] = [];
  for (let colIdx = 0; colIdx < columnCount; colIdx++) {
    columns.push(concatVectors(batches[0].columns[colIdx].type, batches.map((batch) => batch.columns[colIdx])));
  }
  return { length, columns };
}

/** Row order of `batch` under `keys`. */
export function sortPermutation(batch: Batch, keys: readonly SortKey[], compiled: readonly ((b: Batch) => Vector)[]): Int32Array {
  const perm = identityPermutation(batch.length);
  perm.sort(rowComparator(keyColumnsOf(batch, keys, compiled)));
  return perm;
}

/** Rows sorted at a time by sortPermutationSliced before runs are merged. */
const SORT_RUN_ROWS = 16_384;
/** Merge steps between event-loop checkpoints. */
const MERGE_STEP_ROWS = 32_768;

/**
 * sortPermutation for large inputs without holding the event loop: sorts runs of SORT_RUN_ROWS rows, then
 * merges runs pairwise (bottom-up merge sort), calling `checkpoint` between runs and every MERGE_STEP_ROWS
 * merged rows. Same order as sortPermutation (the comparator is total: ties fall back to row order).
 */
export async function sortPermutationSliced(batch: Batch, keys: readonly SortKey[], compiled: readonly ((b: Batch) => Vector)[], checkpoint: () => Promise<void> | undefined): Promise<Int32Array> {
  const rowCount = batch.length;
  if (rowCount <= SORT_RUN_ROWS) return sortPermutation(batch, keys, compiled);
  const compare = rowComparator(keyColumnsOf(batch, keys, compiled));
  let perm: Int32Array = identityPermutation(rowCount);
  for (let start = 0; start < rowCount; start += SORT_RUN_ROWS) {
    perm.subarray(start, Math.min(rowCount, start + SORT_RUN_ROWS)).sort(compare);
    const pause = checkpoint();
    if (pause !== undefined) await pause;
  }
  let merged: Int32Array = new Int32Array(rowCount);
  let steps = 0;
  for (let width = SORT_RUN_ROWS; width < rowCount; width *= 2) {
    for (let lo = 0; lo < rowCount; lo += 2 * width) {
      const mid = Math.min(rowCount, lo + width);
      const hi = Math.min(rowCount, lo + 2 * width);
      let left = lo;
      let right = mid;
      for (let out = lo; out < hi; out++) {
        merged[out] = right >= hi || (left < mid && compare(perm[left], perm[right]) <= 0) ? perm[left++] : perm[right++];
        if (++steps === MERGE_STEP_ROWS) {
          steps = 0;
          const pause = checkpoint();
          if (pause !== undefined) await pause;
        }
      }
    }
    const previous = perm;
    perm = merged;
    merged = previous;
  }
  return perm;
}

function identityPermutation(length: number): Int32Array {
  const perm = new Int32Array(length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) perm[rowIdx] = rowIdx;
  return perm;
}

function keyColumnsOf(batch: Batch, keys: readonly SortKey[], compiled: readonly ((b: Batch) => Vector)[]): KeyColumn[] {
  return keys.map((key, keyIdx) => {
    const vec = compiled[keyIdx](batch);
    return { values: comparableValues(vec), nulls: vec.nulls, direction: key.descending ? -1 : 1, nullOrder: key.nullsFirst ? -1 : 1 };
  });
}

/**
 * Compares two row ids of `batch` by `keys` only: 0 for rows equal on every key (the window operator's
 * partition and peer boundaries).
 */
export function keyComparator(batch: Batch, keys: readonly SortKey[], compiled: readonly ((b: Batch) => Vector)[]): (left: number, right: number) => number {
  return rowComparator(keyColumnsOf(batch, keys, compiled), false);
}

/** Compares two row ids by the keys; ties by row id (unless `tieBreak` is false), so the order is total and sorts are stable. */
function rowComparator(keyColumns: readonly KeyColumn[], tieBreak = true): (left: number, right: number) => number {
  const keyCount = keyColumns.length;
  return (left, right) => {
    for (let keyIdx = 0; keyIdx < keyCount; keyIdx++) {
      const key = keyColumns[keyIdx];
      if (key.nulls !== null) {
        const leftNull = key.nulls[left];
        const rightNull = key.nulls[right];
        if (leftNull !== rightNull) return leftNull === 1 ? key.nullOrder : -key.nullOrder;
        if (leftNull === 1) continue;
      }
      const leftValue = key.values[left];
      const rightValue = key.values[right];
      if (leftValue < rightValue) return -key.direction;
      if (leftValue > rightValue) return key.direction;
    }
    return tieBreak ? left - right : 0;
  };
}

/** Compile the key expressions of a Sort/TopN for one run. */
export function compileSortKeys(keys: readonly SortKey[], rt: OperatorRuntime): ((b: Batch) => Vector)[] {
  return keys.map((key) => {
    if (key.expr.kind === 'column') {
      const index = key.expr.index;
      return (batch: Batch) => batch.columns[index];
    }
    const fn = rt.compile(key.expr);
    return (batch: Batch) => fn(batch, rt.ctx);
  });
}

/** Rows perm[start..end) of a batch as output batches of at most BATCH_SIZE rows. */
export function* emitPermuted(batch: Batch, perm: Int32Array, start: number, end: number): Iterable<Batch> {
  for (let pos = start; pos < end; pos += BATCH_SIZE) {
    const stop = Math.min(end, pos + BATCH_SIZE);
    const rowIds = perm.subarray(pos, stop);
    yield selectRows(batch, rowIds, stop - pos);
  }
}

export { sliceBatch };
