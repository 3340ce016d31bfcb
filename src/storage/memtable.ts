/**
 * Rows of one tablet, from one load, made ready for a segment: sorted by the key columns (the short-key
 * index and zone maps depend on it) and, for UNIQUE KEY tables, reduced to the newest row per key (the
 * last one loaded wins within a load, as Doris's memtable does). AGGREGATE KEY rows are merged on read.
 */
import { takeRows, Vector } from '../common/column';
import { rowComparator, sortPermutation } from '../common/row-order';
import type { KeysType } from '../meta/schema';

export function prepareTabletRows(columns: readonly Vector[], length: number, numKeyColumns: number, keysType: KeysType): { columns: Vector[]; length: number } {
  if (numKeyColumns === 0 || length === 0) return { columns: [...columns], length };
  const keys = columns.slice(0, numKeyColumns).map((vector) => ({ vector, descending: false, nullsFirst: true }));
  let perm = sortPermutation(length, keys);
  if (keysType === 'UNIQUE') {
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
