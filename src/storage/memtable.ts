/**
 * Rows of one tablet, from one load, made ready for a segment: sorted by the key columns (the short-key
 * index and zone maps depend on it) and merged with the table model (table-model-merge.ts: for UNIQUE KEY
 * the newest row per key, the last one loaded winning within a load as in Doris's memtable; for AGGREGATE
 * KEY one row per key). Reads merge the rows of different loads with the same code.
 */
import { sliceVector, type Vector } from '../common/column';
import { sequenceColumnName } from '../meta/delete-bitmap';
import type { KeysType, TableSchema } from '../meta/schema';
import { writeSegment, type SegmentColumn, type SegmentWriteOptions } from './segment-writer';
import { mergeRowsByKey } from './table-model-merge';
import { withRowStoreColumn } from './row-store';

/**
 * `schema` (optional for callers that only sort) brings the table model's merge into the memtable: with a
 * UNIQUE KEY sequence column (`function_column.sequence_col`) the row of a key kept is the one with the
 * largest sequence value (the last of them on ties), and AGGREGATE KEY rows of one key are merged into one
 * with each value column's aggregation (Doris merges on flush, compaction and read).
 */
export function prepareTabletRows(columns: readonly Vector[], length: number, numKeyColumns: number, keysType: KeysType, schema?: TableSchema): { columns: Vector[]; length: number } {
  // Without the schema an AGGREGATE KEY table's rows can only be sorted: its merge needs the aggregations.
  const mergeType = keysType === 'AGGREGATE' && schema === undefined ? 'DUPLICATE' : keysType;
  const seqName = schema !== undefined ? sequenceColumnName(schema) : null;
  const sequenceIdx = seqName === null ? -1 : schema!.columns.findIndex((column) => column.name === seqName);
  return mergeRowsByKey(columns, length, { keysType: mergeType, numKeyColumns, columns: schema?.columns ?? [], sequenceIdx });
}

/** What a memtable flush needs besides its rows: plain data, so that it can be sent to a flush worker. */
export interface MemtableFlushSpec {
  readonly schema: TableSchema;
  readonly segmentColumns: readonly SegmentColumn[];
  readonly writeOptions: SegmentWriteOptions;
  /** Rows per segment file at most (a larger memtable becomes several segments). */
  readonly segmentMaxRows: number;
}

export interface FlushedSegment {
  readonly parts: Uint8Array[];
  /** The segment's rows as written (index builds read them). */
  readonly columns: Vector[];
  readonly numRows: number;
}

/**
 * Flush one memtable: sort and merge its rows (prepareTabletRows), then encode them as segment files of
 * at most `segmentMaxRows` rows each. Runs in a flush worker (load/write-pipeline/flush-pool.ts).
 */
export async function flushMemtable(columns: readonly Vector[], length: number, spec: MemtableFlushSpec): Promise<FlushedSegment[]> {
  const { schema } = spec;
  const prepared = prepareTabletRows(columns, length, schema.keyColumns.length, schema.keysType, schema);
  const segments: FlushedSegment[] = [];
  for (let start = 0; start < prepared.length; start += spec.segmentMaxRows) {
    const end = Math.min(prepared.length, start + spec.segmentMaxRows);
    const data = start === 0 && end === prepared.length ? prepared.columns : prepared.columns.map((column) => sliceVector(column, start, end));
    const stored = withRowStoreColumn(schema, spec.segmentColumns, data, spec.writeOptions);
    segments.push({ parts: await writeSegment(stored.columns, stored.data, stored.options), columns: data, numRows: end - start });
  }
  return segments;
}
