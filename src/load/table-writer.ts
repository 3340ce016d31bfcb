/**
 * The write path of one load into one table: rows (already converted to the column types, in schema
 * order) -> bucket per row -> per tablet: memtable (sort, UNIQUE dedup) -> segment files -> object store.
 * Returns the rowsets to publish; nothing is visible until the caller commits the transaction, and the
 * caller deletes the written objects if it aborts.
 */
import { Batch, sliceVector, takeNulls, takeRows, Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ObjectStore } from '../io/object-store';
import { vaultObjectKey } from '../io/vault-object-store';
import { tableVaultId } from '../meta/storage-vaults';
import type { TableState } from '../meta/catalog';
import type { NewRowset, SegmentRecord } from '../meta/meta-store';
import type { TableSchema } from '../meta/schema';
import { prepareTabletRows } from '../storage/memtable';
import { buildSegmentAnnIndexes, tableAnnIndexes } from '../storage/ann/segment-ann-indexes';
import { buildSegmentInvertedIndexes, tableInvertedIndexes } from '../storage/inverted/segment-inverted-indexes';
import { buildSegmentPrimaryKeyIndex } from '../storage/primary-key-index-segment';
import { writeSegment } from '../storage/segment-writer';
import { computeBuckets } from './bucket-hash';

/** Rows per segment file: large enough for few files, small enough to prune and to cache well. */
export const SEGMENT_MAX_ROWS = 1 << 20;

export type CompressionName = 'LZ4' | 'ZSTD' | 'NONE';

export function tableCompression(schema: TableSchema): CompressionName {
  const value = (schema.properties['compression'] ?? 'LZ4').toUpperCase();
  if (value === 'LZ4' || value === 'LZ4F' || value === 'DEFAULT') return 'LZ4';
  if (value === 'ZSTD') return 'ZSTD';
  if (value === 'NONE' || value === 'NO_COMPRESSION') return 'NONE';
  throw new GaleneError('INVALID_PROPERTY', ['compression', `${value} (expected LZ4, ZSTD or NONE)`]);
}

/**
 * Object key of a segment: stable and self-describing (DESIGN §2), in the table's storage vault (the one
 * place keys are named: index files take theirs from the segment's, segmentIndexKey).
 */
export function segmentKey(schema: Pick<TableSchema, 'properties'>, tabletId: number, txnId: number, segmentIdx: number): string {
  return vaultObjectKey(tableVaultId(schema), `data/${tabletId}/${txnId}_${segmentIdx}.dat`);
}

export interface WrittenLoad {
  readonly rowsets: NewRowset[];
  /** Every object written, for clean-up when the transaction aborts. */
  readonly objectKeys: string[];
}

/**
 * Rows `rowIds` of a column, as takeRows returns them, with monomorphic loops for the common physical
 * forms: a byte loop for strings (most are short: no subarray per row) and one loop per array type.
 */
function gatherRows(vec: Vector, rowIds: Int32Array): Vector {
  const count = rowIds.length;
  if (vec.kind === 'string') {
    const { offsets: srcOffsets, bytes: srcBytes } = vec;
    let total = 0;
    for (let outIdx = 0; outIdx < count; outIdx++) total += srcOffsets[rowIds[outIdx] + 1] - srcOffsets[rowIds[outIdx]];
    const offsets = new Int32Array(count + 1);
    const bytes = new Uint8Array(total);
    let pos = 0;
    for (let outIdx = 0; outIdx < count; outIdx++) {
      const end = srcOffsets[rowIds[outIdx] + 1];
      for (let byteIdx = srcOffsets[rowIds[outIdx]]; byteIdx < end; byteIdx++) bytes[pos++] = srcBytes[byteIdx];
      offsets[outIdx + 1] = pos;
    }
    return { kind: 'string', type: vec.type, length: count, offsets, bytes, nulls: takeNulls(vec.nulls, rowIds) };
  }
  if (vec.kind === 'fixed' && vec.values instanceof Int32Array) {
    const src = vec.values;
    const values = new Int32Array(count);
    for (let outIdx = 0; outIdx < count; outIdx++) values[outIdx] = src[rowIds[outIdx]];
    return { kind: 'fixed', type: vec.type, length: count, values, nulls: takeNulls(vec.nulls, rowIds) };
  }
  if (vec.kind === 'fixed' && vec.values instanceof Float64Array) {
    const src = vec.values;
    const values = new Float64Array(count);
    for (let outIdx = 0; outIdx < count; outIdx++) values[outIdx] = src[rowIds[outIdx]];
    return { kind: 'fixed', type: vec.type, length: count, values, nulls: takeNulls(vec.nulls, rowIds) };
  }
  return takeRows(vec, rowIds);
}

/** Group row ids by bucket with a counting sort: one pass to count, one to place. */
function rowsByBucket(buckets: Int32Array, bucketCount: number): Int32Array[] {
  const counts = new Int32Array(bucketCount);
  for (let rowIdx = 0; rowIdx < buckets.length; rowIdx++) counts[buckets[rowIdx]]++;
  const groups = Array.from(counts, (count) => new Int32Array(count));
  const fill = new Int32Array(bucketCount);
  for (let rowIdx = 0; rowIdx < buckets.length; rowIdx++) {
    const bucket = buckets[rowIdx];
    groups[bucket][fill[bucket]++] = rowIdx;
  }
  return groups;
}

/**
 * Write a batch of rows of `table` as new segments under transaction `txnId`. The batch's columns are the
 * table's columns in schema order, of the schema's types. A load that calls this several times under one
 * transaction passes `nextSegmentIdx` (tablet id -> next free segment index, updated here) so that segment
 * keys of later batches do not overwrite earlier ones.
 */
/** Per-write settings from the BE's config. */
export interface TableWriteOptions {
  /** `ann_index_build_min_segment_rows`: smaller segments get no ANN index file (searched exactly). */
  readonly annMinSegmentRows?: number;
}

export async function writeTableRows(store: ObjectStore, table: TableState, batch: Batch, txnId: number, nextSegmentIdx?: Map<number, number>, checkpoint?: () => Promise<void> | undefined, options: TableWriteOptions = {}): Promise<WrittenLoad> {
  const schema = table.schema;
  const compression = tableCompression(schema);
  const columnIndex = new Map(schema.columns.map((column, colIdx) => [column.name.toLowerCase(), colIdx]));
  const distributionColumns = schema.distribution.type === 'HASH' ? schema.distribution.columns.map((name) => batch.columns[columnIndex.get(name.toLowerCase())!]) : [];
  const bucketCount = table.tablets.length;
  const buckets = computeBuckets(distributionColumns, batch.length, bucketCount, txnId);
  const groups = rowsByBucket(buckets, bucketCount);
  const segmentColumns = schema.columns.map((column) => ({ name: column.name, type: column.type, uniqueId: column.uniqueId }));
  const annIndexes = tableAnnIndexes(schema.indexes, segmentColumns.map((column) => column.name));
  const invertedIndexes = tableInvertedIndexes(schema.indexes, segmentColumns);
  const written: WrittenLoad = { rowsets: [], objectKeys: [] };
  // Each put runs while the next segment is encoded (its fsync overlaps CPU work); all settle before return.
  const puts: Promise<void>[] = [];
  let failure: { error: unknown } | null = null;
  try {
    await encodeTablets();
  } catch (error) {
    failure = { error };
  }
  const rejected = (await Promise.allSettled(puts)).find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  failure ??= rejected ? { error: rejected.reason } : null;
  if (failure !== null) {
    // Nothing of this call becomes visible: remove what did get written, then report the failure.
    await Promise.allSettled(written.objectKeys.map((key) => store.delete(key)));
    throw failure.error;
  }
  return written;

  async function encodeTablets(): Promise<void> {
    for (let bucket = 0; bucket < bucketCount; bucket++) {
      const rowIds = groups[bucket];
      if (rowIds.length === 0) continue;
      // Between tablets: a statement's write side gives the event loop back when its slice is used up.
      const pause = checkpoint?.();
      if (pause !== undefined) await pause;
      const tablet = table.tablets[bucket];
      const tabletColumns: Vector[] = rowIds.length === batch.length ? batch.columns : batch.columns.map((column) => gatherRows(column, rowIds));
      const prepared = prepareTabletRows(tabletColumns, rowIds.length, schema.keyColumns.length, schema.keysType, schema);
      const segments: SegmentRecord[] = [];
      let dataSize = 0;
      const firstSegmentIdx = nextSegmentIdx?.get(tablet.id) ?? 0;
      for (let start = 0, segmentIdx = firstSegmentIdx; start < prepared.length; start += SEGMENT_MAX_ROWS, segmentIdx++) {
        const end = Math.min(prepared.length, start + SEGMENT_MAX_ROWS);
        const data = start === 0 && end === prepared.length ? prepared.columns : prepared.columns.map((column) => sliceVector(column, start, end));
        const parts = await writeSegment(segmentColumns, data, { compression, numShortKeyColumns: Math.max(1, Math.min(3, schema.keyColumns.length)) });
        const key = segmentKey(schema, tablet.id, txnId, segmentIdx);
        written.objectKeys.push(key);
        const put = store.put(key, parts);
        put.catch(() => undefined); // handled once every put has settled (above), never an unhandled rejection
        puts.push(put);
        const size = parts.reduce((sum, part) => sum + part.length, 0);
        dataSize += size;
        // Index files are built from the segment's own rows, beside it (storage/ann, storage/inverted).
        const indexes = annIndexes.length === 0 ? [] : await buildSegmentAnnIndexes(store, annIndexes, data, end - start, key, written.objectKeys, options.annMinSegmentRows);
        if (invertedIndexes.length > 0) indexes.push(...(await buildSegmentInvertedIndexes(store, invertedIndexes, data, key, written.objectKeys)));
        indexes.push(...(await buildSegmentPrimaryKeyIndex(store, schema, data, end - start, key, written.objectKeys)));
        segments.push(indexes.length === 0 ? { key, numRows: end - start, size } : { key, numRows: end - start, size, indexes });
      }
      nextSegmentIdx?.set(tablet.id, firstSegmentIdx + segments.length);
      written.rowsets.push({ tabletId: tablet.id, tableId: schema.id, segments, numRows: prepared.length, dataSize });
    }
  }
}
