/**
 * The global row id of an OLAP table's row within one statement's version set: what phase one of a lazily
 * materialized TopN (src/exec/plan/lazy-materialization.ts) carries through the sort, so that phase two
 * can read the other columns of just the final rows (olap-row-fetcher.ts).
 *
 * Encoding: one BIGINT, `segmentOrdinal * 2^32 + rowOrdinal`.
 *   - segmentOrdinal: the segment's position in the snapshot's segment list, ordered by tablet (the
 *     table's tablet order), then rowset (the table state's rowset order, which is version order), then
 *     segment number within the rowset — so it stands for the (tablet, rowset, segment) triple of
 *     Doris's GlobalRowLocation, and, like Doris's per-query file id, it needs no lookup table on the wire.
 *   - rowOrdinal: the row's position in its segment file (before deletes: a deleted row keeps its place).
 * The id means something only for the version set it was made in: the statement's TaskContext opens one
 * source per table (src/fe/session.ts), which both phases read. Little-endian hosts write it as two
 * 32-bit words (low: row, high: segment), without a BigInt per row.
 */
import type { FixedVector } from '../common/column';
import { Types } from '../common/types';
import type { TableState } from '../meta/catalog';
import type { RowsetRecord, SegmentRecord } from '../meta/meta-store';
import type { RowRanges } from '../storage/row-ranges';

/** One segment of a snapshot, at its ordinal. */
export interface SnapshotSegment {
  readonly rowset: RowsetRecord;
  readonly segmentIdx: number;
  readonly segment: SegmentRecord;
}

/** Every segment of the table state, in segment-ordinal order (the order every scan visits them). */
export function snapshotSegments(table: TableState): SnapshotSegment[] {
  const out: SnapshotSegment[] = [];
  for (const tablet of table.tablets) {
    for (const rowset of table.rowsets) {
      if (rowset.tabletId !== tablet.id) continue;
      for (let segmentIdx = 0; segmentIdx < rowset.segments.length; segmentIdx++) out.push({ rowset, segmentIdx, segment: rowset.segments[segmentIdx] });
    }
  }
  return out;
}

/** The global row ids of `ranges` of the segment at `segmentOrdinal`, in row order. */
export function globalRowIdVector(segmentOrdinal: number, ranges: RowRanges | null, numRows: number): FixedVector {
  const count = ranges === null ? numRows : ranges.count();
  const values = new BigInt64Array(count);
  const words = new Uint32Array(values.buffer);
  let pos = 0;
  const fill = (start: number, end: number): void => {
    for (let rowId = start; rowId < end; rowId++, pos++) {
      words[2 * pos] = rowId;
      words[2 * pos + 1] = segmentOrdinal;
    }
  };
  if (ranges === null) fill(0, numRows);
  else for (let rangeIdx = 0; rangeIdx < ranges.rangeCount; rangeIdx++) fill(ranges.start(rangeIdx), ranges.end(rangeIdx));
  return { kind: 'fixed', type: Types.BIGINT, length: count, values, nulls: null };
}

/** Segment ordinal and row ordinal of every id: two parallel arrays. */
export function decodeGlobalRowIds(rowIds: BigInt64Array): { segments: Uint32Array; rows: Int32Array } {
  const words = new Uint32Array(rowIds.buffer, rowIds.byteOffset, rowIds.length * 2);
  const segments = new Uint32Array(rowIds.length);
  const rows = new Int32Array(rowIds.length);
  for (let idx = 0; idx < rowIds.length; idx++) {
    rows[idx] = words[2 * idx];
    segments[idx] = words[2 * idx + 1];
  }
  return { segments, rows };
}
