/**
 * Incremental CSV parsing for Stream Load (formats csv, csv_with_names, csv_with_names_and_types): the
 * body arrives in blocks; every complete line of a block is split into fields by byte search
 * (column_separator, line_delimiter of any length) and handed to the RowConverter as byte ranges, so
 * field text is decoded only when a column needs a non-string value. An unfinished last line is carried
 * into the next block. The first `skipLines` lines are skipped (skip_lines, or the header lines of the
 * csv_with_names* formats); empty lines are skipped, as Doris does; a line with invalid UTF-8 is filtered;
 * a line longer than the load's buffer limit fails the load (memory stays bounded).
 *
 * With `enclose` (Doris's enclose header), a field that starts with that byte runs to the next
 * unescaped enclose byte: separators and line delimiters inside it are data, the `escape` byte makes
 * the byte after it data, and a doubled enclose byte is one. Such lines are found by a quote-aware scan
 * and their fields unescaped in place. `trimDoubleQuotes` removes the outermost double quotes of each
 * field (trim_double_quotes).
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { GaleneError } from '../../common/errors';
import type { BodyReader } from './body-blocks';
import type { RowConverter } from './row-converter';

export interface CsvReaderOptions {
  readonly columnSeparator: Buffer;
  readonly lineDelimiter: Buffer;
  readonly skipLines: number;
  readonly maxRowBytes: number;
  readonly enclose: number | null;
  readonly escape: number | null;
  readonly trimDoubleQuotes: boolean;
}

const DOUBLE_QUOTE = 0x22;
/** scanEnclosed's answer when the buffer ends inside the line. */
const INCOMPLETE = -1;

const printable = (bytes: Buffer): string => (bytes.every((byte) => byte >= 0x20 && byte < 0x7f) ? bytes.toString('latin1') : `\\x${bytes.toString('hex')}`);

function matchAt(buf: Buffer, pos: number, pattern: Buffer): boolean {
  if (pos + pattern.length > buf.length) return false;
  for (let offset = 0; offset < pattern.length; offset++) if (buf[pos + offset] !== pattern[offset]) return false;
  return true;
}

export class CsvReader implements BodyReader {
  private tail: Buffer | null = null;
  /** Where the delimiter search may resume in `tail` (it was searched before). */
  private searchFrom = 0;
  private line = 0;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly describe: () => string;
  /** Fields found by the last scanEnclosed, and whether it unescaped any in place. */
  private fieldCount = 0;
  private rewritten = false;

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
    if (this.options.enclose !== null) this.feedEnclosed(buf, final);
    else this.feedPlain(buf, final);
  }

  private feedPlain(buf: Buffer, final: boolean): void {
    const delim = this.options.lineDelimiter;
    // Lines end before the last delimiter (or at the end of the body).
    const lastDelim = buf.lastIndexOf(delim);
    const completeEnd = final ? buf.length : lastDelim < 0 || lastDelim < this.searchFrom ? 0 : lastDelim + delim.length;
    if (completeEnd === 0) {
      this.keepTail(buf, 0);
      return;
    }
    const complete = buf.subarray(0, completeEnd);
    const ascii = isAscii(complete);
    const checkEachLine = !ascii && !isUtf8(complete);
    // ASCII: the block as a one-byte string lets numbers and dates be read without a string per field.
    this.converter.setBlockBuffer(buf, ascii ? buf.toString('latin1', 0, completeEnd) : null);
    const sep = this.options.columnSeparator;
    if (delim.length === 1 && sep.length === 1 && delim[0] !== sep[0]) {
      this.scanSingleBytes(buf, completeEnd, delim[0], sep[0], checkEachLine);
      this.keepTail(buf, completeEnd);
      return;
    }
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

  private feedEnclosed(buf: Buffer, final: boolean): void {
    this.converter.setBlockBuffer(buf);
    let pos = 0;
    while (pos < buf.length) {
      const lineEnd = this.scanEnclosed(buf, pos, final, false);
      if (lineEnd === INCOMPLETE) break;
      const next = matchAt(buf, lineEnd, this.options.lineDelimiter) ? lineEnd + this.options.lineDelimiter.length : lineEnd;
      this.line++;
      if (this.line > this.options.skipLines && lineEnd > pos) {
        const region = buf.subarray(pos, lineEnd);
        if (!isUtf8(region)) this.converter.rejectRow(this.line, 'invalid UTF-8 data', region.toString('utf8'));
        else {
          // Unescaping rewrites the line in place: keep its text for error reports first.
          const raw = this.needsRewrite(buf, pos, lineEnd) ? region.toString('utf8') : null;
          this.scanEnclosed(buf, pos, true, true);
          this.trimQuotes(buf);
          this.converter.addFields(buf, this.starts, this.ends, this.fieldCount, this.line, pos, lineEnd, this.describe, this.rewritten ? raw : null);
        }
      }
      pos = next;
    }
    this.searchFrom = 0;
    this.keepTail(buf, pos);
  }

  /** Whether unescaping could rewrite bytes of the line: it holds an escape or a doubled enclose byte. */
  private needsRewrite(buf: Buffer, start: number, end: number): boolean {
    const { enclose, escape } = this.options;
    for (let pos = start; pos < end; pos++) {
      if (buf[pos] === escape) return true;
      if (buf[pos] === enclose && pos + 1 < end && buf[pos + 1] === enclose) return true;
    }
    return false;
  }

  /**
   * The line starting at `start` with enclosed fields: its end (before the line delimiter), or INCOMPLETE
   * when the buffer ends inside it and more may come (`final` false). With `write`, the fields go to
   * starts/ends (fieldCount) and enclosed ones are unescaped in place (rewritten).
   */
  private scanEnclosed(buf: Buffer, start: number, final: boolean, write: boolean): number {
    const enclose = this.options.enclose!;
    const escape = this.options.escape ?? -1;
    const sep = this.options.columnSeparator;
    const delim = this.options.lineDelimiter;
    const lookahead = Math.max(sep.length, delim.length);
    const limit = buf.length;
    const maxFields = this.starts.length - 1;
    let count = 0;
    let read = start;
    this.rewritten = false;
    for (;;) {
      // A field starts at `read`.
      let contentStart = read;
      let written = read;
      if (read < limit && buf[read] === enclose) {
        read++;
        contentStart = written = read;
        for (;;) {
          if (read >= limit) {
            if (!final) return INCOMPLETE;
            break; // unterminated at the end of the body: take what there is
          }
          const byte = buf[read];
          if (byte === escape && escape !== enclose) {
            if (read + 1 >= limit && !final) return INCOMPLETE;
            if (read + 1 < limit) {
              if (write) buf[written] = buf[read + 1];
              written++;
              this.rewritten = this.rewritten || write;
            }
            read += 2;
            continue;
          }
          if (byte === enclose) {
            if (read + 1 >= limit && !final) return INCOMPLETE;
            if (read + 1 < limit && buf[read + 1] === enclose) {
              if (write) buf[written] = enclose;
              written++;
              this.rewritten = this.rewritten || write;
              read += 2;
              continue;
            }
            read++; // the closing enclose
            break;
          }
          if (write && written !== read) buf[written] = byte;
          written++;
          read++;
        }
      }
      // Unenclosed bytes (a plain field, or what follows a closing enclose) up to the separator.
      let endsLine = false;
      for (;;) {
        if (!final && read + lookahead > limit) return INCOMPLETE;
        if (read >= limit) {
          endsLine = true;
          break;
        }
        if (matchAt(buf, read, delim)) {
          endsLine = true;
          break;
        }
        if (matchAt(buf, read, sep)) break;
        if (write && written !== read) buf[written] = buf[read];
        written++;
        read++;
      }
      if (write) {
        if (count < maxFields) {
          this.starts[count] = contentStart;
          this.ends[count] = written;
        }
        count++;
      }
      if (endsLine) {
        this.fieldCount = count;
        return read;
      }
      read += sep.length;
      if (read - start > this.options.maxRowBytes) this.tooLong();
    }
  }

  private tooLong(): never {
    throw new GaleneError('LOAD_DATA_QUALITY', [`line ${this.line + 1} is longer than the load buffer limit (${this.options.maxRowBytes} bytes) without a line delimiter`]);
  }

  private keepTail(buf: Buffer, from: number): void {
    if (from >= buf.length) {
      this.tail = null;
      this.searchFrom = 0;
      return;
    }
    const tailLength = buf.length - from;
    if (tailLength > this.options.maxRowBytes) this.tooLong();
    // Copy so that the tail does not pin the whole block.
    this.tail = Buffer.from(buf.subarray(from));
    if (this.options.enclose === null) this.searchFrom = Math.max(0, tailLength - this.options.lineDelimiter.length + 1);
  }

  /** trim_double_quotes: drop a double quote at both ends of each field found. */
  private trimQuotes(buf: Buffer): void {
    if (!this.options.trimDoubleQuotes) return;
    const fields = Math.min(this.fieldCount, this.starts.length - 1);
    for (let fieldIdx = 0; fieldIdx < fields; fieldIdx++) {
      const start = this.starts[fieldIdx];
      const end = this.ends[fieldIdx];
      if (end - start >= 2 && buf[start] === DOUBLE_QUOTE && buf[end - 1] === DOUBLE_QUOTE) {
        this.starts[fieldIdx] = start + 1;
        this.ends[fieldIdx] = end - 1;
      }
    }
  }

  /**
   * Lines and fields of buf[0, completeEnd) in one pass when the line delimiter and the column separator
   * are single bytes (the common case): each byte is looked at once.
   */
  private scanSingleBytes(buf: Buffer, completeEnd: number, delimByte: number, sepByte: number, checkUtf8: boolean): void {
    const starts = this.starts;
    const ends = this.ends;
    const maxFields = starts.length - 1;
    let lineStart = 0;
    let fieldStart = 0;
    let count = 0;
    for (let pos = 0; pos < completeEnd; pos++) {
      const byte = buf[pos];
      if (byte === sepByte) {
        if (count < maxFields) {
          starts[count] = fieldStart;
          ends[count] = pos;
        }
        count++;
        fieldStart = pos + 1;
      } else if (byte === delimByte) {
        this.finishLine(buf, lineStart, pos, count, fieldStart, checkUtf8);
        lineStart = fieldStart = pos + 1;
        count = 0;
      }
    }
    // The body's last line, without a delimiter after it.
    if (lineStart < completeEnd) this.finishLine(buf, lineStart, completeEnd, count, fieldStart, checkUtf8);
  }

  /** A line whose first `count` fields are in starts / ends and whose last field starts at `fieldStart`. */
  private finishLine(buf: Buffer, lineStart: number, lineEnd: number, count: number, fieldStart: number, checkUtf8: boolean): void {
    this.line++;
    if (this.line <= this.options.skipLines) return;
    if (lineEnd === lineStart) return;
    if (checkUtf8 && !isUtf8(buf.subarray(lineStart, lineEnd))) {
      this.converter.rejectRow(this.line, 'invalid UTF-8 data', buf.toString('utf8', lineStart, lineEnd));
      return;
    }
    if (count < this.starts.length - 1) {
      this.starts[count] = fieldStart;
      this.ends[count] = lineEnd;
    }
    count++;
    this.fieldCount = count;
    this.trimQuotes(buf);
    this.converter.addFields(buf, this.starts, this.ends, count, this.line, lineStart, lineEnd, this.describe);
  }

  /** One line found by the delimiter search: its fields split, then finishLine. */
  private parseLine(buf: Buffer, lineStart: number, lineEnd: number, checkUtf8: boolean): void {
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
    this.finishLine(buf, lineStart, lineEnd, count, fieldStart, checkUtf8);
  }
}
