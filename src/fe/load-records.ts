/**
 * Loads as SHOW LOAD and SHOW STREAM LOAD list them, from their transactions and job info (meta store),
 * with the live progress of the ones running now (load-progress.ts): a running Stream Load's ScannedRows
 * and LoadBytes grow in JobDetails while it runs.
 *
 * SHOW LOAD: https://doris.apache.org/docs/sql-manual/sql-statements/data-modification/load-and-export/SHOW-LOAD
 * SHOW STREAM LOAD: https://doris.apache.org/docs/sql-manual/sql-statements/data-modification/load-and-export/SHOW-STREAM-LOAD
 * (records kept only while the BE setting enable_stream_load_record is true, as in Doris).
 */
import type { RawValue } from '../common/column';
import { Types } from '../common/types';
import type { TransactionRecord } from '../meta/meta-store';
import { ServerFacts, timeText } from './cluster-facts';
import type { ColumnSpec } from './statements/result-rows';

/** Doris SHOW LOAD state of a load transaction. */
const LOAD_STATE: Record<TransactionRecord['status'], string> = { PREPARE: 'LOADING', PRECOMMITTED: 'PREPARED', COMMITTED: 'COMMITTED', VISIBLE: 'FINISHED', ABORTED: 'CANCELLED' };

export const SHOW_LOAD_COLUMNS: readonly ColumnSpec[] = [
  ['JobId', Types.BIGINT], ['Label'], ['State'], ['Progress'], ['Type'], ['EtlInfo'], ['TaskInfo'], ['ErrorMsg'], ['CreateTime'], ['EtlStartTime'], ['EtlFinishTime'],
  ['LoadStartTime'], ['LoadFinishTime'], ['URL'], ['JobDetails'], ['TransactionId', Types.BIGINT], ['ErrorTablets'], ['User'], ['Comment'],
];

/** A load's job info field as a number or text. */
const infoReader = (info: Record<string, unknown>) => ({
  num: (key: string, fallback = 0): number => (typeof info[key] === 'number' ? (info[key] as number) : fallback),
  str: (key: string): string => (typeof info[key] === 'string' ? (info[key] as string) : ''),
});

/** The state SHOW LOAD shows for a load transaction. */
export const loadState = (txn: TransactionRecord): string => LOAD_STATE[txn.status];

/** SHOW LOAD rows of a database's loads (INSERT and Stream Load), oldest first. */
export function showLoadRows(facts: ServerFacts, dbId: number): RawValue[][] {
  const meta = facts.catalog.meta;
  return meta.listTransactions({ dbId }).map((txn) => {
    const { num, str } = infoReader(meta.getLoadJobInfo(txn.id) ?? {});
    const state = loadState(txn);
    const live = state === 'LOADING' ? facts.loadProgress.get(txn.id) : undefined;
    const loaded = num('loadedRows', txn.loadedRows);
    const message = txn.reason || str('message');
    const scanned = live?.scannedRows ?? num('totalRows', loaded);
    const details = { ScannedRows: scanned, LoadBytes: live?.loadBytes ?? num('loadBytes'), FileNumber: 0, FileSize: 0, TaskNumber: 1, 'Unfinished backends': {}, 'All backends': {} };
    return [
      BigInt(txn.id), txn.label, state, state === 'FINISHED' ? '100.00% (1/1)' : '0.00% (0/1)', str('type') || 'INSERT',
      `unselected.rows=${num('unselectedRows')}; dpp.abnorm.ALL=${num('filteredRows')}; dpp.norm.ALL=${loaded}`, 'cluster:N/A; timeout(s):600; max_filter_ratio:0.0',
      message ? `type:LOAD_RUN_FAIL; msg:${message}` : null, timeText(txn.createTime), timeText(txn.createTime), timeText(txn.finishTime), timeText(txn.createTime), timeText(txn.finishTime),
      str('errorUrl') || null, JSON.stringify(details), BigInt(txn.id), '{}', str('user'), '',
    ];
  });
}

export const STREAM_LOAD_COLUMNS: readonly ColumnSpec[] = [
  ['Label'], ['Db'], ['Table'], ['ClientIp'], ['Status'], ['Message'], ['Url'], ['TotalRows', Types.BIGINT], ['LoadedRows', Types.BIGINT], ['FilteredRows', Types.BIGINT],
  ['UnselectedRows', Types.BIGINT], ['LoadBytes', Types.BIGINT], ['StartTime'], ['FinishTime'], ['User'], ['Comment'],
];

/**
 * SHOW STREAM LOAD rows: the finished Stream Loads of one database (null: all), oldest first; none while
 * enable_stream_load_record is off.
 */
export function streamLoadRecords(facts: ServerFacts, dbId: number | null): RawValue[][] {
  if (!facts.config.get<boolean>('enable_stream_load_record')) return [];
  const meta = facts.catalog.meta;
  const dbNames = new Map(facts.catalog.listDatabases().map((db) => [db.id, db.name]));
  const txns = meta.listTransactions(dbId === null ? {} : { dbId });
  return txns.flatMap((txn) => {
    const info = meta.getLoadJobInfo(txn.id);
    if (info?.['type'] !== 'STREAM_LOAD' || txn.status === 'PREPARE') return [];
    const { num, str } = infoReader(info);
    const tableName = txn.tableIds.length ? (facts.catalog.getTableById(txn.tableIds[0])?.schema.name ?? '') : '';
    const status = txn.status === 'ABORTED' ? 'Fail' : 'Success';
    return [[
      txn.label, dbNames.get(txn.dbId) ?? '', tableName, '', status, txn.reason || str('message') || 'OK', str('errorUrl') || 'N/A', BigInt(num('totalRows')), BigInt(num('loadedRows', txn.loadedRows)),
      BigInt(num('filteredRows')), BigInt(num('unselectedRows')), BigInt(num('loadBytes')), timeText(txn.createTime), timeText(txn.finishTime), str('user'), '',
    ]];
  });
}
