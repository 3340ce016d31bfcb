/**
 * Statistics statements: `ANALYZE TABLE`, `SHOW COLUMN STATS`, `SHOW TABLE STATS`, `DROP STATS` (Doris's
 * names and result columns). ANALYZE runs one aggregate query over the table through the ordinary query
 * path (parallel scans, column batches): count(*), and per column count, approx_count_distinct (the
 * HyperLogLog of that function), min, max and the string bytes. The result is kept in the meta store
 * (meta/table-stats.ts); the optimizer's cost model reads it. Galene always collects synchronously;
 * without WITH SYNC the statement answers Doris's job row (Catalog_Name, DB_Name, Table_Name, Columns,
 * Job_Id) after the collection finished.
 */
import { getRaw } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import { fixedWidth, isStringType, isTemporalType, physicalKind, Types, type DataType } from '../../common/types';
import type { TableState } from '../../meta/catalog';
import { findColumn, type ColumnSchema } from '../../meta/schema';
import type { ColumnStatsRecord, TableStatsRecord } from '../../meta/table-stats';
import type { StatsStatement } from '../../sql/ast';
import { parseStatement } from '../../sql/parser';
import { runQuery } from '../../sql/query';
import { okResult, rowsResult, type ColumnSpec } from './result-rows';
import type { StatementSession } from './statement-session';

export async function runStatsStatement(session: StatementSession, statement: StatsStatement, _sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  const database = session.requireDatabase(statement.database);
  const table = session.fe.catalog.getTable(database, statement.table);
  switch (statement.action) {
    case 'analyze':
      return analyzeTable(session, database, table, statement, profile);
    case 'showColumnStats':
      return showColumnStats(session, table, statement);
    case 'showTableStats':
      return showTableStats(session, table);
    case 'dropStats':
      return dropStats(session, table, statement);
  }
}

/** Rows of a table by its rowsets' metadata (kept current by every load, delete and compaction). */
export function rowsetRowCount(table: TableState): number {
  let rows = 0;
  for (const rowset of table.rowsets) rows += rowset.numRows;
  return rows;
}

/** Whether ANALYZE collects a column: scalar types only (Doris skips complex types too). */
function analyzable(type: DataType): boolean {
  return type.name !== 'ARRAY';
}

/** The columns a statement names (checked to exist and to be analyzable), or every analyzable column. */
function statementColumns(table: TableState, names: readonly string[] | null): ColumnSchema[] {
  if (names === null) return table.schema.columns.filter((column) => analyzable(column.type));
  return names.map((name) => {
    const column = findColumn(table.schema, name);
    if (!column) throw new GaleneError('UNKNOWN_COLUMN', [name, table.schema.name]);
    if (!analyzable(column.type)) throw new GaleneError('ANALYSIS_ERROR', [`Column ${column.name} with type ${column.type.name} is not supported to analyze`]);
    return column;
  });
}

const quoteIdent = (name: string): string => '`' + name.replace(/`/g, '``') + '`';

async function analyzeTable(session: StatementSession, database: string, table: TableState, statement: StatsStatement, profile: QueryProfile): Promise<StatementResult> {
  const columns = statementColumns(table, statement.columns);
  const record = await collectStats(session, database, table, columns, 'MANUAL', profile);
  session.fe.catalog.meta.putTableStats(record);
  if (statement.sync) return okResult();
  const jobId = session.fe.catalog.newObjectId();
  return rowsResult(
    [['Catalog_Name'], ['DB_Name'], ['Table_Name'], ['Columns'], ['Job_Id', Types.BIGINT]],
    [['internal', database, table.schema.name, `[${columns.map((column) => column.name).join(',')}]`, BigInt(jobId)]],
  );
}

/**
 * Collect statistics of `columns` with one aggregate query and merge them into the table's record (columns
 * not named keep their earlier statistics).
 */
export async function collectStats(session: StatementSession, database: string, table: TableState, columns: readonly ColumnSchema[], trigger: 'MANUAL' | 'SYSTEM', profile: QueryProfile): Promise<TableStatsRecord> {
  const select: string[] = ['count(*)'];
  for (const column of columns) {
    const name = quoteIdent(column.name);
    select.push(`count(${name})`, `approx_count_distinct(${name})`, `cast(min(${name}) as string)`, `cast(max(${name}) as string)`);
    select.push(isStringType(column.type) ? `sum(length(${name}))` : `min(${name})`, isStringType(column.type) ? 'null' : `max(${name})`);
  }
  const sql = `SELECT ${select.join(', ')} FROM ${quoteIdent(database)}.${quoteIdent(table.schema.name)}`;
  const statement = parseStatement(sql);
  if (statement.kind !== 'query') throw new GaleneError('INTERNAL', ['ANALYZE query did not parse as a query']);
  const result = await runQuery(statement.query, session.statementContext(profile), sql);
  const batch = result.batches[0];
  const value = (colIdx: number) => (batch ? getRaw(batch.columns[colIdx], 0) : null);
  const rowCount = Number(value(0) ?? 0);
  const now = Date.now();
  const analyzedRows = rowsetRowCount(table);
  const fresh: ColumnStatsRecord[] = columns.map((column, columnIdx) => {
    const base = 1 + columnIdx * 6;
    const count = Number(value(base) ?? 0);
    const ndv = Number(value(base + 1) ?? 0);
    const minText = value(base + 2) as string | null;
    const maxText = value(base + 3) as string | null;
    const numeric = !isStringType(column.type);
    const width = physicalKind(column.type) === 'bigint' ? 16 : fixedWidth(physicalKind(column.type));
    const dataSize = numeric ? count * width : Number(value(base + 4) ?? 0);
    const quote = !numeric || isTemporalType(column.type);
    return {
      name: column.name,
      count: rowCount,
      ndv,
      numNulls: rowCount - count,
      dataSize,
      min: minText === null ? null : quote ? `'${minText}'` : minText,
      max: maxText === null ? null : quote ? `'${maxText}'` : maxText,
      minNumber: numeric && value(base + 4) !== null ? Number(value(base + 4)) : null,
      maxNumber: numeric && value(base + 5) !== null ? Number(value(base + 5)) : null,
      updatedTime: now,
      analyzedRows,
      analyzedVersion: table.visibleVersion,
      trigger,
    };
  });
  const previous = session.fe.catalog.meta.getTableStats(table.schema.id);
  const names = new Set(fresh.map((column) => column.name.toLowerCase()));
  const kept = (previous?.columns ?? []).filter((column) => !names.has(column.name.toLowerCase()) && findColumn(table.schema, column.name));
  const merged = [...kept, ...fresh].sort((a, b) => columnOrder(table, a.name) - columnOrder(table, b.name));
  return { tableId: table.schema.id, columns: merged, analyzeTime: now, analyzedRows, analyzedVersion: table.visibleVersion, trigger };
}

function columnOrder(table: TableState, name: string): number {
  const lower = name.toLowerCase();
  return table.schema.columns.findIndex((column) => column.name.toLowerCase() === lower);
}

/** A number as Doris prints a Java double (String.valueOf): `4.0`, `1.5`, `1.2345678E7`. */
export function javaDouble(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : x < 0 ? '-Infinity' : 'NaN';
  const abs = Math.abs(x);
  if (abs !== 0 && (abs >= 1e7 || abs < 1e-3)) {
    const [mantissa, exponent] = x.toExponential().split('e');
    return `${mantissa.includes('.') ? mantissa : mantissa + '.0'}E${Number(exponent)}`;
  }
  const text = String(x);
  return text.includes('.') ? text : text + '.0';
}

/** `yyyy-MM-dd HH:mm:ss` in the server's local time, as Doris prints updated_time. */
function formatTime(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

const COLUMN_STATS_COLUMNS: readonly ColumnSpec[] = [
  ['column_name'], ['index_name'], ['count'], ['ndv'], ['num_null'], ['data_size'], ['avg_size_byte'], ['min'], ['max'], ['method'], ['type'], ['trigger'],
  ['query_times'], ['updated_time'], ['update_rows'], ['last_analyze_row_count'], ['last_analyze_version'],
];

function showColumnStats(session: StatementSession, table: TableState, statement: StatsStatement): StatementResult {
  const wanted = statement.columns === null ? null : statementColumns(table, statement.columns).map((column) => column.name.toLowerCase());
  const record = session.fe.catalog.meta.getTableStats(table.schema.id);
  const current = rowsetRowCount(table);
  const rows = (record?.columns ?? [])
    .filter((column) => findColumn(table.schema, column.name) && (wanted === null || wanted.includes(column.name.toLowerCase())))
    .map((column) => [
      column.name,
      table.schema.name,
      javaDouble(column.count),
      javaDouble(column.ndv),
      javaDouble(column.numNulls),
      javaDouble(column.dataSize),
      javaDouble(column.count === 0 ? 0 : column.dataSize / column.count),
      column.min ?? 'N/A',
      column.max ?? 'N/A',
      'FULL',
      'FUNDAMENTALS',
      column.trigger,
      '0',
      formatTime(column.updatedTime),
      String(Math.abs(current - column.analyzedRows)),
      String(column.count),
      String(column.analyzedVersion),
    ]);
  return rowsResult(COLUMN_STATS_COLUMNS, rows);
}

const TABLE_STATS_COLUMNS: readonly ColumnSpec[] = [
  ['updated_rows'], ['query_times'], ['row_count'], ['updated_time'], ['columns'], ['trigger'], ['new_partition'], ['user_inject'], ['enable_auto_analyze'], ['last_analyze_time'],
];

function showTableStats(session: StatementSession, table: TableState): StatementResult {
  const record = session.fe.catalog.meta.getTableStats(table.schema.id);
  const current = rowsetRowCount(table);
  const autoAnalyze = String(session.getVariable('enable_auto_analyze')) !== 'false' && session.getVariable('enable_auto_analyze') !== 0;
  const row = [
    String(record ? Math.abs(current - record.analyzedRows) : current),
    '0',
    String(current),
    record ? formatTime(record.analyzeTime) : 'N/A',
    record ? `[${record.columns.map((column) => `${table.schema.name}:${column.name}`).join(', ')}]` : '[]',
    record ? record.trigger : 'N/A',
    'false',
    'false',
    String(autoAnalyze),
    record ? formatTime(record.analyzeTime) : 'N/A',
  ];
  return rowsResult(TABLE_STATS_COLUMNS, [row]);
}

function dropStats(session: StatementSession, table: TableState, statement: StatsStatement): StatementResult {
  const meta = session.fe.catalog.meta;
  if (statement.columns === null) {
    meta.deleteTableStats(table.schema.id);
    return okResult();
  }
  const names = new Set(statementColumns(table, statement.columns).map((column) => column.name.toLowerCase()));
  const record = meta.getTableStats(table.schema.id);
  if (record) meta.putTableStats({ ...record, columns: record.columns.filter((column) => !names.has(column.name.toLowerCase())) });
  return okResult();
}
