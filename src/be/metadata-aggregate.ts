/**
 * COUNT / MIN / MAX over a whole table answered from metadata, as Doris answers them from tablet row counts
 * and segment zone maps: COUNT(*) is the rowsets' row counts minus the delete bitmap's cardinality, no
 * segment opened; COUNT(column) subtracts the pages' null counts and MIN / MAX take the pages' zone-map
 * bounds, which read each segment's column index but no data page.
 *
 * Only where the answer is exact: never under a merging model (merge-on-read UNIQUE, AGGREGATE: a stored row
 * may be superseded) nor with DELETE predicates (their rows are known only by reading values); MIN / MAX
 * and COUNT(column) also need no deleted row in the table (a zone map still counts a deleted row), a fixed-
 * width column (string bounds are truncated) and a bound on every page holding a value (a NaN page has none).
 */
import type { RawValue } from '../common/column';
import type { ProfileSink } from '../common/profile';
import { compareRawValues } from '../common/row-order';
import { physicalKind } from '../common/types';
import type { MetadataAggregateCall } from '../exec/context';
import type { TableState } from '../meta/catalog';
import { DeleteBitmap } from '../meta/delete-bitmap';
import type { RowsetRecord, SegmentRecord, TabletRecord } from '../meta/meta-store';
import { findColumn } from '../meta/schema';
import type { SegmentReader } from '../storage/segment-reader';

export interface MetadataScope {
  readonly table: TableState;
  /** Whether the model merges rows on read (then nothing is answered). */
  readonly merging: boolean;
  /** The tablets the query reads. */
  readonly tablets: readonly TabletRecord[];
  openSegment(segment: SegmentRecord, profile: ProfileSink): Promise<SegmentReader>;
}

/** One column's answer so far: non-null values counted, and the smallest / largest bound seen. */
interface ColumnFacts {
  values: number;
  min: RawValue;
  max: RawValue;
}

/** The calls' answers in order, or null when metadata cannot answer every one of them exactly. */
export async function metadataAggregates(scope: MetadataScope, calls: readonly MetadataAggregateCall[], profile: ProfileSink): Promise<RawValue[] | null> {
  const { table } = scope;
  if (scope.merging || (table.deletePredicates?.length ?? 0) > 0) return null;
  const bitmap = table.deleteBitmap ?? DeleteBitmap.EMPTY;
  const tabletIds = new Set(scope.tablets.map((tablet) => tablet.id));
  const rowsets = table.rowsets.filter((rowset) => tabletIds.has(rowset.tabletId));
  const visibleRows = rowsets.reduce((sum, rowset) => sum + rowset.numRows - bitmap.deletedInRowset(rowset.id), 0);
  // COUNT of a NOT NULL column is COUNT(*).
  const rowCount = (call: MetadataAggregateCall): boolean => call.column === null || (call.fn === 'count' && findColumn(table.schema, call.column)?.nullable === false);
  const columns = [...new Set(calls.flatMap((call) => (rowCount(call) ? [] : [call.column!])))];
  const facts = new Map<string, ColumnFacts>();
  if (columns.length > 0) {
    if (rowsets.some((rowset) => bitmap.deletedInRowset(rowset.id) > 0)) return null;
    for (const name of columns) {
      const column = findColumn(table.schema, name);
      if (column === undefined) return null;
      const kind = physicalKind(column.type);
      if (kind === 'string' || kind === 'list' || kind === 'struct') return null;
      const answer = await columnFacts(scope, rowsets, column.name, column.uniqueId, profile);
      if (answer === null) return null;
      facts.set(name, answer);
    }
  }
  profile.add('MetadataAggregates', calls.length);
  return calls.map((call) => {
    if (rowCount(call)) return visibleRows;
    const answer = facts.get(call.column!)!;
    if (call.fn === 'count') return answer.values;
    return answer.values === 0 ? null : call.fn === 'min' ? answer.min : answer.max;
  });
}

/** Non-null count and bounds of one column over every segment of the rowsets; null when a page has no usable bound. */
async function columnFacts(scope: MetadataScope, rowsets: readonly RowsetRecord[], name: string, uniqueId: number, profile: ProfileSink): Promise<ColumnFacts | null> {
  const facts: ColumnFacts = { values: 0, min: null, max: null };
  for (const rowset of rowsets) {
    for (const segment of rowset.segments) {
      if (segment.numRows === 0) continue;
      const reader = await scope.openSegment(segment, profile);
      // A segment written before the column was added holds its default, which no zone map describes.
      if (!reader.columns.some((stored) => stored.uniqueId === uniqueId && stored.name === name)) return null;
      for (const page of await reader.zoneMaps(name, profile)) {
        const values = page.rowCount - page.nullCount;
        if (values === 0) continue;
        if (page.min === null || page.max === null) return null;
        if (facts.values === 0 || compareRawValues(page.min, facts.min) < 0) facts.min = page.min;
        if (facts.values === 0 || compareRawValues(page.max, facts.max) > 0) facts.max = page.max;
        facts.values += values;
      }
    }
  }
  return facts;
}
