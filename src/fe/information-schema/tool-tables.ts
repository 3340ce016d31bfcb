/**
 * information_schema tables that dump tools read and that Galene has nothing to put in: MySQL's shapes,
 * always empty. `mariadb-dump` / `mysqldump` read FILES for tablespaces (and fail without it unless run
 * with --no-tablespaces); TRIGGERS and EVENTS are where other tools look for triggers and scheduled events.
 */
import { DataType, Types } from '../../common/types';
import type { VirtualTable } from './schema-facts';

const S = Types.varchar(512);
const N = Types.BIGINT;
const T = Types.DATETIME;

const empty = (...groups: [DataType, string[]][]): VirtualTable => ({ columns: groups.flatMap(([type, names]) => names.map((name): [string, DataType] => [name, type])), rows: () => [] });

export const TOOL_TABLES: Record<string, VirtualTable> = {
  files: empty(
    [N, ['FILE_ID']],
    [S, ['FILE_NAME', 'FILE_TYPE', 'TABLESPACE_NAME', 'TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'LOGFILE_GROUP_NAME']],
    [N, ['LOGFILE_GROUP_NUMBER']],
    [S, ['ENGINE', 'FULLTEXT_KEYS']],
    [N, ['DELETED_ROWS', 'UPDATE_COUNT', 'FREE_EXTENTS', 'TOTAL_EXTENTS', 'EXTENT_SIZE', 'INITIAL_SIZE', 'MAXIMUM_SIZE', 'AUTOEXTEND_SIZE']],
    [T, ['CREATION_TIME', 'LAST_UPDATE_TIME', 'LAST_ACCESS_TIME']],
    [N, ['RECOVER_TIME', 'TRANSACTION_COUNTER', 'VERSION']],
    [S, ['ROW_FORMAT']],
    [N, ['TABLE_ROWS', 'AVG_ROW_LENGTH', 'DATA_LENGTH', 'MAX_DATA_LENGTH', 'INDEX_LENGTH', 'DATA_FREE']],
    [T, ['CREATE_TIME', 'UPDATE_TIME', 'CHECK_TIME']],
    [N, ['CHECKSUM']],
    [S, ['STATUS', 'EXTRA']],
  ),
  triggers: empty(
    [S, ['TRIGGER_CATALOG', 'TRIGGER_SCHEMA', 'TRIGGER_NAME', 'EVENT_MANIPULATION', 'EVENT_OBJECT_CATALOG', 'EVENT_OBJECT_SCHEMA', 'EVENT_OBJECT_TABLE']],
    [N, ['ACTION_ORDER']],
    [S, ['ACTION_CONDITION', 'ACTION_STATEMENT', 'ACTION_ORIENTATION', 'ACTION_TIMING', 'ACTION_REFERENCE_OLD_TABLE', 'ACTION_REFERENCE_NEW_TABLE', 'ACTION_REFERENCE_OLD_ROW', 'ACTION_REFERENCE_NEW_ROW']],
    [T, ['CREATED']],
    [S, ['SQL_MODE', 'DEFINER', 'CHARACTER_SET_CLIENT', 'COLLATION_CONNECTION', 'DATABASE_COLLATION']],
  ),
  events: empty(
    [S, ['EVENT_CATALOG', 'EVENT_SCHEMA', 'EVENT_NAME', 'DEFINER', 'TIME_ZONE', 'EVENT_BODY', 'EVENT_DEFINITION', 'EVENT_TYPE']],
    [T, ['EXECUTE_AT']],
    [S, ['INTERVAL_VALUE', 'INTERVAL_FIELD', 'SQL_MODE']],
    [T, ['STARTS', 'ENDS']],
    [S, ['STATUS', 'ON_COMPLETION']],
    [T, ['CREATED', 'LAST_ALTERED', 'LAST_EXECUTED']],
    [S, ['EVENT_COMMENT']],
    [N, ['ORIGINATOR']],
    [S, ['CHARACTER_SET_CLIENT', 'COLLATION_CONNECTION', 'DATABASE_COLLATION']],
  ),
};
