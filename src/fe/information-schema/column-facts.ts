/**
 * How a Galene column type reads in information_schema (MySQL's COLUMNS columns): the lower-case DATA_TYPE
 * and COLUMN_TYPE Doris shows, the numeric precision and scale, character lengths and the character set.
 * MySQL's meanings: https://dev.mysql.com/doc/refman/8.0/en/information-schema-columns-table.html
 */
import type { RawValue } from '../../common/column';
import { mapKeyType, mapValueType, STRING_MAX_BYTES, structFields, VARCHAR_MAX_LENGTH, type DataType } from '../../common/types';

/** MySQL's NUMERIC_PRECISION for the integer and floating types (digits; DECIMAL carries its own). */
const NUMERIC_PRECISION: Partial<Record<DataType['name'], number>> = {
  BOOLEAN: 3,
  TINYINT: 3,
  SMALLINT: 5,
  INT: 10,
  BIGINT: 19,
  LARGEINT: 39,
  FLOAT: 12,
  DOUBLE: 22,
};

/** DATA_TYPE: the type's lower-case name, as Doris lists it (STRING reads as MySQL's `text`). */
export function mysqlDataType(type: DataType): string {
  if (type.name === 'STRING') return 'text';
  if (type.name === 'BOOLEAN') return 'tinyint';
  return type.name.toLowerCase();
}

/**
 * A type as Doris's SHOW CREATE TABLE and DESC print it now: lower case with its parameters, e.g. `int`,
 * `varchar(20)`, `decimal(10,2)`, `datetime(3)`, `text` for STRING (what SQLAlchemy and dump tools parse).
 */
export function dorisTypeText(type: DataType): string {
  switch (type.name) {
    case 'DECIMAL':
      return `decimal(${type.precision ?? 9},${type.scale ?? 0})`;
    case 'CHAR':
      return `char(${type.length ?? 1})`;
    case 'VARCHAR':
      return `varchar(${type.length ?? VARCHAR_MAX_LENGTH})`;
    case 'DATETIME':
      return type.scale ? `datetime(${type.scale})` : 'datetime';
    case 'STRING':
      return 'text';
    case 'ARRAY':
      return `array<${dorisTypeText(type.element ?? { name: 'NULL' })}>`;
    case 'MAP':
      return `map<${dorisTypeText(mapKeyType(type))},${dorisTypeText(mapValueType(type))}>`;
    case 'STRUCT':
      return `struct<${structFields(type).map((field) => `${field.name}:${dorisTypeText(field.type)}`).join(',')}>`;
    default:
      return type.name.toLowerCase();
  }
}

/** COLUMN_TYPE: the full lower-case type; BOOLEAN reads as MySQL's `tinyint(1)` (JDBC maps it to BIT). */
export function mysqlColumnType(type: DataType): string {
  return type.name === 'BOOLEAN' ? 'tinyint(1)' : dorisTypeText(type);
}

/** The type-dependent COLUMNS values, in column order: CHARACTER_MAXIMUM_LENGTH .. COLLATION_NAME. */
export function columnTypeFacts(type: DataType): RawValue[] {
  const chars = type.name === 'CHAR' ? (type.length ?? 1) : type.name === 'VARCHAR' ? (type.length ?? VARCHAR_MAX_LENGTH) : type.name === 'STRING' ? STRING_MAX_BYTES : null;
  const precision = type.name === 'DECIMAL' ? (type.precision ?? 9) : (NUMERIC_PRECISION[type.name] ?? null);
  const scale = type.name === 'DECIMAL' ? (type.scale ?? 0) : type.name === 'FLOAT' || type.name === 'DOUBLE' || precision === null ? null : 0;
  const datetimePrecision = type.name === 'DATETIME' ? (type.scale ?? 0) : type.name === 'DATE' ? 0 : null;
  const big = (value: number | null) => (value === null ? null : BigInt(value));
  return [
    big(chars),
    big(chars === null ? null : type.name === 'STRING' ? chars : chars * 4),
    big(precision),
    big(scale),
    big(datetimePrecision),
    chars === null ? null : 'utf8mb4',
    chars === null ? null : 'utf8mb4_0900_bin',
  ];
}
