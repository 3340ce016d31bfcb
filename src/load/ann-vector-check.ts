/**
 * The load path's one check of vectors bound for an ANN index: on a column with an ANN index, a row whose
 * vector does not have exactly the index's `dim` elements, or has a NULL element, is a bad row — never
 * built into an index (issue 11; doris-facts D.1: "each vector exactly dim elements"). Stream Load (CSV and
 * JSON, also into Group Commit) filters such rows with the reason in the ErrorURL log, under
 * max_filter_ratio (source/row-converter.ts); INSERT (also under Group Commit, so both paths agree —
 * apache/doris #33453) fails in strict mode or filters under insert_max_filter_ratio (fe/statements/dml.ts).
 */
import type { Batch, Vector } from '../common/column';
import type { TableSchema } from '../meta/schema';
import { tableAnnIndexes } from '../storage/ann/segment-ann-indexes';

/** One ANN-indexed column of a table and the vector length its index takes. */
export interface AnnVectorCheck {
  /** Position in the table's columns (= the batch's columns). */
  readonly colIdx: number;
  readonly column: string;
  readonly index: string;
  readonly dim: number;
}

/** The checks of `schema`'s ANN indexes; `given` (lower-case names) limits them to columns the load gives. */
export function annVectorChecks(schema: TableSchema, given: ReadonlySet<string> | null = null): AnnVectorCheck[] {
  const names = schema.columns.map((column) => column.name);
  return tableAnnIndexes(schema.indexes, names)
    .filter((index) => given === null || given.has(names[index.columnIdx].toLowerCase()))
    .map((index) => ({ colIdx: index.columnIdx, column: names[index.columnIdx], index: index.name, dim: index.params.dim }));
}

/** Why row `rowIdx` of `vec` cannot go into the index of `check`, or null when it can. */
export function badVectorReason(vec: Vector, rowIdx: number, check: AnnVectorCheck): string | null {
  if (vec.kind !== 'array') return null;
  if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return `column(${check.column}) values is null while the column has ANN index ${check.index}`;
  const start = vec.offsets[rowIdx];
  const length = vec.offsets[rowIdx + 1] - start;
  if (length !== check.dim) return `column(${check.column}) vector has ${length} elements but ANN index ${check.index} has dim ${check.dim}`;
  const childNulls = vec.child.nulls;
  if (childNulls !== null) {
    for (let pos = start; pos < start + length; pos++) if (childNulls[pos] === 1) return `column(${check.column}) vector has a NULL element at position ${pos - start + 1} (ANN index ${check.index})`;
  }
  return null;
}

/** The first reason row `rowIdx` of `batch` fails any of `checks`, or null. */
export function badRowReason(batch: Batch, rowIdx: number, checks: readonly AnnVectorCheck[]): string | null {
  for (const check of checks) {
    const reason = badVectorReason(batch.columns[check.colIdx], rowIdx, check);
    if (reason !== null) return reason;
  }
  return null;
}

/** Rows of `batch` failing `checks` (ascending) with their reasons; empty when every row is fine. */
export function badVectorRows(batch: Batch, checks: readonly AnnVectorCheck[]): { rowIdx: number; reason: string }[] {
  const out: { rowIdx: number; reason: string }[] = [];
  if (checks.length === 0) return out;
  for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
    const reason = badRowReason(batch, rowIdx, checks);
    if (reason !== null) out.push({ rowIdx, reason });
  }
  return out;
}
