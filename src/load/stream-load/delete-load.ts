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
import type { LoadTarget, MultiBatchLoad } from '../load-transaction';

export function beginDeleteLoad(target: LoadTarget, table: TableState, label: string): MultiBatchLoad {
  const catalog = target.catalog;
  const meta = catalog.meta;
  const schema = table.schema;
  const keyIdxs = schema.keyColumns.map((name) => schema.columns.findIndex((column) => column.name === name));
  if (keyIdxs.some((colIdx) => colIdx < 0)) throw new GaleneError('INTERNAL', [`key columns of ${schema.name} not in its schema`]);
  if (meta.findTransactionByLabel(table.dbId, label)) throw new GaleneError('LABEL_EXISTS', [label]);
  const txn = meta.beginTransaction(table.dbId, label, [schema.id]);
  const keyParts: Vector[][] = keyIdxs.map(() => []);
  let loadedRows = 0;
  let state: 'open' | 'done' = 'open';
  const finish = (): void => {
    if (state !== 'open') throw new GaleneError('INTERNAL', [`load ${label} already finished`]);
    state = 'done';
  };
  return {
    txn,
    label,
    get loadedRows() {
      return loadedRows;
    },
    async add(batch: Batch) {
      if (state !== 'open') throw new GaleneError('INTERNAL', [`load ${label} already finished`]);
      if (batch.length === 0) return;
      keyIdxs.forEach((colIdx, keyIdx) => keyParts[keyIdx].push(batch.columns[colIdx]));
      loadedRows += batch.length;
    },
    async commit() {
      finish();
      const storage = catalog.mergeOnWrite;
      if (storage === null) throw new GaleneError('INTERNAL', ['merge_type DELETE without a storage engine']);
      try {
        await catalog.withTableLock([schema.id], async () => {
          const current = catalog.getTableById(schema.id);
          if (!current) throw new GaleneError('UNKNOWN_TABLE', [schema.name]);
          const keys = keyIdxs.map((colIdx, keyIdx) => concatVectors(schema.columns[colIdx].type, keyParts[keyIdx]));
          const { bitmaps } = loadedRows === 0 ? { bitmaps: [] } : await storage.deleteKeys(current, keys, loadedRows);
          catalog.publishDeletes(txn.id, schema.id, bitmaps, loadedRows);
        });
      } catch (err) {
        meta.abortTransaction(txn.id, err instanceof Error ? err.message : String(err));
        throw err;
      }
      return { txn, label, loadedRows };
    },
    precommit() {
      throw new GaleneError('LOAD_INVALID_ARGUMENT', ['two_phase_commit is not supported with merge_type DELETE yet']);
    },
    async abort(reason: string) {
      state = 'done';
      meta.abortTransaction(txn.id, reason);
    },
  };
}
