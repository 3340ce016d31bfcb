/**
 * The live facts of this server as the admin surface shows them, one builder per fact so that every place
 * that shows it agrees: the backends (SHOW BACKENDS, SHOW PROC '/backends', information_schema.backends,
 * /api/show_proc), the frontends, the process list (SHOW PROCESSLIST, information_schema.processlist,
 * SHOW PROC '/current_queries'), table sizes (SHOW DATA, SHOW PROC '/dbs') and Doris's byte formatting.
 * Shapes follow Doris 2.1/3.x (column names and order; values as Doris prints them).
 */
import type { RawValue } from '../common/column';
import type { Config } from '../common/config';
import { formatDatetime } from '../common/datetime';
import { Types } from '../common/types';
import type { Catalog, TableState } from '../meta/catalog';
import { DEFAULT_COMPUTE_GROUP, LOCAL_BACKEND_ID, type BackendRecord, type ClusterMembership } from '../meta/cluster-membership';
import type { TabletPlacement } from '../meta/tablet-placement';
import type { FileCache } from '../io/file-cache';
import type { LoadProgress } from './load-progress';
import type { ProcessListEntry } from './server-services';
import { DORIS_BUILD_VERSION } from './session-variables';
import type { ColumnSpec } from './statements/result-rows';

/** What the admin surface reads of the server: catalog, settings, sessions, global variables, running loads. */
export interface ServerFacts {
  readonly catalog: Catalog;
  readonly config: Config;
  readonly sessions: ReadonlyMap<number, ProcessListEntry>;
  readonly globalVariables: ReadonlyMap<string, string | number | boolean>;
  readonly loadProgress: LoadProgress;
  /** When this FE started (ms since the epoch). */
  readonly startTime: number;
  /** The BE's file cache (information_schema.file_cache_info). */
  readonly backend: { readonly fileCache: FileCache };
  /** The BEs the FE knows (embedded: the one of this process) and which of them owns each tablet. */
  readonly cluster: ClusterMembership;
  readonly placement: TabletPlacement;
}

/** The id of the one BE of this process (SHOW BACKENDS BackendId, the tablets' BackendId). */
export const BACKEND_ID = LOCAL_BACKEND_ID;
/** Doris's default database data quota (1024 TB) and replica quota. */
const DB_DATA_QUOTA = 1024 ** 5;
const DB_REPLICA_QUOTA = 1073741824;

const UNITS: readonly [number, string][] = [[1024 ** 4, 'TB'], [1024 ** 3, 'GB'], [1024 ** 2, 'MB'], [1024, 'KB']];

/** Doris DebugUtil.printByteWithUnit: `900.000 B`, `1.400 KB`, `1024.000 TB`. */
export function formatBytes(bytes: number): string {
  for (const [unit, name] of UNITS) if (bytes >= unit) return `${(bytes / unit).toFixed(3)} ${name}`;
  return `${bytes.toFixed(3)} B`;
}

export const timeText = (ms: number): string | null => (ms > 0 ? formatDatetime(ms * 1000) : null);

/** Bytes and rows of a table's visible rowsets, and its replica count (one per tablet). */
export function tableSize(table: TableState): { bytes: number; rows: number; replicas: number } {
  let bytes = 0;
  let rows = 0;
  for (const rowset of table.rowsets) {
    bytes += rowset.dataSize;
    rows += rowset.numRows;
  }
  return { bytes, rows, replicas: table.tablets.length };
}

/** When the table last changed: its newest rowset, else its creation (ms since the epoch). */
export const lastUpdateTime = (table: TableState): number => table.rowsets.reduce((latest, rowset) => Math.max(latest, rowset.createTime), table.schema.createTime);

export const dbQuota = { bytes: DB_DATA_QUOTA, replicas: DB_REPLICA_QUOTA };

const host = (facts: ServerFacts): string => facts.config.getString('bind_address');


/** SHOW BACKENDS's columns (Doris 2.1). */
export const BACKEND_COLUMNS: readonly ColumnSpec[] = [
    ['BackendId', Types.BIGINT], ['Host'], ['HeartbeatPort', Types.INT], ['BePort', Types.INT], ['HttpPort', Types.INT], ['BrpcPort', Types.INT], ['ArrowFlightSqlPort', Types.INT],
    ['LastStartTime'], ['LastHeartbeat'], ['Alive'], ['SystemDecommissioned'], ['TabletNum', Types.BIGINT], ['DataUsedCapacity'], ['TrashUsedCapacity'], ['AvailCapacity'],
    ['TotalCapacity'], ['UsedPct'], ['MaxDiskUsedPct'], ['RemoteUsedCapacity'], ['Tag'], ['ErrMsg'], ['Version'], ['Status'], ['HeartbeatFailureCounter', Types.INT], ['NodeRole'],
];

/**
 * Doris's Tag column of a BE in a compute group (cloud mode prints this JSON with ` : ` separators);
 * an embedded server's own BE keeps the short form it always had.
 */
export function backendTag(backend: BackendRecord): string {
  if (backend.local) return `{"compute_group_name" : "${backend.computeGroup}"}`;
  const fields: [string, string][] = [
    ['cloud_unique_id', backend.uniqueId], ['compute_group_status', 'NORMAL'], ['private_endpoint', ''], ['compute_group_name', backend.computeGroup], ['location', 'default'], ['public_endpoint', ''], ['compute_group_id', backend.computeGroupId],
  ];
  return `{${fields.map(([key, value]) => `${JSON.stringify(key)} : ${JSON.stringify(value)}`).join(', ')}}`;
}

/** SHOW BACKENDS's rows: every BE of the membership (embedded: the one of this process). */
export function backendRows(facts: ServerFacts): RawValue[][] {
  const tables = facts.catalog.listDatabases().flatMap((db) => facts.catalog.listTables(db.name));
  const tabletIds = tables.flatMap((table) => table.tablets.map((tablet) => tablet.id));
  const used = tables.reduce((sum, table) => sum + tableSize(table).bytes, 0);
  return facts.cluster.list().map((backend) => {
    // The embedded BE holds every tablet; a cluster BE the tablets its group's placement gives it.
    const tablets = backend.local ? tabletIds.length : tabletIds.filter((id) => facts.placement.ownerOf(backend.computeGroup, id) === backend.id).length;
    const started = timeText(backend.local ? facts.startTime : backend.lastStartTime);
    const heartbeat = backend.local ? timeText(Date.now()) : timeText(backend.lastHeartbeat);
    const status = { lastSuccessReportTabletsTime: backend.local ? started : heartbeat ?? 'N/A', lastStreamLoadTime: -1, isQueryDisabled: false, isLoadDisabled: false };
    return [
      BigInt(backend.id), backend.host, backend.heartbeatPort, backend.bePort, backend.httpPort, backend.brpcPort, -1, started, heartbeat, String(backend.alive), String(backend.decommissioned), BigInt(tablets),
      formatBytes(backend.local ? used : backend.dataUsedBytes), formatBytes(0), formatBytes(0), formatBytes(0), '0.00 %', '0.00 %', formatBytes(0), backendTag(backend), backend.errMsg, backend.version || DORIS_BUILD_VERSION,
      JSON.stringify(status), backend.heartbeatFailures, 'mix',
    ];
  });
}

/** SHOW COMPUTE GROUPS's columns (Doris 3.0 ShowClusterCommand). */
export const COMPUTE_GROUP_COLUMNS: readonly ColumnSpec[] = [['Name'], ['IsCurrent'], ['Users'], ['BackendNum', Types.INT]];

/** SHOW COMPUTE GROUPS's rows: every group with a BE; IsCurrent for the session's group. */
export function computeGroupRows(facts: ServerFacts, current: string): RawValue[][] {
  return facts.cluster.groups().map((group) => [group.name, String(group.name === current ? 'TRUE' : 'FALSE'), '', group.backends.length]);
}

/** SHOW FRONTENDS's columns (Doris 2.1). */
export const FRONTEND_COLUMNS: readonly ColumnSpec[] = [
    ['Name'], ['Host'], ['EditLogPort', Types.INT], ['HttpPort', Types.INT], ['QueryPort', Types.INT], ['RpcPort', Types.INT], ['ArrowFlightSqlPort', Types.INT], ['Role'], ['IsMaster'],
    ['ClusterId', Types.BIGINT], ['Join'], ['Alive'], ['ReplayedJournalId', Types.BIGINT], ['LastStartTime'], ['LastHeartbeat'], ['IsHelper'], ['ErrMsg'], ['Version'], ['CurrentConnected'],
];

/** SHOW FRONTENDS's rows: this FE. */
export function frontendRows(facts: ServerFacts): RawValue[][] {
  const started = timeText(facts.startTime);
  const row: RawValue[] = [
    'fe_1', host(facts), 0, facts.config.getInt('http_port'), facts.config.getInt('query_port'), 0, -1, 'FOLLOWER', 'true', 0n, 'true', 'true', 0n, started, timeText(Date.now()), 'true', '', DORIS_BUILD_VERSION, 'Yes',
  ];
  return [row];
}

/**
 * SHOW PROCESSLIST's columns, Doris's (ShowProcessListCommand): MySQL's Id, User, Host, Db, Command, Time,
 * State and Info among Doris's own. information_schema.processlist has the same columns in upper snake case.
 */
export const PROCESS_LIST_COLUMNS: readonly ColumnSpec[] = [
  ['CurrentConnected'], ['Id', Types.BIGINT], ['User'], ['Host'], ['LoginTime'], ['Catalog'], ['Db'], ['Command'], ['Time', Types.INT], ['State'], ['QueryId'], ['Info'], ['FE'], ['CloudCluster'],
];

/** Who asks for the process list: their session (CurrentConnected), user, whether they see every user's, and FULL. */
export interface ProcessListViewer {
  readonly connectionId: number | null;
  readonly user: string | null;
  /** ADMIN_PRIV (Doris ConnectPoolMgr.listConnection): every user's sessions; otherwise the viewer's user's. */
  readonly seesAll: boolean;
  /** SHOW FULL PROCESSLIST: Info in full; otherwise its first 100 characters (Doris). */
  readonly full: boolean;
}

/** Characters of Info SHOW PROCESSLIST shows without FULL (Doris ConnectContext.ThreadInfo). */
const INFO_PREFIX_CHARS = 100;

/**
 * The sessions, then the Stream Loads running now (Id NULL: a load is not a connection KILL can reach;
 * Command `Stream Load`, Info its label and progress so far), in PROCESS_LIST_COLUMNS's order. LoginTime is
 * `loginTime(ms since the epoch)`: Doris's text by default, a DATETIME value for information_schema.
 */
export function processListRows(facts: ServerFacts, viewer: ProcessListViewer, loginTime: (ms: number) => RawValue = timeText): RawValue[][] {
  const sees = (user: string): boolean => viewer.seesAll || user === viewer.user;
  const info = (text: string): string => (viewer.full ? text : text.slice(0, INFO_PREFIX_CHARS));
  const fe = host(facts);
  const rows: RawValue[][] = [...facts.sessions.values()].filter((other) => sees(other.user)).map((other) => {
    const task = other.currentTask;
    // The session that asks is running SHOW PROCESSLIST itself; others are busy or asleep.
    return [
      other.connectionId === viewer.connectionId ? 'Yes' : 'No', BigInt(other.connectionId), other.user, other.clientAddress, loginTime(other.loginTime), 'internal', other.database ?? '',
      task !== null ? 'Query' : 'Sleep', other.stateSeconds(), task?.state ?? 'OK', task?.options.queryId ?? '', info(other.currentStatementText ?? ''), fe, DEFAULT_COMPUTE_GROUP,
    ];
  });
  for (const load of runningLoads(facts)) {
    if (!sees(load.user)) continue;
    rows.push([
      'No', null, load.user, '', loginTime(load.startedAt), 'internal', load.database ?? '', 'Stream Load', Math.floor((Date.now() - load.startedAt) / 1000), 'LOADING', '',
      info(`label: ${load.label}, ScannedRows: ${load.scannedRows}, LoadBytes: ${load.loadBytes}`), fe, DEFAULT_COMPUTE_GROUP,
    ]);
  }
  return rows;
}

/** A Stream Load running now, with what its transaction and job info say. */
export interface RunningLoad {
  readonly txnId: number;
  readonly label: string;
  readonly database: string | null;
  readonly user: string;
  readonly scannedRows: number;
  readonly loadBytes: number;
  readonly startedAt: number;
}

export function runningLoads(facts: ServerFacts): RunningLoad[] {
  const meta = facts.catalog.meta;
  const dbNames = new Map(facts.catalog.listDatabases().map((db) => [db.id, db.name]));
  return facts.loadProgress
    .running((txnId) => meta.getTransaction(txnId)?.status === 'PREPARE')
    .map((entry) => {
      const txn = meta.getTransaction(entry.txnId)!;
      const user = meta.getLoadJobInfo(entry.txnId)?.['user'];
      return { ...entry, label: txn.label, database: dbNames.get(txn.dbId) ?? null, user: typeof user === 'string' ? user : '' };
    });
}
