/**
 * The rows of a table's row binlog (meta/row-binlog.ts) as a TableSource: the change-log rowsets of the
 * versions asked for, read segment by segment through the BE's segment readers (file cache, page cache),
 * as the table's columns then `__op`, `__version` (the rowset's version) and `__seq`, ordered by version
 * then sequence. The rows are read once per statement, on the first scan, and served from memory (a
 * MemoryTable applies the scan's columns, predicates, limit and global row ids).
 */
import { BATCH_SIZE, concatVectors, sliceVector, takeRows, type Batch, type FixedVector, type Vector } from '../common/column';
import { NO_PROFILE, type ProfileSink } from '../common/profile';
import { Types } from '../common/types';
import type { FetchRequest, ScanRequest, TableSource } from '../exec/context';
import { MemoryTable } from '../exec/memory-table';
import type { RowsetRecord } from '../meta/meta-store';
import { binlogSegmentSchema } from '../meta/row-binlog';
import type { TableSchema } from '../meta/schema';
import type { SegmentOpener } from './olap-table-source';
import { readColumns } from './segment-columns';

export class RowBinlogSource implements TableSource {
  private rows: Promise<MemoryTable> | null = null;

  /**
   * `table`: the table's schema now (older change-log segments lack columns added since: they read as
   * their default); `schema`: binlog()'s schema (binlogSourceSchema); `rowsets`: the change-log rowsets
   * to read, oldest version first.
   */
  constructor(
    private readonly opener: SegmentOpener,
    private readonly table: TableSchema,
    readonly schema: TableSchema,
    private readonly rowsets: readonly RowsetRecord[],
  ) {}

  private load(profile: ProfileSink): Promise<MemoryTable> {
    this.rows ??= readBinlogRows(this.opener, this.table, this.rowsets, profile).then((batches) => new MemoryTable(this.schema, batches));
    return this.rows;
  }

  estimatedRowCount(): number {
    return this.rowsets.reduce((sum, rowset) => sum + rowset.numRows, 0);
  }

  async *scan(request: ScanRequest): AsyncIterable<Batch> {
    yield* (await this.load(request.profile)).scan(request);
  }

  async fetchRows(request: FetchRequest): Promise<Vector[]> {
    return (await this.load(request.profile)).fetchRows(request);
  }
}

/**
 * Read the change-log rowsets: per version, the rows of every tablet sorted by `__seq`; batches of the
 * table's columns, `__op`, `__version`, `__seq`, at most BATCH_SIZE rows each.
 */
export async function readBinlogRows(opener: SegmentOpener, table: TableSchema, rowsets: readonly RowsetRecord[], profile: ProfileSink = NO_PROFILE): Promise<Batch[]> {
  const stored = binlogSegmentSchema(table).columns; // __seq, __op, the table's columns
  const batches: Batch[] = [];
  for (let first = 0; first < rowsets.length; ) {
    let end = first;
    while (end < rowsets.length && rowsets[end].version === rowsets[first].version) end++;
    const parts: Vector[][] = stored.map(() => []);
    for (const rowset of rowsets.slice(first, end)) {
      for (const segment of rowset.segments) {
        const reader = await opener.openSegment(segment, profile);
        const columns = await readColumns(reader, stored, null, segment.numRows, profile);
        columns.forEach((pieces, colIdx) => parts[colIdx].push(...pieces));
      }
    }
    const version = rowsets[first].version;
    first = end;
    const merged = stored.map((column, colIdx) => concatVectors(column.type, parts[colIdx]));
    const length = merged[0].length;
    if (length === 0) continue;
    // Tablets of one load each hold a run of its rows: put the load's rows back in their order.
    const seqs = (merged[0] as FixedVector).values as BigInt64Array;
    const order = Int32Array.from({ length }, (_, rowIdx) => rowIdx).sort((left, right) => (seqs[left] < seqs[right] ? -1 : seqs[left] > seqs[right] ? 1 : left - right));
    const sorted = merged.map((vec) => takeRows(vec, order));
    const versions: FixedVector = { kind: 'fixed', type: Types.BIGINT, length, values: new BigInt64Array(length).fill(BigInt(version)), nulls: null };
    const columns = [...sorted.slice(2), sorted[1], versions, sorted[0]];
    for (let start = 0; start < length; start += BATCH_SIZE) {
      const stop = Math.min(length, start + BATCH_SIZE);
      batches.push({ length: stop - start, columns: start === 0 && stop === length ? columns : columns.map((vec) => sliceVector(vec, start, stop)) });
    }
  }
  return batches;
}
