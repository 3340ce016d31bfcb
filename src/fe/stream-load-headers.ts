/**
 * Stream Load request headers -> validated options, with Doris's header names, defaults and meanings
 * (https://doris.apache.org/docs/data-operate/import/import-way/stream-load-manual), the first step of
 * planning a load on the FE (load-planner.ts binds the `columns`, `where` and `delete` expressions parsed
 * here; the plain values go into the load plan as they are, src/load/load-plan.ts). A header that does
 * not validate fails the load before any data is read, with a Doris-style `[INVALID_ARGUMENT]` message.
 *
 * STREAM_LOAD_HEADERS is the one table of the headers Doris documents and what Galene does with each:
 * honoured (parsed below), accepted with a warning (a hint with no effect here: the warning goes into
 * the answer's Message and the server log), or refused with a message naming it — none is ignored.
 * Headers that are not Doris's pass: HTTP clients send Host, User-Agent, Expect, Authorization,
 * Content-Length...; a name in Doris's style (lower case with an underscore) that is not in the table is
 * accepted with a warning, as Doris ignores headers it does not know (a misspelt `column_seperator`). */
import type { IncomingHttpHeaders } from 'node:http';
import { GaleneError } from '../common/errors';
import type { JsonPath, LoadOptions, StreamLoadFormat } from '../load/load-plan';
import { COMPRESS_TYPES, CompressType } from '../load/source/decompress';
import { DELETE_SIGN_COLUMN, SEQUENCE_HIDDEN_COLUMN } from '../load/hidden-columns';
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
  /** The `hidden_columns` header: hidden columns that follow the table's when `columns` is absent. */
  readonly hiddenColumns: readonly string[];
  readonly where: Expr | null;
  readonly whereText: string;
  /** merge_type MERGE's `delete` condition, still to bind. */
  readonly deleteCondition: Expr | null;
  readonly deleteText: string;
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
 * A separator or delimiter header as bytes: `\xNN...` is hex (Doris; `\xNN\xNN` too), and `\t`, `\n`, `\r`, `\\` are
 * accepted as escapes because an HTTP header cannot carry a raw tab at its edges or a newline.
 */
export function parseSeparator(text: string, what: string): Buffer {
  if (/^\\x/i.test(text)) {
    // `\x0102` (Doris) or `\x01\x02`.
    const hex = /^(\\x[0-9a-fA-F]{2})+$/i.test(text) ? text.replace(/\\x/gi, '') : text.slice(2);
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

/** How Galene treats a header: acts on it, accepts it with a warning (no effect here), or refuses it. */
export type HeaderHandling = 'honoured' | 'warned' | 'refused';

/** What a header's value means for Galene: refused with a message, accepted with a warning, or acted on (null). */
export type HeaderJudgement = { readonly refuse: string } | { readonly warn: string } | null;

export interface StreamLoadHeaderSpec {
  readonly handling: HeaderHandling;
  /** The values Doris documents (for docs/stream-load.md). */
  readonly values: string;
  readonly defaultValue: string;
  /** What Galene does with it. */
  readonly galene: string;
  /** The formats the header applies to; given with another format it is accepted with a warning. */
  readonly formats?: 'csv' | 'json';
  /**
   * Values Galene does not act on (honoured headers: the values it cannot honour; warned headers: every
   * value that would change Doris's behaviour; refused headers: every value but Doris's default).
   */
  readonly judge?: (value: string) => HeaderJudgement;
}

const isBooleanText = (value: string): boolean => /^(true|false)$/i.test(value);
const notBoolean = (name: string, value: string): HeaderJudgement => (isBooleanText(value) ? null : { refuse: `Invalid ${name} value: ${value}, expected true or false` });
const shown = (value: string): string => (value.length > 64 ? `${value.slice(0, 64)}...` : value);
/** The refusal of a header value Galene cannot act on: `what` says what it asked for. */
const notYet = (name: string, what: string) => (value: string): HeaderJudgement => ({ refuse: `Stream Load header ${name} is not supported yet: ${what} (${name}: ${shown(value)})` });
/** Only Doris's default value (`accepted`) passes. */
const notYetUnless = (name: string, accepted: (value: string) => boolean, what: string) => (value: string): HeaderJudgement => (accepted(value) ? null : notYet(name, what)(value));
const isFalse = (value: string): boolean => value.toLowerCase() === 'false';

/**
 * Every Stream Load header Doris documents (the Stream Load manual, BE http_common.h), and how Galene
 * treats it: the one table the header check, the docs and the header-walk test read. Honoured headers
 * are read by parseStreamLoadHeaders (or by Group Commit: group_commit). A header not in this table is
 * warned about when it looks like a Doris header (Doris ignores headers it does not know).
 */
export const STREAM_LOAD_HEADERS: Readonly<Record<string, StreamLoadHeaderSpec>> = {
  label: { handling: 'honoured', values: '^[-_A-Za-z0-9:]{1,128}$', defaultValue: 'generated', galene: 'the load label; a used label answers Label Already Exists; kept label_keep_max_second' },
  format: { handling: 'honoured', values: 'csv, csv_with_names, csv_with_names_and_types, json, parquet, orc, arrow', defaultValue: 'csv', galene: 'csv, csv_with_names (first line skipped), csv_with_names_and_types (first two lines skipped), json; parquet, orc and arrow are refused' },
  column_separator: { handling: 'honoured', formats: 'csv', values: 'bytes; `\\xNN` hex', defaultValue: '`\\t`', galene: 'any bytes, multi-byte too; `\\xNN...` hex, `\\t` `\\n` `\\r` `\\\\` escapes' },
  line_delimiter: { handling: 'honoured', values: 'bytes; `\\xNN` hex', defaultValue: '`\\n`', galene: 'any bytes, multi-byte too (CSV lines, JSON with read_json_by_line)' },
  enclose: { handling: 'honoured', formats: 'csv', values: 'one byte', defaultValue: 'none', galene: 'a field starting with it runs to the next one, separators and line delimiters inside are data; a doubled enclose inside is one' },
  escape: { handling: 'honoured', formats: 'csv', values: 'one byte', defaultValue: 'none', galene: 'inside an enclosed field the byte after it is data (an enclose, the escape itself)' },
  trim_double_quotes: { handling: 'honoured', formats: 'csv', values: 'true, false', defaultValue: 'false', galene: 'removes the outermost double quotes of each field' },
  skip_lines: { handling: 'honoured', formats: 'csv', values: 'integer >= 0', defaultValue: '0', galene: 'skips that many lines at the start (not with csv_with_names*, whose header lines are skipped instead)' },
  compress_type: { handling: 'honoured', values: 'gz, bz2, lz4, zstd, deflate, lzo, lzop, lz4_block, snappy_block', defaultValue: 'none', galene: 'the body is decompressed as a stream: gz, deflate (zlib), bz2, lz4 (LZ4 frame), zstd; lzo, lzop, lz4_block and snappy_block are refused' },
  columns: { handling: 'honoured', values: 'column list, `v = expr`', defaultValue: 'the table columns', galene: 'source columns in file order; a name not in the table is read but not stored; `v = expr` derives a column' },
  where: { handling: 'honoured', values: 'boolean expression', defaultValue: 'none', galene: 'rows where it is not true are dropped (NumberUnselectedRows)' },
  max_filter_ratio: { handling: 'honoured', values: '0..1', defaultValue: '0', galene: 'allowed share of bad rows (unselected rows not counted)' },
  partitions: { handling: 'refused', values: 'partition names', defaultValue: 'all', galene: 'not supported yet: the load fails naming it', judge: notYet('partitions', 'loading into chosen partitions') },
  temporary_partitions: { handling: 'refused', values: 'partition names', defaultValue: 'none', galene: 'not supported yet: the load fails naming it', judge: notYet('temporary_partitions', 'temporary partitions') },
  timeout: { handling: 'honoured', values: 'seconds', defaultValue: '600', galene: 'a load still running after that many seconds is aborted: `[TIMEOUT]timeout by txn manager`' },
  strict_mode: { handling: 'honoured', values: 'true, false', defaultValue: 'false', galene: 'false: a value that does not convert becomes NULL; true: the row is filtered' },
  timezone: { handling: 'refused', values: 'time zone', defaultValue: 'session default', galene: 'not supported yet: the load fails naming it', judge: notYet('timezone', 'a load time zone') },
  time_zone: { handling: 'refused', values: 'time zone', defaultValue: 'session default', galene: 'not supported yet: the load fails naming it', judge: notYet('time_zone', 'a load time zone') },
  exec_mem_limit: { handling: 'honoured', values: 'bytes', defaultValue: '2147483648 (Doris)', galene: 'bytes of body parsed and buffered before the rows are written (at most 64 MB; also the body block size)' },
  jsonpaths: { handling: 'honoured', formats: 'json', values: 'JSON array of paths', defaultValue: 'none', galene: 'values picked by path instead of by key' },
  json_root: { handling: 'honoured', formats: 'json', values: 'JSON path', defaultValue: 'none', galene: 'rows are read from that node of each document' },
  strip_outer_array: { handling: 'honoured', formats: 'json', values: 'true, false', defaultValue: 'false', galene: 'the document is an array of rows (streamed, never held whole)' },
  read_json_by_line: { handling: 'honoured', formats: 'json', values: 'true, false', defaultValue: 'false', galene: 'one JSON document per line' },
  fuzzy_parse: { handling: 'honoured', formats: 'json', values: 'true, false', defaultValue: 'false', galene: "every row's values are taken at the first row's key positions (all rows must list their keys in the same order)" },
  num_as_string: { handling: 'honoured', formats: 'json', values: 'true, false', defaultValue: 'false', galene: 'numbers keep their exact text (large integers, decimals) instead of passing through a double' },
  merge_type: { handling: 'honoured', values: 'APPEND, DELETE, MERGE', defaultValue: 'APPEND', galene: 'APPEND adds rows; DELETE deletes the loaded keys; MERGE deletes the keys of rows matching `delete` and upserts the others (merge-on-write UNIQUE KEY tables)' },
  delete: { handling: 'honoured', values: 'boolean expression', defaultValue: 'none', galene: 'the delete condition of merge_type MERGE' },
  'function_column.sequence_col': { handling: 'honoured', values: 'column', defaultValue: 'none', galene: "accepted when it names the table's sequence column (the row with the larger value wins)" },
  sequence_col: { handling: 'honoured', values: 'column', defaultValue: 'none', galene: 'same as function_column.sequence_col' },
  hidden_columns: { handling: 'honoured', values: '`__DORIS_DELETE_SIGN__`, `__DORIS_SEQUENCE_COL__`', defaultValue: 'none', galene: 'without `columns`: these fields follow the table columns; `__DORIS_DELETE_SIGN__` = 1 deletes the key, `__DORIS_SEQUENCE_COL__` fills the sequence column' },
  partial_columns: { handling: 'honoured', values: 'true, false', defaultValue: 'false', galene: 'on a merge-on-write UNIQUE KEY table only the loaded columns of existing rows change' },
  unique_key_update_mode: {
    handling: 'honoured',
    values: 'UPSERT, UPDATE_FIXED_COLUMNS, UPDATE_FLEXIBLE_COLUMNS',
    defaultValue: 'UPSERT',
    galene: 'UPSERT; UPDATE_FIXED_COLUMNS is partial_columns: true; UPDATE_FLEXIBLE_COLUMNS is refused',
    judge: (value) => (/^(UPSERT|UPDATE_FIXED_COLUMNS)$/i.test(value) ? null : /^UPDATE_FLEXIBLE_COLUMNS$/i.test(value) ? notYet('unique_key_update_mode', 'flexible partial update')(value) : { refuse: `Invalid unique_key_update_mode: ${shown(value)}` }),
  },
  partial_update_new_key_behavior: { handling: 'honoured', values: 'APPEND, ERROR', defaultValue: 'APPEND', galene: 'APPEND; ERROR is refused', judge: notYetUnless('partial_update_new_key_behavior', (value) => value.toUpperCase() === 'APPEND', 'failing a partial update on new keys') },
  two_phase_commit: { handling: 'honoured', values: 'true, false', defaultValue: 'false', galene: 'the data is durable but invisible until `_stream_load_2pc` commits it' },
  comment: { handling: 'honoured', values: 'text', defaultValue: 'none', galene: 'kept with the load, shown in the answer' },
  group_commit: { handling: 'honoured', values: 'off_mode, sync_mode, async_mode', defaultValue: 'table property', galene: 'see group-commit.md' },
  compute_group: { handling: 'honoured', values: 'compute group', defaultValue: 'default', galene: 'only default_compute_group (this server has one)', judge: notYetUnless('compute_group', (value) => value === 'default_compute_group', 'this server has only default_compute_group') },
  cloud_cluster: { handling: 'honoured', values: 'compute group', defaultValue: 'default', galene: 'only default_compute_group (this server has one)', judge: notYetUnless('cloud_cluster', (value) => value === 'default_compute_group', 'this server has only default_compute_group') },
  negative: { handling: 'refused', values: 'true, false', defaultValue: 'false', galene: 'false accepted; true (subtracting from SUM columns) refused', judge: notYetUnless('negative', isFalse, 'negative loads (subtracting from SUM columns)') },
  send_batch_parallelism: {
    handling: 'warned',
    values: 'integer > 0',
    defaultValue: '1',
    galene: 'accepted with a warning: one node writes every tablet, there is nothing to send in parallel',
    judge: (value) => (/^[1-9][0-9]*$/.test(value) ? { warn: 'no effect: one node writes every tablet, there is nothing to send in parallel' } : { refuse: 'Invalid send_batch_parallelism format' }),
  },
  load_to_single_tablet: {
    handling: 'warned',
    values: 'true, false',
    defaultValue: 'false',
    galene: 'true is accepted with a warning: rows go to the tablets their distribution chooses',
    judge: (value) => notBoolean('load_to_single_tablet', value) ?? (isFalse(value) ? null : { warn: 'no effect: rows go to the tablets their distribution chooses' }),
  },
  memtable_on_sink_node: {
    handling: 'warned',
    values: 'true, false',
    defaultValue: 'false',
    galene: 'accepted with a warning: the node that parses a load also builds its memtables',
    judge: (value) => notBoolean('memtable_on_sink_node', value) ?? { warn: 'no effect: the node that parses a load also builds its memtables' },
  },
  enable_profile: {
    handling: 'warned',
    values: 'true, false',
    defaultValue: 'false',
    galene: 'true is accepted with a warning: loads keep no profile',
    judge: (value) => notBoolean('enable_profile', value) ?? (isFalse(value) ? null : { warn: 'no effect: loads keep no profile' }),
  },
  txn_id: { handling: 'warned', values: 'transaction id', defaultValue: 'none', galene: 'read by `_stream_load_2pc`; on a load it is accepted with a warning', judge: () => ({ warn: 'no effect on a load: it is read by _stream_load_2pc' }) },
  txn_operation: { handling: 'warned', values: 'commit, abort', defaultValue: 'none', galene: 'read by `_stream_load_2pc`; on a load it is accepted with a warning', judge: () => ({ warn: 'no effect on a load: it is read by _stream_load_2pc' }) },
};

/** A Doris-style header name (lower case, an underscore): no HTTP client sends one, a misspelt Doris header is likely. */
const DORIS_STYLE_NAME_RE = /^[a-z0-9.]*_[a-z0-9_.]*$/;

/**
 * Judge the request's headers by STREAM_LOAD_HEADERS: throws for a refused one, returns the warnings
 * (`name: text`). Node gives header names in lower case; repeated headers are judged by their last value,
 * as everywhere here. `format` is the load's format, for headers that apply to one format only.
 */
export function judgeHeaders(headers: IncomingHttpHeaders, format: StreamLoadFormat): string[] {
  const warnings: string[] = [];
  const family = format === 'json' ? 'json' : 'csv';
  for (const name of Object.keys(headers)) {
    const value = header(headers, name);
    if (value === null) continue;
    const spec = Object.prototype.hasOwnProperty.call(STREAM_LOAD_HEADERS, name) ? STREAM_LOAD_HEADERS[name] : null;
    if (spec === null) {
      // Doris ignores a header it does not know; Galene says so.
      if (DORIS_STYLE_NAME_RE.test(name)) warnings.push(`${name}: unknown Stream Load header, ignored`);
      continue;
    }
    const judgement = spec.judge?.(value) ?? null;
    if (judgement !== null && 'refuse' in judgement) throw invalid(judgement.refuse);
    if (judgement !== null) warnings.push(`${name}: ${judgement.warn}`);
    else if (spec.formats !== undefined && spec.formats !== family) warnings.push(`${name}: no effect: it applies to ${spec.formats} loads only`);
  }
  return warnings;
}

/** A single-byte CSV option (enclose, escape): `\xNN` or one character; null when absent. */
function singleByte(headers: IncomingHttpHeaders, name: string): number | null {
  const text = header(headers, name);
  if (text === null) return null;
  const bytes = parseSeparator(text, name);
  if (bytes.length !== 1) throw invalid(`${name} should be a single byte, got: ${shown(text)}`);
  return bytes[0];
}

function parseFormat(headers: IncomingHttpHeaders): StreamLoadFormat {
  const formatText = (header(headers, 'format') ?? 'csv').toLowerCase();
  if (formatText === 'csv' || formatText === 'csv_with_names' || formatText === 'csv_with_names_and_types' || formatText === 'json') return formatText;
  if (['parquet', 'orc', 'arrow'].includes(formatText)) throw new GaleneError('LOAD_NOT_SUPPORTED', [`format ${formatText}`]);
  throw invalid(`unknown data format, format=${formatText}`);
}

function parseCompressType(headers: IncomingHttpHeaders): CompressType {
  const text = header(headers, 'compress_type');
  if (text === null) return 'plain';
  const lower = text.toLowerCase();
  if ((COMPRESS_TYPES as readonly string[]).includes(lower)) return lower as CompressType;
  if (['lzo', 'lzop', 'lz4_block', 'snappy_block'].includes(lower)) throw new GaleneError('LOAD_NOT_SUPPORTED', [`compress_type ${lower}`]);
  throw invalid(`unknown compress type, compress_type=${shown(text)}`);
}

/** merge_type and `delete`, checked together as Doris does. */
function parseMergeType(headers: IncomingHttpHeaders): { mergeType: LoadOptions['mergeType']; deleteText: string; deleteCondition: Expr | null } {
  const text = header(headers, 'merge_type');
  const upper = (text ?? 'APPEND').toUpperCase();
  if (upper !== 'APPEND' && upper !== 'DELETE' && upper !== 'MERGE') throw invalid(`Invalid merge type ${shown(text ?? '')}`);
  const deleteText = header(headers, 'delete') ?? '';
  if (upper === 'MERGE' && deleteText === '') throw invalid('Excepted DELETE ON clause when merge type is MERGE.');
  if (upper !== 'MERGE' && deleteText !== '') throw invalid('Not support DELETE ON clause when merge type is not MERGE.');
  let deleteCondition: Expr | null = null;
  if (deleteText !== '') {
    try {
      deleteCondition = parseExpression(deleteText);
    } catch (err) {
      throw invalid(`Invalid delete: '${deleteText}': ${(err as Error).message}`);
    }
  }
  return { mergeType: upper, deleteText, deleteCondition };
}

const HIDDEN_COLUMNS = [DELETE_SIGN_COLUMN, SEQUENCE_HIDDEN_COLUMN];

function parseHiddenColumns(headers: IncomingHttpHeaders): string[] {
  const text = header(headers, 'hidden_columns');
  if (text === null) return [];
  const names = text.split(',').map((name) => name.trim());
  for (const name of names) if (!HIDDEN_COLUMNS.includes(name)) throw invalid(`Invalid hidden_columns: '${shown(text)}' (a hidden column is one of ${HIDDEN_COLUMNS.join(', ')}; got '${shown(name)}')`);
  return names;
}

function parseWhere(headers: IncomingHttpHeaders): { where: Expr | null; whereText: string } {
  const whereText = header(headers, 'where') ?? '';
  if (whereText === '') return { where: null, whereText };
  try {
    return { where: parseExpression(whereText), whereText };
  } catch (err) {
    throw invalid(`Invalid where: '${whereText}': ${(err as Error).message}`);
  }
}

function parseSkipLines(headers: IncomingHttpHeaders, format: StreamLoadFormat, warnings: string[]): number {
  const text = header(headers, 'skip_lines');
  const skipLines = text === null ? 0 : Number(text);
  if (!Number.isInteger(skipLines) || skipLines < 0) throw invalid(`Invalid skip_lines: ${shown(text ?? '')} (expected an integer >= 0)`);
  // Doris: skip_lines is disabled for the formats whose header lines are skipped.
  if (format === 'csv_with_names' || format === 'csv_with_names_and_types') {
    if (skipLines > 0) warnings.push(`skip_lines: no effect with format ${format} (its header line${format === 'csv_with_names' ? ' is' : 's are'} skipped instead)`);
    return format === 'csv_with_names' ? 1 : 2;
  }
  return skipLines;
}

/** Validate the headers of one Stream Load request. */
export function parseStreamLoadHeaders(headers: IncomingHttpHeaders): StreamLoadHeaders {
  const format = parseFormat(headers);
  const warnings = judgeHeaders(headers, format);
  const label = header(headers, 'label');
  if (label !== null && !LABEL_RE.test(label)) throw invalid(`Label format error. regex: ^[-_A-Za-z0-9:]{1,128}$, label: ${label}`);
  const columnsText = header(headers, 'columns');
  const columns = columnsText === null ? null : parseColumnsHeader(columnsText);
  const hiddenColumns = parseHiddenColumns(headers);
  if (hiddenColumns.length > 0 && columns !== null) warnings.push('hidden_columns: no effect with a columns header (name the hidden columns in columns instead)');
  const { where, whereText } = parseWhere(headers);
  const { mergeType, deleteText, deleteCondition } = parseMergeType(headers);
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
  const jsonRootText = header(headers, 'json_root');
  const columnSeparatorText = header(headers, 'column_separator');
  const lineDelimiterText = header(headers, 'line_delimiter');
  const columnSeparator = columnSeparatorText === null ? Buffer.from('\t') : parseSeparator(columnSeparatorText, 'column separator');
  const lineDelimiter = lineDelimiterText === null ? Buffer.from('\n') : parseSeparator(lineDelimiterText, 'line delimiter');
  if (format !== 'json' && lineDelimiter.includes(columnSeparator)) throw invalid('column separator and line delimiter can not overlap');
  const enclose = singleByte(headers, 'enclose');
  const escape = singleByte(headers, 'escape');
  if (escape !== null && enclose === null && format !== 'json') warnings.push('escape: no effect without enclose (it escapes bytes inside enclosed fields)');
  const updateMode = (header(headers, 'unique_key_update_mode') ?? 'UPSERT').toUpperCase();
  const options: LoadOptions = {
    label,
    format,
    columnSeparator,
    lineDelimiter,
    compressType: parseCompressType(headers),
    enclose,
    escape,
    trimDoubleQuotes: booleanHeader(headers, 'trim_double_quotes', false),
    skipLines: parseSkipLines(headers, format, warnings),
    stripOuterArray: booleanHeader(headers, 'strip_outer_array', false),
    jsonPaths: jsonPathsText === null ? null : parseJsonPaths(jsonPathsText),
    jsonRoot: jsonRootText === null ? null : parseJsonPath(jsonRootText),
    readJsonByLine: booleanHeader(headers, 'read_json_by_line', false),
    fuzzyParse: booleanHeader(headers, 'fuzzy_parse', false),
    numAsString: booleanHeader(headers, 'num_as_string', false),
    maxFilterRatio,
    timeoutSeconds,
    strictMode: booleanHeader(headers, 'strict_mode', false),
    partialColumns: booleanHeader(headers, 'partial_columns', false) || updateMode === 'UPDATE_FIXED_COLUMNS',
    sequenceCol: header(headers, 'function_column.sequence_col') ?? header(headers, 'sequence_col'),
    twoPhaseCommit: booleanHeader(headers, 'two_phase_commit', false),
    memLimit: Math.min(memLimit, MAX_BUFFER_BYTES),
    comment: header(headers, 'comment') ?? '',
    mergeType,
    warnings,
  };
  return { options, columns: columns ?? null, hiddenColumns, where, whereText, deleteCondition, deleteText };
}
