/**
 * The primary-key index file of one segment of a merge-on-write UNIQUE KEY table (primary-key-index.ts),
 * built from the segment's own sorted rows as writeTableRows writes it — so every path that writes
 * segments (load flush, INSERT, group commit, compaction, partial-update rewrites) gives each new segment
 * one. Always on for merge-on-write, as in Doris; other models get none.
 */
import { sliceVector, type Vector } from '../common/column';
import { physicalKind, type PhysicalKind } from '../common/types';
import type { ObjectPut, ObjectStore } from '../io/object-store';
import { isMergeOnWrite } from '../meta/delete-bitmap';
import type { SegmentIndexRecord, SegmentRecord } from '../meta/meta-store';
import { segmentIndexRecord } from '../meta/meta-store';
import { findColumn, type TableSchema } from '../meta/schema';
import { buildPrimaryKeyIndex, compareKeyBytes, encodeKeys, PRIMARY_KEY_INDEX_NAME, type EncodedKeys } from './primary-key-index';
import { segmentIndexKey } from './segment-format';

/** Positions (in schema order) and physical kinds of a table's key columns, or null when it gets no index. */
export function primaryKeyColumns(schema: TableSchema): { readonly colIdxs: readonly number[]; readonly kinds: readonly PhysicalKind[] } | null {
  if (!isMergeOnWrite(schema) || schema.keyColumns.length === 0) return null;
  const colIdxs = schema.keyColumns.map((name) => schema.columns.findIndex((column) => column.name.toLowerCase() === name.toLowerCase()));
  if (colIdxs.some((colIdx) => colIdx < 0)) return null;
  return { colIdxs, kinds: schema.keyColumns.map((name) => physicalKind(findColumn(schema, name)!.type)) };
}

/**
 * Write the primary-key index of the segment `segmentKey` whose columns (schema order) are `data`; returns
 * the record to keep on the segment (none for tables other than merge-on-write). The key is pushed to
 * `written` before the put, so a failed put leaves the caller a complete list of objects to remove.
 * `put`: default `store.put`; loads pass the upload pool's.
 */
export async function buildSegmentPrimaryKeyIndex(store: ObjectStore, schema: TableSchema, data: readonly Vector[], numRows: number, segmentKey: string, written: string[], put: ObjectPut = (objectKey, parts) => store.put(objectKey, parts)): Promise<SegmentIndexRecord[]> {
  const keyColumns = primaryKeyColumns(schema);
  if (keyColumns === null) return [];
  const parts = buildPrimaryKeyIndex(keyColumns.colIdxs.map((colIdx) => data[colIdx]), keyColumns.kinds, numRows);
  const key = segmentIndexKey(segmentKey, PRIMARY_KEY_INDEX_NAME);
  written.push(key);
  await put(key, parts);
  const keyBounds = segmentKeyBounds(keyColumns.colIdxs.map((colIdx) => data[colIdx]), keyColumns.kinds, numRows);
  return [{ name: PRIMARY_KEY_INDEX_NAME, kind: 'primary_key', key, size: parts.reduce((sum, part) => sum + part.length, 0), ...(keyBounds === null ? {} : { keyBounds }) }];
}

/** Encoded bounds longer than this are not kept in the record (the catalog holds one pair per segment). */
const MAX_KEY_BOUND_BYTES = 256;

/** The first and last encoded key of a segment's sorted rows, for its record; null when empty or too long. */
function segmentKeyBounds(keys: readonly Vector[], kinds: readonly PhysicalKind[], numRows: number): SegmentIndexRecord['keyBounds'] | null {
  if (numRows === 0) return null;
  const encodeRow = (rowIdx: number): EncodedKeys => encodeKeys(keys.map((vec) => sliceVector(vec, rowIdx, rowIdx + 1)), kinds, 1);
  const min = encodeRow(0);
  const max = encodeRow(numRows - 1);
  if (min.bytes.length > MAX_KEY_BOUND_BYTES || max.bytes.length > MAX_KEY_BOUND_BYTES) return null;
  const base64 = (encoded: EncodedKeys): string => Buffer.from(encoded.bytes.buffer, encoded.bytes.byteOffset, encoded.offsets[1]).toString('base64');
  return { kinds: kinds.join(','), min: base64(min), max: base64(max) };
}

/** Key bounds decoded from their record (records are immutable): a lookup decodes no base64. */
const decodedBounds = new WeakMap<NonNullable<SegmentIndexRecord['keyBounds']>, { readonly kinds: readonly string[]; readonly min: Uint8Array; readonly max: Uint8Array }>();

/**
 * Whether any of `keys` (encoded from key columns of physical kinds `kinds`) may be in the segment whose
 * primary-key index record this is: false only when its key bounds exclude every one (no read at all).
 */
export function segmentMayHoldKeys(record: SegmentIndexRecord, keys: EncodedKeys, kinds: readonly PhysicalKind[]): boolean {
  const bounds = record.keyBounds;
  if (bounds === undefined) return true;
  let decoded = decodedBounds.get(bounds);
  if (decoded === undefined) decodedBounds.set(bounds, (decoded = { kinds: bounds.kinds.split(','), min: Buffer.from(bounds.min, 'base64'), max: Buffer.from(bounds.max, 'base64') }));
  const { min, max } = decoded;
  if (decoded.kinds.length !== kinds.length || decoded.kinds.some((kind, keyIdx) => kind !== kinds[keyIdx])) return true;
  for (let keyIdx = 0; keyIdx < keys.count; keyIdx++) {
    const start = keys.offsets[keyIdx];
    const end = keys.offsets[keyIdx + 1];
    if (compareKeyBytes(keys.bytes, start, end, min, 0, min.length) >= 0 && compareKeyBytes(keys.bytes, start, end, max, 0, max.length) <= 0) return true;
  }
  return false;
}

/** A segment's primary-key index file, when it was written with one. */
export function primaryKeyIndexRecord(segment: SegmentRecord): SegmentIndexRecord | undefined {
  return segmentIndexRecord(segment, PRIMARY_KEY_INDEX_NAME, 'primary_key');
}
