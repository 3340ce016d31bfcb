/**
 * Building small result sets (SHOW, DESC, EXPLAIN) from rows of raw values.
 */
import { RawValue, vectorFromRaw } from '../../common/column';
import type { OkResult, RowsResult } from '../../common/result';
import { DataType, Types } from '../../common/types';

export type ColumnSpec = readonly [name: string, type?: DataType];

/** A result set from rows; columns default to VARCHAR. */
export function rowsResult(columns: readonly ColumnSpec[], rows: readonly (readonly RawValue[])[]): RowsResult {
  const types = columns.map(([, type]) => type ?? Types.varchar(65533));
  return {
    kind: 'rows',
    columns: columns.map(([name], colIdx) => ({ name, type: types[colIdx] })),
    batches: [{ length: rows.length, columns: types.map((type, colIdx) => vectorFromRaw(type, rows.map((row) => row[colIdx] ?? null))) }],
  };
}

export function okResult(affectedRows = 0, info?: string): OkResult {
  return info === undefined ? { kind: 'ok', affectedRows } : { kind: 'ok', affectedRows, info };
}

