/**
 * Reads a table's rows at one visible version: every tablet's rowsets, segment by segment, through the
 * file cache and page cache, pruned by zone maps and the short-key index, reading only the requested
 * columns. Applies the table model on read: DUPLICATE returns rows as stored; UNIQUE KEY returns the
 * newest row per key (highest version, last within a load); AGGREGATE KEY merges rows per key with each
 * value column's aggregation.
 */
import { Batch, BATCH_SIZE, concatVectors, constantVector, getRaw, RawValue, sliceVector, takeRows, Vector, VectorBuilder } from '../common/column';
import type { ProfileSink } from '../common/profile';
import type { ScanRequest, TableSource } from '../exec/context';
import type { TableState } from '../meta/catalog';
import type { RowsetRecord, SegmentRecord } from '../meta/meta-store';
import { ColumnSchema, findColumn, TableSchema } from '../meta/schema';
import type { ScanPredicate } from '../storage/scan-predicate';
import type { SegmentReader } from '../storage/segment-reader';

/** Opens segment readers (cached by the BE so footers are read once). */
export interface SegmentOpener {
  openSegment(segment: SegmentRecord, profile: ProfileSink): Promise<SegmentReader>;
}

export class OlapTableSource implements TableSource {
  readonly schema: TableSchema;

  constructor(
    private readonly table: TableState,
    private readonly opener: SegmentOpener,
  ) {
    this.schema = table.schema;
  }

  estimatedRowCount(): number {
    return this.table.rowsets.reduce((sum, rowset) => sum + rowset.numRows, 0);
  }

  async *scan(request: ScanRequest): AsyncIterable<Batch> {
    const columns = request.columns.map((name) => findColumn(this.schema, name)!);
    let remaining = request.limit ?? Infinity;
    const rowsetsByTablet = new Map<number, RowsetRecord[]>();
    for (const rowset of this.table.rowsets) {
      const list = rowsetsByTablet.get(rowset.tabletId) ?? [];
      list.push(rowset);
      rowsetsByTablet.set(rowset.tabletId, list);
    }
    const merging = this.schema.keysType !== 'DUPLICATE';
    // Under a merging model a value column's stored rows may be superseded: prune on key columns only.
    const predicates = merging ? request.predicates.filter((predicate) => findColumn(this.schema, predicate.column)?.isKey) : request.predicates;
    for (const tablet of this.table.tablets) {
      const rowsets = rowsetsByTablet.get(tablet.id);
      if (!rowsets) continue;
      const source = merging ? this.mergedTabletBatches(rowsets, columns, predicates, request) : this.duplicateTabletBatches(rowsets, columns, predicates, request);
      for await (const batch of source) {
        if (batch.length >= remaining) {
          yield batch.length === remaining ? batch : { length: remaining, columns: batch.columns.map((vec) => sliceVector(vec, 0, remaining)) };
          return;
        }
        remaining -= batch.length;
        yield batch;
      }
    }
  }

  /** Read `columns` of one segment for the rows that survive pruning. */
  private async readSegment(segment: SegmentRecord, columns: readonly ColumnSchema[], predicates: readonly ScanPredicate[], request: ScanRequest): Promise<Batch | null> {
    const profile = request.profile;
    const reader = await this.opener.openSegment(segment, profile);
    const ranges = predicates.length > 0 ? await reader.pruneRows(predicates, profile) : null;
    const rowCount = ranges ? ranges.count() : reader.numRows;
    profile.add('SegmentsRead', 1);
    if (rowCount === 0) {
      profile.add('SegmentsPruned', 1);
      return null;
    }
    profile.add('RowsRead', rowCount);
    const vectors: Vector[] = [];
    for (const column of columns) {
      if (reader.columns.some((stored) => stored.uniqueId === column.uniqueId && stored.name === column.name)) vectors.push(await reader.readColumn(column.name, ranges, profile));
      else vectors.push(constantVector(column.type, null, rowCount)); // added after this segment was written
    }
    return { length: rowCount, columns: vectors };
  }

  private async *duplicateTabletBatches(rowsets: readonly RowsetRecord[], columns: readonly ColumnSchema[], predicates: readonly ScanPredicate[], request: ScanRequest): AsyncIterable<Batch> {
    for (const rowset of rowsets) {
      for (const segment of rowset.segments) {
        const batch = await this.readSegment(segment, columns, predicates, request);
        if (!batch) continue;
        for (let start = 0; start < batch.length; start += BATCH_SIZE) {
          const end = Math.min(batch.length, start + BATCH_SIZE);
          yield start === 0 && end === batch.length ? batch : { length: end - start, columns: batch.columns.map((vec) => sliceVector(vec, start, end)) };
        }
      }
    }
  }

  /** UNIQUE and AGGREGATE KEY: read keys and requested columns of every rowset, then merge per key. */
  private async *mergedTabletBatches(rowsets: readonly RowsetRecord[], columns: readonly ColumnSchema[], predicates: readonly ScanPredicate[], request: ScanRequest): AsyncIterable<Batch> {
    const keyColumns = this.schema.keyColumns.map((name) => findColumn(this.schema, name)!);
    const readColumns = [...keyColumns, ...columns.filter((column) => !column.isKey)];
    const parts: Batch[] = [];
    for (const rowset of rowsets) {
      for (const segment of rowset.segments) {
        const batch = await this.readSegment(segment, readColumns, predicates, request);
        if (batch) parts.push(batch);
      }
    }
    if (parts.length === 0) return;
    const all: Vector[] = readColumns.map((column, colIdx) => concatVectors(column.type, parts.map((part) => part.columns[colIdx])));
    const length = parts.reduce((sum, part) => sum + part.length, 0);
    // Rows arrive in version order (and load order within a version): the last row of a key is the newest.
    const keyOf = (rowIdx: number): string => {
      let key = '';
      for (let keyIdx = 0; keyIdx < keyColumns.length; keyIdx++) key += String(getRaw(all[keyIdx], rowIdx)) + '\u0001';
      return key;
    };
    const groupOfKey = new Map<string, number>();
    const groupRows: number[][] = [];
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      const key = keyOf(rowIdx);
      let group = groupOfKey.get(key);
      if (group === undefined) {
        group = groupRows.length;
        groupOfKey.set(key, group);
        groupRows.push([]);
      }
      groupRows[group].push(rowIdx);
    }
    const output: Vector[] = columns.map((column) => {
      const vec = all[readColumns.indexOf(column)];
      if (this.schema.keysType === 'UNIQUE' || column.isKey) {
        const lastRows = Int32Array.from(groupRows, (rows) => rows[rows.length - 1]);
        return takeRows(vec, lastRows);
      }
      return aggregateGroups(vec, column, groupRows);
    });
    for (let start = 0; start < groupRows.length; start += BATCH_SIZE) {
      const end = Math.min(groupRows.length, start + BATCH_SIZE);
      yield { length: end - start, columns: output.map((vec) => sliceVector(vec, start, end)) };
    }
  }
}

/** Merge the stored rows of each key with the column's aggregation (AGGREGATE KEY model). */
function aggregateGroups(vec: Vector, column: ColumnSchema, groupRows: readonly number[][]): Vector {
  const builder = new VectorBuilder(column.type, groupRows.length);
  for (const rows of groupRows) {
    let acc: RawValue = null;
    for (const rowIdx of rows) {
      const value = getRaw(vec, rowIdx);
      switch (column.aggregation) {
        case 'SUM':
          if (value !== null) acc = acc === null ? value : typeof acc === 'bigint' || typeof value === 'bigint' ? BigInt(acc) + BigInt(value) : (acc as number) + (value as number);
          break;
        case 'MIN':
          if (value !== null && (acc === null || value < acc)) acc = value;
          break;
        case 'MAX':
          if (value !== null && (acc === null || value > acc)) acc = value;
          break;
        case 'REPLACE_IF_NOT_NULL':
          if (value !== null) acc = value;
          break;
        default: // REPLACE and the sketch aggregations keep the newest value
          acc = value;
      }
    }
    builder.append(acc);
  }
  return builder.finish();
}
