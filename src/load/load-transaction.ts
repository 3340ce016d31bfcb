/**
 * One load as one transaction, shared by INSERT and Stream Load: check the label, begin the transaction,
 * write the rows as segments, publish them at a new version — or abort and delete what was written.
 */
import { concatVectors, type Batch, type Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ObjectStore } from '../io/object-store';
import { partialUpdateOf } from '../meta/catalog';
import type { Catalog, LoadDeletes, PartialUpdate, TableState } from '../meta/catalog';
import type { NewRowset, TransactionRecord } from '../meta/meta-store';
import type { TableWriteOptions } from './table-writer';
import { fillAutoIncrement } from './auto-increment';
import { ensureAutoPartitions } from './auto-partition';
import { LoadWriter } from './write-pipeline/load-writer';
import type { WritePipeline } from './write-pipeline/write-pipeline';

export interface LoadTarget {
  readonly catalog: Catalog;
  readonly store: ObjectStore;
  /** Removes objects of an aborted load (and anything caching them). */
  deleteObjects(keys: readonly string[]): Promise<void>;
  /** Settings of the segment writes (the BE's config, read at each write); absent: defaults. */
  readonly writeOptions?: TableWriteOptions;
  /** The BE's memtables -> flush pool -> upload pool, shared by every load. */
  readonly writePipeline: WritePipeline;
}

export interface LoadOutcome {
  readonly txn: TransactionRecord;
  readonly label: string;
  readonly loadedRows: number;
  /** Nanoseconds the load's writers waited for backpressure (the profile's WaitFlushLimitTime). */
  readonly waitFlushLimitNs: number;
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
  const writer = new LoadWriter(target.writePipeline, target.store, table, txn.id, target.writeOptions);
  try {
    batch = fillAutoIncrement(meta, table.schema, batch);
    writer.useTable(ensureAutoPartitions(target.catalog, table, batch));
    await writer.add(batch);
    await target.catalog.publish(txn.id, await writer.finish(), batch.length, batch.length > 0 ? partialUpdateOf(batch) : null);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    meta.abortTransaction(txn.id, reason);
    writer.cancel(reason);
    await writer.settle();
    await target.deleteObjects(writer.objectKeys);
    throw err;
  } finally {
    writer.close();
  }
  return { txn, label, loadedRows: batch.length, waitFlushLimitNs: writer.waitFlushLimitNs };
}

/**
 * A load written in several batches under one transaction (Stream Load hands over a bounded batch at a
 * time): `add` appends a batch to the tablets' memtables (the write pipeline flushes and uploads them as
 * they fill), `commit` flushes the rest, waits for every upload and publishes all segments at one new
 * version, `precommit` does the same but leaves them durable and invisible (two-phase commit), `abort`
 * drops the transaction and every object written. Calls must not overlap (the caller awaits each), except
 * `abort`, which may come while an `add` waits.
 */
export interface MultiBatchLoad {
  readonly txn: TransactionRecord;
  readonly label: string;
  /** Rows written so far. */
  readonly loadedRows: number;
  /** `checkpoint`: called between tablets of the batch (a statement's event-loop slice, cancellation). */
  add(batch: Batch, checkpoint?: () => Promise<void> | undefined): Promise<void>;
  /**
   * Rows (full rows, table columns) whose keys the load deletes at commit — merge_type DELETE / MERGE, a
   * loaded delete sign; merge-on-write UNIQUE KEY tables only. Only the key columns are kept, in memory
   * until the commit, which looks them up and hides their visible rows at the load's version. A
   * row-binlog table also logs the rows as DELETE (through the write pipeline, hence the promise).
   */
  addDeletes(batch: Batch): Promise<void>;
  commit(): Promise<LoadOutcome>;
  /**
   * INSERT OVERWRITE: commit the load's rows as the table's whole content (Catalog.publishOverwrite).
   * Returns the outcome and the object keys of the replaced data (delete them once readers are done).
   */
  commitOverwrite(partitionIds?: readonly number[] | null): Promise<LoadOutcome & { readonly retiredKeys: readonly string[] }>;
  precommit(): Promise<LoadOutcome>;
  abort(reason: string): Promise<void>;
  /** Nanoseconds the load's writers waited for backpressure so far (WaitFlushLimitTime). */
  readonly waitFlushLimitNs: number;
}

export interface BeginLoadOptions {
  /** Bytes the load's memtables may hold before its largest is flushed (exec_mem_limit); default: no own limit. */
  readonly memLimitBytes?: number;
}

/**
 * Begin a multi-batch load of `table` under `label`. Throws LABEL_EXISTS when the label is in use; the
 * label check and the transaction start run without yielding, so two loads can never both take a label.
 */
export function beginLoad(target: LoadTarget, table: TableState, label: string, options: BeginLoadOptions = {}): MultiBatchLoad {
  const meta = target.catalog.meta;
  if (meta.findTransactionByLabel(table.dbId, label)) throw new GaleneError('LABEL_EXISTS', [label]);
  const txn = meta.beginTransaction(table.dbId, label, [table.schema.id]);
  // One rowset per tablet for the whole load: segments in write order, so "last row wins" holds across batches.
  const writer = new LoadWriter(target.writePipeline, target.store, table, txn.id, target.writeOptions, options.memLimitBytes);
  let loadedRows = 0;
  const keyIdxs = table.schema.keyColumns.map((name) => table.schema.columns.findIndex((column) => column.name === name));
  const deleteParts: Vector[][] = keyIdxs.map(() => []);
  let deleteRows = 0;
  const deletes = (): LoadDeletes | null =>
    deleteRows === 0 ? null : { tableId: table.schema.id, keys: keyIdxs.map((colIdx, keyIdx) => concatVectors(table.schema.columns[colIdx].type, deleteParts[keyIdx])), length: deleteRows };
  // Partial column update: the oldest version any batch's missing columns were read at.
  let partial: PartialUpdate | null = null;
  let state: 'open' | 'done' = 'open';
  const finish = async (): Promise<NewRowset[]> => {
    if (state !== 'open') throw new GaleneError('INTERNAL', [`load ${label} already finished`]);
    state = 'done';
    return writer.finish();
  };
  const outcome = (): LoadOutcome => ({ txn, label, loadedRows, waitFlushLimitNs: writer.waitFlushLimitNs });
  return {
    txn,
    label,
    get loadedRows() {
      return loadedRows;
    },
    get waitFlushLimitNs() {
      return writer.waitFlushLimitNs;
    },
    async add(given, checkpoint) {
      if (state !== 'open') throw new GaleneError('INTERNAL', [`load ${label} already finished`]);
      if (given.length === 0) return;
      const batch = fillAutoIncrement(meta, table.schema, given);
      const batchPartial = partialUpdateOf(batch);
      if (batchPartial !== null && (partial === null || batchPartial.readVersion < partial.readVersion)) partial = batchPartial;
      writer.useTable(ensureAutoPartitions(target.catalog, table, batch));
      await writer.add(batch, checkpoint);
      loadedRows += batch.length;
    },
    async addDeletes(batch) {
      if (state !== 'open') throw new GaleneError('INTERNAL', [`load ${label} already finished`]);
      if (batch.length === 0) return;
      keyIdxs.forEach((colIdx, keyIdx) => deleteParts[keyIdx].push(batch.columns[colIdx]));
      deleteRows += batch.length;
      loadedRows += batch.length;
      await writer.addDeletes(batch);
    },
    async commit() {
      const rowsets = await finish();
      await target.catalog.publish(txn.id, rowsets, loadedRows, partial, deletes());
      writer.close();
      return outcome();
    },
    async commitOverwrite(partitionIds = null) {
      if (deleteRows > 0 || partial !== null) throw new GaleneError('INTERNAL', ['INSERT OVERWRITE with deletes or a partial update']);
      const rowsets = await finish();
      const retiredKeys = await target.catalog.publishOverwrite(txn.id, table.schema.id, rowsets, loadedRows, partitionIds);
      writer.close();
      return { ...outcome(), retiredKeys };
    },
    async precommit() {
      if (deleteRows > 0) throw new GaleneError('LOAD_INVALID_ARGUMENT', ['two_phase_commit is not supported with merge_type DELETE or MERGE yet']);
      const rowsets = await finish();
      meta.precommitTransaction(txn.id, rowsets, loadedRows);
      writer.close();
      return outcome();
    },
    async abort(reason) {
      state = 'done';
      meta.abortTransaction(txn.id, reason);
      writer.cancel(reason);
      await writer.settle();
      writer.close();
      await target.deleteObjects(writer.objectKeys);
    },
  };
}

/** Two-phase commit, second phase: publish a PRECOMMITTED transaction's rowsets. */
export async function commitPrecommitted(target: LoadTarget, txnId: number): Promise<void> {
  const meta = target.catalog.meta;
  const txn = meta.getTransaction(txnId);
  if (!txn || txn.status !== 'PRECOMMITTED') throw new GaleneError('INTERNAL', [`transaction ${txnId} is not pre-committed`]);
  await target.catalog.publish(txnId, meta.pendingRowsets(txnId), txn.loadedRows);
  meta.deletePendingRowsets(txnId);
}

/** Two-phase commit, second phase: drop a PRECOMMITTED transaction and its objects. */
export async function abortPrecommitted(target: LoadTarget, txnId: number, reason: string): Promise<void> {
  const keys = target.catalog.meta.abortPrecommitted(txnId, reason);
  await target.deleteObjects(keys);
}
