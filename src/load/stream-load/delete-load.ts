/**
 * Stream Load `merge_type: DELETE` into a merge-on-write UNIQUE KEY table: the loaded rows name keys to
 * delete (https://doris.apache.org/docs/data-operate/delete/delete-manual, "merge_type DELETE"). The
 * rows are converted and filtered like any load; only their key columns are kept, and at commit the
 * visible rows with those keys are hidden by delete bitmaps at one new table version — the same
 * machinery as SQL DELETE on such a table (no data is written). Keys that do not exist delete nothing.
 *
 * The keys of the whole load are held in memory until the commit (the lookup and the publish must run
 * under the table's publish lock together, or a compaction in between could retire the rows found).
 */
import { Batch, concatVectors, Vector } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { TableState } from '../../meta/catalog';
import type { TransactionRecord } from '../../meta/meta-store';
import type { TableSchema } from '../../meta/schema';
import type { LoadOutcome, LoadTarget, MultiBatchLoad } from '../load-transaction';

export function beginDeleteLoad(target: LoadTarget, table: TableState, label: string): MultiBatchLoad {
  const meta = target.catalog.meta;
  if (meta.findTransactionByLabel(table.dbId, label)) throw new GaleneError('LABEL_EXISTS', [label]);
  return new DeleteLoad(target, table.schema, label, meta.beginTransaction(table.dbId, label, [table.schema.id]));
}

/** The keys of a DELETE load so far; they are looked up and deleted at commit. */
class DeleteLoad implements MultiBatchLoad {
  private readonly keyIdxs: number[];
  private readonly keyParts: Vector[][];
  private rows = 0;
  private finished = false;

  constructor(
    private readonly target: LoadTarget,
    private readonly schema: TableSchema,
    readonly label: string,
    readonly txn: TransactionRecord,
  ) {
    this.keyIdxs = schema.keyColumns.map((name) => schema.columns.findIndex((column) => column.name === name));
    this.keyParts = this.keyIdxs.map(() => []);
  }

  get loadedRows(): number {
    return this.rows;
  }

  async add(batch: Batch): Promise<void> {
    if (this.finished) throw new GaleneError('INTERNAL', [`load ${this.label} already finished`]);
    this.keyIdxs.forEach((colIdx, keyIdx) => this.keyParts[keyIdx].push(batch.columns[colIdx]));
    this.rows += batch.length;
  }

  async commit(): Promise<LoadOutcome> {
    if (this.finished) throw new GaleneError('INTERNAL', [`load ${this.label} already finished`]);
    this.finished = true;
    const { catalog } = this.target;
    const storage = catalog.mergeOnWrite;
    const tableId = this.schema.id;
    try {
      if (storage === null) throw new GaleneError('INTERNAL', ['merge_type DELETE without a storage engine']);
      await catalog.withTableLock([tableId], async () => {
        // Holding the lock: no publish or compaction changes the table between finding the rows and hiding them.
        const current = catalog.getTableById(tableId);
        if (!current) throw new GaleneError('UNKNOWN_TABLE', [this.schema.name]);
        const keys = this.keyIdxs.map((colIdx, keyIdx) => concatVectors(this.schema.columns[colIdx].type, this.keyParts[keyIdx]));
        const { bitmaps } = this.rows === 0 ? { bitmaps: [] } : await storage.deleteKeys(current, keys, this.rows);
        catalog.publishDeletes(this.txn.id, tableId, bitmaps, this.rows);
      });
    } catch (err) {
      catalog.meta.abortTransaction(this.txn.id, err instanceof Error ? err.message : String(err));
      throw err;
    }
    return { txn: this.txn, label: this.label, loadedRows: this.rows };
  }

  precommit(): LoadOutcome {
    throw new GaleneError('LOAD_INVALID_ARGUMENT', ['two_phase_commit is not supported with merge_type DELETE yet']);
  }

  async abort(reason: string): Promise<void> {
    this.finished = true;
    this.target.catalog.meta.abortTransaction(this.txn.id, reason);
  }
}
