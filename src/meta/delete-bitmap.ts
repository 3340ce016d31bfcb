/**
 * Delete bitmaps of merge-on-write UNIQUE KEY tables and delete predicates of the other models: the two
 * ways a published version removes rows without rewriting segments.
 *
 * A DeleteBitmap maps (rowset id, segment index) to the sorted ids of that segment's rows that are no
 * longer visible (replaced by a newer row with the same key, or removed by DELETE). It is immutable and
 * part of a TableState, so a query that took a table version reads exactly the bitmap of that version and
 * never a half-applied publish. The meta store keeps one row per (rowset, segment, version) delta, encoded
 * compactly (encodeRowIds); the in-memory form holds the merge of all deltas.
 *
 * A DeletePredicate (DUPLICATE KEY, AGGREGATE KEY and merge-on-read UNIQUE KEY tables) is a conjunction of
 * simple column conditions stored with the version that created it; scans drop the rows of OLDER rowsets
 * (version < predicate version) that match it, as Doris's delete handler does.
 *
 * Imports only common/ and meta/.
 */
import type { RawValue } from '../common/column';
import { GaleneError } from '../common/errors';
import type { TableSchema } from './schema';

/** Whether a table is UNIQUE KEY merge-on-write (Doris `enable_unique_key_merge_on_write`; new tables default to true). */
export function isMergeOnWrite(schema: TableSchema): boolean {
  return schema.keysType === 'UNIQUE' && schema.properties['enable_unique_key_merge_on_write'] === 'true';
}

/** The sequence column of a UNIQUE KEY table (`function_column.sequence_col`), or null. */
export function sequenceColumnName(schema: TableSchema): string | null {
  const name = schema.properties['function_column.sequence_col'];
  if (name === undefined || schema.keysType !== 'UNIQUE') return null;
  return schema.columns.find((column) => column.name.toLowerCase() === name.toLowerCase())?.name ?? null;
}

/** Deleted rows of one segment of one rowset, to add at a version. */
export interface BitmapDelta {
  readonly rowsetId: number;
  readonly segment: number;
  /** Ascending, no duplicates. */
  readonly rowIds: Int32Array;
}

/** A delta computed before its rowset has an id: `newRowsetIdx` indexes the rowsets being published. */
export type PendingBitmapDelta = BitmapDelta | { readonly newRowsetIdx: number; readonly segment: number; readonly rowIds: Int32Array };

const EMPTY_IDS = new Int32Array(0);

/** The ids of ascending, duplicate-free `left` that are not in ascending `right`. */
export function subtractSortedRowIds(left: Int32Array, right: Int32Array): Int32Array {
  if (left.length === 0 || right.length === 0) return left;
  const out = new Int32Array(left.length);
  let count = 0;
  let rightIdx = 0;
  for (let leftIdx = 0; leftIdx < left.length; leftIdx++) {
    const id = left[leftIdx];
    while (rightIdx < right.length && right[rightIdx] < id) rightIdx++;
    if (rightIdx >= right.length || right[rightIdx] !== id) out[count++] = id;
  }
  return out.subarray(0, count);
}

/** Union of two ascending, duplicate-free row id lists. */
export function mergeSortedRowIds(left: Int32Array, right: Int32Array): Int32Array {
  if (left.length === 0) return right;
  if (right.length === 0) return left;
  const out = new Int32Array(left.length + right.length);
  let leftIdx = 0;
  let rightIdx = 0;
  let count = 0;
  while (leftIdx < left.length && rightIdx < right.length) {
    const a = left[leftIdx];
    const b = right[rightIdx];
    if (a < b) {
      out[count++] = a;
      leftIdx++;
    } else if (b < a) {
      out[count++] = b;
      rightIdx++;
    } else {
      out[count++] = a;
      leftIdx++;
      rightIdx++;
    }
  }
  while (leftIdx < left.length) out[count++] = left[leftIdx++];
  while (rightIdx < right.length) out[count++] = right[rightIdx++];
  return count === out.length ? out : out.slice(0, count);
}

/** Ascending, duplicate-free copy of any row ids. */
export function sortedUniqueRowIds(rowIds: ArrayLike<number>): Int32Array {
  const sorted = Int32Array.from(rowIds).sort();
  let count = 0;
  for (let idIdx = 0; idIdx < sorted.length; idIdx++) {
    if (idIdx === 0 || sorted[idIdx] !== sorted[idIdx - 1]) sorted[count++] = sorted[idIdx];
  }
  return count === sorted.length ? sorted : sorted.slice(0, count);
}

/** True when ascending `sorted` contains `rowId` (binary search). */
export function containsRowId(sorted: Int32Array, rowId: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < rowId) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo] === rowId;
}

// ------------------------------------------------------------ encoding

const ENCODING_DELTAS = 1;
const ENCODING_RUNS = 2;

function writeVarint(out: number[], value: number): void {
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  out.push(value);
}

/**
 * Compact bytes for ascending row ids: the smaller of gaps as varints (sparse deletes: about one byte per
 * row) and runs as (gap, length) varint pairs (DELETE of ranges: a few bytes per run).
 */
export function encodeRowIds(sorted: Int32Array): Uint8Array {
  const deltas: number[] = [ENCODING_DELTAS];
  let previous = -1;
  for (let idIdx = 0; idIdx < sorted.length; idIdx++) {
    writeVarint(deltas, sorted[idIdx] - previous - 1);
    previous = sorted[idIdx];
  }
  const runs: number[] = [ENCODING_RUNS];
  let runEnd = 0;
  for (let idIdx = 0; idIdx < sorted.length; ) {
    const start = sorted[idIdx];
    let end = start + 1;
    idIdx++;
    while (idIdx < sorted.length && sorted[idIdx] === end) {
      end++;
      idIdx++;
    }
    writeVarint(runs, start - runEnd);
    writeVarint(runs, end - start);
    runEnd = end;
    if (runs.length > deltas.length) break;
  }
  return Uint8Array.from(runs.length < deltas.length ? runs : deltas);
}

export function decodeRowIds(bytes: Uint8Array): Int32Array {
  let pos = 1;
  const readVarint = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (pos >= bytes.length) throw new GaleneError('CORRUPTION', ['delete bitmap: truncated varint']);
      const byte = bytes[pos++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  };
  const out: number[] = [];
  if (bytes[0] === ENCODING_DELTAS) {
    let previous = -1;
    while (pos < bytes.length) {
      previous = previous + readVarint() + 1;
      out.push(previous);
    }
  } else if (bytes[0] === ENCODING_RUNS) {
    let runEnd = 0;
    while (pos < bytes.length) {
      const start = runEnd + readVarint();
      const end = start + readVarint();
      for (let rowId = start; rowId < end; rowId++) out.push(rowId);
      runEnd = end;
    }
  } else {
    throw new GaleneError('CORRUPTION', [`delete bitmap: unknown encoding ${bytes[0]}`]);
  }
  return Int32Array.from(out);
}

// ------------------------------------------------------------ the bitmap

/** Per table: (rowset id, segment index) -> ascending deleted row ids. Immutable: changes return a new one. */
export class DeleteBitmap {
  static readonly EMPTY = new DeleteBitmap(new Map());

  private constructor(private readonly byRowset: ReadonlyMap<number, readonly Int32Array[]>) {}

  /** Deleted rows of a segment (empty when none). */
  get(rowsetId: number, segment: number): Int32Array {
    return this.byRowset.get(rowsetId)?.[segment] ?? EMPTY_IDS;
  }

  /** Number of deleted rows of a rowset. */
  deletedInRowset(rowsetId: number): number {
    let total = 0;
    for (const ids of this.byRowset.get(rowsetId) ?? []) total += ids?.length ?? 0;
    return total;
  }

  get isEmpty(): boolean {
    return this.byRowset.size === 0;
  }

  rowsetIds(): number[] {
    return [...this.byRowset.keys()];
  }

  /** Structured-clone-safe form (to hand a table version to a worker thread). */
  toEntries(): [number, Int32Array[]][] {
    return [...this.byRowset].map(([rowsetId, segments]) => [rowsetId, [...segments]]);
  }

  static fromEntries(entries: readonly [number, Int32Array[]][]): DeleteBitmap {
    return entries.length === 0 ? DeleteBitmap.EMPTY : new DeleteBitmap(new Map(entries));
  }

  /** This bitmap with `deltas` added. */
  withDeletes(deltas: readonly BitmapDelta[]): DeleteBitmap {
    if (deltas.length === 0) return this;
    const next = new Map(this.byRowset);
    const copied = new Set<number>();
    for (const delta of deltas) {
      if (delta.rowIds.length === 0) continue;
      let segments = next.get(delta.rowsetId);
      if (!copied.has(delta.rowsetId)) {
        segments = segments ? [...segments] : [];
        next.set(delta.rowsetId, segments);
        copied.add(delta.rowsetId);
      }
      const list = segments as Int32Array[];
      while (list.length <= delta.segment) list.push(EMPTY_IDS);
      list[delta.segment] = mergeSortedRowIds(list[delta.segment], delta.rowIds);
    }
    return new DeleteBitmap(next);
  }

  /** This bitmap without the entries of `rowsetIds` (rowsets retired by compaction). */
  withoutRowsets(rowsetIds: readonly number[]): DeleteBitmap {
    if (!rowsetIds.some((id) => this.byRowset.has(id))) return this;
    const next = new Map(this.byRowset);
    for (const id of rowsetIds) next.delete(id);
    return new DeleteBitmap(next);
  }
}

// ------------------------------------------------------------ delete predicates

export type DeleteConditionOp = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in' | 'isnull' | 'isnotnull';

/** One condition of a DELETE predicate: `column op value(s)`; values are raw values of the column's type. */
export interface DeleteCondition {
  readonly column: string;
  readonly op: DeleteConditionOp;
  readonly values: readonly RawValue[];
}

export interface DeletePredicateRecord {
  readonly id: number;
  /** Table version the DELETE created: the predicate applies to rowsets of lower versions. */
  readonly version: number;
  /** ANDed. */
  readonly conditions: readonly DeleteCondition[];
}

/** JSON for the meta store (bigint values survive as {"$bigint": "..."}). */
export function conditionsToJson(conditions: readonly DeleteCondition[]): string {
  return JSON.stringify(conditions, (_key, value: unknown) => (typeof value === 'bigint' ? { $bigint: value.toString() } : value));
}

export function conditionsFromJson(text: string): DeleteCondition[] {
  return JSON.parse(text, (_key, value: unknown) => (value !== null && typeof value === 'object' && '$bigint' in (value as object) ? BigInt((value as { $bigint: string }).$bigint) : value)) as DeleteCondition[];
}
