/**
 * Table functions over JSON text (a JSON column or a string holding JSON): explode_json_array_int /
 * _double / _string / _json (the elements of an array, converted as Doris's JSON conversions do: an
 * element that does not convert is NULL), explode_json_object and json_each (key and JSON value per
 * member), json_each_text (the value as text: strings without quotes, JSON null as SQL NULL). Text that is
 * not JSON, or not an array / object, generates no row.
 */
import { VectorBuilder, type RawValue, type Vector } from '../../../common/column';
import { JsonObject, jsonToText, tryParseJson, type JsonValue } from '../../../common/json-value';
import { DataType, Types } from '../../../common/types';
import { badArgs } from '../function-registry';
import { toJsStrings } from '../vector-ops';
import type { GeneratedRows, TableFunctionDecl, TableFunctionResolution } from './table-function-registry';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function jsonArgument(name: string, types: readonly DataType[], columns: readonly DataType[]): TableFunctionResolution {
  const type = types[0];
  if (type.name === 'ARRAY') throw badArgs(name, types);
  return { argTypes: [type.name === 'JSON' ? type : Types.STRING], columns };
}

function toBigint(value: JsonValue): RawValue {
  let number: number;
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX ? value : null;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'boolean') number = value ? 1 : 0;
  else if (typeof value === 'string' && value.trim() !== '') number = Number(value);
  else return null;
  if (!Number.isFinite(number)) return null;
  const truncated = BigInt(Math.trunc(number));
  return truncated >= INT64_MIN && truncated < INT64_MAX ? truncated : null;
}

function toDouble(value: JsonValue): RawValue {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  }
  return null;
}

/** A JSON value as SQL text: strings without quotes, null as NULL, the rest as their JSON text. */
function toText(value: JsonValue): RawValue {
  if (value === null) return null;
  return typeof value === 'string' ? value : jsonToText(value);
}

function parsedRows(arg: Vector, rowCount: number): (JsonValue | undefined)[] {
  const texts = toJsStrings(arg);
  const out: (JsonValue | undefined)[] = new Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const text = texts[rowIdx];
    out[rowIdx] = text === null ? undefined : tryParseJson(text);
  }
  return out;
}

function arrayKernel(convert: (value: JsonValue) => RawValue) {
  return (args: readonly Vector[], rowCount: number, columns: readonly DataType[]): GeneratedRows => {
    const parsed = parsedRows(args[0], rowCount);
    const parents: number[] = [];
    const out = new VectorBuilder(columns[0], rowCount * 4);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const value = parsed[rowIdx];
      if (!Array.isArray(value)) continue;
      for (const element of value) {
        parents.push(rowIdx);
        out.append(convert(element));
      }
    }
    return { parentRows: Int32Array.from(parents), columns: [out.finish()] };
  };
}

function objectKernel(valueAsText: boolean) {
  return (args: readonly Vector[], rowCount: number, columns: readonly DataType[]): GeneratedRows => {
    const parsed = parsedRows(args[0], rowCount);
    const parents: number[] = [];
    const keys = new VectorBuilder(columns[0], rowCount * 4);
    const values = new VectorBuilder(columns[1], rowCount * 4);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const value = parsed[rowIdx];
      if (!(value instanceof JsonObject)) continue;
      for (let memberIdx = 0; memberIdx < value.keys.length; memberIdx++) {
        parents.push(rowIdx);
        keys.append(value.keys[memberIdx]);
        values.append(valueAsText ? toText(value.values[memberIdx]) : jsonToText(value.values[memberIdx]));
      }
    }
    return { parentRows: Int32Array.from(parents), columns: [keys.finish(), values.finish()] };
  };
}

function jsonArrayDecl(suffix: string, column: DataType, convert: (value: JsonValue) => RawValue, what: string, example: string): TableFunctionDecl {
  const name = `explode_json_array_${suffix}`;
  return {
    name,
    outer: true,
    signature: `${name}(json) -> ${column.name === 'STRING' ? 'VARCHAR' : column.name}`,
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => jsonArgument(name, types, [column]),
    kernel: arrayKernel(convert),
    description: `One row per element of a JSON array, ${what}; text that is not a JSON array generates no row.`,
    example: `SELECT e FROM (SELECT 1) t LATERAL VIEW ${name}('${example}') tmp AS e`,
  };
}

export const JSON_TABLE_FUNCTIONS: readonly TableFunctionDecl[] = [
  jsonArrayDecl('int', Types.BIGINT, toBigint, 'as BIGINT (numbers truncated, numeric strings parsed, anything else NULL)', '[1, 2.7, "3", "x"]'),
  jsonArrayDecl('double', Types.DOUBLE, toDouble, 'as DOUBLE (numeric strings parsed, anything else NULL)', '[1.5, 2, "x"]'),
  jsonArrayDecl('string', Types.STRING, toText, 'as text (strings without quotes, other values as JSON text, null as NULL)', '["a", 1, null]'),
  jsonArrayDecl('json', Types.JSON, (value) => jsonToText(value), 'as JSON', '[{"a": 1}, [2], 3]'),
  {
    name: 'explode_json_object',
    outer: true,
    signature: 'explode_json_object(json) -> VARCHAR key, JSON value',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => jsonArgument('explode_json_object', types, [Types.STRING, Types.JSON]),
    kernel: objectKernel(false),
    description: 'One row per member of a JSON object: its key and its value as JSON; anything but an object generates no row.',
    example: `SELECT k, v FROM (SELECT 1) t LATERAL VIEW explode_json_object('{"a": 1, "b": "x"}') tmp AS k, v`,
  },
  {
    name: 'json_each',
    outer: true,
    signature: 'json_each(json) -> VARCHAR key, JSON value',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => jsonArgument('json_each', types, [Types.STRING, Types.JSON]),
    kernel: objectKernel(false),
    description: 'One row per member of a JSON object: its key and its value as JSON.',
    example: `SELECT k, v FROM (SELECT 1) t LATERAL VIEW json_each('{"a": 1, "b": "x"}') tmp AS k, v`,
  },
  {
    name: 'json_each_text',
    outer: true,
    signature: 'json_each_text(json) -> VARCHAR key, VARCHAR value',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => jsonArgument('json_each_text', types, [Types.STRING, Types.STRING]),
    kernel: objectKernel(true),
    description: 'One row per member of a JSON object: its key and its value as text (strings without quotes, JSON null as NULL).',
    example: `SELECT k, v FROM (SELECT 1) t LATERAL VIEW json_each_text('{"a": 1, "b": "x"}') tmp AS k, v`,
  },
];
