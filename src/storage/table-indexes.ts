/**
 * The table's indexes of one type over the columns of a segment: the per-segment index builders (ANN,
 * inverted) resolve each single-column index to its column's position once per write.
 */
import type { IndexSchema } from '../meta/schema';

/** Indexes of `indexType` on one of `columnNames` (the segment's columns, in order), with that position. */
export function indexedColumns(indexes: readonly IndexSchema[], columnNames: readonly string[], indexType: string): { index: IndexSchema; columnIdx: number }[] {
  const lower = columnNames.map((name) => name.toLowerCase());
  const out: { index: IndexSchema; columnIdx: number }[] = [];
  for (const index of indexes) {
    if (index.indexType.toUpperCase() !== indexType || index.columns.length !== 1) continue;
    const columnIdx = lower.indexOf(index.columns[0].toLowerCase());
    if (columnIdx >= 0) out.push({ index, columnIdx });
  }
  return out;
}
