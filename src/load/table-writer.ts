/**
 * Writing rows of one table as segments: rows (already converted to the column types, in schema order)
 * -> bucket per row -> per tablet: memtable (sort, UNIQUE dedup) -> segment files (+ index files) ->
 * object store. Loads run these steps through the write pipeline (write-pipeline/); writeTableRows runs
 * them at once for one batch. Nothing is visible until the caller commits the transaction, and the caller
 * deletes the written objects if it aborts.
 */
import { Batch, takeNulls, takeRows, Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ObjectPut, ObjectStore } from '../io/object-store';
import { vaultObjectKey } from '../io/vault-object-store';
import { ROW_BINLOG_SEGMENT_MARKER } from '../meta/row-binlog';
import { tableVaultId } from '../meta/storage-vaults';
import type { TableState } from '../meta/catalog';
import type { NewRowset, SegmentIndexRecord, SegmentRecord } from '../meta/meta-store';
import type { TableSchema } from '../meta/schema';
import { flushMemtable } from '../storage/memtable';
import { buildSegmentAnnIndexes, tableAnnIndexes, type TableAnnIndex } from '../storage/ann/segment-ann-indexes';
import { buildSegmentInvertedIndexes, tableInvertedIndexes, type TableInvertedIndex } from '../storage/inverted/segment-inverted-indexes';
import { buildSegmentPrimaryKeyIndex } from '../storage/primary-key-index-segment';
import type { SegmentColumn, SegmentWriteOptions } from '../storage/segment-writer';
import { tabletPositionsOfRows } from '../storage/partitions';

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
  // Change-log segments of a row binlog (meta/row-binlog.ts) sit beside the transaction's data segments.
  const kind = schema.properties[ROW_BINLOG_SEGMENT_MARKER] === 'true' ? 'binlog_' : '';
  return vaultObjectKey(tableVaultId(schema), `data/${tabletId}/${txnId}_${kind}${segmentIdx}.dat`);
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

/** Per-write settings from the BE's config. */
export interface TableWriteOptions {
  /** `ann_index_build_min_segment_rows`: smaller segments get no ANN index file (searched exactly). */
  readonly annMinSegmentRows?: number;
}

/** What every segment write of one table needs, computed once per load. */
export interface TableSegmentContext {
  readonly schema: TableSchema;
  readonly segmentColumns: SegmentColumn[];
  readonly segmentOptions: SegmentWriteOptions;
  readonly annIndexes: TableAnnIndex[];
  readonly invertedIndexes: TableInvertedIndex[];
  readonly options: TableWriteOptions;
}

export function tableSegmentContext(schema: TableSchema, options: TableWriteOptions = {}): TableSegmentContext {
  const segmentColumns = schema.columns.map((column) => ({ name: column.name, type: column.type, uniqueId: column.uniqueId }));
  return {
    schema,
    segmentColumns,
    segmentOptions: { compression: tableCompression(schema), numShortKeyColumns: Math.max(1, Math.min(3, schema.keyColumns.length)) },
    annIndexes: tableAnnIndexes(schema.indexes, segmentColumns.map((column) => column.name)),
    invertedIndexes: tableInvertedIndexes(schema.indexes, segmentColumns),
    options,
  };
}

/**
 * Rows of one table's batch grouped by tablet (tablet position in table.tablets -> row ids of the batch):
 * a partitioned table's rows go to their partition's tablets (storage/partitions.ts). A row no partition
 * holds is an internal error here: the load filtered it before (`no partition for this tuple`).
 */
export function batchRowsByTablet(table: TableState, batch: Batch, txnId: number): Int32Array[] {
  const schema = table.schema;
  // One tablet (compaction's and merge-on-write rewrites' slices of a table): every row is its.
  if (table.tablets.length === 1) return [Int32Array.from({ length: batch.length }, (_, rowIdx) => rowIdx)];
  const columnIndex = new Map(schema.columns.map((column, colIdx) => [column.name.toLowerCase(), colIdx]));
  const positions = tabletPositionsOfRows(table, (name) => batch.columns[columnIndex.get(name.toLowerCase())!], batch.length, txnId);
  if (positions.includes(-1)) throw new GaleneError('INTERNAL', [`a row of ${schema.name} has no partition`]);
  return rowsByBucket(positions, table.tablets.length);
}

/** The batch's columns restricted to `rowIds` (the batch itself when it is all of them). */
export function tabletColumns(batch: Batch, rowIds: Int32Array): Vector[] {
  return rowIds.length === batch.length ? batch.columns : batch.columns.map((column) => gatherRows(column, rowIds));
}

/**
 * Store one encoded segment: `put` writes its file (directly, or through the upload pool), and its index
 * files are built from its rows beside it (storage/ann, storage/inverted, and the primary-key index of merge-on-write tables). Every key is added to
 * `objectKeys` before it is written, so an abort deletes whatever did get written. `upload` settles when
 * the segment file and every index file put through `put` are in the store (a commit waits for it).
 */
export async function storeSegment(ctx: TableSegmentContext, store: ObjectStore, key: string, parts: readonly Uint8Array[], data: readonly Vector[], numRows: number, objectKeys: string[], put: ObjectPut): Promise<{ record: SegmentRecord; upload: Promise<void> }> {
  // Every object of the segment — its data file and each index file built off a local store — leaves
  // through `put` (the upload pool, for loads); `upload` settles once all of them have.
  const uploads: Promise<void>[] = [];
  const enqueue: ObjectPut = (objectKey, objectParts) => {
    const upload = put(objectKey, objectParts);
    upload.catch(() => undefined); // the caller awaits it; never an unhandled rejection meanwhile
    uploads.push(upload);
    return Promise.resolve();
  };
  objectKeys.push(key);
  void enqueue(key, parts);
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  let indexes: SegmentIndexRecord[];
  try {
    indexes = ctx.annIndexes.length === 0 ? [] : await buildSegmentAnnIndexes(store, ctx.annIndexes, data, numRows, key, objectKeys, ctx.options.annMinSegmentRows, enqueue);
    if (ctx.invertedIndexes.length > 0) indexes.push(...(await buildSegmentInvertedIndexes(store, ctx.invertedIndexes, data, key, objectKeys, enqueue)));
    indexes.push(...(await buildSegmentPrimaryKeyIndex(store, ctx.schema, data, numRows, key, objectKeys, enqueue)));
  } catch (err) {
    // An abort deletes objects only once nothing writes them: the puts started so far settle first.
    await Promise.allSettled(uploads);
    throw err;
  }
  // Settles only once every put has (an abort must not delete while one still writes); the first failure rejects it.
  const upload = Promise.allSettled(uploads).then((outcomes) => {
    const rejected = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (rejected) throw rejected.reason;
  });
  upload.catch(() => undefined);
  return { record: indexes.length === 0 ? { key, numRows, size } : { key, numRows, size, indexes }, upload };
}

/**
 * Write a batch of rows of `table` as new segments under transaction `txnId`, on this thread, at once
 * (compaction, merge-on-write rewrites, explicit transactions; loads go through the write pipeline,
 * write-pipeline/load-writer.ts). The batch's columns are the table's columns in schema order, of the
 * schema's types. A caller that writes several times under one transaction passes `nextSegmentIdx`
 * (tablet id -> next free segment index, updated here) so that segment keys of later batches do not
 * overwrite earlier ones.
 */
export async function writeTableRows(store: ObjectStore, table: TableState, batch: Batch, txnId: number, nextSegmentIdx?: Map<number, number>, checkpoint?: () => Promise<void> | undefined, options: TableWriteOptions = {}): Promise<WrittenLoad> {
  const schema = table.schema;
  const ctx = tableSegmentContext(schema, options);
  const groups = batchRowsByTablet(table, batch, txnId);
  const written: WrittenLoad = { rowsets: [], objectKeys: [] };
  // Each put runs while the next tablet is encoded (its fsync overlaps CPU work); all settle before return.
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
    for (let bucket = 0; bucket < groups.length; bucket++) {
      const rowIds = groups[bucket];
      if (rowIds.length === 0) continue;
      // Between tablets: a statement's write side gives the event loop back when its slice is used up.
      const pause = checkpoint?.();
      if (pause !== undefined) await pause;
      const tablet = table.tablets[bucket];
      const flushed = await flushMemtable(tabletColumns(batch, rowIds), rowIds.length, { schema, segmentColumns: ctx.segmentColumns, writeOptions: ctx.segmentOptions, segmentMaxRows: SEGMENT_MAX_ROWS });
      const segments: SegmentRecord[] = [];
      let dataSize = 0;
      let numRows = 0;
      const firstSegmentIdx = nextSegmentIdx?.get(tablet.id) ?? 0;
      for (const [segIdx, segment] of flushed.entries()) {
        const { record, upload } = await storeSegment(ctx, store, segmentKey(schema, tablet.id, txnId, firstSegmentIdx + segIdx), segment.parts, segment.columns, segment.numRows, written.objectKeys, (key, parts) => store.put(key, parts));
        puts.push(upload);
        dataSize += record.size;
        numRows += record.numRows;
        segments.push(record);
      }
      nextSegmentIdx?.set(tablet.id, firstSegmentIdx + segments.length);
      written.rowsets.push({ tabletId: tablet.id, tableId: schema.id, segments, numRows, dataSize });
    }
  }
}
