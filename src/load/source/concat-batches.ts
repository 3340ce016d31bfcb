/**
 * Batches of a table's columns -> one batch: what a load writes out at a flush (Stream Load) or a batch
 * commit (Group Commit), from the blocks the RowConverter produced.
 */
import { Batch, concatVectors } from '../../common/column';
import type { TableSchema } from '../../meta/schema';

/** Concatenate batches of the same columns into one (a flush to segment writing). */
export function concatBatches(schema: TableSchema, batches: readonly Batch[]): Batch {
  if (batches.length === 1) return batches[0];
  return {
    length: batches.reduce((sum, batch) => sum + batch.length, 0),
    columns: schema.columns.map((column, colIdx) => concatVectors(column.type, batches.map((batch) => batch.columns[colIdx]))),
  };
}
