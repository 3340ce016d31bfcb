/**
 * Encodes StatementResults as text-protocol replies: an OK packet, or a result set (column count, column
 * definitions, [EOF], rows, EOF/OK). Several results from one COM_QUERY go out back to back with
 * SERVER_MORE_RESULTS_EXISTS on all but the last.
 *
 * Rows are written batch by batch: each column of a batch is turned into text cells once
 * (TextColumnFormatter), then rows are copied out cell by cell. Batches are pulled from the result as it
 * is encoded (a query's stream runs the query as the client reads), the writer is handed to the socket
 * every FLUSH_BYTES, and the encoder waits when the socket is backed up, so a large result streams in
 * bounded memory, a slow client slows the query instead of filling the server's memory, and a client that
 * disconnects stops the query at the next flush. An error raised by the stream mid-result goes out as an
 * ERR packet in place of the next row, as MySQL does.
 */
import { Batch } from '../common/column';
import { GaleneError } from '../common/errors';
import type { RowsResult, StatementResult } from '../common/result';
import { writeColumnDefinition } from './column-definition';
import { NULL_CELL, ServerStatus } from './constants';
import { PacketWriter } from './packet-writer';
import { writeEndOfRows, writeOk } from './reply-packets';
import { TextCells, TextColumnFormatter } from './text-column';

/** Hand buffered bytes to the socket once this many are waiting. */
export const FLUSH_BYTES = 64 * 1024;

export interface ResultSink {
  readonly writer: PacketWriter;
  /** Whether result sets end with an OK (CLIENT_DEPRECATE_EOF) instead of EOF packets. */
  readonly deprecateEof: boolean;
  /** AUTOCOMMIT / IN_TRANS for the packets that carry status. */
  statusFlags(): number;
  /** Pass buffered bytes to the socket; resolves when it can take more. Throws once the client is gone. */
  flush(): Promise<void> | undefined;
}

/** Write every result of one statement text, in order. */
export async function writeStatementResults(sink: ResultSink, results: readonly StatementResult[]): Promise<void> {
  if (!Array.isArray(results)) throw new GaleneError('INTERNAL', ['execute() did not return a list of results']);
  if (results.length === 0) {
    writeOk(sink.writer, { statusFlags: sink.statusFlags() });
    return;
  }
  for (let resultIdx = 0; resultIdx < results.length; resultIdx++) {
    const more = resultIdx < results.length - 1 ? ServerStatus.MORE_RESULTS_EXISTS : 0;
    const result = results[resultIdx];
    if (result.kind === 'ok' || result.columns.length === 0) {
      const ok = result.kind === 'ok' ? result : { affectedRows: 0 };
      writeOk(sink.writer, {
        affectedRows: ok.affectedRows,
        lastInsertId: 'lastInsertId' in ok ? ok.lastInsertId : undefined,
        statusFlags: sink.statusFlags() | more,
        warnings: 'warnings' in ok ? ok.warnings : undefined,
        info: 'info' in ok ? ok.info : undefined,
      });
    } else {
      await writeRowsResult(sink, result, more);
    }
  }
}

function checkBatchShape(result: RowsResult, batch: Batch): void {
  if (batch.columns.length !== result.columns.length) {
    throw new GaleneError('INTERNAL', [`result batch has ${batch.columns.length} columns, header has ${result.columns.length}`]);
  }
  for (const vec of batch.columns) {
    if (vec.length < batch.length) throw new GaleneError('INTERNAL', [`result vector of ${vec.length} rows in a batch of ${batch.length}`]);
  }
}

async function writeRowsResult(sink: ResultSink, result: RowsResult, moreFlag: number): Promise<void> {
  const writer = sink.writer;
  const columnCount = result.columns.length;
  writer.begin();
  writer.lenencInt(columnCount);
  writer.end();
  for (const column of result.columns) writeColumnDefinition(writer, column);
  if (!sink.deprecateEof) writeEndOfRows(writer, false, sink.statusFlags());

  const formatters: TextColumnFormatter[] = [];
  for (let colIdx = 0; colIdx < columnCount; colIdx++) formatters.push(new TextColumnFormatter());
  const cells: TextCells[] = new Array<TextCells>(columnCount);
  for await (const batch of result.batches) {
    checkBatchShape(result, batch);
    const rowCount = batch.length;
    for (let colIdx = 0; colIdx < columnCount; colIdx++) cells[colIdx] = formatters[colIdx].format(batch.columns[colIdx], rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      writer.begin();
      for (let colIdx = 0; colIdx < columnCount; colIdx++) {
        const column = cells[colIdx];
        if (column.nulls !== null && column.nulls[rowIdx] === 1) writer.int1(NULL_CELL);
        else writer.lenencCell(column.bytes, column.offsets[rowIdx], column.offsets[rowIdx + 1]);
      }
      writer.end();
      if (writer.length >= FLUSH_BYTES) {
        const pending = sink.flush();
        if (pending !== undefined) await pending;
      }
    }
  }
  writeEndOfRows(writer, sink.deprecateEof, sink.statusFlags() | moreFlag);
}
