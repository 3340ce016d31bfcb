/**
 * Per-run services an operator gets from the executor: the statement's TaskContext, expression compilation
 * (after subquery results are substituted) and profile counters named after the operator.
 */
import type { BoundExpr } from '../bound-expr';
import type { TaskContext } from '../context';
import type { CompiledExpr } from '../expr-api';

export interface OperatorRuntime {
  readonly ctx: TaskContext;
  /** The expression with subquery placeholders replaced by their values. */
  resolve(expr: BoundExpr): BoundExpr;
  /** compileExpr(resolve(expr)). */
  compile(expr: BoundExpr): CompiledExpr;
}
