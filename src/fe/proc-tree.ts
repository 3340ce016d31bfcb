/**
 * Doris's PROC tree (`SHOW PROC '/path'`, FE `GET /api/show_proc?path=`): a directory of named nodes, each
 * a small table of strings with Doris's titles (fe-core common/proc). Paths parse as Doris's ProcService
 * does (`//` is one separator, a trailing `/` names the directory); an unknown node is Doris's "Proc path
 * '...' doesn't exist". Served: /backends, /frontends, /dbs, /dbs/<db id>, /dbs/<db id>/<table id>,
 * /dbs/<db id>/<table id>/partitions, /transactions, /transactions/<db id>, /transactions/<db id>/running|finished,
 * /jobs, /jobs/<db id>, /statistic, /current_queries, /stream_loads, /catalogs.
 */
import type { RawValue } from '../common/column';
import { GaleneError } from '../common/errors';
import type { DatabaseRecord, TransactionRecord } from '../meta/meta-store';
import type { TableState } from '../meta/catalog';
import { partitionInfoOf } from '../meta/schema';
import { tablePartitions } from './partition-facts';
import { BACKEND_COLUMNS, backendRows, dbQuota, formatBytes, FRONTEND_COLUMNS, frontendRows, lastUpdateTime, runningLoads, ServerFacts, tableSize, timeText } from './cluster-facts';
import { streamLoadRecords, STREAM_LOAD_COLUMNS } from './load-records';
import { Types } from '../common/types';
import type { ColumnSpec } from './statements/result-rows';

/** A PROC result: titles and rows, every value as text (Doris's ProcResult). */
export interface ProcResult {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** A node of the tree: its own result, and (for a directory) a child by name. */
interface ProcNode {
  fetch(): ProcResult;
  lookup?(name: string): ProcNode | null;
}

const text = (value: RawValue): string => (value === null ? '\\N' : String(value));
const table = (columns: readonly string[], rows: readonly (readonly RawValue[])[]): ProcResult => ({ columns, rows: rows.map((row) => row.map(text)) });
const procError = (message: string): GaleneError => new GaleneError('ADMIN_ERROR', [message]);

const TXN_COLUMNS = [
  'TransactionId', 'Label', 'Coordinator', 'TransactionStatus', 'LoadJobSourceType', 'PrepareTime', 'PreCommitTime', 'CommitTime', 'PublishTime', 'FinishTime', 'Reason',
  'ErrorReplicasCount', 'ListenerId', 'TimeoutMs', 'ErrMsg',
];

/** One SHOW TRANSACTION / PROC transactions row. */
export function transactionRow(facts: ServerFacts, txn: TransactionRecord): RawValue[] {
  const streaming = facts.catalog.meta.getLoadJobInfo(txn.id)?.['type'] === 'STREAM_LOAD';
  const done = txn.status === 'VISIBLE' ? timeText(txn.finishTime) : null;
  const finished = txn.status === 'VISIBLE' || txn.status === 'ABORTED' ? timeText(txn.finishTime) : null;
  return [
    BigInt(txn.id), txn.label, `BE: ${facts.config.getString('bind_address')}`, txn.status, streaming ? 'BACKEND_STREAMING' : 'INSERT_STREAMING', timeText(txn.createTime), null, done, done, finished,
    txn.reason, 0, -1n, 600_000n, '',
  ];
}

const isRunningTxn = (txn: TransactionRecord): boolean => txn.status === 'PREPARE' || txn.status === 'PRECOMMITTED' || txn.status === 'COMMITTED';

function dbById(facts: ServerFacts, idText: string): DatabaseRecord {
  if (!/^\d+$/.test(idText)) throw procError(`Invalid db id format: ${idText}`);
  const db = facts.catalog.listDatabases().find((candidate) => candidate.id === Number(idText));
  if (!db) throw procError(`Database ${idText} does not exist`);
  return db;
}

const dbTables = (facts: ServerFacts, db: DatabaseRecord) => facts.catalog.listTables(db.name);

/** SHOW PARTITIONS' and the partitions proc's columns (Doris 2.1). */
export const PARTITION_COLUMNS = ['PartitionId', 'PartitionName', 'VisibleVersion', 'VisibleVersionTime', 'State', 'PartitionKey', 'Range', 'DistributionKey', 'Buckets', 'ReplicationNum', 'StorageMedium', 'CooldownTime', 'RemoteStoragePolicy', 'LastConsistencyCheckTime', 'DataSize', 'IsInMemory', 'ReplicaAllocation', 'IsMutable', 'SyncWithBaseTables', 'UnsyncTables', 'CommittedVersion', 'RowCount'];

/** One row per partition of `state` (partition-facts.ts), in PARTITION_COLUMNS' order. */
/** SHOW PARTITIONS' columns with their types (the counts and ids BIGINT, the rest text): SHOW and partitions(). */
export const PARTITION_COLUMN_SPECS: readonly ColumnSpec[] = PARTITION_COLUMNS.map((name) => [name, ['PartitionId', 'VisibleVersion', 'Buckets', 'ReplicationNum', 'CommittedVersion', 'RowCount'].includes(name) ? Types.BIGINT : undefined] as ColumnSpec);

/** partitionRows with the numbers as the BIGINTs PARTITION_COLUMN_SPECS declares. */
export function typedPartitionRows(state: TableState): RawValue[][] {
  return partitionRows(state).map((row) => row.map((value) => (typeof value === 'number' ? BigInt(value) : value)));
}

export function partitionRows(state: TableState): RawValue[][] {
  const dist = state.schema.distribution;
  const key = partitionInfoOf(state.schema)?.columns.join(', ') ?? '';
  return tablePartitions(state).map((partition) => [
    partition.id, partition.name, partition.visibleVersion, timeText(partition.updateTime), 'NORMAL', key, partition.range, dist.type === 'HASH' ? dist.columns.join(', ') : 'RANDOM', partition.buckets,
    1, 'HDD', '9999-12-31 23:59:59', '', null, formatBytes(partition.bytes), 'false', 'tag.location.default: 1', 'true', 'true', '', partition.visibleVersion, partition.rows,
  ]);
}

function tableNode(facts: ServerFacts, db: DatabaseRecord, idText: string): ProcNode {
  const found = dbTables(facts, db).find((candidate) => String(candidate.schema.id) === idText);
  if (!found) throw procError(`Table[${idText}] does not exist`);
  const partitions: ProcNode = {
    fetch: () => {
      const state = facts.catalog.getTable(db.name, found.schema.name);
      return table(PARTITION_COLUMNS, partitionRows(state));
    },
  };
  return {
    fetch: () => table(['Nodes'], [['partitions']]),
    lookup: (name) => (name === 'partitions' ? partitions : null),
  };
}

function dbNode(facts: ServerFacts, db: DatabaseRecord): ProcNode {
  return {
    fetch: () => {
      const running = facts.catalog.meta.listTransactions({ dbId: db.id }).filter(isRunningTxn).length;
      const rows = dbTables(facts, db).map((state) => {
        const size = tableSize(state);
        const updated = lastUpdateTime(state);
        return [state.schema.id, state.schema.name, 1, partitionInfoOf(state.schema)?.columns.join(', ') ?? '', partitionInfoOf(state.schema)?.partitions.length ?? 1, 'NORMAL', 'OLAP', null, size.replicas, state.visibleVersion, timeText(updated), running, timeText(updated)];
      });
      return table(['TableId', 'TableName', 'IndexNum', 'PartitionColumnName', 'PartitionNum', 'State', 'Type', 'LastConsistencyCheckTime', 'ReplicaCount', 'VisibleVersion', 'VisibleVersionTime', 'RunningTransactionNum', 'LastUpdateTime'], rows);
    },
    lookup: (name) => tableNode(facts, db, name),
  };
}

/** A `/<name>` directory keyed by database id, with `child(db)` below each. */
function byDatabase(facts: ServerFacts, child: (db: DatabaseRecord) => ProcNode): ProcNode {
  return {
    fetch: () => table(['DbId', 'DbName'], facts.catalog.listDatabases().map((db) => [db.id, db.name])),
    lookup: (name) => child(dbById(facts, name)),
  };
}

function transactionsNode(facts: ServerFacts, db: DatabaseRecord): ProcNode {
  const txns = () => facts.catalog.meta.listTransactions({ dbId: db.id });
  const list = (running: boolean): ProcNode => ({ fetch: () => table(TXN_COLUMNS, txns().filter((txn) => isRunningTxn(txn) === running).map((txn) => transactionRow(facts, txn))) });
  return {
    fetch: () => {
      const all = txns();
      const running = all.filter(isRunningTxn).length;
      return table(['State', 'Number'], [['running', running], ['finished', all.length - running]]);
    },
    lookup: (name) => (name === 'running' ? list(true) : name === 'finished' ? list(false) : null),
  };
}

/** Loads (Stream Load and INSERT) per state, as Doris's /jobs/<db> load row; the other job types have none here. */
function jobsNode(facts: ServerFacts, db: DatabaseRecord): ProcNode {
  return {
    fetch: () => {
      const txns = facts.catalog.meta.listTransactions({ dbId: db.id });
      const count = (test: (txn: TransactionRecord) => boolean): number => txns.filter(test).length;
      const load = [count((txn) => txn.status === 'PREPARE' && facts.loadProgress.get(txn.id) === undefined), count((txn) => isRunningTxn(txn) && (txn.status !== 'PREPARE' || facts.loadProgress.get(txn.id) !== undefined)), count((txn) => txn.status === 'VISIBLE'), count((txn) => txn.status === 'ABORTED')];
      const rows: RawValue[][] = [['load', ...load, load.reduce((sum, n) => sum + n, 0)], ...['delete', 'rollup', 'schema_change', 'export'].map((type) => [type, 0, 0, 0, 0, 0])];
      return table(['JobType', 'Pending', 'Running', 'Finished', 'Cancelled', 'Total'], rows);
    },
  };
}

function statisticNode(facts: ServerFacts): ProcNode {
  return {
    fetch: () => {
      const rows: RawValue[][] = facts.catalog.listDatabases().map((db) => {
        const tables = dbTables(facts, db);
        const tablets = tables.reduce((sum, state) => sum + state.tablets.length, 0);
        return [db.id, db.name, tables.length, tables.length, tables.length, tablets, tablets, 0, 0, 0, 0];
      });
      const total = rows.reduce<number[]>((sums, row) => sums.map((sum, colIdx) => sum + Number(row[colIdx + 2])), [0, 0, 0, 0, 0, 0, 0, 0, 0]);
      return table(['DbId', 'DbName', 'TableNum', 'PartitionNum', 'IndexNum', 'TabletNum', 'ReplicaNum', 'UnhealthyTabletNum', 'InconsistentTabletNum', 'CloningTabletNum', 'BadTabletNum'], [...rows, ['Total', rows.length, ...total]]);
    },
  };
}

function currentQueriesNode(facts: ServerFacts): ProcNode {
  return {
    fetch: () => {
      const rows: RawValue[][] = [...facts.sessions.values()].flatMap((session) => {
        const task = session.currentTask;
        return task === null ? [] : [[task.options.queryId, session.connectionId, 'internal', session.database ?? '', session.user, `${Date.now() - task.startedAt}`, '', session.currentStatementText]];
      });
      for (const load of runningLoads(facts)) rows.push([`load_${load.txnId}`, '', 'internal', load.database ?? '', load.user, `${Date.now() - load.startedAt}`, '', `STREAM LOAD ${load.label}: ScannedRows=${load.scannedRows}, LoadBytes=${load.loadBytes}`]);
      return table(['QueryId', 'ConnectionId', 'Catalog', 'Database', 'User', 'ExecTime', 'SqlHash', 'Statement'], rows);
    },
  };
}

function rootNode(facts: ServerFacts): ProcNode {
  const children: Record<string, () => ProcNode> = {
    backends: () => ({ fetch: () => table(BACKEND_COLUMNS.map(([name]) => name), backendRows(facts)) }),
    catalogs: () => ({ fetch: () => table(['CatalogId', 'CatalogName', 'Type', 'CreateTime', 'LastUpdateTime', 'Comment'], [[0, 'internal', 'internal', timeText(facts.startTime), timeText(facts.startTime), 'Doris internal catalog']]) }),
    current_queries: () => currentQueriesNode(facts),
    dbs: () => ({
      fetch: () =>
        table(
          ['DbId', 'DbName', 'TableNum', 'Size', 'Quota', 'LastConsistencyCheckTime', 'ReplicaCount', 'ReplicaQuota', 'RunningTransactionNum', 'TransactionQuota', 'CreateTime', 'LastUpdateTime'],
          facts.catalog.listDatabases().map((db) => {
            const tables = dbTables(facts, db);
            const sizes = tables.map(tableSize);
            const running = facts.catalog.meta.listTransactions({ dbId: db.id }).filter(isRunningTxn).length;
            return [db.id, db.name, tables.length, formatBytes(sizes.reduce((sum, size) => sum + size.bytes, 0)), formatBytes(dbQuota.bytes), null, sizes.reduce((sum, size) => sum + size.replicas, 0), dbQuota.replicas, running, 1000, timeText(db.createTime), timeText(db.createTime)];
          }),
        ),
      lookup: (name) => dbNode(facts, dbById(facts, name)),
    }),
    frontends: () => ({ fetch: () => table(FRONTEND_COLUMNS.map(([name]) => name), frontendRows(facts)) }),
    jobs: () => byDatabase(facts, (db) => jobsNode(facts, db)),
    statistic: () => statisticNode(facts),
    stream_loads: () => ({ fetch: () => table(STREAM_LOAD_COLUMNS.map(([name]) => name), streamLoadRecords(facts, null)) }),
    transactions: () => byDatabase(facts, (db) => transactionsNode(facts, db)),
  };
  return {
    fetch: () => table(['name'], Object.keys(children).map((name) => [name])),
    lookup: (name) => children[name]?.() ?? null,
  };
}

/** The result of the PROC node at `path` (Doris ProcService.open + fetchResult). */
export function showProc(facts: ServerFacts, path: string): ProcResult {
  const trimmed = path.trim();
  if (trimmed === '') throw procError('Path is null');
  if (!trimmed.startsWith('/')) throw procError(`Path(${path}) does not start with '/'`);
  let node = rootNode(facts);
  const names = trimmed.split('/').filter((name) => name !== '');
  for (const name of names) {
    const next = node.lookup?.(name) ?? null;
    if (next === null) throw procError(`Proc path '${path}' doesn't exist`);
    node = next;
  }
  return node.fetch();
}
