/**
 * Parameters of COM_STMT_EXECUTE in the binary protocol, decoded into protocol-neutral values the FE
 * turns into SQL values. https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_com_stmt_execute.html
 *
 * Layout after the statement id: flags (1), iteration count (4), then for n > 0 parameters: the NULL
 * bitmap ((n + 7) / 8 bytes, bit i = parameter i), new-params-bound flag (1) and, when it is 1, a
 * (type, flags) byte pair per parameter (flags 0x80 = unsigned); then the values of the parameters that
 * are neither NULL nor sent earlier as long data (COM_STMT_SEND_LONG_DATA), in order. When the flag is 0
 * the types of the previous execution of the same statement apply.
 */
import { GaleneError } from '../common/errors';
import { MysqlType } from './constants';
import type { PacketReader } from './packet-reader';

/** One decoded parameter value. */
export type BinaryParam =
  | { readonly kind: 'null' }
  | { readonly kind: 'int'; readonly value: number | bigint; readonly unsigned: boolean }
  | { readonly kind: 'float'; readonly value: number; readonly single: boolean }
  | { readonly kind: 'decimal'; readonly text: string }
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'date'; readonly year: number; readonly month: number; readonly day: number }
  | {
      readonly kind: 'datetime';
      readonly year: number;
      readonly month: number;
      readonly day: number;
      readonly hour: number;
      readonly minute: number;
      readonly second: number;
      readonly micros: number;
    }
  | { readonly kind: 'time'; readonly negative: boolean; readonly days: number; readonly hour: number; readonly minute: number; readonly second: number; readonly micros: number };

export const NULL_PARAM: BinaryParam = Object.freeze({ kind: 'null' });

/** The type pair the client declared for a parameter. */
export interface ParamWireType {
  readonly type: number;
  readonly unsigned: boolean;
}

/** Per-statement state the execute packets rely on: declared types and long data chunks. */
export interface StatementWireState {
  readonly paramCount: number;
  types: ParamWireType[] | null;
  /** Chunks per parameter from COM_STMT_SEND_LONG_DATA since the last execute or reset. */
  longData: Map<number, Buffer[]>;
}

const UNSIGNED_FLAG = 0x80;

/** Decode the parameter block of an execute packet (the reader stands after the iteration count). */
export function readExecuteParams(reader: PacketReader, state: StatementWireState): BinaryParam[] {
  const count = state.paramCount;
  if (count === 0) return [];
  const nullBitmap = reader.bytes((count + 7) >> 3);
  const newParamsBound = reader.int1();
  if (newParamsBound === 1) {
    const types: ParamWireType[] = new Array<ParamWireType>(count);
    for (let paramIdx = 0; paramIdx < count; paramIdx++) {
      const type = reader.int1();
      const flags = reader.int1();
      types[paramIdx] = { type, unsigned: (flags & UNSIGNED_FLAG) !== 0 };
    }
    state.types = types;
  }
  const types = state.types;
  if (types === null) throw new GaleneError('WRONG_ARGUMENTS', ['mysqld_stmt_execute']);
  const params: BinaryParam[] = new Array<BinaryParam>(count);
  for (let paramIdx = 0; paramIdx < count; paramIdx++) {
    const long = state.longData.get(paramIdx);
    if (long !== undefined) {
      params[paramIdx] = longDataParam(types[paramIdx], Buffer.concat(long));
      continue;
    }
    if ((nullBitmap[paramIdx >> 3] & (1 << (paramIdx & 7))) !== 0) {
      params[paramIdx] = NULL_PARAM;
      continue;
    }
    params[paramIdx] = readValue(reader, types[paramIdx]);
  }
  return params;
}

function longDataParam(wire: ParamWireType, bytes: Buffer): BinaryParam {
  if (wire.type === MysqlType.NEWDECIMAL || wire.type === MysqlType.DECIMAL) return { kind: 'decimal', text: bytes.toString('latin1') };
  return { kind: 'string', text: bytes.toString('utf8') };
}

function readValue(reader: PacketReader, wire: ParamWireType): BinaryParam {
  const payload = reader.payload;
  switch (wire.type) {
    case MysqlType.NULL:
      return NULL_PARAM;
    case MysqlType.TINY: {
      const byte = reader.int1();
      return { kind: 'int', value: wire.unsigned ? byte : (byte << 24) >> 24, unsigned: wire.unsigned };
    }
    case MysqlType.SHORT:
    case MysqlType.YEAR: {
      const word = reader.int2();
      return { kind: 'int', value: wire.unsigned ? word : (word << 16) >> 16, unsigned: wire.unsigned };
    }
    case MysqlType.LONG:
    case MysqlType.INT24: {
      const start = reader.offset;
      reader.skip(4);
      return { kind: 'int', value: wire.unsigned ? payload.readUInt32LE(start) : payload.readInt32LE(start), unsigned: wire.unsigned };
    }
    case MysqlType.LONGLONG: {
      const start = reader.offset;
      reader.skip(8);
      // Most values fit a number exactly: read the two words, no BigInt (the high word below 2^21 in magnitude).
      const high = wire.unsigned ? payload.readUInt32LE(start + 4) : payload.readInt32LE(start + 4);
      if (high >= -0x200000 && high < 0x200000) {
        const exact = high * 0x100000000 + payload.readUInt32LE(start);
        if (Number.isSafeInteger(exact)) return { kind: 'int', value: exact, unsigned: wire.unsigned };
      }
      const value = wire.unsigned ? payload.readBigUInt64LE(start) : payload.readBigInt64LE(start);
      const small = value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER);
      return { kind: 'int', value: small ? Number(value) : value, unsigned: wire.unsigned };
    }
    case MysqlType.FLOAT: {
      const start = reader.offset;
      reader.skip(4);
      return { kind: 'float', value: payload.readFloatLE(start), single: true };
    }
    case MysqlType.DOUBLE: {
      const start = reader.offset;
      reader.skip(8);
      return { kind: 'float', value: payload.readDoubleLE(start), single: false };
    }
    case MysqlType.DECIMAL:
    case MysqlType.NEWDECIMAL:
      return { kind: 'decimal', text: lenencText(reader, 'latin1') };
    case MysqlType.DATE:
    case MysqlType.DATETIME:
    case MysqlType.TIMESTAMP:
      return readDatetime(reader, wire.type === MysqlType.DATE);
    case MysqlType.TIME:
      return readTime(reader);
    default:
      // VARCHAR, VAR_STRING, STRING, ENUM, SET, JSON, the BLOB types, BIT, GEOMETRY: length-encoded bytes.
      if (isLengthEncodedType(wire.type)) return { kind: 'string', text: lenencText(reader, 'utf8') };
      throw new GaleneError('WRONG_ARGUMENTS', ['mysqld_stmt_execute']);
  }
}

function isLengthEncodedType(type: number): boolean {
  return type === MysqlType.VARCHAR || type === MysqlType.BIT || type === MysqlType.JSON || (type >= 0xf7 && type <= 0xff);
}

/** A length-encoded string, decoded from the payload in place (no Buffer view per parameter). */
function lenencText(reader: PacketReader, encoding: 'utf8' | 'latin1'): string {
  const length = reader.lenencInt();
  if (length === null) throw new GaleneError('MALFORMED_PACKET');
  const start = reader.offset;
  reader.skip(length);
  return reader.payload.toString(encoding, start, start + length);
}

/** DATE/DATETIME/TIMESTAMP: length 0, 4 (date), 7 (+ time) or 11 (+ microseconds). */
function readDatetime(reader: PacketReader, dateOnly: boolean): BinaryParam {
  const length = reader.int1();
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micros = 0;
  if (length >= 4) {
    year = reader.int2();
    month = reader.int1();
    day = reader.int1();
  }
  if (length >= 7) {
    hour = reader.int1();
    minute = reader.int1();
    second = reader.int1();
  }
  if (length >= 11) micros = reader.int4();
  if (length !== 0 && length !== 4 && length !== 7 && length !== 11) throw new GaleneError('MALFORMED_PACKET');
  if (dateOnly) return { kind: 'date', year, month, day };
  return { kind: 'datetime', year, month, day, hour, minute, second, micros };
}

/** TIME: length 0, 8 or 12: negative flag, days (4), hour, minute, second, [microseconds (4)]. */
function readTime(reader: PacketReader): BinaryParam {
  const length = reader.int1();
  if (length !== 0 && length !== 8 && length !== 12) throw new GaleneError('MALFORMED_PACKET');
  if (length === 0) return { kind: 'time', negative: false, days: 0, hour: 0, minute: 0, second: 0, micros: 0 };
  const negative = reader.int1() === 1;
  const days = reader.int4();
  const hour = reader.int1();
  const minute = reader.int1();
  const second = reader.int1();
  const micros = length === 12 ? reader.int4() : 0;
  return { kind: 'time', negative, days, hour, minute, second, micros };
}
