/**
 * information_schema tables of live server state: PARTITIONS, PROCESSLIST, SESSION_VARIABLES and
 * GLOBAL_VARIABLES (the asking session's values and the SET GLOBAL ones), and Doris's own `backends`,
 * `frontends`, `rowsets` and `active_queries`. The rows come from the same builders as SHOW BACKENDS,
 * SHOW PROCESSLIST and SHOW VARIABLES (cluster-facts.ts, variable-rows.ts), so every view agrees.
 */
import type { RawValue } from '../../common/column';
import { formatDatetime } from '../../common/datetime';
import { DataType, Types } from '../../common/types';
import { BACKEND_COLUMNS, BACKEND_ID, backendRows, FRONTEND_COLUMNS, frontendRows, lastUpdateTime, PROCESS_LIST_COLUMNS, processListRows, tableSize } from '../cluster-facts';
import type { ColumnSpec } from '../statements/result-rows';
import { variableRows } from '../variable-rows';
import { tablePartitions } from '../partition-facts';
import type { RowsetRecord } from '../../meta/meta-store';
import { partitionInfoOf } from '../../meta/schema';
import { columns, SchemaFacts, VirtualTable } from './schema-facts';

const S = Types.varchar(512);
const N = Types.BIGINT;
const T = Types.DATETIME;
const CATALOG = 'internal';
/** Position of Time in the process list's rows (an INT there, BIGINT here). */
const PROCESS_LIST_TIME = PROCESS_LIST_COLUMNS.findIndex(([name]) => name === 'Time');

const allTables = (facts: SchemaFacts) => facts.catalog.listDatabases().flatMap((db) => facts.catalog.listTables(db.name));

/** A fact SHOW shows, as a table with the same columns (strings where SHOW gives no type). */
const showTable = (specs: readonly ColumnSpec[], rows: VirtualTable['rows']): VirtualTable => ({
  columns: specs.map(([name, type]): [string, DataType] => [name, type ?? S]),
  rows,
});

const datetime = (ms: number): RawValue => ms * 1000;
/** Bytes of a rowset's index files (inverted, ANN, primary key), Doris's INDEX_DISK_SIZE. */
const rowsetIndexBytes = (rowset: RowsetRecord): number => rowset.segments.reduce((sum, segment) => sum + (segment.indexes ?? []).reduce((bytes, index) => bytes + index.size, 0), 0);

export const LIVE_TABLES: Record<string, VirtualTable> = {
  partitions: {
    columns: [
      ...columns(S, 'TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'PARTITION_NAME', 'SUBPARTITION_NAME'),
      ...columns(N, 'PARTITION_ORDINAL_POSITION', 'SUBPARTITION_ORDINAL_POSITION'),
      ...columns(S, 'PARTITION_METHOD', 'SUBPARTITION_METHOD', 'PARTITION_EXPRESSION', 'SUBPARTITION_EXPRESSION', 'PARTITION_DESCRIPTION'),
      ...columns(N, 'TABLE_ROWS', 'AVG_ROW_LENGTH', 'DATA_LENGTH', 'MAX_DATA_LENGTH', 'INDEX_LENGTH', 'DATA_FREE'),
      ...columns(T, 'CREATE_TIME', 'UPDATE_TIME', 'CHECK_TIME'),
      ...columns(N, 'CHECKSUM'),
      ...columns(S, 'PARTITION_COMMENT', 'NODEGROUP', 'TABLESPACE_NAME'),
    ],
    // One row per partition; an unpartitioned table has one, named after the table (as in Doris).
    rows: (facts) =>
      allTables(facts).flatMap((table) => {
        const info = partitionInfoOf(table.schema);
        return tablePartitions(table).map((partition, ordinal) => [
          CATALOG, table.schema.databaseName, table.schema.name, partition.name, null, info === null ? 1n : BigInt(ordinal + 1), null, info?.type ?? null, null,
          info === null ? null : info.columns.map((name) => '`' + name + '`').join(', '), null, partition.range || null,
          BigInt(partition.rows), BigInt(partition.rows ? Math.round(partition.bytes / partition.rows) : 0), BigInt(partition.bytes), 0n, 0n, 0n,
          datetime(table.schema.createTime), datetime(info === null ? lastUpdateTime(table) : partition.updateTime), null, null, '', 'default', null,
        ]);
      }),
  },
  // Doris SchemaTable processlist: SHOW PROCESSLIST's columns (cluster-facts.ts), Info in full.
  processlist: {
    columns: [
      ...columns(S, 'CURRENT_CONNECTED'), ...columns(N, 'ID'), ...columns(S, 'USER', 'HOST'), ...columns(T, 'LOGIN_TIME'), ...columns(S, 'CATALOG', 'DB', 'COMMAND'), ...columns(N, 'TIME'),
      ...columns(S, 'STATE', 'QUERY_ID', 'INFO', 'FE', 'CLOUD_CLUSTER'),
    ],
    rows: (facts) =>
      processListRows(facts.server, facts.view?.processListViewer ?? { connectionId: null, user: null, seesAll: true, full: true }, datetime).map((row) =>
        row.map((value, colIdx) => (colIdx === PROCESS_LIST_TIME ? BigInt(Number(value)) : value)),
      ),
  },
  session_variables: {
    columns: columns(S, 'VARIABLE_NAME', 'VARIABLE_VALUE', 'DEFAULT_VALUE', 'CHANGED'),
    rows: (facts) => variableRows((def) => facts.sessionVariable(def.name)),
  },
  global_variables: {
    columns: columns(S, 'VARIABLE_NAME', 'VARIABLE_VALUE', 'DEFAULT_VALUE', 'CHANGED'),
    rows: (facts) => variableRows((def) => facts.server.globalVariables.get(def.name) ?? def.defaultValue),
  },
  backends: showTable(BACKEND_COLUMNS, (facts) => backendRows(facts.server)),
  frontends: showTable(FRONTEND_COLUMNS, (facts) => frontendRows(facts.server)),
  rowsets: {
    columns: [
      ...columns(N, 'BACKEND_ID'), ...columns(S, 'ROWSET_ID'), ...columns(N, 'TABLET_ID', 'ROWSET_NUM_ROWS', 'TXN_ID', 'NUM_SEGMENTS', 'START_VERSION', 'END_VERSION', 'INDEX_DISK_SIZE', 'DATA_DISK_SIZE'),
      ...columns(T, 'CREATION_TIME', 'NEWEST_WRITE_TIMESTAMP'), ...columns(N, 'SCHEMA_VERSION'),
    ],
    rows: (facts) =>
      allTables(facts).flatMap((table) =>
        table.rowsets.map((rowset) => [
          BigInt(BACKEND_ID), String(rowset.id), BigInt(rowset.tabletId), BigInt(rowset.numRows), BigInt(rowset.txnId), BigInt(rowset.segments.length), BigInt(rowset.version), BigInt(rowset.version),
          BigInt(rowsetIndexBytes(rowset)), BigInt(rowset.dataSize), datetime(rowset.createTime), datetime(rowset.createTime), BigInt(table.schema.schemaVersion),
        ]),
      ),
  },
  active_queries: {
    columns: [...columns(S, 'QUERY_ID', 'QUERY_START_TIME'), ...columns(N, 'QUERY_TIME_MS', 'WORKLOAD_GROUP_ID'), ...columns(S, 'DATABASE', 'FRONTEND_INSTANCE', 'QUEUE_START_TIME', 'QUEUE_END_TIME', 'QUERY_STATUS', 'SQL')],
    rows: (facts) => {
      const fe = `${facts.server.config.getString('bind_address')}:${facts.server.config.getInt('query_port')}`;
      return [...facts.server.sessions.values()].flatMap((session) => {
        const task = session.currentTask;
        if (task === null) return [];
        return [[task.options.queryId, formatDatetime(task.startedAt * 1000), BigInt(Date.now() - task.startedAt), 1n, session.database ?? '', fe, null, null, task.state.toUpperCase(), session.currentStatementText]];
      });
    },
  },
};
