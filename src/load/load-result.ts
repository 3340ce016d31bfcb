/**
 * What a Stream Load answers, and the bookkeeping both of its paths (a transaction of its own,
 * src/load/stream-load; a Group Commit batch, src/load/group-commit) do the same way: the result types
 * with Doris's field sets, the message of a load whose body could not be read, the max_filter_ratio
 * check and the error log behind the ErrorURL.
 */
import { GaleneError } from '../common/errors';
import type { LoadOptions } from './load-plan';
import { errorLogFileName, type LoadErrorLog } from './source/load-error-log';

/** What both answers carry. */
interface LoadAnswerFields {
  TxnId: number;
  Label: string;
  Comment: string;
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

/**
 * Doris's Stream Load result. The JSON's field order is Doris's: it is the order of the object
 * emptyResult builds.
 */
export interface StreamLoadResult extends LoadAnswerFields {
  TwoPhaseCommit: string;
  Status: 'Success' | 'Publish Timeout' | 'Label Already Exists' | 'Fail';
  ExistingJobStatus?: string;
  BeginTxnTimeMs: number;
  CommitAndPublishTimeMs: number;
}

/**
 * Doris's Stream Load answer under Group Commit (no TwoPhaseCommit, BeginTxnTimeMs,
 * CommitAndPublishTimeMs), in the field order of emptyGroupCommitResult.
 */
export interface GroupCommitStreamLoadResult extends LoadAnswerFields {
  GroupCommit: true;
  Status: 'Success' | 'Fail';
}

/** The JSON body of a Stream Load response: the HTTP layer only serializes it. */
export type LoadAnswer = StreamLoadResult | GroupCommitStreamLoadResult;

/** A request that passed the checks: its transaction (or Group Commit batch) is open and waits for the body. */
export interface PreparedStreamLoad {
  readonly kind: 'prepared';
  /** Stream the body into the load; never throws (failures are in the result). */
  run(body: AsyncIterable<Buffer>, signal: { cancelled: string | null }): Promise<LoadAnswer>;
  /** Abort without reading the body (the request went away before it started). */
  cancel(reason: string): Promise<void>;
  readonly timeoutMs: number;
}

export type PrepareOutcome = PreparedStreamLoad | { readonly kind: 'done'; readonly result: LoadAnswer };

export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
export const elapsed = (start: number): number => Math.round(performance.now() - start);

/**
 * The Message of a load that succeeded: Doris's `OK`, then the warnings of headers accepted without
 * effect (Doris's answer has no warnings field; they are logged too).
 */
export function successMessage(warnings: readonly string[]): string {
  return warnings.length === 0 ? 'OK' : `OK; warnings: ${warnings.join('; ')}`;
}

/** The message of a load aborted because it ran past its `timeout` header (Doris's words). */
export function loadTimeoutMessage(timeoutSeconds: number): string {
  return new GaleneError('LOAD_TIMEOUT', [`timeout by txn manager (the load ran past its timeout of ${timeoutSeconds} s)`]).message;
}

/** The row counts and the time of a load that has read nothing yet, in Doris's field order. */
const noRowsYet = () => ({ NumberTotalRows: 0, NumberLoadedRows: 0, NumberFilteredRows: 0, NumberUnselectedRows: 0, LoadBytes: 0, LoadTimeMs: 0 });

/** A failed Stream Load result with nothing done yet (`options` null when the headers did not parse). */
export function emptyResult(label: string, options: Pick<LoadOptions, 'comment' | 'twoPhaseCommit'> | null): StreamLoadResult {
  return {
    TxnId: 0,
    Label: label,
    Comment: options?.comment ?? '',
    TwoPhaseCommit: String(options?.twoPhaseCommit ?? false),
    Status: 'Fail',
    ExistingJobStatus: undefined,
    Message: '',
    ...noRowsYet(),
    BeginTxnTimeMs: 0,
    StreamLoadPutTimeMs: 0,
    ReadDataTimeMs: 0,
    WriteDataTimeMs: 0,
    CommitAndPublishTimeMs: 0,
    ErrorURL: undefined,
  };
}

/** A failed Group Commit Stream Load result with nothing done yet (the batch's label and txn id come later). */
export function emptyGroupCommitResult(comment: string): GroupCommitStreamLoadResult {
  return { TxnId: 0, Label: '', Comment: comment, GroupCommit: true, Status: 'Fail', Message: '', ...noRowsYet(), StreamLoadPutTimeMs: 0, ReadDataTimeMs: 0, WriteDataTimeMs: 0 };
}

/** A request refused before its body is read; `started` (performance.now()) gives LoadTimeMs, null leaves it 0. */
export function refusedLoad(label: string, options: Pick<LoadOptions, 'comment' | 'twoPhaseCommit'> | null, message: string, started: number | null): PrepareOutcome {
  return { kind: 'done', result: { ...emptyResult(label, options), Message: message, LoadTimeMs: started === null ? 0 : elapsed(started) } };
}

/** The row counts of a load, as the RowConverter keeps them. */
export interface LoadRowCounts {
  readonly totalRows: number;
  readonly filteredRows: number;
  readonly unselectedRows: number;
}

/** Copy the row counts into a result. */
export function reportRowCounts(result: LoadAnswer, counts: LoadRowCounts): void {
  result.NumberTotalRows = counts.totalRows;
  result.NumberFilteredRows = counts.filteredRows;
  result.NumberUnselectedRows = counts.unselectedRows;
}

/**
 * The message of a load that failed while its body was read or written: the cancel reason when the
 * request was cancelled (timeout, client gone), else the error's (`describe` words a GaleneError as the
 * answer shows it), anything else as `[CANCELLED]`.
 */
export function bodyFailureMessage(signal: { readonly cancelled: string | null }, err: unknown, describe: (err: GaleneError) => string): string {
  const cancelled = signal.cancelled;
  if (cancelled !== null) return cancelled.startsWith('[') ? cancelled : new GaleneError('LOAD_CANCELLED', [cancelled]).message;
  return err instanceof GaleneError ? describe(err) : new GaleneError('LOAD_CANCELLED', [messageOf(err)]).message;
}

/**
 * max_filter_ratio: the failure message when more rows were filtered than the ratio allows of the rows
 * considered (unselected rows do not count), else null.
 */
export function filterRatioFailure(counts: LoadRowCounts, maxFilterRatio: number): string | null {
  const considered = counts.totalRows - counts.unselectedRows;
  if (counts.filteredRows > 0 && counts.filteredRows > maxFilterRatio * considered) return new GaleneError('LOAD_DATA_QUALITY', ['too many filtered rows']).message;
  return null;
}

/**
 * Write the filtered rows of load `txnId` to a file under `dir` and return its ErrorURL on this BE's web
 * server (`urlBase` is `http://host:port`); undefined when nothing was filtered or the file could not be
 * written (the answer then goes out without one).
 */
export function writeErrorLog(errors: LoadErrorLog, dir: string, txnId: number, urlBase: string): string | undefined {
  if (errors.count === 0) return undefined;
  try {
    const name = errors.write(dir, errorLogFileName(txnId));
    return `${urlBase}/api/_load_error_log?file=${encodeURIComponent(name)}`;
  } catch {
    return undefined;
  }
}
