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

/** A metric of the BE's /metrics: `[name, help, read]`, read at each scrape. */
export type ScrapedMetric = [string, string, () => number];

/** Sizes (gauges) for the BE's /metrics. */
export function groupCommitGauges(target: LoadTarget): ScrapedMetric[] {
  const manager = (): ReturnType<typeof existingGroupCommitManager> => existingGroupCommitManager(target);
  return [
    ['doris_be_wal_total_count', 'Group Commit WAL files on this BE (open async batches and WALs waiting for replay)', () => manager()?.totalWalCount() ?? 0],
    ['doris_be_wal_total_bytes', 'Bytes of Group Commit WAL files on this BE', () => manager()?.totalWalBytes() ?? 0],
    ['doris_be_group_commit_queue_mem_bytes', 'Bytes held by open Group Commit batches', () => manager()?.memoryInUse() ?? 0],
  ];
}

/** Monotonic counts (counters) for the BE's /metrics. */
export function groupCommitCounters(target: LoadTarget): ScrapedMetric[] {
  const stat = (read: (stats: NonNullable<ReturnType<typeof existingGroupCommitManager>>['stats']) => number) => (): number => {
    const stats = existingGroupCommitManager(target)?.stats;
    return stats ? read(stats) : 0;
  };
  return [
    ['doris_be_wal_fsync_total', 'WAL fsyncs (each covers every async append queued before it)', stat((stats) => stats.walFsyncs)],
    ['doris_be_wal_replay_total', 'WALs replayed into their tables', stat((stats) => stats.walReplayed)],
    ['doris_be_wal_corrupt_records_total', 'Damaged WAL stretches skipped at replay (each loses one record or header copy; intact records after it are kept)', stat((stats) => stats.walCorruptRecords)],
    ['doris_be_wal_quarantined_total', 'WALs with no intact header moved to <wal dir>/.corrupt/ instead of being replayed', stat((stats) => stats.walQuarantined)],
    ['doris_be_wal_rows_without_partition_total', 'Acknowledged rows a WAL replay dropped because their partition no longer exists', stat((stats) => stats.walRowsWithoutPartition)],
    ['doris_be_wal_replay_failures_total', 'WAL replay attempts that failed (retried with backoff)', stat((stats) => stats.walReplayFailures)],
    ['doris_be_group_commit_load_total', 'Loads that went through Group Commit', stat((stats) => stats.loadsSync + stats.loadsAsync)],
    ['doris_be_group_commit_async_to_sync_total', 'async_mode loads run as sync_mode (size unknown or WAL disk short)', stat((stats) => stats.asyncToSync)],
    ['doris_be_group_commit_batch_committed_total', 'Group Commit batches committed (one transaction each)', stat((stats) => stats.batchesCommitted)],
    ['doris_be_group_commit_batch_failed_total', 'Group Commit batches whose commit failed', stat((stats) => stats.batchesFailed)],
  ];
}
