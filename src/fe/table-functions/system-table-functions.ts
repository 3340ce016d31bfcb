/**
 * Doris's table-valued functions over the cluster itself: `numbers("number" = "N")` (a BIGINT column
 * `number`, 0..N-1, generated batch by batch as the scan asks), `backends()` and `frontends()` (the rows of
 * SHOW BACKENDS / SHOW FRONTENDS, ADMIN_PRIV as there) and `partitions("database" = "db", "table" = "t")`
 * (SHOW PARTITIONS' rows, SELECT_PRIV on the table). The schema a call binds to carries the function
 * and its arguments in a property, so openTable can rebuild the source from the plan alone.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BATCH_SIZE, type Batch, type RawValue } from '../../common/column';
import { GaleneError } from '../../common/errors';
import { Types } from '../../common/types';
import type { ScanRequest, TableSource } from '../../exec/context';
import { makeTableSchema, MemoryTable } from '../../exec/memory-table';
import type { TableSchema } from '../../meta/schema';
import { BACKEND_COLUMNS, backendRows, FRONTEND_COLUMNS, frontendRows, type ServerFacts } from '../cluster-facts';
import type { ColumnSpec } from '../statements/result-rows';
import { PARTITION_COLUMN_SPECS, typedPartitionRows } from '../proc-tree';

const SOURCE_PROPERTY = '__table_function';

const cols = (names: string): ColumnSpec[] => names.split(',').map((name) => [name.trim()] as ColumnSpec);
/**
 * Doris's metadata functions over objects Galene does not have (external catalogs, scheduled jobs and
 * their tasks, async materialized views): Doris's columns, no rows. The key is the function, then its
 * "type" property where Doris's columns depend on it.
 */
const EMPTY_FUNCTIONS: Readonly<Record<string, Readonly<Record<string, readonly ColumnSpec[]>>>> = {
  catalogs: { '': cols('CatalogId, CatalogName, CatalogType, Property, Value') },
  jobs: {
    insert: cols('Id, Name, Definer, ExecuteType, RecurringStrategy, Status, ExecuteSql, CreateTime, SucceedTaskCount, FailedTaskCount, CanceledTaskCount, Comment'),
    mv: cols('Id, Name, MvId, MvName, MvDatabaseId, MvDatabaseName, ExecuteType, RecurringStrategy, Status, CreateTime'),
  },
  tasks: {
    insert: cols('TaskId, JobId, JobName, Label, Status, ErrorMsg, CreateTime, StartTime, FinishTime, TrackingUrl, LoadStatistic, User'),
    mv: cols('TaskId, JobId, JobName, MvId, MvName, MvDatabaseId, MvDatabaseName, Status, ErrorMsg, CreateTime, StartTime, FinishTime, DurationMs, TaskContext, RefreshMode, NeedRefreshPartitions, CompletedPartitions, Progress, LastQueryId'),
  },
  mv_infos: { '': cols('Id, Name, JobName, State, SchemaChangeDetail, RefreshState, RefreshInfo, QuerySql, EnvInfo, MvProperties, MvPartitionInfo, SyncWithBaseTables') },
};
const FRONTEND_DISK_COLUMNS: readonly ColumnSpec[] = [['Name'], ['Host'], ['DirType'], ['Dir'], ['Filesystem'], ['Capacity', Types.BIGINT], ['Used', Types.BIGINT], ['Available', Types.BIGINT], ['UseRate'], ['MountOn']];
/** numbers() refuses more rows than this (Doris has no bound; a runaway count would only spin). */
const NUMBERS_MAX = 1e12;

export const SYSTEM_TABLE_FUNCTIONS: ReadonlySet<string> = new Set(['numbers', 'backends', 'frontends', 'partitions', ...Object.keys(EMPTY_FUNCTIONS), 'frontends_disks']);

/** The table-valued functions Galene has, for docs/functions.md (cli/config-docs.ts). */
export const TABLE_FUNCTION_DOCS: readonly { name: string; signature: string; description: string; example: string }[] = [
  { name: 'numbers', signature: 'numbers("number" = "N") -> (number BIGINT)', description: 'A table of N rows, number 0 to N-1, made as the scan reads it.', example: 'SELECT count(*) FROM numbers("number" = "10")' },
  { name: 'backends', signature: 'backends() -> SHOW BACKENDS columns', description: 'The rows of SHOW BACKENDS as a table (ADMIN_PRIV).', example: 'SELECT count(*) FROM backends()' },
  { name: 'frontends', signature: 'frontends() -> SHOW FRONTENDS columns', description: 'The rows of SHOW FRONTENDS as a table (ADMIN_PRIV).', example: 'SELECT count(*) FROM frontends()' },
  { name: 'partitions', signature: 'partitions("database" = "db", "table" = "t") -> SHOW PARTITIONS columns', description: "The rows of SHOW PARTITIONS FROM db.t as a table (SELECT_PRIV on it).", example: '' },
  { name: 'catalogs', signature: 'catalogs() -> (CatalogId, CatalogName, CatalogType, Property, Value)', description: "Doris's external catalogs and their properties: none in Galene (no rows).", example: 'SELECT * FROM catalogs()' },
  { name: 'jobs', signature: 'jobs("type" = "insert" | "mv") -> Doris\'s job columns', description: 'Scheduled jobs: none in Galene (no rows, Doris\'s columns for the type).', example: 'SELECT * FROM jobs("type" = "insert")' },
  { name: 'tasks', signature: 'tasks("type" = "insert" | "mv") -> Doris\'s task columns', description: 'Tasks of scheduled jobs: none in Galene (no rows, Doris\'s columns for the type).', example: 'SELECT * FROM tasks("type" = "insert")' },
  { name: 'mv_infos', signature: 'mv_infos("database" = "db") -> Doris\'s async MV columns', description: 'Async materialized views of a database: none in Galene (no rows).', example: '' },
  { name: 'frontends_disks', signature: 'frontends_disks() -> (Name, Host, DirType, Dir, Filesystem, Capacity, Used, Available, UseRate, MountOn)', description: "This FE's directories (meta, log, temp) and their file system's space (ADMIN_PRIV).", example: 'SELECT DirType, Capacity > 0 FROM frontends_disks()' },
  { name: 's3', signature: 's3("uri" = "s3://bucket/path/*.csv", "s3.endpoint" = ..., "format" = ...) -> columns of the files', description: 'Files in S3-compatible storage as a table: CSV, csv_with_names, JSON (docs/stream-load.md).', example: '' },
  { name: 'local', signature: 'local("file_path" = "dir/*.csv", "backend_id" = ..., "format" = ...) -> columns of the files', description: 'Files under user_files_secure_path as a table (ADMIN_PRIV; docs/stream-load.md).', example: '' },
  { name: 'file', signature: 'file("uri" = ... | "file_path" = ..., "format" = ...) -> columns of the files', description: 's3() when given a uri, local() when given a file_path.', example: '' },
  { name: 'binlog', signature: 'binlog("db.tbl"[, from_version[, to_version]]) -> the table\'s columns, __op, __version, __seq', description: "A table's row binlog (docs/row-binlog.md).", example: '' },
];

/** Which functions need ADMIN_PRIV (their SHOW statement does). */
export const ADMIN_TABLE_FUNCTIONS: ReadonlySet<string> = new Set(['backends', 'frontends', 'frontends_disks']);

const specColumns = (columns: readonly ColumnSpec[]) => columns.map(([name, type]) => ({ name, type: type ?? Types.varchar(65533), nullable: true }));

function invalid(message: string): GaleneError {
  return new GaleneError('INVALID_TABLE_DEFINITION', [message]);
}

/** The schema of a call: its result columns, and the call itself in a property. */
export function systemFunctionSchema(
  name: string,
  args: readonly unknown[],
  properties: Readonly<Record<string, string>>,
  resolveTable: (database: string | null, name: string) => TableSchema,
  resolveDatabase: (database: string) => void,
): TableSchema {
  const fn = name.toLowerCase();
  const withSource = (schema: TableSchema, source: string): TableSchema => ({ ...schema, properties: { ...schema.properties, [SOURCE_PROPERTY]: source } });
  const empty = EMPTY_FUNCTIONS[fn];
  if (empty !== undefined) {
    if (args.length > 0) throw invalid(`${fn}() takes its arguments as properties`);
    const typed = empty[''] === undefined;
    for (const key of Object.keys(properties)) if (!(typed && key === 'type') && !(fn === 'mv_infos' && key === 'database')) throw invalid(`Unknown ${fn}() property '${key}'`);
    let columns = empty[''];
    if (typed) {
      const type = properties.type?.toLowerCase();
      if (type === undefined) throw invalid(`Invalid ${fn} metadata query: type is required`);
      columns = empty[type];
      if (columns === undefined) throw invalid(`Invalid ${fn} type: ${properties.type}`);
    }
    if (fn === 'mv_infos') {
      if (properties.database === undefined) throw invalid('mv_infos() takes its database as a property: mv_infos("database" = "db")');
      resolveDatabase(properties.database);
    }
    return withSource(makeTableSchema('', fn, specColumns(columns)), 'empty');
  }
  if (fn === 'frontends_disks') {
    if (args.length > 0 || Object.keys(properties).length > 0) throw invalid(`${fn}() takes no arguments`);
    return withSource(makeTableSchema('', fn, specColumns(FRONTEND_DISK_COLUMNS)), 'frontends_disks');
  }
  if (fn !== 'numbers' && fn !== 'partitions' && (args.length > 0 || Object.keys(properties).length > 0)) throw invalid(`${fn}() takes no arguments`);
  switch (fn) {
    case 'numbers': {
      if (args.length > 0) throw invalid('numbers() takes its arguments as properties: numbers("number" = "N")');
      for (const key of Object.keys(properties)) if (key !== 'number' && key !== 'backend_num') throw invalid(`Unknown numbers() property '${key}'`);
      const text = properties.number;
      if (text === undefined) throw invalid('number not set in numbers()');
      if (!/^\s*\d+\s*$/.test(text) || Number(text) > NUMBERS_MAX) throw invalid(`cannot parse number: ${text}`);
      return withSource(makeTableSchema('', 'numbers', [{ name: 'number', type: Types.BIGINT, nullable: false }]), `numbers:${Number(text)}`);
    }
    case 'backends':
      return withSource(makeTableSchema('', 'backends', specColumns(BACKEND_COLUMNS)), 'backends');
    case 'frontends':
      return withSource(makeTableSchema('', 'frontends', specColumns(FRONTEND_COLUMNS)), 'frontends');
    case 'partitions': {
      // partitions("catalog" = "internal", "database" = "db", "table" = "t"): SHOW PARTITIONS FROM db.t.
      for (const key of Object.keys(properties)) if (!['catalog', 'database', 'table'].includes(key)) throw invalid(`Unknown partitions() property '${key}'`);
      if ((properties.catalog ?? 'internal').toLowerCase() !== 'internal') throw invalid(`partitions(): catalog ${properties.catalog} does not exist`);
      if (args.length > 0 || properties.table === undefined) throw invalid('partitions() takes its arguments as properties: partitions("database" = "db", "table" = "t")');
      const table = resolveTable(properties.database ?? null, properties.table);
      return withSource(makeTableSchema('', 'partitions', specColumns(PARTITION_COLUMN_SPECS)), `partitions:${table.id}`);
    }
    default:
      throw new GaleneError('UNSUPPORTED', [`table function ${name}`]);
  }
}

/** Whether a schema came from systemFunctionSchema. */
export function isSystemFunctionSource(schema: TableSchema): boolean {
  return schema.properties[SOURCE_PROPERTY] !== undefined;
}

/** numbers(): each batch made when the scan asks for it, so a LIMIT stops the generation. */
class NumbersSource implements TableSource {
  constructor(readonly schema: TableSchema, private readonly count: number) {}

  async *scan(request: ScanRequest): AsyncIterable<Batch> {
    const wanted = request.columns.length > 0;
    const end = Math.min(this.count, request.limit ?? Infinity);
    for (let start = 0; start < end; start += BATCH_SIZE) {
      const length = Math.min(BATCH_SIZE, end - start);
      if (!wanted) {
        yield { length, columns: [] };
        continue;
      }
      const values = new BigInt64Array(length);
      for (let rowIdx = 0; rowIdx < length; rowIdx++) values[rowIdx] = BigInt(start + rowIdx);
      yield { length, columns: request.columns.map(() => ({ kind: 'fixed', type: Types.BIGINT, length, values, nulls: null })) };
    }
  }
}

/** The rows of a system table function's schema. */
export function openSystemFunction(schema: TableSchema, facts: ServerFacts): TableSource {
  const source = schema.properties[SOURCE_PROPERTY];
  if (source.startsWith('numbers:')) return new NumbersSource(schema, Number(source.slice('numbers:'.length)));
  if (source.startsWith('partitions:')) {
    const state = facts.catalog.getTableById(Number(source.slice('partitions:'.length)));
    if (state === undefined) throw new GaleneError('UNKNOWN_TABLE', ['partitions()']);
    return MemoryTable.fromRows(schema, typedPartitionRows(state));
  }
  if (source === 'empty') return MemoryTable.fromRows(schema, []);
  if (source === 'frontends_disks') return MemoryTable.fromRows(schema, frontendDiskRows(facts));
  return MemoryTable.fromRows(schema, source === 'backends' ? backendRows(facts) : frontendRows(facts));
}

/** Row count estimate for the planner. */
export function systemFunctionRowCount(schema: TableSchema): number {
  const source = schema.properties[SOURCE_PROPERTY];
  return source.startsWith('numbers:') ? Number(source.slice('numbers:'.length)) : 1;
}

/** frontends_disks(): this FE's meta, log and temp directories with their file system's space. */
function frontendDiskRows(facts: ServerFacts): RawValue[][] {
  const [name, host] = frontendRows(facts)[0] ?? ['', ''];
  const dataDir = path.resolve(facts.config.getString('data_dir'));
  const metaDir = facts.config.getString('meta_dir') || path.join(dataDir, 'meta');
  const dirs: [string, string][] = [['meta', path.resolve(metaDir)], ['log', path.join(dataDir, 'log')], ['temp', os.tmpdir()]];
  return dirs.map(([dirType, dir]) => {
    let capacity = 0;
    let available = 0;
    try {
      const stats = fs.statfsSync(fs.existsSync(dir) ? dir : dataDir);
      capacity = stats.blocks * stats.bsize;
      available = stats.bavail * stats.bsize;
    } catch {
      // a directory gone since start: zeros, as Doris shows for an unreadable disk
    }
    const used = capacity - available;
    return [name, host, dirType, dir, '', BigInt(capacity), BigInt(used), BigInt(available), capacity === 0 ? '0%' : `${Math.round((used / capacity) * 100)}%`, dir];
  });
}
