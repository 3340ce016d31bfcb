/**
 * Stream Load request headers -> validated options, with Doris's header names, defaults and meanings
 * (https://doris.apache.org/docs/data-operate/import/import-way/stream-load-manual), the first step of
 * planning a load on the FE (load-planner.ts binds the `columns` and `where` expressions parsed here;
 * the plain values go into the load plan as they are, src/load/load-plan.ts). A header that does
 * not validate fails the load before any data is read, with a Doris-style `[INVALID_ARGUMENT]` message.
 * Every Doris Stream Load header is in DORIS_HEADERS: the ones Galene acts on are parsed below; the
 * others (enclose, escape, partitions, timezone, merge_type DELETE...) are refused with
 * `[INVALID_ARGUMENT]` naming the header, unless they carry the value that means Doris's default (which
 * is what Galene does anyway), so a load never silently means something else than the user asked for.
 * Headers that are not Doris's pass: HTTP clients send Host, User-Agent, Expect, Authorization,
 * Content-Length... — except names in Doris's style (lower case with an underscore), which no HTTP client
 * sends and which are most likely a misspelt Doris header (`column_seperator`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { GaleneError } from '../common/errors';
import type { JsonPath, LoadOptions, StreamLoadFormat } from '../load/load-plan';
import type { Expr } from '../sql/ast';
import { parseExpression } from '../sql/parser';

/** One item of the `columns` header: a source column (`expr` null) or a derived column `name = expr`. */
export interface ColumnMappingItem {
  readonly name: string;
  readonly expr: Expr | null;
  readonly exprText: string;
}

/** The headers of one request: the plain options, and the `columns` and `where` expressions still to bind. */
export interface StreamLoadHeaders {
  readonly options: LoadOptions;
  /** The `columns` header; null when absent (the table's columns in order). */
  readonly columns: readonly ColumnMappingItem[] | null;
  readonly where: Expr | null;
  readonly whereText: string;
}

/** Doris: ^[-_A-Za-z0-9:]{1,128}$ */
const LABEL_RE = /^[-_A-Za-z0-9:]{1,128}$/;
/** Rows are written out at least this often, whatever exec_mem_limit says (bounded memory per load). */
export const MAX_BUFFER_BYTES = 64 * 1024 * 1024;
const DEFAULT_TIMEOUT_SECONDS = 600;

const invalid = (message: string): GaleneError => new GaleneError('LOAD_INVALID_ARGUMENT', [message]);

function header(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  const text = (Array.isArray(value) ? value[value.length - 1] : value).trim();
  return text === '' ? null : text;
}

function booleanHeader(headers: IncomingHttpHeaders, name: string, fallback: boolean): boolean {
  const text = header(headers, name);
  if (text === null) return fallback;
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw invalid(`Invalid ${name} value: ${text}, expected true or false`);
}

/**
 * A separator or delimiter header as bytes: `\xNN...` is hex (Doris), and `\t`, `\n`, `\r`, `\\` are
 * accepted as escapes because an HTTP header cannot carry a raw tab at its edges or a newline.
 */
export function parseSeparator(text: string, what: string): Buffer {
  if (/^\\x/i.test(text)) {
    const hex = text.slice(2);
    if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) throw invalid(`Invalid ${what}: ${text}`);
    return Buffer.from(hex, 'hex');
  }
  const unescaped = text.replace(/\\([tnr\\])/g, (_m, ch: string) => (ch === 't' ? '\t' : ch === 'n' ? '\n' : ch === 'r' ? '\r' : '\\'));
  const bytes = Buffer.from(unescaped, 'utf8');
  if (bytes.length === 0) throw invalid(`Invalid ${what}: empty`);
  return bytes;
}

/** Split at top-level commas (not inside parentheses, brackets or quotes). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let pos = 0; pos < text.length; pos++) {
    const ch = text[pos];
    if (quote !== null) {
      if (ch === '\\') pos++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, pos));
      start = pos + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const IDENT_RE = /^\s*(?:`((?:[^`]|``)+)`|([A-Za-z_@][A-Za-z0-9_@$]*))\s*/;

/** The `columns` header: `k1, k2, tmp, v = tmp * 2`. */
export function parseColumnsHeader(text: string): ColumnMappingItem[] {
  const items: ColumnMappingItem[] = [];
  for (const part of splitTopLevel(text)) {
    const match = IDENT_RE.exec(part);
    if (!match) throw invalid(`Invalid columns: '${text}' (bad column name near '${part.trim()}')`);
    const name = match[1] !== undefined ? match[1].replace(/``/g, '`') : match[2];
    const rest = part.slice(match[0].length);
    if (rest === '') {
      items.push({ name, expr: null, exprText: '' });
      continue;
    }
    if (rest[0] !== '=') throw invalid(`Invalid columns: '${text}' (expected ',' or '=' after ${name})`);
    const exprText = rest.slice(1).trim();
    let expr: Expr;
    try {
      expr = parseExpression(exprText);
    } catch (err) {
      throw invalid(`Invalid columns: '${text}': ${(err as Error).message}`);
    }
    items.push({ name, expr, exprText });
  }
  const seen = new Set<string>();
  for (const item of items) {
    const lower = item.name.toLowerCase();
    if (seen.has(lower)) throw invalid(`Duplicate column: ${item.name}`);
    seen.add(lower);
  }
  return items;
}

/** `$.a.b[0]`, `$['a'].b`, `$` -> path parts. */
export function parseJsonPath(text: string): JsonPath {
  const path: (string | number)[] = [];
  if (!text.startsWith('$')) throw invalid(`Invalid jsonpath: ${text}`);
  let pos = 1;
  while (pos < text.length) {
    if (text[pos] === '.') {
      const match = /^[^.[\]]+/.exec(text.slice(pos + 1));
      if (!match) throw invalid(`Invalid jsonpath: ${text}`);
      path.push(match[0]);
      pos += 1 + match[0].length;
    } else if (text[pos] === '[') {
      const close = text.indexOf(']', pos);
      if (close < 0) throw invalid(`Invalid jsonpath: ${text}`);
      const inner = text.slice(pos + 1, close).trim();
      if (/^\d+$/.test(inner)) path.push(Number(inner));
      else if (/^'.*'$|^".*"$/.test(inner)) path.push(inner.slice(1, -1));
      else throw invalid(`Invalid jsonpath: ${text}`);
      pos = close + 1;
    } else {
      throw invalid(`Invalid jsonpath: ${text}`);
    }
  }
  return path;
}

function parseJsonPaths(text: string): JsonPath[] {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    throw invalid(`Invalid jsonpaths: ${text}`);
  }
  if (!Array.isArray(list) || list.length === 0 || !list.every((item) => typeof item === 'string')) throw invalid(`Invalid jsonpaths: ${text} (expected a JSON array of strings)`);
  return (list as string[]).map(parseJsonPath);
}

/**
 * How Galene treats each Doris Stream Load header (names from the Doris Stream Load manual and BE
 * http_common.h): `used` headers are parsed by parseStreamLoadHeaders or read by another part of the load
 * path (group_commit by Group Commit, txn_* by `_stream_load_2pc`); a function accepts the values that
 * leave Galene's behaviour what Doris would do (the default, or a pure execution hint) and refuses the
 * rest; `refused` headers are refused whatever their value.
 */
type HeaderRule = 'used' | 'refused' | ((value: string) => boolean);

const isFalse = (value: string): boolean => value.toLowerCase() === 'false';
const isBoolean = (value: string): boolean => /^(true|false)$/i.test(value);

export const DORIS_HEADERS: Readonly<Record<string, HeaderRule>> = {
  label: 'used',
  format: 'used',
  column_separator: 'used',
  line_delimiter: 'used',
  columns: 'used',
  where: 'used',
  max_filter_ratio: 'used',
  timeout: 'used',
  strict_mode: 'used',
  exec_mem_limit: 'used',
  jsonpaths: 'used',
  strip_outer_array: 'used',
  read_json_by_line: 'used',
  partial_columns: 'used',
  'function_column.sequence_col': 'used',
  sequence_col: 'used',
  two_phase_commit: 'used',
  comment: 'used',
  group_commit: 'used',
  txn_id: 'used',
  txn_operation: 'used',
  // APPEND (default) and DELETE are implemented; MERGE (and its `delete` condition) is not.
  merge_type: (value) => value.toUpperCase() === 'APPEND' || value.toUpperCase() === 'DELETE',
  delete: 'refused',
  unique_key_update_mode: (value) => value.toUpperCase() === 'UPSERT',
  partial_update_new_key_behavior: (value) => value.toUpperCase() === 'APPEND',
  // This server has one compute group.
  compute_group: (value) => value === 'default_compute_group',
  cloud_cluster: (value) => value === 'default_compute_group',
  compress_type: (value) => value.toLowerCase() === 'plain',
  enclose: 'refused',
  escape: 'refused',
  trim_double_quotes: isFalse,
  skip_lines: (value) => /^0+$/.test(value),
  json_root: 'refused',
  fuzzy_parse: isFalse,
  num_as_string: isFalse,
  hidden_columns: 'refused',
  partitions: 'refused',
  temporary_partitions: 'refused',
  negative: isFalse,
  timezone: 'refused',
  time_zone: 'refused',
  load_to_single_tablet: isFalse,
  enable_profile: isFalse,
  // Pure execution hints: Galene's single write path gives the same result whatever they say.
  send_batch_parallelism: (value) => /^[1-9][0-9]*$/.test(value),
  memtable_on_sink_node: isBoolean,
};

/** A Doris-style header name (lower case, an underscore): no HTTP client sends one, a misspelt Doris header is likely. */
const DORIS_STYLE_NAME_RE = /^[a-z0-9.]*_[a-z0-9_.]*$/;

const shown = (value: string): string => (value.length > 64 ? `${value.slice(0, 64)}...` : value);

/**
 * Refuse the request's headers that Galene would otherwise not act on (see DORIS_HEADERS). Node gives
 * header names in lower case; repeated headers are judged by their last value, as everywhere here.
 */
export function checkHeadersActedOn(headers: IncomingHttpHeaders): void {
  for (const name of Object.keys(headers)) {
    const rule = Object.prototype.hasOwnProperty.call(DORIS_HEADERS, name) ? DORIS_HEADERS[name] : null;
    if (rule === 'used') continue;
    if (rule === null) {
      if (DORIS_STYLE_NAME_RE.test(name)) throw invalid(`Unknown Stream Load header: ${name}`);
      continue;
    }
    const value = header(headers, name);
    if (value === null) continue;
    if (rule !== 'refused' && rule(value)) continue;
    if (name === 'merge_type') throw invalid(`merge_type ${shown(value)} is not supported yet, only APPEND and DELETE`);
    throw invalid(`Stream Load header ${name} is not supported yet (${name}: ${shown(value)})`);
  }
}

/** Validate the headers of one Stream Load request. */
export function parseStreamLoadHeaders(headers: IncomingHttpHeaders): StreamLoadHeaders {
  checkHeadersActedOn(headers);
  const label = header(headers, 'label');
  if (label !== null && !LABEL_RE.test(label)) throw invalid(`Label format error. regex: ^[-_A-Za-z0-9:]{1,128}$, label: ${label}`);
  const formatText = (header(headers, 'format') ?? 'csv').toLowerCase();
  let format: StreamLoadFormat;
  if (formatText === 'csv' || formatText === 'csv_with_names' || formatText === 'json') format = formatText;
  else if (['csv_with_names_and_types', 'parquet', 'orc', 'arrow'].includes(formatText)) throw new GaleneError('LOAD_NOT_SUPPORTED', [`format ${formatText}`]);
  else throw invalid(`unknown data format, format=${formatText}`);

  const columnsText = header(headers, 'columns');
  const columns = columnsText === null ? null : parseColumnsHeader(columnsText);
  const whereText = header(headers, 'where') ?? '';
  let where: Expr | null = null;
  if (whereText !== '') {
    try {
      where = parseExpression(whereText);
    } catch (err) {
      throw invalid(`Invalid where: '${whereText}': ${(err as Error).message}`);
    }
  }
  const ratioText = header(headers, 'max_filter_ratio');
  const maxFilterRatio = ratioText === null ? 0 : Number(ratioText);
  if (!Number.isFinite(maxFilterRatio) || maxFilterRatio < 0 || maxFilterRatio > 1) throw invalid(`Invalid max_filter_ratio: ${ratioText} (expected a number in [0, 1])`);
  const timeoutText = header(headers, 'timeout');
  const timeoutSeconds = timeoutText === null ? DEFAULT_TIMEOUT_SECONDS : Number(timeoutText);
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds <= 0) throw invalid(`Invalid timeout format: ${timeoutText}`);
  const memText = header(headers, 'exec_mem_limit');
  const memLimit = memText === null ? MAX_BUFFER_BYTES : Number(memText);
  if (!Number.isInteger(memLimit) || memLimit <= 0) throw invalid(`Invalid exec_mem_limit: ${memText}`);
  const jsonPathsText = header(headers, 'jsonpaths');
  const columnSeparatorText = header(headers, 'column_separator');
  const lineDelimiterText = header(headers, 'line_delimiter');
  const columnSeparator = columnSeparatorText === null ? Buffer.from('\t') : parseSeparator(columnSeparatorText, 'column separator');
  const lineDelimiter = lineDelimiterText === null ? Buffer.from('\n') : parseSeparator(lineDelimiterText, 'line delimiter');
  if (format !== 'json' && lineDelimiter.includes(columnSeparator)) throw invalid('column separator and line delimiter can not overlap');
  const options: LoadOptions = {
    label,
    format,
    columnSeparator,
    lineDelimiter,
    stripOuterArray: booleanHeader(headers, 'strip_outer_array', false),
    jsonPaths: jsonPathsText === null ? null : parseJsonPaths(jsonPathsText),
    readJsonByLine: booleanHeader(headers, 'read_json_by_line', false),
    maxFilterRatio,
    timeoutSeconds,
    strictMode: booleanHeader(headers, 'strict_mode', false),
    partialColumns: booleanHeader(headers, 'partial_columns', false),
    sequenceCol: header(headers, 'function_column.sequence_col') ?? header(headers, 'sequence_col'),
    twoPhaseCommit: booleanHeader(headers, 'two_phase_commit', false),
    memLimit: Math.min(memLimit, MAX_BUFFER_BYTES),
    comment: header(headers, 'comment') ?? '',
    mergeType: (header(headers, 'merge_type') ?? 'APPEND').toUpperCase() === 'DELETE' ? 'DELETE' : 'APPEND',
  };
  return { options, columns, where, whereText };
}
