/**
 * Partition DDL with Doris's rules and messages: PARTITION BY RANGE / LIST in CREATE TABLE (checked into
 * the schema's PartitionInfo), ALTER TABLE ADD / DROP PARTITION, TRUNCATE TABLE ... PARTITION, and the
 * texts SHOW CREATE TABLE, SHOW PARTITIONS and error messages print for partition bounds.
 */
import { formatValue, parseValue } from '../../common/convert';
import { formatDatetime, MICROS_PER_DAY } from '../../common/datetime';
import { addTimeUnits } from '../../common/datetime';
import { GaleneError } from '../../common/errors';
import { isSketchType, isStringType, type DataType } from '../../common/types';
import type { Catalog } from '../../meta/catalog';
import { findPartition, partitionInfoOf, type ColumnSchema, type KeysType, type PartitionBoundValue, type PartitionInfo, type PartitionRecord, type TableSchema } from '../../meta/schema';
import { compareKeys, parseBoundValue, partitionColumnTypes, partitionDisplayOrder } from '../../storage/partitions';
import type { AlterTableAction, PartitionDesc, PartitionItemDef, PartitionValueDef } from '../../sql/ast';

const bad = (message: string): GaleneError => new GaleneError('INVALID_TABLE_DEFINITION', [message]);

const MIN: PartitionBoundValue = { infinity: 'min' };
const MAX: PartitionBoundValue = { infinity: 'max' };

/** What a partition definition is checked against: the table's columns and model. */
export interface PartitionTableFacts {
  readonly name: string;
  readonly columns: readonly ColumnSchema[];
  readonly keysType: KeysType;
  readonly mergeOnWrite: boolean;
}

/** The units AUTO PARTITION BY RANGE (date_trunc(col, unit)) and batch ranges step by. */
const TIME_UNITS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const;

/** Doris's checks of the partition columns (PartitionDesc.analyze). */
function partitionColumns(table: PartitionTableFacts, desc: PartitionDesc): ColumnSchema[] {
  if (desc.columns.length === 0) throw bad('No partition columns.');
  if (desc.type === 'RANGE' && desc.auto && desc.autoUnit === null) throw bad('auto create partition only support date_trunc function of RANGE partition.');
  if (desc.autoUnit !== null && !(TIME_UNITS as readonly string[]).includes(desc.autoUnit)) throw bad(`date_trunc function time unit param only support argument is ${TIME_UNITS.join('|')}`);
  if (desc.autoUnit !== null && !desc.auto) throw bad('Non-auto partition table not support partition expr!');
  if (desc.type === 'RANGE' && desc.auto && desc.columns.length !== 1) throw bad('auto create partition only support one slotRef in function expr');
  const seen = new Set<string>();
  return desc.columns.map((name) => {
    const column = table.columns.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (column === undefined) throw bad(`Partition column[${name}] does not found`);
    if (seen.has(column.name.toLowerCase())) throw bad(`Duplicated partition column ${column.name}`);
    seen.add(column.name.toLowerCase());
    if (column.aggregation !== null || (table.keysType !== 'DUPLICATE' && !column.isKey)) {
      throw bad(table.mergeOnWrite ? "Merge-on-Write table's partition column must be KEY column" : "The partition column could not be aggregated column and unique table's partition column must be key column");
    }
    const type = column.type;
    if (type.name === 'FLOAT' || type.name === 'DOUBLE') throw bad('Floating point type column can not be partition column');
    if (type.name === 'STRING') throw bad(`String Type should not be used in partition column[${column.name}].`);
    if (type.name === 'ARRAY' || type.name === 'MAP' || type.name === 'STRUCT' || type.name === 'JSON' || isSketchType(type)) throw bad(`Complex type column can't be partition column: ${type.name}`);
    if (desc.type === 'RANGE' && (isStringType(type) || type.name === 'BOOLEAN')) throw bad(`Invalid range partition column type: ${dorisPartitionTypeName(type)}`);
    if (desc.autoUnit !== null && type.name !== 'DATE' && type.name !== 'DATETIME') throw bad('partition expr date_trunc is illegal! only support DATEV2/DATETIMEV2 type');
    if (desc.autoUnit !== null && type.name === 'DATE' && ['hour', 'minute', 'second'].includes(desc.autoUnit)) throw bad(`partition expr date_trunc of a DATEV2 column does not support unit ${desc.autoUnit}`);
    if (desc.auto && desc.type === 'RANGE' && column.nullable) throw bad("AUTO RANGE PARTITION doesn't support NULL column");
    return column;
  });
}

/** The type name Doris prints in a partition key (`[types: [DATEV2]; keys: [...]; ]`). */
function dorisPartitionTypeName(type: DataType): string {
  switch (type.name) {
    case 'DATE':
      return 'DATEV2';
    case 'DATETIME':
      return 'DATETIMEV2';
    case 'DECIMAL':
      return 'DECIMALV3';
    default:
      return type.name;
  }
}

/** A value of a partition column, checked and made canonical (the text the schema keeps). */
function boundText(column: ColumnSchema, value: PartitionValueDef, allowNull: boolean): string | null {
  if (value.kind === 'null') {
    if (!allowNull) throw bad('Can not use null as partition value in range partition');
    if (!column.nullable) throw bad(`Can not use null value in partition column ${column.name} which is not nullable`);
    return null;
  }
  if (value.kind !== 'value') throw bad('MAXVALUE can only be used in range partition');
  const parsed = parseValue(column.type, value.text);
  if (parsed.failure !== null || parsed.value === null) throw bad(`Invalid ${dorisPartitionTypeName(column.type)} value: ${value.text}`);
  return formatValue(column.type, parsed.value)!;
}

/** A RANGE bound tuple: MAXVALUE elements, then nothing after them (Doris pads the rest as MINVALUE). */
function rangeBound(columns: readonly ColumnSchema[], values: readonly PartitionValueDef[]): PartitionBoundValue[] {
  if (values.length > columns.length) throw bad(`partition key desc list size[${values.length}] is more than partition column size[${columns.length}]`);
  return columns.map((column, colIdx) => {
    const value = values[colIdx];
    if (value === undefined || value.kind === 'min') return MIN;
    if (value.kind === 'max') return MAX;
    return boundText(column, value, false)!;
  });
}

/** Doris's text of a partition key: `[types: [INT]; keys: [10]; ]`. */
export function partitionKeyText(types: readonly DataType[], key: readonly PartitionBoundValue[]): string {
  return `[types: [${types.map(dorisPartitionTypeName).join(', ')}]; keys: [${key.map((value, colIdx) => boundValueText(types[colIdx], value)).join(', ')}]; ]`;
}

/** One bound element as Doris prints it: the value, the type's minimum for MINVALUE, MAXVALUE. */
function boundValueText(type: DataType, value: PartitionBoundValue): string {
  if (typeof value === 'string') return value;
  if (value.infinity === 'max') return 'MAXVALUE';
  switch (type.name) {
    case 'TINYINT':
      return '-128';
    case 'SMALLINT':
      return '-32768';
    case 'INT':
      return '-2147483648';
    case 'BIGINT':
      return '-9223372036854775808';
    case 'LARGEINT':
      return '-170141183460469231731687303715884105728';
    case 'DATE':
      return '0000-01-01';
    case 'DATETIME':
      return '0000-01-01 00:00:00';
    default:
      return '';
  }
}

/** A RANGE partition's text (SHOW PARTITIONS' Range, the overlap message): `[lower..upper)`. */
export function rangeText(types: readonly DataType[], partition: PartitionRecord): string {
  const key = (bound: readonly PartitionBoundValue[]): string => `types: [${types.map(dorisPartitionTypeName).join(', ')}]; keys: [${bound.map((value, colIdx) => boundValueText(types[colIdx], value)).join(', ')}]; `;
  return `[${key(partition.lower ?? [])}..${key(partition.upper ?? [])})`;
}

/** A LIST partition's text (SHOW PARTITIONS' Range). */
export function listText(types: readonly DataType[], partition: PartitionRecord): string {
  return `[${(partition.values ?? []).map((tuple) => partitionKeyText(types, tuple.map((value) => value ?? 'NULL'))).join(',')}]`;
}

/**
 * The checked partitions of one item against the partitions so far (`existing`): a RANGE partition's
 * lower bound is the largest upper bound at or below its upper (Doris's LESS THAN), overlapping ranges and
 * repeated list values are refused with Doris's messages.
 */
function checkedItems(table: PartitionTableFacts, info: Omit<PartitionInfo, 'partitions'>, columns: readonly ColumnSchema[], existing: readonly PartitionRecord[], item: PartitionItemDef, buckets: number, nextId: () => number): PartitionRecord[] {
  const types = columns.map((column) => column.type);
  const parsedKey = (bound: readonly PartitionBoundValue[]) => bound.map((value, colIdx) => parseBoundValue(types[colIdx], value));
  const name = item.kind === 'batch' ? null : item.name;
  if (name !== null && existing.some((partition) => partition.name.toLowerCase() === name.toLowerCase())) throw bad(`Duplicate partition name ${name}`);
  if (info.type === 'LIST') {
    if (item.kind !== 'in') throw bad('List partition only support VALUES IN');
    const values = item.values.map((tuple) => {
      if (tuple.length !== columns.length) throw bad(`partition key desc list size[${tuple.length}] is not equal to partition column size[${columns.length}]`);
      return tuple.map((value, colIdx) => boundText(columns[colIdx], value, true));
    });
    const known = new Map<string, string>();
    for (const partition of existing) for (const tuple of partition.values ?? []) known.set(JSON.stringify(tuple), partition.name);
    for (const tuple of values) {
      const key = JSON.stringify(tuple);
      if (known.has(key)) throw bad(`The partition key[${partitionKeyText(types, tuple.map((value) => value ?? 'NULL'))}] in partition item[${item.name}] is conflict`);
      known.set(key, item.name);
    }
    return [{ id: nextId(), name: item.name, buckets, values }];
  }
  if (item.kind === 'in') throw bad('Range partition expected VALUES LESS THAN or VALUES [...)');
  const ranges: { name: string; lower: PartitionBoundValue[]; upper: PartitionBoundValue[] }[] = [];
  if (item.kind === 'batch') ranges.push(...batchRanges(columns, item));
  else if (item.kind === 'fixedRange') ranges.push({ name: item.name, lower: rangeBound(columns, item.lower), upper: rangeBound(columns, item.upper) });
  else {
    const upper = rangeBound(columns, item.upper);
    // LESS THAN: from the largest existing upper bound not above this one (or the minimum).
    let lower: PartitionBoundValue[] = columns.map(() => MIN);
    for (const partition of existing) {
      const other = partition.upper ?? [];
      if (compareKeys(parsedKey(other), parsedKey(upper)) <= 0 && compareKeys(parsedKey(other), parsedKey(lower)) > 0) lower = [...other];
    }
    ranges.push({ name: item.name, lower, upper });
  }
  const out: PartitionRecord[] = [];
  const all = [...existing];
  for (const range of ranges) {
    if (all.some((partition) => partition.name.toLowerCase() === range.name.toLowerCase())) throw bad(`Duplicate partition name ${range.name}`);
    const lower = parsedKey(range.lower);
    const upper = parsedKey(range.upper);
    const record: PartitionRecord = { id: nextId(), name: range.name, buckets, lower: range.lower, upper: range.upper };
    if (compareKeys(lower, upper) >= 0) throw bad(`The lower values must smaller than upper values: ${rangeText(types, record)}`);
    for (const partition of all) {
      // [a, b) and [c, d) intersect when a < d and c < b.
      if (compareKeys(lower, parsedKey(partition.upper ?? [])) < 0 && compareKeys(parsedKey(partition.lower ?? []), upper) < 0) {
        throw bad(`Range ${rangeText(types, record)} is intersected with range: ${rangeText(types, partition)}`);
      }
    }
    all.push(record);
    out.push(record);
  }
  return out;
}

/** `FROM (a) TO (b) INTERVAL n [unit]`: consecutive ranges, the last one ending at `b` (Doris's batch partitions). */
function batchRanges(columns: readonly ColumnSchema[], item: Extract<PartitionItemDef, { kind: 'batch' }>): { name: string; lower: PartitionBoundValue[]; upper: PartitionBoundValue[] }[] {
  if (columns.length !== 1) throw bad('Batch partition only support one partition column');
  const column = columns[0];
  const from = boundText(column, item.from[0] ?? { kind: 'null' }, false)!;
  const to = boundText(column, item.to[0] ?? { kind: 'null' }, false)!;
  if (item.interval <= 0) throw bad('Batch partition interval must be greater than 0');
  const out: { name: string; lower: PartitionBoundValue[]; upper: PartitionBoundValue[] }[] = [];
  const type = column.type;
  if (type.name === 'DATE' || type.name === 'DATETIME') {
    const unit = (item.unit ?? '').toLowerCase();
    if (!['year', 'month', 'week', 'day', 'hour'].includes(unit)) throw bad(`Batch partition of a ${dorisPartitionTypeName(type)} column needs INTERVAL n YEAR|MONTH|WEEK|DAY|HOUR`);
    if (unit === 'hour' && type.name === 'DATE') throw bad('The partition column type of DATE does not support HOUR interval');
    let lower = parseValue(type, from).value as number;
    const end = parseValue(type, to).value as number;
    while (lower < end) {
      if (out.length >= 10000) throw bad('The number of batch partitions is greater than 10000');
      const next = Math.min(end, addTimeUnits(type, lower, unit, item.interval));
      out.push({ name: batchPartitionName(type, lower, unit), lower: [formatValue(type, lower)!], upper: [formatValue(type, next)!] });
      lower = next;
    }
    return out;
  }
  if (item.unit !== null) throw bad(`Batch partition of an integer column takes no time unit: ${item.unit}`);
  let lower = BigInt(from);
  const end = BigInt(to);
  while (lower < end) {
    if (out.length >= 10000) throw bad('The number of batch partitions is greater than 10000');
    const next = lower + BigInt(item.interval) < end ? lower + BigInt(item.interval) : end;
    out.push({ name: `p_${lower}`, lower: [String(lower)], upper: [String(next)] });
    lower = next;
  }
  return out;
}

/** Doris's batch partition names: p_2024 (YEAR), p_202401 (MONTH), p_2024_01 (WEEK), p_20240101 (DAY), p_2024010100 (HOUR). */
function batchPartitionName(type: DataType, value: number, unit: string): string {
  const text = type.name === 'DATE' ? formatValue(type, value)! : formatDatetime(value);
  const digits = text.replace(/[^0-9]/g, '');
  switch (unit) {
    case 'year':
      return `p_${digits.slice(0, 4)}`;
    case 'month':
      return `p_${digits.slice(0, 6)}`;
    case 'week': {
      const days = type.name === 'DATE' ? value : Math.floor(value / MICROS_PER_DAY);
      const yearStart = parseValue({ name: 'DATE' } as DataType, `${digits.slice(0, 4)}-01-01`).value as number;
      return `p_${digits.slice(0, 4)}_${String(Math.floor((days - yearStart) / 7) + 1).padStart(2, '0')}`;
    }
    case 'day':
      return `p_${digits.slice(0, 8)}`;
    default:
      return `p_${digits.slice(0, 10)}`;
  }
}

/**
 * CREATE TABLE's PARTITION BY checked into a PartitionInfo (or an error in Doris's words): every item's
 * partitions, each with `buckets` tablets, ids from `nextId`.
 */
export function buildPartitionInfo(table: PartitionTableFacts, desc: PartitionDesc, buckets: number, nextId: () => number): PartitionInfo {
  const columns = partitionColumns(table, desc);
  const base = { type: desc.type, columns: columns.map((column) => column.name), auto: desc.auto ? { unit: desc.autoUnit } : null };
  if (desc.type === 'RANGE' && columns.length > 1 && desc.items.some((item) => item.kind === 'lessThan' && item.upper.some((value) => value.kind === 'max') && item.upper.length < columns.length)) {
    throw bad('MAXVALUE must be given for every partition column');
  }
  let partitions: PartitionRecord[] = [];
  for (const item of desc.items) partitions = [...partitions, ...checkedItems(table, base, columns, partitions, item, buckets, nextId)];
  return { ...base, partitions };
}

/** The partitions ALTER TABLE ADD PARTITION adds to `schema` (checked against the ones it has). */
export function partitionsToAdd(schema: TableSchema, info: PartitionInfo, item: PartitionItemDef, buckets: number, nextId: () => number): PartitionRecord[] {
  const table: PartitionTableFacts = { name: schema.name, columns: schema.columns, keysType: schema.keysType, mergeOnWrite: false };
  const columns = info.columns.map((name) => schema.columns.find((column) => column.name.toLowerCase() === name.toLowerCase())!);
  return checkedItems(table, info, columns, info.partitions, item, buckets, nextId);
}

/** A partition by name (case-insensitive, as Doris), or undefined. */
const quoted = (text: string | null): string => (text === null ? 'NULL' : `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);

/** The PARTITION BY clause SHOW CREATE TABLE prints (Doris prints every RANGE partition as its fixed range). */
export function partitionClauseText(schema: TableSchema, info: PartitionInfo): string {
  const types = partitionColumnTypes(schema, info);
  const columns = info.columns.map((name) => '`' + name + '`').join(', ');
  const head = info.auto !== null ? (info.type === 'RANGE' ? `AUTO PARTITION BY RANGE (date_trunc(${columns}, '${info.auto.unit}'))` : `AUTO PARTITION BY LIST (${columns})`) : `PARTITION BY ${info.type}(${columns})`;
  const bound = (key: readonly PartitionBoundValue[]): string => `(${key.map((value, colIdx) => (typeof value === 'string' ? quoted(value) : value.infinity === 'max' ? 'MAXVALUE' : quoted(boundValueText(types[colIdx], value)))).join(', ')})`;
  const items = partitionDisplayOrder(schema, info).map((idx) => {
    const partition = info.partitions[idx];
    if (info.type === 'RANGE') return `PARTITION ${partition.name} VALUES [${bound(partition.lower ?? [])}, ${bound(partition.upper ?? [])})`;
    const tuples = (partition.values ?? []).map((tuple) => (tuple.length === 1 ? quoted(tuple[0]) : `(${tuple.map(quoted).join(', ')})`));
    return `PARTITION ${partition.name} VALUES IN (${tuples.join(',')})`;
  });
  return `${head}\n(${items.join(',\n')})\n`;
}

/** ALTER TABLE ... ADD / DROP PARTITION actions, applied in order to the table's partitions. */
export type PartitionAction = Extract<AlterTableAction, { kind: 'addPartition' | 'dropPartition' }>;

export function isPartitionAction(action: AlterTableAction): action is PartitionAction {
  return action.kind === 'addPartition' || action.kind === 'dropPartition';
}

/**
 * Apply ADD / DROP PARTITION actions (validated all first: a bad one changes nothing) in one meta-store
 * transaction; returns the object keys of the dropped partitions' data.
 */
export function alterPartitions(catalog: Catalog, database: string, name: string, actions: readonly PartitionAction[]): string[] {
  const state = catalog.getTable(database, name);
  const schema = state.schema;
  const info = partitionInfoOf(schema);
  if (info === null) throw bad(`Table[${schema.name}]'s partition type is UNPARTITIONED, only support adding partition to range and list partitioned table`);
  let partitions = [...info.partitions];
  const added: PartitionRecord[] = [];
  const dropped: number[] = [];
  for (const action of actions) {
    if (action.kind === 'dropPartition') {
      const found = findPartition({ ...info, partitions }, action.name);
      if (found === undefined) {
        if (action.ifExists) continue;
        throw new GaleneError('PARTITION_NOT_EXISTS_DROP', [action.name]);
      }
      partitions = partitions.filter((partition) => partition !== found);
      if (added.includes(found)) added.splice(added.indexOf(found), 1);
      else dropped.push(found.id);
      continue;
    }
    const itemName = action.item.kind === 'batch' ? null : action.item.name;
    if (itemName !== null && action.ifNotExists && findPartition({ ...info, partitions }, itemName) !== undefined) continue;
    const buckets = action.buckets ?? schema.distribution.buckets;
    if (!Number.isInteger(buckets) || buckets <= 0 || buckets > 1024) throw bad(`Number of hash distribution should be between 1 and 1024: ${buckets}`);
    const records = partitionsToAdd(schema, { ...info, partitions }, action.item, buckets, () => catalog.newObjectId());
    partitions = [...partitions, ...records];
    added.push(...records);
  }
  if (added.length === 0 && dropped.length === 0) return [];
  return catalog.changePartitions(schema.id, (current) => ({ ...current, partitionInfo: { ...info, partitions } }), added, dropped).keys;
}

/** The partition ids TRUNCATE TABLE t PARTITION (names) empties (Doris: every name must exist). */
export function partitionIdsToTruncate(schema: TableSchema, names: readonly string[]): number[] {
  const info = partitionInfoOf(schema);
  return names.map((partitionName) => {
    const found = info === null ? undefined : findPartition(info, partitionName);
    if (found === undefined) throw new GaleneError('UNKNOWN_PARTITION', [partitionName, schema.name]);
    return found.id;
  });
}
