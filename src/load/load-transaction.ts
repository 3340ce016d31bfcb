/**
 * One load as one transaction, shared by INSERT and Stream Load: check the label, begin the transaction,
 * write the rows as segments, publish them at a new version — or abort and delete what was written.
 */
import type { Batch } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ObjectStore } from '../io/object-store';
import type { Catalog, TableState } from '../meta/catalog';
import type { TransactionRecord } from '../meta/meta-store';
import { writeTableRows } from './table-writer';

export interface LoadTarget {
  readonly catalog: Catalog;
  readonly store: ObjectStore;
  /** Removes objects of an aborted load (and anything caching them). */
  deleteObjects(keys: readonly string[]): Promise<void>;
}

export interface LoadOutcome {
  readonly txn: TransactionRecord;
  readonly label: string;
  readonly loadedRows: number;
}

/** A label for a load that was given none (Doris generates one per load). */
export function generateLabel(prefix: string): string {
  return `${prefix}_${Date.now().toString(16)}_${Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0')}`;
}

/** The committed (or still running) transaction that used `label` in `dbId`, if any. */
export function findLabel(target: LoadTarget, dbId: number, label: string): TransactionRecord | null {
  return target.catalog.meta.findTransactionByLabel(dbId, label);
}

/**
 * Load `batch` (columns in table schema order, already of the column types) into `table` under `label`.
 * Throws LABEL_EXISTS when the label was used by a transaction that did not abort.
 */
export async function loadBatch(target: LoadTarget, table: TableState, batch: Batch, label: string): Promise<LoadOutcome> {
  const meta = target.catalog.meta;
  if (meta.findTransactionByLabel(table.dbId, label)) throw new GaleneError('LABEL_EXISTS', [label]);
  const txn = meta.beginTransaction(table.dbId, label, [table.schema.id]);
  let objectKeys: string[] = [];
  try {
    if (batch.length > 0) {
      const written = await writeTableRows(target.store, table, batch, txn.id);
      objectKeys = written.objectKeys;
      target.catalog.publish(txn.id, written.rowsets, batch.length);
    } else {
      target.catalog.publish(txn.id, [], 0);
    }
  } catch (err) {
    meta.abortTransaction(txn.id, err instanceof Error ? err.message : String(err));
    await target.deleteObjects(objectKeys);
    throw err;
  }
  return { txn, label, loadedRows: batch.length };
}
