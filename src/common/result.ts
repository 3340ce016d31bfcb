/**
 * What a statement returns to a client, independent of the wire protocol: a result set (column metadata
 * plus column batches) or an OK with counts. The FE produces these; src/protocol encodes them.
 */
import type { Batch } from './column';
import type { DataType } from './types';

export interface ResultColumn {
  readonly name: string;
  readonly type: DataType;
  /** Origin for MySQL column definitions (empty for computed columns). */
  readonly table?: string;
  readonly orgTable?: string;
  readonly orgName?: string;
  readonly database?: string;
  readonly nullable?: boolean;
}

export interface RowsResult {
  readonly kind: 'rows';
  readonly columns: readonly ResultColumn[];
  /**
   * The rows: a list when they are all in memory (SHOW, small results), or a stream the encoder pulls
   * batch by batch (queries), so a large result is never held whole and a slow client slows the query.
   */
  readonly batches: readonly Batch[] | AsyncIterable<Batch>;
}

/** A RowsResult whose rows are all in memory. */
export interface MaterializedRows extends RowsResult {
  readonly batches: readonly Batch[];
}

/** Whether the rows of a result still have to be pulled. */
export function isStreamed(result: RowsResult): boolean {
  return !Array.isArray(result.batches);
}

export interface OkResult {
  readonly kind: 'ok';
  readonly affectedRows: number;
  readonly lastInsertId?: number;
  /** Human-readable info string of the OK packet (Doris puts load labels here). */
  readonly info?: string;
  readonly warnings?: number;
}

export type StatementResult = RowsResult | OkResult;

export const OK_EMPTY: OkResult = Object.freeze({ kind: 'ok', affectedRows: 0 });
