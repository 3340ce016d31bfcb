/**
 * The two load paths that Group Commit optimizes, as entry points for their handlers:
 * - `groupCommitInsert` for INSERT INTO VALUES (src/fe/statements/dml.ts calls it with the converted rows);
 * - `prepareGroupCommitStreamLoad` for Stream Load (src/load/start-stream-load.ts calls it once the
 *   request was planned on the FE and its RowConverter compiled).
 * Both return null when the load does not use Group Commit, and the caller takes its normal path.
 *
 * Validation is the same with or without Group Commit (apache/doris #33453): INSERT rows are converted
 * before they get here; a Stream Load parses and filters its whole body with the same RowConverter and
 * checks max_filter_ratio before any row joins a batch.
 */
import type { Batch } from '../../common/column';
import type { Config } from '../../common/config';
import type { TableState } from '../../meta/catalog';
import type { LoadTarget } from '../load-transaction';
import type { LoadPlan } from '../load-plan';
import { successMessage, bodyFailureMessage, elapsed, emptyGroupCommitResult, filterRatioFailure, GroupCommitStreamLoadResult, messageOf, PrepareOutcome, reportRowCounts, writeErrorLog } from '../load-result';
import { BODY_BLOCK_BYTES, BodyReader, BodyTiming, readBodyInBlocks } from '../source/body-blocks';
import { openBodyReader } from '../source/body-reader';
import type { LoadErrorLog } from '../source/load-error-log';
import type { RowConverter } from '../source/row-converter';
import { GroupCommitRegistration, groupCommitManagerOf } from './group-commit-manager';
import { InsertGroupCommitFacts, insertGroupCommitMode, isChunkedUnknownSize, streamLoadGroupCommitMode } from './group-commit-mode';

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

/** What a Stream Load through Group Commit needs from the server around it. */
export interface GroupCommitStreamLoadHost {
  readonly target: LoadTarget;
  readonly config: Config;
  readonly errorLogDir: string;
}

/** Stream Load messages carry Doris's status prefix only, not the MySQL errCode wrapper. */
const loadMessage = (err: unknown): string => messageOf(err).replace(/^errCode = \d+, detailMessage = /, '');

/**
 * A Stream Load through Group Commit, or null when it does not use it. The load joins its table's open
 * batch before the body is read (its label and txn id are the batch's); async_mode runs as sync_mode
 * for a chunked body of unknown size or one too large for the WAL disk.
 */
export function prepareGroupCommitStreamLoad(
  host: GroupCommitStreamLoadHost,
  plan: LoadPlan,
  headers: Record<string, string | string[] | undefined>,
  converter: RowConverter,
  errors: LoadErrorLog,
  errorUrlBase: string,
  started: number,
): PrepareOutcome | null {
  const { table, options } = plan;
  // Rows that delete keys (merge_type DELETE / MERGE, a delete sign) need a transaction of their own.
  if (plan.deleteSign !== null) return null;
  const result = emptyGroupCommitResult(options.comment);
  const done = (): PrepareOutcome => ({ kind: 'done', result });
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
  let reader: BodyReader;
  try {
    reader = openBodyReader(options, converter);
  } catch (err) {
    registration.abandon();
    result.Message = loadMessage(err);
    return done();
  }
  const run = async (body: AsyncIterable<Buffer>, signal: { cancelled: string | null }): Promise<GroupCommitStreamLoadResult> => {
    const blockBytes = Math.min(BODY_BLOCK_BYTES, options.memLimit);
    const parts: Batch[] = [];
    const timing: BodyTiming = { readMs: 0 };
    const parse = (chunks: Buffer[], final: boolean): void => {
      reader.feed(chunks, final);
      const batch = converter.finishBlock();
      if (batch) parts.push(batch);
    };
    const fail = (message: string): GroupCommitStreamLoadResult => {
      registration.abandon();
      result.Status = 'Fail';
      result.Message = message;
      result.NumberLoadedRows = 0;
      result.ReadDataTimeMs = Math.round(timing.readMs);
      result.LoadTimeMs = elapsed(started);
      return result;
    };
    try {
      await readBodyInBlocks(body, blockBytes, options.compressType, signal, timing, (chunk) => (result.LoadBytes += chunk.length), (chunks, final) => parse(chunks, final));
    } catch (err) {
      reportRowCounts(result, converter);
      return fail(bodyFailureMessage(signal, err, loadMessage));
    }
    reportRowCounts(result, converter);
    result.ReadDataTimeMs = Math.round(timing.readMs);
    result.ErrorURL = writeErrorLog(errors, host.errorLogDir, registration.txnId, errorUrlBase);
    const tooManyFiltered = filterRatioFailure(converter, options.maxFilterRatio);
    if (tooManyFiltered !== null) return fail(tooManyFiltered);
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
    result.Message = successMessage(options.warnings);
    result.LoadTimeMs = elapsed(started);
    return result;
  };
  return {
    kind: 'prepared',
    timeoutMs: options.timeoutSeconds * 1000,
    cancel: async () => registration.abandon(),
    run,
  };
}
