/**
 * CREATE TABLE ... AS SELECT: the column definitions Doris derives from the query's output
 * (Nereids CreateTableCommand / CreateTableInfo.validateCreateTableAsSelect). The table is then built by
 * the ordinary CREATE TABLE rules (ddl.ts buildTableSchema: DUPLICATE KEY on the leading columns, hash
 * distribution on the first column, PROPERTIES) and filled by an INSERT ... SELECT of the same query;
 * when that fails the table is dropped again (Doris's drop_table_if_ctas_failed, default true).
 */
import { GaleneError } from '../../common/errors';
import type { ResultColumn } from '../../common/result';
import { Types, VARCHAR_MAX_LENGTH, type DataType } from '../../common/types';
import type { ColumnDef, CreateTableStatement } from '../../sql/ast';

/**
 * A query column's type as a CTAS table column (Doris, with use_max_length_of_varchar_in_ctas at its
 * default true): NULL becomes TINYINT, CHAR / VARCHAR become VARCHAR(65533), and STRING stays STRING
 * except as the first column (a key), where it becomes VARCHAR(65533).
 */
function ctasType(type: DataType, colIdx: number): DataType {
  if (type.name === 'NULL') return Types.TINYINT;
  if (type.name === 'CHAR' || type.name === 'VARCHAR') return Types.varchar(VARCHAR_MAX_LENGTH);
  if (type.name === 'STRING' && colIdx === 0) return Types.varchar(VARCHAR_MAX_LENGTH);
  return type;
}

/** The column definitions of a CTAS table from the query's result columns. */
export function ctasColumnDefs(statement: CreateTableStatement, output: readonly ResultColumn[]): ColumnDef[] {
  // Doris takes `CREATE TABLE t (a, b) AS SELECT` (names only); a full column list is not a CTAS form.
  if (statement.columns.length > 0) throw new GaleneError('UNSUPPORTED', ['CREATE TABLE with column definitions AS SELECT']);
  return output.map((column, colIdx) => ({
    name: column.name,
    type: ctasType(column.type, colIdx),
    nullable: column.nullable ?? true,
    comment: null,
    aggregation: null,
    autoIncrement: null,
    pos: statement.pos,
    end: statement.end,
  }));
}
