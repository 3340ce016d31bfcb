/**
 * Incremental CSV parsing for Stream Load (formats csv and csv_with_names): the body arrives in blocks;
 * every complete line of a block is split into fields by byte search (column_separator, line_delimiter of
 * any length) and handed to the RowConverter as byte ranges, so field text is decoded only when a column
 * needs a non-string value. An unfinished last line is carried into the next block. Empty lines are
 * skipped, as Doris does; a line with invalid UTF-8 is filtered; a line longer than the load's buffer
 * limit fails the load (memory stays bounded).
 */
import { isUtf8 } from 'node:buffer';
import { GaleneError } from '../../common/errors';
import type { BodyReader } from './body-blocks';
import type { RowConverter } from './row-converter';

export interface CsvReaderOptions {
  readonly columnSeparator: Buffer;
  readonly lineDelimiter: Buffer;
  readonly skipHeader: boolean;
  readonly maxRowBytes: number;
}

const printable = (bytes: Buffer): string => (bytes.every((byte) => byte >= 0x20 && byte < 0x7f) ? bytes.toString('latin1') : `\\x${bytes.toString('hex')}`);

export class CsvReader implements BodyReader {
  private tail: Buffer | null = null;
  /** Where the delimiter search may resume in `tail` (it was searched before). */
  private searchFrom = 0;
  private line = 0;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly describe: () => string;

  constructor(
    private readonly converter: RowConverter,
    private readonly options: CsvReaderOptions,
  ) {
    const slots = converter.sourceNames.length;
    this.starts = new Int32Array(slots + 2);
    this.ends = new Int32Array(slots + 2);
    const text = `column separator: [${printable(options.columnSeparator)}], line delimiter: [${printable(options.lineDelimiter)}]`;
    this.describe = () => text;
  }

  feed(chunks: readonly Buffer[], final: boolean): void {
    const parts = this.tail ? [this.tail, ...chunks] : chunks;
    const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts as Buffer[]);
    const delim = this.options.lineDelimiter;
    // Lines end before the last delimiter (or at the end of the body).
    const lastDelim = buf.lastIndexOf(delim);
    const completeEnd = final ? buf.length : lastDelim < 0 || lastDelim < this.searchFrom ? 0 : lastDelim + delim.length;
    if (completeEnd === 0) {
      this.keepTail(buf, 0);
      return;
    }
    const checkEachLine = !isUtf8(buf.subarray(0, completeEnd));
    this.converter.setBlockBuffer(buf);
    let pos = 0;
    let searchFrom = this.searchFrom;
    while (pos < completeEnd) {
      let lineEnd = buf.indexOf(delim, searchFrom);
      let next: number;
      if (lineEnd < 0 || lineEnd >= completeEnd) {
        lineEnd = completeEnd;
        next = completeEnd;
      } else {
        next = lineEnd + delim.length;
      }
      this.parseLine(buf, pos, lineEnd, checkEachLine);
      pos = next;
      searchFrom = next;
    }
    this.keepTail(buf, completeEnd);
  }

  private keepTail(buf: Buffer, from: number): void {
    if (from >= buf.length) {
      this.tail = null;
      this.searchFrom = 0;
      return;
    }
    const tailLength = buf.length - from;
    if (tailLength > this.options.maxRowBytes) {
      throw new GaleneError('LOAD_DATA_QUALITY', [`line ${this.line + 1} is longer than the load buffer limit (${this.options.maxRowBytes} bytes) without a line delimiter`]);
    }
    // Copy so that the tail does not pin the whole block.
    this.tail = Buffer.from(buf.subarray(from));
    this.searchFrom = Math.max(0, tailLength - this.options.lineDelimiter.length + 1);
  }

  private parseLine(buf: Buffer, lineStart: number, lineEnd: number, checkUtf8: boolean): void {
    this.line++;
    if (lineEnd === lineStart) return;
    if (this.options.skipHeader && this.line === 1) return;
    if (checkUtf8 && !isUtf8(buf.subarray(lineStart, lineEnd))) {
      this.converter.rejectRow(this.line, 'invalid UTF-8 data', buf.toString('utf8', lineStart, lineEnd));
      return;
    }
    const starts = this.starts;
    const ends = this.ends;
    const maxFields = starts.length - 1;
    const sep = this.options.columnSeparator;
    let count = 0;
    let fieldStart = lineStart;
    if (sep.length === 1) {
      const sepByte = sep[0];
      for (let pos = lineStart; pos < lineEnd; pos++) {
        if (buf[pos] !== sepByte) continue;
        if (count < maxFields) {
          starts[count] = fieldStart;
          ends[count] = pos;
        }
        count++;
        fieldStart = pos + 1;
      }
    } else {
      const line = buf.subarray(lineStart, lineEnd);
      let offset = line.indexOf(sep);
      while (offset >= 0) {
        if (count < maxFields) {
          starts[count] = fieldStart;
          ends[count] = lineStart + offset;
        }
        count++;
        fieldStart = lineStart + offset + sep.length;
        offset = line.indexOf(sep, offset + sep.length);
      }
    }
    if (count < maxFields) {
      starts[count] = fieldStart;
      ends[count] = lineEnd;
    }
    count++;
    this.converter.addFields(buf, starts, ends, count, this.line, lineStart, lineEnd, this.describe);
  }
}
