/**
 * Stream Load on the BE: one HTTP request body -> one load transaction, answered with Doris's result JSON
 * (https://doris.apache.org/docs/data-operate/import/import-way/stream-load-manual).
 *
 * The request arrives planned (src/fe/load-planner.ts: headers parsed, table found, `columns` / `where`
 * bound) and with its RowConverter compiled (src/load/start-stream-load.ts, which also offers it to Group
 * Commit first). `prepare` checks the label and opens the transaction before any body byte is read, so a
 * refused request never uploads (`Expect: 100-continue` is answered only after it). `run` then streams the
 * body: blocks of about 1 MB are parsed into column builders, converted batches are buffered up to the
 * load's memory limit (exec_mem_limit, at most 64 MB) or 64K rows and then written as segments under the
 * one transaction — memory stays bounded whatever the body size. At the end the filter ratio is checked
 * and the transaction is published (or pre-committed with two_phase_commit); on any failure — bad data
 * over max_filter_ratio, timeout, the client going away — it is aborted and every written object deleted.
 * A crash mid-load leaves a PREPARE transaction that start-up aborts and objects start-up sweeps.
 * merge_type DELETE / MERGE and a loaded delete sign: the rows that delete their keys are kept (keys only)
 * and deleted at the commit, at the same version as the upserted rows.
 */
import { SliceClock } from '../../common/cooperative-scheduler';
import * as path from 'node:path';
import type { Batch } from '../../common/column';
import type { Config } from '../../common/config';
import { GaleneError } from '../../common/errors';
import type { TransactionRecord } from '../../meta/meta-store';
import { abortPrecommitted, beginLoad, commitPrecommitted, LoadTarget, MultiBatchLoad } from '../load-transaction';
import type { LoadPlan } from '../load-plan';
import { successMessage, bodyFailureMessage, elapsed, emptyResult, filterRatioFailure, messageOf, PrepareOutcome, refusedLoad, reportRowCounts, StreamLoadResult, writeErrorLog } from '../load-result';
import { BODY_BLOCK_BYTES, BodyReader, BodyTiming, readBodyInBlocks } from '../source/body-blocks';
import { openBodyReader } from '../source/body-reader';
import { concatBatches } from '../source/concat-batches';
import { LoadErrorLog, readErrorLog, removeOldErrorLogs } from '../source/load-error-log';
import type { RowConverter } from '../source/row-converter';

/** Rows buffered before a write, whatever their size. */
export const FLUSH_MAX_ROWS = 65536;
/** Expired labels are swept at most this often (and on a label conflict). */
const LABEL_SWEEP_INTERVAL_MS = 60_000;

/** What the service needs from the server around it. */
export interface StreamLoadHost {
  readonly target: LoadTarget;
  readonly config: Config;
  /**
   * Told after every parsed block: rows scanned and body bytes read so far (SHOW LOAD progress). A reason
   * returned cancels the load (CANCEL LOAD).
   */
  readonly onProgress?: (txnId: number, scannedRows: number, loadBytes: number) => string | null;
}

/** A prepared load between `prepare` and the end of `run`. */
interface RunState {
  readonly plan: LoadPlan;
  readonly converter: RowConverter;
  readonly errors: LoadErrorLog;
  readonly reader: BodyReader;
  readonly load: MultiBatchLoad;
  readonly started: number;
  readonly beginTxnMs: number;
  readonly putMs: number;
  readonly errorUrlBase: string;
  readonly user: string;
}

export class StreamLoadService {
  private lastSweep = 0;

  constructor(readonly host: StreamLoadHost) {}

  private get catalog() {
    return this.host.target.catalog;
  }

  /** Where error logs are written (`<data_dir>/load_error_log`). */
  get errorLogDir(): string {
    return path.join(this.host.config.getString('data_dir'), 'load_error_log');
  }

  private labelKeepMs(): number {
    return Math.max(0, this.host.config.getInt('label_keep_max_second')) * 1000;
  }

  /** Forget labels older than label_keep_max_second (throttled; `force` on a label conflict). */
  sweepExpiredLabels(force = false): void {
    const now = Date.now();
    const keepMs = this.labelKeepMs();
    if (!force && now - this.lastSweep < Math.min(LABEL_SWEEP_INTERVAL_MS, keepMs)) return;
    this.lastSweep = now;
    this.catalog.meta.removeExpiredTransactions(now - keepMs);
    removeOldErrorLogs(this.errorLogDir, now - keepMs);
  }

  /** An existing job holding `label`, after letting an expired one go. */
  private existingLabel(dbId: number, label: string): TransactionRecord | null {
    const found = this.catalog.meta.findTransactionByLabel(dbId, label);
    if (found && found.finishTime > 0 && found.status !== 'PRECOMMITTED' && found.finishTime < Date.now() - this.labelKeepMs()) {
      this.sweepExpiredLabels(true);
      return this.catalog.meta.findTransactionByLabel(dbId, label);
    }
    return found;
  }

  /**
   * Check a planned request's label and open its transaction, before its body is read. `converter` and
   * `errors` are the load's (start-stream-load.ts made them); `started` is when the request arrived.
   * `errorUrlBase` is `http://host:port` of this BE web server, for the ErrorURL. `user` (the authenticated
   * loader) is kept with the load's job info: a two-phase load is committed or aborted by its owner or an admin.
   */
  prepare(plan: LoadPlan, converter: RowConverter, errors: LoadErrorLog, errorUrlBase: string, user: string, started: number): PrepareOutcome {
    const { table, options, label } = plan;
    this.sweepExpiredLabels();
    const beginStart = performance.now();
    const existing = this.existingLabel(table.dbId, label);
    if (existing) {
      return {
        kind: 'done',
        result: {
          ...emptyResult(label, options),
          TxnId: existing.id,
          Status: 'Label Already Exists',
          ExistingJobStatus: existing.status === 'VISIBLE' || existing.status === 'COMMITTED' ? 'FINISHED' : 'RUNNING',
          Message: `errCode = 2, detailMessage = Label [${label}] has already been used, relate to txn [${existing.id}]`,
          LoadTimeMs: elapsed(started),
        },
      };
    }
    let load: MultiBatchLoad;
    try {
      load = beginLoad(this.host.target, table, label, { memLimitBytes: options.memLimit });
    } catch (err) {
      return refusedLoad(label, options, messageOf(err), started);
    }
    const beginTxnMs = elapsed(beginStart);
    const putMs = elapsed(started);
    let reader: BodyReader;
    try {
      reader = openBodyReader(options, converter);
    } catch (err) {
      void load.abort(messageOf(err));
      return refusedLoad(label, options, messageOf(err), started);
    }
    this.catalog.meta.putLoadJobInfo(load.txn.id, { type: 'STREAM_LOAD', state: 'LOADING', createTime: Date.now(), user });
    return {
      kind: 'prepared',
      timeoutMs: options.timeoutSeconds * 1000,
      cancel: async (reason) => {
        await load.abort(reason);
        this.catalog.meta.putLoadJobInfo(load.txn.id, { type: 'STREAM_LOAD', state: 'CANCELLED', message: reason, user });
      },
      run: (body, signal) => this.run({ plan, converter, errors, reader, load, started, beginTxnMs, putMs, errorUrlBase, user }, body, signal),
    };
  }

  private async run(
    state: RunState,
    body: AsyncIterable<Buffer>,
    signal: { cancelled: string | null },
  ): Promise<StreamLoadResult> {
    const { converter, reader, load } = state;
    const { table, options } = state.plan;
    const result: StreamLoadResult = { ...emptyResult(load.label, options), TxnId: load.txn.id, BeginTxnTimeMs: state.beginTxnMs, StreamLoadPutTimeMs: state.putMs };
    const blockBytes = Math.min(BODY_BLOCK_BYTES, options.memLimit);
    const timing: BodyTiming = { readMs: 0 };
    let writeMs = 0;
    let pending: Batch[] = [];
    let pendingRows = 0;
    let pendingBytes = 0;
    // Parsing and encoding are CPU work on the event loop: take turns with running statements and other
    // loads (common/cooperative-scheduler.ts) before each block and between the tablets of a flush.
    const slice = new SliceClock();
    const checkpoint = (): Promise<void> | undefined => slice.maybeYield();
    const flush = async (): Promise<void> => {
      if (pending.length === 0) return;
      const batch = concatBatches(table.schema, pending);
      pending = [];
      pendingRows = 0;
      pendingBytes = 0;
      const writeStart = performance.now();
      await load.add(options.partialColumns ? await this.catalog.fillPartialColumns(table, batch, converter.givenColumns()) : batch, checkpoint);
      writeMs += performance.now() - writeStart;
    };
    const parse = async (chunks: Buffer[], final: boolean, size: number): Promise<void> => {
      const pause = checkpoint();
      if (pause !== undefined) await pause;
      reader.feed(chunks, final);
      const batch = converter.finishBlock();
      // merge_type DELETE / MERGE, a delete sign: these rows delete their keys at commit.
      const deletes = converter.takeDeletes();
      if (deletes) await load.addDeletes(deletes);
      const cancelled = this.host.onProgress?.(load.txn.id, converter.totalRows, result.LoadBytes);
      if (cancelled) throw new GaleneError('LOAD_CANCELLED', [cancelled]);
      pendingBytes += size;
      if (batch) {
        pending.push(batch);
        pendingRows += batch.length;
      }
      if (pendingRows >= FLUSH_MAX_ROWS || pendingBytes >= options.memLimit) await flush();
    };
    try {
      await readBodyInBlocks(body, blockBytes, options.compressType, signal, timing, (chunk) => (result.LoadBytes += chunk.length), parse);
      await flush();
    } catch (err) {
      return this.finishFailed(state, result, bodyFailureMessage(signal, err, (error) => error.message), timing.readMs, writeMs);
    }
    reportRowCounts(result, converter);
    result.NumberLoadedRows = load.loadedRows;
    result.ReadDataTimeMs = Math.round(timing.readMs);
    result.WriteDataTimeMs = Math.round(writeMs);
    result.ErrorURL = this.writeErrorLog(state);
    const tooManyFiltered = filterRatioFailure(converter, options.maxFilterRatio);
    if (tooManyFiltered !== null) return this.finishFailed(state, result, tooManyFiltered, timing.readMs, writeMs);
    // The timeout may pass while the last rows are written: the load is aborted all the same.
    if (signal.cancelled !== null) return this.finishFailed(state, result, bodyFailureMessage(signal, null, (error) => error.message), timing.readMs, writeMs);
    const commitStart = performance.now();
    try {
      if (options.twoPhaseCommit) await load.precommit();
      else await load.commit();
    } catch (err) {
      return this.finishFailed(state, result, messageOf(err), timing.readMs, writeMs);
    }
    result.CommitAndPublishTimeMs = elapsed(commitStart);
    result.Status = 'Success';
    result.Message = successMessage(options.warnings);
    result.LoadTimeMs = elapsed(state.started);
    this.catalog.meta.putLoadJobInfo(load.txn.id, this.jobInfo(result, options.twoPhaseCommit ? 'PREPARED' : 'FINISHED', state.user));
    return result;
  }

  private writeErrorLog(state: RunState): string | undefined {
    return writeErrorLog(state.errors, this.errorLogDir, state.load.txn.id, state.errorUrlBase);
  }

  private async finishFailed(state: RunState, result: StreamLoadResult, message: string, readMs: number, writeMs: number): Promise<StreamLoadResult> {
    await state.load.abort(message).catch(() => undefined);
    result.Status = 'Fail';
    result.Message = message;
    reportRowCounts(result, state.converter);
    result.NumberLoadedRows = 0;
    result.ReadDataTimeMs = Math.round(readMs);
    result.WriteDataTimeMs = Math.round(writeMs);
    if (result.ErrorURL === undefined) result.ErrorURL = this.writeErrorLog(state);
    result.LoadTimeMs = elapsed(state.started);
    this.catalog.meta.putLoadJobInfo(state.load.txn.id, this.jobInfo(result, 'CANCELLED', state.user));
    return result;
  }

  private jobInfo(result: StreamLoadResult, state: string, user: string): Record<string, unknown> {
    return {
      user,
      type: 'STREAM_LOAD',
      state,
      message: result.Status === 'Success' ? '' : result.Message,
      totalRows: result.NumberTotalRows,
      loadedRows: result.NumberLoadedRows,
      filteredRows: result.NumberFilteredRows,
      unselectedRows: result.NumberUnselectedRows,
      loadBytes: result.LoadBytes,
      errorUrl: result.ErrorURL ?? '',
    };
  }

  /**
   * `_stream_load_2pc`: commit or abort a pre-committed load by txn_id (or label). Returns Doris's
   * `{status, msg}` answer. `requester` is the authenticated user: a load started by another user may be
   * committed or aborted only by an admin (`mayActForOthers`), else Doris's access-denied answer.
   */
  async twoPhase(dbName: string, headers: Record<string, string | string[] | undefined>, requester: { user: string; mayActForOthers: boolean }): Promise<{ status: 'Success' | 'Fail'; msg: string }> {
    const single = (name: string): string => {
      const value = headers[name];
      return (Array.isArray(value) ? value[0] : value ?? '').trim();
    };
    const operation = single('txn_operation').toLowerCase();
    if (operation !== 'commit' && operation !== 'abort') return { status: 'Fail', msg: `errCode = 2, detailMessage = txn_operation must be 'commit' or 'abort', got '${single('txn_operation')}'` };
    if (!this.catalog.hasDatabase(dbName)) return { status: 'Fail', msg: `errCode = 7, detailMessage = unknown databases, dbName=${dbName}` };
    const dbId = this.catalog.getDatabase(dbName).id;
    const txnIdText = single('txn_id');
    const label = single('label');
    let txn: TransactionRecord | null = null;
    if (txnIdText !== '') {
      if (!/^\d+$/.test(txnIdText)) return { status: 'Fail', msg: `errCode = 2, detailMessage = invalid txn_id: ${txnIdText}` };
      txn = this.catalog.meta.getTransaction(Number(txnIdText));
    } else if (label !== '') {
      txn = this.catalog.meta.findTransactionByLabel(dbId, label);
    } else {
      return { status: 'Fail', msg: 'errCode = 2, detailMessage = txn_id or label is required' };
    }
    if (!txn || txn.dbId !== dbId) return { status: 'Fail', msg: `errCode = 2, detailMessage = transaction [${txnIdText || label}] not found` };
    const owner = this.catalog.meta.getLoadJobInfo(txn.id)?.user;
    // A load without a recorded owner (written by an older version) is treated as another user's.
    if (owner !== requester.user && !requester.mayActForOthers) return { status: 'Fail', msg: new GaleneError('SPECIFIC_ACCESS_DENIED', ['ADMIN']).message };
    if (txn.status !== 'PRECOMMITTED') {
      const state = txn.status === 'VISIBLE' ? 'VISIBLE' : txn.status === 'ABORTED' ? 'ABORTED' : 'not pre-committed';
      return { status: 'Fail', msg: `errCode = 2, detailMessage = transaction [${txn.id}] is already ${state}, could not ${operation} it` };
    }
    try {
      if (operation === 'commit') {
        await commitPrecommitted(this.host.target, txn.id);
        const info = this.catalog.meta.getLoadJobInfo(txn.id) ?? {};
        this.catalog.meta.putLoadJobInfo(txn.id, { ...info, state: 'FINISHED' });
        return { status: 'Success', msg: `transaction [${txn.id}] commit successfully.` };
      }
      await abortPrecommitted(this.host.target, txn.id, 'user abort');
      const info = this.catalog.meta.getLoadJobInfo(txn.id) ?? {};
      this.catalog.meta.putLoadJobInfo(txn.id, { ...info, state: 'CANCELLED', message: 'user abort' });
      return { status: 'Success', msg: `transaction [${txn.id}] abort successfully.` };
    } catch (err) {
      return { status: 'Fail', msg: messageOf(err) };
    }
  }

  /** The text of an error log named by an ErrorURL, null when there is none. */
  errorLog(file: string): string | null {
    return readErrorLog(this.errorLogDir, file);
  }
}
