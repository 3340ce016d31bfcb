/**
 * Generated columns (Doris 2.1, MySQL's rules and messages): `c INT AS (a + b)` is stored, computed on
 * every load path from the row's other columns. The expression may read the table's ordinary columns and
 * generated columns defined before it, not an AUTO_INCREMENT column, and only deterministic scalar
 * functions. Loads never give it a value (DEFAULT is allowed in INSERT).
 */
import { type Batch } from '../common/column';
import { GaleneError } from '../common/errors';
import type { BoundExpr } from '../exec/bound-expr';
import type { TaskContext } from '../exec/context';
import type { CompiledExpr } from '../exec/expr-api';
import { castVector, compileExpr } from '../exec/expr';
import { anyExpr, collectColumns, isDeterministic } from '../exec/plan/bound-expr-utils';
import { isAutoIncrement, type ColumnSchema, type TableSchema } from '../meta/schema';
import { castTo, ExprBinder } from '../sql/binder-expr';
import { Scope } from '../sql/binder-scope';
import { parseExpression } from '../sql/parser';
import { loadBindingContext, scopeColumn } from './load-binding';

/** Functions whose value depends on when or by whom a row is loaded: not allowed (MySQL 3102). */
const SESSION_FUNCTIONS = new Set(['now', 'current_timestamp', 'localtime', 'localtimestamp', 'curdate', 'current_date', 'curtime', 'current_time', 'utc_timestamp', 'utc_date', 'utc_time', 'unix_timestamp', 'sysdate', 'database', 'schema', 'user', 'current_user', 'session_user', 'connection_id', 'last_insert_id']);

export interface GeneratedColumn {
  readonly colIdx: number;
  /** Over the table's columns (schema order), of the column's type. */
  readonly expr: BoundExpr;
  /** `expr` compiled, so loads do not compile it again per batch. */
  readonly compiled: CompiledExpr;
}

const bound = new WeakMap<TableSchema, readonly GeneratedColumn[]>();

export function isGenerated(column: ColumnSchema): boolean {
  return column.generatedExpr !== undefined;
}

/** Bind `text` as generated column `colIdx` of `columns`, with MySQL's checks. */
export function bindGeneratedExpr(databaseName: string, columns: readonly ColumnSchema[], colIdx: number, text: string): BoundExpr {
  const column = columns[colIdx];
  const scope = new Scope(columns.map((candidate, index) => scopeColumn(candidate.name, index, candidate.type, candidate.nullable)));
  const binder = new ExprBinder(loadBindingContext(databaseName), null, undefined);
  const expr = binder.bind(parseExpression(text), { scope, clause: 'field list' });
  if (!isDeterministic(expr) || anyExpr(expr, (node) => (node.kind === 'call' && SESSION_FUNCTIONS.has(node.name)) || node.kind === 'param')) throw new GaleneError('GENERATED_COLUMN_FUNCTION', [column.name]);
  for (const index of collectColumns(expr)) {
    const read = columns[index];
    if (isAutoIncrement(read)) throw new GaleneError('GENERATED_COLUMN_AUTO_INC', [column.name]);
    if (isGenerated(read) && index >= colIdx) throw new GaleneError('GENERATED_COLUMN_NON_PRIOR');
  }
  return castTo(expr, column.type);
}

/** The generated columns of a table, bound (once per schema). */
export function generatedColumns(schema: TableSchema): readonly GeneratedColumn[] {
  let out = bound.get(schema);
  if (out === undefined) {
    out = schema.columns.flatMap((column, colIdx) => {
      if (column.generatedExpr === undefined) return [];
      const expr = bindGeneratedExpr(schema.databaseName, schema.columns, colIdx, column.generatedExpr);
      return [{ colIdx, expr, compiled: compileExpr(expr) }];
    });
    bound.set(schema, out);
  }
  return out;
}

/** `batch` (full rows, schema order) with its generated columns computed, in column order. */
export function fillGeneratedColumns(schema: TableSchema, batch: Batch, ctx: TaskContext): Batch {
  const generated = generatedColumns(schema);
  if (generated.length === 0 || batch.length === 0) return batch;
  const columns = batch.columns.slice();
  for (const { colIdx, compiled } of generated) {
    const column = schema.columns[colIdx];
    const value = compiled({ ...batch, columns }, ctx);
    columns[colIdx] = castVector(value, column.type, 'insert', column.name, 1);
  }
  return { ...batch, columns };
}
