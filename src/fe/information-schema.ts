/**
 * information_schema: read-only virtual tables built from the catalog when a query reads them, so MySQL
 * tools (JDBC metadata, GUI clients, `mysql` completion) can list databases, tables and columns.
 * Column names and meanings follow MySQL's information_schema.
 */
import type { RawValue } from '../common/column';
import { GaleneError } from '../common/errors';
import { DataType, Types, typeToSql } from '../common/types';
import type { TableSource } from '../exec/context';
import { makeTableSchema, MemoryTable } from '../exec/memory-table';
import { Catalog, INFORMATION_SCHEMA } from '../meta/catalog';
import type { TableSchema } from '../meta/schema';
import { SESSION_VARIABLES } from './session-variables';

const S = Types.varchar(512);
const N = Types.BIGINT;

interface VirtualTable {
  readonly columns: readonly [string, DataType][];
  rows(catalog: Catalog): RawValue[][];
}

const allTables = (catalog: Catalog) => catalog.listDatabases().flatMap((db) => catalog.listTables(db.name));

const VIRTUAL_TABLES: Record<string, VirtualTable> = {
  schemata: {
    columns: [['CATALOG_NAME', S], ['SCHEMA_NAME', S], ['DEFAULT_CHARACTER_SET_NAME', S], ['DEFAULT_COLLATION_NAME', S], ['SQL_PATH', S]],
    rows: (catalog) => [INFORMATION_SCHEMA, ...catalog.listDatabases().map((db) => db.name)].map((name) => ['internal', name, 'utf8mb4', 'utf8mb4_0900_bin', null]),
  },
  tables: {
    columns: [['TABLE_CATALOG', S], ['TABLE_SCHEMA', S], ['TABLE_NAME', S], ['TABLE_TYPE', S], ['ENGINE', S], ['VERSION', N], ['TABLE_ROWS', N], ['DATA_LENGTH', N], ['CREATE_TIME', Types.DATETIME], ['TABLE_COMMENT', S]],
    rows: (catalog) =>
      allTables(catalog).map((table) => [
        'internal',
        table.schema.databaseName,
        table.schema.name,
        'BASE TABLE',
        'Doris',
        BigInt(table.visibleVersion),
        BigInt(table.rowsets.reduce((sum, rowset) => sum + rowset.numRows, 0)),
        BigInt(table.rowsets.reduce((sum, rowset) => sum + rowset.dataSize, 0)),
        table.schema.createTime * 1000,
        table.schema.comment,
      ]),
  },
  columns: {
    columns: [['TABLE_CATALOG', S], ['TABLE_SCHEMA', S], ['TABLE_NAME', S], ['COLUMN_NAME', S], ['ORDINAL_POSITION', N], ['COLUMN_DEFAULT', S], ['IS_NULLABLE', S], ['DATA_TYPE', S], ['COLUMN_TYPE', S], ['COLUMN_KEY', S], ['COLUMN_COMMENT', S]],
    rows: (catalog) =>
      allTables(catalog).flatMap((table) =>
        table.schema.columns.map((column, colIdx) => [
          'internal',
          table.schema.databaseName,
          table.schema.name,
          column.name,
          BigInt(colIdx + 1),
          column.defaultValue,
          column.nullable ? 'YES' : 'NO',
          column.type.name.toLowerCase(),
          typeToSql(column.type).toLowerCase(),
          column.isKey ? (table.schema.keysType === 'UNIQUE' ? 'UNI' : 'DUP') : '',
          column.comment,
        ]),
      ),
  },
  session_variables: {
    columns: [['VARIABLE_NAME', S], ['VARIABLE_VALUE', S]],
    rows: () => SESSION_VARIABLES.map((def) => [def.name, String(def.defaultValue)]),
  },
  engines: {
    columns: [['ENGINE', S], ['SUPPORT', S], ['COMMENT', S]],
    rows: () => [['Doris', 'DEFAULT', 'Galene OLAP engine']],
  },
};

/** The schema of information_schema.<name>; throws UNKNOWN_TABLE. */
export function informationSchemaTable(name: string): TableSchema {
  const table = VIRTUAL_TABLES[name.toLowerCase()];
  if (!table) throw new GaleneError('UNKNOWN_TABLE', [`${INFORMATION_SCHEMA}.${name}`]);
  return makeTableSchema(INFORMATION_SCHEMA, name.toLowerCase(), table.columns.map(([columnName, type]) => ({ name: columnName, type, nullable: true })));
}

/** A source over the catalog's state now. */
export function openInformationSchemaTable(catalog: Catalog, schema: TableSchema): TableSource {
  return MemoryTable.fromRows(schema, VIRTUAL_TABLES[schema.name].rows(catalog));
}

/** The row count a scan of the table would return now (the planner's estimate). */
export function informationSchemaRowCount(catalog: Catalog, schema: TableSchema): number {
  return VIRTUAL_TABLES[schema.name].rows(catalog).length;
}

export function informationSchemaTableNames(): string[] {
  return Object.keys(VIRTUAL_TABLES);
}
