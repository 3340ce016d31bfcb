/**
 * Group Commit (issue 5, Doris's Group Commit): many small INSERT INTO VALUES and Stream Load requests to a
 * table fold into one transaction per interval, in sync_mode (the load returns once visible) or
 * async_mode (the load returns once its rows are fsync'd in a write-ahead log, visible at the batch
 * commit). See docs/group-commit.md.
 *
 * Layers: used by fe/ (INSERT, HTTP API, start-up) and load/start-stream-load.ts; imports load/ (never
 * load/stream-load), meta/ types, storage/checksum and common/ only.
 */
export { GroupCommitManager, groupCommitManagerOf, existingGroupCommitManager, groupCommitLabel } from './group-commit-manager';
export type { GroupCommitAck, GroupCommitRegistration, GroupCommitStats, BatchingMode, WalReplaySummary } from './group-commit-manager';
export { groupCommitInsert, prepareGroupCommitStreamLoad } from './group-commit-loads';
export type { GroupCommitStreamLoadHost } from './group-commit-loads';
export { parseGroupCommitMode, insertGroupCommitMode, streamLoadGroupCommitMode, tableGroupCommitMode } from './group-commit-mode';
export type { GroupCommitMode, InsertGroupCommitFacts } from './group-commit-mode';
export { walSizeAnswer, groupCommitCounters, groupCommitGauges } from './group-commit-http';
export type { ScrapedMetric } from './group-commit-http';
export { readWal, listWalFiles, walFilePath } from './wal-file';
