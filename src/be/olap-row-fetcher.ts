/**
 * Phase two of a lazily materialized TopN over an OLAP table (TableSource.fetchRows): the stored columns
 * of the final rows, read by global row id (global-row-id.ts). Rows are grouped by segment; each segment
 * is opened through the same segment readers, page cache and FileCache a scan uses, and each column reads
 * only the pages that hold the wanted rows (SegmentReader.readRows). A bounded number of segments is read
 * at once; the results are put back in request order.
 *
 * Deleted rows are never asked for: phase one's scan already left them out. What phase two reads is
 * counted in the profile twice: in the per-column totals (Column.<name>.RowsRead / BytesRead, both phases)
 * and under MaterializeColumn.<name>.RowsRead / BytesRead (this phase alone), with MaterializedRows and
 * MaterializeSegments.
 */
import { concatVectors, constantVector, takeRows, type Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import { QueryProfile } from '../common/profile';
import type { FetchRequest } from '../exec/context';
import { findColumn, missingColumnValue, type ColumnSchema, type TableSchema } from '../meta/schema';
import { decodeGlobalRowIds, type SnapshotSegment } from './global-row-id';
import type { ProfileSink } from '../common/profile';
import type { SegmentRecord } from '../meta/meta-store';
import type { SegmentReader } from '../storage/segment-reader';

/** What fetching needs of the BE: its cached segment readers (OlapTableSource's SegmentOpener has it). */
export interface RowFetchOpener {
  openSegment(segment: SegmentRecord, profile: ProfileSink): Promise<SegmentReader>;
}

/** Segments read at once: a few dependent round trips each, overlapped (as a scan's read-ahead does). */
const SEGMENTS_AT_ONCE = 16;

interface SegmentRows {
  readonly ordinal: number;
  /** Row ordinals in the segment, ascending. */
  readonly rows: Int32Array;
  /** Request positions of those rows. */
  readonly positions: Int32Array;
}

/** The wanted rows per segment, segments and rows ascending. */
function groupBySegment(rowIds: BigInt64Array): SegmentRows[] {
  const { segments, rows } = decodeGlobalRowIds(rowIds);
  const order = Int32Array.from(rowIds.keys()).sort((left, right) => segments[left] - segments[right] || rows[left] - rows[right]);
  const groups: SegmentRows[] = [];
  let start = 0;
  while (start < order.length) {
    let end = start + 1;
    while (end < order.length && segments[order[end]] === segments[order[start]]) end++;
    const positions = order.slice(start, end);
    groups.push({ ordinal: segments[order[start]], rows: Int32Array.from(positions, (pos) => rows[pos]), positions });
    start = end;
  }
  return groups;
}

/** Add a phase profile's counters and column reads to the statement's, the column reads also per phase. */
function mergePhaseProfile(phase: QueryProfile, into: QueryProfile): void {
  for (const [name, value] of phase.counters) into.add(name, value);
  for (const [column, stats] of phase.columnStats) {
    const total = into.columnStats.get(column);
    if (total) {
      total.rows += stats.rows;
      total.bytes += stats.bytes;
    } else into.columnStats.set(column, { ...stats });
    into.add(`MaterializeColumn.${column}.RowsRead`, stats.rows);
    into.add(`MaterializeColumn.${column}.BytesRead`, stats.bytes);
  }
}

/**
 * The columns of the rows `request.rowIds` of `segments` (the snapshot, by ordinal), one vector per
 * column in request order.
 */
export async function fetchOlapRows(schema: TableSchema, segments: readonly SnapshotSegment[], opener: RowFetchOpener, request: FetchRequest): Promise<Vector[]> {
  const columns: ColumnSchema[] = request.columns.map((name) => {
    const column = findColumn(schema, name);
    if (column === undefined) throw new GaleneError('UNKNOWN_COLUMN', [name, schema.name]);
    return column;
  });
  const groups = groupBySegment(request.rowIds);
  const phase = new QueryProfile(request.profile.queryId, '', '', '');
  const pieces: Vector[][] = columns.map(() => []);
  const positions: Int32Array[] = [];
  const readGroup = async (group: SegmentRows): Promise<Vector[]> => {
    const snapshot = segments[group.ordinal];
    if (snapshot === undefined) throw new GaleneError('INTERNAL', [`global row id names segment ${group.ordinal} of ${segments.length}`]);
    const reader = await opener.openSegment(snapshot.segment, phase);
    const out: Vector[] = [];
    for (const column of columns) {
      const stored = reader.columns.some((candidate) => candidate.uniqueId === column.uniqueId && candidate.name === column.name);
      // A column added after this segment was written reads as its default, as a scan does.
      out.push(stored ? await reader.readRows(column.name, group.rows, phase) : constantVector(column.type, missingColumnValue(column), group.rows.length));
    }
    return out;
  };
  for (let start = 0; start < groups.length; start += SEGMENTS_AT_ONCE) {
    const chunk = groups.slice(start, start + SEGMENTS_AT_ONCE);
    const read = await Promise.all(chunk.map(readGroup));
    read.forEach((vectors, chunkIdx) => {
      vectors.forEach((vec, colIdx) => pieces[colIdx].push(vec));
      positions.push(chunk[chunkIdx].positions);
    });
  }
  mergePhaseProfile(phase, request.profile);
  request.profile.add('MaterializedRows', request.rowIds.length);
  request.profile.add('MaterializeSegments', groups.length);
  // Row k of the concatenation is request position order[k]: invert to request order.
  const inverse = new Int32Array(request.rowIds.length);
  let concatPos = 0;
  for (const group of positions) for (const pos of group) inverse[pos] = concatPos++;
  return columns.map((column, colIdx) => takeRows(concatVectors(column.type, pieces[colIdx]), inverse));
}
