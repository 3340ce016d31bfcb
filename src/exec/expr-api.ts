/**
 * The contract between the binder/planner (src/sql, src/exec/operators) and the expression engine
 * (src/exec/expr). The expression engine implements these in `src/exec/expr/index.ts`, exporting exactly:
 *
 *   resolveFunction(name: string, argTypes: readonly DataType[]): ResolvedFunction
 *       scalar functions and operators by registry name (case-insensitive, aliases allowed); throws
 *       UNKNOWN_FUNCTION / WRONG_ARG_COUNT / TYPE_MISMATCH. `argTypes` of the result are the types the
 *       binder must cast each argument to (it inserts BoundCast nodes where they differ).
 *   operatorFunctionName(op: BinaryOp | 'neg' | 'bitnot'): string
 *       registry name of an operator: '+' -> 'add', '=' -> 'eq', '<=>' -> 'eq_null_safe', 'DIV' -> 'int_divide' ...
 *   commonSuperType(types: readonly DataType[], context: string): DataType
 *       the type CASE/IF/COALESCE/IN/UNION/comparisons unify to (Doris rules); throws TYPE_MISMATCH.
 *   isAggregateFunctionName(name: string): boolean
 *   resolveAggregate(name: string, argTypes: readonly DataType[], distinct: boolean): ResolvedAggregate
 *   compileExpr(expr: BoundExpr): CompiledExpr
 *   castVector(vec: Vector, target: DataType, mode: CastMode, columnName?: string, firstRowNumber?: number): Vector
 *   selectTrue(vec: Vector, out?: Int32Array): { rowIds: Int32Array; count: number }
 *       row ids whose value is TRUE (not NULL, not false): the Filter operator's selection vector.
 *   literalValue(lit: LiteralExpr): { type: DataType; value: RawValue }
 *       the typed value of a literal (integers get the smallest of TINYINT..BIGINT/LARGEINT that holds them,
 *       '1.50' DECIMAL(3,2), '1e3' DOUBLE, strings VARCHAR(len) as Doris types string literals, DATE/DATETIME literals).
 *   evaluateConstant(expr: BoundExpr, ctx: TaskContext, exactOnly?: boolean): RawValue
 */
import type { Batch, Vector } from '../common/column';
import type { DataType } from '../common/types';
import type { AggregateState } from './aggregate-state';
import type { TaskContext } from './context';

export interface ResolvedFunction {
  /** Canonical registry name (lower case). */
  readonly name: string;
  readonly returnType: DataType;
  /** Types the arguments must have; the binder casts to them. */
  readonly argTypes: readonly DataType[];
}

/** Evaluates one bound expression over a batch; the result has batch.length rows. */
export type CompiledExpr = (batch: Batch, ctx: TaskContext) => Vector;

/**
 * Per-group aggregate state over typed arrays. The hash-aggregate operator assigns each input row a
 * dense group id and calls update() once per batch; finalize() returns one value per group id.
 */
export interface AggregateAccumulator {
  /** Make room for group ids < groupCount (called before update() sees new ids). */
  resize(groupCount: number): void;
  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void;
  finalize(groupCount: number): Vector;
  /**
   * The state of groups [0, groupCount) as structured-cloneable data (typed arrays, arrays, bigints), for
   * a partial aggregate computed in a worker thread. Optional: an aggregate without it runs in one thread.
   */
  serialize?(groupCount: number): AggregateState;
  /**
   * Add a state from serialize() of an accumulator of the same aggregate: its group g (g >= fromGroup)
   * goes into this accumulator's group groupMap[g] (already made room for by resize()). Merging the
   * partials of consecutive row ranges in row order gives the same result as one update() over all rows.
   */
  merge?(state: AggregateState, groupMap: Int32Array, fromGroup: number): void;
  /**
   * Bytes the state holds beyond a fixed size per group (DISTINCT sets, collected values), for
   * exec_mem_limit. Optional: without it only the per-group estimate counts.
   */
  stateBytes?(): number;
}

export interface ResolvedAggregate extends ResolvedFunction {
  readonly distinct: boolean;
  create(): AggregateAccumulator;
}

/**
 * 'sql': CAST semantics in queries (Doris non-strict: a value that does not convert becomes NULL).
 * 'insert': INSERT/load semantics: a value that does not fit throws OUT_OF_RANGE / DATA_TOO_LONG /
 * INVALID_VALUE naming the column and the 1-based row number, so a bad row changes nothing.
 */
export type CastMode = 'sql' | 'insert';
