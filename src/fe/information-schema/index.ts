/**
 * information_schema: read-only virtual tables built from the catalog when a query reads them, so MySQL
 * tools (JDBC DatabaseMetaData, GUI clients, ORMs, `mysql` completion) can list databases, tables, columns
 * and keys. Every table has all of MySQL 8's columns under MySQL's names (tools select them by name); the
 * engine scans them as ordinary TableSources, so filters, joins and ORDER BY work as on any table.
 *
 * Keys (https://doris.apache.org/docs/table-design/data-model/overview): a UNIQUE KEY table's key is
 * reported as its primary key (COLUMN_KEY 'PRI', a 'PRIMARY' index in STATISTICS, KEY_COLUMN_USAGE and
 * TABLE_CONSTRAINTS) so JDBC getPrimaryKeys and table editors find it; Doris leaves these empty. DUPLICATE
 * and AGGREGATE key columns show Doris's COLUMN_KEY 'DUP' / 'AGG'.
 */
import { GaleneError } from '../../common/errors';
import { Types } from '../../common/types';
import type { TableSource } from '../../exec/context';
import { makeTableSchema, MemoryTable } from '../../exec/memory-table';
import { Catalog, INFORMATION_SCHEMA, type TableState } from '../../meta/catalog';
import type { KeysType, TableSchema } from '../../meta/schema';
import { columnTypeFacts, mysqlColumnType, mysqlDataType } from './column-facts';
import type { RawValue } from '../../common/column';
import { privilegeTables } from './privilege-tables';
import { TOOL_TABLES } from './tool-tables';
import { LIVE_TABLES } from './live-tables';
import { FILE_CACHE_TABLES } from './file-cache-tables';
import { columns, SchemaFacts, VirtualTable } from './schema-facts';

export type { InformationSchemaView, SchemaFacts } from './schema-facts';

const S = Types.varchar(512);
const N = Types.BIGINT;
const T = Types.DATETIME;

/** The catalog name Doris shows in TABLE_CATALOG; constraint catalogs read MySQL's 'def'. */
const CATALOG = 'internal';
const CHARSET = 'utf8mb4';
const COLLATION = 'utf8mb4_0900_bin';
const PRIMARY = 'PRIMARY';

const allTables = (catalog: Catalog): TableSchema[] => catalog.listDatabases().flatMap((db) => catalog.listTables(db.name).map((table) => table.schema));

const COLUMN_KEY: Record<KeysType, string> = { UNIQUE: 'PRI', DUPLICATE: 'DUP', AGGREGATE: 'AGG' };

/** The primary key a table reports: a UNIQUE KEY table's key columns, in key order; none otherwise. */
const primaryKey = (schema: TableSchema): readonly string[] => (schema.keysType === 'UNIQUE' ? schema.keyColumns : []);

/** The tables that report a primary key (the rows of KEY_COLUMN_USAGE and TABLE_CONSTRAINTS). */
const keyedTables = (catalog: Catalog) => allTables(catalog).filter((schema) => primaryKey(schema).length > 0);

/** An index as STATISTICS, SHOW INDEX and JDBC getIndexInfo list it: the primary key first, then secondary indexes. */
export interface IndexEntry {
  readonly name: string;
  /** 0 for the primary key, 1 for every other index. */
  readonly nonUnique: 0 | 1;
  readonly columns: readonly string[];
  readonly indexType: string;
  readonly comment: string;
  readonly properties: Readonly<Record<string, string>>;
}

export function tableIndexes(schema: TableSchema): IndexEntry[] {
  const key = primaryKey(schema);
  const primary: IndexEntry[] = key.length ? [{ name: PRIMARY, nonUnique: 0, columns: key, indexType: 'BTREE', comment: '', properties: {} }] : [];
  return [...primary, ...schema.indexes.map((index): IndexEntry => ({ name: index.name, nonUnique: 1, columns: index.columns, indexType: index.indexType, comment: index.comment, properties: index.properties }))];
}

/** MySQL's NULLABLE mark of an index column: 'YES' when the column may hold NULL, else ''. */
export const nullableMark = (schema: TableSchema, name: string): string => (schema.columns.find((column) => column.name === name)?.nullable ? 'YES' : '');

/**
 * A table's MySQL status facts, in SHOW TABLE STATUS's column order (Name, Engine, Version, Row_format,
 * Rows, Avg_row_length, Data_length, Max_data_length, Index_length, Data_free, Auto_increment,
 * Create_time, Update_time, Check_time, Collation, Checksum, Create_options, Comment); information_schema
 * TABLES has the same values from ENGINE on.
 */
export function tableStatusRow(table: TableState): RawValue[] {
  const rows = table.rowsets.reduce((sum, rowset) => sum + rowset.numRows, 0);
  const bytes = table.rowsets.reduce((sum, rowset) => sum + rowset.dataSize, 0);
  const created = table.schema.createTime * 1000;
  return [table.schema.name, 'Doris', BigInt(table.visibleVersion), 'Dynamic', BigInt(rows), BigInt(rows ? Math.round(bytes / rows) : 0), BigInt(bytes), 0n, 0n, 0n, null, created, created, null, COLLATION, null, '', table.schema.comment];
}

const VIRTUAL_TABLES: Record<string, VirtualTable> = {
  schemata: {
    columns: [...columns(S, 'CATALOG_NAME', 'SCHEMA_NAME', 'DEFAULT_CHARACTER_SET_NAME', 'DEFAULT_COLLATION_NAME', 'SQL_PATH', 'DEFAULT_ENCRYPTION')],
    rows: ({ catalog }) => [INFORMATION_SCHEMA, ...catalog.listDatabases().map((db) => db.name)].map((name) => [CATALOG, name, CHARSET, COLLATION, null, 'NO']),
  },
  tables: {
    columns: [
      ...columns(S, 'TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'TABLE_TYPE', 'ENGINE'),
      ...columns(N, 'VERSION'),
      ...columns(S, 'ROW_FORMAT'),
      ...columns(N, 'TABLE_ROWS', 'AVG_ROW_LENGTH', 'DATA_LENGTH', 'MAX_DATA_LENGTH', 'INDEX_LENGTH', 'DATA_FREE', 'AUTO_INCREMENT'),
      ...columns(T, 'CREATE_TIME', 'UPDATE_TIME', 'CHECK_TIME'),
      ...columns(S, 'TABLE_COLLATION'),
      ...columns(N, 'CHECKSUM'),
      ...columns(S, 'CREATE_OPTIONS', 'TABLE_COMMENT'),
    ],
    rows: ({ catalog }) =>
      catalog.listDatabases().flatMap((db) => [
        ...catalog.listTables(db.name).map((table) => [CATALOG, table.schema.databaseName, table.schema.name, 'BASE TABLE', ...tableStatusRow(table).slice(1)]),
        ...catalog.listViews(db.name).map((view) => [CATALOG, view.databaseName, view.name, 'VIEW', null, null, null, null, null, null, null, null, null, null, view.createTime * 1000, null, null, null, null, '', view.comment]),
      ]),
  },
  columns: {
    columns: [
      ...columns(S, 'TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'COLUMN_NAME'),
      ...columns(N, 'ORDINAL_POSITION'),
      ...columns(S, 'COLUMN_DEFAULT', 'IS_NULLABLE', 'DATA_TYPE'),
      ...columns(N, 'CHARACTER_MAXIMUM_LENGTH', 'CHARACTER_OCTET_LENGTH', 'NUMERIC_PRECISION', 'NUMERIC_SCALE', 'DATETIME_PRECISION'),
      ...columns(S, 'CHARACTER_SET_NAME', 'COLLATION_NAME', 'COLUMN_TYPE', 'COLUMN_KEY', 'EXTRA', 'PRIVILEGES', 'COLUMN_COMMENT', 'GENERATION_EXPRESSION'),
      ...columns(N, 'SRS_ID'),
    ],
    rows: ({ catalog }) =>
      allTables(catalog).flatMap((schema) =>
        schema.columns.map((column, colIdx) => [
          CATALOG,
          schema.databaseName,
          schema.name,
          column.name,
          BigInt(colIdx + 1),
          column.defaultValue,
          column.nullable ? 'YES' : 'NO',
          mysqlDataType(column.type),
          ...columnTypeFacts(column.type),
          mysqlColumnType(column.type),
          column.isKey ? COLUMN_KEY[schema.keysType] : '',
          column.aggregation ?? '',
          'select,insert,update,references',
          column.comment,
          '',
          null,
        ]),
      ),
  },
  statistics: {
    columns: [
      ...columns(S, 'TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME'),
      ...columns(N, 'NON_UNIQUE'),
      ...columns(S, 'INDEX_SCHEMA', 'INDEX_NAME'),
      ...columns(N, 'SEQ_IN_INDEX'),
      ...columns(S, 'COLUMN_NAME', 'COLLATION'),
      ...columns(N, 'CARDINALITY', 'SUB_PART'),
      ...columns(S, 'PACKED', 'NULLABLE', 'INDEX_TYPE', 'COMMENT', 'INDEX_COMMENT', 'IS_VISIBLE', 'EXPRESSION'),
    ],
    rows: ({ catalog }) =>
      allTables(catalog).flatMap((schema) =>
        tableIndexes(schema).flatMap((index) =>
          index.columns.map((name, seqIdx) => [CATALOG, schema.databaseName, schema.name, BigInt(index.nonUnique), schema.databaseName, index.name, BigInt(seqIdx + 1), name, 'A', null, null, null, nullableMark(schema, name), index.indexType, '', index.comment, 'YES', null]),
        ),
      ),
  },
  key_column_usage: {
    columns: [
      ...columns(S, 'CONSTRAINT_CATALOG', 'CONSTRAINT_SCHEMA', 'CONSTRAINT_NAME', 'TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'COLUMN_NAME'),
      ...columns(N, 'ORDINAL_POSITION', 'POSITION_IN_UNIQUE_CONSTRAINT'),
      ...columns(S, 'REFERENCED_TABLE_SCHEMA', 'REFERENCED_TABLE_NAME', 'REFERENCED_COLUMN_NAME'),
    ],
    rows: ({ catalog }) =>
      keyedTables(catalog).flatMap((schema) =>
        primaryKey(schema).map((name, keyIdx) => ['def', schema.databaseName, PRIMARY, 'def', schema.databaseName, schema.name, name, BigInt(keyIdx + 1), null, null, null, null]),
      ),
  },
  table_constraints: {
    columns: columns(S, 'CONSTRAINT_CATALOG', 'CONSTRAINT_SCHEMA', 'CONSTRAINT_NAME', 'TABLE_SCHEMA', 'TABLE_NAME', 'CONSTRAINT_TYPE', 'ENFORCED'),
    rows: ({ catalog }) => keyedTables(catalog).map((schema) => ['def', schema.databaseName, PRIMARY, schema.databaseName, schema.name, 'PRIMARY KEY', 'YES']),
  },
  // Galene has no foreign keys or stored routines: these are MySQL's shapes, always empty.
  referential_constraints: {
    columns: columns(S, 'CONSTRAINT_CATALOG', 'CONSTRAINT_SCHEMA', 'CONSTRAINT_NAME', 'UNIQUE_CONSTRAINT_CATALOG', 'UNIQUE_CONSTRAINT_SCHEMA', 'UNIQUE_CONSTRAINT_NAME', 'MATCH_OPTION', 'UPDATE_RULE', 'DELETE_RULE', 'TABLE_NAME', 'REFERENCED_TABLE_NAME'),
    rows: () => [],
  },
  views: {
    columns: columns(S, 'TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'VIEW_DEFINITION', 'CHECK_OPTION', 'IS_UPDATABLE', 'DEFINER', 'SECURITY_TYPE', 'CHARACTER_SET_CLIENT', 'COLLATION_CONNECTION'),
    rows: ({ catalog }) =>
      catalog.listDatabases().flatMap((db) => catalog.listViews(db.name).map((view) => [CATALOG, view.databaseName, view.name, view.definition, 'NONE', 'NO', view.definer, 'DEFINER', CHARSET, COLLATION])),
  },
  routines: {
    columns: [
      ...columns(S, 'SPECIFIC_NAME', 'ROUTINE_CATALOG', 'ROUTINE_SCHEMA', 'ROUTINE_NAME', 'ROUTINE_TYPE', 'DATA_TYPE'),
      ...columns(N, 'CHARACTER_MAXIMUM_LENGTH', 'CHARACTER_OCTET_LENGTH', 'NUMERIC_PRECISION', 'NUMERIC_SCALE', 'DATETIME_PRECISION'),
      ...columns(S, 'CHARACTER_SET_NAME', 'COLLATION_NAME', 'DTD_IDENTIFIER', 'ROUTINE_BODY', 'ROUTINE_DEFINITION', 'EXTERNAL_NAME', 'EXTERNAL_LANGUAGE', 'PARAMETER_STYLE', 'IS_DETERMINISTIC', 'SQL_DATA_ACCESS', 'SQL_PATH', 'SECURITY_TYPE'),
      ...columns(T, 'CREATED', 'LAST_ALTERED'),
      ...columns(S, 'SQL_MODE', 'ROUTINE_COMMENT', 'DEFINER', 'CHARACTER_SET_CLIENT', 'COLLATION_CONNECTION', 'DATABASE_COLLATION'),
    ],
    rows: () => [],
  },
  engines: {
    columns: columns(S, 'ENGINE', 'SUPPORT', 'COMMENT', 'TRANSACTIONS', 'XA', 'SAVEPOINTS'),
    rows: () => [['Doris', 'DEFAULT', 'Galene OLAP engine', 'YES', 'NO', 'NO']],
  },
  character_sets: {
    columns: [...columns(S, 'CHARACTER_SET_NAME', 'DEFAULT_COLLATE_NAME', 'DESCRIPTION'), ...columns(N, 'MAXLEN')],
    rows: () => [[CHARSET, COLLATION, 'UTF-8 Unicode', 4n]],
  },
  collations: {
    columns: [...columns(S, 'COLLATION_NAME', 'CHARACTER_SET_NAME'), ...columns(N, 'ID'), ...columns(S, 'IS_DEFAULT', 'IS_COMPILED'), ...columns(N, 'SORTLEN'), ...columns(S, 'PAD_ATTRIBUTE')],
    rows: () => [[COLLATION, CHARSET, 309n, 'Yes', 'Yes', 1n, 'NO PAD']],
  },
  ...Object.fromEntries(Object.entries(privilegeTables(S)).map(([name, table]) => [name, { columns: table.columns, rows: ({ view }: SchemaFacts) => (view ? table.rows(view) : []) }])),
  ...TOOL_TABLES,
  ...LIVE_TABLES,
  ...FILE_CACHE_TABLES,
};

/** Rows of objects the view may not see left out, by the table's TABLE_SCHEMA / SCHEMA_NAME and TABLE_NAME columns. */
function visibleRows(table: VirtualTable, facts: SchemaFacts): RawValue[][] {
  const rows = table.rows(facts);
  const view = facts.view;
  if (!view) return rows;
  const names = table.columns.map(([name]) => name);
  const dbIdx = names.includes('TABLE_SCHEMA') ? names.indexOf('TABLE_SCHEMA') : names.indexOf('SCHEMA_NAME');
  if (dbIdx < 0 || names[0] === 'GRANTEE') return rows;
  const tableIdx = names.indexOf('TABLE_NAME');
  return rows.filter((row) => row[dbIdx] === null || view.visible(String(row[dbIdx]), tableIdx >= 0 && row[tableIdx] !== null ? String(row[tableIdx]) : null));
}

/** The schema of information_schema.<name>; throws UNKNOWN_TABLE. */
export function informationSchemaTable(name: string): TableSchema {
  const table = VIRTUAL_TABLES[name.toLowerCase()];
  if (!table) throw new GaleneError('UNKNOWN_TABLE', [`${INFORMATION_SCHEMA}.${name}`]);
  return makeTableSchema(INFORMATION_SCHEMA, name.toLowerCase(), table.columns.map(([columnName, type]) => ({ name: columnName, type, nullable: true })));
}

/** A source over the server's state now, as the asking session sees it. */
export function openInformationSchemaTable(facts: SchemaFacts, schema: TableSchema): TableSource {
  return MemoryTable.fromRows(schema, visibleRows(VIRTUAL_TABLES[schema.name], facts));
}

/** The row count a scan of the table would return now (the planner's estimate). */
export function informationSchemaRowCount(facts: SchemaFacts, schema: TableSchema): number {
  return visibleRows(VIRTUAL_TABLES[schema.name], facts).length;
}

export function informationSchemaTableNames(): string[] {
  return Object.keys(VIRTUAL_TABLES);
}
