/**
 * MySQL's information_schema strings have a case-insensitive collation (utf8mb3_general_ci), and tools
 * rely on it: MariaDB Connector/J's getColumns computes NULLABLE as `IF(IS_NULLABLE = 'yes', 1, 0)`, and
 * browsers filter `TABLE_TYPE = 'base table'`. Galene compares strings as bytes (Doris's binary
 * collation) everywhere else; the binder folds both sides to lower case when a comparison, IN or LIKE
 * reads a string column of an information_schema table, and ORDER BY sorts such a column by its lower-case
 * form (the values themselves are returned as stored). Database and table names stay case-sensitive,
 * as MySQL's do with lower_case_table_names=0 (Doris's default): they name objects that differ by case
 * (https://dev.mysql.com/doc/refman/8.0/en/charset-collation-information-schema.html).
 */
import { isStringType } from '../common/types';
import type { OutputColumn } from '../exec/plan/physical-plan';
import { INFORMATION_SCHEMA } from '../meta/catalog';
import type { Expr } from './ast';
import type { Clause, Scope } from './binder-scope';

/** Registry names of the comparisons that compare case-insensitively on information_schema strings. */
export const CASE_INSENSITIVE_COMPARISONS: ReadonlySet<string> = new Set(['eq', 'eq_null_safe', 'ne', 'lt', 'le', 'gt', 'ge', 'like']);

/** Columns naming databases and tables (TABLE_SCHEMA, SCHEMA_NAME, TABLE_NAME, EVENT_OBJECT_TABLE, ...). */
const OBJECT_NAME_COLUMN = /(SCHEMA|SCHEMA_NAME|TABLE_NAME|_TABLE)$/i;

/** True when `ast` is a reference to a case-insensitive string column of an information_schema table in `scope`. */
export function readsInformationSchema(ast: Expr, scope: Scope, clause: Clause): boolean {
  if (ast.kind !== 'column') return false;
  const column = scope.find(ast, clause);
  return column !== null && (column.database ?? column.origin.database)?.toLowerCase() === INFORMATION_SCHEMA && !OBJECT_NAME_COLUMN.test(column.name);
}

/** True when a plan column is straight from an information_schema table's string column that collates case-insensitively. */
export function collatesCaseInsensitively(column: OutputColumn): boolean {
  return column.database?.toLowerCase() === INFORMATION_SCHEMA && column.orgName !== undefined && isStringType(column.type) && !OBJECT_NAME_COLUMN.test(column.orgName);
}
