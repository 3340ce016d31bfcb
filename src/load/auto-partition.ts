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
import { addMonthsToDays, civilFromDays, daysFromCivil, formatDatetime, MICROS_PER_DAY } from '../common/datetime';
import { isStringType, type DataType } from '../common/types';
import type { Catalog, TableState } from '../meta/catalog';
import { partitionInfoOf, type PartitionInfo, type PartitionRecord, type TableSchema } from '../meta/schema';
import { partitionColumnTypes, partitionOfRows } from '../storage/partitions';

/** `date_trunc(value, unit)` of a DATE (days) or DATETIME (micros) value. */
export function truncTime(type: DataType, value: number, unit: string): number {
  const micros = type.name === 'DATETIME';
  const days = micros ? Math.floor(value / MICROS_PER_DAY) : value;
  const fromDays = (next: number): number => (micros ? next * MICROS_PER_DAY : next);
  const [year, month] = civilFromDays(days);
  switch (unit) {
    case 'year':
      return fromDays(daysFromCivil(year, 1, 1));
    case 'quarter':
      return fromDays(daysFromCivil(year, month - ((month - 1) % 3), 1));
    case 'month':
      return fromDays(daysFromCivil(year, month, 1));
    case 'week':
      return fromDays(days - ((((days + 3) % 7) + 7) % 7)); // Monday (1970-01-01 was a Thursday)
    case 'day':
      return fromDays(days);
    case 'hour':
      return micros ? value - (((value % 3_600_000_000) + 3_600_000_000) % 3_600_000_000) : value;
    case 'minute':
      return micros ? value - (((value % 60_000_000) + 60_000_000) % 60_000_000) : value;
    default:
      return micros ? value - (((value % 1_000_000) + 1_000_000) % 1_000_000) : value;
  }
}

/** `value` (a DATE's days or a DATETIME's micros) plus `count` units. */
export function addTimeUnits(type: DataType, value: number, unit: string, count: number): number {
  const micros = type.name === 'DATETIME';
  const days = micros ? Math.floor(value / MICROS_PER_DAY) : value;
  const within = micros ? value - days * MICROS_PER_DAY : 0;
  const fromDays = (next: number): number => (micros ? next * MICROS_PER_DAY + within : next);
  switch (unit) {
    case 'year':
      return fromDays(addMonthsToDays(days, 12 * count));
    case 'quarter':
      return fromDays(addMonthsToDays(days, 3 * count));
    case 'month':
      return fromDays(addMonthsToDays(days, count));
    case 'week':
      return fromDays(days + 7 * count);
    case 'day':
      return fromDays(days + count);
    case 'hour':
      return value + count * 3_600_000_000;
    case 'minute':
      return value + count * 60_000_000;
    default:
      return value + count * 1_000_000;
  }
}

/** One partition value as Doris writes it into an auto partition's name (PartitionExprUtil.getFormatPartitionValue). */
function nameOfValue(text: string): string {
  let out = text.startsWith('-') ? '_' : '';
  for (const char of text) out += /[0-9A-Za-z]/.test(char) ? char : char.codePointAt(0)!.toString(16);
  return out;
}

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
      const name = `p${(type.name === 'DATE' ? `${lowerText} 00:00:00` : formatDatetime(lower)).replace(/[^0-9]/g, '')}`;
      if (!wanted.has(name)) wanted.set(name, { name, buckets, lower: [lowerText], upper: [formatValue(type, upper)!] });
    } else {
      const texts = key.map((value, colIdx) => (value === null ? null : formatValue(types[colIdx], value)));
      const name = `p${texts.map((text, colIdx) => (text === null ? 'X' : nameOfValue(text) + (isStringType(types[colIdx]) ? String([...text].length) : ''))).join('_')}`;
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
