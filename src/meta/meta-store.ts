/**
 * Durable metadata in SQLite (better-sqlite3, synchronous, WAL journal, synchronous=FULL): databases,
 * tables, tablets, rowsets with their versions, transactions and labels, users. Owned by the FE.
 *
 * Every state change is one SQLite transaction, so a crash leaves either the old or the new state: a
 * load is visible exactly when its rowset rows and the table's new visible version commit together.
 * Imports only common/ and meta/.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GaleneError } from '../common/errors';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../common/private-files';
import { BitmapDelta, conditionsFromJson, conditionsToJson, DeleteCondition, DeletePredicateRecord, encodeRowIds, decodeRowIds, PendingBitmapDelta } from './delete-bitmap';
import { partitionInfoOf, type PartitionRecord, type TableSchema } from './schema';
import type { TableStatsRecord } from './table-stats';
import type { ViewRecord } from './views';

export interface DatabaseRecord {
  readonly id: number;
  readonly name: string;
  readonly properties: Record<string, string>;
  readonly createTime: number;
}

export interface TabletRecord {
  readonly id: number;
  readonly tableId: number;
  readonly bucket: number;
  /** The partition (PartitionRecord.id) of a partitioned table's tablet; absent: unpartitioned. */
  readonly partitionId?: number;
}

export interface SegmentRecord {
  /** Object-store key of the segment file. */
  readonly key: string;
  readonly numRows: number;
  readonly size: number;
  /** Index files beside the segment (segmentIndexKey); absent or empty: none. */
  readonly indexes?: readonly SegmentIndexRecord[];
}

/** One index file of a segment: which index (by name) it belongs to, its object key and size. */
export interface SegmentIndexRecord {
  readonly name: string;
  readonly kind: 'ann' | 'inverted' | 'primary_key';
  readonly key: string;
  readonly size: number;
  /**
   * Primary-key index only: the segment's smallest and largest encoded key (base64) and the physical kinds
   * they were encoded from — Doris's `segments_key_bounds` in the rowset meta — so a point lookup skips a
   * segment whose range excludes the key without reading a byte of it. Absent on older records.
   */
  readonly keyBounds?: { readonly kinds: string; readonly min: string; readonly max: string };
}

/** The index file of `segment` for the index named `name` (of `kind`, when given); undefined: none. */
export function segmentIndexRecord(segment: SegmentRecord, name: string, kind?: SegmentIndexRecord['kind']): SegmentIndexRecord | undefined {
  return segment.indexes?.find((record) => record.name === name && (kind === undefined || record.kind === kind));
}

/** Every object key of a segment: the segment file and its index files. */
export function segmentObjectKeys(segment: SegmentRecord): string[] {
  return [segment.key, ...(segment.indexes ?? []).map((index) => index.key)];
}

export interface RowsetRecord {
  readonly id: number;
  readonly tabletId: number;
  readonly tableId: number;
  readonly txnId: number;
  /** Table version at which this rowset became visible. */
  readonly version: number;
  readonly segments: readonly SegmentRecord[];
  readonly numRows: number;
  readonly dataSize: number;
  readonly createTime: number;
}

/** PRECOMMITTED: a two-phase-commit load whose data is durable but waits for its commit/abort call. */
export type TxnStatus = 'PREPARE' | 'PRECOMMITTED' | 'COMMITTED' | 'VISIBLE' | 'ABORTED';

export interface TransactionRecord {
  readonly id: number;
  readonly dbId: number;
  readonly label: string;
  readonly status: TxnStatus;
  readonly tableIds: readonly number[];
  readonly createTime: number;
  readonly finishTime: number;
  readonly reason: string;
  readonly loadedRows: number;
}

export interface UserRecord {
  readonly user: string;
  readonly host: string;
  /** hex SHA1(SHA1(password)), '' for an empty password. */
  readonly passwordHash: string;
}

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta_ids (name TEXT PRIMARY KEY, next_id INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS databases (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, properties TEXT NOT NULL, create_time INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tables (id INTEGER PRIMARY KEY, db_id INTEGER NOT NULL, name TEXT NOT NULL, schema_json TEXT NOT NULL,
  visible_version INTEGER NOT NULL DEFAULT 1, UNIQUE (db_id, name));
CREATE TABLE IF NOT EXISTS tablets (id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, bucket INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS tablets_by_table ON tablets (table_id);
CREATE TABLE IF NOT EXISTS rowsets (id INTEGER PRIMARY KEY, tablet_id INTEGER NOT NULL, table_id INTEGER NOT NULL, txn_id INTEGER NOT NULL,
  version INTEGER NOT NULL, segments TEXT NOT NULL, num_rows INTEGER NOT NULL, data_size INTEGER NOT NULL, create_time INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS rowsets_by_table ON rowsets (table_id, version);
CREATE TABLE IF NOT EXISTS transactions (id INTEGER PRIMARY KEY, db_id INTEGER NOT NULL, label TEXT NOT NULL, status TEXT NOT NULL,
  table_ids TEXT NOT NULL, create_time INTEGER NOT NULL, finish_time INTEGER NOT NULL DEFAULT 0, reason TEXT NOT NULL DEFAULT '',
  loaded_rows INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS transactions_by_label ON transactions (db_id, label);
CREATE TABLE IF NOT EXISTS users (user TEXT NOT NULL, host TEXT NOT NULL, password_hash TEXT NOT NULL, PRIMARY KEY (user, host));
CREATE TABLE IF NOT EXISTS account_info (user TEXT NOT NULL, host TEXT NOT NULL, info TEXT NOT NULL, PRIMARY KEY (user, host));
CREATE TABLE IF NOT EXISTS roles (name TEXT PRIMARY KEY, info TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS txn_pending_rowsets (txn_id INTEGER PRIMARY KEY, rowsets TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS load_jobs (txn_id INTEGER PRIMARY KEY, info TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS delete_bitmaps (table_id INTEGER NOT NULL, rowset_id INTEGER NOT NULL, segment INTEGER NOT NULL, version INTEGER NOT NULL,
  bitmap BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS delete_bitmaps_by_table ON delete_bitmaps (table_id, version);
CREATE INDEX IF NOT EXISTS delete_bitmaps_by_rowset ON delete_bitmaps (rowset_id);
CREATE TABLE IF NOT EXISTS storage_vaults (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, type TEXT NOT NULL, properties TEXT NOT NULL, is_default INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS delete_predicates (id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, version INTEGER NOT NULL, conditions TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS row_binlog_rowsets (id INTEGER PRIMARY KEY, tablet_id INTEGER NOT NULL, table_id INTEGER NOT NULL, txn_id INTEGER NOT NULL,
  version INTEGER NOT NULL, segments TEXT NOT NULL, num_rows INTEGER NOT NULL, data_size INTEGER NOT NULL, create_time INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS row_binlog_rowsets_by_table ON row_binlog_rowsets (table_id, version);
CREATE TABLE IF NOT EXISTS views (id INTEGER PRIMARY KEY, db_id INTEGER NOT NULL, name TEXT NOT NULL, info TEXT NOT NULL, UNIQUE (db_id, name));
CREATE TABLE IF NOT EXISTS table_stats (table_id INTEGER PRIMARY KEY, info TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS backends (id INTEGER PRIMARY KEY, info TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS user_properties (user TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (user, key));
`;

interface RowsetRow {
  id: number;
  tablet_id: number;
  table_id: number;
  txn_id: number;
  version: number;
  segments: string;
  num_rows: number;
  data_size: number;
  create_time: number;
}

interface TxnRow {
  id: number;
  db_id: number;
  label: string;
  status: TxnStatus;
  table_ids: string;
  create_time: number;
  finish_time: number;
  reason: string;
  loaded_rows: number;
}

const toRowset = (row: RowsetRow): RowsetRecord => ({
  id: row.id,
  tabletId: row.tablet_id,
  tableId: row.table_id,
  txnId: row.txn_id,
  version: row.version,
  segments: JSON.parse(row.segments) as SegmentRecord[],
  numRows: row.num_rows,
  dataSize: row.data_size,
  createTime: row.create_time,
});

const toTxn = (row: TxnRow): TransactionRecord => ({
  id: row.id,
  dbId: row.db_id,
  label: row.label,
  status: row.status,
  tableIds: JSON.parse(row.table_ids) as number[],
  createTime: row.create_time,
  finishTime: row.finish_time,
  reason: row.reason,
  loadedRows: row.loaded_rows,
});

/** A new rowset to publish in a commit. */
export interface NewRowset {
  readonly tabletId: number;
  readonly tableId: number;
  readonly segments: readonly SegmentRecord[];
  readonly numRows: number;
  readonly dataSize: number;
  /**
   * A change-log rowset of the table's row binlog (meta/row-binlog.ts): published with the data rowsets at
   * the same version, but kept in row_binlog_rowsets, apart from the rowsets scans and compaction read.
   */
  readonly rowBinlog?: true;
}

export class MetaStore {
  private readonly db: Database.Database;
  /** Load transactions begun, published and aborted since the process started (doris_fe_txn_* metrics). */
  readonly txnCounts = { begin: 0, success: 0, failed: 0 };
  /**
   * Rows and rowset bytes made visible by load transactions (Stream Load, INSERT, Group Commit batches,
   * 2PC commits; not DELETE, which writes no rowset) since the process started: doris_be_load_rows/_bytes.
   */
  readonly loadedCounts = { rows: 0, bytes: 0 };

  constructor(metaDir: string) {
    makePrivateDir(metaDir);
    const file = path.join(metaDir, 'galene-meta.db');
    try {
      // Owner-only: SQLite gives its -wal and -shm files the mode of the database file.
      fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
      fs.chmodSync(file, PRIVATE_FILE_MODE);
      this.db = new Database(file);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.exec(SCHEMA_SQL);
      // Meta stores made before partitions: their tablets are all of the table's one partition (0).
      const tabletColumns = this.db.prepare('PRAGMA table_info(tablets)').all() as { name: string }[];
      if (!tabletColumns.some((column) => column.name === 'partition_id')) this.db.exec('ALTER TABLE tablets ADD COLUMN partition_id INTEGER NOT NULL DEFAULT 0');
    } catch (err) {
      throw new GaleneError('IO_ERROR', [`cannot open meta store in ${metaDir}: ${(err as Error).message}`], { cause: err });
    }
  }

  close(): void {
    this.db.close();
  }

  /** Prepared statements of the load commit path, prepared once (preparing costs more than running). */
  private readonly statements = new Map<string, Database.Statement>();

  private cached(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Run `fn` in one SQLite transaction (all or nothing). */
  transaction<T>(fn: () => T): T {
    const outermost = this.transactionDepth === 0;
    const start = outermost ? performance.now() : 0;
    this.transactionDepth++;
    try {
      return this.db.transaction(fn)();
    } finally {
      this.transactionDepth--;
      if (outermost) this.onWriteLatency?.(performance.now() - start);
    }
  }

  private transactionDepth = 0;
  /** Told the milliseconds of each outermost write transaction (the FE's doris_fe_editlog_write_latency_ms). */
  onWriteLatency: ((ms: number) => void) | null = null;

  /**
   * Next id of a named sequence (table ids, tablet ids, txn ids, a table's AUTO_INCREMENT values), `count`
   * of them; a new sequence starts at `start`. Never reused, even after a crash.
   */
  nextId(sequence: string, count = 1, start = sequence === 'txn' ? 1000 : 10000): number {
    return this.transaction(() => {
      const row = this.cached('SELECT next_id FROM meta_ids WHERE name = ?').get(sequence) as { next_id: number } | undefined;
      const first = row ? row.next_id : start;
      this.cached('INSERT INTO meta_ids (name, next_id) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET next_id = excluded.next_id').run(sequence, first + count);
      return first;
    });
  }

  // ------------------------------------------------------------ databases

  listDatabases(): DatabaseRecord[] {
    return (this.db.prepare('SELECT id, name, properties, create_time FROM databases ORDER BY name').all() as { id: number; name: string; properties: string; create_time: number }[]).map((row) => ({
      id: row.id,
      name: row.name,
      properties: JSON.parse(row.properties) as Record<string, string>,
      createTime: row.create_time,
    }));
  }

  createDatabase(name: string, properties: Record<string, string>): DatabaseRecord {
    const id = this.nextId('object');
    const createTime = Date.now();
    this.db.prepare('INSERT INTO databases (id, name, properties, create_time) VALUES (?, ?, ?, ?)').run(id, name, JSON.stringify(properties), createTime);
    return { id, name, properties, createTime };
  }

  /** Drop a database and everything in it; returns the object keys its rowsets referenced. */
  dropDatabase(dbId: number): string[] {
    return this.transaction(() => {
      const keys: string[] = [];
      for (const table of this.db.prepare('SELECT id FROM tables WHERE db_id = ?').all(dbId) as { id: number }[]) keys.push(...this.dropTableRows(table.id));
      this.db.prepare('DELETE FROM views WHERE db_id = ?').run(dbId);
      this.db.prepare('DELETE FROM databases WHERE id = ?').run(dbId);
      return keys;
    });
  }

  // ------------------------------------------------------------ tables

  listTables(): { schema: TableSchema; dbId: number; visibleVersion: number }[] {
    return (this.db.prepare('SELECT db_id, schema_json, visible_version FROM tables').all() as { db_id: number; schema_json: string; visible_version: number }[]).map((row) => ({
      schema: JSON.parse(row.schema_json) as TableSchema,
      dbId: row.db_id,
      visibleVersion: row.visible_version,
    }));
  }

  /**
   * Create a table and its tablets atomically (one per bucket; of a partitioned table, one per bucket of
   * each partition); returns the tablets.
   */
  createTable(dbId: number, schema: TableSchema): TabletRecord[] {
    return this.transaction(() => {
      this.db.prepare('INSERT INTO tables (id, db_id, name, schema_json, visible_version) VALUES (?, ?, ?, ?, 1)').run(schema.id, dbId, schema.name, JSON.stringify(schema));
      const partitions = partitionInfoOf(schema)?.partitions;
      if (partitions === undefined) return this.insertTablets(schema.id, null, schema.distribution.buckets);
      return partitions.flatMap((partition) => this.insertTablets(schema.id, partition.id, partition.buckets));
    });
  }

  private insertTablets(tableId: number, partitionId: number | null, buckets: number): TabletRecord[] {
    const firstTablet = this.nextId('object', buckets);
    const tablets: TabletRecord[] = [];
    const insert = this.cached('INSERT INTO tablets (id, table_id, bucket, partition_id) VALUES (?, ?, ?, ?)');
    for (let bucket = 0; bucket < buckets; bucket++) {
      insert.run(firstTablet + bucket, tableId, bucket, partitionId ?? 0);
      tablets.push(partitionId === null ? { id: firstTablet + bucket, tableId, bucket } : { id: firstTablet + bucket, tableId, bucket, partitionId });
    }
    return tablets;
  }

  /**
   * Replace a partitioned table's schema (partitions added or dropped) with its tablets in one
   * transaction: `added` partitions get their tablets; the tablets of `dropped` partition ids go with their
   * rowsets, delete bitmaps and row binlog. Returns the new tablets and the object keys to delete.
   */
  changePartitions(schema: TableSchema, added: readonly PartitionRecord[], dropped: readonly number[]): { tablets: TabletRecord[]; keys: string[] } {
    return this.transaction(() => {
      this.updateTableSchema(schema);
      const keys = dropped.length === 0 ? [] : this.removeTabletRows(schema.id, dropped, true);
      const tablets = added.flatMap((partition) => this.insertTablets(schema.id, partition.id, partition.buckets));
      return { tablets, keys };
    });
  }

  /**
   * Remove the rowsets (and their bitmaps and row binlog) of the tablets of `partitionIds`, and with
   * `dropTablets` the tablets too; returns the object keys. TRUNCATE ... PARTITION bumps the version.
   */
  private removeTabletRows(tableId: number, partitionIds: readonly number[], dropTablets: boolean): string[] {
    const tabletIds = new Set(this.listTablets(tableId).filter((tablet) => partitionIds.includes(tablet.partitionId ?? 0)).map((tablet) => tablet.id));
    const rowsets = this.listRowsets(tableId).filter((rowset) => tabletIds.has(rowset.tabletId));
    const binlog = this.listBinlogRowsets(tableId).filter((rowset) => tabletIds.has(rowset.tabletId));
    const keys = [...rowsets, ...binlog].flatMap((rowset) => rowset.segments.flatMap(segmentObjectKeys));
    const deleteRowset = this.cached('DELETE FROM rowsets WHERE id = ?');
    const deleteBitmaps = this.cached('DELETE FROM delete_bitmaps WHERE rowset_id = ?');
    const deleteBinlog = this.cached('DELETE FROM row_binlog_rowsets WHERE id = ?');
    for (const rowset of rowsets) {
      deleteRowset.run(rowset.id);
      deleteBitmaps.run(rowset.id);
    }
    for (const rowset of binlog) deleteBinlog.run(rowset.id);
    if (dropTablets) for (const tabletId of tabletIds) this.cached('DELETE FROM tablets WHERE id = ?').run(tabletId);
    return keys;
  }

  /** Remove every rowset of some partitions of a table (TRUNCATE TABLE t PARTITION (...)); returns their object keys. */
  truncatePartitions(tableId: number, partitionIds: readonly number[]): { keys: string[]; version: number } {
    return this.transaction(() => {
      const keys = this.removeTabletRows(tableId, partitionIds, false);
      this.db.prepare('UPDATE tables SET visible_version = visible_version + 1 WHERE id = ?').run(tableId);
      const row = this.db.prepare('SELECT visible_version FROM tables WHERE id = ?').get(tableId) as { visible_version: number };
      return { keys, version: row.visible_version };
    });
  }

  updateTableSchema(schema: TableSchema): void {
    this.db.prepare('UPDATE tables SET schema_json = ?, name = ? WHERE id = ?').run(JSON.stringify(schema), schema.name, schema.id);
  }

  /** Drop a table; returns the object keys of its segments for deletion. */
  dropTable(tableId: number): string[] {
    return this.transaction(() => this.dropTableRows(tableId));
  }

  private dropTableRows(tableId: number): string[] {
    const keys = [...this.listRowsets(tableId), ...this.listBinlogRowsets(tableId)].flatMap((rowset) => rowset.segments.flatMap(segmentObjectKeys));
    this.db.prepare('DELETE FROM rowsets WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM row_binlog_rowsets WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM delete_bitmaps WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM delete_predicates WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM tablets WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM tables WHERE id = ?').run(tableId);
    this.db.prepare('DELETE FROM table_stats WHERE table_id = ?').run(tableId);
    return keys;
  }

  /** Remove every rowset of a table (TRUNCATE); returns their object keys. */
  /**
   * Remove a table's rowsets, row binlog, delete bitmaps and delete predicates, inside the caller's
   * transaction (TRUNCATE, INSERT OVERWRITE). The row binlog goes too: its rows describe data that is
   * gone. Returns the object keys they referenced.
   */
  private clearTableData(tableId: number): string[] {
    const keys = [...this.listRowsets(tableId), ...this.listBinlogRowsets(tableId)].flatMap((rowset) => rowset.segments.flatMap(segmentObjectKeys));
    this.db.prepare('DELETE FROM rowsets WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM row_binlog_rowsets WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM delete_bitmaps WHERE table_id = ?').run(tableId);
    this.db.prepare('DELETE FROM delete_predicates WHERE table_id = ?').run(tableId);
    return keys;
  }

  truncateTable(tableId: number): { keys: string[]; version: number } {
    return this.transaction(() => {
      const keys = this.clearTableData(tableId);
      this.db.prepare('UPDATE tables SET visible_version = visible_version + 1 WHERE id = ?').run(tableId);
      const row = this.db.prepare('SELECT visible_version FROM tables WHERE id = ?').get(tableId) as { visible_version: number };
      return { keys, version: row.visible_version };
    });
  }

  listTablets(tableId: number): TabletRecord[] {
    // A partitioned table's tablets: by partition (ids grow with creation), then bucket.
    return (this.db.prepare('SELECT id, table_id, bucket, partition_id FROM tablets WHERE table_id = ? ORDER BY partition_id, bucket').all(tableId) as { id: number; table_id: number; bucket: number; partition_id: number }[]).map((row) =>
      row.partition_id === 0 ? { id: row.id, tableId: row.table_id, bucket: row.bucket } : { id: row.id, tableId: row.table_id, bucket: row.bucket, partitionId: row.partition_id },
    );
  }

  listRowsets(tableId: number): RowsetRecord[] {
    return (this.db.prepare('SELECT * FROM rowsets WHERE table_id = ? ORDER BY version, id').all(tableId) as RowsetRow[]).map(toRowset);
  }

  /**
   * The change-log rowsets of a table's row binlog (meta/row-binlog.ts) with versions in [fromVersion,
   * toVersion], oldest first.
   */
  listBinlogRowsets(tableId: number, fromVersion = 0, toVersion = Number.MAX_SAFE_INTEGER): RowsetRecord[] {
    return (this.cached('SELECT * FROM row_binlog_rowsets WHERE table_id = ? AND version >= ? AND version <= ? ORDER BY version, id').all(tableId, fromVersion, toVersion) as RowsetRow[]).map(toRowset);
  }

  /**
   * Retention of a tablet's row binlog: drop its change-log rowsets created before `createdBefore` (ms)
   * and, beyond the newest `keepNewest`, the older ones. Returns the object keys to delete.
   */
  expireBinlogRowsets(tableId: number, tabletId: number, createdBefore: number, keepNewest: number): string[] {
    return this.transaction(() => {
      const rows = this.cached('SELECT * FROM row_binlog_rowsets WHERE table_id = ? AND tablet_id = ? ORDER BY version DESC, id DESC').all(tableId, tabletId) as RowsetRow[];
      const expired = rows.filter((row, idx) => row.create_time < createdBefore || idx >= keepNewest);
      const remove = this.cached('DELETE FROM row_binlog_rowsets WHERE id = ?');
      for (const row of expired) remove.run(row.id);
      return expired.flatMap((row) => toRowset(row).segments.flatMap(segmentObjectKeys));
    });
  }

  /** Every segment key any rowset references (orphan clean-up at start-up). */
  allSegmentKeys(): Set<string> {
    const keys = new Set<string>();
    for (const table of ['rowsets', 'row_binlog_rowsets']) {
      for (const row of this.db.prepare(`SELECT segments FROM ${table}`).iterate() as Iterable<{ segments: string }>) {
        for (const segment of JSON.parse(row.segments) as SegmentRecord[]) for (const key of segmentObjectKeys(segment)) keys.add(key);
      }
    }
    // Segments of a pre-committed (two-phase) load are durable too: they wait for their commit call.
    for (const row of this.db.prepare('SELECT rowsets FROM txn_pending_rowsets').iterate() as Iterable<{ rowsets: string }>) {
      for (const rowset of JSON.parse(row.rowsets) as NewRowset[]) for (const segment of rowset.segments) for (const key of segmentObjectKeys(segment)) keys.add(key);
    }
    return keys;
  }

  // ------------------------------------------------------------ transactions

  /**
   * Start a load transaction (id and PREPARE record in one SQLite transaction). It is written without
   * its own fsync (synchronous=NORMAL for this one commit): nothing depends on it surviving a crash — an
   * unpublished load is never visible and its objects are orphans that start-up deletes — and the WAL
   * fsync of the next FULL commit (the publish) makes it durable together with everything before it.
   */
  beginTransaction(dbId: number, label: string, tableIds: readonly number[]): TransactionRecord {
    const createTime = Date.now();
    this.txnCounts.begin++;
    this.cached('PRAGMA synchronous = NORMAL').run();
    let id: number;
    try {
      id = this.transaction(() => {
        const txnId = this.nextId('txn');
        this.cached('INSERT INTO transactions (id, db_id, label, status, table_ids, create_time) VALUES (?, ?, ?, ?, ?, ?)').run(txnId, dbId, label, 'PREPARE', JSON.stringify(tableIds), createTime);
        return txnId;
      });
    } finally {
      this.cached('PRAGMA synchronous = FULL').run();
    }
    return { id, dbId, label, status: 'PREPARE', tableIds, createTime, finishTime: 0, reason: '', loadedRows: 0 };
  }

  /**
   * Publish a transaction: its rowsets become visible at a new version of each table they belong to, and
   * the transaction becomes VISIBLE — one SQLite transaction, so all or nothing.
   * Returns the new visible version per table.
   */
  commitTransaction(txnId: number, rowsets: readonly NewRowset[], loadedRows: number): Map<number, number> {
    return this.publishTransaction(txnId, rowsets, loadedRows).versions;
  }

  /**
   * commitTransaction with what a table-model write adds in the same SQLite transaction: delete bitmap
   * deltas (merge-on-write: rows the new rowsets replace, or rows a DELETE removes), a delete predicate,
   * and tables whose version advances without a rowset (DELETE); `replaceTableIds` (INSERT OVERWRITE):
   * tables whose existing data the new rowsets replace, removed in the same SQLite transaction
   * (`replacePartitions`: INSERT OVERWRITE ... PARTITION, only those partitions' data). Returns
   * the new version per table, the ids given to `rowsets` (same order), the bitmap deltas with every
   * rowset id resolved and the object keys of replaced data (`retiredKeys`).
   */
  publishTransaction(
    txnId: number,
    rowsets: readonly NewRowset[],
    loadedRows: number,
    extras: {
      readonly bitmaps?: readonly PendingBitmapDelta[];
      readonly tableIds?: readonly number[];
      readonly deletePredicate?: { readonly tableId: number; readonly conditions: readonly DeleteCondition[] };
      readonly replaceTableIds?: readonly number[];
      readonly replacePartitions?: { readonly tableId: number; readonly partitionIds: readonly number[] };
    } = {},
  ): { versions: Map<number, number>; rowsetIds: number[]; createTime: number; bitmaps: BitmapDelta[]; deletePredicate: DeletePredicateRecord | null; retiredKeys: string[] } {
    const published = this.transaction(() => {
      const retiredKeys = (extras.replaceTableIds ?? []).flatMap((tableId) => this.clearTableData(tableId));
      if (extras.replacePartitions) retiredKeys.push(...this.removeTabletRows(extras.replacePartitions.tableId, extras.replacePartitions.partitionIds, false));
      const versions = new Map<number, number>();
      const tableIds = [...new Set([...rowsets.map((rowset) => rowset.tableId), ...(extras.tableIds ?? [])])];
      for (const tableId of tableIds) {
        this.cached('UPDATE tables SET visible_version = visible_version + 1 WHERE id = ?').run(tableId);
        const row = this.cached('SELECT visible_version FROM tables WHERE id = ?').get(tableId) as { visible_version: number } | undefined;
        if (!row) throw new GaleneError('UNKNOWN_TABLE', [String(tableId)]);
        versions.set(tableId, row.visible_version);
      }
      const firstId = this.nextId('rowset', Math.max(1, rowsets.length));
      const insert = this.cached('INSERT INTO rowsets (id, tablet_id, table_id, txn_id, version, segments, num_rows, data_size, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      const insertBinlog = this.cached('INSERT INTO row_binlog_rowsets (id, tablet_id, table_id, txn_id, version, segments, num_rows, data_size, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      const now = Date.now();
      const rowsetIds = rowsets.map((rowset, idx) => {
        (rowset.rowBinlog ? insertBinlog : insert).run(firstId + idx, rowset.tabletId, rowset.tableId, txnId, versions.get(rowset.tableId)!, JSON.stringify(rowset.segments), rowset.numRows, rowset.dataSize, now);
        return firstId + idx;
      });
      const bitmaps: BitmapDelta[] = [];
      const insertBitmap = this.cached('INSERT INTO delete_bitmaps (table_id, rowset_id, segment, version, bitmap) VALUES (?, ?, ?, ?, ?)');
      for (const pending of extras.bitmaps ?? []) {
        if (pending.rowIds.length === 0) continue;
        const delta: BitmapDelta = 'newRowsetIdx' in pending ? { rowsetId: rowsetIds[pending.newRowsetIdx], segment: pending.segment, rowIds: pending.rowIds } : pending;
        const tableId = 'newRowsetIdx' in pending ? rowsets[pending.newRowsetIdx].tableId : this.rowsetTableId(delta.rowsetId);
        const version = versions.get(tableId);
        if (version === undefined) throw new GaleneError('INTERNAL', [`delete bitmap of rowset ${delta.rowsetId} outside the published tables`]);
        insertBitmap.run(tableId, delta.rowsetId, delta.segment, version, encodeRowIds(delta.rowIds));
        bitmaps.push(delta);
      }
      let deletePredicate: DeletePredicateRecord | null = null;
      if (extras.deletePredicate) {
        const { tableId, conditions } = extras.deletePredicate;
        const version = versions.get(tableId);
        if (version === undefined) throw new GaleneError('INTERNAL', [`delete predicate of table ${tableId} outside the published tables`]);
        const id = this.nextId('object');
        this.cached('INSERT INTO delete_predicates (id, table_id, version, conditions) VALUES (?, ?, ?, ?)').run(id, tableId, version, conditionsToJson(conditions));
        deletePredicate = { id, version, conditions };
      }
      this.cached("UPDATE transactions SET status = 'VISIBLE', finish_time = ?, loaded_rows = ? WHERE id = ?").run(now, loadedRows, txnId);
      return { versions, rowsetIds, createTime: now, bitmaps, deletePredicate, retiredKeys };
    });
    this.txnCounts.success++;
    if (rowsets.length > 0) {
      this.loadedCounts.rows += loadedRows;
      this.loadedCounts.bytes += rowsets.reduce((sum, rowset) => sum + (rowset.rowBinlog ? 0 : rowset.dataSize), 0);
    }
    return published;
  }

  private rowsetTableId(rowsetId: number): number {
    const row = this.cached('SELECT table_id FROM rowsets WHERE id = ?').get(rowsetId) as { table_id: number } | undefined;
    if (!row) throw new GaleneError('INTERNAL', [`delete bitmap of rowset ${rowsetId}, which is gone`]);
    return row.table_id;
  }

  /** Every delete bitmap delta of a table, oldest version first (merged by the catalog at start-up). */
  listDeleteBitmaps(tableId: number): BitmapDelta[] {
    return (this.db.prepare('SELECT rowset_id, segment, bitmap FROM delete_bitmaps WHERE table_id = ? ORDER BY version').all(tableId) as { rowset_id: number; segment: number; bitmap: Buffer }[]).map(
      (row) => ({ rowsetId: row.rowset_id, segment: row.segment, rowIds: decodeRowIds(new Uint8Array(row.bitmap.buffer, row.bitmap.byteOffset, row.bitmap.byteLength)) }),
    );
  }

  /** Delete predicates of a table, oldest first. */
  listDeletePredicates(tableId: number): DeletePredicateRecord[] {
    return (this.db.prepare('SELECT id, version, conditions FROM delete_predicates WHERE table_id = ? ORDER BY version, id').all(tableId) as { id: number; version: number; conditions: string }[]).map((row) => ({
      id: row.id,
      version: row.version,
      conditions: conditionsFromJson(row.conditions),
    }));
  }

  /**
   * Compaction's commit: retire `removedIds` and add one rowset in their place at `version` (the newest
   * version among them, so read order is unchanged) — one SQLite transaction. Throws INTERNAL (changing
   * nothing) when one of the rowsets is already gone, e.g. the table was truncated meanwhile.
   * `addedDeletes` (merge-on-write) are rows of the new rowset already deleted — by loads published
   * while the compaction merged — recorded at `deletesVersion`. Returns the new rowset's id.
   */
  replaceRowsets(removedIds: readonly number[], added: NewRowset, version: number, txnId: number, addedDeletes: readonly Omit<BitmapDelta, 'rowsetId'>[] = [], deletesVersion = version): number {
    return this.transaction(() => {
      const remove = this.db.prepare('DELETE FROM rowsets WHERE id = ?');
      for (const id of removedIds) {
        if (remove.run(id).changes === 0) throw new GaleneError('INTERNAL', [`compaction input rowset ${id} is gone`]);
        this.cached('DELETE FROM delete_bitmaps WHERE rowset_id = ?').run(id);
      }
      const id = this.nextId('rowset');
      this.db
        .prepare('INSERT INTO rowsets (id, tablet_id, table_id, txn_id, version, segments, num_rows, data_size, create_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(id, added.tabletId, added.tableId, txnId, version, JSON.stringify(added.segments), added.numRows, added.dataSize, Date.now());
      const insertBitmap = this.cached('INSERT INTO delete_bitmaps (table_id, rowset_id, segment, version, bitmap) VALUES (?, ?, ?, ?, ?)');
      for (const { segment, rowIds } of addedDeletes) if (rowIds.length > 0) insertBitmap.run(added.tableId, id, segment, deletesVersion, encodeRowIds(rowIds));
      return id;
    });
  }

  /**
   * Rewrite the segments of `tableId`'s rowsets in one SQLite transaction — how index records are attached
   * (BUILD INDEX) and removed (DROP INDEX) atomically: `change` gets each rowset as stored now and returns
   * its new segments (same keys, same order; only `indexes` may differ), or null to leave it. A rowset
   * compacted away is simply not offered. Returns how many rowsets were rewritten.
   */
  rewriteSegmentIndexes(tableId: number, change: (rowset: RowsetRecord) => readonly SegmentRecord[] | null): number {
    return this.transaction(() => {
      const update = this.cached('UPDATE rowsets SET segments = ? WHERE id = ?');
      let rewritten = 0;
      for (const rowset of this.listRowsets(tableId)) {
        const segments = change(rowset);
        if (segments === null) continue;
        if (segments.length !== rowset.segments.length || segments.some((segment, idx) => segment.key !== rowset.segments[idx].key)) {
          throw new GaleneError('INTERNAL', [`rewriteSegmentIndexes changed the segments of rowset ${rowset.id}`]);
        }
        update.run(JSON.stringify(segments), rowset.id);
        rewritten++;
      }
      return rewritten;
    });
  }

  abortTransaction(txnId: number, reason: string): void {
    this.txnCounts.failed += this.db.prepare("UPDATE transactions SET status = 'ABORTED', finish_time = ?, reason = ? WHERE id = ? AND status = 'PREPARE'").run(Date.now(), reason, txnId).changes;
  }

  /** Transactions left in PREPARE by a crash are aborted at start-up. */
  abortUnfinishedTransactions(): number {
    return this.db.prepare("UPDATE transactions SET status = 'ABORTED', finish_time = ?, reason = 'aborted at restart' WHERE status = 'PREPARE'").run(Date.now()).changes;
  }

  findTransactionByLabel(dbId: number, label: string): TransactionRecord | null {
    const row = this.cached("SELECT * FROM transactions WHERE db_id = ? AND label = ? AND status != 'ABORTED' ORDER BY id DESC LIMIT 1").get(dbId, label) as TxnRow | undefined;
    return row ? toTxn(row) : null;
  }

  getTransaction(txnId: number): TransactionRecord | null {
    const row = this.db.prepare('SELECT * FROM transactions WHERE id = ?').get(txnId) as TxnRow | undefined;
    return row ? toTxn(row) : null;
  }

  /**
   * Two-phase commit, first phase: keep the load's rowsets durable but invisible (status PRECOMMITTED,
   * which survives a restart) until commitTransaction publishes them or abortPrecommitted drops them.
   */
  precommitTransaction(txnId: number, rowsets: readonly NewRowset[], loadedRows: number): void {
    this.transaction(() => {
      const changed = this.db.prepare("UPDATE transactions SET status = 'PRECOMMITTED', loaded_rows = ? WHERE id = ? AND status = 'PREPARE'").run(loadedRows, txnId).changes;
      if (changed === 0) throw new GaleneError('INTERNAL', [`transaction ${txnId} is not in PREPARE state`]);
      this.db.prepare('INSERT INTO txn_pending_rowsets (txn_id, rowsets) VALUES (?, ?)').run(txnId, JSON.stringify(rowsets));
    });
  }

  /** The rowsets a PRECOMMITTED transaction will publish. */
  pendingRowsets(txnId: number): NewRowset[] {
    const row = this.db.prepare('SELECT rowsets FROM txn_pending_rowsets WHERE txn_id = ?').get(txnId) as { rowsets: string } | undefined;
    return row ? (JSON.parse(row.rowsets) as NewRowset[]) : [];
  }

  /** Forget a transaction's pending rowsets (after it was published or aborted). */
  deletePendingRowsets(txnId: number): void {
    this.db.prepare('DELETE FROM txn_pending_rowsets WHERE txn_id = ?').run(txnId);
  }

  /** Abort a PRECOMMITTED transaction; returns the object keys it had written (to delete). */
  abortPrecommitted(txnId: number, reason: string): string[] {
    return this.transaction(() => {
      const keys = this.pendingRowsets(txnId).flatMap((rowset) => rowset.segments.flatMap(segmentObjectKeys));
      this.txnCounts.failed += this.db.prepare("UPDATE transactions SET status = 'ABORTED', finish_time = ?, reason = ? WHERE id = ? AND status = 'PRECOMMITTED'").run(Date.now(), reason, txnId).changes;
      this.deletePendingRowsets(txnId);
      return keys;
    });
  }

  /** Transactions for SHOW LOAD / SHOW TRANSACTION, newest first. */
  listTransactions(filter: { dbId?: number; label?: string; id?: number; limit?: number } = {}): TransactionRecord[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (filter.dbId !== undefined) {
      where.push('db_id = ?');
      args.push(filter.dbId);
    }
    if (filter.label !== undefined) {
      where.push('label = ?');
      args.push(filter.label);
    }
    if (filter.id !== undefined) {
      where.push('id = ?');
      args.push(filter.id);
    }
    const sql = `SELECT * FROM transactions${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY id DESC LIMIT ?`;
    return (this.db.prepare(sql).all(...args, filter.limit ?? 1_000_000) as TxnRow[]).map(toTxn);
  }

  /** Extra facts about a load (row counts, error URL, type) kept beside its transaction for SHOW LOAD. */
  putLoadJobInfo(txnId: number, info: Record<string, unknown>): void {
    this.db.prepare('INSERT INTO load_jobs (txn_id, info) VALUES (?, ?) ON CONFLICT(txn_id) DO UPDATE SET info = excluded.info').run(txnId, JSON.stringify(info));
  }

  getLoadJobInfo(txnId: number): Record<string, unknown> | null {
    const row = this.db.prepare('SELECT info FROM load_jobs WHERE txn_id = ?').get(txnId) as { info: string } | undefined;
    return row ? (JSON.parse(row.info) as Record<string, unknown>) : null;
  }

  /**
   * Forget finished (VISIBLE or ABORTED) transactions that ended before `cutoffMs`, so their labels can be
   * used again (Doris label_keep_max_second). Returns how many were removed.
   */
  removeExpiredTransactions(cutoffMs: number): number {
    return this.transaction(() => {
      this.db.prepare("DELETE FROM load_jobs WHERE txn_id IN (SELECT id FROM transactions WHERE status IN ('VISIBLE', 'ABORTED') AND finish_time < ?)").run(cutoffMs);
      return this.db.prepare("DELETE FROM transactions WHERE status IN ('VISIBLE', 'ABORTED') AND finish_time < ?").run(cutoffMs).changes;
    });
  }

  // ------------------------------------------------------------ users

  listUsers(): UserRecord[] {
    return (this.db.prepare('SELECT user, host, password_hash FROM users').all() as { user: string; host: string; password_hash: string }[]).map((row) => ({
      user: row.user,
      host: row.host,
      passwordHash: row.password_hash,
    }));
  }

  putUser(user: UserRecord): void {
    this.db.prepare('INSERT INTO users (user, host, password_hash) VALUES (?, ?, ?) ON CONFLICT(user, host) DO UPDATE SET password_hash = excluded.password_hash').run(user.user, user.host, user.passwordHash);
  }

  deleteUser(user: string, host: string): boolean {
    return this.transaction(() => {
      this.db.prepare('DELETE FROM account_info WHERE user = ? AND host = ?').run(user, host);
      return this.db.prepare('DELETE FROM users WHERE user = ? AND host = ?').run(user, host).changes > 0;
    });
  }

  // ------------------------------------------------------------ privileges (JSON the FE's user manager owns)

  /** Per-account facts beside the credentials: grants, roles, password policy and lock-out state. */
  listAccountInfo(): { user: string; host: string; info: string }[] {
    return this.db.prepare('SELECT user, host, info FROM account_info').all() as { user: string; host: string; info: string }[];
  }

  putAccountInfo(user: string, host: string, info: string): void {
    this.db.prepare('INSERT INTO account_info (user, host, info) VALUES (?, ?, ?) ON CONFLICT(user, host) DO UPDATE SET info = excluded.info').run(user, host, info);
  }

  listRoles(): { name: string; info: string }[] {
    return this.db.prepare('SELECT name, info FROM roles ORDER BY name').all() as { name: string; info: string }[];
  }

  putRole(name: string, info: string): void {
    this.db.prepare('INSERT INTO roles (name, info) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET info = excluded.info').run(name, info);
  }

  deleteRole(name: string): boolean {
    return this.db.prepare('DELETE FROM roles WHERE name = ?').run(name).changes > 0;
  }

  // ------------------------------------------------------------ column statistics (meta/table-stats.ts)

  getTableStats(tableId: number): TableStatsRecord | null {
    const row = this.cached('SELECT info FROM table_stats WHERE table_id = ?').get(tableId) as { info: string } | undefined;
    return row ? (JSON.parse(row.info) as TableStatsRecord) : null;
  }

  putTableStats(stats: TableStatsRecord): void {
    this.cached('INSERT INTO table_stats (table_id, info) VALUES (?, ?) ON CONFLICT(table_id) DO UPDATE SET info = excluded.info').run(stats.tableId, JSON.stringify(stats));
  }

  deleteTableStats(tableId: number): boolean {
    return this.cached('DELETE FROM table_stats WHERE table_id = ?').run(tableId).changes > 0;
  }

  // ------------------------------------------------------------ views (meta/views.ts)

  listViews(): ViewRecord[] {
    return (this.db.prepare('SELECT info FROM views ORDER BY id').all() as { info: string }[]).map((row) => JSON.parse(row.info) as ViewRecord);
  }

  /** Create a view, or replace the one of the same id (CREATE OR REPLACE / ALTER VIEW). */
  putView(view: ViewRecord): void {
    this.db.prepare('INSERT INTO views (id, db_id, name, info) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name, info = excluded.info').run(view.id, view.dbId, view.name, JSON.stringify(view));
  }

  dropView(id: number): void {
    this.db.prepare('DELETE FROM views WHERE id = ?').run(id);
  }

  // ------------------------------------------------------------ cluster membership (meta/cluster-membership.ts owns it)

  listBackendRows(): string[] {
    return (this.cached('SELECT info FROM backends ORDER BY id').all() as { info: string }[]).map((row) => row.info);
  }

  putBackendRow(id: number, info: string): void {
    this.cached('INSERT INTO backends (id, info) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET info = excluded.info').run(id, info);
  }

  deleteBackendRow(id: number): void {
    this.cached('DELETE FROM backends WHERE id = ?').run(id);
  }

  /** Doris user properties (SET PROPERTY), per user name (every host of the user). */
  getUserProperty(user: string, key: string): string | null {
    const row = this.cached('SELECT value FROM user_properties WHERE user = ? AND key = ?').get(user, key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  setUserProperty(user: string, key: string, value: string): void {
    if (value === '') this.cached('DELETE FROM user_properties WHERE user = ? AND key = ?').run(user, key);
    else this.cached('INSERT INTO user_properties (user, key, value) VALUES (?, ?, ?) ON CONFLICT(user, key) DO UPDATE SET value = excluded.value').run(user, key, value);
  }

  // ------------------------------------------------------------ storage vaults (meta/storage-vaults.ts owns them)

  listStorageVaults(): StorageVaultRow[] {
    return (this.db.prepare('SELECT id, name, type, properties, is_default FROM storage_vaults ORDER BY id').all() as { id: number; name: string; type: string; properties: string; is_default: number }[]).map((row) => ({
      id: row.id,
      name: row.name,
      type: row.type,
      properties: JSON.parse(row.properties) as Record<string, string>,
      isDefault: row.is_default !== 0,
    }));
  }

  /** Insert or replace a vault (by id); `isDefault` makes it the only default one. */
  putStorageVault(row: StorageVaultRow): void {
    this.db.transaction(() => {
      if (row.isDefault) this.db.prepare('UPDATE storage_vaults SET is_default = 0').run();
      this.db
        .prepare('INSERT INTO storage_vaults (id, name, type, properties, is_default) VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name, type = excluded.type, properties = excluded.properties, is_default = excluded.is_default')
        .run(row.id, row.name, row.type, JSON.stringify(row.properties), row.isDefault ? 1 : 0);
    })();
  }

  /** Make vault `id` the default one (null: none). */
  setDefaultStorageVault(id: number | null): void {
    this.db.transaction(() => {
      this.db.prepare('UPDATE storage_vaults SET is_default = 0').run();
      if (id !== null) this.db.prepare('UPDATE storage_vaults SET is_default = 1 WHERE id = ?').run(id);
    })();
  }
}

/** A storage vault as the meta store keeps it (credentials included: the meta directory is owner-only). */
export interface StorageVaultRow {
  readonly id: number;
  readonly name: string;
  readonly type: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly isDefault: boolean;
}

// ------------------------------------------------------------------ error boundary

/** A UNIQUE violation of these names means the object exists: the client gets Doris's message. */
const UNIQUE_VIOLATION_ERRORS: Partial<Record<string, { readonly constraint: RegExp; readonly error: (args: readonly unknown[], cause: unknown) => GaleneError }>> = {
  createDatabase: { constraint: /databases\.name/, error: (args, cause) => new GaleneError('DATABASE_EXISTS', [String(args[0])], { cause }) },
  createTable: { constraint: /tables\.db_id, tables\.name/, error: (args, cause) => new GaleneError('TABLE_EXISTS', [(args[1] as TableSchema).name], { cause }) },
};

/**
 * The meta store's boundary: a SQLite or fs error never leaves a MetaStore method raw (a client would
 * see `UNIQUE constraint failed: ...`). It becomes a GaleneError (IO_ERROR naming the method and the
 * SQLite / errno code, or the "exists" error of the method) with the original as `cause`; GaleneErrors
 * thrown by callbacks run inside `transaction` pass through unchanged, anything else is INTERNAL.
 * Every method is synchronous (better-sqlite3), so wrapping the prototype covers them all.
 */
export function metaStoreError(method: string, args: readonly unknown[], err: unknown): GaleneError {
  if (err instanceof GaleneError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return new GaleneError('INTERNAL', [`meta store ${method}: ${err instanceof Error ? err.message : String(err)}`], { cause: err });
  const mapped = code === 'SQLITE_CONSTRAINT_UNIQUE' ? UNIQUE_VIOLATION_ERRORS[method] : undefined;
  if (mapped && mapped.constraint.test((err as Error).message)) return mapped.error(args, err);
  return new GaleneError('IO_ERROR', [`meta store ${method} failed (${code})`], { cause: err });
}

/** Calls into MetaStore methods now running; only the outermost one converts (it knows the operation). */
let boundaryDepth = 0;

for (const method of Object.getOwnPropertyNames(MetaStore.prototype)) {
  if (method === 'constructor') continue;
  const descriptor = Object.getOwnPropertyDescriptor(MetaStore.prototype, method);
  if (!descriptor || typeof descriptor.value !== 'function') continue;
  const original = descriptor.value as (...args: unknown[]) => unknown;
  Object.defineProperty(MetaStore.prototype, method, {
    ...descriptor,
    value: function metaStoreBoundary(this: MetaStore, ...args: unknown[]): unknown {
      boundaryDepth++;
      try {
        return original.apply(this, args);
      } catch (err) {
        throw boundaryDepth === 1 ? metaStoreError(method, args, err) : err;
      } finally {
        boundaryDepth--;
      }
    },
  });
}
