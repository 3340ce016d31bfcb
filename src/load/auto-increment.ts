/**
 * AUTO_INCREMENT columns (Doris's semantics): a load's rows that do not give the column, or give it NULL,
 * get values the table never generated before; given values are kept (and may repeat generated ones, as in
 * Doris). Values are unique within the table, not dense: each load takes one block from the table's
 * sequence in the meta store, committed before any row is written, so a crash or an aborted load leaves a
 * gap, never a repeat. Filled before bucketing, so the column may be a key and the distribution column.
 */
import type { Batch, Vector } from '../common/column';
import type { MetaStore } from '../meta/meta-store';
import { isAutoIncrement, type TableSchema } from '../meta/schema';

/** The meta-store sequence that hands out a table's AUTO_INCREMENT values. */
export function autoIncrementSequence(tableId: number): string {
  return `auto_increment.${tableId}`;
}

/** `batch` (columns in schema order) with its AUTO_INCREMENT column's NULLs replaced by new values. */
export function fillAutoIncrement(meta: MetaStore, schema: TableSchema, batch: Batch): Batch {
  const colIdx = schema.columns.findIndex(isAutoIncrement);
  if (colIdx < 0 || batch.length === 0) return batch;
  const vec = batch.columns[colIdx];
  const nulls = vec.nulls;
  if (nulls === null || vec.kind !== 'fixed' || !(vec.values instanceof BigInt64Array)) return batch;
  let missing = 0;
  for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) missing += nulls[rowIdx];
  if (missing === 0) return batch;
  let next = meta.nextId(autoIncrementSequence(schema.id), missing, schema.columns[colIdx].autoIncrementStart);
  const values = vec.values.slice(0, batch.length);
  for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
    if (nulls[rowIdx] === 1) values[rowIdx] = BigInt(next++);
  }
  const filled: Vector = { kind: 'fixed', type: vec.type, length: batch.length, values, nulls: null };
  const columns = batch.columns.slice();
  columns[colIdx] = filled;
  return { ...batch, columns };
}
