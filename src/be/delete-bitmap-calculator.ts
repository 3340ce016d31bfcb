/**
 * Merge-on-write for UNIQUE KEY tables: finds, for rows being published, the visible rows with the same
 * key in the same tablet, and decides which of the two stays visible (the newer one, or with a sequence
 * column the one with the larger sequence value). The catalog calls computeDeleteBitmaps under the
 * table's publish lock; DELETE and partial column updates use the same key lookup.
 *
 * Invariant this relies on and keeps: within a tablet, each key has at most one visible row (a row not in
 * the delete bitmap) over all visible rowsets. Segments are sorted by key (the memtable sorts them), so a
 * lookup is a merge of two sorted key lists. Whole segments are skipped by the zone maps of the first key
 * column (a load of new keys usually touches none), and a probe of few distinct leading keys narrows the
 * rows read further through the short-key index. Segments with a primary-key index (every segment written
 * since it exists) are not read at all: each key probes the index's range, bloom filter and one key page
 * (primary-key-index.ts), so a publish costs a bloom probe per segment and key, never the bytes stored.
 */
import { Batch, getRaw, RawValue, takeRows, toPlainStrings, Vector, VectorBuilder } from '../common/column';
import { compareBytes } from '../common/bytes';
import { GaleneError } from '../common/errors';
import { compareRawValues, sortPermutation } from '../common/row-order';
import { isStringType, physicalKind, type PhysicalKind } from '../common/types';
import type { ObjectStore } from '../io/object-store';
import { tabletPositionsOfRows } from '../storage/partitions';
import { writeTableRows, type TableWriteOptions } from '../load/table-writer';
import type { MergeOnWriteStorage, PartialUpdate, TableState } from '../meta/catalog';
import { BitmapDelta, containsRowId, DeleteBitmap, PendingBitmapDelta, sequenceColumnName, sortedUniqueRowIds } from '../meta/delete-bitmap';
import { segmentObjectKeys, type NewRowset, type SegmentRecord } from '../meta/meta-store';
import { ColumnSchema, findColumn } from '../meta/schema';
import { RowRanges } from '../storage/row-ranges';
import type { ScanPredicate } from '../common/scan-predicate';
import type { SegmentReader } from '../storage/segment-reader';
import { encodeKeys, type EncodedKeys } from '../storage/primary-key-index';
import { primaryKeyIndexRecord } from '../storage/primary-key-index-segment';
import type { SegmentOpener } from './olap-table-source';

/** Probes with at most this many distinct leading-key values use an IN predicate (short-key index lookups). */
const MAX_IN_PROBE_VALUES = 256;

const NO_PROFILE = { add: (): void => undefined };

/** A segment taking part in a lookup: an existing rowset's, or one of a rowset being published. */
interface SegmentRef {
  readonly owner: { readonly rowsetId: number } | { readonly newRowsetIdx: number };
  readonly segment: number;
  readonly record: SegmentRecord;
}

const refKey = (ref: SegmentRef): string => ('rowsetId' in ref.owner ? `r${ref.owner.rowsetId}` : `n${ref.owner.newRowsetIdx}`) + `/${ref.segment}`;

/** The rows deleted so far during one computation: the table's bitmap plus what this computation adds. */
class WorkingDeletes {
  private readonly added = new Map<string, { ref: SegmentRef; rowIds: number[]; set: Set<number> }>();

  constructor(private readonly base: DeleteBitmap) {}

  isDeleted(ref: SegmentRef, rowId: number): boolean {
    if ('rowsetId' in ref.owner && containsRowId(this.base.get(ref.owner.rowsetId, ref.segment), rowId)) return true;
    return this.added.get(refKey(ref))?.set.has(rowId) ?? false;
  }

  deletedCount(ref: SegmentRef): number {
    const base = 'rowsetId' in ref.owner ? this.base.get(ref.owner.rowsetId, ref.segment).length : 0;
    return base + (this.added.get(refKey(ref))?.rowIds.length ?? 0);
  }

  add(ref: SegmentRef, rowId: number): void {
    const key = refKey(ref);
    let entry = this.added.get(key);
    if (!entry) {
      entry = { ref, rowIds: [], set: new Set() };
      this.added.set(key, entry);
    }
    if (!entry.set.has(rowId)) {
      entry.set.add(rowId);
      entry.rowIds.push(rowId);
    }
  }

  get addedCount(): number {
    let total = 0;
    for (const entry of this.added.values()) total += entry.rowIds.length;
    return total;
  }

  deltas(): PendingBitmapDelta[] {
    return [...this.added.values()].map(({ ref, rowIds }) => ({ ...ref.owner, segment: ref.segment, rowIds: sortedUniqueRowIds(rowIds) }));
  }
}

/** Sorted key columns (and optionally sequence values) of rows to look up. */
interface Probe {
  readonly length: number;
  /** Key columns in key order; strings in plain (offsets + bytes) form. */
  readonly keys: readonly Vector[];
  readonly sequence: Vector | null;
  /** Lowest and highest non-null leading key, whether a leading key is NULL, the distinct leading keys when few. */
  readonly firstKeyMin: RawValue;
  readonly firstKeyMax: RawValue;
  readonly firstKeyHasNull: boolean;
  readonly firstKeyValues: RawValue[] | null;
  /** The keys encoded for primary-key index lookups (primary-key-index.ts), made on first use. */
  encoded?: EncodedKeys;
}

/** Comparator of row `probeRow` of one key list with row `otherRow` of another, both sorted the memtable's way. */
type CrossComparator = (probeRow: number, otherRow: number) => number;

/** Ascending, NULLs first — the memtable's order (row-order.ts). String vectors must be plain. */
function crossColumnComparator(left: Vector, right: Vector): CrossComparator {
  let compareValues: CrossComparator;
  if (left.kind === 'string' && right.kind === 'string') {
    const { offsets: offsetsA, bytes: bytesA } = left;
    const { offsets: offsetsB, bytes: bytesB } = right;
    compareValues = (rowA, rowB) => compareBytes(bytesA, offsetsA[rowA], offsetsA[rowA + 1], bytesB, offsetsB[rowB], offsetsB[rowB + 1]);
  } else if ((left.kind === 'fixed' || left.kind === 'object') && (right.kind === 'fixed' || right.kind === 'object')) {
    const valuesA = left.values as ArrayLike<number | bigint>;
    const valuesB = right.values as ArrayLike<number | bigint>;
    compareValues = (rowA, rowB) => (valuesA[rowA] < valuesB[rowB] ? -1 : valuesA[rowA] > valuesB[rowB] ? 1 : 0);
  } else {
    compareValues = (rowA, rowB) => compareRawValues(getRaw(left, rowA), getRaw(right, rowB));
  }
  const nullsA = left.nulls;
  const nullsB = right.nulls;
  if (nullsA === null && nullsB === null) return compareValues;
  return (rowA, rowB) => {
    const nullA = nullsA !== null && nullsA[rowA] === 1;
    const nullB = nullsB !== null && nullsB[rowB] === 1;
    if (nullA || nullB) return nullA === nullB ? 0 : nullA ? -1 : 1;
    return compareValues(rowA, rowB);
  };
}

function crossComparator(probe: readonly Vector[], other: readonly Vector[]): CrossComparator {
  const comparators = probe.map((vec, keyIdx) => crossColumnComparator(vec, other[keyIdx]));
  if (comparators.length === 1) return comparators[0];
  return (probeRow, otherRow) => {
    for (let keyIdx = 0; keyIdx < comparators.length; keyIdx++) {
      const diff = comparators[keyIdx](probeRow, otherRow);
      if (diff !== 0) return diff;
    }
    return 0;
  };
}

/** Plain form for string key columns (dictionary pages and memtable strings compare byte-wise). */
function keyForm(column: ColumnSchema, vec: Vector): Vector {
  return isStringType(column.type) ? toPlainStrings(vec) : vec;
}

/** Row ids of a RowRanges, ascending. */
function rowIdsOf(ranges: RowRanges): Int32Array {
  const out = new Int32Array(ranges.count());
  let pos = 0;
  for (let rangeIdx = 0; rangeIdx < ranges.rangeCount; rangeIdx++) {
    for (let rowId = ranges.start(rangeIdx); rowId < ranges.end(rangeIdx); rowId++) out[pos++] = rowId;
  }
  return out;
}

/** A visible row found for a probe row. */
interface Located {
  readonly ref: SegmentRef;
  readonly rowId: number;
  readonly probeRow: number;
}

/** What the engine needs of the BE: segment readers, and the object store for partial-update rewrites. */
export interface MergeOnWriteHost extends SegmentOpener {
  readonly store: ObjectStore;
  /** Settings of segment writes (ann_index_build_min_segment_rows). */
  readonly writeOptions?: TableWriteOptions;
  deleteObjects(keys: readonly string[]): Promise<void>;
}

export class MergeOnWriteEngine implements MergeOnWriteStorage {
  constructor(private readonly opener: MergeOnWriteHost) {}

  deleteObjects(keys: readonly string[]): Promise<void> {
    return this.opener.deleteObjects(keys);
  }

  /**
   * Partial update at publish (the caller holds the table's lock): for each new segment, the rows whose
   * key's visible row lives in a rowset newer than `partial.readVersion` — written by a load published
   * after this one filled its missing columns — take those columns from that row; a segment with such
   * rows is written again (same rows, same order) under `refreshId`. Keys only in older rowsets keep the
   * values they were filled with, which are still the visible ones.
   */
  async refreshPartialColumns(table: TableState, rowsets: readonly NewRowset[], rowsetIdxs: readonly number[], partial: PartialUpdate, refreshId: number): Promise<{ rowsets: NewRowset[]; written: string[]; retired: string[] }> {
    const schema = table.schema;
    const out = [...rowsets];
    const written: string[] = [];
    const retired: string[] = [];
    for (const newIdx of rowsetIdxs) {
      const rowset = rowsets[newIdx];
      const tablet = table.tablets.find((candidate) => candidate.id === rowset.tabletId);
      const newer = table.rowsets.filter((existing) => existing.tabletId === rowset.tabletId && existing.version > partial.readVersion);
      if (tablet === undefined || newer.length === 0) continue;
      // Only the newer rowsets are searched: a key's visible row found there is the one to read again.
      const recent: TableState = { ...table, tablets: [tablet], rowsets: newer };
      const nextSegmentIdx = new Map<number, number>();
      const segments: SegmentRecord[] = [];
      let dataSize = 0;
      let changed = false;
      for (const record of rowset.segments) {
        const reader = await this.opener.openSegment(record, NO_PROFILE);
        const columns: Vector[] = [];
        for (const column of schema.columns) columns.push(await reader.readColumn(column.name, null, NO_PROFILE));
        const batch: Batch = { length: reader.numRows, columns };
        const filled = await this.fillPartialColumns(recent, batch, partial.givenColumns);
        if (filled === batch) {
          segments.push(record);
          dataSize += record.size;
          nextSegmentIdx.set(tablet.id, (nextSegmentIdx.get(tablet.id) ?? 0) + 1);
          continue;
        }
        changed = true;
        const rewrite = await writeTableRows(this.opener.store, recent, filled, refreshId, nextSegmentIdx, undefined, this.opener.writeOptions);
        written.push(...rewrite.objectKeys);
        retired.push(...segmentObjectKeys(record)); // the segment and its index files
        for (const part of rewrite.rowsets) {
          segments.push(...part.segments);
          dataSize += part.dataSize;
        }
      }
      if (changed) out[newIdx] = { ...rowset, segments, dataSize };
    }
    return { rowsets: out, written, retired };
  }

  /**
   * Delete bitmap deltas for publishing `rowsets[rowsetIdxs]` (rowsets of `table`, one per tablet): each
   * new row hides the visible row of its key in older rowsets and earlier segments of the same load — or,
   * with a sequence column, the new row is the one hidden when its sequence value is smaller.
   */
  async computeDeleteBitmaps(table: TableState, rowsets: readonly NewRowset[], rowsetIdxs: readonly number[]): Promise<PendingBitmapDelta[]> {
    const schema = table.schema;
    const keyColumns = schema.keyColumns.map((name) => findColumn(schema, name)!);
    const seqName = sequenceColumnName(schema);
    const working = new WorkingDeletes(table.deleteBitmap ?? DeleteBitmap.EMPTY);
    for (const newIdx of rowsetIdxs) {
      const rowset = rowsets[newIdx];
      const candidates: SegmentRef[] = [];
      for (const existing of table.rowsets) {
        if (existing.tabletId !== rowset.tabletId) continue;
        existing.segments.forEach((record, segment) => candidates.push({ owner: { rowsetId: existing.id }, segment, record }));
      }
      for (let segment = 0; segment < rowset.segments.length; segment++) {
        const ref: SegmentRef = { owner: { newRowsetIdx: newIdx }, segment, record: rowset.segments[segment] };
        const live = candidates.filter((candidate) => working.deletedCount(candidate) < candidate.record.numRows);
        if (live.length > 0) {
          const reader = await this.opener.openSegment(ref.record, NO_PROFILE);
          // Segments with a primary-key index are probed key by key; the others pruned by zone maps first.
          const unindexed = live.filter((candidate) => !this.hasPrimaryKeyIndex(candidate));
          const pruned = new Set(unindexed.length === 0 ? [] : await this.overlappingSegments(unindexed, reader, keyColumns[0]));
          const overlapping = live.filter((candidate) => pruned.has(candidate) || this.hasPrimaryKeyIndex(candidate));
          if (overlapping.length > 0) {
            const probe = await this.readProbe(reader, keyColumns, seqName);
            await this.resolve(ref, probe, overlapping, keyColumns, seqName, working);
          }
        }
        candidates.push(ref);
      }
    }
    return working.deltas();
  }

  /**
   * Delete bitmap deltas hiding the visible rows whose keys are `keys` (key columns in key order, any
   * order of rows, keys need not exist). For DELETE on a merge-on-write table; the caller holds the lock.
   */
  async deleteKeys(table: TableState, keys: readonly Vector[], length: number): Promise<{ bitmaps: BitmapDelta[]; deletedRows: number }> {
    const found = await this.locate(table, keys, length);
    const working = new WorkingDeletes(DeleteBitmap.EMPTY);
    for (const { ref, rowId } of found) working.add(ref, rowId);
    return { bitmaps: working.deltas() as BitmapDelta[], deletedRows: working.addedCount };
  }

  /**
   * Partial column update: `batch` holds full rows in schema order where only the columns in `given`
   * carry loaded values; every other column of a row whose key has a visible row is filled from that row
   * (new keys keep the defaults the batch already holds).
   */
  async fillPartialColumns(table: TableState, batch: Batch, given: ReadonlySet<string>): Promise<Batch> {
    const schema = table.schema;
    const missing = schema.columns.map((column, colIdx) => ({ column, colIdx })).filter(({ column }) => !column.isKey && !given.has(column.name.toLowerCase()));
    if (missing.length === 0 || batch.length === 0) return batch;
    const keyIdxs = schema.keyColumns.map((name) => schema.columns.findIndex((column) => column.name === name));
    const found = await this.locate(table, keyIdxs.map((colIdx) => batch.columns[colIdx]), batch.length);
    if (found.length === 0) return batch;
    // Per segment: which batch rows take which stored rows.
    const bySegment = new Map<string, { ref: SegmentRef; rowIds: number[]; batchRows: number[] }>();
    for (const { ref, rowId, probeRow } of found) {
      const key = refKey(ref);
      let entry = bySegment.get(key);
      if (!entry) {
        entry = { ref, rowIds: [], batchRows: [] };
        bySegment.set(key, entry);
      }
      entry.rowIds.push(rowId);
      entry.batchRows.push(probeRow);
    }
    const fills = missing.map(() => new Map<number, RawValue>());
    for (const { ref, rowIds, batchRows } of bySegment.values()) {
      const reader = await this.opener.openSegment(ref.record, NO_PROFILE);
      for (let missIdx = 0; missIdx < missing.length; missIdx++) {
        const { column } = missing[missIdx];
        const stored = reader.columns.some((candidate) => candidate.uniqueId === column.uniqueId && candidate.name === column.name);
        const values = stored ? await reader.readRows(column.name, Int32Array.from(rowIds), NO_PROFILE) : null;
        for (let pos = 0; pos < batchRows.length; pos++) fills[missIdx].set(batchRows[pos], values === null ? null : getRaw(values, pos));
      }
    }
    const columns = [...batch.columns];
    missing.forEach(({ column, colIdx }, missIdx) => {
      const builder = new VectorBuilder(column.type, batch.length);
      const fill = fills[missIdx];
      const current = batch.columns[colIdx];
      for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) builder.append(fill.has(rowIdx) ? fill.get(rowIdx)! : getRaw(current, rowIdx));
      columns[colIdx] = builder.finish();
    });
    return { length: batch.length, columns };
  }

  /** The visible rows (per tablet, by bucket) with the keys of `keys`; probeRow indexes `keys`. */
  private async locate(table: TableState, keys: readonly Vector[], length: number): Promise<Located[]> {
    const schema = table.schema;
    const keyColumns = schema.keyColumns.map((name) => findColumn(schema, name)!);
    const keyVector = (name: string): Vector => {
      const vec = keys[schema.keyColumns.findIndex((key) => key.toLowerCase() === name.toLowerCase())];
      if (vec === undefined) throw new GaleneError('INTERNAL', [`distribution or partition column ${name} of ${schema.name} is not a key column`]);
      return vec;
    };
    const buckets = tabletPositionsOfRows(table, keyVector, length);
    const bitmap = table.deleteBitmap ?? DeleteBitmap.EMPTY;
    const working = new WorkingDeletes(bitmap);
    const out: Located[] = [];
    for (let bucket = 0; bucket < table.tablets.length; bucket++) {
      const tablet = table.tablets[bucket];
      const rows: number[] = [];
      for (let rowIdx = 0; rowIdx < length; rowIdx++) if (buckets[rowIdx] === bucket) rows.push(rowIdx);
      if (rows.length === 0) continue;
      const candidates: SegmentRef[] = [];
      for (const rowset of table.rowsets) {
        if (rowset.tabletId !== tablet.id) continue;
        rowset.segments.forEach((record, segment) => {
          const ref: SegmentRef = { owner: { rowsetId: rowset.id }, segment, record };
          if (working.deletedCount(ref) < record.numRows) candidates.push(ref);
        });
      }
      if (candidates.length === 0) continue;
      const tabletKeys = keys.map((vec) => takeRows(vec, rows));
      const order = sortPermutation(rows.length, tabletKeys.map((vector) => ({ vector, descending: false, nullsFirst: true })));
      const sortedKeys = tabletKeys.map((vec, keyIdx) => keyForm(keyColumns[keyIdx], takeRows(vec, order)));
      const probe = probeOf(sortedKeys, null);
      for (const ref of candidates) {
        await this.matchSegment(ref, probe, keyColumns, working, (probeRow, rowId) => out.push({ ref, rowId, probeRow: rows[order[probeRow]] }));
      }
    }
    return out;
  }

  private hasPrimaryKeyIndex(ref: SegmentRef): boolean {
    return this.opener.openPrimaryKeyIndex !== undefined && primaryKeyIndexRecord(ref.record) !== undefined;
  }

  /**
   * Row id in `ref` of each probe key (-1: absent) through the segment's primary-key index; null when the
   * segment has none (written before it existed) or its keys were encoded from other column types.
   */
  private async lookupPrimaryKeys(ref: SegmentRef, probe: Probe, keyColumns: readonly ColumnSchema[]): Promise<Int32Array | null> {
    const record = primaryKeyIndexRecord(ref.record);
    const open = this.opener.openPrimaryKeyIndex;
    if (record === undefined || open === undefined) return null;
    const index = await open.call(this.opener, record, NO_PROFILE);
    const kinds: PhysicalKind[] = keyColumns.map((column) => physicalKind(column.type));
    if (!index.matchesKinds(kinds) || index.numRows !== ref.record.numRows) return null;
    probe.encoded ??= encodeKeys(probe.keys, kinds, probe.length);
    return index.lookup(probe.encoded, NO_PROFILE);
  }

  /** Candidates whose leading-key zone maps overlap the new segment's leading-key range. */
  private async overlappingSegments(candidates: readonly SegmentRef[], reader: SegmentReader, firstKey: ColumnSchema): Promise<SegmentRef[]> {
    const zones = await reader.zoneMaps(firstKey.name, NO_PROFILE);
    let min: RawValue = null;
    let max: RawValue = null;
    let hasNull = false;
    for (const zone of zones) {
      if (zone.nullCount > 0) hasNull = true;
      if (zone.allNull) continue;
      if (min === null || compareRawValues(zone.min, min) < 0) min = zone.min;
      if (max === null || compareRawValues(zone.max, max) > 0) max = zone.max;
    }
    const predicates: ScanPredicate[] = [];
    if (!hasNull && min !== null && max !== null) predicates.push({ column: firstKey.name, op: '>=', value: min }, { column: firstKey.name, op: '<=', value: max });
    if (predicates.length === 0) return [...candidates];
    const out: SegmentRef[] = [];
    for (const ref of candidates) {
      const candidate = await this.opener.openSegment(ref.record, NO_PROFILE);
      if (!(await candidate.pruneRows(predicates, NO_PROFILE)).isEmpty()) out.push(ref);
    }
    return out;
  }

  private async readProbe(reader: SegmentReader, keyColumns: readonly ColumnSchema[], seqName: string | null): Promise<Probe> {
    const keys: Vector[] = [];
    for (const column of keyColumns) keys.push(keyForm(column, await reader.readColumn(column.name, null, NO_PROFILE)));
    const sequence = seqName !== null ? await reader.readColumn(seqName, null, NO_PROFILE) : null;
    return probeOf(keys, sequence);
  }

  /**
   * Match the new segment `ref` (its keys in `probe`) against `others`: for each key present in both
   * with both rows visible, hide one of them.
   */
  private async resolve(ref: SegmentRef, probe: Probe, others: readonly SegmentRef[], keyColumns: readonly ColumnSchema[], seqName: string | null, working: WorkingDeletes): Promise<void> {
    for (const other of others) {
      const matches: { probeRow: number; rowId: number }[] = [];
      await this.matchSegment(other, probe, keyColumns, working, (probeRow, rowId) => {
        if (!working.isDeleted(ref, probeRow)) matches.push({ probeRow, rowId });
      });
      if (matches.length === 0) continue;
      if (seqName === null || probe.sequence === null) {
        for (const { rowId } of matches) working.add(other, rowId);
        continue;
      }
      const reader = await this.opener.openSegment(other.record, NO_PROFILE);
      const stored = reader.columns.some((column) => column.name === seqName);
      const oldSeq = stored ? await reader.readRows(seqName, Int32Array.from(matches, (match) => match.rowId), NO_PROFILE) : null;
      matches.forEach(({ probeRow, rowId }, matchIdx) => {
        // The new row wins ties: a load with the same sequence value replaces (Doris: >=).
        const newer = compareRawValues(getRaw(probe.sequence!, probeRow), oldSeq === null ? null : getRaw(oldSeq, matchIdx)) >= 0;
        if (newer) working.add(other, rowId);
        else working.add(ref, probeRow);
      });
    }
  }

  /** Calls onMatch(probeRow, rowId) for each visible row of `ref` whose key is in the probe. */
  private async matchSegment(ref: SegmentRef, probe: Probe, keyColumns: readonly ColumnSchema[], working: WorkingDeletes, onMatch: (probeRow: number, rowId: number) => void): Promise<void> {
    if (probe.length === 0) return;
    const found = await this.lookupPrimaryKeys(ref, probe, keyColumns);
    if (found !== null) {
      for (let probeRow = 0; probeRow < probe.length; probeRow++) {
        const rowId = found[probeRow];
        if (rowId >= 0 && !working.isDeleted(ref, rowId)) onMatch(probeRow, rowId);
      }
      return;
    }
    const reader = await this.opener.openSegment(ref.record, NO_PROFILE);
    const first = keyColumns[0].name;
    let predicates: ScanPredicate[] = [];
    if (!probe.firstKeyHasNull && probe.firstKeyMin !== null) {
      predicates =
        probe.firstKeyValues !== null
          ? [{ column: first, op: 'in', values: probe.firstKeyValues }]
          : [
              { column: first, op: '>=', value: probe.firstKeyMin },
              { column: first, op: '<=', value: probe.firstKeyMax },
            ];
    }
    const ranges = predicates.length > 0 ? await reader.pruneRows(predicates, NO_PROFILE) : RowRanges.all(reader.numRows);
    if (ranges.isEmpty()) return;
    const stored: Vector[] = [];
    for (const column of keyColumns) stored.push(keyForm(column, await reader.readColumn(column.name, ranges, NO_PROFILE)));
    const rowIds = rowIdsOf(ranges);
    const compare = crossComparator(probe.keys, stored);
    let probeRow = 0;
    let pos = 0;
    while (probeRow < probe.length && pos < rowIds.length) {
      const diff = compare(probeRow, pos);
      if (diff < 0) probeRow++;
      else if (diff > 0) pos++;
      else {
        if (!working.isDeleted(ref, rowIds[pos])) onMatch(probeRow, rowIds[pos]);
        // Keys are unique among a segment's rows; a probe may repeat a key (a partial update's rows).
        probeRow++;
      }
    }
  }
}

/** A probe over sorted key columns. */
function probeOf(keys: readonly Vector[], sequence: Vector | null): Probe {
  const length = keys[0]?.length ?? 0;
  const first = keys[0];
  let firstKeyMin: RawValue = null;
  let firstKeyMax: RawValue = null;
  let firstKeyHasNull = false;
  const distinct: RawValue[] = [];
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    const value = getRaw(first, rowIdx);
    if (value === null) {
      firstKeyHasNull = true;
      continue;
    }
    if (firstKeyMin === null) firstKeyMin = value;
    firstKeyMax = value; // sorted ascending
    if (distinct.length <= MAX_IN_PROBE_VALUES && (distinct.length === 0 || distinct[distinct.length - 1] !== value)) distinct.push(value);
  }
  return { length, keys, sequence, firstKeyMin, firstKeyMax, firstKeyHasNull, firstKeyValues: distinct.length <= MAX_IN_PROBE_VALUES ? distinct : null };
}
