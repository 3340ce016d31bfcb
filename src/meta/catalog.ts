/**
 * The catalog: the FE's in-memory view of databases, tables, tablets and visible rowsets, loaded from the
 * meta store at start-up and kept in step with it (every change goes to the meta store first, then here).
 *
 * Database and table names are case-sensitive, as in Doris with the default lower_case_table_names = 0;
 * column names are case-insensitive.
 */
import { GaleneError } from '../common/errors';
import { DatabaseRecord, MetaStore, NewRowset, RowsetRecord, TabletRecord } from './meta-store';
import type { TableSchema } from './schema';

/** A table with its tablets and the rowsets visible now. Replaced (not mutated) on every change. */
export interface TableState {
  readonly schema: TableSchema;
  readonly dbId: number;
  readonly tablets: readonly TabletRecord[];
  readonly rowsets: readonly RowsetRecord[];
  readonly visibleVersion: number;
}

export const INFORMATION_SCHEMA = 'information_schema';

export class Catalog {
  private readonly databases = new Map<string, DatabaseRecord>();
  /** key: `${dbId}/${tableName}` */
  private readonly tables = new Map<string, TableState>();
  private readonly tablesById = new Map<number, TableState>();

  constructor(readonly meta: MetaStore) {
    for (const db of meta.listDatabases()) this.databases.set(db.name, db);
    for (const { schema, dbId, visibleVersion } of meta.listTables()) {
      this.putTable({ schema, dbId, tablets: meta.listTablets(schema.id), rowsets: meta.listRowsets(schema.id), visibleVersion });
    }
  }

  private putTable(state: TableState): void {
    this.tables.set(`${state.dbId}/${state.schema.name}`, state);
    this.tablesById.set(state.schema.id, state);
  }

  private removeTable(state: TableState): void {
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
    if (this.tables.has(`${db.id}/${schema.name}`)) throw new GaleneError('TABLE_EXISTS', [schema.name]);
    const tablets = this.meta.createTable(db.id, schema);
    const state: TableState = { schema, dbId: db.id, tablets, rowsets: [], visibleVersion: 1 };
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
    this.putTable({ ...state, rowsets: [], visibleVersion: version });
    return keys;
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
   */
  publish(txnId: number, rowsets: readonly NewRowset[], loadedRows: number): void {
    for (const rowset of rowsets) {
      const state = this.tablesById.get(rowset.tableId);
      const versions = state ? state.rowsets.reduce((count, existing) => count + (existing.tabletId === rowset.tabletId ? 1 : 0), 0) : 0;
      if (versions >= this.maxTabletVersions) throw new GaleneError('TOO_MANY_VERSIONS', [versions, rowset.tabletId, this.maxTabletVersions]);
    }
    const versions = this.meta.commitTransaction(txnId, rowsets, loadedRows);
    for (const [tableId, version] of versions) {
      const state = this.tablesById.get(tableId);
      if (state) this.putTable({ ...state, rowsets: this.meta.listRowsets(tableId), visibleVersion: version });
    }
  }

  /** Swap compacted rowsets for their merged replacement (see MetaStore.replaceRowsets). */
  applyCompaction(tableId: number, removedIds: readonly number[], added: NewRowset, version: number, txnId: number): void {
    this.meta.replaceRowsets(removedIds, added, version, txnId);
    const state = this.tablesById.get(tableId);
    if (state) this.putTable({ ...state, rowsets: this.meta.listRowsets(tableId) });
  }
}
