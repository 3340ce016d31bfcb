/**
 * The fast path of read_json_by_line: a byte scanner for the common line shape, one flat JSON object
 * whose keys are the source column names as written and whose values are strings without escapes,
 * integers of up to 15 digits, true, false or null. It finds each value's byte span, with no JSON.parse,
 * no object and no string per value, so the RowConverter reads the values like CSV fields.
 *
 * The scanner accepts only text it is sure of: anything else (escapes, control bytes in strings,
 * fractions, exponents, nested values, a key matching a column only when case is ignored, bad JSON)
 * answers false and the reader parses that line with JSON.parse, which gives Doris's rules and error
 * messages. What it accepts gives the values JSON.parse + valueText would: the text of a string without
 * escapes is its bytes; an integer of at most 15 digits without a sign of zero prints as written.
 */

const CH_QUOTE = 0x22;
const CH_BACKSLASH = 0x5c;
const CH_LBRACE = 0x7b;
const CH_RBRACE = 0x7d;
const CH_COMMA = 0x2c;
const CH_COLON = 0x3a;
const CH_MINUS = 0x2d;
const CH_0 = 0x30;
const CH_9 = 0x39;
/** Digits an integer may have and still print exactly as written (below 2^53). */
const MAX_DIGITS = 15;

const isJsonSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

function matchesWord(buf: Uint8Array, pos: number, end: number, word: readonly number[]): boolean {
  if (pos + word.length > end) return false;
  for (let idx = 0; idx < word.length; idx++) if (buf[pos + idx] !== word[idx]) return false;
  return true;
}

const WORD_TRUE = [0x74, 0x72, 0x75, 0x65];
const WORD_FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const WORD_NULL = [0x6e, 0x75, 0x6c, 0x6c];

export class FlatJsonScanner {
  /** The UTF-8 bytes of each source column name. */
  private readonly names: Uint8Array[];
  /** The UTF-8 bytes of each name lower-cased as JavaScript does. */
  private readonly lowerNames: Uint8Array[];
  /** The trimmed extent of the last line scanned. */
  rowStart = 0;
  rowEnd = 0;

  constructor(sourceNames: readonly string[]) {
    this.names = sourceNames.map((name) => new Uint8Array(Buffer.from(name, 'utf8')));
    this.lowerNames = sourceNames.map((name) => new Uint8Array(Buffer.from(name.toLowerCase(), 'utf8')));
  }

  /** The source column whose name is exactly buf[start, end), trying `guess` first; -1 when none. */
  private slotOf(buf: Uint8Array, start: number, end: number, guess: number): number {
    const names = this.names;
    const length = end - start;
    for (let tried = 0; tried < names.length; tried++) {
      const slotIdx = (guess + tried) % names.length;
      const name = names[slotIdx];
      if (name.length !== length) continue;
      let same = true;
      for (let idx = 0; idx < length; idx++) {
        if (buf[start + idx] !== name[idx]) {
          same = false;
          break;
        }
      }
      if (same) return slotIdx;
    }
    return -1;
  }

  /**
   * Whether the key buf[start, end) names a column only when case is ignored (JsonReader's rule for keys
   * without an exact match): the reader then takes the slow path. A non-ASCII key may lower-case to
   * anything, so it always answers true.
   */
  private matchesIgnoringCase(buf: Uint8Array, start: number, end: number): boolean {
    for (let pos = start; pos < end; pos++) if (buf[pos] >= 0x80) return true;
    const length = end - start;
    for (const lower of this.lowerNames) {
      if (lower.length !== length) continue;
      let same = true;
      for (let idx = 0; idx < length && same; idx++) {
        const byte = buf[start + idx];
        same = (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte) === lower[idx];
      }
      if (same) return true;
    }
    return false;
  }

  /**
   * Scan the line buf[start, end) (valid UTF-8). True: `starts` / `ends` hold each source column's value
   * span (start -1: absent or null) and rowStart / rowEnd the line without surrounding whitespace. False:
   * not of the fast shape (or blank), nothing is known.
   */
  scan(buf: Uint8Array, start: number, end: number, starts: Int32Array, ends: Int32Array): boolean {
    const slotCount = this.names.length;
    for (let slotIdx = 0; slotIdx < slotCount; slotIdx++) starts[slotIdx] = -1;
    let pos = start;
    while (pos < end && isJsonSpace(buf[pos])) pos++;
    let last = end;
    while (last > pos && isJsonSpace(buf[last - 1])) last--;
    if (pos >= last || buf[pos] !== CH_LBRACE || buf[last - 1] !== CH_RBRACE) return false;
    this.rowStart = pos;
    this.rowEnd = last;
    pos++;
    while (pos < last && isJsonSpace(buf[pos])) pos++;
    if (pos === last - 1) return true; // {}
    let guess = 0;
    for (;;) {
      // "key"
      if (buf[pos] !== CH_QUOTE) return false;
      const keyStart = ++pos;
      pos = this.stringEnd(buf, pos, last);
      if (pos < 0) return false;
      const keyEnd = pos++;
      while (pos < last && isJsonSpace(buf[pos])) pos++;
      if (buf[pos] !== CH_COLON) return false;
      pos++;
      while (pos < last && isJsonSpace(buf[pos])) pos++;
      // value
      let valueStart = pos;
      let valueEnd: number;
      let isNull = false;
      const first = buf[pos];
      if (first === CH_QUOTE) {
        valueStart = ++pos;
        pos = this.stringEnd(buf, pos, last);
        if (pos < 0) return false;
        valueEnd = pos++;
      } else if (first === CH_MINUS || (first >= CH_0 && first <= CH_9)) {
        if (first === CH_MINUS) pos++;
        const digitsStart = pos;
        while (pos < last && buf[pos] >= CH_0 && buf[pos] <= CH_9) pos++;
        const digits = pos - digitsStart;
        if (digits === 0 || digits > MAX_DIGITS) return false;
        // A leading zero is only "0" itself; "-0" prints as "0": both left to JSON.parse.
        if (buf[digitsStart] === CH_0 && (digits > 1 || first === CH_MINUS)) return false;
        valueEnd = pos;
      } else if (matchesWord(buf, pos, last, WORD_TRUE)) {
        pos += 4;
        valueEnd = pos;
      } else if (matchesWord(buf, pos, last, WORD_FALSE)) {
        pos += 5;
        valueEnd = pos;
      } else if (matchesWord(buf, pos, last, WORD_NULL)) {
        pos += 4;
        valueEnd = pos;
        isNull = true;
      } else {
        return false;
      }
      const slotIdx = this.slotOf(buf, keyStart, keyEnd, guess);
      if (slotIdx >= 0) {
        starts[slotIdx] = isNull ? -1 : valueStart;
        ends[slotIdx] = valueEnd;
        guess = slotIdx + 1 === slotCount ? 0 : slotIdx + 1;
      } else if (this.matchesIgnoringCase(buf, keyStart, keyEnd)) {
        return false;
      }
      while (pos < last && isJsonSpace(buf[pos])) pos++;
      if (pos === last - 1) return true; // the closing brace
      if (buf[pos] !== CH_COMMA) return false;
      pos++;
      while (pos < last && isJsonSpace(buf[pos])) pos++;
    }
  }

  /** The closing quote of a string without escapes or control bytes starting at `pos`; -1 otherwise. */
  private stringEnd(buf: Uint8Array, pos: number, end: number): number {
    for (; pos < end; pos++) {
      const byte = buf[pos];
      if (byte === CH_QUOTE) return pos;
      if (byte === CH_BACKSLASH || byte < 0x20) return -1;
    }
    return -1;
  }
}
