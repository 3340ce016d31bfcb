/**
 * Aggregates that build maps: map_agg(key, value) (one entry per row, a repeated key keeps its last value,
 * NULL keys skipped), and the per-key merges of map arguments sum_map / avg_map / count_map / max_map /
 * min_map (Doris 4.x): every key of every map of the group, with the aggregate of its non-NULL values; a
 * key seen only with NULL values, and a NULL map, add nothing. A group with no entry is `{}`.
 *
 * Row at a time over raw values: each group keeps a JS Map from a key's identity to its entry.
 */
import { getRaw, type RawArray, type RawValue, type Vector } from '../../../common/column';
import { compareRawValues } from '../../../common/row-order';
import { DataType, isIntegerType, isNumericType, mapKeyType, mapValueType, Types, typeToSql } from '../../../common/types';
import { galeneError } from '../../../common/errors';
import type { AggregateAccumulator } from '../../expr-api';
import { vectorFromValues } from '../vector-ops';
import type { AggregateDef } from './aggregate-functions';

type MergeKind = 'agg' | 'sum' | 'avg' | 'count' | 'max' | 'min';

interface Slot {
  readonly key: RawValue;
  value: RawValue;
  /** avg_map: the values' sum and count. */
  sum: number;
  count: number;
}

/** A key's identity in a JS Map (bigint and number keys of one type never mix). */
function keyId(key: RawValue): RawValue | string {
  return key === null ? '\u0000null' : typeof key === 'object' ? JSON.stringify(key, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)) : key;
}

class MapAccumulator implements AggregateAccumulator {
  private groups: (Map<RawValue | string, Slot> | undefined)[] = [];

  constructor(private readonly kind: MergeKind, private readonly returnType: DataType, private readonly keyType: DataType) {}

  resize(groupCount: number): void {
    while (this.groups.length < groupCount) this.groups.push(undefined);
  }

  private add(group: number, key: RawValue, value: RawValue): void {
    const slots = (this.groups[group] ??= new Map());
    const id = keyId(key);
    let slot = slots.get(id);
    if (this.kind === 'agg') {
      if (slot === undefined) slots.set(id, { key, value, sum: 0, count: 0 });
      else slot.value = value;
      return;
    }
    if (value === null) return;
    if (slot === undefined) {
      slot = { key, value: null, sum: 0, count: 0 };
      slots.set(id, slot);
    }
    slot.count++;
    switch (this.kind) {
      case 'sum':
        slot.value = slot.value === null ? value : typeof value === 'bigint' || typeof slot.value === 'bigint' ? BigInt(slot.value as number | bigint) + BigInt(value as number | bigint) : (slot.value as number) + (value as number);
        break;
      case 'avg':
        slot.sum += Number(value);
        break;
      case 'max':
        if (slot.value === null || compareRawValues(value, slot.value) > 0) slot.value = value;
        break;
      case 'min':
        if (slot.value === null || compareRawValues(value, slot.value) < 0) slot.value = value;
        break;
      default:
        break;
    }
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (this.kind === 'agg') {
        const key = getRaw(args[0], rowIdx);
        if (key !== null) this.add(groupIds[rowIdx], key, getRaw(args[1], rowIdx));
        continue;
      }
      const map = getRaw(args[0], rowIdx) as RawArray | null;
      if (map === null) continue;
      for (const entry of map as RawArray[]) this.add(groupIds[rowIdx], entry[0], entry[1]);
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const rows = this.groups.slice(0, groupCount).map((slots) => {
      if (slots === undefined) return [];
      return [...slots.values()].map((slot) => {
        const value = this.kind === 'avg' ? slot.sum / slot.count : this.kind === 'count' ? BigInt(slot.count) : slot.value;
        return [slot.key, value];
      });
    });
    return vectorFromValues(this.returnType, rows);
  }
}

/** The map argument of a per-key merge; sum_map / avg_map need numeric values. */
function mapArg(name: string, types: readonly DataType[], numeric: boolean): DataType {
  const type = types[0];
  if (type.name !== 'MAP' || (numeric && !isNumericType(mapValueType(type)))) {
    throw galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${types.map(typeToSql).join(', ')})`);
  }
  return type;
}

function mergeDef(name: MergeKind, returns: string, description: string, resultValue: (valueType: DataType) => DataType, numeric: boolean): AggregateDef {
  const fullName = `${name}_map`;
  return {
    name: fullName,
    signature: `${fullName}(map) -> ${returns}`,
    minArgs: 1,
    maxArgs: 1,
    resolve: (argTypes) => {
      const mapType = mapArg(fullName, argTypes, numeric);
      return { argTypes: [mapType], returnType: Types.map(mapKeyType(mapType), resultValue(mapValueType(mapType))) };
    },
    create: (argTypes, returnType) => new MapAccumulator(name, returnType, mapKeyType(argTypes[0])),
    description,
    example: `SELECT ${fullName}(m) FROM (SELECT map('a', 1, 'b', 2) AS m UNION ALL SELECT map('a', 3)) t`,
  };
}

/** sum_map's value type: integers sum as BIGINT (LARGEINT stays), floats as DOUBLE, decimals keep their type. */
function sumType(valueType: DataType): DataType {
  if (valueType.name === 'LARGEINT' || valueType.name === 'DECIMAL') return valueType;
  return isIntegerType(valueType) || valueType.name === 'BOOLEAN' ? Types.BIGINT : Types.DOUBLE;
}

export const MAP_AGGREGATES: readonly AggregateDef[] = [
  {
    name: 'map_agg',
    signature: 'map_agg(key, value) -> MAP<type of key, type of value>',
    minArgs: 2,
    maxArgs: 2,
    resolve: (argTypes) => {
      const keyType = argTypes[0].name === 'NULL' ? Types.TINYINT : argTypes[0];
      const valueType = argTypes[1].name === 'NULL' ? Types.TINYINT : argTypes[1];
      return { argTypes: [keyType, valueType], returnType: Types.map(keyType, valueType) };
    },
    create: (argTypes, returnType) => new MapAccumulator('agg', returnType, argTypes[0]),
    description: 'A map of the rows\' key/value pairs (a repeated key keeps its last value; rows with a NULL key are skipped).',
    example: "SELECT map_agg(k, v) FROM (SELECT 'a' AS k, 1 AS v UNION ALL SELECT 'b', 2) t",
  },
  mergeDef('sum', 'MAP<key type, sum type>', 'Per key, the sum of its non-NULL values over the maps of the group.', sumType, true),
  mergeDef('avg', 'MAP<key type, DOUBLE>', 'Per key, the average of its non-NULL values over the maps of the group.', () => Types.DOUBLE, true),
  mergeDef('count', 'MAP<key type, BIGINT>', 'Per key, how many of the maps of the group hold a non-NULL value for it.', () => Types.BIGINT, false),
  mergeDef('max', 'MAP<key type, value type>', 'Per key, the largest of its non-NULL values over the maps of the group.', (valueType) => valueType, false),
  mergeDef('min', 'MAP<key type, value type>', 'Per key, the smallest of its non-NULL values over the maps of the group.', (valueType) => valueType, false),
];
