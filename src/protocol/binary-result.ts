/**
 * Encodes a statement result as a binary-protocol reply to COM_STMT_EXECUTE: an OK packet, or column
 * count, column definitions, [EOF], binary rows, EOF/OK.
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_binary_resultset.html
 *
 * A binary row is 0x00, a NULL bitmap of (columns + 7 + 2) / 8 bytes (column i is bit i + 2), then the
 * non-NULL values in the form of their column's wire type: TINY 1 byte, SHORT 2, LONG 4, LONGLONG 8,
 * FLOAT/DOUBLE IEEE-754, DATE/DATETIME as a length byte plus year (2), month, day [, hour, minute,
 * second [, microseconds (4)]], everything else (DECIMAL, LARGEINT, strings) as length-encoded text
 * printed exactly as the text protocol prints it (TextColumnFormatter).
 *
 * Columns are prepared once per batch (a writer per column), then rows are copied out, as the text encoder
 * does, with a flush every FLUSH_BYTES so large results stream.
 */
import { Batch, Vector } from '../common/column';
import { civilFromDays, MICROS_PER_DAY } from '../common/datetime';
import { GaleneError } from '../common/errors';
import { isSketchType } from '../common/types';
import type { RowsResult, StatementResult } from '../common/result';
import { columnWireType, writeColumnDefinitions } from './column-definition';
import { MysqlType } from './constants';
import { PacketWriter } from './packet-writer';
import { writeEndOfRows, writeOk } from './reply-packets';
import { FLUSH_BYTES, ResultSink } from './result-encoder';
import { TextCells, TextColumnFormatter } from './text-column';

/** Writes one non-NULL cell of a column of the current batch. */
type CellWriter = (writer: PacketWriter, rowIdx: number) => void;

/** Write the reply to one COM_STMT_EXECUTE. */
export async function writeBinaryResult(sink: ResultSink, result: StatementResult): Promise<void> {
  if (result.kind === 'ok' || result.columns.length === 0) {
    const ok = result.kind === 'ok' ? result : { affectedRows: 0 };
    writeOk(sink.writer, {
      affectedRows: ok.affectedRows,
      lastInsertId: 'lastInsertId' in ok ? ok.lastInsertId : undefined,
      statusFlags: sink.statusFlags(),
      warnings: 'warnings' in ok ? ok.warnings : undefined,
      info: 'info' in ok ? ok.info : undefined,
    });
    return;
  }
  await writeBinaryRows(sink, result);
}

async function writeBinaryRows(sink: ResultSink, result: RowsResult): Promise<void> {
  const writer = sink.writer;
  const columnCount = result.columns.length;
  writer.begin();
  writer.lenencInt(columnCount);
  writer.end();
  writeColumnDefinitions(writer, result.columns);
  if (!sink.deprecateEof) writeEndOfRows(writer, false, sink.statusFlags());

  const wireTypes = result.columns.map((column) => columnWireType(column.type).type);
  // Text formatters only for the columns sent as text (DECIMAL, strings...), created on first use.
  const formatters: (TextColumnFormatter | undefined)[] = new Array<TextColumnFormatter | undefined>(columnCount);
  const bitmapBytes = (columnCount + 7 + 2) >> 3;
  const cellWriters: CellWriter[] = new Array<CellWriter>(columnCount);
  const nulls: (Uint8Array | null)[] = new Array<Uint8Array | null>(columnCount);
  for await (const batch of result.batches) {
    checkBatch(batch, columnCount);
    const rowCount = batch.length;
    for (let colIdx = 0; colIdx < columnCount; colIdx++) {
      const vec = batch.columns[colIdx];
      // BITMAP / HLL cells are NULL on the wire, as Doris sends them.
      nulls[colIdx] = wireTypes[colIdx] === MysqlType.NULL ? null : isSketchType(vec.type) ? new Uint8Array(rowCount).fill(1) : vec.nulls;
      cellWriters[colIdx] = cellWriterFor(wireTypes[colIdx], vec, rowCount, () => (formatters[colIdx] ??= new TextColumnFormatter()));
    }
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      writer.begin();
      writer.int1(0);
      const bitmapAt = writer.reserve(bitmapBytes);
      for (let colIdx = 0; colIdx < columnCount; colIdx++) {
        const columnNulls = nulls[colIdx];
        if (wireTypes[colIdx] === MysqlType.NULL || (columnNulls !== null && columnNulls[rowIdx] === 1)) {
          const bit = colIdx + 2;
          writer.orByteAt(bitmapAt + (bit >> 3), 1 << (bit & 7));
        } else {
          cellWriters[colIdx](writer, rowIdx);
        }
      }
      writer.end();
      if (writer.length >= FLUSH_BYTES) {
        const pending = sink.flush();
        if (pending !== undefined) await pending;
      }
    }
  }
  writeEndOfRows(writer, sink.deprecateEof, sink.statusFlags());
}

function checkBatch(batch: Batch, columnCount: number): void {
  if (batch.columns.length !== columnCount) throw new GaleneError('INTERNAL', [`result batch has ${batch.columns.length} columns, header has ${columnCount}`]);
}

function numberAt(vec: Vector, rowIdx: number): number {
  if (vec.kind === 'fixed') return Number(vec.values[rowIdx]);
  if (vec.kind === 'object') return Number(vec.values[rowIdx]);
  throw new GaleneError('INTERNAL', [`a ${vec.kind} vector under numeric type ${vec.type.name}`]);
}

function bigintAt(vec: Vector, rowIdx: number): bigint {
  if (vec.kind === 'fixed') {
    const value = vec.values[rowIdx];
    return typeof value === 'bigint' ? value : BigInt(Math.trunc(value));
  }
  if (vec.kind === 'object') return vec.values[rowIdx];
  throw new GaleneError('INTERNAL', [`a ${vec.kind} vector under integer type ${vec.type.name}`]);
}

function cellWriterFor(wireType: MysqlType, vec: Vector, rowCount: number, formatter: () => TextColumnFormatter): CellWriter {
  switch (wireType) {
    case MysqlType.TINY:
      return (writer, rowIdx) => writer.int1(numberAt(vec, rowIdx));
    case MysqlType.SHORT:
      return (writer, rowIdx) => writer.int2(numberAt(vec, rowIdx));
    case MysqlType.LONG:
      return (writer, rowIdx) => writer.int4(numberAt(vec, rowIdx));
    case MysqlType.LONGLONG:
      return (writer, rowIdx) => writer.int8(bigintAt(vec, rowIdx));
    case MysqlType.FLOAT:
      return (writer, rowIdx) => writer.float4(numberAt(vec, rowIdx));
    case MysqlType.DOUBLE:
      return (writer, rowIdx) => writer.float8(numberAt(vec, rowIdx));
    case MysqlType.DATE:
      return (writer, rowIdx) => writeBinaryDate(writer, numberAt(vec, rowIdx));
    case MysqlType.DATETIME:
      return (writer, rowIdx) => writeBinaryDatetime(writer, numberAt(vec, rowIdx));
    default: {
      // Strings go out as stored: no formatter (and its buffers) for them.
      const cells: TextCells = vec.kind === 'string' ? vec : formatter().format(vec, rowCount);
      return (writer, rowIdx) => writer.lenencCell(cells.bytes, cells.offsets[rowIdx], cells.offsets[rowIdx + 1]);
    }
  }
}

function writeBinaryDate(writer: PacketWriter, days: number): void {
  const [year, month, day] = civilFromDays(days);
  writer.int1(4);
  writer.int2(year);
  writer.int1(month);
  writer.int1(day);
}

function writeBinaryDatetime(writer: PacketWriter, micros: number): void {
  const days = Math.floor(micros / MICROS_PER_DAY);
  let rest = micros - days * MICROS_PER_DAY;
  const [year, month, day] = civilFromDays(days);
  const hour = Math.floor(rest / 3_600_000_000);
  rest -= hour * 3_600_000_000;
  const minute = Math.floor(rest / 60_000_000);
  rest -= minute * 60_000_000;
  const second = Math.floor(rest / 1_000_000);
  const fraction = Math.round(rest - second * 1_000_000);
  const withTime = hour !== 0 || minute !== 0 || second !== 0 || fraction !== 0;
  writer.int1(fraction !== 0 ? 11 : withTime ? 7 : 4);
  writer.int2(year);
  writer.int1(month);
  writer.int1(day);
  if (!withTime && fraction === 0) return;
  writer.int1(hour);
  writer.int1(minute);
  writer.int1(second);
  if (fraction !== 0) writer.int4(fraction);
}
