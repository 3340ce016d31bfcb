/**
 * INSERT (VALUES and SELECT) as one transaction: rows are converted to the column types first (a bad
 * value fails the whole statement with MySQL's message and writes nothing), then written as segments,
 * then published atomically. DELETE and UPDATE arrive with the table-model write path (issue 3).
 */
import { Batch, concatVectors, constantVector, getRaw, RawValue, vectorFromRaw, Vector, VectorBuilder } from '../../common/column';
import { ParseFailure, parseValue } from '../../common/convert';
import { GaleneError } from '../../common/errors';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import type { DataType } from '../../common/types';
import { castVector, evaluateConstant } from '../../exec/expr';
import { generateLabel, loadBatch } from '../../load/load-transaction';
import type { TableState } from '../../meta/catalog';
import type { ColumnSchema } from '../../meta/schema';
import type { DeleteStatement, Expr, InsertStatement, UpdateStatement } from '../../sql/ast';
import { bindScalarExpr, runQuery } from '../../sql/query';
import type { Session } from '../session';
import { okResult } from './result-rows';

const TYPE_WORDS: Partial<Record<DataType['name'], string>> = {
  TINYINT: 'integer',
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
};

function conversionError(failure: ParseFailure, column: ColumnSchema, text: string, rowNumber: number): GaleneError {
  if (failure === 'out_of_range') return new GaleneError('OUT_OF_RANGE', [column.name, rowNumber]);
  if (failure === 'too_long') return new GaleneError('DATA_TOO_LONG', [column.name, rowNumber]);
  return new GaleneError('INVALID_VALUE', [TYPE_WORDS[column.type.name] ?? 'string', text, column.name, rowNumber]);
}

/** Raw value of a column's DEFAULT for one row (NULL when the column has none and is nullable). */
function defaultRaw(column: ColumnSchema): RawValue {
  if (column.defaultValue === null) {
    if (!column.nullable) throw new GaleneError('NO_DEFAULT', [column.name]);
    return null;
  }
  if (column.defaultValue === 'CURRENT_TIMESTAMP') {
    const now = new Date();
    return (Date.UTC(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours(), now.getMinutes(), now.getSeconds())) * 1000;
  }
  return parseValue(column.type, column.defaultValue).value;
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
function valuesToColumns(session: Session, rows: readonly (readonly Expr[])[], targets: readonly ColumnSchema[], profile: QueryProfile): Vector[] {
  const builders = targets.map((column) => new VectorBuilder(column.type, rows.length));
  let ctx: ReturnType<Session['execContext']> | null = null;
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
      ctx ??= session.execContext(profile);
      const bound = bindScalarExpr(cell, ctx);
      const value = evaluateConstant(bound, ctx);
      const cast = castVector(vectorFromRaw(bound.type, [value]), column.type, 'insert', column.name, rowNumber);
      builders[colIdx].append(getRaw(cast, 0));
    }
  });
  return builders.map((builder) => builder.finish());
}

/** Assemble full-width rows in schema order: given columns, defaults for the rest; enforce NOT NULL. */
function completeRows(table: TableState, targets: readonly ColumnSchema[], values: readonly Vector[], rowCount: number): Batch {
  const columns = table.schema.columns.map((column) => {
    const given = targets.indexOf(column);
    const vec = given >= 0 ? values[given] : constantVector(column.type, defaultRaw(column), rowCount);
    if (!column.nullable && vec.nulls) {
      const nullRow = vec.nulls.indexOf(1);
      if (nullRow >= 0) throw new GaleneError('NOT_NULL_VIOLATION', [column.name]);
    }
    return vec;
  });
  return { length: rowCount, columns };
}

export async function runInsert(session: Session, statement: InsertStatement, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  const fe = session.fe;
  const database = session.requireDatabase(statement.database);
  const table = fe.catalog.getTable(database, statement.table);
  const schema = table.schema;
  if (statement.overwrite) throw new GaleneError('UNSUPPORTED', ['INSERT OVERWRITE']);
  let targets: ColumnSchema[];
  if (statement.columns) {
    targets = statement.columns.map((name) => {
      const column = schema.columns.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
      if (!column) throw new GaleneError('UNKNOWN_COLUMN', [name, 'field list']);
      return column;
    });
    if (new Set(targets).size !== targets.length) throw new GaleneError('DUPLICATE_COLUMN', [targets.find((column, idx) => targets.indexOf(column) !== idx)!.name]);
  } else {
    targets = [...schema.columns];
  }
  let values: Vector[];
  let rowCount: number;
  if (statement.source.kind === 'values') {
    values = valuesToColumns(session, statement.source.rows, targets, profile);
    rowCount = statement.source.rows.length;
  } else {
    const result = await runQuery(statement.source, session.execContext(profile), sqlText);
    if (result.columns.length !== targets.length) throw new GaleneError('COLUMN_COUNT_MISMATCH', [1]);
    rowCount = result.batches.reduce((sum, batch) => sum + batch.length, 0);
    values = result.columns.map((column, colIdx) => {
      const whole = result.batches.length === 0 ? vectorFromRaw(column.type, []) : concatVectors(column.type, result.batches.map((batch) => batch.columns[colIdx]));
      return castVector(whole, targets[colIdx].type, 'insert', targets[colIdx].name, 1);
    });
  }
  const batch = completeRows(table, targets, values, rowCount);
  const label = statement.label ?? generateLabel('insert');
  const outcome = await loadBatch(fe.backend, table, batch, label);
  return okResult(rowCount, `{'label':'${label}', 'status':'VISIBLE', 'txnId':'${outcome.txn.id}'}`);
}

export async function runDelete(_session: Session, _statement: DeleteStatement): Promise<StatementResult> {
  throw new GaleneError('UNSUPPORTED', ['DELETE']);
}

export async function runUpdate(_session: Session, _statement: UpdateStatement): Promise<StatementResult> {
  throw new GaleneError('UNSUPPORTED', ['UPDATE']);
}

