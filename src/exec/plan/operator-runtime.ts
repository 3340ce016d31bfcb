/**
 * Per-run services an operator gets from the executor: the statement's TaskContext, expression compilation
 * (after subquery results are substituted) and profile counters named after the operator.
 */
import type { Batch } from '../../common/column';
import type { BoundExpr } from '../bound-expr';
import type { TaskContext } from '../context';
import type { CompiledExpr } from '../expr-api';
import type { RuntimeFilterValue } from '../runtime-filter';
import type { PhysicalNode } from './physical-plan';

export interface OperatorRuntime {
  readonly ctx: TaskContext;
  /** The expression with subquery placeholders replaced by their values. */
  resolve(expr: BoundExpr): BoundExpr;
  /** compileExpr(resolve(expr)). */
  compile(expr: BoundExpr): CompiledExpr;
  /** A new run of a subtree of the plan (a recursive CTE runs its recursive part once per round). */
  openSubtree(node: PhysicalNode): AsyncIterable<Batch>;
  /** The rows each recursive CTE's previous round added, by work table id, for its WorkTableScan leaves. */
  readonly workTables: Map<number, readonly Batch[]>;
  /** Runtime filters built in this run, by RF id: a hash join sets them, the scans on its probe side read them. */
  readonly runtimeFilters: Map<number, RuntimeFilterValue>;
}
