/**
 * DuckDB as the reference answer: its results as the text a MySQL client reads from Galene, and a result
 * comparison with numeric tolerance. Used by the differential test (test/differential/) and the
 * benchmarks that check Galene's answers against DuckDB's (bench/tpch.ts).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { TextRow } from './mysql-client';

/** A DuckDB result as text rows: NULL as null, booleans as 1 / 0 (MySQL's), everything else as DuckDB prints it. */
export async function duckRows(conn: DuckDBConnection, sql: string): Promise<TextRow[]> {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRows().map((row) => row.map(duckValueText));
}

/** One DuckDB value as the text a MySQL client reads: NULL as null, booleans as 1 / 0, else as DuckDB prints it. */
export function duckValueText(value: unknown): string | null {
  return value === null ? null : typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function decimals(text: string): number {
  const match = /\.(\d+)$/.exec(text);
  return match ? match[1].length : 0;
}

/**
 * Whether two result values agree: equal text, or both numbers within a relative 1e-6 (floating sums in
 * another order), or equal once the one with more decimal places is rounded to the other's (at least 2)
 * places (a DECIMAL average at scale 4 beside DuckDB's DOUBLE).
 */
export function valuesMatch(actual: string | null, expected: string | null): boolean {
  if (actual === expected) return true;
  if (actual === null || expected === null || !NUMBER.test(actual) || !NUMBER.test(expected)) return false;
  const a = Number(actual);
  const b = Number(expected);
  if (a === b) return true;
  const scale = Math.min(decimals(actual), decimals(expected));
  const roundingSlack = scale >= 2 && !/[eE]/.test(actual + expected) ? 0.5 * 10 ** -scale * 1.000001 : 0;
  return Math.abs(a - b) <= Math.max(roundingSlack, 1e-6 * Math.max(Math.abs(a), Math.abs(b)), 1e-12);
}

/** A row's values as one string, numbers normalised (1.50 and 1.5 alike): a grouping / sorting key. */
export const rowKey = (row: readonly (string | null)[]): string => row.map((value) => (value === null ? '\u0000NULL' : NUMBER.test(value) ? String(Number(value)) : value)).join('\u0001');

/**
 * Compare a result with the expected one; null when they agree, else what differs first. `ordered`: the
 * query has an ORDER BY that fixes the row order; otherwise rows are compared as multisets.
 */
export function compareRows(actual: readonly TextRow[], expected: readonly TextRow[], ordered: boolean): string | null {
  if (actual.length !== expected.length) return `${actual.length} rows, expected ${expected.length}`;
  const sortRows = (rows: readonly TextRow[]): TextRow[] => (ordered ? [...rows] : [...rows].sort((x, y) => (rowKey(x) < rowKey(y) ? -1 : rowKey(x) > rowKey(y) ? 1 : 0)));
  const left = sortRows(actual);
  const right = sortRows(expected);
  for (let rowIdx = 0; rowIdx < left.length; rowIdx++) {
    if (left[rowIdx].length !== right[rowIdx].length) return `row ${rowIdx + 1}: ${left[rowIdx].length} columns, expected ${right[rowIdx].length}`;
    for (let colIdx = 0; colIdx < left[rowIdx].length; colIdx++) {
      if (!valuesMatch(left[rowIdx][colIdx], right[rowIdx][colIdx])) {
        return `row ${rowIdx + 1} column ${colIdx + 1}: ${JSON.stringify(left[rowIdx][colIdx])}, expected ${JSON.stringify(right[rowIdx][colIdx])}`;
      }
    }
  }
  return null;
}
