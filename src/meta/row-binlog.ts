/**
 * The row binlog (row change log) of a table, as Doris's ROW binlog has it (`"binlog.enable" = "true"`,
 * `"binlog.format" = "ROW"`): every load into the table also writes its rows, each with its operation and
 * its sequence within the load, to a change-log rowset per tablet, published in the same meta-store
 * transaction as the data rowsets and at the same version. The change-log rowsets use the segment format
 * of data rowsets with the columns of `binlogSegmentSchema`; they are kept apart from the data rowsets
 * (MetaStore's row_binlog_rowsets), so scans, compaction and merge-on-write never see them, and they are
 * read with the `binlog()` table function. The property names are Doris's for ROW binlog tables
 * (https://github.com/apache/doris/issues/65897: binlog.enable, binlog.format = ROW, binlog.ttl_seconds,
 * binlog.max_history_nums, binlog.need_historical_value). See docs/row-binlog.md.
 *
 * This module holds what every layer reads: the property names and their parsing, the change-log schema,
 * the operation names. Plain functions of the TableSchema; no I/O.
 */
import { Types } from '../common/types';
import type { ColumnSchema, TableSchema } from './schema';

export const BINLOG_ENABLE = 'binlog.enable';
export const BINLOG_FORMAT = 'binlog.format';
export const BINLOG_TTL_SECONDS = 'binlog.ttl_seconds';
export const BINLOG_MAX_HISTORY_NUMS = 'binlog.max_history_nums';
export const BINLOG_NEED_HISTORICAL_VALUE = 'binlog.need_historical_value';

/** Doris's binlog.ttl_seconds default: one day. */
export const DEFAULT_BINLOG_TTL_SECONDS = 86400;
/** Doris's binlog.max_history_nums default (Long.MAX_VALUE there: no limit). */
export const DEFAULT_BINLOG_MAX_HISTORY_NUMS = Number.MAX_SAFE_INTEGER;

/** The operation of a change-log row (Doris's wording). */
export type BinlogOp = 'INSERT' | 'UPSERT' | 'DELETE';

/** The change-log columns after the table's own: operation, commit version, sequence within the load. */
export const BINLOG_OP_COLUMN = '__op';
export const BINLOG_VERSION_COLUMN = '__version';
export const BINLOG_SEQ_COLUMN = '__seq';

/**
 * Set (to "true") in the properties of binlogSegmentSchema only, never stored with a table: segment keys
 * of change-log segments differ from the data segments of the same transaction (load/table-writer.ts).
 */
export const ROW_BINLOG_SEGMENT_MARKER = '__row_binlog_segment';

/** Column unique ids of the change-log columns stored in the segments (above any table column's id). */
const SEQ_UNIQUE_ID = 0x3fff_fff0;
const OP_UNIQUE_ID = 0x3fff_fff1;

/** Whether loads into the table write a row binlog. */
export function rowBinlogEnabled(schema: Pick<TableSchema, 'properties'>): boolean {
  return (schema.properties[BINLOG_ENABLE] ?? 'false').trim().toLowerCase() === 'true' && (schema.properties[BINLOG_FORMAT] ?? 'ROW').trim().toUpperCase() === 'ROW';
}

/** binlog.ttl_seconds (validated at CREATE / ALTER); change-log rowsets older than it are dropped at compaction. */
export function binlogTtlSeconds(schema: Pick<TableSchema, 'properties'>): number {
  const value = schema.properties[BINLOG_TTL_SECONDS];
  return value === undefined ? DEFAULT_BINLOG_TTL_SECONDS : Number(value.trim());
}

/** binlog.max_history_nums: change-log rowsets a tablet keeps at most (the oldest go first, at compaction). */
export function binlogMaxHistoryNums(schema: Pick<TableSchema, 'properties'>): number {
  const value = schema.properties[BINLOG_MAX_HISTORY_NUMS];
  return value === undefined ? DEFAULT_BINLOG_MAX_HISTORY_NUMS : Number(value.trim());
}

/**
 * The problem with a binlog.* property value, in Doris's words, or null when it is fine. `keysType` of
 * the table: Doris keeps no before-image, and Galene writes none (need_historical_value must be false).
 */
export function binlogPropertyError(key: string, value: string): string | null {
  const trimmed = value.trim();
  switch (key) {
    case BINLOG_ENABLE:
      return ['true', 'false'].includes(trimmed.toLowerCase()) ? null : `Invalid binlog.enable value: ${value}`;
    case BINLOG_FORMAT:
      return trimmed.toUpperCase() === 'ROW' ? null : `Invalid binlog.format value: ${value} (Galene writes the ROW format only)`;
    case BINLOG_TTL_SECONDS:
    case BINLOG_MAX_HISTORY_NUMS:
      return /^\d+$/.test(trimmed) && Number(trimmed) <= Number.MAX_SAFE_INTEGER ? null : `Invalid ${key} value: ${value}`;
    case BINLOG_NEED_HISTORICAL_VALUE:
      if (trimmed.toLowerCase() === 'false') return null;
      return trimmed.toLowerCase() === 'true' ? `binlog.need_historical_value = true is not supported: Galene's row binlog logs each row as written, without its before-image` : `Invalid binlog.need_historical_value value: ${value}`;
    default:
      return null;
  }
}

/** The operation loaded rows are logged with: UPSERT for UNIQUE KEY tables (a row replaces its key's), else INSERT. */
export function loadOp(schema: Pick<TableSchema, 'keysType'>): BinlogOp {
  return schema.keysType === 'UNIQUE' ? 'UPSERT' : 'INSERT';
}

const changeColumn = (name: string, type: ColumnSchema['type'], uniqueId: number, isKey: boolean): ColumnSchema => ({ name, type, nullable: false, isKey, aggregation: null, defaultValue: null, comment: '', uniqueId });

/**
 * The schema change-log segments are written with: `__seq` (the key: rows sorted by it, never merged),
 * `__op`, then the table's columns as plain values — a DUPLICATE KEY table without indexes, in the table's
 * storage vault and compression. A column added later reads as its default from older change-log segments.
 */
export function binlogSegmentSchema(schema: TableSchema): TableSchema {
  return {
    ...schema,
    keysType: 'DUPLICATE',
    keyColumns: [BINLOG_SEQ_COLUMN],
    columns: [changeColumn(BINLOG_SEQ_COLUMN, Types.BIGINT, SEQ_UNIQUE_ID, true), changeColumn(BINLOG_OP_COLUMN, Types.varchar(8), OP_UNIQUE_ID, false), ...schema.columns.map((column) => ({ ...column, isKey: false, aggregation: null }))],
    indexes: [],
    properties: { ...schema.properties, enable_unique_key_merge_on_write: 'false', [ROW_BINLOG_SEGMENT_MARKER]: 'true' },
  };
}

/**
 * The columns `binlog()` returns: the table's columns, then `__op`, `__version` (the commit version of the
 * load) and `__seq` (the row's place in its load).
 */
export function binlogResultColumns(schema: TableSchema): ColumnSchema[] {
  const base = binlogSegmentSchema(schema).columns;
  return [...schema.columns.map((column) => ({ ...column, isKey: false, aggregation: null })), base[1], changeColumn(BINLOG_VERSION_COLUMN, Types.BIGINT, SEQ_UNIQUE_ID + 2, false), base[0]];
}

/**
 * Marks the schema `binlog()` returns (never stored): the versions it reads, as "from,to". The FE opens
 * such a schema as the table's change log (fe/table-functions/binlog-table-function.ts).
 */
export const BINLOG_SOURCE_PROPERTY = '__binlog_source';

/** The schema of `binlog(table, from, to)`: a DUPLICATE table without keys or indexes, of binlogResultColumns. */
export function binlogSourceSchema(schema: TableSchema, fromVersion: number, toVersion: number): TableSchema {
  return {
    ...schema,
    columns: binlogResultColumns(schema),
    keysType: 'DUPLICATE',
    keyColumns: [],
    indexes: [],
    distribution: { type: 'RANDOM', columns: [], buckets: 1 },
    properties: { [BINLOG_SOURCE_PROPERTY]: `${fromVersion},${toVersion}` },
  };
}

/** The versions a binlog() schema reads, or null for any other schema. */
export function binlogSourceRange(schema: Pick<TableSchema, 'properties'>): { fromVersion: number; toVersion: number } | null {
  const range = schema.properties[BINLOG_SOURCE_PROPERTY];
  if (range === undefined) return null;
  const [fromVersion, toVersion] = range.split(',').map(Number);
  return { fromVersion, toVersion };
}
