/**
 * Reading a segment's columns for a set of row ranges, shared by the index-driven per-segment paths (ANN
 * search, inverted-index filter): a column added after the segment was written reads as its default.
 */
import { constantVector, type Vector } from '../common/column';
import type { ProfileSink } from '../common/profile';
import { missingColumnValue, type ColumnSchema } from '../meta/schema';
import type { RowRanges } from '../storage/row-ranges';
import type { SegmentReader } from '../storage/segment-reader';

/** Whether the segment stores `column` (the same column, not a dropped one of that name). */
export const storedColumn = (reader: SegmentReader, column: ColumnSchema): boolean => reader.columns.some((candidate) => candidate.uniqueId === column.uniqueId && candidate.name === column.name);

/**
 * Ranges this scattered (many short runs: an index answer, ANN hits) are read as one compact vector per
 * column: a piece per run would make every batch above a run of a row or two.
 */
function scattered(ranges: RowRanges | null, rowCount: number): boolean {
  return ranges !== null && ranges.rangeCount > 64 && ranges.rangeCount * 16 > rowCount;
}

/**
 * Each column's values at `ranges` (all rows when null; `rowCount` rows) as consecutive pieces
 * (SegmentReader.readColumnParts), or one concatenated piece when the ranges are scattered.
 */
export async function readColumns(reader: SegmentReader, columns: readonly ColumnSchema[], ranges: RowRanges | null, rowCount: number, profile: ProfileSink): Promise<Vector[][]> {
  const compact = scattered(ranges, rowCount);
  // Every column's pages at once: over an object store a cold read waits one round trip, not one per column.
  return Promise.all(
    columns.map(async (column): Promise<Vector[]> => {
      if (!storedColumn(reader, column)) return [constantVector(column.type, missingColumnValue(column), rowCount)]; // added after this segment was written
      if (compact) return [await reader.readColumn(column.name, ranges, profile)];
      return reader.readColumnParts(column.name, ranges, profile);
    }),
  );
}

/** The ascending row ordinals of `ranges`. */
export function rowsOf(ranges: RowRanges): Int32Array {
  const out = new Int32Array(ranges.count());
  let pos = 0;
  for (let rangeIdx = 0; rangeIdx < ranges.rangeCount; rangeIdx++) for (let row = ranges.start(rangeIdx); row < ranges.end(rangeIdx); row++) out[pos++] = row;
  return out;
}
