/**
 * SHOW and DESCRIBE. Result shapes follow Doris (column names, order) so tools that parse them work.
 */
import type { RawValue } from '../../common/column';
import { formatDatetime } from '../../common/datetime';
import { GaleneError } from '../../common/errors';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import { Types } from '../../common/types';
import { listFunctions } from '../../exec/expr';
import { INFORMATION_SCHEMA } from '../../meta/catalog';
import type { TransactionRecord } from '../../meta/meta-store';
import { STORAGE_VAULT_ID_PROPERTY } from '../../meta/storage-vaults';
import { partitionInfoOf, partitionsNamed, type TableSchema } from '../../meta/schema';
import type { ViewRecord } from '../../meta/views';
import type { DescribeStatement, ShowStatement } from '../../sql/ast';
import { viewQuery } from '../../sql/binder';
import { viewDefinitionColumns } from '../../sql/query';
import { parseStatement } from '../../sql/parser';
import { informationSchemaTableNames, nullableMark, tableIndexes } from '../information-schema';
import { dorisTypeText } from '../information-schema/column-facts';
import type { StatementSession } from './statement-session';
import { ColumnSpec, rowsResult } from './result-rows';
import { ACCOUNT_SHOW_HANDLERS } from './account';
import { toolShowHandlers } from './show-tools';
import { privilegesOf } from './statement-privileges';
import type { ShowHandler } from './show-filter';
import { ADMIN_SHOW_HANDLERS, shaped } from './show-admin';
import { BUILD_INDEX_SHOW_HANDLERS } from './build-index';
import { STORAGE_VAULT_SHOW_HANDLERS } from './show-storage-vault';
import { PARTITION_COLUMN_SPECS, typedPartitionRows, transactionRow } from '../proc-tree';
import { partitionClauseText } from './partition-ddl';

const quoteIdent = (name: string): string => '`' + name.replace(/`/g, '``') + '`';
const quoteString = (text: string): string => '"' + text.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';

/** An index's PROPERTIES as CREATE TABLE writes them: `("parser" = "english", ...)`. */
const indexPropertiesText = (props: Readonly<Record<string, string>>): string => `(${Object.entries(props).map(([key, value]) => `${quoteString(key)} = ${quoteString(value)}`).join(', ')})`;

/** CREATE TABLE text that recreates the table (SHOW CREATE TABLE). */
export function showCreateTableText(schema: TableSchema): string {
  const lines = schema.columns.map((column) => {
    let line = `  ${quoteIdent(column.name)} ${dorisTypeText(column.type)}`;
    if (column.generatedExpr !== undefined) line += ` AS (${column.generatedExpr})`;
    if (column.aggregation) line += ` ${column.aggregation}`;
    line += column.nullable ? ' NULL' : ' NOT NULL';
    if (column.autoIncrementStart !== undefined) line += ` AUTO_INCREMENT(${column.autoIncrementStart})`;
    if (column.defaultValue !== null) line += column.defaultValue === 'CURRENT_TIMESTAMP' ? ' DEFAULT CURRENT_TIMESTAMP' : ` DEFAULT ${quoteString(column.defaultValue)}`;
    if (column.onUpdateCurrentTimestamp) line += ' ON UPDATE CURRENT_TIMESTAMP';
    if (column.comment) line += ` COMMENT ${quoteString(column.comment)}`;
    return line;
  });
  for (const index of schema.indexes) {
    let line = `  INDEX ${quoteIdent(index.name)} (${index.columns.map(quoteIdent).join(', ')}) USING ${index.indexType}`;
    if (Object.keys(index.properties).length) line += ` PROPERTIES ${indexPropertiesText(index.properties)}`;
    if (index.comment) line += ` COMMENT ${quoteString(index.comment)}`;
    lines.push(line);
  }
  let text = `CREATE TABLE ${quoteIdent(schema.name)} (\n${lines.join(',\n')}\n) ENGINE=OLAP\n`;
  text += `${schema.keysType} KEY(${schema.keyColumns.map(quoteIdent).join(', ')})\n`;
  text += `COMMENT ${quoteString(schema.comment || 'OLAP')}\n`;
  const dist = schema.distribution;
  const partitionInfo = partitionInfoOf(schema);
  if (partitionInfo !== null) text += partitionClauseText(schema, partitionInfo);
  text += dist.type === 'HASH' ? `DISTRIBUTED BY HASH(${dist.columns.map(quoteIdent).join(', ')}) BUCKETS ${dist.buckets}\n` : `DISTRIBUTED BY RANDOM BUCKETS ${dist.buckets}\n`;
  const properties: Record<string, string> = { replication_allocation: 'tag.location.default: 1', ...schema.properties };
  if ((properties['group_commit_mode'] ?? 'off_mode').toLowerCase() === 'off_mode') delete properties['group_commit_mode'];
  // The table's vault in a fixed place (last), not wherever a later ALTER TABLE SET left it: Doris prints its properties in a fixed order.
  const vaultId = properties[STORAGE_VAULT_ID_PROPERTY];
  if (vaultId !== undefined) {
    delete properties[STORAGE_VAULT_ID_PROPERTY];
    properties[STORAGE_VAULT_ID_PROPERTY] = vaultId;
  }
  text += `PROPERTIES (\n${Object.entries(properties).map(([key, value]) => `${quoteString(key)} = ${quoteString(value)}`).join(',\n')}\n);`;
  return text;
}

/** A SHOW's rows after its WHERE / LIKE, ORDER BY and LIMIT (those its grammar accepts). */
const result = shaped;

/** The view SHOW CREATE TABLE / VIEW names, if it is one. */
function findTargetView(session: StatementSession, statement: ShowStatement): ViewRecord | undefined {
  const database = session.requireDatabase(statement.target?.database ?? null);
  return session.fe.catalog.hasDatabase(database) ? session.fe.catalog.findView(database, statement.target!.name) : undefined;
}

/** CREATE VIEW `v` (`a` COMMENT "...", `b`) COMMENT "..." AS <definition>, as Doris shows it. */
function showCreateViewText(view: ViewRecord): string {
  const labels = view.columns === null ? '' : ` (${view.columns.map((column) => quoteIdent(column.name) + (column.comment ? ` COMMENT ${quoteString(column.comment)}` : '')).join(', ')})`;
  const comment = view.comment ? ` COMMENT ${quoteString(view.comment)}` : '';
  return `CREATE VIEW ${quoteIdent(view.name)}${labels}${comment} AS ${view.definition}`;
}

function showTables(session: StatementSession, statement: ShowStatement): StatementResult {
  const database = session.requireDatabase(statement.database);
  const name = `Tables_in_${database}`;
  if (database.toLowerCase() === INFORMATION_SCHEMA) {
    const views = informationSchemaTableNames();
    if (statement.full) return result(statement, [[name], ['Table_type']], views.map((view) => [view, 'SYSTEM VIEW']));
    return result(statement, [[name]], views.map((view) => [view]));
  }
  const privileges = privilegesOf(session);
  const catalog = session.fe.catalog;
  const entries = [...catalog.listTables(database).map((table) => [table.schema.name, 'BASE TABLE']), ...catalog.listViews(database).map((view) => [view.name, 'VIEW'])]
    .filter(([tableName]) => privileges.seesTable(database, tableName, false))
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (statement.full) return result(statement, [[name], ['Table_type']], entries);
  return result(statement, [[name]], entries.map(([tableName]) => [tableName]));
}

/**
 * SHOW QUERY PROFILE: the account's own user's queries, every user's with ADMIN_PRIV (Doris ProfileManager /
 * QueryProfileAction: a common user reviews only their own queries). Another user's query id is unknown.
 */
function showQueryProfile(session: StatementSession, statement: ShowStatement): StatementResult {
  const seesAll = privilegesOf(session).hasGlobal('ADMIN_PRIV');
  const profiles = session.fe.recentProfiles().filter((profile) => seesAll || profile.user === session.user);
  const wanted = (statement.path ?? '/').replace(/^\/+/, '').split('/')[0];
  if (!wanted) {
    const columns: ColumnSpec[] = [['Profile ID'], ['Task Type'], ['Start Time'], ['End Time'], ['Total'], ['Task State'], ['User'], ['Default Db'], ['Sql Statement']];
    return rowsResult(
      columns,
      profiles.map((profile) => [
        profile.queryId,
        'QUERY',
        formatDatetime(profile.startTime * 1000),
        formatDatetime(profile.endTime * 1000),
        `${profile.endTime - profile.startTime}ms`,
        profile.state,
        profile.user,
        profile.database,
        profile.sql,
      ]),
    );
  }
  const profile = profiles.find((candidate) => candidate.queryId === wanted);
  if (!profile) throw new GaleneError('UNKNOWN_QUERY_ID', [wanted]);
  const rows: RawValue[][] = [
    ['QueryId', profile.queryId],
    ['Sql', profile.sql],
    ['State', profile.state],
    ['TotalTimeMs', String(profile.endTime - profile.startTime)],
  ];
  if (profile.errorMessage) rows.push(['Error', profile.errorMessage]);
  for (const [name, value] of profile.counters) rows.push([name, String(Math.round(value * 1000) / 1000)]);
  for (const [column, stats] of profile.columnStats) {
    rows.push([`Column.${column}.RowsRead`, String(stats.rows)]);
    rows.push([`Column.${column}.BytesRead`, String(stats.bytes)]);
  }
  if (profile.planText) rows.push(['Plan', profile.planText]);
  return rowsResult([['Name'], ['Value']], rows);
}

function showTablets(session: StatementSession, statement: ShowStatement): StatementResult {
  const database = session.requireDatabase(statement.target?.database ?? statement.database);
  const table = session.fe.catalog.getTable(database, statement.target!.name);
  const partitions = partitionInfoOf(table.schema)?.partitions ?? [];
  const partitionName = new Map(partitions.map((partition) => [partition.id, partition.name]));
  let tablets = table.tablets;
  const named = statement.partitions ? partitionsNamed(table.schema, statement.partitions) : null;
  if (named !== null) {
    const ids = new Set(named.map((partition) => partition.id));
    tablets = tablets.filter((tablet) => tablet.partitionId !== undefined && ids.has(tablet.partitionId));
  }
  const columns: ColumnSpec[] = [['TabletId', Types.BIGINT], ['Bucket', Types.INT], ['VersionCount', Types.BIGINT], ['RowCount', Types.BIGINT], ['DataSize', Types.BIGINT], ['SegmentCount', Types.BIGINT], ['VisibleVersion', Types.BIGINT], ['PartitionName']];
  const rows = tablets.map((tablet) => {
    const rowsets = table.rowsets.filter((rowset) => rowset.tabletId === tablet.id);
    return [
      BigInt(tablet.id),
      tablet.bucket,
      BigInt(rowsets.length),
      BigInt(rowsets.reduce((sum, rowset) => sum + rowset.numRows, 0)),
      BigInt(rowsets.reduce((sum, rowset) => sum + rowset.dataSize, 0)),
      BigInt(rowsets.reduce((sum, rowset) => sum + rowset.segments.length, 0)),
      BigInt(table.visibleVersion),
      // An unpartitioned table is one partition named after the table, as Doris shows it.
      tablet.partitionId === undefined ? table.schema.name : (partitionName.get(tablet.partitionId) ?? null),
    ];
  });
  return result(statement, columns, rows);
}

/** `SHOW TRANSACTION [FROM db] WHERE ID = n | LABEL = '...'` (Doris requires the WHERE). */
function showTransaction(session: StatementSession, statement: ShowStatement): StatementResult {
  const database = session.requireDatabase(statement.database);
  const db = session.fe.catalog.getDatabase(database);
  const where = statement.where;
  const usage = "Where clause should looks like one of them: id = 123 or label = 'label'";
  if (!where || where.kind !== 'binary' || where.op !== '=' || where.left.kind !== 'column' || where.right.kind !== 'literal' || where.right.value === null) throw new GaleneError('TYPE_MISMATCH', [usage]);
  const key = where.left.name.toLowerCase();
  const value = String(where.right.value);
  let txns: TransactionRecord[];
  if (key === 'id') {
    if (!/^\d+$/.test(value)) throw new GaleneError('TYPE_MISMATCH', [usage]);
    txns = session.fe.catalog.meta.listTransactions({ dbId: db.id, id: Number(value) });
  } else if (key === 'label') {
    txns = session.fe.catalog.meta.listTransactions({ dbId: db.id, label: value });
  } else {
    throw new GaleneError('TYPE_MISMATCH', [usage]);
  }
  const columns: ColumnSpec[] = [
    ['TransactionId', Types.BIGINT], ['Label'], ['Coordinator'], ['TransactionStatus'], ['LoadJobSourceType'], ['PrepareTime'], ['PreCommitTime'], ['CommitTime'],
    ['PublishTime'], ['FinishTime'], ['Reason'], ['ErrorReplicasCount', Types.INT], ['ListenerId', Types.BIGINT], ['TimeoutMs', Types.BIGINT], ['ErrMsg'],
  ];
  const rows = txns.map((txn) => transactionRow(session.fe, txn));
  return rowsResult(columns, rows);
}

const SHOW_HANDLERS: Record<string, ShowHandler> = {
  ...toolShowHandlers(result),
  // Doris: only the databases the account has a privilege in (information_schema for everyone).
  databases: (session, statement) => {
    const privileges = privilegesOf(session);
    return result(statement, [['Database']], [[INFORMATION_SCHEMA], ...session.fe.catalog.listDatabases().filter((db) => privileges.seesDatabase(db.name, false)).map((db) => [db.name])]);
  },
  schemas: (session, statement) => SHOW_HANDLERS.databases(session, statement, null as never),
  tables: showTables,
  'create table': (session, statement) => {
    // Doris answers SHOW CREATE TABLE of a view as SHOW CREATE VIEW.
    if (findTargetView(session, statement)) return SHOW_HANDLERS['create view'](session, statement, null as never);
    const schema = session.resolveTable(statement.target?.database ?? null, statement.target!.name);
    return rowsResult([['Table'], ['Create Table']], [[schema.name, showCreateTableText(schema)]]);
  },
  // Doris ShowCreateViewCommand's columns.
  'create view': (session, statement) => {
    const view = findTargetView(session, statement);
    if (!view) throw new GaleneError('UNKNOWN_TABLE', [`${session.requireDatabase(statement.target?.database ?? null)}.${statement.target!.name}`]);
    return rowsResult([['View'], ['Create View'], ['character_set_client'], ['collation_connection']], [[view.name, showCreateViewText(view), 'utf8mb4', 'utf8mb4_0900_bin']]);
  },
  'create database': (session, statement) => {
    const name = statement.target?.name ?? statement.database!;
    session.fe.catalog.getDatabase(name);
    return rowsResult([['Database'], ['Create Database']], [[name, `CREATE DATABASE ${quoteIdent(name)}`]]);
  },
  // Doris's SHOW PARTITIONS FROM t [WHERE ...] [ORDER BY ...] [LIMIT n]: one row per partition.
  partitions: (session, statement) => {
    const schema = session.resolveTable(statement.target?.database ?? statement.database, statement.target!.name);
    const state = session.fe.catalog.getTableById(schema.id)!;
    return result(statement, PARTITION_COLUMN_SPECS, typedPartitionRows(state));
  },
  'query profile': showQueryProfile,
  tablets: showTablets,
  transaction: showTransaction,
  warnings: (session) => rowsResult([['Level'], ['Code', Types.INT], ['Message']], session.warnings.map((warning) => [warning.level, warning.code, warning.message])),
  errors: () => rowsResult([['Level'], ['Code', Types.INT], ['Message']], []),
  status: (_session, statement) => result(statement, [['Variable_name'], ['Value']], []),
  // Doris's SHOW INDEX columns, one row per index column; a UNIQUE KEY table's key is listed as PRIMARY.
  index: (session, statement) => {
    const schema = session.resolveTable(statement.target?.database ?? statement.database, statement.target!.name);
    const columns: ColumnSpec[] = [['Table'], ['Non_unique', Types.INT], ['Key_name'], ['Seq_in_index', Types.INT], ['Column_name'], ['Collation'], ['Cardinality', Types.BIGINT], ['Sub_part'], ['Packed'], ['Null'], ['Index_type'], ['Comment'], ['Properties']];
    const rows = tableIndexes(schema).flatMap((index) => index.columns.map((name, seqIdx) => [schema.name, index.nonUnique, index.name, seqIdx + 1, name, 'A', null, null, null, nullableMark(schema, name), index.indexType, index.comment, Object.keys(index.properties).length ? indexPropertiesText(index.properties) : '']));
    return result(statement, columns, rows);
  },
  functions: (_session, statement) =>
    result(statement, [['Function Name'], ['Kind'], ['Signature'], ['Description']], listFunctions().map((fn) => [fn.name, fn.kind, fn.signature, fn.description])),
  'builtin functions': (session, statement, profile) => SHOW_HANDLERS.functions(session, statement, profile),
  engines: () => rowsResult([['Engine'], ['Support'], ['Comment'], ['Transactions'], ['XA'], ['Savepoints']], [['Olap engine', 'DEFAULT', 'Default storage engine of Galene', 'YES', 'NO', 'NO']]),
  charset: () => rowsResult([['Charset'], ['Description'], ['Default collation'], ['Maxlen', Types.INT]], [['utf8mb4', 'UTF-8 Unicode', 'utf8mb4_0900_bin', 4]]),
  collation: () => rowsResult([['Collation'], ['Charset'], ['Id', Types.INT], ['Default'], ['Compiled'], ['Sortlen', Types.INT]], [['utf8mb4_0900_bin', 'utf8mb4', 309, 'Yes', 'Yes', 1]]),
  ...ADMIN_SHOW_HANDLERS,
  ...BUILD_INDEX_SHOW_HANDLERS,
  ...STORAGE_VAULT_SHOW_HANDLERS,
  ...ACCOUNT_SHOW_HANDLERS,
};

export async function runShow(session: StatementSession, statement: ShowStatement, _sql: string, profile: QueryProfile): Promise<StatementResult> {
  const handler = SHOW_HANDLERS[statement.what];
  if (!handler) throw new GaleneError('UNSUPPORTED', [`SHOW ${statement.what.toUpperCase()}`]);
  return handler(session, statement, profile);
}

export async function runDescribe(session: StatementSession, statement: DescribeStatement, _sql: string, profile: QueryProfile): Promise<StatementResult> {
  const columns: ColumnSpec[] = [['Field'], ['Type'], ['Null'], ['Key'], ['Default'], ['Extra']];
  if (statement.functionSql !== undefined) {
    // DESC FUNCTION s3(...): the table-valued function's result columns, bound as SELECT * FROM it.
    const text = `SELECT * FROM ${statement.functionSql}`;
    const query = parseStatement(text);
    if (query.kind !== 'query') throw new GaleneError('INTERNAL', ['DESC FUNCTION']);
    const output = viewDefinitionColumns(query.query, session.statementContext(profile), session.database ?? '', text, false);
    return rowsResult(columns, output.map((column) => [column.name, dorisTypeText(column.type), column.nullable === false ? 'No' : 'Yes', 'false', null, '']));
  }
  const database = session.requireDatabase(statement.database);
  const view = session.fe.catalog.hasDatabase(database) ? session.fe.catalog.findView(database, statement.table) : undefined;
  if (view) {
    const output = viewDefinitionColumns(viewQuery(view), session.statementContext(profile), view.databaseName, view.definition, false);
    return rowsResult(columns, output.map((column, colIdx) => [view.columns?.[colIdx]?.name ?? column.name, dorisTypeText(column.type), column.nullable === false ? 'No' : 'Yes', 'false', null, '']));
  }
  const schema = session.resolveTable(statement.database, statement.table);
  return rowsResult(columns, schema.columns.map((column) => [column.name, dorisTypeText(column.type), column.nullable ? 'Yes' : 'No', column.isKey ? 'true' : 'false', column.defaultValue, column.aggregation ?? (schema.keysType === 'UNIQUE' && !column.isKey ? 'REPLACE' : '')]));
}
