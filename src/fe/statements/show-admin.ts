/**
 * The SHOW forms of the admin surface, in Doris's shapes: SHOW DATA, SHOW CATALOGS, SHOW PROC,
 * [ADMIN] SHOW FRONTEND CONFIG / SHOW BACKEND CONFIG, SHOW VARIABLES (Doris 2.1+'s four columns),
 * SHOW LOAD and SHOW STREAM LOAD (WHERE, ORDER BY, LIMIT), SHOW PROCESSLIST, SHOW BACKENDS, SHOW FRONTENDS.
 * Spread into SHOW_HANDLERS (show.ts). Live facts come from cluster-facts.ts through `session.fe`.
 */
import type { RawValue } from '../../common/column';
import { SETTINGS, SettingDef } from '../../common/config';
import { GaleneError } from '../../common/errors';
import type { StatementResult } from '../../common/result';
import { matchLike } from '../../exec/expr';
import type { OrderByItem, ShowStatement } from '../../sql/ast';
import { showComputeGroups, showProperty } from './cluster-admin';
import { BACKEND_COLUMNS, BACKEND_ID, backendRows, dbQuota, formatBytes, FRONTEND_COLUMNS, frontendRows, PROCESS_LIST_COLUMNS, processListRows, tableSize, timeText } from '../cluster-facts';
import { SHOW_LOAD_COLUMNS, showLoadRows, STREAM_LOAD_COLUMNS, streamLoadRecords } from '../load-records';
import { showProc } from '../proc-tree';
import { variableRows } from '../variable-rows';
import { ColumnSpec, rowsResult } from './result-rows';
import { filterRows, type ShowHandler } from './show-filter';
import type { StatementSession } from './statement-session';
import { privilegesOf } from './statement-privileges';

/** Doris ORDER BY over a SHOW result: each key must name a column ("Should order by column"). */
export function orderRows(columns: readonly ColumnSpec[], rows: RawValue[][], orderBy: readonly OrderByItem[] | undefined): RawValue[][] {
  if (!orderBy?.length) return rows;
  const keys = orderBy.map((item) => {
    if (item.expr.kind !== 'column') throw new GaleneError('ADMIN_ERROR', ['Should order by column']);
    const name = item.expr.name.toLowerCase();
    const colIdx = columns.findIndex(([column]) => column.toLowerCase() === name);
    if (colIdx < 0) throw new GaleneError('ADMIN_ERROR', [`Title name[${item.expr.name}] does not exist`]);
    return { colIdx, sign: item.direction === 'DESC' ? -1 : 1 };
  });
  const compare = (a: RawValue, b: RawValue): number => {
    if (a === b) return 0;
    if (a === null) return -1;
    if (b === null) return 1;
    if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) return a < b ? -1 : a > b ? 1 : 0;
    const [left, right] = [String(a), String(b)];
    return left < right ? -1 : left > right ? 1 : 0;
  };
  return [...rows].sort((rowA, rowB) => {
    for (const { colIdx, sign } of keys) {
      const order = compare(rowA[colIdx], rowB[colIdx]);
      if (order !== 0) return order * sign;
    }
    return 0;
  });
}

/** LIMIT [offset,] count of a SHOW (literal values). */
function limitRows(statement: ShowStatement, rows: RawValue[][]): RawValue[][] {
  const limit = statement.limit;
  if (!limit) return rows;
  const count = limit.count.kind === 'literal' ? Number(limit.count.value) : Infinity;
  const offset = limit.offset?.kind === 'literal' ? Number(limit.offset.value) : 0;
  return rows.slice(offset, offset + count);
}

/** WHERE / LIKE, then ORDER BY, then LIMIT. */
export const shaped = (statement: ShowStatement, columns: readonly ColumnSpec[], rows: RawValue[][]): StatementResult =>
  rowsResult(columns, limitRows(statement, orderRows(columns, filterRows(statement, columns, rows), statement.orderBy)));

/** `SHOW DATA [FROM [db.]t] [ORDER BY ...]`: sizes from the visible rowsets, sorted before formatting (as Doris). */
function showData(session: StatementSession, statement: ShowStatement): StatementResult {
  const catalog = session.fe.catalog;
  if (statement.target === null && session.database === null) {
    // Doris 3: without a database, every database's totals.
    const columns: ColumnSpec[] = [['DbId'], ['DbName'], ['Size'], ['RemoteSize'], ['RecycleSize'], ['RecycleRemoteSize']];
    const raw = catalog.listDatabases().map((db) => [String(db.id), db.name, catalog.listTables(db.name).reduce((sum, table) => sum + tableSize(table).bytes, 0)] as RawValue[]);
    const sorted = orderRows([['DbId'], ['DbName'], ['Size']], raw, statement.orderBy);
    return rowsResult(columns, sorted.map(([id, name, bytes]) => [id, name, formatBytes(Number(bytes)), formatBytes(0), formatBytes(0), formatBytes(0)]));
  }
  if (statement.target !== null) {
    const database = session.requireDatabase(statement.target.database ?? statement.database);
    const table = catalog.getTable(database, statement.target.name);
    const size = tableSize(table);
    const columns: ColumnSpec[] = [['TableName'], ['IndexName'], ['Size'], ['ReplicaCount'], ['RowCount'], ['RemoteSize']];
    // One materialized index, the base index, named after the table (Doris).
    return rowsResult(columns, [
      [table.schema.name, table.schema.name, formatBytes(size.bytes), String(size.replicas), String(size.rows), formatBytes(0)],
      ['', 'Total', formatBytes(size.bytes), String(size.replicas), '', formatBytes(0)],
    ]);
  }
  const database = session.requireDatabase(null);
  const raw = catalog.listTables(database).map((table) => {
    const size = tableSize(table);
    return [table.schema.name, size.bytes, size.replicas, 0] as RawValue[];
  });
  raw.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
  const sorted = orderRows([['TableName'], ['Size'], ['ReplicaCount'], ['RemoteSize']], raw, statement.orderBy);
  const totalBytes = raw.reduce((sum, row) => sum + Number(row[1]), 0);
  const totalReplicas = raw.reduce((sum, row) => sum + Number(row[2]), 0);
  const rows: RawValue[][] = sorted.map(([name, bytes, replicas]) => [name, formatBytes(Number(bytes)), String(replicas), formatBytes(0)]);
  rows.push(['Total', formatBytes(totalBytes), String(totalReplicas), formatBytes(0)]);
  rows.push(['Quota', formatBytes(dbQuota.bytes), String(dbQuota.replicas), '']);
  rows.push(['Left', formatBytes(dbQuota.bytes - totalBytes), String(dbQuota.replicas - totalReplicas), '']);
  return rowsResult([['TableName'], ['Size'], ['ReplicaCount'], ['RemoteSize']], rows);
}

/** Doris's Java type name of a setting (ConfigBase shows the field's type). */
const SETTING_TYPE: Record<SettingDef['type'], string> = { int: 'int', bytes: 'long', bool: 'boolean', string: 'String' };

const settingValue = (session: StatementSession, setting: SettingDef): string => String(session.fe.config.get(setting.name));

const bySettingName = [...SETTINGS].sort((a, b) => (a.name < b.name ? -1 : 1));

function showFrontendConfig(session: StatementSession, statement: ShowStatement): StatementResult {
  const columns: ColumnSpec[] = [['Key'], ['Value'], ['Type'], ['IsMutable'], ['MasterOnly'], ['Comment']];
  const rows = bySettingName.map((setting) => [setting.name, settingValue(session, setting), SETTING_TYPE[setting.type], String(setting.mutable), 'false', setting.description]);
  return shaped(statement, columns, rows);
}

function showBackendConfig(session: StatementSession, statement: ShowStatement): StatementResult {
  const columns: ColumnSpec[] = [['BackendId'], ['Host'], ['Key'], ['Value'], ['Type'], ['IsMutable']];
  const host = session.fe.config.getString('bind_address');
  const rows = bySettingName.map((setting) => [String(BACKEND_ID), host, setting.name, settingValue(session, setting), SETTING_TYPE[setting.type], String(setting.mutable)]);
  // LIKE matches the Key column (the third).
  const like = statement.like;
  return rowsResult(columns, like === null ? rows : rows.filter((row) => matchLike(row[2], like, { caseInsensitive: true })));
}

function showVariables(session: StatementSession, statement: ShowStatement): StatementResult {
  const fe = session.fe;
  const rows = variableRows((def) => (statement.global ? (fe.globalVariables.get(def.name) ?? def.defaultValue) : session.getVariable(def.name)));
  return shaped(statement, [['Variable_name'], ['Value'], ['Default_Value'], ['Changed']], rows);
}

/** `SHOW LOAD [FROM db] [WHERE LABEL = '...' | LABEL LIKE '...' | STATE = '...'] [ORDER BY ...] [LIMIT]`. */
function showLoad(session: StatementSession, statement: ShowStatement): StatementResult {
  const db = session.fe.catalog.getDatabase(session.requireDatabase(statement.database));
  return shaped(statement, SHOW_LOAD_COLUMNS, showLoadRows(session.fe, db.id));
}

function showStreamLoad(session: StatementSession, statement: ShowStatement): StatementResult {
  const db = session.fe.catalog.getDatabase(session.requireDatabase(statement.database));
  return shaped(statement, STREAM_LOAD_COLUMNS, streamLoadRecords(session.fe, db.id));
}

function showProcStatement(session: StatementSession, statement: ShowStatement): StatementResult {
  const proc = showProc(session.fe, statement.path ?? '');
  return rowsResult(proc.columns.map((name): ColumnSpec => [name]), proc.rows.map((row) => [...row]));
}

export const ADMIN_SHOW_HANDLERS: Record<string, ShowHandler> = {
  data: showData,
  catalogs: (session, statement) => {
    const started = timeText(session.fe.startTime);
    return shaped(statement, [['CatalogId'], ['CatalogName'], ['Type'], ['IsCurrent'], ['CreateTime'], ['LastUpdateTime'], ['Comment']], [['0', 'internal', 'internal', 'Yes', started, started, 'Doris internal catalog']]);
  },
  proc: showProcStatement,
  'frontend config': showFrontendConfig,
  'backend config': showBackendConfig,
  variables: showVariables,
  load: showLoad,
  'stream load': showStreamLoad,
  // Doris ShowProcesslistStmt: an account without ADMIN_PRIV sees its own user's sessions only.
  processlist: (session, statement) =>
    rowsResult(PROCESS_LIST_COLUMNS, processListRows(session.fe, { connectionId: session.connectionId, user: session.user, seesAll: privilegesOf(session).hasGlobal('ADMIN_PRIV'), full: statement.full })),
  backends: (session) => rowsResult(BACKEND_COLUMNS, backendRows(session.fe)),
  'compute groups': showComputeGroups,
  property: showProperty,
  frontends: (session) => rowsResult(FRONTEND_COLUMNS, frontendRows(session.fe)),
};
