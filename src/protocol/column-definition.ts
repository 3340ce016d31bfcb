/**
 * How each Galene DataType appears in a MySQL column definition (Protocol::ColumnDefinition41): type code,
 * display length, flags, decimals and collation. Clients pick their value decoding from these (mysql2
 * returns numbers for LONG, a Buffer for binary-collated strings, Dates for DATE/DATETIME), so they must
 * match what Doris sends.
 *
 * LARGEINT goes out as MYSQL_TYPE_STRING with the utf8mb4 collation, as Doris's
 * PrimitiveType.toMysqlType() does (its default branch): a 128-bit integer fits no MySQL integer type,
 * and clients then hand it over as text instead of rounding it into a double. It keeps NUM_FLAG so
 * command-line clients right-align it.
 */
import type { ResultColumn } from '../common/result';
import { DataType, isSketchType, VARCHAR_MAX_LENGTH } from '../common/types';
import { Charset, ColumnFlag, MysqlType } from './constants';
import { PacketWriter } from './packet-writer';

export interface ColumnWireType {
  readonly type: MysqlType;
  /** Maximum display length (bytes for strings). */
  readonly length: number;
  readonly flags: number;
  readonly decimals: number;
  readonly charset: number;
}

/** MySQL's NOT_FIXED_DEC: "no fixed number of decimals", what MySQL sends for FLOAT/DOUBLE expressions. */
const NOT_FIXED_DEC = 31;
/** utf8mb4: up to 4 bytes per character. */
const MAX_BYTES_PER_CHAR = 4;

const numeric = (type: MysqlType, length: number, decimals = 0): ColumnWireType => ({
  type,
  length,
  flags: ColumnFlag.BINARY | ColumnFlag.NUM,
  decimals,
  charset: Charset.BINARY,
});
const temporal = (type: MysqlType, length: number, decimals: number): ColumnWireType => ({
  type,
  length,
  flags: ColumnFlag.BINARY,
  decimals,
  charset: Charset.BINARY,
});
const text = (length: number): ColumnWireType => ({
  type: MysqlType.VAR_STRING,
  length: Math.min(length * MAX_BYTES_PER_CHAR, 0xffffffff),
  flags: 0,
  decimals: 0,
  charset: Charset.UTF8MB4_GENERAL_CI,
});

/** The wire description of a column of `dataType`; `nullable === false` adds NOT_NULL. */
export function columnWireType(dataType: DataType, nullable?: boolean): ColumnWireType {
  const base = baseWireType(dataType);
  // A sketch state is sent as NULL, so its column is never declared NOT NULL (drivers trust the flag).
  if (nullable === false && !isSketchType(dataType)) return { ...base, flags: base.flags | ColumnFlag.NOT_NULL };
  return base;
}

function baseWireType(dataType: DataType): ColumnWireType {
  switch (dataType.name) {
    case 'NULL':
      return { type: MysqlType.NULL, length: 0, flags: ColumnFlag.BINARY, decimals: 0, charset: Charset.BINARY };
    case 'BOOLEAN':
      return numeric(MysqlType.TINY, 1);
    case 'TINYINT':
      return numeric(MysqlType.TINY, 4);
    case 'SMALLINT':
      return numeric(MysqlType.SHORT, 6);
    case 'INT':
      return numeric(MysqlType.LONG, 11);
    case 'BIGINT':
      return numeric(MysqlType.LONGLONG, 20);
    case 'LARGEINT':
      return { type: MysqlType.STRING, length: 40 * MAX_BYTES_PER_CHAR, flags: ColumnFlag.NUM, decimals: 0, charset: Charset.UTF8MB4_GENERAL_CI };
    case 'FLOAT':
      return numeric(MysqlType.FLOAT, 12, NOT_FIXED_DEC);
    case 'DOUBLE':
      return numeric(MysqlType.DOUBLE, 22, NOT_FIXED_DEC);
    case 'DECIMAL': {
      const precision = dataType.precision ?? 9;
      const scale = dataType.scale ?? 0;
      return numeric(MysqlType.NEWDECIMAL, precision + 2, scale);
    }
    case 'DATE':
      return temporal(MysqlType.DATE, 10, 0);
    case 'DATETIME': {
      const scale = dataType.scale ?? 0;
      return temporal(MysqlType.DATETIME, scale > 0 ? 20 + scale : 19, scale);
    }
    case 'CHAR':
      return text(dataType.length ?? 1);
    case 'VARCHAR':
      return text(dataType.length ?? VARCHAR_MAX_LENGTH);
    case 'STRING':
    case 'ARRAY': // arrays travel as text, as Doris sends them
    case 'MAP':
    case 'STRUCT':
    case 'JSON': // JSON travels as its text (a string column to clients, so drivers do not re-parse it)
    case 'BITMAP': // sketch states: a string column whose cells are NULL, as Doris sends them
    case 'HLL':
    case 'QUANTILE_STATE':
      return text(VARCHAR_MAX_LENGTH * 16);
    case 'IPV4': // addresses travel as their text, as Doris sends them
      return text(15);
    case 'IPV6':
      return text(39);
  }
}

/**
 * One ColumnDefinition41 packet. COM_FIELD_LIST replies carry one more field, the default value, which
 * Galene sends as NULL.
 */
export function writeColumnDefinition(writer: PacketWriter, column: ResultColumn, forFieldList = false): void {
  const wire = columnWireType(column.type, column.nullable);
  writer.begin();
  writer.lenencString('def');
  writer.lenencString(column.database ?? '');
  writer.lenencString(column.table ?? '');
  writer.lenencString(column.orgTable ?? '');
  writer.lenencString(column.name);
  writer.lenencString(column.orgName ?? '');
  writer.int1(0x0c);
  writer.int2(wire.charset);
  writer.int4(wire.length);
  writer.int1(wire.type);
  writer.int2(wire.flags);
  writer.int1(wire.decimals);
  writer.int2(0);
  if (forFieldList) writer.int1(0xfb);
  writer.end();
}

/** Column-definition payloads (without packet headers) per result-column list, for lists reused across replies. */
const definitionPayloads = new WeakMap<readonly ResultColumn[], readonly Buffer[]>();

/**
 * The ColumnDefinition41 packets of `columns`, written from payloads encoded once per list: a prepared
 * statement answers every execution with the same column list (its sequence ids still come from `writer`).
 */
export function writeColumnDefinitions(writer: PacketWriter, columns: readonly ResultColumn[]): void {
  let payloads = definitionPayloads.get(columns);
  if (payloads === undefined) {
    const scratch = new PacketWriter(256);
    payloads = columns.map((column) => {
      writeColumnDefinition(scratch, column);
      return scratch.take().subarray(4);
    });
    definitionPayloads.set(columns, payloads);
  }
  for (const payload of payloads) {
    writer.begin();
    writer.bytes(payload);
    writer.end();
  }
}
