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
  readonly batches: readonly Batch[];
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
