/**
 * Incremental JSON parsing for Stream Load (format json). Two shapes, as Doris:
 * - read_json_by_line=true: every line is one JSON document (an object, or with strip_outer_array an
 *   array of objects); a line that does not parse is one filtered row.
 * - otherwise the body is a JSON document: an object, or with strip_outer_array=true an array of objects.
 *   The array is never held whole: a byte scanner finds each element's extent (tracking strings, escapes
 *   and nesting) across blocks and parses elements one at a time; several top-level objects in a row are
 *   accepted too.
 * `json_root` picks the node of each document the rows are read from (a whole document is then parsed
 * at once, up to the load's buffer limit). Values are matched to source columns by `jsonpaths` when
 * given, else by key (exact, then ignoring case); with `fuzzy_parse` by the first row's key positions.
 * Numbers become their JavaScript text (integers beyond 2^53 lose precision unless quoted), or with
 * `num_as_string` their exact text. Lines of flat objects of plain values are read without JSON.parse by
 * a byte scanner (flat-json.ts) that gives the same values; any other line is parsed.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { GaleneError } from '../../common/errors';
import type { JsonPath } from '../load-plan';
import type { BodyReader } from './body-blocks';
import { FlatJsonScanner } from './flat-json';
import type { RowConverter } from './row-converter';

export interface JsonReaderOptions {
  readonly lineDelimiter: Buffer;
  readonly byLine: boolean;
  readonly stripOuterArray: boolean;
  readonly jsonPaths: readonly JsonPath[] | null;
  readonly jsonRoot: JsonPath | null;
  readonly fuzzyParse: boolean;
  readonly numAsString: boolean;
  readonly maxRowBytes: number;
}

const CH_QUOTE = 0x22;
const CH_BACKSLASH = 0x5c;
const CH_LBRACE = 0x7b;
const CH_RBRACE = 0x7d;
const CH_LBRACKET = 0x5b;
const CH_RBRACKET = 0x5d;
const CH_COMMA = 0x2c;

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

function valueText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const isNumberStart = (ch: number): boolean => ch === 0x2d || (ch >= 0x30 && ch <= 0x39);
const isNumberPart = (ch: number): boolean => isNumberStart(ch) || ch === 0x2b || ch === 0x2e || ch === 0x45 || ch === 0x65;

/** num_as_string: the JSON text with every number outside strings quoted, so it parses to its exact text. */
function quoteNumbers(text: string): string {
  let out = '';
  let copied = 0;
  let inString = false;
  for (let pos = 0; pos < text.length; pos++) {
    const ch = text.charCodeAt(pos);
    if (inString) {
      if (ch === CH_BACKSLASH) pos++;
      else if (ch === CH_QUOTE) inString = false;
      continue;
    }
    if (ch === CH_QUOTE) inString = true;
    else if (isNumberStart(ch)) {
      let end = pos + 1;
      while (end < text.length && isNumberPart(text.charCodeAt(end))) end++;
      out += `${text.slice(copied, pos)}"${text.slice(pos, end)}"`;
      copied = end;
      pos = end - 1;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function extractPath(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

export class JsonReader implements BodyReader {
  private tail: Buffer | null = null;
  private row = 0;
  private line = 0;
  // Document-mode scanner state, kept across blocks.
  private scanPos = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Start of the element being scanned in the carried buffer, -1 when between elements. */
  private elementStart = -1;
  /** 'start': before the document; 'top': between top-level objects; 'array': inside the outer array. */
  private phase: 'start' | 'top' | 'array' | 'end' = 'start';
  private readonly lowerKeys: string[];
  /** fuzzy_parse: per source column, the position of its key in the first row's keys (-1: absent). */
  private fuzzyPositions: Int32Array | null = null;
  /** The byte scanner of flat objects (flat-json.ts) when the options allow it, and its value spans. */
  private readonly flat: FlatJsonScanner | null;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;

  constructor(
    private readonly converter: RowConverter,
    private readonly options: JsonReaderOptions,
  ) {
    this.lowerKeys = converter.sourceNames.map((name) => name.toLowerCase());
    const plainRows = options.byLine && !options.stripOuterArray && options.jsonPaths === null && options.jsonRoot === null && !options.fuzzyParse && !options.numAsString;
    this.flat = plainRows ? new FlatJsonScanner(converter.sourceNames) : null;
    this.starts = new Int32Array(converter.sourceNames.length);
    this.ends = new Int32Array(converter.sourceNames.length);
    if (options.jsonPaths !== null && options.jsonPaths.length !== converter.sourceNames.length) {
      throw new GaleneError('LOAD_INVALID_ARGUMENT', [`jsonpaths has ${options.jsonPaths.length} paths but there are ${converter.sourceNames.length} source columns`]);
    }
  }

  private parse(text: string): unknown {
    return JSON.parse(this.options.numAsString ? quoteNumbers(text) : text);
  }

  feed(chunks: readonly Buffer[], final: boolean): void {
    const parts = this.tail ? [this.tail, ...chunks] : chunks;
    const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts as Buffer[]);
    if (this.options.byLine) this.feedLines(buf, final);
    else this.feedDocument(buf, final);
  }

  // ------------------------------------------------------------ one document per line

  private feedLines(buf: Buffer, final: boolean): void {
    const delim = this.options.lineDelimiter;
    const lastDelim = buf.lastIndexOf(delim);
    const completeEnd = final ? buf.length : lastDelim < 0 ? 0 : lastDelim + delim.length;
    const complete = buf.subarray(0, completeEnd);
    const flat = this.flat !== null && isUtf8(complete) ? this.flat : null;
    if (flat !== null) this.converter.setBlockBuffer(buf, isAscii(complete) ? buf.toString('latin1', 0, completeEnd) : null);
    let pos = 0;
    while (pos < completeEnd) {
      let lineEnd = buf.indexOf(delim, pos);
      if (lineEnd < 0 || lineEnd > completeEnd) lineEnd = completeEnd;
      this.line++;
      if (flat !== null && flat.scan(buf, pos, lineEnd, this.starts, this.ends)) this.converter.addSpans(buf, this.starts, this.ends, this.line, flat.rowStart, flat.rowEnd);
      else this.document(buf, pos, lineEnd, this.line);
      pos = Math.min(completeEnd, lineEnd + delim.length);
    }
    this.keepTail(buf, completeEnd);
  }

  private keepTail(buf: Buffer, from: number): void {
    if (from >= buf.length) {
      this.tail = null;
      return;
    }
    if (buf.length - from > this.options.maxRowBytes) throw new GaleneError('LOAD_DATA_QUALITY', [`a JSON document is longer than the load buffer limit (${this.options.maxRowBytes} bytes)`]);
    this.tail = Buffer.from(buf.subarray(from));
  }

  /** Parse one JSON document (a line) into rows. */
  private document(buf: Buffer, start: number, end: number, line: number): void {
    const region = buf.subarray(start, end);
    const text = region.toString('utf8').trim();
    if (text === '') return;
    if (!isUtf8(region)) return this.converter.rejectRow(line, 'invalid UTF-8 data', text);
    let value: unknown;
    try {
      value = this.parse(text);
    } catch (err) {
      return this.converter.rejectRow(line, `Parse json data failed: ${(err as Error).message}`, text);
    }
    this.documentRows(value, line, text);
  }

  /** The rows of one parsed document: its json_root node, an array of rows (strip_outer_array) or one row. */
  private documentRows(value: unknown, line: number, text: string): void {
    let node = value;
    if (this.options.jsonRoot !== null) {
      node = extractPath(value, this.options.jsonRoot);
      if (node === undefined) return this.converter.rejectRow(line, 'JSON Root not found.', text);
    }
    if (Array.isArray(node)) {
      if (!this.options.stripOuterArray) return this.converter.rejectRow(line, 'JSON data is array-object, `strip_outer_array` must be TRUE.', text);
      for (const element of node) this.emit(element, line, JSON.stringify(element));
      return;
    }
    if (this.options.stripOuterArray) return this.converter.rejectRow(line, 'JSON data is not an array-object, `strip_outer_array` must be FALSE.', text);
    this.emit(node, line, node === value ? text : JSON.stringify(node));
  }

  /** fuzzy_parse: the key positions of the first row, for every later one. */
  private fuzzyValues(object: Record<string, unknown>): unknown[] {
    const values = Object.values(object);
    if (this.fuzzyPositions === null) {
      const keys = Object.keys(object);
      const lower = keys.map((key) => key.toLowerCase());
      this.fuzzyPositions = Int32Array.from(this.converter.sourceNames, (name, slotIdx) => {
        const exact = keys.indexOf(name);
        return exact >= 0 ? exact : lower.indexOf(this.lowerKeys[slotIdx]);
      });
    }
    return Array.from(this.fuzzyPositions, (position) => (position >= 0 ? values[position] : undefined));
  }

  private emit(value: unknown, line: number, raw: string): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.converter.rejectRow(line, 'JSON value is not an object', raw);
      return;
    }
    const object = value as Record<string, unknown>;
    const names = this.converter.sourceNames;
    const values: (string | null)[] = new Array(names.length);
    const paths = this.options.jsonPaths;
    const fuzzy = paths === null && this.options.fuzzyParse ? this.fuzzyValues(object) : null;
    let lowerMap: Map<string, unknown> | null = null;
    for (let slotIdx = 0; slotIdx < names.length; slotIdx++) {
      let found: unknown;
      if (fuzzy !== null) found = fuzzy[slotIdx];
      else if (paths !== null) found = extractPath(object, paths[slotIdx]);
      else {
        found = object[names[slotIdx]];
        if (found === undefined && !Object.prototype.hasOwnProperty.call(object, names[slotIdx])) {
          lowerMap ??= new Map(Object.entries(object).map(([key, item]) => [key.toLowerCase(), item]));
          found = lowerMap.get(this.lowerKeys[slotIdx]);
        }
      }
      values[slotIdx] = valueText(found);
    }
    this.converter.addValues(values, line, raw);
  }

  // ------------------------------------------------------------ one streamed document

  private feedDocument(buf: Buffer, final: boolean): void {
    const strip = this.options.stripOuterArray;
    let pos = this.scanPos;
    const length = buf.length;
    while (pos < length) {
      const byte = buf[pos];
      if (this.elementStart >= 0) {
        // Inside an element: find where it ends.
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (byte === CH_BACKSLASH) this.escaped = true;
          else if (byte === CH_QUOTE) this.inString = false;
        } else if (this.depth === 0) {
          // A scalar element (not a row): it ends at a separator.
          if (byte === CH_COMMA || byte === CH_RBRACKET || isSpace(byte)) {
            this.row++;
            this.converter.rejectRow(this.row, 'JSON value is not an object', buf.toString('utf8', this.elementStart, pos));
            this.elementStart = -1;
            continue; // look at the separator again between elements
          }
          if (byte === CH_QUOTE) this.inString = true;
        } else if (byte === CH_QUOTE) this.inString = true;
        else if (byte === CH_LBRACE || byte === CH_LBRACKET) this.depth++;
        else if (byte === CH_RBRACE || byte === CH_RBRACKET) {
          this.depth--;
          if (this.depth === 0) {
            this.row++;
            this.element(buf, this.elementStart, pos + 1, this.row);
            this.elementStart = -1;
          }
        }
        pos++;
        continue;
      }
      if (isSpace(byte)) {
        pos++;
        continue;
      }
      if (this.phase === 'start' || this.phase === 'top') {
        if (byte === CH_LBRACKET && this.phase === 'start') {
          if (!strip) throw new GaleneError('LOAD_DATA_QUALITY', ['JSON data is array-object, `strip_outer_array` must be TRUE.']);
          this.phase = 'array';
          pos++;
          continue;
        }
        if (byte === CH_LBRACE) {
          // With json_root the rows (or their array) are inside each top-level document.
          if (strip && this.options.jsonRoot === null) throw new GaleneError('LOAD_DATA_QUALITY', ['JSON data is not an array-object, `strip_outer_array` must be FALSE.']);
          this.phase = 'top';
          this.startElement(pos);
          pos++;
          continue;
        }
        throw new GaleneError('LOAD_DATA_QUALITY', [`Parse json data failed: unexpected '${String.fromCharCode(byte)}' at byte ${pos} of a JSON document`]);
      }
      if (this.phase === 'array') {
        if (byte === CH_COMMA) {
          pos++;
          continue;
        }
        if (byte === CH_RBRACKET) {
          this.phase = 'end';
          pos++;
          continue;
        }
        this.startElement(pos);
        this.depth = byte === CH_LBRACE || byte === CH_LBRACKET ? 1 : 0;
        this.inString = byte === CH_QUOTE;
        pos++;
        continue;
      }
      // phase 'end': only whitespace may follow the outer array.
      throw new GaleneError('LOAD_DATA_QUALITY', ['Parse json data failed: data after the end of the JSON array']);
    }
    if (final) {
      if (this.elementStart >= 0) {
        if (this.depth === 0 && !this.inString) {
          this.row++;
          this.converter.rejectRow(this.row, 'JSON value is not an object', buf.toString('utf8', this.elementStart, length));
        } else {
          throw new GaleneError('LOAD_DATA_QUALITY', ['Parse json data failed: the body ends inside a JSON value']);
        }
      } else if (this.phase === 'array') {
        throw new GaleneError('LOAD_DATA_QUALITY', ['Parse json data failed: the JSON array is not closed']);
      }
      this.tail = null;
      return;
    }
    // Carry the unfinished element (or nothing) into the next block.
    const keepFrom = this.elementStart >= 0 ? this.elementStart : length;
    this.keepTail(buf, keepFrom);
    this.scanPos = length - keepFrom;
    if (this.elementStart >= 0) this.elementStart = 0;
  }

  /** One element of the streamed document: an object is a row, anything else a filtered row. */
  private element(buf: Buffer, start: number, end: number, row: number): void {
    const region = buf.subarray(start, end);
    const text = region.toString('utf8');
    if (!isUtf8(region)) return this.converter.rejectRow(row, 'invalid UTF-8 data', text);
    let value: unknown;
    try {
      value = this.parse(text);
    } catch (err) {
      return this.converter.rejectRow(row, `Parse json data failed: ${(err as Error).message}`, text);
    }
    if (this.phase === 'top') this.documentRows(value, row, text);
    else this.emit(value, row, text);
  }

  private startElement(pos: number): void {
    this.elementStart = pos;
    this.depth = 1;
    this.inString = false;
    this.escaped = false;
  }
}
