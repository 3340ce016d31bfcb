/**
 * Rows of a load that no partition of a partitioned table holds: Doris filters each with the reason
 * `no partition for this tuple. tuple=...` (VOlapTableSink), counted against max_filter_ratio and listed
 * in the load's error log (Stream Load) or failing a strict INSERT. An auto-partitioned table's rows get
 * their partitions created (auto-partition.ts), but a NULL RANGE key has none.
 */
import { getRaw, type Batch } from '../common/column';
import { formatValue } from '../common/convert';
import type { TableState } from '../meta/catalog';
import { findColumn, partitionInfoOf, type PartitionInfo } from '../meta/schema';
import { partitionOfRows } from '../storage/partitions';

/** The partition (index into PartitionInfo.partitions, -1: none) of each row of `batch`. */
function rowPartitions(table: TableState, info: PartitionInfo, batch: Batch): Int32Array {
  const schema = table.schema;
  const colIdxs = info.columns.map((name) => schema.columns.findIndex((column) => column.name.toLowerCase() === name.toLowerCase()));
  return partitionOfRows(schema, info, (name) => batch.columns[colIdxs[info.columns.indexOf(name)]], batch.length);
}

/** The ids of the partitions the rows of `batch` go to (INSERT OVERWRITE ... PARTITION (*)). */
export function partitionIdsOfRows(table: TableState, batch: Batch): Set<number> {
  const info = partitionInfoOf(table.schema);
  const ids = new Set<number>();
  if (info === null) return ids;
  for (const partitionIdx of rowPartitions(table, info, batch)) if (partitionIdx >= 0) ids.add(info.partitions[partitionIdx].id);
  return ids;
}

/**
 * Each row of `batch` (table columns in schema order) no partition holds — or none of `only` (INSERT ...
 * PARTITION (p, ...)), which Doris's sink treats the same — ascending, with Doris's reason.
 */
export function rowsWithoutPartition(table: TableState, batch: Batch, only: ReadonlySet<number> | null = null): { rowIdx: number; reason: string }[] {
  const schema = table.schema;
  const info = partitionInfoOf(schema);
  if (info === null || batch.length === 0) return [];
  const colIdxs = info.columns.map((name) => schema.columns.findIndex((column) => column.name.toLowerCase() === name.toLowerCase()));
  const partitions = rowPartitions(table, info, batch);
  if (only !== null) partitions.forEach((partitionIdx, rowIdx) => partitionIdx >= 0 && !only.has(info.partitions[partitionIdx].id) && (partitions[rowIdx] = -1));
  const out: { rowIdx: number; reason: string }[] = [];
  // AUTO PARTITION creates the partition a row needs (auto-partition.ts), except for a NULL RANGE key.
  const autoRange = info.auto !== null && info.type === 'RANGE' ? batch.columns[colIdxs[0]] : null;
  for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
    if (partitions[rowIdx] >= 0) continue;
    if (only === null && info.auto !== null && (autoRange === null || getRaw(autoRange, rowIdx) !== null)) continue;
    const values = info.columns.map((name, colIdx) => `${name}=${formatValue(findColumn(schema, name)!.type, getRaw(batch.columns[colIdxs[colIdx]], rowIdx)) ?? 'NULL'}`);
    out.push({ rowIdx, reason: `no partition for this tuple. tuple={${values.join(', ')}}` });
  }
  return out;
}
