/**
 * Turns one column vector of a batch into its MySQL text-protocol cells, column at a time: the text of
 * every row laid end to end in one byte buffer plus row offsets, the same shape as a StringVector. The
 * row writer then copies cells without creating per-row objects.
 *
 * String vectors are used as they are (no copy). Integers, narrow DECIMALs, DATEs and DATETIMEs in the
 * years 0..9999 are printed straight into the buffer as ASCII digits (3-5x faster than building strings);
 * everything else goes through `formatValue`, the one place that decides how a value prints, and the
 * direct printers are tested to give exactly its output, so the wire shows what CAST(x AS STRING) shows.
 */
import { getRaw, sliceVector, type ArrayVector, type Vector } from '../common/column';
import { formatValue } from '../common/convert';
import { civilFromDaysInto, MICROS_PER_DAY } from '../common/datetime';
import { DataType, isSketchType, isWideDecimal } from '../common/types';

/** Cells of one column of one batch; row r is bytes[offsets[r], offsets[r + 1]) unless nulls[r] === 1. */
export interface TextCells {
  readonly bytes: Uint8Array;
  readonly offsets: Int32Array;
  readonly nulls: Uint8Array | null;
}

const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);
/** Element types printed in double quotes inside an array (as convert.ts formatArray does). */
const QUOTED_IN_ARRAY: ReadonlySet<string> = new Set(['CHAR', 'VARCHAR', 'STRING', 'DATE', 'DATETIME']);
const MIN_SAFE_BIGINT = -MAX_SAFE_BIGINT;
const dictCache = new WeakMap<readonly string[], Buffer[]>();

function digitCount(value: number): number {
  let count = 1;
  let limit = 10;
  while (value >= limit && count < 17) {
    count++;
    limit *= 10;
  }
  return count;
}

/** ASCII digits of a safe integer at `pos`; returns the end position. */
function writeInteger(buf: Uint8Array, pos: number, value: number): number {
  if (value < 0) {
    buf[pos++] = 45; // '-'
    value = -value;
  }
  const end = pos + digitCount(value);
  let digitPos = end;
  do {
    const quotient = Math.floor(value / 10);
    buf[--digitPos] = 48 + (value - quotient * 10);
    value = quotient;
  } while (value > 0);
  return end;
}

/**
 * Reusable per-column formatter: one per result column for the life of a reply, so buffers grow to the
 * largest batch once and are reused for every later batch.
 */
export class TextColumnFormatter {
  private buf = Buffer.allocUnsafe(4096);
  private offsets = new Int32Array(1025);
  private allNulls: Uint8Array | null = null;
  /** Formats the elements of an ARRAY column (created on the first array batch). */
  private elements: TextColumnFormatter | null = null;

  private ensure(pos: number, extra: number): void {
    if (pos + extra <= this.buf.length) return;
    let capacity = this.buf.length * 2;
    while (capacity < pos + extra) capacity *= 2;
    const next = Buffer.allocUnsafe(capacity);
    this.buf.copy(next, 0, 0, pos);
    this.buf = next;
  }

  /** The cells of `vec`'s first `length` rows. Valid until the next call. */
  format(vec: Vector, length: number): TextCells {
    const type = vec.type;
    // BITMAP and HLL states show as NULL, as Doris shows them (unless a function converts them).
    if (type.name === 'NULL' || isSketchType(type)) return { bytes: this.buf, offsets: this.rowOffsets(length), nulls: this.nullMap(length) };
    if (vec.kind === 'string') return { bytes: vec.bytes, offsets: vec.offsets, nulls: vec.nulls };
    const offsets = this.rowOffsets(length);
    const nulls = vec.nulls;
    let pos = 0;
    offsets[0] = 0;
    if (vec.kind === 'dict') {
      const encoded = encodedDict(vec.dict);
      for (let rowIdx = 0; rowIdx < length; rowIdx++) {
        if (nulls === null || nulls[rowIdx] === 0) {
          const cell = encoded[vec.codes[rowIdx]];
          this.ensure(pos, cell.length);
          cell.copy(this.buf, pos);
          pos += cell.length;
        }
        offsets[rowIdx + 1] = pos;
      }
    } else if (vec.kind === 'fixed' && isSmallIntegerType(type)) {
      const values = vec.values as Int32Array;
      this.ensure(0, length * 24);
      const buf = this.buf;
      const isBoolean = type.name === 'BOOLEAN';
      for (let rowIdx = 0; rowIdx < length; rowIdx++) {
        if (nulls === null || nulls[rowIdx] === 0) {
          if (isBoolean) buf[pos++] = values[rowIdx] ? 49 : 48;
          else pos = writeIntegerOrText(buf, pos, values[rowIdx], type);
        }
        offsets[rowIdx + 1] = pos;
      }
    } else if (vec.kind === 'fixed' && vec.values instanceof BigInt64Array && type.name === 'BIGINT') {
      const values = vec.values;
      this.ensure(0, length * 24);
      const buf = this.buf;
      for (let rowIdx = 0; rowIdx < length; rowIdx++) {
        if (nulls === null || nulls[rowIdx] === 0) {
          const value = values[rowIdx];
          if (value >= MIN_SAFE_BIGINT && value <= MAX_SAFE_BIGINT) pos = writeInteger(buf, pos, Number(value));
          else pos += this.buf.write(value.toString(), pos, 'latin1');
        }
        offsets[rowIdx + 1] = pos;
      }
    } else if (vec.kind === 'fixed' && (type.name === 'DATE' || type.name === 'DATETIME' || (type.name === 'DECIMAL' && !isWideDecimal(type)))) {
      const values = vec.values as Float64Array;
      const printer = type.name === 'DATE' ? writeDate : type.name === 'DATETIME' ? writeDatetime : writeScaledDecimal;
      const scale = type.scale ?? 0;
      for (let rowIdx = 0; rowIdx < length; rowIdx++) {
        if (nulls === null || nulls[rowIdx] === 0) {
          this.ensure(pos, 48);
          const end = printer(this.buf, pos, values[rowIdx], scale);
          if (end >= 0) pos = end;
          else pos += this.buf.write(formatValue(type, values[rowIdx]) ?? '', pos, 'latin1');
        }
        offsets[rowIdx + 1] = pos;
      }
    } else if (vec.kind === 'array' && type.name === 'ARRAY') {
      pos = this.formatArrays(vec, length, offsets);
    } else if (vec.kind === 'array' || vec.kind === 'struct') {
      // MAP and STRUCT: row at a time through convert.ts, the one reference for their text.
      for (let rowIdx = 0; rowIdx < length; rowIdx++) {
        if (nulls === null || nulls[rowIdx] === 0) {
          const text = formatValue(type, getRaw(vec, rowIdx)) ?? '';
          this.ensure(pos, text.length * 3);
          pos += this.buf.write(text, pos, 'utf8');
        }
        offsets[rowIdx + 1] = pos;
      }
    } else {
      const values = vec.values as ArrayLike<number | bigint>;
      for (let rowIdx = 0; rowIdx < length; rowIdx++) {
        if (nulls === null || nulls[rowIdx] === 0) {
          const text = formatValue(type, values[rowIdx]) ?? '';
          this.ensure(pos, text.length * 3);
          pos += this.buf.write(text, pos, 'utf8');
        }
        offsets[rowIdx + 1] = pos;
      }
    }
    return { bytes: this.buf, offsets, nulls };
  }

  /**
   * Arrays go as their text, as Doris sends them (`[1, 2]`, `["a", null]`), on both protocols: the elements
   * are formatted as one column by a nested formatter (so they print exactly as scalars do), then each row
   * is assembled from the element cells — strings, dates and datetimes in double quotes with `"` and `\`
   * escaped (convert.ts formatArray is the reference). Returns the end position.
   */
  private formatArrays(vec: ArrayVector, length: number, offsets: Int32Array): number {
    const nulls = vec.nulls;
    const first = vec.offsets[0];
    const elementCount = vec.offsets[length] - first;
    const child = first === 0 && elementCount === vec.child.length ? vec.child : sliceVector(vec.child, first, first + elementCount);
    this.elements ??= new TextColumnFormatter();
    const cells = this.elements.format(child, elementCount);
    const quoted = QUOTED_IN_ARRAY.has(child.type.name);
    let pos = 0;
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      if (nulls === null || nulls[rowIdx] === 0) {
        const start = vec.offsets[rowIdx] - first;
        const end = vec.offsets[rowIdx + 1] - first;
        this.ensure(pos, 2 + (end - start) * 6 + (cells.offsets[end] - cells.offsets[start]) * 2);
        const buf = this.buf;
        buf[pos++] = 91; // '['
        for (let elemIdx = start; elemIdx < end; elemIdx++) {
          if (elemIdx > start) {
            buf[pos++] = 44; // ','
            buf[pos++] = 32;
          }
          if (cells.nulls !== null && cells.nulls[elemIdx] === 1) {
            buf[pos++] = 110; // 'null'
            buf[pos++] = 117;
            buf[pos++] = 108;
            buf[pos++] = 108;
            continue;
          }
          if (quoted) buf[pos++] = 34;
          for (let byteIdx = cells.offsets[elemIdx]; byteIdx < cells.offsets[elemIdx + 1]; byteIdx++) {
            const byte = cells.bytes[byteIdx];
            if (quoted && (byte === 34 || byte === 92)) buf[pos++] = 92;
            buf[pos++] = byte;
          }
          if (quoted) buf[pos++] = 34;
        }
        buf[pos++] = 93; // ']'
      }
      offsets[rowIdx + 1] = pos;
    }
    return pos;
  }

  private rowOffsets(length: number): Int32Array {
    if (this.offsets.length < length + 1) this.offsets = new Int32Array(length + 1);
    return this.offsets;
  }

  private nullMap(length: number): Uint8Array {
    if (this.allNulls === null || this.allNulls.length < length) this.allNulls = new Uint8Array(length).fill(1);
    return this.allNulls;
  }
}

function isSmallIntegerType(type: DataType): boolean {
  return type.name === 'BOOLEAN' || type.name === 'TINYINT' || type.name === 'SMALLINT' || type.name === 'INT';
}

/** Integers from a typed array; a non-integer number (a float array under an integer type) prints via formatValue. */
function writeIntegerOrText(buf: Buffer, pos: number, value: number, type: DataType): number {
  if (Number.isSafeInteger(value)) return writeInteger(buf, pos, value);
  return pos + buf.write(formatValue(type, value) ?? '', pos, 'latin1');
}

function write2(buf: Uint8Array, pos: number, value: number): number {
  const tens = Math.floor(value / 10);
  buf[pos] = 48 + tens;
  buf[pos + 1] = 48 + value - tens * 10;
  return pos + 2;
}

/** Scratch [year, month, day] of writeDate. */
const civil = new Int32Array(3);

/**
 * YYYY-MM-DD of a day number (civilFromDaysInto in common/datetime.ts); -1 outside years 0..9999,
 * where the caller falls back to formatValue.
 */
function writeDate(buf: Uint8Array, pos: number, days: number): number {
  civilFromDaysInto(days, civil);
  const year = civil[0];
  const month = civil[1];
  const day = civil[2];
  if (!(year >= 0 && year <= 9999)) return -1;
  const hundreds = Math.floor(year / 100);
  pos = write2(buf, pos, hundreds);
  pos = write2(buf, pos, year - hundreds * 100);
  buf[pos++] = 45;
  pos = write2(buf, pos, month);
  buf[pos++] = 45;
  return write2(buf, pos, day);
}

/** YYYY-MM-DD HH:MM:SS[.fff] of integer microseconds, `scale` fraction digits; -1 to fall back. */
function writeDatetime(buf: Uint8Array, pos: number, micros: number, scale: number): number {
  if (!Number.isSafeInteger(micros)) return -1;
  const days = Math.floor(micros / MICROS_PER_DAY);
  let rest = micros - days * MICROS_PER_DAY;
  const end = writeDate(buf, pos, days);
  if (end < 0) return -1;
  pos = end;
  const hour = Math.floor(rest / 3_600_000_000);
  rest -= hour * 3_600_000_000;
  const minute = Math.floor(rest / 60_000_000);
  rest -= minute * 60_000_000;
  const second = Math.floor(rest / 1_000_000);
  buf[pos++] = 32;
  pos = write2(buf, pos, hour);
  buf[pos++] = 58;
  pos = write2(buf, pos, minute);
  buf[pos++] = 58;
  pos = write2(buf, pos, second);
  if (scale > 0) {
    let fraction = rest - second * 1_000_000;
    buf[pos++] = 46;
    // The first `scale` of six digits (truncated, as formatDatetime does).
    let divisor = 100_000;
    for (let digitIdx = 0; digitIdx < scale; digitIdx++) {
      const digit = Math.floor(fraction / divisor);
      buf[pos++] = 48 + digit;
      fraction -= digit * divisor;
      divisor /= 10;
    }
  }
  return pos;
}

/** A DECIMAL held as a float64 integer scaled by 10^scale; -1 to fall back (not a safe integer). */
function writeScaledDecimal(buf: Uint8Array, pos: number, scaled: number, scale: number): number {
  let value = Math.round(scaled);
  if (!Number.isSafeInteger(value) || scale > 15) return -1;
  if (value < 0) {
    buf[pos++] = 45;
    value = -value;
  }
  if (scale === 0) return writeInteger(buf, pos, value);
  const unit = 10 ** scale;
  const intPart = Math.floor(value / unit);
  let fraction = value - intPart * unit;
  pos = writeInteger(buf, pos, intPart);
  buf[pos++] = 46;
  for (let digitPos = pos + scale - 1; digitPos >= pos; digitPos--) {
    const quotient = Math.floor(fraction / 10);
    buf[digitPos] = 48 + fraction - quotient * 10;
    fraction = quotient;
  }
  return pos + scale;
}

function encodedDict(dict: readonly string[]): Buffer[] {
  let encoded = dictCache.get(dict);
  if (encoded === undefined) {
    encoded = dict.map((entry) => Buffer.from(entry, 'utf8'));
    dictCache.set(dict, encoded);
  }
  return encoded;
}
