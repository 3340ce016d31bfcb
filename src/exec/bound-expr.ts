/**
 * Bound expressions: the typed, name-resolved form of SQL expressions that the binder produces from the
 * AST and the evaluator compiles into vectorized kernels. Column references are positions in the input
 * batch of the operator that evaluates them, so an expression never looks a name up at run time.
 */
import type { RawValue } from '../common/column';
import type { DataType } from '../common/types';

export type BoundExpr =
  | BoundColumn
  | BoundLiteral
  | BoundParam
  | BoundCall
  | BoundCast
  | BoundCase
  | BoundInList
  | BoundLogical
  | BoundIsNull
  | BoundLambda;

/** Column `index` of the input batch. */
export interface BoundColumn {
  readonly kind: 'column';
  readonly index: number;
  readonly type: DataType;
  /** For EXPLAIN and error messages. */
  readonly name: string;
}

export interface BoundLiteral {
  readonly kind: 'literal';
  readonly type: DataType;
  readonly value: RawValue;
}

/** A `?` parameter of a prepared statement, read from the TaskContext at execution. */
export interface BoundParam {
  readonly kind: 'param';
  readonly index: number;
  readonly type: DataType;
}

/**
 * A scalar function or operator by its registry name ('add', 'eq', 'concat', 'date_format', 'like', ...),
 * resolved by the function registry for these argument types.
 */
export interface BoundCall {
  readonly kind: 'call';
  readonly name: string;
  readonly args: readonly BoundExpr[];
  readonly type: DataType;
}

export interface BoundCast {
  readonly kind: 'cast';
  readonly operand: BoundExpr;
  readonly type: DataType;
}

/** Searched CASE (simple CASE is rewritten to equality tests by the binder). */
export interface BoundCase {
  readonly kind: 'case';
  readonly whens: readonly { readonly when: BoundExpr; readonly then: BoundExpr }[];
  readonly elseExpr: BoundExpr | null;
  readonly type: DataType;
}

export interface BoundInList {
  readonly kind: 'in';
  readonly operand: BoundExpr;
  readonly list: readonly BoundExpr[];
  readonly negated: boolean;
  readonly type: DataType;
}

/** AND / OR / NOT with SQL three-valued logic. */
export interface BoundLogical {
  readonly kind: 'and' | 'or' | 'not';
  readonly args: readonly BoundExpr[];
  readonly type: DataType;
}

export interface BoundIsNull {
  readonly kind: 'isnull';
  readonly operand: BoundExpr;
  readonly negated: boolean;
  readonly type: DataType;
}

/**
 * `(x, y) -> body` as the first argument of array_map / array_sort (the binder rewrites every other
 * higher-order function into one over array_map, as Doris does). The body is evaluated over a batch of
 * its own: columns 0 .. params-1 are the lambda's parameters (the arrays' elements, flattened), columns
 * params .. are `captures` — expressions over the outer row, repeated once per element. Walkers see the
 * captures as the node's children; the body is opaque to them (its column numbers are its own).
 */
export interface BoundLambda {
  readonly kind: 'lambda';
  readonly params: readonly string[];
  readonly paramTypes: readonly DataType[];
  readonly captures: readonly BoundExpr[];
  readonly body: BoundExpr;
  /** The body's type. */
  readonly type: DataType;
}

/**
 * The direction of one ORDER BY key inside an aggregate call (GROUP_CONCAT(x ORDER BY y DESC)); the key
 * expressions are the aggregate's last arguments, one per entry.
 */
export interface AggregateOrder {
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}
