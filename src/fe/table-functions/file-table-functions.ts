/**
 * Doris's file table-valued functions: `s3("uri" = "s3://bucket/path/*.csv", "s3.endpoint" = ..., ...)`,
 * `local("file_path" = "dir/*.csv", "backend_id" = ..., ...)` and `file(...)` (either, by its uri or
 * file_path). The files a glob names are read with the Stream Load readers (CSV, csv_with_names*, JSON)
 * into STRING columns: c1..cN for CSV without a header, the header's names for csv_with_names*, the first
 * JSON object's keys for JSON (Doris's inference). `csv_schema` ("k1:int;k2:string") gives names and types.
 *
 * Binding is synchronous and the schema needs the first file, so the session describes every file table
 * function of a statement before binding (describeFileTableFunction, cached per statement); the schema
 * carries the call's properties, so openFileTableFunction rebuilds the source from the plan alone.
 *
 * local() reads only under user_files_secure_path (Doris's BE setting; default <data_dir>/user_files):
 * a path with `..`, or one whose real path (symlinks followed) leaves that directory, is refused.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Batch } from '../../common/column';
import type { Config } from '../../common/config';
import { GaleneError } from '../../common/errors';
import { Types, type DataType } from '../../common/types';
import type { ScanRequest, TableSource } from '../../exec/context';
import { makeTableSchema, MemoryTable } from '../../exec/memory-table';
import { S3ObjectStore } from '../../io/s3-object-store';
import type { LoadPlan } from '../../load/load-plan';
import { BODY_BLOCK_BYTES, LoadErrorLog, openBodyReader, readBodyInBlocks, RowConverter } from '../../load/source';
import { decompressBody } from '../../load/source/decompress';
import type { TableSchema } from '../../meta/schema';
import { parseDataType } from '../../sql/parser';
import { parseStreamLoadHeaders } from '../stream-load-headers';

export const FILE_TABLE_FUNCTIONS: ReadonlySet<string> = new Set(['s3', 'local', 'file']);

const SOURCE_PROPERTY = '__file_table_function';

/** The properties that describe the file format (Stream Load's header names and meanings). */
const FORMAT_PROPERTIES = new Set([
  'format', 'column_separator', 'line_delimiter', 'compress_type', 'read_json_by_line', 'strip_outer_array', 'json_root',
  'jsonpaths', 'num_as_string', 'fuzzy_parse', 'trim_double_quotes', 'skip_lines', 'enclose', 'escape',
]);
const S3_PROPERTIES = new Set(['uri', 's3.endpoint', 's3.access_key', 's3.secret_key', 's3.region', 's3.session_token', 'use_path_style', 'force_parsing_by_standard_uri']);
const LOCAL_PROPERTIES = new Set(['file_path', 'backend_id', 'shared_storage']);

interface FileSpec {
  readonly storage: 's3' | 'local';
  readonly properties: Readonly<Record<string, string>>;
}

const invalid = (message: string): GaleneError => new GaleneError('INVALID_TABLE_DEFINITION', [message]);

function required(properties: Readonly<Record<string, string>>, key: string): string {
  const value = properties[key];
  if (value === undefined || value.trim() === '') throw invalid(`Property '${key}' is required.`);
  return value;
}

/** Validate a call's properties: which storage it reads, every key known. */
function fileSpec(fn: string, args: readonly unknown[], properties: Readonly<Record<string, string>>): FileSpec {
  if (args.length > 0) throw invalid(`${fn}() takes its arguments as properties: ${fn}("key" = "value", ...)`);
  const storage = fn === 's3' ? 's3' : fn === 'local' ? 'local' : properties.uri !== undefined ? 's3' : 'local';
  const allowed = storage === 's3' ? S3_PROPERTIES : LOCAL_PROPERTIES;
  for (const key of Object.keys(properties)) {
    // Storage settings Galene's client has no use for (s3.connection.*, AWS_* aliases, fs.*) are accepted as
    // Doris accepts them; any other unknown key is refused, so a typo in a format property is not ignored.
    if (!allowed.has(key) && !FORMAT_PROPERTIES.has(key) && key !== 'csv_schema' && !/^(s3\.|aws_|fs\.)/.test(key)) throw invalid(`Invalid property '${key}' of table function ${fn}`);
  }
  const format = (properties.format ?? '').toLowerCase();
  if (format === '') throw invalid(`Property 'format' is required.`);
  if (['parquet', 'orc', 'avro', 'arrow', 'wal'].includes(format)) throw new GaleneError('UNSUPPORTED', [`format ${format} in table function ${fn} (csv, csv_with_names, csv_with_names_and_types and json are)`]);
  if (!['csv', 'csv_with_names', 'csv_with_names_and_types', 'json'].includes(format)) throw invalid(`format:${format} is not supported.`);
  if (storage === 's3') {
    if (!/^(s3|s3a|s3n|oss|cos|obs|https?):\/\/[^/]+\/./.test(required(properties, 'uri'))) throw invalid(`Invalid S3 URI: ${properties.uri}`);
    required(properties, 's3.endpoint');
  } else {
    const filePath = required(properties, 'file_path');
    if (filePath.split(/[\\/]/).includes('..')) throw invalid(`can not contain '..' in path: ${filePath}`);
    if (properties.backend_id === undefined && (properties.shared_storage ?? 'false').toLowerCase() !== 'true') throw invalid(`'backend_id' is required when 'shared_storage' is false.`);
    if (properties.backend_id !== undefined && !/^\d+$/.test(properties.backend_id.trim())) throw invalid(`backend not found with backend_id = ${properties.backend_id}`);
  }
  return { storage, properties };
}

/** A glob (`*`, `?`, `[abc]`, `{a,b}`) as an anchored regex; `*` and `?` do not cross '/'. */
function globRegex(glob: string): RegExp {
  let out = '';
  for (let idx = 0; idx < glob.length; idx++) {
    const ch = glob[idx];
    if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '[') {
      const close = glob.indexOf(']', idx + 1);
      if (close < 0) out += '\\[';
      else {
        out += `[${glob.slice(idx + 1, close).replace(/\\/g, '\\\\')}]`;
        idx = close;
      }
    } else if (ch === '{') {
      const close = glob.indexOf('}', idx + 1);
      if (close < 0) out += '\\{';
      else {
        out += `(?:${glob.slice(idx + 1, close).split(',').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
        idx = close;
      }
    } else out += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** The part of a glob before its first wildcard: what a listing can start from. */
function globPrefix(glob: string): string {
  const first = glob.search(/[*?[{]/);
  return first < 0 ? glob : glob.slice(0, first);
}

/** Where local() may read: user_files_secure_path, else <data_dir>/user_files. */
export function userFilesRoot(config: Config): string {
  const configured = config.getString('user_files_secure_path');
  return path.resolve(configured !== '' ? configured : path.join(config.getString('data_dir'), 'user_files'));
}

/** A file to read and how to fetch its bytes. */
interface SourceFile {
  readonly name: string;
  read(): Promise<Buffer>;
}

function s3Store(properties: Readonly<Record<string, string>>): { store: S3ObjectStore; pattern: string } {
  const match = /^[a-z0-9]+:\/\/([^/]+)\/(.*)$/i.exec(properties.uri)!;
  const endpointText = properties['s3.endpoint'];
  const endpoint = /^https?:\/\//i.test(endpointText) ? endpointText : `http://${endpointText}`;
  const store = new S3ObjectStore({
    endpoint,
    region: properties['s3.region'] ?? 'us-east-1',
    bucket: match[1],
    rootPath: '',
    accessKey: properties['s3.access_key'] ?? '',
    secretKey: properties['s3.secret_key'] ?? '',
    usePathStyle: (properties.use_path_style ?? 'false').toLowerCase() === 'true',
    maxAttempts: 2,
  });
  return { store, pattern: match[2] };
}

/** The matching files, and what closes the S3 client made for them (no idle sockets left behind). */
async function openFiles(spec: FileSpec, config: Config): Promise<{ files: SourceFile[]; close: () => void }> {
  if (spec.storage !== 's3') return { files: listLocalFiles(spec, config), close: () => undefined };
  const { store, pattern } = s3Store(spec.properties);
  try {
    const regex = globRegex(pattern);
    const keys = (await store.list(globPrefix(pattern))).filter((key) => regex.test(key));
    return { files: keys.map((key) => ({ name: `s3://${store.bucket}/${key}`, read: () => store.get(key) })), close: () => store.close() };
  } catch (err) {
    store.close();
    throw err;
  }
}

function listLocalFiles(spec: FileSpec, config: Config): SourceFile[] {
  const root = userFilesRoot(config);
  const realRoot = fs.existsSync(root) ? fs.realpathSync(root) : root;
  const relative = spec.properties.file_path.replace(/^\/+/, (lead) => (path.resolve(spec.properties.file_path).startsWith(root + path.sep) ? lead : ''));
  const glob = path.isAbsolute(relative) ? path.relative(root, relative) : relative;
  if (glob.startsWith('..') || path.isAbsolute(glob)) throw invalid(`file_path ${spec.properties.file_path} is not under user_files_secure_path ${root}`);
  const regex = globRegex(glob.split(path.sep).join('/'));
  const prefix = globPrefix(glob);
  const startDir = path.join(root, prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '');
  const out: SourceFile[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 16 || !fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (entry.isDirectory()) walk(full, depth + 1);
      else if (regex.test(rel)) {
        const real = fs.realpathSync(full);
        if (real !== realRoot && !real.startsWith(realRoot + path.sep)) throw invalid(`file_path ${spec.properties.file_path} leaves user_files_secure_path ${root}`);
        out.push({ name: full, read: () => fs.promises.readFile(real) });
      }
    }
  };
  walk(startDir, 0);
  return out;
}

/** The Stream Load header set a call's format properties make (TVF defaults: JSON read by line). */
function formatHeaders(properties: Readonly<Record<string, string>>, fileName: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(properties)) if (FORMAT_PROPERTIES.has(key)) headers[key] = value;
  headers.format = headers.format.toLowerCase();
  if (headers.format === 'json' && headers.read_json_by_line === undefined && headers.strip_outer_array !== 'true') headers.read_json_by_line = 'true';
  if (headers.compress_type === undefined || headers.compress_type.toLowerCase() === 'unknown') {
    const ext = /\.(gz|bz2|lz4|zst|deflate)$/i.exec(fileName)?.[1].toLowerCase();
    headers.compress_type = ext === undefined ? 'plain' : ext === 'zst' ? 'zstd' : ext;
  }
  return headers;
}

async function* once(data: Buffer): AsyncIterable<Buffer> {
  yield data;
}

/** The first `limit` decompressed bytes of a file (for the header / first row). */
async function head(data: Buffer, compressType: string, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of decompressBody(once(data), compressType as 'plain')) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= limit) break;
  }
  return Buffer.concat(parts);
}

/** Columns from `csv_schema`: "k1:int;k2:varchar(10)". */
function csvSchemaColumns(text: string): { name: string; type: DataType }[] {
  return text.split(';').filter((part) => part.trim() !== '').map((part) => {
    const colon = part.indexOf(':');
    if (colon <= 0) throw invalid(`invalid csv schema: ${text}`);
    let type: DataType;
    try {
      type = parseDataType(part.slice(colon + 1).trim());
    } catch {
      throw invalid(`invalid type in csv schema: ${part}`);
    }
    return { name: part.slice(0, colon).trim(), type };
  });
}

const stringColumn = (name: string): { name: string; type: DataType } => ({ name, type: Types.STRING });

function typeOrString(text: string): DataType {
  try {
    return parseDataType(text);
  } catch {
    return Types.STRING;
  }
}

/** The columns of a file by Doris's inference: STRING, except csv_with_names_and_types' second line. */
async function inferColumns(file: SourceFile, properties: Readonly<Record<string, string>>): Promise<{ name: string; type: DataType }[]> {
  const headers = formatHeaders(properties, file.name);
  const { options } = parseStreamLoadHeaders(headers);
  const text = (await head(await file.read(), options.compressType, 1 << 20)).toString('utf8');
  if (options.format === 'json') {
    if (options.jsonPaths !== null) return options.jsonPaths.map((jsonPath, idx) => stringColumn(String(jsonPath[jsonPath.length - 1] ?? `c${idx + 1}`)));
    const firstLine = options.readJsonByLine ? text.split(options.lineDelimiter.toString())[0] : text;
    let doc: unknown;
    try {
      doc = JSON.parse(firstLine);
    } catch {
      throw invalid(`Parse json data failed in ${file.name}: not a complete JSON document in its first ${options.readJsonByLine ? 'line' : 'MiB'}`);
    }
    for (const key of options.jsonRoot ?? []) doc = (doc as Record<string | number, unknown> | null)?.[key];
    if (Array.isArray(doc)) doc = doc[0];
    if (doc === null || typeof doc !== 'object') throw invalid(`JSON data in ${file.name} is not an object`);
    return Object.keys(doc).map(stringColumn);
  }
  const lines = text.split(options.lineDelimiter.toString());
  const first = lines[Math.min(options.skipLines > 0 && options.format === 'csv' ? options.skipLines : 0, lines.length - 1)] ?? '';
  const fields = first.split(options.columnSeparator.toString());
  if (options.format === 'csv') return fields.map((_, idx) => stringColumn(`c${idx + 1}`));
  const unquoted = (field: string): string => field.trim().replace(/^"(.*)"$/, '$1');
  // csv_with_names_and_types: the second line names each column's type (STRING where it names none Galene knows).
  const typeNames = options.format === 'csv_with_names_and_types' ? (lines[1] ?? '').split(options.columnSeparator.toString()) : [];
  return fields.map((field, idx) => ({ name: unquoted(field), type: typeNames[idx] === undefined ? Types.STRING : typeOrString(unquoted(typeNames[idx])) }));
}

/** The schema of a call: the first file's columns, the call in a property. Lists (and reads) the files. */
export async function describeFileTableFunction(fn: string, args: readonly unknown[], properties: Readonly<Record<string, string>>, config: Config): Promise<TableSchema> {
  const spec = fileSpec(fn, args, properties);
  let columns: { name: string; type: DataType }[];
  if (properties.csv_schema !== undefined) columns = csvSchemaColumns(properties.csv_schema);
  else {
    const { files, close } = await openFiles(spec, config);
    try {
      // Doris: no matching object is one dummy column and no rows; local()'s glob of nothing is an error.
      if (files.length === 0 && spec.storage === 'local') throw invalid(`No matches found: ${properties.file_path}`);
      columns = files.length === 0 ? [{ name: '__dummy_col', type: Types.STRING }] : (await inferColumns(files[0], properties)).map((column) => ({ ...column, name: column.name.toLowerCase() }));
    } finally {
      close();
    }
    const seen = new Set<string>();
    for (const column of columns) {
      if (seen.has(column.name.toLowerCase())) throw new GaleneError('UNSUPPORTED', [`Repeated lowercase column names: ${column.name.toLowerCase()}`]);
      seen.add(column.name.toLowerCase());
    }
  }
  const schema = makeTableSchema('', fn, columns.map((column) => ({ ...column, nullable: true })));
  return { ...schema, properties: { ...schema.properties, [SOURCE_PROPERTY]: JSON.stringify({ fn, properties }) } };
}

export function isFileFunctionSource(schema: TableSchema): boolean {
  return schema.properties[SOURCE_PROPERTY] !== undefined;
}

/** One file read through a RowConverter into the schema's columns. */
async function readFile(schema: TableSchema, properties: Readonly<Record<string, string>>, file: SourceFile): Promise<Batch[]> {
  const { options } = parseStreamLoadHeaders(formatHeaders(properties, file.name));
  const plan: LoadPlan = {
    table: { schema, dbId: 0, tablets: [], rowsets: [], visibleVersion: 0 },
    label: 'table-function',
    options,
    sourceColumns: schema.columns.map((column, colIdx) => ({ name: column.name, mode: 'direct', colIdx, type: column.type })),
    derivedColumns: [],
    filter: null,
    deleteSign: null,
  };
  const converter = new RowConverter(plan, new LoadErrorLog());
  const reader = openBodyReader(options, converter);
  const batches: Batch[] = [];
  await readBodyInBlocks(once(await file.read()), BODY_BLOCK_BYTES, options.compressType, { cancelled: null }, { readMs: 0 }, () => undefined, (chunks, final) => {
    reader.feed(chunks, final);
    const batch = converter.finishBlock();
    if (batch !== null && batch.length > 0) batches.push(batch);
  });
  return batches;
}

/** The rows of a file table function: files listed when the scan starts and read one at a time (a LIMIT stops early). */
class FileFunctionSource implements TableSource {
  constructor(
    readonly schema: TableSchema,
    private readonly spec: FileSpec,
    private readonly config: Config,
  ) {}

  async *scan(request: ScanRequest): AsyncIterable<Batch> {
    const { files, close } = await openFiles(this.spec, this.config);
    try {
      let remaining = request.limit ?? Infinity;
      for (const file of files) {
        if (remaining <= 0) return;
        const batches = await readFile(this.schema, this.spec.properties, file);
        for await (const batch of new MemoryTable(this.schema, batches).scan({ ...request, limit: Number.isFinite(remaining) ? remaining : null })) {
          remaining -= batch.length;
          yield batch;
        }
      }
    } finally {
      close();
    }
  }
}

export function openFileTableFunction(schema: TableSchema, config: Config): TableSource {
  const { fn, properties } = JSON.parse(schema.properties[SOURCE_PROPERTY]) as { fn: string; properties: Record<string, string> };
  return new FileFunctionSource(schema, fileSpec(fn, [], properties), config);
}

/** A statement's cache key for one call. */
export function fileFunctionKey(fn: string, properties: Readonly<Record<string, string>>): string {
  return `${fn.toLowerCase()}:${JSON.stringify(Object.entries(properties).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
}
