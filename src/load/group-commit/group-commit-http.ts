/**
 * What Group Commit shows over HTTP: the FE's `GET /api/get_wal_size` answer (Doris's shape:
 * `{"msg":"OK","code":0,"data":["<host>:<port>:<wal count>", ...],"count":0}`, one entry per BE) and the
 * BE metrics whose names contain `wal` (plus group-commit counters) for `/metrics`.
 */
import type { Config } from '../../common/config';
import type { LoadTarget } from '../load-transaction';
import { existingGroupCommitManager } from './group-commit-manager';

/** `/api/get_wal_size` for this process's one BE (`host_ports`, when given, filters by `host:port`). */
export function walSizeAnswer(target: LoadTarget, config: Config, hostPorts: string | null): { msg: string; code: number; data: string[]; count: number } {
  const manager = existingGroupCommitManager(target);
  const hostPort = `${config.getString('bind_address')}:${config.getInt('brpc_port')}`;
  const wanted = hostPorts === null || hostPorts.trim() === '' ? null : hostPorts.split(',').map((item) => item.trim());
  const data = wanted === null || wanted.includes(hostPort) ? [`${hostPort}:${manager?.totalWalCount() ?? 0}`] : [];
  return { msg: 'OK', code: 0, data, count: 0 };
}

/** `[name, value, help]` gauges for the BE's /metrics. */
export function groupCommitMetrics(target: LoadTarget): [string, number, string][] {
  const manager = existingGroupCommitManager(target);
  const stats = manager?.stats;
  return [
    ['doris_be_wal_total_count', manager?.totalWalCount() ?? 0, 'Group Commit WAL files on this BE (open async batches and WALs waiting for replay)'],
    ['doris_be_wal_total_bytes', manager?.totalWalBytes() ?? 0, 'Bytes of Group Commit WAL files on this BE'],
    ['doris_be_wal_fsync_total', stats?.walFsyncs ?? 0, 'WAL fsyncs (each covers every async append queued before it)'],
    ['doris_be_wal_replay_total', stats?.walReplayed ?? 0, 'WALs replayed into their tables'],
    ['doris_be_wal_corrupt_records_total', stats?.walCorruptRecords ?? 0, 'Damaged WAL stretches skipped at replay (each loses one record or header copy; intact records after it are kept)'],
    ['doris_be_wal_quarantined_total', stats?.walQuarantined ?? 0, 'WALs with no intact header moved to <wal dir>/.corrupt/ instead of being replayed'],
    ['doris_be_wal_replay_failures_total', stats?.walReplayFailures ?? 0, 'WAL replay attempts that failed (retried with backoff)'],
    ['doris_be_group_commit_load_total', (stats?.loadsSync ?? 0) + (stats?.loadsAsync ?? 0), 'Loads that went through Group Commit'],
    ['doris_be_group_commit_async_to_sync_total', stats?.asyncToSync ?? 0, 'async_mode loads run as sync_mode (size unknown or WAL disk short)'],
    ['doris_be_group_commit_batch_committed_total', stats?.batchesCommitted ?? 0, 'Group Commit batches committed (one transaction each)'],
    ['doris_be_group_commit_batch_failed_total', stats?.batchesFailed ?? 0, 'Group Commit batches whose commit failed'],
    ['doris_be_group_commit_queue_mem_bytes', manager?.memoryInUse() ?? 0, 'Bytes held by open Group Commit batches'],
  ];
}
