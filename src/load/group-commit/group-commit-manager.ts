/**
 * Group Commit on one BE: small loads of a table join one open batch, and the batch commits as ONE
 * transaction (one new version per tablet) when `group_commit_interval_ms` has passed since it opened or
 * it holds `group_commit_data_bytes`, whichever comes first; the next load opens a new batch.
 *
 * - A batch is keyed by table id and schema version (Doris's block queue per table + schema version).
 *   Its transaction is begun when it opens, so every load in it answers the same label
 *   (`group_commit_<16 hex>_<16 hex>`) and transaction id.
 * - sync_mode: the load returns once its batch is visible.
 * - async_mode: the load's rows are appended to the batch's WAL file and fsync'd (appends arriving during
 *   an fsync share the next one), then the load returns; the rows become visible at the batch commit and
 *   the WAL is deleted right after. A commit that fails keeps the WAL, which is replayed with backoff.
 * - A batch commits only once no load that joined it is still in flight (a Stream Load still reading its
 *   body, an async load still waiting for its fsync), so every row of a batch is in its WAL.
 * - Memory: all open batches together stay under `group_commit_queue_mem_limit`; a writer beyond it makes
 *   the open batches commit early and waits, failing after group_commit_queue_mem_wait_timeout_seconds.
 * - Start-up replays every WAL under its own label before the servers listen: a batch that had committed
 *   before the crash finds its label taken and its WAL is just deleted, so each acknowledged row is
 *   visible exactly once.
 *
 * One manager per BE (per LoadTarget), from `groupCommitManagerOf`. The unit of batching is one BE per
 * table; routing a table's loads to one BE of a compute group comes with compute groups.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Batch } from '../../common/column';
import type { Config } from '../../common/config';
import { parseBytes } from '../../common/config';
import { GaleneError } from '../../common/errors';
import type { TableState } from '../../meta/catalog';
import { beginLoad, LoadTarget, loadBatch, MultiBatchLoad } from '../load-transaction';
import { rowsWithoutPartition } from '../partition-check';
import { concatBatches } from '../source/concat-batches';
import { batchBytes, dropRows } from '../../common/column';
import { decodeBatch, encodeBatch } from './batch-codec';
import { listWalFiles, readWal, WAL_DIR_MODE, WalContents, walFilePath, WalHeader, WalWriter } from './wal-file';

/** The two modes that batch. */
export type BatchingMode = 'sync_mode' | 'async_mode';

export const DEFAULT_INTERVAL_MS = 10_000;
export const DEFAULT_DATA_BYTES = 64 * 1024 * 1024;
/** Doris: async switches to sync for a load larger than this share of the WAL directory's free space. */
const WAL_SPACE_SHARE = 0.8;
const STATFS_CACHE_MS = 1000;

/** What a load that joined a batch is told. */
export interface GroupCommitAck {
  readonly label: string;
  readonly txnId: number;
  /** The mode actually used (async_mode may have switched to sync_mode). */
  readonly mode: BatchingMode;
}

/** A load that joined a batch and has not delivered its rows yet (Stream Load reading its body). */
export interface GroupCommitRegistration extends GroupCommitAck {
  /** Deliver the rows (async: durable in the WAL; sync: visible) or throw. Call once. */
  finish(rows: readonly Batch[]): Promise<void>;
  /** Leave the batch without rows (the load failed or was cancelled). */
  abandon(): void;
}

interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined); // only sync loads wait on it; an unawaited failure is not a crash
  return { promise, resolve, reject };
}

interface OpenBatch {
  readonly key: string;
  readonly table: TableState;
  readonly label: string;
  readonly load: MultiBatchLoad;
  readonly openedAt: number;
  readonly dataBytesLimit: number;
  rows: Batch[];
  rowCount: number;
  /** Bytes of rows delivered (counted against the memory limit until the batch is done). */
  bytes: number;
  /** Loads that joined and have not delivered or left yet. */
  inflight: number;
  loads: number;
  closing: boolean;
  timer: NodeJS.Timeout | null;
  onIdle: (() => void) | null;
  wal: Promise<WalWriter> | null;
  walPath: string | null;
  readonly committed: Deferred;
}

interface ReplayState {
  readonly tableId: number;
  attempts: number;
  timer: NodeJS.Timeout | null;
  lastError: string;
}

/** Counters for /metrics and the docs. */
export interface GroupCommitStats {
  loadsSync: number;
  loadsAsync: number;
  /** async loads that ran as sync_mode (disk space, chunked Stream Load, too large). */
  asyncToSync: number;
  batchesCommitted: number;
  batchesFailed: number;
  rowsCommitted: number;
  walFsyncs: number;
  walReplayed: number;
  walReplayFailures: number;
  /** Damaged WAL stretches skipped at replay (each one record or header copy lost), counted once per file. */
  walCorruptRecords: number;
  /** WALs with no intact header copy, moved aside to `<wal dir>/.corrupt/` and not replayed. */
  walQuarantined: number;
  /** Acknowledged rows a replay could not load because their partition was dropped (Doris filters them). */
  walRowsWithoutPartition: number;
  memoryWaits: number;
}

/** What start-up replay did (printed in the start-up summary). */
export interface WalReplaySummary {
  readonly files: number;
  readonly replayed: number;
  readonly failed: number;
  readonly corruptRecords: number;
  readonly quarantined: number;
}

const randomHex = (): string => randomBytes(8).toString('hex');

/** A Group Commit label in Doris's form. */
export function groupCommitLabel(): string {
  return `group_commit_${randomHex()}_${randomHex()}`;
}

function positiveIntProperty(schema: TableState['schema'], name: string, fallback: number): number {
  const text = schema.properties[name];
  if (text === undefined) return fallback;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class GroupCommitManager {
  private readonly batches = new Map<string, OpenBatch>();
  private readonly closingBatches = new Set<OpenBatch>();
  /** WAL files per table id: live async batches and WALs waiting for replay. */
  private readonly walsByTable = new Map<number, Set<string>>();
  private readonly walBytes = new Map<string, number>();
  private readonly replays = new Map<string, ReplayState>();
  private readonly lastReplayError = new Map<number, string>();
  /** WALs whose damage was already logged and counted (a retried replay reads the file again). */
  private readonly corruptionReported = new Set<string>();
  /** Tables whose loads are refused while a schema change drains them. */
  private readonly blockedTables = new Set<number>();
  private memoryUsed = 0;
  private memoryWaiters: (() => void)[] = [];
  private readonly statfsCache = new Map<string, { at: number; free: number; total: number }>();
  private stopped = false;
  readonly stats: GroupCommitStats = { loadsSync: 0, loadsAsync: 0, asyncToSync: 0, batchesCommitted: 0, batchesFailed: 0, rowsCommitted: 0, walFsyncs: 0, walReplayed: 0, walReplayFailures: 0, walCorruptRecords: 0, walQuarantined: 0, walRowsWithoutPartition: 0, memoryWaits: 0 };

  constructor(
    private readonly target: LoadTarget,
    private readonly config: Config,
  ) {}

  /** The WAL directories: group_commit_wal_path (`;`-separated), else `<data_dir>/wal`. */
  walDirs(): string[] {
    const configured = this.config.getString('group_commit_wal_path').split(';').map((dir) => dir.trim()).filter((dir) => dir !== '');
    return configured.length > 0 ? configured : [path.join(this.config.getString('data_dir'), 'wal')];
  }

  // ------------------------------------------------------------------ counts

  /** WAL files of one table (open async batches plus WALs waiting for replay). */
  walCount(tableId: number): number {
    return this.walsByTable.get(tableId)?.size ?? 0;
  }

  /** WAL files of this BE. */
  totalWalCount(): number {
    let total = 0;
    for (const set of this.walsByTable.values()) total += set.size;
    return total;
  }

  totalWalBytes(): number {
    let total = 0;
    for (const bytes of this.walBytes.values()) total += bytes;
    return total;
  }

  /** Bytes held by open batches (the group_commit_queue_mem_limit budget in use). */
  memoryInUse(): number {
    return this.memoryUsed;
  }

  openBatchCount(): number {
    return this.batches.size + this.closingBatches.size;
  }

  private trackWal(tableId: number, walPath: string, bytes: number): void {
    let set = this.walsByTable.get(tableId);
    if (!set) {
      set = new Set();
      this.walsByTable.set(tableId, set);
    }
    set.add(walPath);
    this.walBytes.set(walPath, bytes);
  }

  private forgetWal(tableId: number, walPath: string): void {
    const set = this.walsByTable.get(tableId);
    set?.delete(walPath);
    if (set && set.size === 0) this.walsByTable.delete(tableId);
    this.walBytes.delete(walPath);
  }

  private async deleteWal(tableId: number, walPath: string): Promise<void> {
    await fs.promises.rm(walPath, { force: true });
    this.forgetWal(tableId, walPath);
  }

  // ------------------------------------------------------------------ disk

  private diskInfo(dir: string): { free: number; total: number } {
    const now = Date.now();
    const cached = this.statfsCache.get(dir);
    if (cached && now - cached.at < STATFS_CACHE_MS) return cached;
    fs.mkdirSync(dir, { recursive: true, mode: WAL_DIR_MODE });
    const stats = fs.statfsSync(dir);
    const info = { at: now, free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
    this.statfsCache.set(dir, info);
    return info;
  }

  /** group_commit_wal_max_disk_limit in bytes ('10%' of the first WAL disk, or a byte size). */
  private walDiskLimit(): number {
    const text = this.config.getString('group_commit_wal_max_disk_limit').trim();
    const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
    if (percent) return (this.diskInfo(this.walDirs()[0]).total * Number(percent[1])) / 100;
    return parseBytes(text) ?? Infinity;
  }

  /** A WAL directory with room for `bytes`, or null when none has (the load then runs as sync_mode). */
  private pickWalDir(bytes: number): string | null {
    const dirs = this.walDirs();
    const roomy = dirs.filter((dir) => bytes <= WAL_SPACE_SHARE * this.diskInfo(dir).free);
    if (roomy.length === 0) return null;
    return roomy[Math.floor(Math.random() * roomy.length)];
  }

  /**
   * async_mode unless the load must run as sync_mode (Doris): its size is unknown (chunked Stream Load),
   * it is larger than 80% of a WAL directory's free space, or the WALs would pass
   * group_commit_wal_max_disk_limit.
   */
  private effectiveMode(mode: BatchingMode, bytes: number, unknownSize: boolean): BatchingMode {
    if (mode === 'sync_mode') return mode;
    if (unknownSize || this.pickWalDir(bytes) === null || this.totalWalBytes() + bytes > this.walDiskLimit()) {
      this.stats.asyncToSync++;
      return 'sync_mode';
    }
    return mode;
  }

  // ------------------------------------------------------------------ memory

  private memoryLimit(): number {
    return this.config.getInt('group_commit_queue_mem_limit');
  }

  /**
   * Reserve `bytes` of the memory budget, waiting (and making open batches commit early) while it is
   * used up. `own`: the batch the caller already joined; it cannot commit before the caller delivers, so
   * its bytes do not count against the caller. A load alone larger than the budget is let through.
   */
  private async reserveMemory(bytes: number, own: OpenBatch | null): Promise<void> {
    const over = (): boolean => {
      const others = this.memoryUsed - (own ? own.bytes : 0);
      return others > 0 && others + bytes > this.memoryLimit();
    };
    if (!over()) {
      this.memoryUsed += bytes;
      return;
    }
    this.stats.memoryWaits++;
    const timeoutMs = this.config.getInt('group_commit_queue_mem_wait_timeout_seconds') * 1000;
    const deadline = Date.now() + timeoutMs;
    while (over()) {
      for (const batch of [...this.batches.values()]) if (batch !== own) this.requestCommit(batch);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new GaleneError('GROUP_COMMIT_MEMORY', [`(group_commit_queue_mem_limit ${this.memoryLimit()} bytes, ${this.memoryUsed} in use)`]);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(remaining, 1000));
        this.memoryWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.memoryUsed += bytes;
  }

  private releaseMemory(bytes: number): void {
    this.memoryUsed = Math.max(0, this.memoryUsed - bytes);
    const waiters = this.memoryWaiters;
    this.memoryWaiters = [];
    for (const wake of waiters) wake();
  }

  // ------------------------------------------------------------------ batches

  private openBatch(table: TableState, key: string): OpenBatch {
    const label = groupCommitLabel();
    const load = beginLoad(this.target, table, label);
    const batch: OpenBatch = {
      key,
      table,
      label,
      load,
      openedAt: Date.now(),
      dataBytesLimit: positiveIntProperty(table.schema, 'group_commit_data_bytes', DEFAULT_DATA_BYTES),
      rows: [],
      rowCount: 0,
      bytes: 0,
      inflight: 0,
      loads: 0,
      closing: false,
      timer: null,
      onIdle: null,
      wal: null,
      walPath: null,
      committed: deferred(),
    };
    const intervalMs = positiveIntProperty(table.schema, 'group_commit_interval_ms', DEFAULT_INTERVAL_MS);
    batch.timer = setTimeout(() => this.requestCommit(batch), intervalMs);
    batch.timer.unref();
    this.batches.set(key, batch);
    return batch;
  }

  private walLimitError(table: TableState): GaleneError {
    const reason = this.lastReplayError.get(table.schema.id);
    return new GaleneError('GROUP_COMMIT_EXCEEDED_LIMIT', [`Too many group commit async WALs for table ${table.schema.name}${reason ? `, last WAL replay failure: ${reason}` : ''}`]);
  }

  /** The open batch a load of `table` joins (opening one if needed), with its WAL when async. */
  private joinBatch(table: TableState, mode: BatchingMode, walBytes: number): OpenBatch {
    if (this.stopped) throw new GaleneError('LOAD_CANCELLED', ['the server is shutting down']);
    const tableId = table.schema.id;
    if (this.blockedTables.has(tableId)) throw new GaleneError('GROUP_COMMIT_BLOCKED', [table.schema.name]);
    const key = `${tableId}:${table.schema.schemaVersion}`;
    let batch = this.batches.get(key);
    if (batch?.closing) batch = undefined;
    if (mode === 'async_mode') {
      const limit = this.config.getInt('group_commit_max_wal_num_per_table');
      const count = this.walCount(tableId);
      const needsWal = batch === undefined || batch.wal === null;
      if (limit > 0 && (count > limit || (needsWal && count >= limit))) throw this.walLimitError(table);
    }
    batch ??= this.openBatch(table, key);
    if (mode === 'async_mode' && batch.wal === null) {
      const dir = this.pickWalDir(walBytes) ?? this.walDirs()[0];
      const header: WalHeader = {
        dbId: table.dbId,
        tableId,
        tableName: table.schema.name,
        label: batch.label,
        txnId: batch.load.txn.id,
        schemaVersion: table.schema.schemaVersion,
        columnIds: table.schema.columns.map((column) => column.uniqueId),
        createTime: Date.now(),
      };
      const walPath = walFilePath(dir, header);
      batch.walPath = walPath;
      this.trackWal(tableId, walPath, 0);
      batch.wal = WalWriter.create(walPath, header, () => this.config.get<boolean>('group_commit_wal_fsync'), this.config.getInt('group_commit_wal_preallocate_bytes'));
      batch.wal.catch(() => undefined);
    }
    return batch;
  }

  private leave(batch: OpenBatch): void {
    batch.inflight--;
    if (batch.inflight === 0 && batch.onIdle) {
      const onIdle = batch.onIdle;
      batch.onIdle = null;
      onIdle();
    }
  }

  /** Add delivered rows to the batch (after their WAL append, when async) and check the size trigger. */
  private addRows(batch: OpenBatch, rows: readonly Batch[], bytes: number): void {
    for (const part of rows) {
      if (part.length === 0) continue;
      batch.rows.push(part);
      batch.rowCount += part.length;
    }
    batch.bytes += bytes;
    if (batch.bytes >= batch.dataBytesLimit) this.requestCommit(batch);
  }

  private async appendWal(batch: OpenBatch, rows: readonly Batch[]): Promise<void> {
    const writer = await batch.wal!;
    for (const part of rows) {
      if (part.length === 0) continue;
      const before = writer.syncs;
      await writer.append(encodeBatch(part));
      this.stats.walFsyncs += writer.syncs - before;
    }
    this.walBytes.set(writer.filePath, writer.bytes);
  }

  /**
   * Deliver rows of a load that joined `batch`: reserve memory, append to the WAL (async), add to the
   * batch; sync waits for the commit. Leaves the batch in every case.
   */
  private async deliver(batch: OpenBatch, mode: BatchingMode, rows: readonly Batch[]): Promise<void> {
    const bytes = rows.reduce((sum, part) => sum + batchBytes(part), 0);
    let reserved = false;
    try {
      await this.reserveMemory(bytes, batch);
      reserved = true;
      if (mode === 'async_mode') await this.appendWal(batch, rows);
      this.addRows(batch, rows, bytes);
      reserved = false; // the batch releases it now
    } finally {
      if (reserved) this.releaseMemory(bytes);
      this.leave(batch);
    }
    if (mode === 'sync_mode') await batch.committed.promise;
  }

  /**
   * An INSERT INTO VALUES in sync_mode or async_mode: `rows` (full width, table order, converted) join
   * the table's open batch. Resolves when they are durable (async) or visible (sync).
   */
  async insert(table: TableState, rows: Batch, mode: BatchingMode): Promise<GroupCommitAck> {
    const bytes = batchBytes(rows);
    const used = this.effectiveMode(mode, bytes, false);
    const batch = this.joinBatch(table, used, bytes);
    batch.inflight++;
    batch.loads++;
    const ack: GroupCommitAck = { label: batch.label, txnId: batch.load.txn.id, mode: used };
    await this.deliver(batch, used, [rows]);
    if (used === 'sync_mode') this.stats.loadsSync++;
    else this.stats.loadsAsync++;
    return ack;
  }

  /**
   * A Stream Load joins a batch before its body is read (it answers the batch's label and txn id); the
   * batch cannot commit until it calls finish or abandon. `bytes`: Content-Length, when known.
   */
  register(table: TableState, mode: BatchingMode, size: { bytes: number; unknown: boolean }): GroupCommitRegistration {
    const used = this.effectiveMode(mode, size.bytes, size.unknown);
    const batch = this.joinBatch(table, used, size.bytes);
    batch.inflight++;
    batch.loads++;
    let done = false;
    const once = (): void => {
      if (done) throw new GaleneError('INTERNAL', [`group commit load in ${batch.label} already finished`]);
      done = true;
    };
    return {
      label: batch.label,
      txnId: batch.load.txn.id,
      mode: used,
      finish: async (rows) => {
        once();
        await this.deliver(batch, used, rows);
        if (used === 'sync_mode') this.stats.loadsSync++;
        else this.stats.loadsAsync++;
      },
      abandon: () => {
        if (done) return;
        done = true;
        this.leave(batch);
      },
    };
  }

  /** Close `batch` to new loads and commit it once its in-flight loads are done. */
  private requestCommit(batch: OpenBatch): void {
    if (batch.closing) return;
    batch.closing = true;
    if (batch.timer) clearTimeout(batch.timer);
    batch.timer = null;
    if (this.batches.get(batch.key) === batch) this.batches.delete(batch.key);
    this.closingBatches.add(batch);
    void this.commitBatch(batch).finally(() => this.closingBatches.delete(batch));
  }

  private async commitBatch(batch: OpenBatch): Promise<void> {
    if (batch.inflight > 0) await new Promise<void>((resolve) => (batch.onIdle = resolve));
    const tableId = batch.table.schema.id;
    let walOk = false;
    if (batch.wal) {
      try {
        const writer = await batch.wal;
        await writer.close();
        this.walBytes.set(writer.filePath, writer.bytes);
        walOk = true;
      } catch {
        // The WAL could not be created: every async load of it failed; nothing to replay.
      }
    }
    try {
      if (batch.rowCount === 0) {
        await batch.load.abort('empty group commit batch');
      } else {
        const rows = concatBatches(batch.table.schema, batch.rows);
        batch.rows = [];
        await batch.load.add(rows);
        await batch.load.commit();
        this.stats.batchesCommitted++;
        this.stats.rowsCommitted += batch.rowCount;
      }
      batch.committed.resolve();
      if (batch.walPath) await this.deleteWal(tableId, batch.walPath).catch(() => undefined);
    } catch (err) {
      this.stats.batchesFailed++;
      await batch.load.abort(messageOf(err)).catch(() => undefined);
      batch.committed.reject(err);
      if (batch.walPath && walOk) {
        // Acknowledged async rows live in the WAL: replay it (same label) with backoff.
        this.lastReplayError.set(tableId, messageOf(err));
        this.scheduleReplay(batch.walPath, tableId, 0);
      } else if (batch.walPath) {
        await this.deleteWal(tableId, batch.walPath).catch(() => undefined);
      }
    } finally {
      batch.rows = [];
      this.releaseMemory(batch.bytes);
    }
  }

  /**
   * Commit every open batch of `tableId` and refuse its Group Commit loads (retryable "blocked on schema
   * change") while `change` runs: for a schema change that rewrites columns, so no batch of the old
   * columns is committed after it.
   */
  async drainTable<T>(tableId: number, change: () => Promise<T>): Promise<T> {
    this.blockedTables.add(tableId);
    try {
      const mine = [...this.batches.values(), ...this.closingBatches].filter((batch) => batch.table.schema.id === tableId);
      for (const batch of mine) this.requestCommit(batch);
      await Promise.all(mine.map((batch) => batch.committed.promise.catch(() => undefined)));
      return await change();
    } finally {
      this.blockedTables.delete(tableId);
    }
  }

  /** Commit every open batch now (shutdown, tests). */
  async flushAll(): Promise<void> {
    const all = [...this.batches.values(), ...this.closingBatches];
    for (const batch of all) this.requestCommit(batch);
    await Promise.all(all.map((batch) => batch.committed.promise.catch(() => undefined)));
  }

  // ------------------------------------------------------------------ replay

  private replayDelayMs(attempts: number): number {
    const base = Math.max(0, this.config.getInt('group_commit_replay_wal_retry_interval_seconds')) * 1000;
    const max = Math.max(0, this.config.getInt('group_commit_replay_wal_retry_interval_max_seconds')) * 1000;
    if (attempts >= this.config.getInt('group_commit_replay_wal_retry_num')) return max;
    return Math.min(max, base * 2 ** attempts);
  }

  private scheduleReplay(walPath: string, tableId: number, attempts: number): void {
    if (this.stopped) return;
    const state = this.replays.get(walPath) ?? { tableId, attempts, timer: null, lastError: '' };
    state.attempts = attempts;
    if (state.timer) clearTimeout(state.timer);
    state.timer = setTimeout(() => void this.retryReplay(walPath), this.replayDelayMs(attempts));
    state.timer.unref();
    this.replays.set(walPath, state);
  }

  private async retryReplay(walPath: string): Promise<void> {
    const state = this.replays.get(walPath);
    if (!state || this.stopped) return;
    state.timer = null;
    try {
      await this.replayWal(walPath);
      this.replays.delete(walPath);
    } catch (err) {
      state.lastError = messageOf(err);
      this.lastReplayError.set(state.tableId, state.lastError);
      this.stats.walReplayFailures++;
      this.scheduleReplay(walPath, state.tableId, state.attempts + 1);
    }
  }

  /** Log each damaged stretch of a WAL (file and byte offset) and count it, once per file. */
  private reportCorruption(walPath: string, contents: WalContents): void {
    if (contents.corrupt.length === 0 || this.corruptionReported.has(walPath)) return;
    this.corruptionReported.add(walPath);
    for (const item of contents.corrupt) {
      process.stderr.write(`galene: WAL ${walPath}: corrupt data at byte ${item.offset} skipped (${item.reason}); ${contents.payloads.length} intact records kept\n`);
    }
    this.stats.walCorruptRecords += contents.corrupt.length;
  }

  /** Move an unreplayable WAL to `<wal dir>/.corrupt/` (kept for an operator, never read again). */
  private async quarantineWal(tableId: number, walPath: string): Promise<string> {
    const walDir = path.dirname(path.dirname(path.dirname(walPath)));
    const dest = path.join(walDir, '.corrupt', `${path.basename(path.dirname(path.dirname(walPath)))}_${tableId}_${path.basename(walPath)}`);
    await fs.promises.mkdir(path.dirname(dest), { recursive: true, mode: WAL_DIR_MODE });
    await fs.promises.rename(walPath, dest);
    this.forgetWal(tableId, walPath);
    this.stats.walQuarantined++;
    return dest;
  }

  /**
   * Re-ingest one WAL under its own label, then delete it. Idempotent: a label already VISIBLE means the
   * batch committed before (the WAL outlived it), and the WAL is just deleted. Throws to be retried.
   */
  async replayWal(walPath: string): Promise<'loaded' | 'already-visible' | 'dropped' | 'empty' | 'quarantined'> {
    const tableIdFromPath = Number(path.basename(path.dirname(walPath)));
    const contents = readWal(walPath);
    if (contents === null) {
      await this.deleteWal(tableIdFromPath, walPath);
      return 'empty';
    }
    this.reportCorruption(walPath, contents);
    const header = contents.header;
    if (header === null) {
      const moved = await this.quarantineWal(tableIdFromPath, walPath);
      process.stderr.write(`galene: WAL ${walPath}: no intact copy of its header; not replayed, moved to ${moved}\n`);
      return 'quarantined';
    }
    if (contents.cut !== null) process.stderr.write(`galene: WAL ${walPath}: ${contents.cut}; replaying its ${contents.payloads.length} complete records\n`);
    const catalog = this.target.catalog;
    const table = catalog.getTableById(header.tableId);
    if (!table || table.dbId !== header.dbId) {
      process.stderr.write(`galene: WAL ${walPath}: table ${header.tableName} (id ${header.tableId}) no longer exists; deleting the WAL\n`);
      await this.deleteWal(header.tableId, walPath);
      return 'dropped';
    }
    const existing = catalog.meta.findTransactionByLabel(header.dbId, header.label);
    if (existing && (existing.status === 'VISIBLE' || existing.status === 'COMMITTED')) {
      await this.deleteWal(header.tableId, walPath);
      return 'already-visible';
    }
    if (existing) throw new GaleneError('INTERNAL', [`WAL ${walPath}: label ${header.label} is held by running transaction ${existing.id}`]);
    const ids = table.schema.columns.map((column) => column.uniqueId);
    if (ids.length !== header.columnIds.length || ids.some((id, colIdx) => id !== header.columnIds[colIdx])) {
      throw new GaleneError('INTERNAL', [`WAL ${walPath}: the columns of table ${table.schema.name} changed since the WAL was written`]);
    }
    const types = table.schema.columns.map((column) => column.type);
    const parts = contents.payloads.map((payload) => decodeBatch(payload, types));
    const rowCount = parts.reduce((sum, part) => sum + part.length, 0);
    // Rows whose partition was dropped since they were acknowledged (DROP PARTITION, a dynamic
    // partition expiring) have nowhere to go: Doris filters them; retrying would never succeed.
    const homeless = rowCount === 0 ? [] : rowsWithoutPartition(table, concatBatches(table.schema, parts));
    if (homeless.length > 0) {
      process.stderr.write(`galene: WAL ${walPath}: ${homeless.length} of ${rowCount} rows dropped, their partition no longer exists (first: ${homeless[0].reason})\n`);
      this.stats.walRowsWithoutPartition += homeless.length;
    }
    if (rowCount === homeless.length) {
      await this.deleteWal(header.tableId, walPath);
      return 'empty';
    }
    try {
      await loadBatch(this.target, table, dropRows(concatBatches(table.schema, parts), homeless), header.label);
    } catch (err) {
      if (!(err instanceof GaleneError && err.code === 'LABEL_EXISTS')) throw err;
      await this.deleteWal(header.tableId, walPath);
      return 'already-visible';
    }
    this.stats.walReplayed++;
    await this.deleteWal(header.tableId, walPath);
    return 'loaded';
  }

  /**
   * Start-up: replay every WAL found (one attempt each, in order, before the servers listen); a WAL that
   * fails is kept and retried in the background with backoff (group_commit_replay_wal_retry_*).
   */
  async start(): Promise<WalReplaySummary> {
    for (const dir of this.walDirs()) fs.mkdirSync(dir, { recursive: true, mode: WAL_DIR_MODE });
    const files = listWalFiles(this.walDirs());
    const before = { ...this.stats };
    let failed = 0;
    for (const walPath of files) this.trackWal(Number(path.basename(path.dirname(walPath))), walPath, fs.statSync(walPath).size);
    for (const walPath of files) {
      const tableId = Number(path.basename(path.dirname(walPath)));
      try {
        await this.replayWal(walPath);
      } catch (err) {
        this.stats.walReplayFailures++;
        this.lastReplayError.set(tableId, messageOf(err));
        process.stderr.write(`galene: WAL replay of ${walPath} failed (will retry): ${messageOf(err)}\n`);
        this.scheduleReplay(walPath, tableId, 0);
        failed++;
      }
    }
    const summary: WalReplaySummary = {
      files: files.length,
      replayed: this.stats.walReplayed - before.walReplayed,
      failed,
      corruptRecords: this.stats.walCorruptRecords - before.walCorruptRecords,
      quarantined: this.stats.walQuarantined - before.walQuarantined,
    };
    if (files.length > 0) {
      process.stderr.write(`galene: WAL replay: ${summary.files} files, ${summary.replayed} replayed, ${summary.failed} failed, ${summary.corruptRecords} corrupt records skipped, ${summary.quarantined} quarantined\n`);
    }
    return summary;
  }

  /** Shutdown: commit open batches (sync loads get their answer), stop replay timers. */
  async close(): Promise<void> {
    await this.flushAll();
    this.stopped = true;
    for (const state of this.replays.values()) if (state.timer) clearTimeout(state.timer);
  }
}

const MANAGERS = new WeakMap<LoadTarget, GroupCommitManager>();

/** The Group Commit manager of a BE (created on first use). */
export function groupCommitManagerOf(target: LoadTarget, config: Config): GroupCommitManager {
  let manager = MANAGERS.get(target);
  if (!manager) {
    manager = new GroupCommitManager(target, config);
    MANAGERS.set(target, manager);
  }
  return manager;
}

/** The manager of a BE if Group Commit was used or started on it. */
export function existingGroupCommitManager(target: LoadTarget): GroupCommitManager | undefined {
  return MANAGERS.get(target);
}
