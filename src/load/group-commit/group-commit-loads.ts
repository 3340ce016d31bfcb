/**
 * The two load paths that Group Commit optimizes, as entry points for their handlers:
 * - `groupCommitInsert` for INSERT INTO VALUES (src/fe/statements/dml.ts calls it with the converted rows);
 * - `prepareGroupCommitStreamLoad` for Stream Load (src/load/stream-load/stream-load-service.ts calls it
 *   once the request's headers, table and converter passed the usual checks).
 * Both return null when the load does not use Group Commit, and the caller takes its normal path.
 *
 * Validation is the same with or without Group Commit (apache/doris #33453): INSERT rows are converted
 * before they get here; a Stream Load parses and filters its whole body with the same RowConverter and
 * checks max_filter_ratio before any row joins a batch.
 */
import
 type { Batch } from '../../common/column';
import type { Config } from '../../common/config';
import { GaleneError } from '../../common/errors';
import type { TableState } from '../../meta/catalog';
import type { LoadTarget } from '../load-transaction';
import { BodyReader, CsvReader } from '../stream-load/csv-reader';
import { JsonReader } from '../stream-load/json-reader';
import { errorLogFileName, LoadErrorLog } from '../stream-load/load-error-log';
import type { RowConverter } from '../stream-load/row-converter';
import type { PrepareOutcome, StreamLoadResult } from '../stream-load/stream-load-service';
import type { StreamLoadOptions } from '../stream-load/stream-load-options';
import { GroupCommitRegistration, groupCommitManagerOf } from './group-commit-manager';
import { InsertGroupCommitFacts, insertGroupCommitMode, isChunkedUnknownSize, streamLoadGroupCommitMode } from './group-commit-mode';
import { BodyTiming, readBodyInBlocks } from '../stream-load/body-blocks';

/**
 * Run an INSERT INTO VALUES through Group Commit when its mode says so. Returns the OK packet's info
 * (Doris's text: `{'label':'group_commit_...', 'status':'PREPARE', 'txnId':'...'}`, plus `'query_id'`
 * in sync_mode), or null when the INSERT takes the normal path.
 */
export async function groupCommitInsert(target: LoadTarget, config: Config, table: TableState, rows: Batch, facts: InsertGroupCommitFacts & { readonly queryId: string }): Promise<string | null> {
  const mode = insertGroupCommitMode(table.schema, facts);
  if (mode === 'off_mode') return null;
  const ack = await groupCommitManagerOf(target, config).insert(table, rows, mode);
  const queryId = ack.mode === 'sync_mode' ? `, 'query_id':'${facts.queryId}'` : '';
  return `{'label':'${ack.label}', 'status':'PREPARE', 'txnId':'${ack.txnId}'${queryId}}`;
}

/** Doris's Stream Load answer under Group Commit (no TwoPhaseCommit, BeginTxnTimeMs, CommitAndPublishTimeMs). */
export interface GroupCommitStreamLoadResult {
  TxnId: number;
  Label: string;
  Comment: string;
  GroupCommit: true;
  Status: 'Success' | 'Fail';
  Message: string;
  NumberTotalRows: number;
  NumberLoadedRows: number;
  NumberFilteredRows: number;
  NumberUnselectedRows: number;
  LoadBytes: number;
  LoadTimeMs: number;
  StreamLoadPutTimeMs: number;
  ReadDataTimeMs: number;
  WriteDataTimeMs: number;
  ErrorURL?: string;
}

/** What the Stream Load service hands over. */
export interface GroupCommitStreamLoadHost {
  readonly target: LoadTarget;
  readonly config: Config;
  readonly errorLogDir: string;
}

/** Body bytes parsed at a time (as the normal Stream Load path). */
const BLOCK_BYTES = 1 << 20;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const elapsed = (start: number): number => Math.round(performance.now() - start);
/** Stream Load messages carry Doris's status prefix only, not the MySQL errCode wrapper. */
const loadMessage = (err: unknown): string => messageOf(err).replace(/^errCode = \d+, detailMessage = /, '');

/**
 * A Stream Load through Group Commit, or null when it does not use it. The load joins its table's open
 * batch before the body is read (its label and txn id are the batch's); async_mode runs as sync_mode
 * for a chunked body of unknown size or one too large for the WAL disk.
 */
export function prepareGroupCommitStreamLoad(
  host: GroupCommitStreamLoadHost,
  table: TableState,
  headers: Record<string, string | string[] | undefined>,
  options: StreamLoadOptions,
  converter: RowConverter,
  errors: LoadErrorLog,
  errorUrlBase: string,
  started: number,
): PrepareOutcome | null {
  const result: GroupCommitStreamLoadResult = {
    TxnId: 0,
    Label: '',
    Comment: options.comment,
    GroupCommit: true,
    Status: 'Fail',
    Message: '',
    NumberTotalRows: 0,
    NumberLoadedRows: 0,
    NumberFilteredRows: 0,
    NumberUnselectedRows: 0,
    LoadBytes: 0,
    LoadTimeMs: 0,
    StreamLoadPutTimeMs: 0,
    ReadDataTimeMs: 0,
    WriteDataTimeMs: 0,
  };
  // The HTTP layer only serializes the answer; Doris's group-commit answer has its own field set.
  const done = (): PrepareOutcome => ({ kind: 'done', result: result as unknown as StreamLoadResult });
  let mode;
  try {
    mode = streamLoadGroupCommitMode(table.schema, headers, { label: options.label, twoPhaseCommit: options.twoPhaseCommit, partialColumns: options.partialColumns });
  } catch (err) {
    result.Message = loadMessage(err);
    result.LoadTimeMs = elapsed(started);
    return done();
  }
  if (mode === 'off_mode') return null;
  const contentLength = Number(headers['content-length'] ?? 0);
  let registration: GroupCommitRegistration;
  try {
    registration = groupCommitManagerOf(host.target, host.config).register(table, mode, { bytes: contentLength, unknown: isChunkedUnknownSize(headers) });
  } catch (err) {
    result.Message = loadMessage(err);
    result.LoadTimeMs = elapsed(started);
    return done();
  }
  result.TxnId = registration.txnId;
  result.Label = registration.label;
  result.StreamLoadPutTimeMs = elapsed(started);
  const maxRowBytes = Math.max(options.memLimit, 1 << 20);
  let reader: BodyReader;
  try {
    reader =
      options.format === 'json'
        ? new JsonReader(converter, { lineDelimiter: options.lineDelimiter, byLine: options.readJsonByLine, stripOuterArray: options.stripOuterArray, jsonPaths: options.jsonPaths, maxRowBytes })
        : new CsvReader(converter, { columnSeparator: options.columnSeparator, lineDelimiter: options.lineDelimiter, skipHeader: options.format === 'csv_with_names', maxRowBytes });
  } catch (err) {
    registration.abandon();
    result.Message = loadMessage(err);
    return done();
  }
  const run = async (body: AsyncIterable<Buffer>, signal: { cancelled: string | null }): Promise<StreamLoadResult> => {
    const blockBytes = Math.min(BLOCK_BYTES, options.memLimit);
    const parts: Batch[] = [];
    const timing: BodyTiming = { readMs: 0 };
    const parse = (chunks: Buffer[], final: boolean): void => {
      reader.feed(chunks, final);
      const batch = converter.finishBlock();
      if (batch) parts.push(batch);
    };
    const fail = (message: string): StreamLoadResult => {
      registration.abandon();
      result.Status = 'Fail';
      result.Message = message;
      result.NumberLoadedRows = 0;
      result.ReadDataTimeMs = Math.round(timing.readMs);
      result.LoadTimeMs = elapsed(started);
      return result as unknown as StreamLoadResult;
    };
    try {
      await readBodyInBlocks(body, blockBytes, signal, timing, (chunk) => (result.LoadBytes += chunk.length), (chunks, final) => parse(chunks, final));
    } catch (err) {
      const cancelled = signal.cancelled;
      const message = cancelled !== null ? (cancelled.startsWith('[') ? cancelled : new GaleneError('LOAD_CANCELLED', [cancelled]).message) : err instanceof GaleneError ? loadMessage(err) : new GaleneError('LOAD_CANCELLED', [messageOf(err)]).message;
      result.NumberTotalRows = converter.totalRows;
      result.NumberFilteredRows = converter.filteredRows;
      result.NumberUnselectedRows = converter.unselectedRows;
      return fail(message);
    }
    result.NumberTotalRows = converter.totalRows;
    result.NumberFilteredRows = converter.filteredRows;
    result.NumberUnselectedRows = converter.unselectedRows;
    result.ReadDataTimeMs = Math.round(timing.readMs);
    if (errors.count > 0) {
      try {
        // Loads of one batch share label and txn id: the error log name gets this load's own suffix.
        const name = errors.write(host.errorLogDir, errorLogFileName(`${registration.label}_${Math.random().toString(16).slice(2, 10)}`, registration.txnId));
        result.ErrorURL = `${errorUrlBase}/api/_load_error_log?file=${encodeURIComponent(name)}`;
      } catch {
        // the answer goes out without an ErrorURL
      }
    }
    const considered = converter.totalRows - converter.unselectedRows;
    if (converter.filteredRows > 0 && converter.filteredRows > options.maxFilterRatio * considered) {
      return fail(new GaleneError('LOAD_DATA_QUALITY', ['too many filtered rows']).message);
    }
    const writeStart = performance.now();
    try {
      await registration.finish(parts);
    } catch (err) {
      result.WriteDataTimeMs = elapsed(writeStart);
      return fail(loadMessage(err));
    }
    result.WriteDataTimeMs = elapsed(writeStart);
    result.NumberLoadedRows = parts.reduce((sum, part) => sum + part.length, 0);
    result.Status = 'Success';
    result.Message = 'OK';
    result.LoadTimeMs = elapsed(started);
    return result as unknown as StreamLoadResult;
  };
  return {
    kind: 'prepared',
    timeoutMs: options.timeoutSeconds * 1000,
    cancel: async () => registration.abandon(),
    run,
  };
}
