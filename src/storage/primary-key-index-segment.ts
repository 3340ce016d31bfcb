/**
 * The primary-key index file of one segment of a merge-on-write UNIQUE KEY table (primary-key-index.ts),
 * built from the segment's own sorted rows as writeTableRows writes it — so every path that writes
 * segments (load flush, INSERT, group commit, compaction, partial-update rewrites) gives each new segment
 * one. Always on for merge-on-write, as in Doris; other models get none.
 */
import type { Vector } from '../common/column';
import { physicalKind, type PhysicalKind } from '../common/types';
import type { ObjectPut, ObjectStore } from '../io/object-store';
import { isMergeOnWrite } from '../meta/delete-bitmap';
import type { SegmentIndexRecord, SegmentRecord } from '../meta/meta-store';
import { segmentIndexRecord } from '../meta/meta-store';
import { findColumn, type TableSchema } from '../meta/schema';
import { buildPrimaryKeyIndex, PRIMARY_KEY_INDEX_NAME } from './primary-key-index';
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
  return [{ name: PRIMARY_KEY_INDEX_NAME, kind: 'primary_key', key, size: parts.reduce((sum, part) => sum + part.length, 0) }];
}

/** A segment's primary-key index file, when it was written with one. */
export function primaryKeyIndexRecord(segment: SegmentRecord): SegmentIndexRecord | undefined {
  return segmentIndexRecord(segment, PRIMARY_KEY_INDEX_NAME, 'primary_key');
}
