/**
 * Row ordering over column vectors: comparators and sort permutations shared by the memtable (rows sorted
 * by key before a segment is written), the Sort/TopN operators and merges. Strings compare as UTF-8 bytes
 * (Doris's default binary collation); NULLs sort by the caller's choice.
 */
import { compareBytes } from './bytes';
import { compareStrings } from './utf8';
import type { RawValue, Vector } from './column';

/** Compares row a with row b of one vector: negative, zero or positive. */
export type RowComparator = (rowA: number, rowB: number) => number;

/**
 * Raw values of one column type: NULL lowest, strings as UTF-8 bytes (compareStrings), numbers and
 * bigints numerically. The one comparison of merges (MIN/MAX, sequence columns) and DELETE conditions.
 */
export function compareRawValues(a: RawValue, b: RawValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    // Arrays: element by element, NULL lowest; a prefix sorts first (Doris's ARRAY order).
    const common = Math.min(a.length, b.length);
    for (let elemIdx = 0; elemIdx < common; elemIdx++) {
      const diff = compareRawValues(a[elemIdx], b[elemIdx]);
      if (diff !== 0) return diff;
    }
    return a.length - b.length;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Values-only comparator (ignores nulls) for one vector, ascending. */
function valueComparator(vec: Vector): RowComparator {
  switch (vec.kind) {
    case 'fixed': {
      const values = vec.values as Float64Array;
      return (rowA, rowB) => {
        const a = values[rowA];
        const b = values[rowB];
        return a < b ? -1 : a > b ? 1 : 0;
      };
    }
    case 'object': {
      const values = vec.values;
      return (rowA, rowB) => (values[rowA] < values[rowB] ? -1 : values[rowA] > values[rowB] ? 1 : 0);
    }
    case 'string': {
      const { offsets, bytes } = vec;
      return (rowA, rowB) => compareBytes(bytes, offsets[rowA], offsets[rowA + 1], bytes, offsets[rowB], offsets[rowB + 1]);
    }
    case 'dict': {
      // Rank the dictionary once, then compare ranks.
      const order = vec.dict.map((_v, idx) => idx).sort((a, b) => compareStrings(vec.dict[a], vec.dict[b]));
      const rank = new Int32Array(vec.dict.length);
      order.forEach((dictIdx, pos) => (rank[dictIdx] = pos));
      const codes = vec.codes;
      return (rowA, rowB) => rank[codes[rowA]] - rank[codes[rowB]];
    }
    case 'array': {
      const { offsets } = vec;
      const compareElements = rowComparator(vec.child, false, true);
      return (rowA, rowB) => {
        const startA = offsets[rowA];
        const startB = offsets[rowB];
        const lengthA = offsets[rowA + 1] - startA;
        const lengthB = offsets[rowB + 1] - startB;
        const common = Math.min(lengthA, lengthB);
        for (let elemIdx = 0; elemIdx < common; elemIdx++) {
          const diff = compareElements(startA + elemIdx, startB + elemIdx);
          if (diff !== 0) return diff;
        }
        return lengthA - lengthB;
      };
    }
    case 'struct': {
      // Field by field, as Doris orders structs.
      const fieldComparators = vec.children.map((child) => rowComparator(child, false, true));
      return (rowA, rowB) => {
        for (const compareField of fieldComparators) {
          const diff = compareField(rowA, rowB);
          if (diff !== 0) return diff;
        }
        return 0;
      };
    }
  }
}

/**
 * Comparator for one sort key. Doris/MySQL default: NULLs first when ascending, last when descending.
 */
export function rowComparator(vec: Vector, descending = false, nullsFirst = !descending): RowComparator {
  const compareValues = valueComparator(vec);
  const nulls = vec.nulls;
  const sign = descending ? -1 : 1;
  if (nulls === null) return descending ? (rowA, rowB) => -compareValues(rowA, rowB) : compareValues;
  const nullSign = nullsFirst ? -1 : 1;
  return (rowA, rowB) => {
    const nullA = nulls[rowA];
    const nullB = nulls[rowB];
    if (nullA | nullB) return nullA === nullB ? 0 : nullA ? nullSign : -nullSign;
    return sign * compareValues(rowA, rowB);
  };
}

export interface SortKey {
  readonly vector: Vector;
  readonly descending: boolean;
  readonly nullsFirst?: boolean;
}

/** Combined comparator over several keys, ties broken by row id (a stable order). */
export function multiKeyComparator(keys: readonly SortKey[]): RowComparator {
  const comparators = keys.map((key) => rowComparator(key.vector, key.descending, key.nullsFirst ?? !key.descending));
  if (comparators.length === 1) {
    const only = comparators[0];
    return (rowA, rowB) => only(rowA, rowB) || rowA - rowB;
  }
  return (rowA, rowB) => {
    for (let keyIdx = 0; keyIdx < comparators.length; keyIdx++) {
      const diff = comparators[keyIdx](rowA, rowB);
      if (diff !== 0) return diff;
    }
    return rowA - rowB;
  };
}

/**
 * Row ids 0..length-1 in key order (stable). Rows that already arrive in key order (a load of data sorted
 * by its key, the common bulk-load shape) cost one comparison per row instead of a sort.
 */
export function sortPermutation(length: number, keys: readonly SortKey[]): Int32Array {
  const perm = new Int32Array(length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) perm[rowIdx] = rowIdx;
  if (keys.length === 0 || length < 2) return perm;
  const compare = multiKeyComparator(keys);
  let rowIdx = 1;
  while (rowIdx < length && compare(rowIdx - 1, rowIdx) < 0) rowIdx++;
  if (rowIdx === length) return perm;
  return perm.sort(compare);
}
