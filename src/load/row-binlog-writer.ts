/**
 * The write side of a table's row binlog (meta/row-binlog.ts). A load into a row-binlog table keeps, per
 * tablet, a second memtable beside the data memtable: the same rows (the column vectors are shared, not
 * copied) with their `__seq` (place in the load) and `__op`; the load writer flushes both as one request
 * (Doris's GROUP write request: two physical flush tasks, write-pipeline/load-writer.ts) and the
 * change-log segments go through the upload pool like the data segments. Statements that write outside
 * the pipeline (DELETE) log their rows with writeBinlogRows.
 */
import type { Batch, FixedVector, StringVector } from '../common/column';
import { Types } from '../common/types';
import type { ObjectStore } from '../io/object-store';
import type { TableState } from '../meta/catalog';
import type { NewRowset } from '../meta/meta-store';
import { binlogSegmentSchema, loadOp, rowBinlogEnabled, type BinlogOp } from '../meta/row-binlog';
import { tableSegmentContext, writeTableRows, type TableSegmentContext, type TableWriteOptions, type WrittenLoad } from './table-writer';

const OP_TYPE = Types.varchar(8);
const encoder = new TextEncoder();

/** `length` copies of `op` as a string vector. */
export function opVector(op: BinlogOp, length: number): StringVector {
  const text = encoder.encode(op);
  const offsets = new Int32Array(length + 1);
  const bytes = new Uint8Array(text.length * length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    bytes.set(text, rowIdx * text.length);
    offsets[rowIdx + 1] = (rowIdx + 1) * text.length;
  }
  return { kind: 'string', type: OP_TYPE, length, offsets, bytes, nulls: null };
}

/** `__seq` of rows `rowIds` of a batch whose first row is the load's row `base` (all rows when null). */
export function seqVector(base: number, rowIds: Int32Array | null, length: number): FixedVector {
  const values = new BigInt64Array(length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) values[rowIdx] = BigInt(base + (rowIds === null ? rowIdx : rowIds[rowIdx]));
  return { kind: 'fixed', type: Types.BIGINT, length, values, nulls: null };
}

/** The change-log side of one load's writer (null when the table has no row binlog). */
export interface RowBinlogSide {
  readonly ctx: TableSegmentContext;
  /** The operation of the load's rows. */
  readonly op: BinlogOp;
}

export function rowBinlogSide(table: TableState, options: TableWriteOptions = {}): RowBinlogSide | null {
  if (!rowBinlogEnabled(table.schema)) return null;
  return { ctx: tableSegmentContext(binlogSegmentSchema(table.schema), options), op: loadOp(table.schema) };
}

/**
 * Bytes the binlog memtable adds for rows it shares with the data memtable: its own `__seq` and `__op`
 * vectors (the column vectors are the data memtable's).
 */
export function sharedBinlogBytes(rows: number): number {
  return rows * 16;
}

/** Where the next writeBinlogRows of a transaction that logs several times goes on (explicit transactions). */
export interface BinlogPosition {
  /** Tablet id -> next free change-log segment index (updated). */
  readonly nextSegmentIdx: Map<number, number>;
  /** Rows logged so far: the next row's `__seq` (updated). */
  loggedRows: number;
}

/**
 * Log `batch` (table columns in schema order) as `op` rows under transaction `txnId`, written at once
 * (not through the write pipeline): the change-log rowsets to publish with the statement, and every
 * object written (to delete if it aborts).
 */
export async function writeBinlogRows(store: ObjectStore, table: TableState, batch: Batch, op: BinlogOp, txnId: number, options: TableWriteOptions = {}, position?: BinlogPosition): Promise<WrittenLoad> {
  const schema = binlogSegmentSchema(table.schema);
  const seqBase = position?.loggedRows ?? 0;
  const logged: Batch = { length: batch.length, columns: [seqVector(seqBase, null, batch.length), opVector(op, batch.length), ...batch.columns] };
  const written = await writeTableRows(store, { ...table, schema }, logged, txnId, position?.nextSegmentIdx, undefined, options);
  if (position !== undefined) position.loggedRows += batch.length;
  return { rowsets: written.rowsets.map((rowset): NewRowset => ({ ...rowset, rowBinlog: true })), objectKeys: written.objectKeys };
}
