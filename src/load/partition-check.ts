/**
 * Rows of a load that no partition of a partitioned table holds: Doris filters each with the reason
 * `no partition for this tuple. tuple=...` (VOlapTableSink), counted against max_filter_ratio and listed
 * in the load's error log (Stream Load) or failing a strict INSERT. An auto-partitioned table's rows get
 * their partitions created (auto-partition.ts), but a NULL RANGE key has none.
 */
import { getRaw, type Batch } from '../common/column';
import { formatValue } from '../common/convert';
import type { TableState } from '../meta/catalog';
import { findColumn, partitionInfoOf } from '../meta/schema';
import { partitionOfRows } from '../storage/partitions';

/** Each row of `batch` (table columns in schema order) no partition holds, ascending, with Doris's reason. */
export function rowsWithoutPartition(table: TableState, batch: Batch): { rowIdx: number; reason: string }[] {
  const schema = table.schema;
  const info = partitionInfoOf(schema);
  if (info === null || batch.length === 0) return [];
  const colIdxs = info.columns.map((name) => schema.columns.findIndex((column) => column.name.toLowerCase() === name.toLowerCase()));
  const partitions = partitionOfRows(schema, info, (name) => batch.columns[colIdxs[info.columns.indexOf(name)]], batch.length);
  const out: { rowIdx: number; reason: string }[] = [];
  // AUTO PARTITION creates the partition a row needs (auto-partition.ts), except for a NULL RANGE key.
  const autoRange = info.auto !== null && info.type === 'RANGE' ? batch.columns[colIdxs[0]] : null;
  for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
    if (partitions[rowIdx] >= 0) continue;
    if (info.auto !== null && (autoRange === null || getRaw(autoRange, rowIdx) !== null)) continue;
    const values = info.columns.map((name, colIdx) => `${name}=${formatValue(findColumn(schema, name)!.type, getRaw(batch.columns[colIdxs[colIdx]], rowIdx)) ?? 'NULL'}`);
    out.push({ rowIdx, reason: `no partition for this tuple. tuple={${values.join(', ')}}` });
  }
  return out;
}
