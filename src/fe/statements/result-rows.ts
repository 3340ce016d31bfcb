/**
 * Building small result sets (SHOW, DESC, EXPLAIN) from rows of raw values.
 */
import { RawValue, vectorFromRaw } from '../../common/column';
import type { OkResult, RowsResult } from '../../common/result';
import { DataType, Types } from '../../common/types';
import type { SessionWarning, StatementSession } from './statement-session';

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


/** A Note (MySQL code 1105): something accepted that Galene does not act on, saying what it does instead. */
export const note = (message: string): SessionWarning => ({ level: 'Note', code: 1105, message });

/** OK carrying `warnings`, which SHOW WARNINGS lists and the OK packet counts. */
export function okWithWarnings(session: StatementSession, warnings: readonly SessionWarning[]): OkResult {
  session.warnings.push(...warnings);
  return warnings.length === 0 ? okResult() : { kind: 'ok', affectedRows: 0, warnings: warnings.length };
}
