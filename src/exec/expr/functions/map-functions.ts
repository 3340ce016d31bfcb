/**
 * MAP and STRUCT functions (Doris 4.x names and NULL rules): map, map_size, map_keys, map_values,
 * map_entries, map_contains_key / _value / _entry, map_from_arrays, map_from_entries, deduplicate_map,
 * str_to_map; struct, named_struct, struct_element. element_at / `m['k']` on a map is in array-functions.ts.
 *
 * A map is an ARRAY of STRUCT<key, value> entries (column.ts), so map_keys / map_values / map_entries /
 * map_size are views over the vector (no copy): the entries' key or value child under the map's offsets.
 * Builders go row at a time over raw values (maps are small; the column work is in the views).
 * A repeated key keeps its last value wherever a map is built (map(), the text form, map_from_arrays),
 * as Doris deduplicates them; the key keeps its first place.
 */
import { constantVector, getRaw, VectorBuilder, type ArrayVector, type RawArray, type RawValue, type StructVector, type Vector } from '../../../common/column';
import { dedupeMapEntries } from '../../../common/convert';
import { galeneError } from '../../../common/errors';
import { DataType, elementType, mapKeyType, mapValueType, structFields, Types } from '../../../common/types';
import type { ArgLiterals, CallSite, FunctionDef } from '../function-registry';
import { badArgs } from '../function-registry';
import { arg, defineFunction, opt, rest } from '../signature';
import { commonSuperType } from '../type-rules';
import { rawReader } from '../vector-ops';

function requireMap(name: string, types: readonly DataType[]): DataType {
  if (types[0].name === 'NULL') return Types.map(Types.NULL, Types.NULL);
  if (types[0].name !== 'MAP') throw badArgs(name, types);
  return types[0];
}

function requireStruct(name: string, types: readonly DataType[]): DataType {
  if (types[0].name !== 'STRUCT') throw badArgs(name, types);
  return types[0];
}

/** The entries (STRUCT<key, value>) of a map vector, compact or not. */
function entriesOf(vec: Vector): StructVector {
  return (vec as ArrayVector).child as StructVector;
}

/** An ARRAY of one entry field (0 keys, 1 values) under the map's offsets: a view, no copy. */
function fieldView(fieldIdx: number) {
  return (args: readonly Vector[], _rowCount: number, site: CallSite): Vector => {
    const map = args[0] as ArrayVector;
    return { kind: 'array', type: site.returnType, length: map.length, offsets: map.offsets, child: entriesOf(map).children[fieldIdx], nulls: map.nulls };
  };
}

/** A result built row by row: `row` gives the raw value of each row (null for NULL). */
function buildRows(type: DataType, rowCount: number, row: (rowIdx: number) => RawValue): Vector {
  const builder = new VectorBuilder(type, rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) builder.append(row(rowIdx));
  return builder.finish();
}

function mapKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const readers = args.map(rawReader);
  return buildRows(site.returnType, rowCount, (rowIdx) => {
    const entries: RawValue[][] = [];
    for (let argIdx = 0; argIdx + 1 < readers.length; argIdx += 2) entries.push([readers[argIdx](rowIdx), readers[argIdx + 1](rowIdx)]);
    return dedupeMapEntries(entries);
  });
}

function sizeKernel(args: readonly Vector[], rowCount: number): Vector {
  const map = args[0] as ArrayVector;
  const out = new BigInt64Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = BigInt(map.offsets[rowIdx + 1] - map.offsets[rowIdx]);
  return { kind: 'fixed', type: Types.BIGINT, length: rowCount, values: out, nulls: null };
}

/** map_contains_key / _value / _entry: whether an entry matches (a NULL probe finds a NULL key or value). */
function containsKernel(matchKey: boolean, matchValue: boolean) {
  return (args: readonly Vector[], rowCount: number): Vector => {
    const map = args[0] as ArrayVector;
    const entries = entriesOf(map);
    const readKey = rawReader(entries.children[0]);
    const readValue = rawReader(entries.children[1]);
    const probeKey = matchKey ? rawReader(args[1]) : null;
    const probeValue = matchValue ? rawReader(args[matchKey ? 2 : 1]) : null;
    const out = new Uint8Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (map.nulls !== null && map.nulls[rowIdx] === 1) continue;
      const key = probeKey === null ? undefined : probeKey(rowIdx);
      const value = probeValue === null ? undefined : probeValue(rowIdx);
      for (let entryIdx = map.offsets[rowIdx]; entryIdx < map.offsets[rowIdx + 1]; entryIdx++) {
        if ((key === undefined || readKey(entryIdx) === key) && (value === undefined || readValue(entryIdx) === value)) {
          out[rowIdx] = 1;
          break;
        }
      }
    }
    return { kind: 'fixed', type: Types.BOOLEAN, length: rowCount, values: out, nulls: map.nulls };
  };
}

/** map_from_arrays(keys, values): pairs by position; arrays of different sizes are Doris's error. */
function fromArraysKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  return buildRows(site.returnType, rowCount, (rowIdx) => {
    const keys = getRaw(args[0], rowIdx) as RawArray | null;
    const values = getRaw(args[1], rowIdx) as RawArray | null;
    if (keys === null || values === null) return null;
    if (keys.length !== values.length) throw galeneError('INVALID_ARGUMENT', `function map_from_arrays's 2 array argument size not equal: ${keys.length} and ${values.length}`);
    return dedupeMapEntries(keys.map((key, idx) => [key, values[idx]]));
  });
}

/** deduplicate_map / map_from_entries: the same entries, each key once (its last value). */
function dedupeKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  return buildRows(site.returnType, rowCount, (rowIdx) => {
    const entries = getRaw(args[0], rowIdx) as RawArray | null;
    return entries === null ? null : dedupeMapEntries(entries.filter((entry) => entry !== null) as RawArray[]);
  });
}

/** str_to_map(str[, pair_delimiter[, key_value_delimiter]]): defaults ',' and ':'; a pair without the delimiter has a NULL value. */
function strToMapKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const readers = args.map(rawReader);
  return buildRows(site.returnType, rowCount, (rowIdx) => {
    const text = readers[0](rowIdx) as string;
    const pairDelim = readers.length > 1 ? (readers[1](rowIdx) as string) : ',';
    const kvDelim = readers.length > 2 ? (readers[2](rowIdx) as string) : ':';
    if (text.length === 0) return [];
    const entries: RawValue[][] = text.split(pairDelim).map((pair) => {
      const at = kvDelim.length === 0 ? -1 : pair.indexOf(kvDelim);
      return at < 0 ? [pair, null] : [pair.slice(0, at), pair.slice(at + kvDelim.length)];
    });
    return dedupeMapEntries(entries);
  });
}

/** struct / named_struct: the fields are the (value) arguments' vectors as they are. */
function structKernel(valueArgStep: number) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const fields = structFields(site.returnType);
    const children = fields.map((field, fieldIdx) => ({ ...args[fieldIdx * valueArgStep + valueArgStep - 1], type: field.type }) as Vector);
    return { kind: 'struct', type: site.returnType, length: rowCount, children, nulls: null };
  };
}

/** The field index struct_element names: a 1-based position or a field name (a literal either way). */
function structFieldIndex(structType: DataType, selector: RawValue | undefined): number {
  const fields = structFields(structType);
  if (typeof selector === 'string') {
    const at = fields.findIndex((field) => field.name.toLowerCase() === selector.toLowerCase());
    if (at < 0) throw galeneError('INVALID_ARGUMENT', `the specified field name ${selector} was not found: ${structType.name}`);
    return at;
  }
  if (typeof selector === 'number' || typeof selector === 'bigint') {
    const position = Number(selector);
    if (!Number.isInteger(position) || position < 1 || position > fields.length) throw galeneError('INVALID_ARGUMENT', `the specified field index out of bound: ${position}`);
    return position - 1;
  }
  throw galeneError('INVALID_ARGUMENT', 'struct_element only allows constant int or string second parameter');
}

function structElementKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const source = args[0] as StructVector;
  const selector = getRaw(args[1], 0);
  const fieldIdx = structFieldIndex(source.type, selector === null ? undefined : selector);
  const field = source.children[fieldIdx];
  if (source.nulls === null) return field;
  // A NULL struct's field is NULL whatever the field vector holds under it.
  const nulls = new Uint8Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) nulls[rowIdx] = source.nulls[rowIdx] | (field.nulls === null ? 0 : field.nulls[rowIdx]);
  return { ...field, type: site.returnType, nulls } as Vector;
}

function resolveMap(types: readonly DataType[]) {
  if (types.length % 2 !== 0) throw galeneError('INVALID_ARGUMENT', 'map() needs an even number of arguments (key, value pairs)');
  const keyType = commonSuperType(types.filter((_type, idx) => idx % 2 === 0), 'map');
  const valueType = commonSuperType(types.filter((_type, idx) => idx % 2 === 1), 'map');
  return { argTypes: types.map((_type, idx) => (idx % 2 === 0 ? keyType : valueType)), returnType: Types.map(keyType, valueType) };
}

function resolveNamedStruct(types: readonly DataType[], literals?: ArgLiterals) {
  if (types.length === 0 || types.length % 2 !== 0) throw galeneError('INVALID_ARGUMENT', 'named_struct requires an even number of arguments');
  const fields: { name: string; type: DataType }[] = [];
  for (let argIdx = 0; argIdx < types.length; argIdx += 2) {
    const name = literals?.[argIdx];
    if (typeof name !== 'string') throw galeneError('INVALID_ARGUMENT', 'named_struct only allows constant string parameter in odd position');
    if (fields.some((field) => field.name.toLowerCase() === name.toLowerCase())) throw galeneError('INVALID_ARGUMENT', `The name of the struct field cannot be repeated. same name detected: ${name}`);
    fields.push({ name, type: types[argIdx + 1].name === 'NULL' ? Types.TINYINT : types[argIdx + 1] });
  }
  return { argTypes: types.map((type, idx) => (idx % 2 === 0 ? type : fields[idx >> 1].type)), returnType: Types.struct(fields) };
}

/** array_zip(a1, a2, ...): ARRAY<STRUCT<col1, col2, ...>> pairing the arrays by position; sizes must match. */
function arrayZipKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  return buildRows(site.returnType, rowCount, (rowIdx) => {
    const arrays = args.map((vec) => getRaw(vec, rowIdx) as RawArray | null);
    if (arrays.some((array) => array === null)) return null;
    const size = arrays[0]!.length;
    if (arrays.some((array) => array!.length !== size)) throw galeneError('INVALID_ARGUMENT', 'function array_zip\'s arrays must have the same size');
    return Array.from({ length: size }, (_v, elemIdx) => arrays.map((array) => array![elemIdx]));
  });
}

const SAMPLE_MAP = "map('a', 1, 'b', 2)";

export const MAP_FUNCTIONS: readonly FunctionDef[] = [
  defineFunction({
    name: 'array_zip',
    family: 'array',
    args: [rest('arr')],
    returns: 'ARRAY<STRUCT<col1, col2, ...>>',
    resolve: (types) => {
      if (types.some((type) => type.name !== 'ARRAY')) throw badArgs('array_zip', types);
      const fields = types.map((type, idx) => ({ name: `col${idx + 1}`, type: elementType(type).name === 'NULL' ? Types.TINYINT : elementType(type) }));
      return { argTypes: fields.map((field) => Types.array(field.type)), returnType: Types.array(Types.struct(fields)) };
    },
    kernel: arrayZipKernel,
    description: 'An array of structs pairing the arrays element by element (the arrays must have one size); NULL when an array is NULL.',
    example: "SELECT array_zip([1, 2], ['a', 'b'])",
  }),
  defineFunction({
    name: 'map',
    family: 'array',
    args: [rest('key, value', undefined, true)],
    returns: 'MAP<common key type, common value type>',
    resolve: resolveMap,
    nulls: 'custom',
    kernel: mapKernel,
    description: 'A map of the key/value argument pairs (a repeated key keeps its last value); NULL keys and values are kept.',
    example: "SELECT map('a', 1, 'b', 2), map()",
  }),
  defineFunction({
    name: 'map_size',
    family: 'array',
    args: [arg('map')],
    returns: Types.BIGINT,
    resolve: (types) => ({ argTypes: [requireMap('map_size', types)], returnType: Types.BIGINT }),
    kernel: sizeKernel,
    description: 'Number of entries of a map; NULL for a NULL map.',
    example: `SELECT map_size(${SAMPLE_MAP})`,
  }),
  defineFunction({
    name: 'map_keys',
    family: 'array',
    args: [arg('map')],
    returns: 'ARRAY<key type>',
    resolve: (types) => {
      const mapType = requireMap('map_keys', types);
      return { argTypes: [mapType], returnType: Types.array(mapKeyType(mapType)) };
    },
    kernel: fieldView(0),
    description: 'The keys of a map as an array, in entry order; NULL for a NULL map.',
    example: `SELECT map_keys(${SAMPLE_MAP})`,
  }),
  defineFunction({
    name: 'map_values',
    family: 'array',
    args: [arg('map')],
    returns: 'ARRAY<value type>',
    resolve: (types) => {
      const mapType = requireMap('map_values', types);
      return { argTypes: [mapType], returnType: Types.array(mapValueType(mapType)) };
    },
    kernel: fieldView(1),
    description: 'The values of a map as an array, in entry order; NULL for a NULL map.',
    example: `SELECT map_values(${SAMPLE_MAP})`,
  }),
  defineFunction({
    name: 'map_entries',
    family: 'array',
    args: [arg('map')],
    returns: 'ARRAY<STRUCT<key, value>>',
    resolve: (types) => {
      const mapType = requireMap('map_entries', types);
      return { argTypes: [mapType], returnType: Types.array(elementType(mapType)) };
    },
    kernel: (args, _rowCount, site) => ({ ...(args[0] as ArrayVector), type: site.returnType }),
    description: 'The entries of a map as an array of STRUCT<key, value>; NULL for a NULL map.',
    example: `SELECT map_entries(${SAMPLE_MAP})`,
  }),
  defineFunction({
    name: 'map_contains_key',
    family: 'array',
    args: [arg('map'), arg('key')],
    returns: Types.BOOLEAN,
    resolve: (types) => {
      const mapType = requireMap('map_contains_key', types);
      const keyType = commonSuperType([mapKeyType(mapType), types[1]], 'map_contains_key');
      return { argTypes: [Types.map(keyType, mapValueType(mapType)), keyType], returnType: Types.BOOLEAN };
    },
    nulls: 'custom',
    kernel: containsKernel(true, false),
    description: 'Whether the map has the key (a NULL key finds a NULL key); NULL for a NULL map.',
    example: `SELECT map_contains_key(${SAMPLE_MAP}, 'a')`,
  }),
  defineFunction({
    name: 'map_contains_value',
    family: 'array',
    args: [arg('map'), arg('value')],
    returns: Types.BOOLEAN,
    resolve: (types) => {
      const mapType = requireMap('map_contains_value', types);
      const valueType = commonSuperType([mapValueType(mapType), types[1]], 'map_contains_value');
      return { argTypes: [Types.map(mapKeyType(mapType), valueType), valueType], returnType: Types.BOOLEAN };
    },
    nulls: 'custom',
    kernel: containsKernel(false, true),
    description: 'Whether the map has the value (a NULL value finds a NULL value); NULL for a NULL map.',
    example: `SELECT map_contains_value(${SAMPLE_MAP}, 2)`,
  }),
  defineFunction({
    name: 'map_contains_entry',
    family: 'array',
    args: [arg('map'), arg('key'), arg('value')],
    returns: Types.BOOLEAN,
    resolve: (types) => {
      const mapType = requireMap('map_contains_entry', types);
      const keyType = commonSuperType([mapKeyType(mapType), types[1]], 'map_contains_entry');
      const valueType = commonSuperType([mapValueType(mapType), types[2]], 'map_contains_entry');
      return { argTypes: [Types.map(keyType, valueType), keyType, valueType], returnType: Types.BOOLEAN };
    },
    nulls: 'custom',
    kernel: containsKernel(true, true),
    description: 'Whether the map has an entry with both the key and the value; NULL for a NULL map.',
    example: `SELECT map_contains_entry(${SAMPLE_MAP}, 'b', 2)`,
  }),
  defineFunction({
    name: 'map_from_arrays',
    family: 'array',
    args: [arg('keys'), arg('values')],
    returns: 'MAP<key element type, value element type>',
    resolve: (types) => {
      if (types[0].name !== 'ARRAY' || types[1].name !== 'ARRAY') throw badArgs('map_from_arrays', types);
      return { argTypes: types, returnType: Types.map(elementType(types[0]), elementType(types[1])) };
    },
    kernel: fromArraysKernel,
    description: 'A map pairing two arrays by position (arrays of different sizes are an error); NULL when either is NULL.',
    example: "SELECT map_from_arrays([1, 2], ['a', 'b'])",
  }),
  defineFunction({
    name: 'map_from_entries',
    family: 'array',
    args: [arg('entries')],
    returns: 'MAP<field 1 type, field 2 type>',
    resolve: (types) => {
      const entry = types[0].name === 'ARRAY' ? elementType(types[0]) : Types.NULL;
      const fields = structFields(entry);
      if (fields.length !== 2) throw badArgs('map_from_entries', types);
      return { argTypes: types, returnType: Types.map(fields[0].type, fields[1].type) };
    },
    kernel: dedupeKernel,
    description: 'A map from an array of two-field structs (key, value); NULL entries are skipped.',
    example: "SELECT map_from_entries([struct(1, 'a'), struct(2, 'b')])",
  }),
  defineFunction({
    name: 'deduplicate_map',
    family: 'array',
    args: [arg('map')],
    returns: 'type of map',
    resolve: (types) => {
      const mapType = requireMap('deduplicate_map', types);
      return { argTypes: [mapType], returnType: mapType };
    },
    kernel: dedupeKernel,
    description: 'The map with each key once, holding its last value.',
    example: `SELECT deduplicate_map(${SAMPLE_MAP})`,
  }),
  defineFunction({
    name: 'str_to_map',
    family: 'array',
    args: [arg('str', 'STRING'), opt('pair_delimiter', 'STRING'), opt('key_value_delimiter', 'STRING')],
    returns: Types.map(Types.STRING, Types.STRING),
    kernel: strToMapKernel,
    description: "A MAP<STRING, STRING> split from text: pairs by pair_delimiter (default ','), key from value by key_value_delimiter (default ':'); a pair without it has a NULL value.",
    example: "SELECT str_to_map('a:1,b:2')",
  }),
  defineFunction({
    name: 'struct',
    family: 'array',
    args: [rest('value')],
    returns: 'STRUCT<col1, col2, ...>',
    resolve: (types) => {
      const fields = types.map((type, idx) => ({ name: `col${idx + 1}`, type: type.name === 'NULL' ? Types.TINYINT : type }));
      return { argTypes: fields.map((field) => field.type), returnType: Types.struct(fields) };
    },
    nulls: 'custom',
    kernel: structKernel(1),
    description: 'A struct of the arguments, its fields named col1, col2, ...',
    example: "SELECT struct(1, 'a', NULL)",
  }),
  defineFunction({
    name: 'named_struct',
    family: 'array',
    args: [rest('name, value')],
    returns: 'STRUCT<name1, name2, ...>',
    resolve: resolveNamedStruct,
    nulls: 'custom',
    kernel: structKernel(2),
    description: 'A struct whose fields are named by the constant string arguments in odd positions and take the values after them.',
    example: "SELECT named_struct('id', 1, 'name', 'x')",
  }),
  defineFunction({
    name: 'struct_element',
    family: 'array',
    args: [arg('struct'), arg('field')],
    returns: 'type of the field',
    resolve: (types, literals) => {
      const structType = requireStruct('struct_element', types);
      const fieldIdx = structFieldIndex(structType, literals?.[1] ?? undefined);
      return { argTypes: types, returnType: structFields(structType)[fieldIdx].type };
    },
    nulls: 'custom',
    kernel: structElementKernel,
    description: 'A field of a struct, named by a constant string or 1-based position; NULL for a NULL struct.',
    example: "SELECT struct_element(named_struct('a', 1, 'b', 'x'), 'b'), struct_element(struct(1, 2), 1)",
  }),
];

/** element_at(map, key) / `m[key]`: the value of the key's last entry, NULL when absent (array-functions.ts dispatches here). */
export function mapElementAtKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const map = args[0] as ArrayVector;
  if (map.child.length === 0) return constantVector(site.returnType, null, rowCount);
  const entries = entriesOf(map);
  const readKey = rawReader(entries.children[0]);
  const readValue = rawReader(entries.children[1]);
  const probe = rawReader(args[1]);
  return buildRows(site.returnType, rowCount, (rowIdx) => {
    const key = probe(rowIdx);
    for (let entryIdx = map.offsets[rowIdx + 1] - 1; entryIdx >= map.offsets[rowIdx]; entryIdx--) if (readKey(entryIdx) === key) return readValue(entryIdx);
    return null;
  });
}
