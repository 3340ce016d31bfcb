/**
 * The catalog: the FE's in-memory view of databases, tables, tablets and visible rowsets, loaded from the
 * meta store at start-up and kept in step with it (every change goes to the meta store first, then here).
 *
 * Database and table names are case-sensitive, as in Doris with the default lower_case_table_names = 0;
 * column names are case-insensitive.
 */
import { GaleneError } from '../common/errors';
import { constantVector, type Batch, type Vector } from '../common/column';
import { BitmapDelta, DeleteBitmap, DeleteCondition, DeletePredicateRecord, isMergeOnWrite, PendingBitmapDelta } from './delete-bitmap';
import { DatabaseRecord, MetaStore, NewRowset, RowsetRecord, SegmentRecord, TabletRecord } from './meta-store';
import { loadDefaultValue, type PartitionRecord, type TableSchema } from './schema';
import type { ViewRecord } from './views';
import { StorageVaults } from './storage-vaults';

/** A table with its tablets and the rowsets visible now. Replaced (not mutated) on every change. */
export interface TableState {
  readonly schema: TableSchema;
  readonly dbId: number;
  readonly tablets: readonly TabletRecord[];
  readonly rowsets: readonly RowsetRecord[];
  readonly visibleVersion: number;
  /** Merge-on-write UNIQUE KEY: rows of `rowsets` no longer visible at this version (absent = none). */
  readonly deleteBitmap?: DeleteBitmap;
  /** DELETE predicates (non-merge-on-write models), oldest first (absent = none). */
  readonly deletePredicates?: readonly DeletePredicateRecord[];
}

/**
 * What merge-on-write needs from the storage engine (the BE implements it in
 * be/delete-bitmap-calculator.ts; the catalog cannot read segments). Each call works against the given
 * table state; the publish and DELETE paths call it holding the table's publish lock.
 */
export interface MergeOnWriteStorage {
  /** Delete bitmap deltas that leave the new rowsets `rowsets[rowsetIdxs]` the only visible rows of their keys. */
  computeDeleteBitmaps(table: TableState, rowsets: readonly NewRowset[], rowsetIdxs: readonly number[]): Promise<PendingBitmapDelta[]>;
  /** Deltas hiding the visible rows with the given keys (key columns in key order). */
  deleteKeys(table: TableState, keys: readonly Vector[], length: number): Promise<{ bitmaps: BitmapDelta[]; deletedRows: number }>;
  /** Partial update: fill the columns not in `given` (lower-case names) from each key's visible row. */
  fillPartialColumns(table: TableState, batch: Batch, given: ReadonlySet<string>): Promise<Batch>;
  /**
   * Partial update at publish: `rowsets[rowsetIdxs]` had their missing columns filled at `partial.readVersion`;
   * rows whose key has a visible row in a rowset published since take the missing columns from that row
   * again, written as new segments under `refreshId`. Returns the rowsets to publish (unchanged ones as
   * given), the objects written (to delete if the publish fails) and the ones they replace (to delete
   * once it succeeded).
   */
  refreshPartialColumns(table: TableState, rowsets: readonly NewRowset[], rowsetIdxs: readonly number[], partial: PartialUpdate, refreshId: number): Promise<{ rowsets: NewRowset[]; written: string[]; retired: string[] }>;
  /** Remove objects nothing refers to (best effort). */
  deleteObjects(keys: readonly string[]): Promise<void>;
}

/**
 * How a partial column update's rows were made: which columns the load gave (lower-case names), and the
 * table version whose visible rows filled the others. Publish re-reads rows published after that version.
 */
export interface PartialUpdate {
  readonly givenColumns: ReadonlySet<string>;
  readonly readVersion: number;
}

/** Keys a load deletes from merge-on-write table `tableId` (key columns in key order, `length` rows). */
export interface LoadDeletes {
  readonly tableId: number;
  readonly keys: readonly Vector[];
  readonly length: number;
}

/** Rows of a partial column update, ready to load (Catalog.fillPartialColumns returns them). */
export type PartialBatch = Batch & { readonly partialUpdate: PartialUpdate };

/** The partial-update facts of a batch to load, or null for whole rows. */
export function partialUpdateOf(batch: Batch): PartialUpdate | null {
  return (batch as Partial<PartialBatch>).partialUpdate ?? null;
}

/**
 * A partial update's rows with every ON UPDATE CURRENT_TIMESTAMP column it does not set set to now (so
 * that column counts as given): the row was updated.
 */
export function withOnUpdateTimestamps(schema: TableSchema, batch: Batch, given: ReadonlySet<string>): { batch: Batch; given: ReadonlySet<string> } {
  const stamped = schema.columns.filter((column) => column.onUpdateCurrentTimestamp && !given.has(column.name.toLowerCase()));
  if (stamped.length === 0) return { batch, given };
  const columns = batch.columns.slice();
  for (const column of stamped) columns[schema.columns.indexOf(column)] = constantVector(column.type, loadDefaultValue(column), batch.length);
  return { batch: { ...batch, columns }, given: new Set([...given, ...stamped.map((column) => column.name.toLowerCase())]) };
}

/** A FIFO async lock per key: publishes of a merge-on-write table run one at a time. */
class KeyedLock {
  private readonly tails = new Map<number, Promise<void>>();

  async run<T>(keys: readonly number[], fn: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort((a, b) => a - b); // one order for everyone: no deadlock
    const releases: (() => void)[] = [];
    try {
      for (const key of sorted) {
        const previous = this.tails.get(key) ?? Promise.resolve();
        let release!: () => void;
        const mine = new Promise<void>((resolve) => (release = resolve));
        const tail = previous.then(() => mine);
        this.tails.set(key, tail);
        releases.push(() => {
          release();
          if (this.tails.get(key) === tail) this.tails.delete(key);
        });
        await previous;
      }
      return await fn();
    } finally {
      for (const release of releases) release();
    }
  }
}

export const INFORMATION_SCHEMA = 'information_schema';

export class Catalog {
  private readonly databases = new Map<string, DatabaseRecord>();
  /** key: `${dbId}/${tableName}` */
  private readonly tables = new Map<string, TableState>();
  private readonly tablesById = new Map<number, TableState>();
  /** key: `${dbId}/${viewName}` (meta/views.ts). */
  private readonly views = new Map<string, ViewRecord>();

  /** Storage vaults (CREATE STORAGE VAULT): where tables' objects live besides the local directory. */
  readonly vaults: StorageVaults;

  constructor(readonly meta: MetaStore) {
    this.vaults = new StorageVaults(meta);
    for (const db of meta.listDatabases()) this.databases.set(db.name, db);
    for (const view of meta.listViews()) this.views.set(`${view.dbId}/${view.name}`, view);
    for (const { schema, dbId, visibleVersion } of meta.listTables()) {
      const deletePredicates = meta.listDeletePredicates(schema.id);
      this.putTable({
        schema,
        dbId,
        tablets: meta.listTablets(schema.id),
        rowsets: meta.listRowsets(schema.id),
        visibleVersion,
        deleteBitmap: DeleteBitmap.EMPTY.withDeletes(meta.listDeleteBitmaps(schema.id)),
        ...(deletePredicates.length > 0 ? { deletePredicates } : {}),
      });
    }
  }

  /** Set by the BE at start-up; publishing into a merge-on-write table needs it. */
  mergeOnWrite: MergeOnWriteStorage | null = null;
  private readonly publishLocks = new KeyedLock();

  /**
   * Run `fn` holding the publish lock of each table in `tableIds` (merge-on-write publishes, DELETE,
   * compaction of merge-on-write tablets): nothing else changes those tables' rowsets or bitmaps meanwhile.
   */
  withTableLock<T>(tableIds: readonly number[], fn: () => Promise<T>): Promise<T> {
    return this.publishLocks.run(tableIds, fn);
  }

  /** Bumped by every change of a table's state (schema, rowsets, versions): caches built from tables compare it. */
  get generation(): number {
    return this.tableGeneration;
  }

  private tableGeneration = 0;

  private putTable(state: TableState): void {
    this.tableGeneration++;
    this.tables.set(`${state.dbId}/${state.schema.name}`, state);
    this.tablesById.set(state.schema.id, state);
  }

  private removeTable(state: TableState): void {
    this.tableGeneration++;
    this.tables.delete(`${state.dbId}/${state.schema.name}`);
    this.tablesById.delete(state.schema.id);
  }

  // ------------------------------------------------------------ databases

  listDatabases(): DatabaseRecord[] {
    return [...this.databases.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  hasDatabase(name: string): boolean {
    return this.databases.has(name);
  }

  getDatabase(name: string): DatabaseRecord {
    const db = this.databases.get(name);
    if (!db) throw new GaleneError('UNKNOWN_DATABASE', [name]);
    return db;
  }

  createDatabase(name: string, properties: Record<string, string>): DatabaseRecord {
    if (this.databases.has(name) || name === INFORMATION_SCHEMA) throw new GaleneError('DATABASE_EXISTS', [name]);
    const db = this.meta.createDatabase(name, properties);
    this.databases.set(name, db);
    return db;
  }

  /** Returns the segment keys to delete. */
  dropDatabase(name: string): string[] {
    const db = this.databases.get(name);
    if (!db) throw new GaleneError('DATABASE_NOT_EXISTS_DROP', [name]);
    const keys = this.meta.dropDatabase(db.id);
    for (const state of this.listTables(name)) this.removeTable(state);
    for (const view of this.listViews(name)) this.views.delete(`${db.id}/${view.name}`);
    this.databases.delete(name);
    return keys;
  }

  // ------------------------------------------------------------ tables

  listTables(database: string): TableState[] {
    const db = this.getDatabase(database);
    return [...this.tables.values()].filter((state) => state.dbId === db.id).sort((a, b) => (a.schema.name < b.schema.name ? -1 : 1));
  }

  findTable(database: string, name: string): TableState | undefined {
    const db = this.getDatabase(database);
    return this.tables.get(`${db.id}/${name}`);
  }

  getTable(database: string, name: string): TableState {
    const state = this.findTable(database, name);
    if (!state) throw new GaleneError('UNKNOWN_TABLE', [`${database}.${name}`]);
    return state;
  }

  getTableById(tableId: number): TableState | undefined {
    return this.tablesById.get(tableId);
  }

  newObjectId(): number {
    return this.meta.nextId('object');
  }

  createTable(database: string, schema: TableSchema): TableState {
    const db = this.getDatabase(database);
    if (this.tables.has(`${db.id}/${schema.name}`) || this.views.has(`${db.id}/${schema.name}`)) throw new GaleneError('TABLE_EXISTS', [schema.name]);
    const tablets = this.meta.createTable(db.id, schema);
    const state: TableState = { schema, dbId: db.id, tablets, rowsets: [], visibleVersion: 1, deleteBitmap: DeleteBitmap.EMPTY };
    this.putTable(state);
    return state;
  }

  /** Returns the segment keys to delete. */
  dropTable(database: string, name: string): string[] {
    const state = this.getTable(database, name);
    const keys = this.meta.dropTable(state.schema.id);
    this.removeTable(state);
    return keys;
  }

  truncateTable(database: string, name: string): string[] {
    const state = this.getTable(database, name);
    const { keys, version } = this.meta.truncateTable(state.schema.id);
    this.putTable({ ...state, rowsets: [], visibleVersion: version, deleteBitmap: DeleteBitmap.EMPTY, deletePredicates: undefined });
    return keys;
  }

  /**
   * ALTER TABLE ADD / DROP PARTITION and the partitions loads and the dynamic-partition scheduler create:
   * the new schema (its partition list changed; schemaVersion bumped here) with the tablets of `added`
   * created and those of the `dropped` partition ids removed with their rowsets, in one meta-store
   * transaction. Returns the new state and the object keys to delete.
   */
  changePartitions(tableId: number, change: (schema: TableSchema) => TableSchema, added: readonly PartitionRecord[], dropped: readonly number[]): { state: TableState; keys: string[] } {
    const state = this.tablesById.get(tableId);
    if (!state) throw new GaleneError('UNKNOWN_TABLE', [String(tableId)]);
    const schema = { ...change(state.schema), schemaVersion: state.schema.schemaVersion + 1 };
    const { tablets, keys } = this.meta.changePartitions(schema, added, dropped);
    const gone = new Set(state.tablets.filter((tablet) => dropped.includes(tablet.partitionId ?? 0)).map((tablet) => tablet.id));
    const removedRowsets = state.rowsets.filter((rowset) => gone.has(rowset.tabletId)).map((rowset) => rowset.id);
    const next: TableState = {
      ...state,
      schema,
      tablets: [...state.tablets.filter((tablet) => !gone.has(tablet.id)), ...tablets],
      rowsets: gone.size === 0 ? state.rowsets : state.rowsets.filter((rowset) => !gone.has(rowset.tabletId)),
      deleteBitmap: removedRowsets.length === 0 ? state.deleteBitmap : (state.deleteBitmap ?? DeleteBitmap.EMPTY).withoutRowsets(removedRowsets),
    };
    this.putTable(next);
    return { state: next, keys };
  }

  /** TRUNCATE TABLE t PARTITION (...): the partitions' rowsets go, at a new version. Returns the object keys. */
  truncatePartitions(database: string, name: string, partitionIds: readonly number[]): string[] {
    const state = this.getTable(database, name);
    const { keys, version } = this.meta.truncatePartitions(state.schema.id, partitionIds);
    const gone = new Set(state.tablets.filter((tablet) => partitionIds.includes(tablet.partitionId ?? 0)).map((tablet) => tablet.id));
    const removed = state.rowsets.filter((rowset) => gone.has(rowset.tabletId)).map((rowset) => rowset.id);
    this.putTable({ ...state, rowsets: state.rowsets.filter((rowset) => !gone.has(rowset.tabletId)), visibleVersion: version, deleteBitmap: (state.deleteBitmap ?? DeleteBitmap.EMPTY).withoutRowsets(removed) });
    return keys;
  }

  // ------------------------------------------------------------ views

  listViews(database: string): ViewRecord[] {
    const db = this.getDatabase(database);
    return [...this.views.values()].filter((view) => view.dbId === db.id).sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  findView(database: string, name: string): ViewRecord | undefined {
    return this.views.get(`${this.getDatabase(database).id}/${name}`);
  }

  /**
   * Create view `name` in `database`, or replace the view of that name (`replace`: CREATE OR REPLACE,
   * ALTER VIEW; the id stays). A table of that name, or a view when not replacing: TABLE_EXISTS.
   */
  putView(database: string, fields: Pick<ViewRecord, 'name' | 'definition' | 'columns' | 'comment' | 'definer'>, replace: boolean): ViewRecord {
    const db = this.getDatabase(database);
    const key = `${db.id}/${fields.name}`;
    const existing = this.views.get(key);
    if (this.tables.has(key) || (existing && !replace)) throw new GaleneError('TABLE_EXISTS', [fields.name]);
    const view: ViewRecord = { ...fields, id: existing?.id ?? this.newObjectId(), dbId: db.id, databaseName: database, createTime: existing?.createTime ?? Date.now() };
    this.meta.putView(view);
    this.tableGeneration++;
    this.views.set(key, view);
    return view;
  }

  dropView(database: string, name: string): void {
    const db = this.getDatabase(database);
    const view = this.views.get(`${db.id}/${name}`);
    if (!view) throw new GaleneError('BAD_TABLE_DROP', [name]);
    this.meta.dropView(view.id);
    this.tableGeneration++;
    this.views.delete(`${db.id}/${name}`);
  }

  /** Replace a table's schema (properties, columns); bumps schemaVersion. */
  updateSchema(database: string, name: string, change: (schema: TableSchema) => TableSchema): TableState {
    const state = this.getTable(database, name);
    const schema = { ...change(state.schema), schemaVersion: state.schema.schemaVersion + 1 };
    this.meta.updateTableSchema(schema);
    if (schema.name !== state.schema.name) this.removeTable(state);
    const next = { ...state, schema };
    this.putTable(next);
    return next;
  }

  /** Loads into a tablet that already has this many rowsets fail with -235 (max_tablet_version_num). */
  maxTabletVersions = 2000;

  /**
   * Publish a committed transaction's rowsets (already durable in object storage). Throws
   * TOO_MANY_VERSIONS, publishing nothing, when a receiving tablet is at max_tablet_version_num.
   *
   * Merge-on-write tables: under each such table's publish lock, the delete bitmap deltas for the new
   * rowsets are computed against the table's current state (this awaits segment reads) and committed in
   * the same SQLite transaction as the rowsets, so a crash leaves both or neither, and the new TableState
   * (rowsets + bitmap) replaces the old one in one step. `partial` (a partial column update's rows):
   * rows whose key was written by a rowset published after their missing columns were read take those
   * columns from the newest row first, so concurrent partial updates of one key all survive.
   * `deletes` (a Stream Load MERGE / DELETE): the visible rows with these keys of that merge-on-write
   * table are hidden at the same version (the keys are looked up under the same lock).
   */
  async publish(txnId: number, allRowsets: readonly NewRowset[], loadedRows: number, partial: PartialUpdate | null = null, deletes: LoadDeletes | null = null): Promise<void> {
    // Change-log rowsets (row binlog) go into the same meta-store transaction, after the data rowsets
    // (whose indexes the bitmap deltas name); merge-on-write never looks at them.
    const rowsets = allRowsets.filter((rowset) => !rowset.rowBinlog);
    const binlog = allRowsets.filter((rowset) => rowset.rowBinlog);
    const mowTableIds = [...new Set([...rowsets.map((rowset) => rowset.tableId), ...(deletes === null ? [] : [deletes.tableId])])].filter((tableId) => {
      const state = this.tablesById.get(tableId);
      return state !== undefined && isMergeOnWrite(state.schema);
    });
    if (mowTableIds.length === 0) {
      this.publishNow(txnId, allRowsets, loadedRows, {});
      return;
    }
    const publisher = this.mergeOnWrite;
    if (publisher === null) throw new GaleneError('INTERNAL', ['merge-on-write publish without a storage engine']);
    const written: string[] = [];
    const retired: string[] = [];
    try {
      await this.withTableLock(mowTableIds, async () => {
        this.checkVersionLimit(rowsets);
        let publishing: readonly NewRowset[] = rowsets;
        const bitmaps: PendingBitmapDelta[] = [];
        for (const tableId of mowTableIds) {
          const state = this.tablesById.get(tableId);
          if (!state) throw new GaleneError('UNKNOWN_TABLE', [String(tableId)]);
          const idxs: number[] = [];
          publishing.forEach((rowset, idx) => rowset.tableId === tableId && idxs.push(idx));
          // A partial update's missing columns come from the newest rows (Doris re-reads them at publish).
          if (partial !== null && idxs.some((idx) => state.rowsets.some((existing) => existing.tabletId === publishing[idx].tabletId && existing.version > partial.readVersion))) {
            const refreshed = await publisher.refreshPartialColumns(state, publishing, idxs, partial, this.meta.nextId('txn'));
            publishing = refreshed.rowsets;
            written.push(...refreshed.written);
            retired.push(...refreshed.retired);
          }
          bitmaps.push(...(await publisher.computeDeleteBitmaps(state, publishing, idxs)));
          if (deletes !== null && deletes.tableId === tableId && deletes.length > 0) bitmaps.push(...(await publisher.deleteKeys(state, deletes.keys, deletes.length)).bitmaps);
        }
        this.publishNow(txnId, [...publishing, ...binlog], loadedRows, { bitmaps, tableIds: mowTableIds });
      });
    } catch (err) {
      await publisher.deleteObjects(written);
      throw err;
    }
    if (retired.length > 0) await publisher.deleteObjects(retired); // never visible: nothing reads them
  }

  /**
   * INSERT OVERWRITE: publish a load's rowsets as the whole content of table `tableId`. The table's
   * previous rowsets, delete bitmaps, delete predicates and row binlog are removed in the same meta-store
   * transaction, and the new TableState replaces the old in one synchronous step, so a reader sees the
   * old rows or the new ones, never a mix; a load that fails before this leaves the old data untouched.
   * Merge-on-write: delete bitmaps are computed among the new rowsets only (under the table's publish
   * lock). With `partitionIds` (INSERT OVERWRITE ... PARTITION) only those partitions' rowsets and bitmaps
   * are replaced; the other partitions' stay. Returns the object keys of the replaced data, for the
   * caller to delete once readers are done.
   */
  async publishOverwrite(txnId: number, tableId: number, allRowsets: readonly NewRowset[], loadedRows: number, partitionIds: readonly number[] | null = null): Promise<string[]> {
    // Data rowsets first, then change-log ones: bitmap deltas name new rowsets by index.
    const rowsets = [...allRowsets.filter((rowset) => !rowset.rowBinlog), ...allRowsets.filter((rowset) => rowset.rowBinlog)];
    this.checkTabletsExist(rowsets);
    // What survives the overwrite: nothing, or (PARTITION (...)) the other partitions' rowsets and bitmaps.
    const kept = (state: TableState): TableState => {
      if (partitionIds === null) return { ...state, rowsets: [], deleteBitmap: DeleteBitmap.EMPTY, deletePredicates: undefined };
      const gone = new Set(state.tablets.filter((tablet) => partitionIds.includes(tablet.partitionId ?? 0)).map((tablet) => tablet.id));
      const removed = state.rowsets.filter((rowset) => gone.has(rowset.tabletId)).map((rowset) => rowset.id);
      return { ...state, rowsets: state.rowsets.filter((rowset) => !gone.has(rowset.tabletId)), deleteBitmap: (state.deleteBitmap ?? DeleteBitmap.EMPTY).withoutRowsets(removed) };
    };
    const publishWith = (bitmaps: readonly PendingBitmapDelta[]): string[] => {
      const state = this.tablesById.get(tableId);
      if (!state) throw new GaleneError('UNKNOWN_TABLE', [String(tableId)]);
      const replace = partitionIds === null ? { replaceTableIds: [tableId] } : { replacePartitions: { tableId, partitionIds } };
      const published = this.meta.publishTransaction(txnId, rowsets, loadedRows, { bitmaps, tableIds: [tableId], ...replace });
      const version = published.versions.get(tableId)!;
      const added: RowsetRecord[] = [];
      rowsets.forEach((rowset, idx) => {
        if (!rowset.rowBinlog) added.push({ id: published.rowsetIds[idx], tabletId: rowset.tabletId, tableId, txnId, version, segments: rowset.segments, numRows: rowset.numRows, dataSize: rowset.dataSize, createTime: published.createTime });
      });
      const base = kept(state);
      this.putTable({ ...base, rowsets: [...base.rowsets, ...added], visibleVersion: version, deleteBitmap: (base.deleteBitmap ?? DeleteBitmap.EMPTY).withDeletes(published.bitmaps) });
      return published.retiredKeys;
    };
    const initial = this.tablesById.get(tableId);
    if (!initial || !isMergeOnWrite(initial.schema)) return publishWith([]);
    const publisher = this.mergeOnWrite;
    if (publisher === null) throw new GaleneError('INTERNAL', ['merge-on-write publish without a storage engine']);
    return this.withTableLock([tableId], async () => {
      const current = this.tablesById.get(tableId);
      if (!current) throw new GaleneError('UNKNOWN_TABLE', [String(tableId)]);
      const idxs: number[] = [];
      rowsets.forEach((rowset, idx) => !rowset.rowBinlog && idxs.push(idx));
      return publishWith(await publisher.computeDeleteBitmaps(kept(current), rowsets, idxs));
    });
  }

  private checkVersionLimit(rowsets: readonly NewRowset[]): void {
    for (const rowset of rowsets) {
      if (rowset.rowBinlog) continue;
      const state = this.tablesById.get(rowset.tableId);
      const versions = state ? state.rowsets.reduce((count, existing) => count + (existing.tabletId === rowset.tabletId ? 1 : 0), 0) : 0;
      if (versions >= this.maxTabletVersions) throw new GaleneError('TOO_MANY_VERSIONS', [versions, rowset.tabletId, this.maxTabletVersions]);
    }
  }

  /** Commit in the meta store, then replace the affected tables' states (synchronously: no reader sees half). */
  /**
   * A load's rowsets must land in tablets that still exist: a partition dropped (or a table truncated)
   * while the load ran took its tablets away, and publishing would leave rows no query ever reads.
   * Checked in the same synchronous step as the publish, so no drop can come between.
   */
  private checkTabletsExist(rowsets: readonly NewRowset[]): void {
    const tabletsOf = new Map<number, Set<number>>();
    for (const rowset of rowsets) {
      const state = this.tablesById.get(rowset.tableId);
      if (state === undefined) throw new GaleneError('TRANSACTION_ERROR', [`table ${rowset.tableId} was dropped while the load ran`]);
      let tabletIds = tabletsOf.get(rowset.tableId);
      if (tabletIds === undefined) tabletsOf.set(rowset.tableId, (tabletIds = new Set(state.tablets.map((tablet) => tablet.id))));
      if (!tabletIds.has(rowset.tabletId)) {
        throw new GaleneError('TRANSACTION_ERROR', [`tablet ${rowset.tabletId} of table ${state.schema.name} no longer exists: its partition was dropped or the table truncated while the load ran`]);
      }
    }
  }

  private publishNow(txnId: number, rowsets: readonly NewRowset[], loadedRows: number, extras: Parameters<MetaStore['publishTransaction']>[3]): void {
    this.checkVersionLimit(rowsets);
    this.checkTabletsExist(rowsets);
    const { versions, rowsetIds, createTime, bitmaps, deletePredicate } = this.meta.publishTransaction(txnId, rowsets, loadedRows, extras);
    for (const [tableId, version] of versions) {
      const state = this.tablesById.get(tableId);
      if (!state) continue;
      // The new rowsets carry this table's newest version and the highest ids, so appending them keeps the
      // meta store's (version, id) order without re-reading every rowset of the table: a re-read made each
      // publish O(rowsets) of synchronous SQLite + JSON work, which starved readers under many small loads.
      const added: RowsetRecord[] = [];
      rowsets.forEach((rowset, idx) => {
        if (rowset.tableId === tableId && !rowset.rowBinlog) added.push({ id: rowsetIds[idx], tabletId: rowset.tabletId, tableId, txnId, version, segments: rowset.segments, numRows: rowset.numRows, dataSize: rowset.dataSize, createTime });
      });
      const rowsetList = added.length === 0 ? state.rowsets : [...state.rowsets, ...added];
      const ids = new Set(bitmaps.length === 0 ? [] : rowsetList.map((rowset) => rowset.id));
      const deleteBitmap = bitmaps.length === 0 ? state.deleteBitmap ?? DeleteBitmap.EMPTY : (state.deleteBitmap ?? DeleteBitmap.EMPTY).withDeletes(bitmaps.filter((delta) => ids.has(delta.rowsetId)));
      const deletePredicates = deletePredicate !== null && extras?.deletePredicate?.tableId === tableId ? [...(state.deletePredicates ?? []), deletePredicate] : state.deletePredicates;
      this.putTable({ ...state, rowsets: rowsetList, visibleVersion: version, deleteBitmap, deletePredicates });
    }
  }

  /**
   * Partial column update (Stream Load `partial_columns`, INSERT with enable_unique_key_partial_update):
   * `batch` holds full rows where only the columns in `given` (lower-case names) carry loaded values and
   * the others their defaults; rows whose key is visible take the other columns from that row. A new key
   * whose missing NOT NULL column has no default fails the load, as in Doris.
   */
  async fillPartialColumns(table: TableState, batch: Batch, given: ReadonlySet<string>): Promise<PartialBatch> {
    const storage = this.mergeOnWrite;
    if (storage === null || !isMergeOnWrite(table.schema)) throw new GaleneError('DML_ERROR', ['Only unique key merge on write support partial update']);
    const current = this.tablesById.get(table.schema.id) ?? table;
    ({ batch, given } = withOnUpdateTimestamps(table.schema, batch, given));
    const partialUpdate: PartialUpdate = { givenColumns: given, readVersion: current.visibleVersion };
    const filled = await storage.fillPartialColumns(current, batch, given);
    table.schema.columns.forEach((column, colIdx) => {
      const nulls = filled.columns[colIdx].nulls;
      if (!column.nullable && !given.has(column.name.toLowerCase()) && nulls !== null && nulls.indexOf(1) >= 0) {
        throw new GaleneError('DML_ERROR', [`the unmentioned column \`${column.name}\` should have default value or be nullable for newly inserted rows in partial update`]);
      }
    });
    return { ...filled, partialUpdate };
  }

  /**
   * DELETE on a merge-on-write table: mark rows deleted at a new table version, writing no data. The
   * caller holds the table's lock (withTableLock) while it finds the rows and calls this.
   */
  publishDeletes(txnId: number, tableId: number, bitmaps: readonly PendingBitmapDelta[], deletedRows: number, binlog: readonly NewRowset[] = []): void {
    this.publishNow(txnId, binlog, deletedRows, { bitmaps, tableIds: [tableId] });
  }

  /**
   * DELETE on the other models: a delete predicate at a new table version (applies to older rowsets).
   * `binlog`: the change-log rowsets of a row-binlog table (the deleted rows), published with it.
   */
  publishDeletePredicate(txnId: number, tableId: number, conditions: readonly DeleteCondition[], deletedRows: number, binlog: readonly NewRowset[] = []): void {
    this.publishNow(txnId, binlog, deletedRows, { tableIds: [tableId], deletePredicate: { tableId, conditions } });
  }

  /**
   * Rewrite the index records of a table's segments (MetaStore.rewriteSegmentIndexes: one SQLite
   * transaction), then its in-memory rowsets in the same synchronous step. BUILD INDEX and DROP INDEX.
   */
  rewriteSegmentIndexes(tableId: number, change: (rowset: RowsetRecord) => readonly SegmentRecord[] | null): number {
    const state = this.tablesById.get(tableId);
    const rewritten = this.meta.rewriteSegmentIndexes(tableId, change);
    if (state && rewritten > 0) this.putTable({ ...state, rowsets: this.meta.listRowsets(tableId) });
    return rewritten;
  }

  /**
   * Swap compacted rowsets for their merged replacement (see MetaStore.replaceRowsets); the retired
   * rowsets' delete bitmaps go with them (the merged rowset holds only their visible rows);
   * `addedDeletes` are rows of the merged rowset deleted while it was being written (merge-on-write).
   */
  applyCompaction(tableId: number, removedIds: readonly number[], added: NewRowset, version: number, txnId: number, addedDeletes: readonly Omit<BitmapDelta, 'rowsetId'>[] = []): void {
    const state = this.tablesById.get(tableId);
    const addedId = this.meta.replaceRowsets(removedIds, added, version, txnId, addedDeletes, state?.visibleVersion ?? version);
    if (state) {
      const deleteBitmap = (state.deleteBitmap ?? DeleteBitmap.EMPTY).withoutRowsets(removedIds).withDeletes(addedDeletes.map((deletes) => ({ ...deletes, rowsetId: addedId })));
      this.putTable({ ...state, rowsets: this.meta.listRowsets(tableId), deleteBitmap });
    }
  }
}
