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

/** Each column's values at `ranges` (`rowCount` rows) as consecutive pieces (SegmentReader.readColumnParts). */
export async function readColumns(reader: SegmentReader, columns: readonly ColumnSchema[], ranges: RowRanges, rowCount: number, profile: ProfileSink): Promise<Vector[][]> {
  const parts: Vector[][] = [];
  for (const column of columns) {
    if (storedColumn(reader, column)) parts.push(await reader.readColumnParts(column.name, ranges, profile));
    else parts.push([constantVector(column.type, missingColumnValue(column), rowCount)]); // added after this segment was written
  }
  return parts;
}

/** The ascending row ordinals of `ranges`. */
export function rowsOf(ranges: RowRanges): Int32Array {
  const out = new Int32Array(ranges.count());
  let pos = 0;
  for (let rangeIdx = 0; rangeIdx < ranges.rangeCount; rangeIdx++) for (let row = ranges.start(rangeIdx); row < ranges.end(rangeIdx); row++) out[pos++] = row;
  return out;
}
