/**
 * Table and column descriptions as the catalog keeps them and every layer reads them (binder, load path,
 * storage). Plain serialisable objects: they are stored as JSON in the meta store.
 */
import type { RawValue } from '../common/column';
import { parseValue } from '../common/convert';
import { GaleneError } from '../common/errors';
import { isSketchType, type DataType } from '../common/types';

export type KeysType = 'DUPLICATE' | 'UNIQUE' | 'AGGREGATE';

/** Aggregation of an AGGREGATE KEY value column (Doris names). */
export type AggregationType = 'SUM' | 'MIN' | 'MAX' | 'REPLACE' | 'REPLACE_IF_NOT_NULL' | 'HLL_UNION' | 'BITMAP_UNION' | 'QUANTILE_UNION';

export interface ColumnSchema {
  readonly name: string;
  readonly type: DataType;
  readonly nullable: boolean;
  readonly isKey: boolean;
  /** AGGREGATE KEY value columns only. */
  readonly aggregation: AggregationType | null;
  /** DEFAULT as text (as SHOW CREATE TABLE prints it); 'CURRENT_TIMESTAMP' for that function; null = none. */
  readonly defaultValue: string | null;
  readonly comment: string;
  /** Stable id: survives renames and lets segments written under older schemas be read. */
  readonly uniqueId: number;
  /** AUTO_INCREMENT: the first value the table generates (absent for other columns). */
  readonly autoIncrementStart?: number;
  /** ON UPDATE CURRENT_TIMESTAMP: partial updates and UPDATE that do not set it set it to now. */
  readonly onUpdateCurrentTimestamp?: true;
  /** A generated column's expression, as written (fe/generated-columns.ts); absent for other columns. */
  readonly generatedExpr?: string;
}

/** Whether loads fill the column's missing and NULL values with generated ones (load/auto-increment.ts). */
export function isAutoIncrement(column: ColumnSchema): boolean {
  return column.autoIncrementStart !== undefined;
}

/**
 * Whether a load may give the column NULL: a nullable column, an AUTO_INCREMENT one (NULL = generate), a
 * generated one (computed after; fe/generated-columns.ts checks its NOT NULL).
 */
const EMPTY_SKETCH_TEXT = '\u0000';

/** Whether a load or INSERT that omits the column has a value for it (a DEFAULT, or an empty sketch). */
export function hasLoadDefault(column: ColumnSchema): boolean {
  return column.defaultValue !== null || isSketchType(column.type);
}

export function loadAcceptsNull(column: ColumnSchema): boolean {
  return column.nullable || column.autoIncrementStart !== undefined || column.generatedExpr !== undefined;
}

export interface IndexSchema {
  readonly name: string;
  readonly columns: readonly string[];
  /** INVERTED, ANN, BLOOMFILTER, NGRAM_BF */
  readonly indexType: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly comment: string;
}

export interface TableSchema {
  readonly id: number;
  readonly databaseName: string;
  readonly name: string;
  readonly columns: readonly ColumnSchema[];
  readonly keysType: KeysType;
  /** Key column names, in key order (a prefix of the columns). */
  readonly keyColumns: readonly string[];
  readonly indexes: readonly IndexSchema[];
  readonly distribution: { readonly type: 'HASH' | 'RANDOM'; readonly columns: readonly string[]; readonly buckets: number };
  readonly properties: Readonly<Record<string, string>>;
  readonly comment: string;
  /** PARTITION BY (absent: unpartitioned); read it through partitionInfoOf. */
  readonly partitionInfo?: PartitionInfo;
  /** Bumped by every schema or property change; plan caches key on it. */
  readonly schemaVersion: number;
  readonly createTime: number;
}

export function findColumn(schema: TableSchema, name: string): ColumnSchema | undefined {
  const lower = name.toLowerCase();
  return schema.columns.find((column) => column.name.toLowerCase() === lower);
}

/**
 * The value rows written before a column existed read as (light schema change, as Doris): its constant
 * DEFAULT, or NULL when it has none (or a CURRENT_TIMESTAMP default, which has no fixed value).
 */
export function missingColumnValue(column: ColumnSchema): RawValue {
  if (column.defaultValue === null || column.defaultValue === 'CURRENT_TIMESTAMP') return null;
  return parseValue(column.type, column.defaultValue).value;
}

/**
 * The value a load writes for a column its rows do not give: the DEFAULT (CURRENT_TIMESTAMP: now, as a
 * DATETIME of the server's clock), else NULL — which an AUTO_INCREMENT column's load then fills.
 */
export function loadDefaultValue(column: ColumnSchema): RawValue {
  // An omitted BITMAP / HLL column is the empty state (Doris's BITMAP_EMPTY / HLL_EMPTY defaults): both
  // serialize to one zero byte, which is also that byte's text.
  if (column.defaultValue === null && isSketchType(column.type)) return EMPTY_SKETCH_TEXT;
  if (column.defaultValue === null) return null;
  if (column.defaultValue === 'CURRENT_TIMESTAMP') {
    const now = new Date();
    return Date.UTC(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours(), now.getMinutes(), now.getSeconds()) * 1000;
  }
  return parseValue(column.type, column.defaultValue).value;
}

/** The partition of `info` called `name` (case-insensitive). */
export function findPartition(info: PartitionInfo, name: string): PartitionRecord | undefined {
  return info.partitions.find((partition) => partition.name.toLowerCase() === name.toLowerCase());
}

/**
 * The partitions a `PARTITION (p, ...)` list names (SELECT, INSERT, SHOW TABLETS), or null when the table
 * is unpartitioned and every name is the table's own (its one partition is named after it). An unknown
 * name fails with `Partition: p does not exist.`
 */
export function partitionsNamed(schema: TableSchema, names: readonly string[]): PartitionRecord[] | null {
  const info = partitionInfoOf(schema);
  if (info === null && names.every((name) => name.toLowerCase() === schema.name.toLowerCase())) return null;
  return names.map((name) => {
    const partition = info === null ? undefined : findPartition(info, name);
    if (partition === undefined) throw new GaleneError('ANALYSIS_ERROR', [`Partition: ${name} does not exist.`]);
    return partition;
  });
}

/** A RANGE bound element: a value's canonical text, or one of the infinities (MINVALUE / MAXVALUE). */
export type PartitionBoundValue = string | { readonly infinity: 'min' | 'max' };

/**
 * One partition of a partitioned table (Doris's Partition): its own tablets, `buckets` of them. RANGE
 * partitions hold the keys in [lower, upper) (one element per partition column); LIST partitions the
 * key tuples in `values` (a null element is NULL).
 */
export interface PartitionRecord {
  readonly id: number;
  readonly name: string;
  readonly buckets: number;
  readonly lower?: readonly PartitionBoundValue[];
  readonly upper?: readonly PartitionBoundValue[];
  readonly values?: readonly (readonly (string | null)[])[];
}

/**
 * `PARTITION BY RANGE|LIST (cols) (...)`, kept with the schema (so it survives restarts with it).
 * `auto`: AUTO PARTITION — loads create the partition a row needs; RANGE's is `date_trunc(col, unit)`.
 */
export interface PartitionInfo {
  readonly type: 'RANGE' | 'LIST';
  readonly columns: readonly string[];
  readonly auto: { readonly unit: string | null } | null;
  readonly partitions: readonly PartitionRecord[];
}

/** The table's partitioning, or null for an unpartitioned table (one partition named after the table). */
export function partitionInfoOf(schema: TableSchema): PartitionInfo | null {
  return (schema as TableSchema & { readonly partitionInfo?: PartitionInfo }).partitionInfo ?? null;
}
