/**
 * The SHOW forms dump tools, ORMs and GUI clients parse by column name, in MySQL's shapes:
 * `SHOW TABLE STATUS` (MySQL's 18 columns, the values of information_schema.TABLES) and
 * `SHOW [FULL] COLUMNS | FIELDS` (Key is Doris's YES / NO; FULL adds Collation, Privileges, Comment),
 * `SHOW [FULL] TRIGGERS` (always empty) and `SHOW PRIVILEGES` (Doris's privilege names).
 * show.ts spreads these into SHOW_HANDLERS, passing its LIKE / WHERE filter.
 */
import type { RawValue } from '../../common/column';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import { isStringType, Types } from '../../common/types';
import { INFORMATION_SCHEMA } from '../../meta/catalog';
import type { ShowStatement } from '../../sql/ast';
import { informationSchemaTableNames, tableStatusRow } from '../information-schema';
import { dorisTypeText } from '../information-schema/column-facts';
import type { ColumnSpec } from './result-rows';
import type { ShowHandler } from './show-filter';
import type { StatementSession } from './statement-session';
import { privilegesOf } from './statement-privileges';


/** show.ts's result builder: applies the statement's LIKE (first column) and WHERE. */
export type FilteredResult = (statement: ShowStatement, columns: readonly ColumnSpec[], rows: RawValue[][]) => StatementResult;

const N = Types.BIGINT;
const T = Types.DATETIME;

/** https://dev.mysql.com/doc/refman/8.0/en/show-table-status.html (Doris answers the same columns). */
const TABLE_STATUS_COLUMNS: readonly ColumnSpec[] = [
  ['Name'], ['Engine'], ['Version', N], ['Row_format'], ['Rows', N], ['Avg_row_length', N], ['Data_length', N], ['Max_data_length', N], ['Index_length', N],
  ['Data_free', N], ['Auto_increment', N], ['Create_time', T], ['Update_time', T], ['Check_time', T], ['Collation'], ['Checksum', N], ['Create_options'], ['Comment'],
];

const COLLATION = 'utf8mb4_0900_bin';

/** https://dev.mysql.com/doc/refman/8.0/en/show-triggers.html */
const TRIGGER_COLUMNS: readonly ColumnSpec[] = [
  ['Trigger'], ['Event'], ['Table'], ['Statement'], ['Timing'], ['Created', T], ['sql_mode'], ['Definer'], ['character_set_client'], ['collation_connection'], ['Database Collation'],
];

/** Doris's privileges (https://doris.apache.org/docs/admin-manual/auth/authentication-and-authorization), as SHOW PRIVILEGES rows. */
const DORIS_PRIVILEGES: readonly (readonly [string, string, string])[] = [
  ['Node_priv', 'Global', 'Node (FE/BE) administration'],
  ['Admin_priv', 'Global', 'Every operation'],
  ['Grant_priv', 'Global,Catalog,Database,Table', 'GRANT and REVOKE, users and roles'],
  ['Select_priv', 'Global,Catalog,Database,Table', 'Read'],
  ['Load_priv', 'Global,Catalog,Database,Table', 'INSERT, Stream Load, DELETE, UPDATE'],
  ['Alter_priv', 'Global,Catalog,Database,Table', 'ALTER'],
  ['Create_priv', 'Global,Catalog,Database,Table', 'CREATE'],
  ['Drop_priv', 'Global,Catalog,Database,Table', 'DROP'],
  ['Usage_priv', 'Resource,Workload Group', 'Use of resources and workload groups'],
];

export function toolShowHandlers(result: FilteredResult): Record<string, ShowHandler> {
  const tableStatus: ShowHandler = (session, statement) => {
    const database = session.requireDatabase(statement.database);
    if (database.toLowerCase() === INFORMATION_SCHEMA) {
      const views = informationSchemaTableNames().map((name) => [name, 'MEMORY', 10n, 'Fixed', 0n, 0n, 0n, 0n, 0n, 0n, null, null, null, null, COLLATION, null, '', '']);
      return result(statement, TABLE_STATUS_COLUMNS, views);
    }
    return result(statement, TABLE_STATUS_COLUMNS, session.fe.catalog.listTables(database).filter((table) => privilegesOf(session).seesTable(database, table.schema.name, false)).map(tableStatusRow));
  };
  const columns: ShowHandler = (session, statement) => {
    const schema = session.resolveTable(statement.target?.database ?? statement.database, statement.target!.name);
    if (statement.full) {
      const specs: ColumnSpec[] = [['Field'], ['Type'], ['Collation'], ['Null'], ['Key'], ['Default'], ['Extra'], ['Privileges'], ['Comment']];
      return result(statement, specs, schema.columns.map((column) => [column.name, dorisTypeText(column.type), isStringType(column.type) ? COLLATION : null, column.nullable ? 'YES' : 'NO', column.isKey ? 'YES' : 'NO', column.defaultValue, column.aggregation ?? '', 'select,insert,update,references', column.comment]));
    }
    const specs: ColumnSpec[] = [['Field'], ['Type'], ['Null'], ['Key'], ['Default'], ['Extra']];
    return result(statement, specs, schema.columns.map((column) => [column.name, dorisTypeText(column.type), column.nullable ? 'YES' : 'NO', column.isKey ? 'YES' : 'NO', column.defaultValue, column.aggregation ?? '']));
  };
  // Galene has no triggers: MySQL's columns, no rows (DBeaver and mysqldump ask).
  const triggers: ShowHandler = (session, statement) => {
    session.requireDatabase(statement.database);
    return result(statement, TRIGGER_COLUMNS, []);
  };
  const privileges: ShowHandler = (_session, statement) => result(statement, [['Privilege'], ['Context'], ['Comment']], DORIS_PRIVILEGES.map((row) => [...row]));
  return { 'table status': tableStatus, columns, fields: columns, triggers, privileges };
}
