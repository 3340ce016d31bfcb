/**
 * AUTO PARTITION (Doris 2.1): a load into an auto-partitioned table first creates the partitions its rows
 * need — RANGE: `[date_trunc(v, unit), date_trunc(v, unit) + 1 unit)` named `p` + the lower bound as
 * yyyyMMddHHmmss (p20240101000000); LIST: one partition per new value tuple, named `p` + the values
 * (non-alphanumeric characters as hex code points; a string value followed by its length), as Doris
 * names them. The partitions are computed and added in one synchronous step against the catalog's current
 * state, so concurrent loads never create the same partition twice.
 */
import { getRaw, type Batch, type RawValue } from '../common/column';
import { formatValue } from '../common/convert';
import { addTimeUnits, formatDatetime, truncTime } from '../common/datetime';
import { listPartitionName, rangePartitionName } from '../meta/auto-partition-names';
import { isStringType, type DataType } from '../common/types';
import type { Catalog, TableState } from '../meta/catalog';
import { partitionInfoOf, type PartitionInfo, type PartitionRecord, type TableSchema } from '../meta/schema';
import { partitionColumnTypes, partitionOfRows } from '../storage/partitions';

/** The partitions an auto-partitioned table still needs for `batch`'s rows (without ids yet). */
export function missingAutoPartitions(schema: TableSchema, info: PartitionInfo, batch: Batch): Omit<PartitionRecord, 'id'>[] {
  const colIdxs = info.columns.map((name) => schema.columns.findIndex((column) => column.name.toLowerCase() === name.toLowerCase()));
  const types = partitionColumnTypes(schema, info);
  const partitions = partitionOfRows(schema, info, (name) => batch.columns[colIdxs[info.columns.indexOf(name)]], batch.length);
  const wanted = new Map<string, Omit<PartitionRecord, 'id'>>();
  const buckets = schema.distribution.buckets;
  for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
    if (partitions[rowIdx] >= 0) continue;
    const key: RawValue[] = colIdxs.map((colIdx) => getRaw(batch.columns[colIdx], rowIdx));
    if (info.type === 'RANGE') {
      if (key[0] === null) continue; // no partition holds NULL: the row is filtered
      const type = types[0];
      const unit = info.auto?.unit ?? 'day';
      const lower = truncTime(type, key[0] as number, unit);
      const upper = addTimeUnits(type, lower, unit, 1);
      const lowerText = formatValue(type, lower)!;
      const name = rangePartitionName(type.name === 'DATE' ? `${lowerText} 00:00:00` : formatDatetime(lower));
      if (!wanted.has(name)) wanted.set(name, { name, buckets, lower: [lowerText], upper: [formatValue(type, upper)!] });
    } else {
      const texts = key.map((value, colIdx) => (value === null ? null : formatValue(types[colIdx], value)));
      const name = listPartitionName(texts, types.map(isStringType));
      const existing = wanted.get(name);
      if (existing === undefined) wanted.set(name, { name, buckets, values: [texts] });
      else if (!existing.values!.some((tuple) => JSON.stringify(tuple) === JSON.stringify(texts))) wanted.set(name, { ...existing, values: [...existing.values!, texts] });
    }
  }
  return [...wanted.values()];
}

/**
 * Create the partitions `batch` needs in its auto-partitioned table (a no-op for other tables); returns
 * the table's state to write with (the catalog's, with the new partitions' tablets).
 */
export function ensureAutoPartitions(catalog: Catalog, table: TableState, batch: Batch): TableState {
  const info = partitionInfoOf(table.schema);
  if (info === null || info.auto === null || batch.length === 0) return table;
  const current = catalog.getTableById(table.schema.id) ?? table;
  const currentInfo = partitionInfoOf(current.schema)!;
  const missing = missingAutoPartitions(current.schema, currentInfo, batch);
  if (missing.length === 0) return current;
  // A name already taken by a partition of other bounds (rare: two values with one name) gets a suffix.
  const taken = new Set(currentInfo.partitions.map((partition) => partition.name.toLowerCase()));
  const added: PartitionRecord[] = missing.map((partition) => {
    let name = partition.name;
    for (let suffix = 1; taken.has(name.toLowerCase()); suffix++) name = `${partition.name}_${suffix}`;
    taken.add(name.toLowerCase());
    return { ...partition, name, id: catalog.newObjectId() };
  });
  return catalog.changePartitions(current.schema.id, (schema) => ({ ...schema, partitionInfo: { ...partitionInfoOf(schema)!, partitions: [...partitionInfoOf(schema)!.partitions, ...added] } }), added, []).state;
}
