/**
 * INSERT (VALUES and SELECT) as one transaction: rows are converted to the column types first (a bad
 * value fails the whole statement with MySQL's message and writes nothing), then written as segments,
 * then published atomically. DELETE and UPDATE arrive with the table-model write path (issue 3).
 */
import { Batch, concatVectors, constantVector, getRaw, newFixedArray, RawValue, vectorFromRaw, Vector, VectorBuilder } from '../../common/column';
import {
  ParseFailure, parseDateSpan, parseDatetimeSpan, parseIntegerSpan, parseScaledDecimalSpan, parseValue, pow10, smallIntRange,
} from '../../common/convert';
import { GaleneError } from '../../common/errors';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import { DataType, physicalKind } from '../../common/types';
import { castVector, evaluateConstant } from '../../exec/expr';
import { generateLabel, loadBatch } from '../../load/load-transaction';
import type { TableState } from '../../meta/catalog';
import type { ColumnSchema } from '../../meta/schema';
import { DeleteStatement, Expr, InsertStatement, LiteralCellKind, LiteralRows, UpdateStatement } from '../../sql/ast';
import { literalCellText } from '../../sql/parse-literal-rows';
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
          values[rowIdx] = BigInt(value);
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
  if (statement.source.kind === 'values' && statement.source.literals) {
    values = literalRowsToColumns(statement.source.literals, targets);
    rowCount = statement.source.literals.rowCount;
  } else if (statement.source.kind === 'values') {
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
  const open = session.transaction;
  if (open) {
    // Inside BEGIN ... COMMIT: written now, visible at COMMIT.
    if (statement.label) throw new GaleneError('TRANSACTION_ERROR', ['INSERT ... WITH LABEL is not allowed inside a transaction; give the label to BEGIN']);
    await open.insert(table, batch);
    return okResult(rowCount, `{'label':'${open.label}', 'status':'PREPARE', 'txnId':'${open.txnId}'}`);
  }
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

