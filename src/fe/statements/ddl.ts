/**
 * Data definition: databases and tables, with Doris's validation rules and messages.
 */
import { parseValue } from '../../common/convert';
import { GaleneError } from '../../common/errors';
import type { StatementResult } from '../../common/result';
import { isArrayType, isSketchType, isStringType, typesEqual, typeToSql, type DataType } from '../../common/types';
import { collectColumns } from '../../exec/plan/bound-expr-utils';
import { bindGeneratedExpr, generatedColumns } from '../generated-columns';
import { isMergeOnWrite } from '../../meta/delete-bitmap';
import { AggregationType, ColumnSchema, IndexSchema, KeysType, partitionInfoOf, TableSchema } from '../../meta/schema';
import { applyDynamicPartitions, dynamicPartitionSpec } from '../dynamic-partitions';
import { alterPartitions, buildPartitionInfo, isPartitionAction, partitionIdsToTruncate } from './partition-ddl';
import type {
  AlterTableStatement,
  ColumnDef,
  CreateDatabaseStatement,
  CreateTableStatement,
  DropDatabaseStatement,
  DropTableStatement,
  Expr,
  InsertStatement,
  QueryExpr,
  TruncateTableStatement,
} from '../../sql/ast';
import type { QueryProfile } from '../../common/profile';
import { planQuery } from '../../sql/query';
import { ctasColumnDefs } from './create-table-as-select';
import { runInsert } from './dml';
import { existingGroupCommitManager } from '../../load/group-commit/group-commit-manager';
import type { SessionWarning, StatementSession } from './statement-session';
import { okResult, okWithWarnings } from './result-rows';
import { tablePropertyNotes, validateTableProperties } from './table-properties';
import { KEYS_NOTE } from './tool-compat';
import { checkIndexDef, checkTableIndexes, findIndexToDrop } from './index-ddl';
import { cancelBuildJobsFor, purgeIndexRecords } from './build-index';
import { withTableVault } from './storage-vault';

const bad = (message: string): GaleneError => new GaleneError('INVALID_TABLE_DEFINITION', [message]);

export async function createDatabase(session: StatementSession, statement: CreateDatabaseStatement): Promise<StatementResult> {
  if (statement.ifNotExists && session.fe.catalog.hasDatabase(statement.name)) return okResult();
  session.fe.catalog.createDatabase(statement.name, { ...statement.properties });
  return okResult();
}

export async function dropDatabase(session: StatementSession, statement: DropDatabaseStatement): Promise<StatementResult> {
  // Doris DropDbStmt: DROP_PRIV on the database, checked before anything (statement-privileges.ts), so a
  // refusal reveals nothing about the name.
  if (statement.ifExists && !session.fe.catalog.hasDatabase(statement.name)) return okResult();
  const keys = session.fe.catalog.dropDatabase(statement.name);
  if (session.database === statement.name) session.database = null;
  await session.fe.backend.deleteObjects(keys);
  return okResult();
}

function defaultText(expr: Expr | undefined, column: ColumnDef): string | null {
  if (expr === undefined) return null;
  if (expr.kind === 'literal') {
    if (expr.value === null) return null;
    const text = String(expr.value);
    const parsed = parseValue(column.type, text);
    if (parsed.failure) throw bad(`Invalid default value for '${column.name}': ${text}`);
    return text;
  }
  if (expr.kind === 'call' && ['current_timestamp', 'now'].includes(expr.name.toLowerCase())) {
    if (column.type.name !== 'DATETIME') throw bad(`Invalid default value for '${column.name}': CURRENT_TIMESTAMP needs a DATETIME column`);
    return 'CURRENT_TIMESTAMP';
  }
  if (expr.kind === 'unary' && expr.op === '-' && expr.operand.kind === 'literal') return '-' + String(expr.operand.value);
  throw bad(`Invalid default value for '${column.name}': only constants and CURRENT_TIMESTAMP are allowed`);
}

/**
 * UNIQUE KEY tables are merge-on-write unless created with `enable_unique_key_merge_on_write` = false
 * (the Doris default since 2.1); the property is written out so SHOW CREATE TABLE shows it, as Doris does.
 */
function tableModelProperties(keysType: KeysType, properties: Readonly<Record<string, string>>): Record<string, string> {
  const out = { ...properties };
  const mow = out['enable_unique_key_merge_on_write'];
  if (keysType === 'UNIQUE') out['enable_unique_key_merge_on_write'] = mow === undefined ? 'true' : mow.toLowerCase();
  return out;
}

const AGGREGATIONS: readonly AggregationType[] = ['SUM', 'MIN', 'MAX', 'REPLACE', 'REPLACE_IF_NOT_NULL', 'HLL_UNION', 'BITMAP_UNION', 'QUANTILE_UNION'];

/** Each sketch type's union aggregation. */
const SKETCH_UNIONS: Readonly<Record<string, AggregationType>> = { BITMAP: 'BITMAP_UNION', HLL: 'HLL_UNION', QUANTILE_STATE: 'QUANTILE_UNION' };

/** Doris's rules for an AUTO_INCREMENT column (its messages, in the order Doris checks them). */
function checkAutoIncrementColumn(column: ColumnDef, keysType: KeysType): void {
  if (keysType === 'AGGREGATE') throw bad('the auto increment is only supported in duplicate table and unique table.');
  if (column.nullable) throw bad("the auto increment column can't be NULL.");
  if (column.defaultValue !== undefined) throw bad("the auto increment column can't have default value.");
  if (column.type.name !== 'BIGINT') throw bad('the auto increment must be BIGINT type.');
}

/** An ARRAY value column of an AGGREGATE KEY table takes only REPLACE / REPLACE_IF_NOT_NULL (Doris). */
function checkArrayAggregation(type: DataType, aggregation: AggregationType | null): void {
  if (isArrayType(type) && aggregation !== null && aggregation !== 'REPLACE' && aggregation !== 'REPLACE_IF_NOT_NULL') throw bad(`Array column can't support aggregation ${aggregation}`);
  if ((type.name === 'MAP' || type.name === 'STRUCT') && aggregation !== null && aggregation !== 'REPLACE' && aggregation !== 'REPLACE_IF_NOT_NULL') {
    throw bad(`${type.name === 'MAP' ? 'Map' : 'Struct'} column can't support aggregation ${aggregation}`);
  }
}

/**
 * BITMAP_UNION, HLL_UNION and QUANTILE_UNION take only their own type, and a sketch value column of an
 * AGGREGATE KEY table only its union or REPLACE (Doris's AggregateType compatibility).
 */
function checkSketchAggregation(type: DataType, aggregation: AggregationType | null): void {
  if (aggregation === null) return;
  const incompatible = () => bad(`Aggregate type ${aggregation} is not compatible with primitive type ${typeToSql(type)}`);
  const unionOf = Object.keys(SKETCH_UNIONS).find((name) => SKETCH_UNIONS[name] === aggregation);
  if (unionOf !== undefined && type.name !== unionOf) throw incompatible();
  if (isSketchType(type) && aggregation !== 'REPLACE' && aggregation !== 'REPLACE_IF_NOT_NULL' && aggregation !== SKETCH_UNIONS[type.name]) throw incompatible();
}

/** Build and validate a table schema from CREATE TABLE (Doris's rules). */
export function buildTableSchema(session: StatementSession, statement: CreateTableStatement, database: string, tableId: number): TableSchema {
  if (statement.columns.length === 0) throw bad('Table should have at least one column');
  const seen = new Set<string>();
  for (const column of statement.columns) {
    const lower = column.name.toLowerCase();
    if (seen.has(lower)) throw new GaleneError('DUPLICATE_COLUMN', [column.name]);
    seen.add(lower);
  }
  const keysType: KeysType = statement.keysType ?? 'DUPLICATE';
  let keys = statement.keys.map((key) => key);
  if (keys.length === 0) {
    if (keysType !== 'DUPLICATE') throw bad(`${keysType} KEY needs key columns`);
    // Doris picks the leading columns as the sort key: at most 3, ending at the first string column.
    for (const column of statement.columns.slice(0, 3)) {
      if (column.aggregation || isArrayType(column.type) || column.type.name === 'MAP' || column.type.name === 'STRUCT' || column.type.name === 'JSON' || isSketchType(column.type)) break;
      keys.push(column.name);
      if (isStringType(column.type)) break;
    }
  }
  keys.forEach((key, keyIdx) => {
    const column = statement.columns[keyIdx];
    if (!statement.columns.some((candidate) => candidate.name.toLowerCase() === key.toLowerCase())) throw new GaleneError('UNKNOWN_COLUMN', [key, 'key desc']);
    if (!column || column.name.toLowerCase() !== key.toLowerCase()) throw bad('Key columns should be a ordered prefix of the schema. KeyColumns[' + keyIdx + '] (starts from zero) is ' + key + ', but corresponding column is ' + (column?.name ?? '') + ' in the previous columns declaration.');
  });
  keys = keys.map((key, keyIdx) => statement.columns[keyIdx].name);
  const columns: ColumnSchema[] = statement.columns.map((column, colIdx) => {
    const isKey = colIdx < keys.length;
    let aggregation: AggregationType | null = null;
    if (column.aggregation) {
      const upper = column.aggregation.toUpperCase() as AggregationType;
      if (!AGGREGATIONS.includes(upper)) throw bad(`Unknown aggregation type ${column.aggregation}`);
      if (keysType !== 'AGGREGATE') throw bad(`The column[${column.name}] is not allowed to have aggregation type ${upper} in ${keysType} KEY table`);
      if (isKey) throw bad(`Key column ${column.name} can not set aggregation type`);
      if (upper === 'SUM' && !['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'LARGEINT', 'FLOAT', 'DOUBLE', 'DECIMAL'].includes(column.type.name)) {
        throw bad(`Aggregate type SUM is not compatible with primitive type ${typeToSql(column.type)}`);
      }
      aggregation = upper;
    } else if (keysType === 'AGGREGATE' && !isKey) {
      throw bad(`The column[${column.name}] must have aggregation type in AGGREGATE KEY table`);
    }
    if (isKey && (column.type.name === 'FLOAT' || column.type.name === 'DOUBLE')) throw bad(`Float or double can not used as a key, use decimal instead.`);
    checkArrayAggregation(column.type, aggregation);
    checkSketchAggregation(column.type, aggregation);
    if (isKey && isSketchType(column.type)) throw bad(`Key column can not set complex type:${column.name}`);
    if (isKey && isArrayType(column.type)) throw bad('Array can only be used in the non-key column of the duplicate table at present.');
    if (isKey && column.type.name === 'MAP') throw bad('Map can only be used in the non-key column of the duplicate table at present.');
    if (isKey && column.type.name === 'STRUCT') throw bad('Struct can only be used in the non-key column of the duplicate table at present.');
    if (isKey && column.type.name === 'JSON') throw bad(`JsonType type should not be used in key column[${column.name}].`);
    if (column.autoIncrement !== null) checkAutoIncrementColumn(column, keysType);
    return {
      name: column.name,
      type: column.type,
      // Doris makes an HLL / QUANTILE_STATE column, and a BITMAP one with an aggregation, NOT NULL (an empty sketch instead).
      nullable: column.nullable && !(column.type.name === 'HLL' || column.type.name === 'QUANTILE_STATE' || (column.type.name === 'BITMAP' && aggregation !== null)),
      isKey,
      aggregation,
      defaultValue: defaultText(column.defaultValue, column),
      comment: column.comment ?? '',
      uniqueId: colIdx,
      ...(column.autoIncrement !== null ? { autoIncrementStart: column.autoIncrement } : {}),
      ...(column.generated !== undefined ? { generatedExpr: column.generated.text } : {}),
      ...(column.onUpdateCurrentTimestamp ? { onUpdateCurrentTimestamp: true as const } : {}),
    };
  });
  for (const column of statement.columns) {
    if (!column.onUpdateCurrentTimestamp) continue;
    // Doris's rules for the attribute.
    if (keysType !== 'UNIQUE' || (statement.properties['enable_unique_key_merge_on_write'] ?? 'true').toLowerCase() === 'false') throw bad("The 'on update' attribute can only be used in columns of unique table with merge-on-write.");
    if (column.type.name !== 'DATETIME') throw bad('on update current_timestamp can only be used on DATETIME columns');
    if (column.defaultValue === undefined || defaultText(column.defaultValue, column) !== 'CURRENT_TIMESTAMP') throw bad(`The default value of the column \`${column.name}\` with on update current_timestamp must be CURRENT_TIMESTAMP`);
  }
  statement.columns.forEach((column, colIdx) => {
    if (column.generated === undefined) return;
    if (column.defaultValue !== undefined || column.autoIncrement !== null) throw bad(`Generated column '${column.name}' can not have a DEFAULT or AUTO_INCREMENT`);
    if (column.aggregation) throw bad(`Generated column '${column.name}' can not have an aggregation type`);
    bindGeneratedExpr(database, columns, colIdx, column.generated.text);
  });
  if (statement.columns.filter((column) => column.autoIncrement !== null).length > 1) throw bad('there can be at most one auto increment column in OlapTable.');
  const defaultBuckets = session.fe.config.getInt('default_bucket_num');
  let distribution: TableSchema['distribution'];
  if (statement.distribution) {
    const buckets = statement.distribution.buckets === 'AUTO' ? defaultBuckets : statement.distribution.buckets;
    if (!Number.isInteger(buckets) || buckets <= 0 || buckets > 1024) throw bad(`Number of hash distribution should be between 1 and 1024: ${buckets}`);
    if (statement.distribution.type === 'RANDOM' && keysType !== 'DUPLICATE') throw bad('Random distribution for non-DUPLICATE table is unsupported');
    for (const name of statement.distribution.columns) {
      const column = columns.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
      if (!column) throw new GaleneError('UNKNOWN_COLUMN', [name, 'distribution desc']);
      if (keysType !== 'DUPLICATE' && !column.isKey) throw bad(`Distribution column[${name}] is not key column`);
      if (column.type.name === 'FLOAT' || column.type.name === 'DOUBLE') throw bad(`Distribution column[${name}] can not be float or double`);
      if (isArrayType(column.type)) throw bad(`Array Type should not be used in distribution column[${name}].`);
      if (column.type.name === 'MAP' || column.type.name === 'STRUCT') throw bad(`${column.type.name === 'MAP' ? 'Map' : 'Struct'} Type should not be used in distribution column[${name}].`);
      if (column.type.name === 'JSON') throw bad(`JsonType type should not be used in distribution column[${name}].`);
      if (isSketchType(column.type)) throw bad(`${typeToSql(column.type)} Type should not be used in distribution column[${name}].`);
    }
    distribution = { type: statement.distribution.type, columns: statement.distribution.columns.map((name) => columns.find((column) => column.name.toLowerCase() === name.toLowerCase())!.name), buckets };
  } else {
    distribution = { type: 'HASH', columns: [keys[0] ?? columns[0].name], buckets: defaultBuckets };
  }
  const mergeOnWrite = keysType === 'UNIQUE' && (statement.properties['enable_unique_key_merge_on_write'] ?? 'true').toLowerCase() === 'true';
  const partition = statement.partition ? { partitionInfo: buildPartitionInfo({ name: statement.name, columns, keysType, mergeOnWrite }, statement.partition, distribution.buckets, () => session.fe.catalog.newObjectId()) } : {};
  const indexes: IndexSchema[] = checkTableIndexes({ keysType, mergeOnWrite, columns }, statement.indexes);
  validateTableProperties(statement.properties, { keysType, columns });
  if (statement.engine && statement.engine.toUpperCase() !== 'OLAP') throw bad(`Unknown engine ${statement.engine}: only OLAP tables are supported`);
  return {
    id: tableId,
    databaseName: database,
    name: statement.name,
    columns,
    keysType,
    keyColumns: keys,
    indexes,
    distribution,
    properties: tableModelProperties(keysType, statement.properties),
    comment: statement.comment ?? '',
    ...partition,
    schemaVersion: 1,
    createTime: Date.now(),
  };
}

export async function createTable(session: StatementSession, statement: CreateTableStatement, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  const database = session.requireDatabase(statement.database);
  const catalog = session.fe.catalog;
  catalog.getDatabase(database);
  if (catalog.findTable(database, statement.name)) {
    if (statement.ifNotExists) return okResult();
    throw new GaleneError('TABLE_EXISTS', [statement.name]);
  }
  if (statement.asQuery) return createTableAsSelect(session, statement, statement.asQuery, database, sqlText, profile);
  if (statement.like) {
    const source = session.resolveTable(statement.like.database, statement.like.name);
    // The copy's partitions are its own: same bounds, new ids.
    const info = partitionInfoOf(source);
    const partitioned = info === null ? {} : { partitionInfo: { ...info, partitions: info.partitions.map((partition) => ({ ...partition, id: catalog.newObjectId() })) } };
    catalog.createTable(database, { ...source, ...partitioned, id: catalog.newObjectId(), databaseName: database, name: statement.name, schemaVersion: 1, createTime: Date.now() });
    return okResult();
  }
  const built = buildTableSchema(session, statement, database, catalog.newObjectId());
  const schema = { ...built, properties: withTableVault(session, built.properties) };
  dynamicPartitionSpec(schema); // checked before anything is created
  const created = catalog.createTable(database, schema);
  await session.fe.backend.deleteObjects(applyDynamicPartitions(catalog, created, new Date()));
  return okWithWarnings(session, tablePropertyNotes(statement.properties));
}

/** CREATE TABLE ... AS SELECT (create-table-as-select.ts): the table from the query's columns, then its rows. */
async function createTableAsSelect(session: StatementSession, statement: CreateTableStatement, query: QueryExpr, database: string, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  const catalog = session.fe.catalog;
  const output = planQuery(query, session.statementContext(profile), { sql: sqlText }).columns;
  const built = buildTableSchema(session, { ...statement, columns: ctasColumnDefs(statement, output) }, database, catalog.newObjectId());
  catalog.createTable(database, { ...built, properties: withTableVault(session, built.properties) });
  const insert: InsertStatement = { kind: 'insert', database, table: statement.name, columns: null, source: query, label: null, overwrite: false, pos: statement.pos, end: statement.end };
  try {
    return await runInsert(session, insert, sqlText, profile);
  } catch (err) {
    if (catalog.findTable(database, statement.name)?.schema.id === built.id) await session.fe.backend.deleteObjects(catalog.dropTable(database, statement.name));
    throw err;
  }
}

/** OK with the statement's Notes (SHOW WARNINGS lists them). */
export async function dropTable(session: StatementSession, statement: DropTableStatement): Promise<StatementResult> {
  const database = session.requireDatabase(statement.database);
  if (!session.fe.catalog.findTable(database, statement.name)) {
    if (statement.ifExists) return okResult();
    throw new GaleneError('BAD_TABLE_DROP', [statement.name]);
  }
  const keys = session.fe.catalog.dropTable(database, statement.name);
  await session.fe.backend.deleteObjects(keys);
  return okResult();
}

export async function truncateTable(session: StatementSession, statement: TruncateTableStatement): Promise<StatementResult> {
  const database = session.requireDatabase(statement.database);
  const catalog = session.fe.catalog;
  const keys = statement.partitions ? catalog.truncatePartitions(database, statement.name, partitionIdsToTruncate(catalog.getTable(database, statement.name).schema, statement.partitions)) : catalog.truncateTable(database, statement.name);
  await session.fe.backend.deleteObjects(keys);
  return okResult();
}

export async function alterTable(session: StatementSession, statement: AlterTableStatement): Promise<StatementResult> {
  const database = session.requireDatabase(statement.database);
  const catalog = session.fe.catalog;
  const current = catalog.getTable(database, statement.name).schema;
  const partitionActions = statement.actions.filter(isPartitionAction);
  if (partitionActions.length > 0) {
    if (partitionActions.length !== statement.actions.length) throw new GaleneError('UNSUPPORTED', ['ALTER TABLE mixing partition and other changes']);
    // Open Group Commit batches commit first: a dropped partition's tablets must not vanish under them.
    const groupCommit = existingGroupCommitManager(session.fe.backend);
    const change = async (): Promise<string[]> => alterPartitions(catalog, database, statement.name, partitionActions);
    await session.fe.backend.deleteObjects(groupCommit ? await groupCommit.drainTable(current.id, change) : await change());
    return okResult();
  }
  // Validate every action first so a bad one changes nothing.
  let next: TableSchema = current;
  const notes: SessionWarning[] = [];
  for (const action of statement.actions) {
    switch (action.kind) {
      case 'keys':
        notes.push(KEYS_NOTE);
        break;
      case 'setProperties': {
        for (const key of ['enable_unique_key_merge_on_write', 'function_column.sequence_col', 'storage_vault_name', 'storage_vault_id']) {
          if (key in action.properties && action.properties[key] !== next.properties[key]) throw bad(`Can not change ${key} of an existing table`);
        }
        const properties = { ...next.properties, ...action.properties };
        validateTableProperties(action.properties, next);
        notes.push(...tablePropertyNotes(action.properties));
        next = { ...next, properties };
        break;
      }
      case 'renameTable':
        if (catalog.findTable(database, action.newName)) throw new GaleneError('TABLE_EXISTS', [action.newName]);
        next = { ...next, name: action.newName };
        break;
      case 'addColumn':
        next = addColumn(next, action.column, action.after);
        break;
      case 'dropColumn':
        next = dropColumn(next, action.name);
        break;
      case 'modifyColumn':
        next = modifyColumn(next, action.column);
        break;
      case 'addIndex': {
        const index = checkIndexDef({ keysType: next.keysType, mergeOnWrite: isMergeOnWrite(next), columns: next.columns }, action.index, next.indexes);
        next = { ...next, indexes: [...next.indexes, index] };
        break;
      }
      case 'dropIndex': {
        const dropped = findIndexToDrop(next.indexes, action.name);
        next = { ...next, indexes: next.indexes.filter((index) => index !== dropped) };
        break;
      }
      default:
        throw new GaleneError('UNSUPPORTED', [`ALTER TABLE ... ${action.kind}`]);
    }
  }
  if (next === current) return okWithWarnings(session, notes);
  const dynamic = dynamicPartitionSpec(next) !== null; // checked before anything changes
  const apply = async (): Promise<void> => void catalog.updateSchema(database, statement.name, () => next);
  // An index change also drains Group Commit: no open batch writes segments with the old index set.
  const changesColumns = statement.actions.some((action) => ['addColumn', 'dropColumn', 'modifyColumn', 'addIndex', 'dropIndex'].includes(action.kind));
  // A column change commits the table's open Group Commit batches first; loads arriving meanwhile get the
  // retryable "blocked on schema change" error, so no batch mixes the old and the new columns.
  const groupCommit = changesColumns ? existingGroupCommitManager(session.fe.backend) : undefined;
  if (groupCommit) await groupCommit.drainTable(current.id, apply);
  else await apply();
  // Index files of the indexes dropped (and stale ones of a re-created name) leave the segments, then the store.
  const removed = current.indexes.filter((index) => !next.indexes.includes(index)).map((index) => index.name);
  const added = next.indexes.filter((index) => !current.indexes.includes(index)).map((index) => index.name);
  const stale = purgeIndexRecords(session.fe.catalog, current.id, [...removed, ...added]);
  if (removed.length > 0) cancelBuildJobsFor(session.fe, current.id, removed);
  await session.fe.backend.deleteObjects(stale);
  if (dynamic) await session.fe.backend.deleteObjects(applyDynamicPartitions(catalog, catalog.getTable(database, next.name), new Date()));
  return okWithWarnings(session, notes);
}

/**
 * MODIFY COLUMN, the changes Doris makes without rewriting data (light schema change): a longer VARCHAR
 * or VARCHAR to STRING (strings are stored the same whatever their declared length), NOT NULL to NULL on a
 * value column, a new DEFAULT or COMMENT. Type changes that need the rows rewritten are refused.
 */
function modifyColumn(schema: TableSchema, def: ColumnDef): TableSchema {
  const column = schema.columns.find((existing) => existing.name.toLowerCase() === def.name.toLowerCase());
  if (!column) throw new GaleneError('UNKNOWN_COLUMN', [def.name, 'table definition']);
  if ((def.autoIncrement !== null) !== (column.autoIncrementStart !== undefined)) throw bad(`Can not change the auto-increment property of column ${column.name}`);
  if (def.generated !== undefined || column.generatedExpr !== undefined) throw new GaleneError('UNSUPPORTED', ['MODIFY COLUMN of a generated column']);
  if (def.aggregation && def.aggregation.toUpperCase() !== column.aggregation) throw bad(`Can not change aggregation type of column ${column.name}`);
  if (!typesEqual(def.type, column.type)) {
    const lengthOf = (type: DataType): number => (type.name === 'STRING' ? Infinity : (type.length ?? Infinity));
    const bothStrings = (def.type.name === 'VARCHAR' || def.type.name === 'STRING') && (column.type.name === 'VARCHAR' || column.type.name === 'STRING');
    if (!bothStrings) throw new GaleneError('UNSUPPORTED', [`MODIFY COLUMN changing ${column.name} from ${typeToSql(column.type)} to ${typeToSql(def.type)} (a change that rewrites the data)`]);
    if (lengthOf(def.type) < lengthOf(column.type)) throw bad('Cannot shorten string length');
  }
  if (def.nullable !== column.nullable) {
    if (!def.nullable) throw bad('Can not change from nullable to non-nullable');
    if (column.isKey) throw bad(`Can not change key column ${column.name} to nullable`);
  }
  const defaultValue = def.defaultValue !== undefined ? defaultText(def.defaultValue, def) : column.defaultValue;
  const modified: ColumnSchema = { ...column, type: def.type, nullable: def.nullable, defaultValue, comment: def.comment ?? column.comment };
  return { ...schema, columns: schema.columns.map((existing) => (existing === column ? modified : existing)) };
}

/**
 * Light schema change, as Doris: a new value column is metadata only; rows written before it read its
 * constant DEFAULT (or NULL). Key columns cannot be added.
 */
function addColumn(schema: TableSchema, def: ColumnDef, after: string | null): TableSchema {
  if (schema.columns.some((column) => column.name.toLowerCase() === def.name.toLowerCase())) throw new GaleneError('DUPLICATE_COLUMN', [def.name]);
  // Rows already written have no value to give it: Doris refuses this too.
  if (def.autoIncrement !== null) throw bad(`Can not add auto-increment column ${def.name}`);
  if (def.generated !== undefined) throw bad('Not supporting alter table add generated columns.');
  let aggregation: AggregationType | null = null;
  if (def.aggregation) {
    const upper = def.aggregation.toUpperCase() as AggregationType;
    if (schema.keysType !== 'AGGREGATE' || !AGGREGATIONS.includes(upper)) throw bad(`The column[${def.name}] is not allowed to have aggregation type ${upper} in ${schema.keysType} KEY table`);
    aggregation = upper;
    checkArrayAggregation(def.type, aggregation);
  } else if (schema.keysType === 'AGGREGATE') {
    throw bad(`The column[${def.name}] must have aggregation type in AGGREGATE KEY table`);
  }
  const defaultValue = defaultText(def.defaultValue, def);
  if (!def.nullable && defaultValue === null) throw bad(`Can not add column ${def.name} which is NOT NULL and has no default value`);
  const column: ColumnSchema = {
    name: def.name,
    type: def.type,
    nullable: def.nullable,
    isKey: false,
    aggregation,
    defaultValue,
    comment: def.comment ?? '',
    uniqueId: Math.max(...schema.columns.map((existing) => existing.uniqueId)) + 1,
  };
  let position = schema.columns.length;
  if (after !== null) {
    const afterIdx = schema.columns.findIndex((existing) => existing.name.toLowerCase() === after.toLowerCase());
    if (afterIdx < 0) throw new GaleneError('UNKNOWN_COLUMN', [after, 'table definition']);
    if (afterIdx < schema.keyColumns.length - 1) throw bad(`Can not add value column ${def.name} before key column ${schema.columns[afterIdx + 1].name}`);
    position = afterIdx + 1;
  }
  const columns = [...schema.columns];
  columns.splice(position, 0, column);
  return { ...schema, columns };
}

/** Drop a value column (metadata only: old segments keep its data, which is no longer read). */
function dropColumn(schema: TableSchema, name: string): TableSchema {
  const column = schema.columns.find((existing) => existing.name.toLowerCase() === name.toLowerCase());
  if (!column) throw new GaleneError('UNKNOWN_COLUMN', [name, 'table definition']);
  if (column.isKey) throw bad(`Can not drop key column ${column.name}`);
  if (schema.distribution.columns.some((distribution) => distribution.toLowerCase() === column.name.toLowerCase())) throw bad(`Can not drop distribution column ${column.name}`);
  if (partitionInfoOf(schema)?.columns.some((partitionColumn) => partitionColumn.toLowerCase() === column.name.toLowerCase())) throw bad(`Partition column[${column.name}] cannot be dropped. index[${schema.name}]`);
  if ((schema.properties['function_column.sequence_col'] ?? '').toLowerCase() === column.name.toLowerCase()) throw bad(`Can not drop sequence column ${column.name}`);
  if (schema.columns.length === 1) throw bad('Can not drop the only column of a table');
  const colIdx = schema.columns.indexOf(column);
  const dependents = generatedColumns(schema).filter((generated) => collectColumns(generated.expr).has(colIdx)).map((generated) => schema.columns[generated.colIdx]);
  if (dependents.length > 0) throw bad(`Column '${column.name}' has a generated column dependency on :[${dependents.map((other) => other.name).join(', ')}]`);
  const indexed = schema.indexes.find((index) => index.columns.some((indexColumn) => indexColumn.toLowerCase() === column.name.toLowerCase()));
  if (indexed) throw bad(`Can not drop column ${column.name}: index ${indexed.name} uses it`);
  return { ...schema, columns: schema.columns.filter((existing) => existing !== column) };
}
