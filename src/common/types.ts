/**
 * SQL data types and their in-memory (physical) layout.
 *
 * Every layer (storage, exec, protocol) agrees on one mapping from logical type to the typed array that
 * holds its values, so a page decoded by storage is handed to an operator without conversion:
 *
 * | logical                | physical (Vector.values)                                  |
 * |------------------------|-----------------------------------------------------------|
 * | BOOLEAN                | Uint8Array (0/1)                                          |
 * | TINYINT/SMALLINT/INT   | Int8Array / Int16Array / Int32Array                       |
 * | BIGINT                 | BigInt64Array                                             |
 * | LARGEINT               | bigint[] (128-bit, rare)                                  |
 * | FLOAT / DOUBLE         | Float32Array / Float64Array                               |
 * | DECIMAL(p<=15, s)      | Float64Array of integers scaled by 10^s (exact below 2^53) |
 * | DECIMAL(p>15, s)       | bigint[] of integers scaled by 10^s                       |
 * | DATE                   | Int32Array, days since 1970-01-01                         |
 * | DATETIME               | Float64Array, microseconds since 1970-01-01 00:00:00      |
 * | CHAR/VARCHAR/STRING    | StringVector: offsets (Int32Array n+1) + UTF-8 bytes      |
 * | NULL (literal NULL)    | Uint8Array of zeros, every row null                       |
 * | ARRAY<T>               | ArrayVector: offsets (Int32Array n+1) + child vector of T  |
 * | MAP<K,V>               | ArrayVector of STRUCT<key:K,value:V> entries (Arrow's map: offsets + keys + values) |
 * | STRUCT<f:T,...>        | StructVector: one child vector per field + the rows' null map |
 * | JSON (JSONB)           | StringVector of canonical JSON text (parsed and normalised once, at load) |
 * | BITMAP / HLL / QUANTILE_STATE | StringVector of serialized bytes (bitmap-value.ts, hll-value.ts, quantile-state.ts) |
 * | IPV4                   | Float64Array of the address number 0..2^32-1 (common/ip.ts) |
 * | IPV6                   | bigint[]: the address number - 2^127 (order-preserving, common/ip.ts) |
 *
 * Imports nothing: common/ is the bottom layer.
 */

export type TypeName =
  | 'NULL'
  | 'BOOLEAN'
  | 'TINYINT'
  | 'SMALLINT'
  | 'INT'
  | 'BIGINT'
  | 'LARGEINT'
  | 'FLOAT'
  | 'DOUBLE'
  | 'DECIMAL'
  | 'DATE'
  | 'DATETIME'
  | 'CHAR'
  | 'VARCHAR'
  | 'STRING'
  | 'ARRAY'
  | 'MAP'
  | 'STRUCT'
  | 'JSON'
  | 'BITMAP'
  | 'HLL'
  | 'QUANTILE_STATE'
  | 'IPV4'
  | 'IPV6';

export interface DataType {
  readonly name: TypeName;
  /** DECIMAL precision (1..38). */
  readonly precision?: number;
  /** DECIMAL scale (0..precision); DATETIME fractional digits (0..6). */
  readonly scale?: number;
  /** CHAR/VARCHAR declared length in characters. */
  readonly length?: number;
  /** ARRAY element type (elements are always nullable, as in Doris); for MAP the entry STRUCT<key:K,value:V>. */
  readonly element?: DataType;
  /** STRUCT fields, in order (every field is nullable, as in Doris). */
  readonly fields?: readonly StructField[];
}

export interface StructField {
  readonly name: string;
  readonly type: DataType;
}

/** Largest DECIMAL precision held exactly as a scaled float64 integer. */
export const DECIMAL_NUMBER_MAX_PRECISION = 15;
export const VARCHAR_MAX_LENGTH = 65533;
export const STRING_MAX_BYTES = 2147483643;

const simple = (name: TypeName): DataType => Object.freeze({ name });

export const Types = Object.freeze({
  NULL: simple('NULL'),
  BOOLEAN: simple('BOOLEAN'),
  TINYINT: simple('TINYINT'),
  SMALLINT: simple('SMALLINT'),
  INT: simple('INT'),
  BIGINT: simple('BIGINT'),
  LARGEINT: simple('LARGEINT'),
  FLOAT: simple('FLOAT'),
  DOUBLE: simple('DOUBLE'),
  DATE: simple('DATE'),
  DATETIME: simple('DATETIME'),
  STRING: simple('STRING'),
  JSON: simple('JSON'),
  BITMAP: simple('BITMAP'),
  HLL: simple('HLL'),
  QUANTILE_STATE: simple('QUANTILE_STATE'),
  IPV4: simple('IPV4'),
  IPV6: simple('IPV6'),
  decimal: (precision: number, scale: number): DataType => Object.freeze({ name: 'DECIMAL', precision, scale }),
  varchar: (length: number): DataType => Object.freeze({ name: 'VARCHAR', length }),
  char: (length: number): DataType => Object.freeze({ name: 'CHAR', length }),
  datetime: (scale: number): DataType => (scale ? Object.freeze({ name: 'DATETIME', scale }) : Types.DATETIME),
  array: (element: DataType): DataType => Object.freeze({ name: 'ARRAY', element }),
  struct: (fields: readonly StructField[]): DataType => Object.freeze({ name: 'STRUCT', fields: Object.freeze(fields.map((field) => Object.freeze({ ...field }))) }),
  /** A map is a list of key/value entries, so every ARRAY path (offsets, pages, slices) carries it. */
  map: (key: DataType, value: DataType): DataType =>
    Object.freeze({ name: 'MAP', element: Types.struct([{ name: 'key', type: key }, { name: 'value', type: value }]) }),
});

export function isMapType(t: DataType): boolean {
  return t.name === 'MAP';
}

export function isStructType(t: DataType): boolean {
  return t.name === 'STRUCT';
}

/** The fields of a STRUCT type (none for anything else). */
export function structFields(t: DataType): readonly StructField[] {
  return t.fields ?? [];
}

export function mapKeyType(t: DataType): DataType {
  return structFields(elementType(t))[0]?.type ?? Types.NULL;
}

export function mapValueType(t: DataType): DataType {
  return structFields(elementType(t))[1]?.type ?? Types.NULL;
}

export function isArrayType(t: DataType): boolean {
  return t.name === 'ARRAY';
}

/** The element type of an ARRAY type (NULL for anything else, e.g. the element of `[]`). */
export function elementType(t: DataType): DataType {
  return t.element ?? Types.NULL;
}

export function isIntegerType(t: DataType): boolean {
  return t.name === 'TINYINT' || t.name === 'SMALLINT' || t.name === 'INT' || t.name === 'BIGINT' || t.name === 'LARGEINT';
}

export function isStringType(t: DataType): boolean {
  return t.name === 'CHAR' || t.name === 'VARCHAR' || t.name === 'STRING';
}

export function isNumericType(t: DataType): boolean {
  return isIntegerType(t) || t.name === 'FLOAT' || t.name === 'DOUBLE' || t.name === 'DECIMAL' || t.name === 'BOOLEAN';
}

export function isTemporalType(t: DataType): boolean {
  return t.name === 'DATE' || t.name === 'DATETIME';
}

/**
 * BITMAP, HLL and QUANTILE_STATE: opaque serialized states (binary bytes in a StringVector). They are never decoded as
 * text, compared, sorted or grouped; only their own functions read them (Doris's "object" types).
 */
export function isSketchType(t: DataType): boolean {
  return t.name === 'BITMAP' || t.name === 'HLL' || t.name === 'QUANTILE_STATE';
}

/** True when DECIMAL values are bigint (precision above what a float64 holds exactly). */
export function isWideDecimal(t: DataType): boolean {
  return t.name === 'DECIMAL' && (t.precision ?? 9) > DECIMAL_NUMBER_MAX_PRECISION;
}

/** Physical storage class of a type; storage and exec switch on this, not on the logical name. */
export type PhysicalKind = 'u8' | 'i8' | 'i16' | 'i32' | 'i64' | 'f32' | 'f64' | 'bigint' | 'string' | 'list' | 'struct';

export function physicalKind(t: DataType): PhysicalKind {
  switch (t.name) {
    case 'NULL':
    case 'BOOLEAN':
      return 'u8';
    case 'TINYINT':
      return 'i8';
    case 'SMALLINT':
      return 'i16';
    case 'INT':
    case 'DATE':
      return 'i32';
    case 'BIGINT':
      return 'i64';
    case 'LARGEINT':
    case 'IPV6':
      return 'bigint';
    case 'FLOAT':
      return 'f32';
    case 'DOUBLE':
    case 'DATETIME':
    case 'IPV4':
      return 'f64';
    case 'DECIMAL':
      return isWideDecimal(t) ? 'bigint' : 'f64';
    case 'CHAR':
    case 'VARCHAR':
    case 'STRING':
    case 'JSON':
    case 'BITMAP':
    case 'HLL':
    case 'QUANTILE_STATE':
      return 'string';
    case 'ARRAY':
    case 'MAP':
      return 'list';
    case 'STRUCT':
      return 'struct';
  }
}

/** Bytes per value for fixed-width physical kinds (0 for string, bigint and list). */
export function fixedWidth(kind: PhysicalKind): number {
  switch (kind) {
    case 'u8':
    case 'i8':
      return 1;
    case 'i16':
      return 2;
    case 'i32':
    case 'f32':
      return 4;
    case 'i64':
    case 'f64':
      return 8;
    default:
      return 0;
  }
}

/** Doris spelling of a type, as SHOW CREATE TABLE and DESC print it. */
export function typeToSql(t: DataType): string {
  switch (t.name) {
    case 'DECIMAL':
      return `DECIMAL(${t.precision ?? 9},${t.scale ?? 0})`;
    case 'CHAR':
      return `CHAR(${t.length ?? 1})`;
    case 'VARCHAR':
      return `VARCHAR(${t.length ?? VARCHAR_MAX_LENGTH})`;
    case 'DATETIME':
      return t.scale ? `DATETIME(${t.scale})` : 'DATETIME';
    case 'ARRAY':
      return `ARRAY<${typeToSql(elementType(t))}>`;
    case 'MAP':
      return `MAP<${typeToSql(mapKeyType(t))},${typeToSql(mapValueType(t))}>`;
    case 'STRUCT':
      return `STRUCT<${structFields(t).map((field) => `${field.name}:${typeToSql(field.type)}`).join(',')}>`;
    default:
      return t.name;
  }
}

export function typesEqual(a: DataType, b: DataType): boolean {
  if (a.name !== b.name || a.precision !== b.precision || a.scale !== b.scale || a.length !== b.length) return false;
  if (a.fields !== undefined || b.fields !== undefined) {
    const left = structFields(a);
    const right = structFields(b);
    return left.length === right.length && left.every((field, fieldIdx) => field.name === right[fieldIdx].name && typesEqual(field.type, right[fieldIdx].type));
  }
  return a.element === undefined || b.element === undefined ? a.element === b.element : typesEqual(a.element, b.element);
}

/** Serialisable form of a type (metadata, segment footers, WAL batches). */
export interface TypeJson {
  name: TypeName;
  precision?: number;
  scale?: number;
  length?: number;
  element?: TypeJson;
  fields?: { name: string; type: TypeJson }[];
}

/** Serialisable form for metadata and segment footers. */
export function typeToJson(t: DataType): TypeJson {
  const out: TypeJson = { name: t.name };
  if (t.precision !== undefined) out.precision = t.precision;
  if (t.scale !== undefined) out.scale = t.scale;
  if (t.length !== undefined) out.length = t.length;
  if (t.element !== undefined) out.element = typeToJson(t.element);
  if (t.fields !== undefined) out.fields = t.fields.map((field) => ({ name: field.name, type: typeToJson(field.type) }));
  return out;
}

export function typeFromJson(j: TypeJson): DataType {
  if (j.fields !== undefined) return Types.struct(j.fields.map((field) => ({ name: field.name, type: typeFromJson(field.type) })));
  if (j.element !== undefined) return Object.freeze({ ...j, element: typeFromJson(j.element) });
  return Object.freeze({ ...j } as DataType);
}
