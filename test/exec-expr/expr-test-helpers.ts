/**
 * Helpers for the expression-engine tests: a minimal TaskContext, bound-expression builders that
 * resolve and cast like the binder does, and evaluation to printable values.
 */
import { QueryTask } from '../../src/exec/query-task';
import { Batch, getRaw, RawValue, Vector, vectorFromRaw } from '../../src/common/column';
import { formatValue } from '../../src/common/convert';
import { QueryProfile } from '../../src/common/profile';
import { DataType, typesEqual, Types } from '../../src/common/types';
import type { BoundExpr } from '../../src/exec/bound-expr';
import type { TaskContext } from '../../src/exec/context';
import { compileExpr, literalValue, resolveFunction } from '../../src/exec/expr';
import type { LiteralExpr } from '../../src/sql/ast';

export function makeContext(overrides: Partial<TaskContext> = {}): TaskContext {
  return {
    profile: new QueryProfile('q1', '', 'root', ''),
    openTable: () => {
      throw new Error('no tables in expression tests');
    },
    parameters: [],
    task: QueryTask.unlimited(),
    sessionInfo: { user: 'root', host: '127.0.0.1', connectionId: 42, version: '5.7.99 Galene', database: 'db1', statementStartMillis: Date.now() },
    ...overrides,
  };
}

export const ctx = makeContext();

/** A literal as the parser would give it, typed by literalValue. */
export function lit(literalType: LiteralExpr['literalType'], value: string | boolean | null): BoundExpr {
  const typed = literalValue({ literalType, value });
  return { kind: 'literal', type: typed.type, value: typed.value };
}

export const num = (text: string): BoundExpr => lit(text.includes('e') || text.includes('E') ? 'float' : text.includes('.') ? 'decimal' : 'integer', text);
export const str = (text: string): BoundExpr => lit('string', text);
export const NULL: BoundExpr = { kind: 'literal', type: Types.NULL, value: null };

export function typed(type: DataType, value: RawValue): BoundExpr {
  return { kind: 'literal', type, value };
}

export function col(index: number, type: DataType, name = `c${index}`): BoundExpr {
  return { kind: 'column', index, type, name };
}

export function cast(expr: BoundExpr, type: DataType): BoundExpr {
  return typesEqual(expr.type, type) ? expr : { kind: 'cast', operand: expr, type };
}

/** A call resolved and cast like the binder does. */
export function call(name: string, ...args: BoundExpr[]): BoundExpr {
  const resolved = resolveFunction(name, args.map((arg) => arg.type));
  return { kind: 'call', name: resolved.name, args: args.map((arg, argIdx) => cast(arg, resolved.argTypes[argIdx])), type: resolved.returnType };
}

export function batchOf(columns: Vector[]): Batch {
  return { length: columns.length > 0 ? columns[0].length : 1, columns };
}

export function column(type: DataType, values: RawValue[]): Vector {
  return vectorFromRaw(type, values);
}

/** A dictionary-encoded string column. */
export function dictColumn(type: DataType, dict: string[], codes: number[], nulls: number[] | null = null): Vector {
  return { kind: 'dict', type, length: codes.length, codes: Int32Array.from(codes), dict, nulls: nulls ? Uint8Array.from(nulls) : null };
}

/** Evaluate over a batch and print every row as the text protocol would (NULL as null). */
export function evalText(expr: BoundExpr, columns: Vector[] = [], context: TaskContext = ctx): (string | null)[] {
  const batch = batchOf(columns);
  const vec = compileExpr(expr)(batch, context);
  const out: (string | null)[] = [];
  for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out.push(formatValue(vec.type, getRaw(vec, rowIdx)));
  return out;
}

/** Evaluate a constant expression to its single printed value. */
export function evalOne(expr: BoundExpr, context: TaskContext = ctx): string | null {
  return evalText(expr, [], context)[0];
}

/** Printed values of a vector. */
export function printVector(vec: Vector): (string | null)[] {
  const out: (string | null)[] = [];
  for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out.push(formatValue(vec.type, getRaw(vec, rowIdx)));
  return out;
}
