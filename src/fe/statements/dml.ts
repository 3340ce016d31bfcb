/**
 * INSERT (VALUES and SELECT) as one transaction: rows are converted to the column types first (a bad
 * value fails the whole statement with MySQL's message and writes nothing), then written as segments,
 * then published atomically. DELETE and UPDATE arrive with the table-model write path (issue 3).
 */
import { Batch, batchBytes, concatVectors, constantVector, dropRows, getRaw, newFixedArray, RawValue, vectorFromRaw, Vector, VectorBuilder } from '../../common/column';
import {
  ParseFailure, parseDateSpan, parseDatetimeSpan, parseIntegerSpan, parseScaledDecimalSpan, parseValue, pow10, smallIntRange,
} from '../../common/convert';
import { GaleneError } from '../../common/errors';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import { DataType, physicalKind } from '../../common/types';
import type { StatementContext, TaskContext } from '../../exec/context';
import { castVector, evaluateConstant, evaluateConstantVector } from '../../exec/expr';
import { annVectorChecks, badVectorRows } from '../../load/ann-vector-check';
import { partitionIdsOfRows, rowsWithoutPartition } from '../../load/partition-check';
import { ensureAutoPartitions } from '../../load/auto-partition';
import { beginLoad, generateLabel, loadBatch, type LoadOutcome, type LoadTarget, type MultiBatchLoad } from '../../load/load-transaction';
import { DEFAULT_COMPACTION_POLICY } from '../../be/compaction';
import { writeBinlogRows } from '../../load/row-binlog-writer';
import { groupCommitInsert } from '../../load/group-commit';
import type { TableState } from '../../meta/catalog';
import { DeleteCondition, DeleteConditionOp, isMergeOnWrite } from '../../meta/delete-bitmap';
import type { NewRowset } from '../../meta/meta-store';
import { rowBinlogEnabled } from '../../meta/row-binlog';
import { fillGeneratedColumns, isGenerated } from '../generated-columns';
import { hasLoadDefault, loadAcceptsNull, loadDefaultValue, partitionsNamed, type ColumnSchema } from '../../meta/schema';
import { DeleteStatement, Expr, InsertStatement, LiteralCellKind, LiteralRows, SelectQuery, UpdateStatement } from '../../sql/ast';
import { literalCellText } from '../../sql/parse-literal-rows';
import { parseExpression } from '../../sql/parser';
import { bindScalarExpr, runQuery, streamQuery } from '../../sql/query';
import type { StatementSession } from './statement-session';
import { okResult } from './result-rows';

const TYPE_WORDS: Partial<Record<DataType['name'], string>> = {
  TINYINT: 'integer',
  JSON: 'json',
  SMALLINT: 'integer',
  INT: 'integer',
  BIGINT: 'integer',
  LARGEINT: 'integer',
  FLOAT: 'double',
  DOUBLE: 'double',
  DECIMAL: 'decimal',
  DATE: 'date',
  DATETIME: 'datetime',
  BOOLEAN: 'boolean',
  ARRAY: 'array',
  MAP: 'map',
  STRUCT: 'struct',
};

function conversionError(failure: ParseFailure, column: ColumnSchema, text: string, rowNumber: number): GaleneError {
  if (failure === 'out_of_range') return new GaleneError('OUT_OF_RANGE', [column.name, rowNumber]);
  if (failure === 'too_long') return new GaleneError('DATA_TOO_LONG', [column.name, rowNumber]);
  return new GaleneError('INVALID_VALUE', [TYPE_WORDS[column.type.name] ?? 'string', text, column.name, rowNumber]);
}

/** Raw value of a column's DEFAULT for one row (NULL when the column has none and is nullable or AUTO_INCREMENT). */
function defaultRaw(column: ColumnSchema): RawValue {
  if (!hasLoadDefault(column) && !loadAcceptsNull(column)) throw new GaleneError('NO_DEFAULT', [column.name]);
  return loadDefaultValue(column);
}

/** Literal text of a VALUES cell when it is a plain literal (the fast path), else undefined. */
function literalText(expr: Expr): string | null | undefined {
  if (expr.kind === 'literal') {
    if (expr.value === null) return null;
    if (typeof expr.value === 'boolean') return expr.value ? '1' : '0';
    return expr.value;
  }
  if (expr.kind === 'unary' && expr.op === '-' && expr.operand.kind === 'literal' && typeof expr.operand.value === 'string' && expr.operand.literalType !== 'string') return '-' + expr.operand.value;
  return undefined;
}

/** Convert VALUES rows to one vector per target column, in the columns' types. */
function valuesToColumns(session: StatementSession, rows: readonly (readonly Expr[])[], targets: readonly ColumnSchema[], profile: QueryProfile): Vector[] {
  const builders = targets.map((column) => new VectorBuilder(column.type, rows.length));
  let ctx: StatementContext | null = null;
  rows.forEach((row, rowIdx) => {
    const rowNumber = rowIdx + 1;
    if (row.length !== targets.length) throw new GaleneError('COLUMN_COUNT_MISMATCH', [rowNumber]);
    for (let colIdx = 0; colIdx < targets.length; colIdx++) {
      const column = targets[colIdx];
      const cell = row[colIdx];
      if (cell.kind === 'default') {
        builders[colIdx].append(defaultRaw(column));
        continue;
      }
      const text = literalText(cell);
      if (text === null) {
        builders[colIdx].append(null);
        continue;
      }
      if (text !== undefined) {
        const parsed = parseValue(column.type, text);
        if (parsed.failure) throw conversionError(parsed.failure, column, text, rowNumber);
        builders[colIdx].append(parsed.value);
        continue;
      }
      // An expression: evaluate it, then convert with INSERT rules.
      ctx ??= session.statementContext(profile);
      const bound = bindScalarExpr(cell, ctx);
      const cast = castVector(evaluateConstantVector(bound, ctx), column.type, 'insert', column.name, rowNumber);
      builders[colIdx].appendFrom(cast, 0);
    }
  });
  return builders.map((builder) => builder.finish());
}

/**
 * INSERT ... PARTITION (p, ...): the ids of the partitions named (rows elsewhere are filtered as Doris's
 * sink does); null without a list or with `(*)` (OVERWRITE: the partitions the rows go to). An
 * unpartitioned table is one partition named after the table.
 */
function namedPartitions(table: TableState, statement: InsertStatement): Set<number> | null {
  const names = statement.partitions;
  if (names === undefined || names === '*') return null;
  const partitions = partitionsNamed(table.schema, names);
  return partitions === null ? null : new Set(partitions.map((partition) => partition.id));
}

/** The partitions an INSERT OVERWRITE replaces: those named, those its rows went to (`(*)`), or null: the whole table. */
function overwrittenPartitions(statement: InsertStatement, named: ReadonlySet<number> | null, routed: ReadonlySet<number>): number[] | null {
  if (statement.partitions === '*') return [...routed];
  return named === null ? null : [...named];
}

/** First failing cell of a column (row index from 0) and its error. */
interface CellFailure {
  readonly rowIdx: number;
  readonly error: unknown;
}

const utf8Encoder = new TextEncoder();

/**
 * One target column of a literal VALUES list (parse-literal-rows.ts) converted straight from the text:
 * the common shapes (integers, plain decimals, 'YYYY-MM-DD' dates, strings) through the span parsers of
 * convert.ts, every other cell through parseValue on the same text the general path would convert, so
 * values and errors are the same. Returns the vector, or the first failing row and its error.
 */
function literalColumn(rows: LiteralRows, colIdx: number, column: ColumnSchema): Vector | CellFailure {
  const type = column.type;
  const kind = physicalKind(type);
  const { sql, kinds, starts, ends, width, rowCount } = rows;
  let nulls: Uint8Array | null = null;
  let defaultValue: RawValue | undefined;
  /** Value of a cell the general way (literal text -> parseValue, DEFAULT, NULL); throws its error. */
  const slowValue = (cellIdx: number, rowIdx: number): RawValue => {
    const cellKind = kinds[cellIdx] as LiteralCellKind;
    if (cellKind === LiteralCellKind.Null) return null;
    if (cellKind === LiteralCellKind.Default) {
      if (defaultValue === undefined) defaultValue = defaultRaw(column);
      return defaultValue;
    }
    const text = cellKind === LiteralCellKind.True ? '1' : cellKind === LiteralCellKind.False ? '0' : literalCellText(rows, cellIdx);
    const parsed = parseValue(type, text);
    if (parsed.failure) throw conversionError(parsed.failure, column, text, rowIdx + 1);
    return parsed.value;
  };
  const setNull = (rowIdx: number): void => {
    nulls ??= new Uint8Array(rowCount);
    nulls[rowIdx] = 1;
  };
  let rowIdx = 0;
  try {
    if (kind === 'list' || kind === 'struct' || type.name === 'JSON') {
      // Arrays ('[1, 2]' text cells) and JSON (parsed and normalised) take the general conversion, cell by cell.
      const builder = new VectorBuilder(type, rowCount);
      for (; rowIdx < rowCount; rowIdx++) builder.append(slowValue(rowIdx * width + colIdx, rowIdx));
      return builder.finish();
    }
    if (kind === 'string') {
      const limit = type.name === 'STRING' ? Infinity : (type.length ?? 65533);
      const offsets = new Int32Array(rowCount + 1);
      let capacity = 16;
      for (let cellIdx = colIdx; cellIdx < kinds.length; cellIdx += width) capacity += ends[cellIdx] - starts[cellIdx];
      let bytes = new Uint8Array(capacity);
      let used = 0;
      const ensure = (extra: number): void => {
        if (used + extra <= bytes.length) return;
        const next = new Uint8Array(Math.max(used + extra, bytes.length * 2));
        next.set(bytes.subarray(0, used));
        bytes = next;
      };
      for (; rowIdx < rowCount; rowIdx++) {
        const cellIdx = rowIdx * width + colIdx;
        const cellKind = kinds[cellIdx] as LiteralCellKind;
        if (cellKind === LiteralCellKind.String && ends[cellIdx] - starts[cellIdx] - 2 <= limit) {
          const end = ends[cellIdx] - 1;
          const start = starts[cellIdx] + 1;
          ensure(end - start);
          let pos = used;
          let charIdx = start;
          for (; charIdx < end; charIdx++) {
            const code = sql.charCodeAt(charIdx);
            if (code >= 0x80) break;
            bytes[pos++] = code;
          }
          if (charIdx === end) {
            used = pos;
            offsets[rowIdx + 1] = used;
            continue;
          }
        }
        const value = slowValue(cellIdx, rowIdx);
        if (value === null) setNull(rowIdx);
        else {
          const text = value as string;
          ensure(text.length * 3);
          used += utf8Encoder.encodeInto(text, bytes.subarray(used)).written;
        }
        offsets[rowIdx + 1] = used;
      }
      return { kind: 'string', type, length: rowCount, offsets, bytes: bytes.subarray(0, used), nulls };
    }
    if (kind === 'bigint') {
      const values: bigint[] = new Array<bigint>(rowCount);
      for (; rowIdx < rowCount; rowIdx++) {
        const value = slowValue(rowIdx * width + colIdx, rowIdx);
        if (value === null) {
          setNull(rowIdx);
          values[rowIdx] = 0n;
        } else {
          values[rowIdx] = BigInt(value as number | bigint | string);
        }
      }
      return { kind: 'object', type, length: rowCount, values, nulls };
    }
    const values = newFixedArray(kind, rowCount);
    // The one fast shape of this column type: returns NaN when a cell is not of it.
    let fast: ((cellKind: LiteralCellKind, start: number, end: number) => number) | null = null;
    const intRange = smallIntRange(type);
    if (intRange !== null) {
      const [min, max] = intRange;
      fast = (cellKind, start, end) => {
        if (cellKind !== LiteralCellKind.Integer) return NaN;
        const value = parseIntegerSpan(sql, start, end);
        return value >= min && value <= max ? value : NaN;
      };
    } else if (type.name === 'BIGINT') {
      fast = (cellKind, start, end) => (cellKind === LiteralCellKind.Integer ? parseIntegerSpan(sql, start, end) : NaN);
    } else if (type.name === 'DECIMAL') {
      const scale = type.scale ?? 0;
      const bound = pow10(type.precision ?? 9);
      fast = (cellKind, start, end) => {
        if (cellKind !== LiteralCellKind.Integer && cellKind !== LiteralCellKind.Decimal) return NaN;
        const value = parseScaledDecimalSpan(sql, start, end, scale);
        return value < bound && value > -bound ? value : NaN;
      };
    } else if (type.name === 'DATE') {
      fast = (cellKind, start, end) => (cellKind === LiteralCellKind.String ? parseDateSpan(sql, start + 1, end - 1) : NaN);
    } else if (type.name === 'DATETIME') {
      fast = (cellKind, start, end) => (cellKind === LiteralCellKind.String ? parseDatetimeSpan(sql, start + 1, end - 1) : NaN);
    } else if (type.name === 'DOUBLE') {
      fast = (cellKind, start, end) => (cellKind >= LiteralCellKind.Integer && cellKind <= LiteralCellKind.Float ? Number(sql.slice(start, end)) : NaN);
    }
    const wide = kind === 'i64';
    for (; rowIdx < rowCount; rowIdx++) {
      const cellIdx = rowIdx * width + colIdx;
      if (fast !== null) {
        const value = fast(kinds[cellIdx] as LiteralCellKind, starts[cellIdx], ends[cellIdx]);
        if (value === value) {
          if (wide) (values as BigInt64Array)[rowIdx] = BigInt(value);
          else (values as Float64Array)[rowIdx] = value;
          continue;
        }
      }
      const value = slowValue(cellIdx, rowIdx);
      if (value === null) setNull(rowIdx);
      else if (wide) (values as BigInt64Array)[rowIdx] = typeof value === 'bigint' ? value : BigInt(value as number);
      else (values as Float64Array)[rowIdx] = Number(value);
    }
    return { kind: 'fixed', type, length: rowCount, values, nulls };
  } catch (error) {
    return { rowIdx, error };
  }
}

/**
 * VALUES rows of plain literals to one vector per target column, column by column. The error reported is
 * the one the row-by-row path would meet first: the failing cell with the lowest row, then column.
 */
function literalRowsToColumns(rows: LiteralRows, targets: readonly ColumnSchema[]): Vector[] {
  if (rows.width !== targets.length) throw new GaleneError('COLUMN_COUNT_MISMATCH', [1]);
  const vectors: Vector[] = [];
  let first: CellFailure | null = null;
  for (let colIdx = 0; colIdx < targets.length; colIdx++) {
    const converted = literalColumn(rows, colIdx, targets[colIdx]);
    if ('error' in converted) {
      if (first === null || converted.rowIdx < first.rowIdx) first = converted;
      continue;
    }
    vectors.push(converted);
  }
  if (first !== null) throw first.error;
  return vectors;
}

/**
 * The columns an INSERT without a column list fills: all of them, or — on a table with generated columns,
 * when the rows or the query give one value fewer per generated column — the others (generated ones are
 * computed; with all columns, VALUES must give them as DEFAULT).
 */
function defaultTargets(columns: readonly ColumnSchema[], statement: InsertStatement): ColumnSchema[] {
  const loaded = columns.filter((column) => !isGenerated(column));
  if (loaded.length === columns.length) return [...columns];
  const source = statement.source;
  if (source.kind === 'values') {
    const width = source.literals ? source.literals.width : (source.rows[0]?.length ?? 0);
    return width === loaded.length ? loaded : [...columns];
  }
  return loaded;
}

/** A generated column takes no value from an INSERT: only DEFAULT in a VALUES row (MySQL's 3105 otherwise). */
function checkGeneratedTargets(tableName: string, targets: readonly ColumnSchema[], statement: InsertStatement): void {
  const source = statement.source;
  targets.forEach((column, colIdx) => {
    if (!isGenerated(column)) return;
    let allDefault = false;
    if (source.kind === 'values' && source.literals) {
      const { kinds, rowCount, width } = source.literals;
      allDefault = true;
      for (let rowIdx = 0; rowIdx < rowCount && allDefault; rowIdx++) allDefault = kinds[rowIdx * width + colIdx] === LiteralCellKind.Default;
    } else if (source.kind === 'values') {
      allDefault = source.rows.every((row) => row[colIdx]?.kind === 'default');
    }
    if (!allDefault) throw new GaleneError('GENERATED_COLUMN_VALUE', [column.name, tableName]);
  });
}

/** Assemble full-width rows in schema order: given columns, defaults for the rest, generated columns computed; enforce NOT NULL. */
function completeRows(table: TableState, targets: readonly ColumnSchema[], values: readonly Vector[], rowCount: number, ctx: TaskContext): Batch {
  const columns = table.schema.columns.map((column) => {
    const given = targets.indexOf(column);
    const vec = given >= 0 ? values[given] : constantVector(column.type, defaultRaw(column), rowCount);
    if (!loadAcceptsNull(column) && vec.nulls) {
      const nullRow = vec.nulls.indexOf(1);
      if (nullRow >= 0) throw new GaleneError('NOT_NULL_VIOLATION', [column.name]);
    }
    return vec;
  });
  const filled = fillGeneratedColumns(table.schema, { length: rowCount, columns }, ctx);
  table.schema.columns.forEach((column, colIdx) => {
    if (isGenerated(column) && !column.nullable && filled.columns[colIdx].nulls?.includes(1)) throw new GaleneError('NOT_NULL_VIOLATION', [column.name]);
  });
  return filled;
}

/** Rows an INSERT filtered so far and rows it had (insert_max_filter_ratio is checked against them). */
interface FilterCounts {
  filtered: number;
  total: number;
}

/**
 * An INSERT's rows whose vector does not fit a column's ANN index (load/ann-vector-check.ts, the check
 * Stream Load applies): in strict mode (enable_insert_strict, the default) the statement fails, as
 * Doris's does; otherwise they are left out, and the statement fails once they are more than
 * insert_max_filter_ratio of its rows. Called before Group Commit and the plain load alike, so both agree
 * (apache/doris #33453). `given`: the columns the statement gives (lower-case); null: all.
 */
function filterBadVectors(session: StatementSession, table: TableState, batch: Batch, given: ReadonlySet<string> | null, counts: FilterCounts = { filtered: 0, total: 0 }, only: ReadonlySet<number> | null = null): Batch {
  const checks = annVectorChecks(table.schema, given);
  const bad = mergeBadRows(badVectorRows(batch, checks), rowsWithoutPartition(table, batch, only));
  counts.total += batch.length;
  if (bad.length === 0) return batch;
  counts.filtered += bad.length;
  const first = bad[0].reason;
  if (session.getVariable('enable_insert_strict') !== false) throw new GaleneError('DML_ERROR', [`Insert has filtered data in strict mode. first_error_msg: ${first}`]);
  const ratio = Number(session.getVariable('insert_max_filter_ratio') ?? 1);
  if (counts.filtered > ratio * counts.total) throw new GaleneError('LOAD_DATA_QUALITY', [`too many filtered rows (${counts.filtered} of ${counts.total} > insert_max_filter_ratio ${ratio}). first_error_msg: ${first}`]);
  return dropRows(batch, bad);
}

/** Two ascending lists of bad rows as one, ascending, each row once (its first reason). */
function mergeBadRows(a: { rowIdx: number; reason: string }[], b: { rowIdx: number; reason: string }[]): { rowIdx: number; reason: string }[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const byRow = new Map<number, string>();
  for (const row of [...a, ...b]) if (!byRow.has(row.rowIdx)) byRow.set(row.rowIdx, row.reason);
  return [...byRow.entries()].sort((x, y) => x[0] - y[0]).map(([rowIdx, reason]) => ({ rowIdx, reason }));
}

export async function runInsert(session: StatementSession, statement: InsertStatement, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  const fe = session.fe;
  const database = session.requireDatabase(statement.database);
  if (fe.catalog.hasDatabase(database) && fe.catalog.findView(database, statement.table)) throw new GaleneError('NOT_INSERTABLE', [statement.table, 'INSERT']);
  let table = fe.catalog.getTable(database, statement.table);
  const schema = table.schema;
  // INSERT OVERWRITE replaces the whole table in one publish (Catalog.publishOverwrite): not inside BEGIN ... COMMIT.
  if (statement.overwrite && session.transaction !== null) throw new GaleneError('TRANSACTION_ERROR', ['INSERT OVERWRITE is not allowed in a transaction']);
  let targets: ColumnSchema[];
  if (statement.columns) {
    targets = statement.columns.map((name) => {
      const column = schema.columns.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
      if (!column) throw new GaleneError('UNKNOWN_COLUMN', [name, 'field list']);
      return column;
    });
    if (new Set(targets).size !== targets.length) throw new GaleneError('DUPLICATE_COLUMN', [targets.find((column, idx) => targets.indexOf(column) !== idx)!.name]);
  } else {
    targets = defaultTargets(schema.columns, statement);
  }
  checkGeneratedTargets(schema.name, targets, statement);
  let values: Vector[];
  let rowCount: number;
  if (statement.source.kind === 'values' && statement.source.literals) {
    values = literalRowsToColumns(statement.source.literals, targets);
    rowCount = statement.source.literals.rowCount;
  } else if (statement.source.kind === 'values') {
    values = valuesToColumns(session, statement.source.rows, targets, profile);
    rowCount = statement.source.rows.length;
  } else if (session.transaction === null && (statement.overwrite || !isPartialUpdate(session, table, statement))) {
    return insertSelectStreamed(session, table, statement, targets, profile, sqlText);
  } else {
    const result = await runQuery(statement.source, session.statementContext(profile), sqlText);
    if (result.columns.length !== targets.length) throw new GaleneError('COLUMN_COUNT_MISMATCH', [1]);
    rowCount = result.batches.reduce((sum, batch) => sum + batch.length, 0);
    values = result.columns.map((column, colIdx) => {
      const whole = result.batches.length === 0 ? vectorFromRaw(column.type, []) : concatVectors(column.type, result.batches.map((batch) => batch.columns[colIdx]));
      return castVector(whole, targets[colIdx].type, 'insert', targets[colIdx].name, 1);
    });
  }
  const partial = !statement.overwrite && isPartialUpdate(session, table, statement);
  const built = partial ? await partialRows(session, table, targets, values, rowCount) : completeRows(table, targets, values, rowCount, session.statementContext(profile));
  table = ensureAutoPartitions(fe.catalog, table, built);
  const only = namedPartitions(table, statement);
  const batch = filterBadVectors(session, table, built, partial ? new Set(targets.map((column) => column.name.toLowerCase())) : null, undefined, only);
  rowCount = batch.length;
  if (statement.overwrite) {
    const load = beginLoad(fe.backend, table, statement.label ?? generateLabel('insert'));
    try {
      await load.add(batch);
      const outcome = await commitOverwrite(session, load, overwrittenPartitions(statement, only, partitionIdsOfRows(table, batch)));
      return okResult(rowCount, `{'label':'${load.label}', 'status':'VISIBLE', 'txnId':'${outcome.txn.id}'}`);
    } catch (err) {
      await load.abort(err instanceof Error ? err.message : String(err));
      throw err;
    }
  }
  const open = session.transaction;
  if (open) {
    // Inside BEGIN ... COMMIT: written now, visible at COMMIT.
    if (statement.label) throw new GaleneError('TRANSACTION_ERROR', ['INSERT ... WITH LABEL is not allowed inside a transaction; give the label to BEGIN']);
    await open.insert(table, batch);
    return okResult(rowCount, `{'label':'${open.label}', 'status':'PREPARE', 'txnId':'${open.txnId}'}`);
  }
  // Group Commit (session variable group_commit > table property group_commit_mode; src/load/group-commit).
  const source = statement.source;
  const grouped = await groupCommitInsert(fe.backend, fe.config, table, batch, {
    sessionMode: (session.variables.get('group_commit') ?? fe.globalVariables.get('group_commit') ?? null) as string | null,
    label: statement.label,
    literalValues: source.kind === 'values' && (source.literals !== undefined || source.rows.every((row) => row.every((cell) => cell.kind === 'default' || literalText(cell) !== undefined))),
    partialUpdate: isPartialUpdate(session, table, statement),
    queryId: profile.queryId,
  });
  if (grouped !== null) return okResult(rowCount, grouped);
  const label = statement.label ?? generateLabel('insert');
  const outcome = await loadBatch(fe.backend, table, batch, label);
  profile.add('WaitFlushLimitTime', outcome.waitFlushLimitNs);
  return okResult(rowCount, `{'label':'${label}', 'status':'VISIBLE', 'txnId':'${outcome.txn.id}'}`);
}

/**
 * INSERT OVERWRITE's commit: the load's rows become the table's content in one publish. The replaced
 * segments are deleted after compaction's grace period, as compaction's inputs are: a query that began on
 * the old rows may still be reading them.
 */
async function commitOverwrite(session: StatementSession, load: MultiBatchLoad, partitionIds: readonly number[] | null): Promise<LoadOutcome> {
  const outcome = await load.commitOverwrite(partitionIds);
  const backend = session.fe.backend;
  if (outcome.retiredKeys.length > 0) setTimeout(() => void backend.deleteObjects(outcome.retiredKeys), DEFAULT_COMPACTION_POLICY.retiredFileGraceMs).unref();
  return outcome;
}

/** INSERT ... SELECT hands the write path a chunk once this many rows or bytes are waiting. */
const INSERT_SELECT_CHUNK_ROWS = 32_768;
const INSERT_SELECT_CHUNK_BYTES = 16 << 20;

/**
 * INSERT ... SELECT outside a transaction: the query's rows go to the write path in bounded chunks, all
 * under one load transaction (one label, one version, all or nothing), so the statement's memory stays
 * bounded whatever the row count and the event loop is free between chunks.
 */
async function insertSelectStreamed(session: StatementSession, table: TableState, statement: InsertStatement, targets: readonly ColumnSchema[], profile: QueryProfile, sqlText: string): Promise<StatementResult> {
  const ctx = session.statementContext(profile);
  const result = await streamQuery(statement.source, ctx, sqlText);
  const rows = result.batches as AsyncIterable<Batch>;
  if (result.columns.length !== targets.length) {
    await rows[Symbol.asyncIterator]().return?.();
    throw new GaleneError('COLUMN_COUNT_MISMATCH', [1]);
  }
  const label = statement.label ?? generateLabel('insert');
  const load = beginLoad(session.fe.backend, table, label);
  const filterCounts: FilterCounts = { filtered: 0, total: 0 };
  const only = namedPartitions(table, statement);
  const routed = new Set<number>();
  let pending: Batch[] = [];
  let pendingRows = 0;
  let pendingBytes = 0;
  const writeChunk = async (): Promise<void> => {
    const firstRow = load.loadedRows + 1;
    const values: Vector[] = [];
    for (let colIdx = 0; colIdx < result.columns.length; colIdx++) {
      const parts = pending.map((batch) => batch.columns[colIdx]);
      values.push(castVector(concatVectors(result.columns[colIdx].type, parts), targets[colIdx].type, 'insert', targets[colIdx].name, firstRow));
      // Concatenating a string column re-encodes values from many page dictionaries: slice it per column.
      const pause = ctx.task.checkpoint();
      if (pause !== undefined) await pause;
    }
    const chunk = filterBadVectors(session, table, completeRows(table, targets, values, pendingRows, ctx), null, filterCounts, only);
    if (statement.partitions === '*') for (const id of partitionIdsOfRows(table, chunk)) routed.add(id);
    ctx.task.release(pendingBytes);
    pending = [];
    pendingRows = 0;
    pendingBytes = 0;
    ctx.task.state = 'Writing';
    await load.add(chunk, () => ctx.task.checkpoint());
    ctx.task.state = 'Executing';
  };
  try {
    for await (const batch of rows) {
      pending.push(batch);
      pendingRows += batch.length;
      const bytes = batchBytes(batch);
      pendingBytes += bytes;
      ctx.task.reserve(bytes);
      if (pendingRows >= INSERT_SELECT_CHUNK_ROWS || pendingBytes >= INSERT_SELECT_CHUNK_BYTES) await writeChunk();
    }
    if (pendingRows > 0) await writeChunk();
    ctx.task.throwIfStopped();
    const outcome = statement.overwrite ? await commitOverwrite(session, load, overwrittenPartitions(statement, only, routed)) : await load.commit();
    profile.add('WaitFlushLimitTime', outcome.waitFlushLimitNs);
    return okResult(outcome.loadedRows, `{'label':'${label}', 'status':'VISIBLE', 'txnId':'${outcome.txn.id}'}`);
  } catch (err) {
    await load.abort(err instanceof Error ? err.message : String(err));
    throw err;
  }
}

/**
 * INSERT with a column list into a merge-on-write UNIQUE KEY table while `enable_unique_key_partial_update`
 * is true updates only the listed columns of existing rows (Doris partial column update).
 */
function isPartialUpdate(session: StatementSession, table: TableState, statement: InsertStatement): boolean {
  if (statement.columns === null || statement.columns === undefined || session.getVariable('enable_unique_key_partial_update') !== true || !isMergeOnWrite(table.schema)) return false;
  const named = new Set(statement.columns.map((name) => name.toLowerCase()));
  const missingKeys = table.schema.keyColumns.filter((key) => !named.has(key.toLowerCase()));
  if (missingKeys.length > 0) throw new GaleneError('DML_ERROR', [`Partial update should include all key columns, missing: ${missingKeys.join(', ')}`]);
  return named.size < table.schema.columns.length;
}

/** Rows of a partial update: the given columns, the others from each key's visible row (defaults for new keys). */
async function partialRows(session: StatementSession, table: TableState, targets: readonly ColumnSchema[], values: readonly Vector[], rowCount: number): Promise<Batch> {
  const columns = table.schema.columns.map((column) => {
    const given = targets.indexOf(column);
    if (given >= 0) {
      if (!loadAcceptsNull(column) && values[given].nulls?.includes(1)) throw new GaleneError('NOT_NULL_VIOLATION', [column.name]);
      return values[given];
    }
    let fill: RawValue = null;
    try {
      fill = defaultRaw(column);
    } catch {
      // NOT NULL without a default: filled from the existing row, or the load fails (checked after the fill).
    }
    return constantVector(column.type, fill, rowCount);
  });
  const given = new Set(targets.map((column) => column.name.toLowerCase()));
  return session.fe.catalog.fillPartialColumns(table, { length: rowCount, columns }, given);
}

// ------------------------------------------------------------ DELETE and UPDATE

const dmlError = (message: string): GaleneError => new GaleneError('DML_ERROR', [message]);

/** `SELECT items FROM table WHERE where` as an AST (DELETE and UPDATE read the rows they change with it). */
function selectFrom(statement: DeleteStatement | UpdateStatement, database: string, items: readonly Expr[]): SelectQuery {
  const span = { pos: statement.pos, end: statement.end };
  return {
    kind: 'select',
    distinct: false,
    items: items.map((expr) => ({ expr, alias: null, ...span })),
    from: { kind: 'table', database, name: statement.table, alias: null, ...span },
    where: statement.where,
    groupBy: [],
    having: null,
    orderBy: [],
    limit: null,
    ...span,
  };
}

const columnRef = (name: string, span: { pos: number; end: number }): Expr => ({ kind: 'column', qualifier: [], name, pos: span.pos, end: span.end });

/** Rows of a query result as one vector per column. */
function resultColumns(result: Awaited<ReturnType<typeof runQuery>>): { length: number; columns: Vector[] } {
  const length = result.batches.reduce((sum, batch) => sum + batch.length, 0);
  const columns = result.columns.map((column, colIdx) => (result.batches.length === 0 ? vectorFromRaw(column.type, []) : concatVectors(column.type, result.batches.map((batch) => batch.columns[colIdx]))));
  return { length, columns };
}

const NEGATED_OP: Record<string, DeleteConditionOp> = { '=': '!=', '!=': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' };

/**
 * The WHERE of a DELETE on a non-merge-on-write table as Doris delete conditions: `column op literal`
 * (=, !=, <, <=, >, >=), `column [NOT] IN (literals)`, `column IS [NOT] NULL` and NOT of those, joined by
 * AND; values converted to the column's type. Anything else fails with Doris's message.
 */
function deleteConditions(session: StatementSession, table: TableState, where: Expr, sqlText: string, profile: QueryProfile): DeleteCondition[] {
  const schema = table.schema;
  const text = (expr: Expr): string => sqlText.slice(expr.pos, expr.end);
  const unsupported = (expr: Expr): GaleneError => dmlError(`Where clause only supports compound predicate, binary predicate, is_null predicate or in predicate. But we meet ${text(expr)}`);
  const columnOf = (expr: Expr, what: string, predicate: Expr): ColumnSchema => {
    if (expr.kind !== 'column') throw dmlError(`Left expr of ${what} should be column name, predicate: ${text(predicate)}`);
    const column = schema.columns.find((candidate) => candidate.name.toLowerCase() === expr.name.toLowerCase());
    if (!column) throw new GaleneError('UNKNOWN_COLUMN', [expr.name, 'where clause']);
    if (column.type.name === 'FLOAT' || column.type.name === 'DOUBLE') throw dmlError(`Column[${column.name}] type is float or double.`);
    if (!column.isKey && schema.keysType === 'AGGREGATE') {
      throw dmlError(`delete predicate on value column only supports Unique table with merge-on-write enabled and Duplicate table, but Table[${schema.name}] is an Aggregate table.`);
    }
    if (!column.isKey && schema.keysType === 'UNIQUE') {
      throw dmlError(`delete predicate on value column only supports Unique table with merge-on-write enabled and Duplicate table, but Table[${schema.name}] is an unique table without merge-on-write.`);
    }
    return column;
  };
  const valueOf = (expr: Expr, column: ColumnSchema, predicate: Expr): RawValue => {
    const literal = expr.kind === 'literal' || (expr.kind === 'unary' && expr.op === '-' && expr.operand.kind === 'literal');
    if (!literal) throw dmlError(`Right expr of binary predicate should be value, predicate: ${text(predicate)}`);
    const ctx = session.statementContext(profile);
    const bound = bindScalarExpr(expr, ctx);
    const cast = castVector(vectorFromRaw(bound.type, [evaluateConstant(bound, ctx)]), column.type, 'insert', column.name, 1);
    return getRaw(cast, 0);
  };
  const out: DeleteCondition[] = [];
  const visit = (expr: Expr, negated: boolean): void => {
    if (expr.kind === 'binary' && expr.op === 'AND' && !negated) {
      visit(expr.left, false);
      visit(expr.right, false);
    } else if (expr.kind === 'unary' && expr.op === 'NOT' && !negated) {
      visit(expr.operand, true);
    } else if (expr.kind === 'binary' && expr.op in NEGATED_OP) {
      const column = columnOf(expr.left, 'binary predicate', expr);
      out.push({ column: column.name, op: negated ? NEGATED_OP[expr.op] : (expr.op as DeleteConditionOp), values: [valueOf(expr.right, column, expr)] });
    } else if (expr.kind === 'isnull') {
      const column = columnOf(expr.operand, 'is_null predicate', expr);
      out.push({ column: column.name, op: expr.negated !== negated ? 'isnotnull' : 'isnull', values: [] });
    } else if (expr.kind === 'in') {
      const column = columnOf(expr.operand, 'in predicate', expr);
      const values = expr.list.map((item) => {
        if (item.kind !== 'literal' && !(item.kind === 'unary' && item.op === '-')) throw dmlError(`Child of in predicate should be value, but get ${text(item)}`);
        return valueOf(item, column, expr);
      });
      out.push({ column: column.name, op: expr.negated !== negated ? 'not in' : 'in', values });
    } else {
      throw unsupported(expr);
    }
  };
  visit(where, false);
  return out;
}

/**
 * DELETE FROM t WHERE ...: on a merge-on-write UNIQUE KEY table the matching rows join the delete bitmap
 * at a new version (any WHERE the query engine can evaluate); on the other models the WHERE becomes a
 * delete predicate that hides matching rows of older versions (Doris's simple conditions only). Writes
 * no data; returns the number of rows deleted.
 */
export async function runDelete(session: StatementSession, statement: DeleteStatement, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  const fe = session.fe;
  const database = session.requireDatabase(statement.database);
  const table = fe.catalog.getTable(database, statement.table);
  const schema = table.schema;
  if (session.transaction) throw new GaleneError('TRANSACTION_ERROR', ['DELETE is not allowed inside a transaction']);
  const meta = fe.catalog.meta;
  if (isMergeOnWrite(schema)) {
    const storage = fe.catalog.mergeOnWrite;
    if (storage === null) throw new GaleneError('INTERNAL', ['merge-on-write DELETE without a storage engine']);
    return fe.catalog.withTableLock([schema.id], async () => {
      // Holding the lock: no publish or compaction changes the table between reading the keys and deleting them.
      const current = fe.catalog.getTable(database, statement.table);
      // A row-binlog table logs the deleted rows whole: read every column, the keys among them.
      const read = rowBinlogEnabled(schema) ? schema.columns.map((column) => column.name) : schema.keyColumns;
      const rows = resultColumns(await runQuery(selectFrom(statement, database, read.map((name) => columnRef(name, statement))), session.statementContext(profile, [], { database, table: statement.table }), sqlText));
      if (rows.length === 0) return okResult(0);
      const keys = schema.keyColumns.map((name) => rows.columns[read.indexOf(name)]);
      const { bitmaps, deletedRows } = await storage.deleteKeys(current, keys, rows.length);
      const txn = meta.beginTransaction(current.dbId, generateLabel('delete'), [schema.id]);
      await publishDelete(fe.backend, current, rows, txn.id, (binlog) => fe.catalog.publishDeletes(txn.id, schema.id, bitmaps, deletedRows, binlog));
      return okResult(deletedRows);
    });
  }
  // Doris: deleting every row needs TRUNCATE; a predicate with no condition is refused.
  if (statement.where === null) throw dmlError('delete all rows is forbidden temporary.');
  const conditions = deleteConditions(session, table, statement.where, sqlText, profile);
  const countExpr: Expr = { kind: 'call', name: 'count', args: [{ kind: 'star', qualifier: [], pos: statement.pos, end: statement.end }], distinct: false, pos: statement.pos, end: statement.end };
  // A row-binlog table logs the rows the predicate hides (as the table model reads them): read them whole.
  const logged = rowBinlogEnabled(schema) ? resultColumns(await runQuery(selectFrom(statement, database, schema.columns.map((column) => columnRef(column.name, statement))), session.statementContext(profile, [], { database, table: statement.table }), sqlText)) : null;
  const counted = logged ?? resultColumns(await runQuery(selectFrom(statement, database, [countExpr]), session.statementContext(profile, [], { database, table: statement.table }), sqlText));
  const deletedRows = logged !== null ? logged.length : counted.length > 0 ? Number(getRaw(counted.columns[0], 0)) : 0;
  const txn = meta.beginTransaction(table.dbId, generateLabel('delete'), [schema.id]);
  await publishDelete(fe.backend, table, logged, txn.id, (binlog) => fe.catalog.publishDeletePredicate(txn.id, schema.id, conditions, deletedRows, binlog));
  return okResult(deletedRows);
}

/**
 * Publish a DELETE's transaction `txnId` with `publish`; on a row-binlog table `rows` (the deleted rows,
 * every column) are logged as DELETE first and published with it. On failure the transaction aborts and
 * whatever was logged is deleted.
 */
async function publishDelete(target: LoadTarget, table: TableState, rows: Batch | null, txnId: number, publish: (binlog: readonly NewRowset[]) => void): Promise<void> {
  let objectKeys: readonly string[] = [];
  try {
    const logged = rows !== null && rows.length > 0 && rowBinlogEnabled(table.schema) ? await writeBinlogRows(target.store, table, rows, 'DELETE', txnId, target.writeOptions) : null;
    objectKeys = logged?.objectKeys ?? [];
    publish(logged?.rowsets ?? []);
  } catch (err) {
    target.catalog.meta.abortTransaction(txnId, err instanceof Error ? err.message : String(err));
    await target.deleteObjects(objectKeys);
    throw err;
  }
}

/**
 * UPDATE t SET c = expr, ... WHERE ... on a UNIQUE KEY table: reads the matching rows with the new values
 * computed by the expression engine and loads them as one transaction, so each replaces the row of its
 * key. Other models fail with Doris's error. Returns the number of rows updated.
 */
export async function runUpdate(session: StatementSession, statement: UpdateStatement, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  const fe = session.fe;
  const database = session.requireDatabase(statement.database);
  const table = fe.catalog.getTable(database, statement.table);
  const schema = table.schema;
  if (schema.keysType !== 'UNIQUE') throw dmlError('Only unique table could be updated.');
  if (session.transaction) throw new GaleneError('TRANSACTION_ERROR', ['UPDATE is not allowed inside a transaction']);
  const assigned = new Map<ColumnSchema, Expr>();
  for (const assignment of statement.assignments) {
    const column = schema.columns.find((candidate) => candidate.name.toLowerCase() === assignment.column.toLowerCase());
    if (!column) throw new GaleneError('UNKNOWN_COLUMN', [assignment.column, 'field list']);
    if (column.isKey) throw dmlError('Only value columns of unique table could be updated');
    if (isGenerated(column)) throw new GaleneError('GENERATED_COLUMN_VALUE', [column.name, schema.name]);
    if (assigned.has(column)) throw new GaleneError('DUPLICATE_COLUMN', [column.name]);
    assigned.set(column, assignment.value);
  }
  // ON UPDATE CURRENT_TIMESTAMP columns the statement does not set take the time of the update.
  for (const column of schema.columns) if (column.onUpdateCurrentTimestamp && !assigned.has(column)) assigned.set(column, parseExpression('now()'));
  const items = schema.columns.map((column) => assigned.get(column) ?? columnRef(column.name, statement));
  const rows = resultColumns(await runQuery(selectFrom(statement, database, items), session.statementContext(profile, [], { database, table: statement.table }), sqlText));
  if (rows.length === 0) return okResult(0);
  const cast = schema.columns.map((column, colIdx) => castVector(rows.columns[colIdx], column.type, 'insert', column.name, 1));
  // Generated columns follow the new values.
  const { columns } = fillGeneratedColumns(schema, { length: rows.length, columns: cast }, session.statementContext(profile));
  schema.columns.forEach((column, colIdx) => {
    if (!column.nullable && columns[colIdx].nulls?.includes(1)) throw new GaleneError('NOT_NULL_VIOLATION', [column.name]);
  });
  const target = fe.catalog.getTable(database, statement.table);
  const outcome = await loadBatch(fe.backend, target, filterBadVectors(session, target, { length: rows.length, columns }, null), generateLabel('update'));
  return okResult(outcome.loadedRows);
}
