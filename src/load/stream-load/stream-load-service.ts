/**
 * Stream Load on the BE: one HTTP request body -> one load transaction, answered with Doris's result JSON
 * (https://doris.apache.org/docs/data-operate/import
/import-way/stream-load-manual).
 *
 * `prepare` checks the request before any body byte is read (headers, database and table, label), so a
 * refused request never uploads (`Expect: 100-continue` is answered only after it). `run` then streams the
 * body: blocks of about 1 MB are parsed into column builders, converted batches are buffered up to the
 * load's memory limit (exec_mem_limit, at most 64 MB) or 64K rows and then written as segments under the
 * one transaction — memory stays bounded whatever the body size. At the end the filter ratio is checked
 * and the transaction is published (or pre-committed with two_phase_commit); on any failure — bad data
 * over max_filter_ratio, timeout, the client going away — it is aborted and every written object deleted.
 * A crash mid-load leaves a PREPARE transaction that start-up aborts and objects start-up sweeps.
 */
import { SliceClock } from '../../common/cooperative-scheduler';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { Batch } from '../../common/column';
import type { Config } from '../../common/config';
import { GaleneError } from '../../common/errors';
import type { TableState } from '../../meta/catalog';
import type { TransactionRecord } from '../../meta/meta-store';
import { abortPrecommitted, beginLoad, commitPrecommitted, LoadTarget, MultiBatchLoad } from '../load-transaction';
import { isMergeOnWrite, sequenceColumnName } from '../../meta/delete-bitmap';
import { BodyReader, CsvReader } from './csv-reader';
import { JsonReader } from './json-reader';
import { errorLogFileName, LoadErrorLog, readErrorLog, removeOldErrorLogs } from './load-error-log';
import { concatBatches, RowConverter } from './row-converter';
import { parseStreamLoadOptions, StreamLoadOptions } from './stream-load-options';
import { prepareGroupCommitStreamLoad } from '../group-commit/group-commit-loads';
import { BodyTiming, readBodyInBlocks } from './body-blocks';
import { beginDeleteLoad } from './delete-load';

/** Rows buffered before a write, whatever their size. */
export const FLUSH_MAX_ROWS = 65536;
/** Body bytes parsed at a time. */
const BLOCK_BYTES = 1 << 20;
/** Expired labels are swept at most this often (and on a label conflict). */
const LABEL_SWEEP_INTERVAL_MS = 60_000;

/** Doris's Stream Load result. Field order is Doris's. */
export interface StreamLoadResult {
  TxnId: number;
  Label: string;
  Comment: string;
  TwoPhaseCommit: string;
  Status: 'Success' | 'Publish Timeout' | 'Label Already Exists' | 'Fail';
  ExistingJobStatus?: string;
  Message: string;
  NumberTotalRows: number;
  NumberLoadedRows: number;
  NumberFilteredRows: number;
  NumberUnselectedRows: number;
  LoadBytes: number;
  LoadTimeMs: number;
  BeginTxnTimeMs: number;
  StreamLoadPutTimeMs: number;
  ReadDataTimeMs: number;
  WriteDataTimeMs: number;
  CommitAndPublishTimeMs: number;
  ErrorURL?: string;
}

/** What the service needs from the server around it. */
export interface StreamLoadHost {
  readonly target: LoadTarget;
  readonly config: Config;
}

/** A request that passed the checks: its transaction is open and waits for the body. */
export interface PreparedStreamLoad {
  readonly kind: 'prepared';
  /** Stream the body into the load; never throws (failures are in the result). */
  run(body: AsyncIterable<Buffer>, signal: { cancelled: string | null }): Promise<StreamLoadResult>;
  /** Abort without reading the body (the request went away before it started). */
  cancel(reason: string): Promise<void>;
  readonly timeoutMs: number;
}

export type PrepareOutcome = PreparedStreamLoad | { readonly kind: 'done'; readonly result: StreamLoadResult };

function emptyResult(label: string, options: { comment: string; twoPhaseCommit: boolean } | null): StreamLoadResult {
  return {
    TxnId: 0,
    Label: label,
    Comment: options?.comment ?? '',
    TwoPhaseCommit: String(options?.twoPhaseCommit ?? false),
    Status: 'Fail',
    ExistingJobStatus: undefined,
    Message: '',
    NumberTotalRows: 0,
    NumberLoadedRows: 0,
    NumberFilteredRows: 0,
    NumberUnselectedRows: 0,
    LoadBytes: 0,
    LoadTimeMs: 0,
    BeginTxnTimeMs: 0,
    StreamLoadPutTimeMs: 0,
    ReadDataTimeMs: 0,
    WriteDataTimeMs: 0,
    CommitAndPublishTimeMs: 0,
    ErrorURL: undefined,
  };
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const elapsed = (start: number): number => Math.round(performance.now() - start);

export class StreamLoadService {
  private lastSweep = 0;

  constructor(private readonly host: StreamLoadHost) {}

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
   * Check a request (headers, target table, label) and open its transaction, before its body is read.
   * `errorUrlBase` is `http://host:port` of this BE web server, for the ErrorURL. `user` (the authenticated
   * loader) is kept with the load's job info: a two-phase load is committed or aborted by its owner or an admin.
   */
  prepare(dbName: string, tableName: string, headers: Record<string, string | string[] | undefined>, errorUrlBase: string, user = ''): PrepareOutcome {
    const started = performance.now();
    const labelHeader = typeof headers['label'] === 'string' ? headers['label'].trim() : '';
    let options: StreamLoadOptions;
    try {
      options = parseStreamLoadOptions(headers);
    } catch (err) {
      return { kind: 'done', result: { ...emptyResult(labelHeader, null), Message: messageOf(err) } };
    }
    const label = options.label ?? randomUUID();
    const fail = (message: string): PrepareOutcome => ({ kind: 'done', result: { ...emptyResult(label, options), Message: message, LoadTimeMs: elapsed(started) } });
    if (!this.catalog.hasDatabase(dbName)) return fail(new GaleneError('LOAD_NOT_FOUND', [`unknown databases, dbName=${dbName}`]).message);
    const table = this.catalog.findTable(dbName, tableName);
    if (!table) return fail(new GaleneError('LOAD_NOT_FOUND', [`unknown table, tableName=${tableName}`]).message);
    const unsupported = this.checkUniqueKeyFeatures(table, options);
    if (unsupported) return fail(unsupported);
    let converter: RowConverter;
    const errors = new LoadErrorLog();
    try {
      converter = new RowConverter(table.schema, options, errors);
    } catch (err) {
      return fail(messageOf(err));
    }
    // Group Commit (header group_commit > table property group_commit_mode; src/load/group-commit).
    const grouped = prepareGroupCommitStreamLoad({ target: this.host.target, config: this.host.config, errorLogDir: this.errorLogDir }, table, headers, options, converter, errors, errorUrlBase, started);
    if (grouped !== null) return grouped;
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
      load = options.mergeType === 'DELETE' ? beginDeleteLoad(this.host.target, table, label) : beginLoad(this.host.target, table, label);
    } catch (err) {
      return fail(messageOf(err));
    }
    const beginTxnMs = elapsed(beginStart);
    const putMs = elapsed(started);
    let reader: BodyReader;
    const maxRowBytes = Math.max(options.memLimit, 1 << 20);
    try {
      reader =
        options.format === 'json'
          ? new JsonReader(converter, { lineDelimiter: options.lineDelimiter, byLine: options.readJsonByLine, stripOuterArray: options.stripOuterArray, jsonPaths: options.jsonPaths, maxRowBytes })
          : new CsvReader(converter, { columnSeparator: options.columnSeparator, lineDelimiter: options.lineDelimiter, skipHeader: options.format === 'csv_with_names', maxRowBytes });
    } catch (err) {
      void load.abort(messageOf(err));
      return fail(messageOf(err));
    }
    this.catalog.meta.putLoadJobInfo(load.txn.id, { type: 'STREAM_LOAD', state: 'LOADING', createTime: Date.now(), user });
    return {
      kind: 'prepared',
      timeoutMs: options.timeoutSeconds * 1000,
      cancel: async (reason) => {
        await load.abort(reason);
        this.catalog.meta.putLoadJobInfo(load.txn.id, { type: 'STREAM_LOAD', state: 'CANCELLED', message: reason, user });
      },
      run: (body, signal) => this.run({ table, options, converter, errors, reader, load, started, beginTxnMs, putMs, errorUrlBase, user }, body, signal),
    };
  }

  /**
   * partial_columns needs a merge-on-write UNIQUE KEY table and the key columns among the loaded ones;
   * sequence_col must name the table's sequence column (`function_column.sequence_col`), which then
   * decides which row of a key stays visible.
   */
  private checkUniqueKeyFeatures(table: TableState, options: StreamLoadOptions): string | null {
    const schema = table.schema;
    if (options.mergeType === 'DELETE') {
      // Doris's words (LoadStmt): the delete merge types need the UNIQUE KEY model.
      if (schema.keysType !== 'UNIQUE') return new GaleneError('LOAD_INVALID_ARGUMENT', ['load by MERGE or DELETE is only supported in unique tables.']).message;
      if (!isMergeOnWrite(schema)) return new GaleneError('LOAD_INVALID_ARGUMENT', ['merge_type DELETE is only supported on merge-on-write unique tables yet (enable_unique_key_merge_on_write = true)']).message;
      if (sequenceColumnName(schema) !== null) return new GaleneError('LOAD_INVALID_ARGUMENT', ['merge_type DELETE on a table with a sequence column is not supported yet']).message;
      if (options.partialColumns) return new GaleneError('LOAD_INVALID_ARGUMENT', ['partial_columns can not be used with merge_type DELETE']).message;
      if (options.twoPhaseCommit) return new GaleneError('LOAD_INVALID_ARGUMENT', ['two_phase_commit is not supported with merge_type DELETE yet']).message;
    }
    if (options.partialColumns) {
      if (!isMergeOnWrite(schema)) return new GaleneError('LOAD_INVALID_ARGUMENT', ['Only unique key merge on write support partial update']).message;
      if (options.columns !== null) {
        const named = new Set(options.columns.map((item) => item.name.toLowerCase()));
        const missing = schema.keyColumns.filter((key) => !named.has(key.toLowerCase()));
        if (missing.length > 0) return new GaleneError('LOAD_INVALID_ARGUMENT', [`Partial update should include all key columns, missing: ${missing.join(', ')}`]).message;
      }
    }
    if (options.sequenceCol !== null) {
      const tableSequence = sequenceColumnName(schema);
      if (schema.keysType !== 'UNIQUE' || tableSequence === null) return new GaleneError('LOAD_INVALID_ARGUMENT', ['There is no sequence column in the table (set function_column.sequence_col on a UNIQUE KEY table)']).message;
      if (tableSequence.toLowerCase() !== options.sequenceCol.toLowerCase()) {
        return new GaleneError('LOAD_INVALID_ARGUMENT', [`sequence_col ${options.sequenceCol} is not the sequence column ${tableSequence} of table ${schema.name}`]).message;
      }
    }
    return null;
  }

  private async run(
    state: { table: TableState; options: StreamLoadOptions; converter: RowConverter; errors: LoadErrorLog; reader: BodyReader; load: MultiBatchLoad; started: number; beginTxnMs: number; putMs: number; errorUrlBase: string; user: string },
    body: AsyncIterable<Buffer>,
    signal: { cancelled: string | null },
  ): Promise<StreamLoadResult> {
    const { table, options, converter, errors, reader, load } = state;
    const result: StreamLoadResult = { ...emptyResult(load.label, options), TxnId: load.txn.id, BeginTxnTimeMs: state.beginTxnMs, StreamLoadPutTimeMs: state.putMs };
    const blockBytes = Math.min(BLOCK_BYTES, options.memLimit);
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
      pendingBytes += size;
      if (batch) {
        pending.push(batch);
        pendingRows += batch.length;
      }
      if (pendingRows >= FLUSH_MAX_ROWS || pendingBytes >= options.memLimit) await flush();
    };
    try {
      await readBodyInBlocks(body, blockBytes, signal, timing, (chunk) => (result.LoadBytes += chunk.length), parse);
      await flush();
    } catch (err) {
      const cancelled = signal.cancelled;
      const message = cancelled !== null ? (cancelled.startsWith('[') ? cancelled : new GaleneError('LOAD_CANCELLED', [cancelled]).message) : err instanceof GaleneError ? err.message : new GaleneError('LOAD_CANCELLED', [messageOf(err)]).message;
      return this.finishFailed(state, result, message, timing.readMs, writeMs);
    }
    result.NumberTotalRows = converter.totalRows;
    result.NumberFilteredRows = converter.filteredRows;
    result.NumberUnselectedRows = converter.unselectedRows;
    result.NumberLoadedRows = load.loadedRows;
    result.ReadDataTimeMs = Math.round(timing.readMs);
    result.WriteDataTimeMs = Math.round(writeMs);
    if (errors.count > 0) result.ErrorURL = this.writeErrorLog(state, errors);
    const considered = converter.totalRows - converter.unselectedRows;
    if (converter.filteredRows > 0 && converter.filteredRows > options.maxFilterRatio * considered) {
      return this.finishFailed(state, result, new GaleneError('LOAD_DATA_QUALITY', ['too many filtered rows']).message, timing.readMs, writeMs);
    }
    const commitStart = performance.now();
    try {
      if (options.twoPhaseCommit) load.precommit();
      else await load.commit();
    } catch (err) {
      return this.finishFailed(state, result, messageOf(err), timing.readMs, writeMs);
    }
    result.CommitAndPublishTimeMs = elapsed(commitStart);
    result.Status = 'Success';
    result.Message = 'OK';
    result.LoadTimeMs = elapsed(state.started);
    this.catalog.meta.putLoadJobInfo(load.txn.id, this.jobInfo(result, options.twoPhaseCommit ? 'PREPARED' : 'FINISHED', state.user));
    return result;
  }

  private writeErrorLog(state: { load: MultiBatchLoad; errorUrlBase: string }, errors: LoadErrorLog): string | undefined {
    try {
      const name = errors.write(this.errorLogDir, errorLogFileName(state.load.label, state.load.txn.id));
      return `${state.errorUrlBase}/api/_load_error_log?file=${encodeURIComponent(name)}`;
    } catch {
      return undefined;
    }
  }

  private async finishFailed(state: { load: MultiBatchLoad; started: number; converter: RowConverter; errors: LoadErrorLog; errorUrlBase: string; user: string }, result: StreamLoadResult, message: string, readMs: number, writeMs: number): Promise<StreamLoadResult> {
    await state.load.abort(message).catch(() => undefined);
    result.Status = 'Fail';
    result.Message = message;
    result.NumberTotalRows = state.converter.totalRows;
    result.NumberFilteredRows = state.converter.filteredRows;
    result.NumberUnselectedRows = state.converter.unselectedRows;
    result.NumberLoadedRows = 0;
    result.ReadDataTimeMs = Math.round(readMs);
    result.WriteDataTimeMs = Math.round(writeMs);
    if (result.ErrorURL === undefined && state.errors.count > 0) result.ErrorURL = this.writeErrorLog(state, state.errors);
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
