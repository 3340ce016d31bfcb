/**
 * The logical plan: what the binder produces and the optimizer rules rewrite, before physical choices
 * (hash vs nested-loop join, build side, sort vs top-n) are made by the planner. Nodes are immutable
 * objects with a `kind`; every node carries its output `schema`. Column references in a node's
 * expressions are indices into its input's schema (a join's condition: left schema then right schema).
 */
import type { BoundExpr } from '../exec/bound-expr';
import type { AggregateSpec, AnnScanSpec, InvertedScanSpec, OutputColumn, ScoreScanSpec, SortKey, WindowFunctionSpec } from '../exec/plan/physical-plan';
import type { TableSchema } from '../meta/schema';
import type { ScanPredicate } from '../common/scan-predicate';

export type PlanColumn = OutputColumn;

export type LogicalPlan = LogicalScan | LogicalValues | LogicalFilter | LogicalProject | LogicalAggregate | LogicalSort | LogicalLimit | LogicalTopN | LogicalJoin | LogicalUnion | LogicalWindow;

export type LogicalKind = LogicalPlan['kind'];

export interface LogicalScan {
  readonly kind: 'scan';
  readonly table: TableSchema;
  readonly alias: string;
  /** Stored column names read, in schema order of the output. */
  readonly columns: readonly string[];
  readonly predicates: readonly ScanPredicate[];
  readonly limit: number | null;
  /** An ANN index search pushed into the scan (rules/ann-index-pushdown.ts); its distance column ends the schema. */
  readonly ann?: AnnScanSpec;
  /** Inverted-index predicates pushed into the scan (rules/inverted-index-pushdown.ts). */
  readonly inverted?: InvertedScanSpec;
  /** BM25 score() computed by the scan (rules/score-topn-pushdown.ts); its column ends the schema. */
  readonly score?: ScoreScanSpec;
  readonly schema: readonly PlanColumn[];
}

export interface LogicalValues {
  readonly kind: 'values';
  readonly rows: readonly (readonly BoundExpr[])[];
  readonly schema: readonly PlanColumn[];
}

export interface LogicalFilter {
  readonly kind: 'filter';
  readonly input: LogicalPlan;
  readonly predicate: BoundExpr;
  readonly schema: readonly PlanColumn[];
}

export interface LogicalProject {
  readonly kind: 'project';
  readonly input: LogicalPlan;
  readonly exprs: readonly BoundExpr[];
  readonly schema: readonly PlanColumn[];
}

export interface LogicalAggregate {
  readonly kind: 'aggregate';
  readonly input: LogicalPlan;
  readonly groupKeys: readonly BoundExpr[];
  readonly aggregates: readonly AggregateSpec[];
  readonly schema: readonly PlanColumn[];
}

export interface LogicalSort {
  readonly kind: 'sort';
  readonly input: LogicalPlan;
  readonly keys: readonly SortKey[];
  readonly schema: readonly PlanColumn[];
}

export interface LogicalLimit {
  readonly kind: 'limit';
  readonly input: LogicalPlan;
  readonly limit: number | null;
  readonly offset: number;
  readonly schema: readonly PlanColumn[];
}

export interface LogicalTopN {
  readonly kind: 'topn';
  readonly input: LogicalPlan;
  readonly keys: readonly SortKey[];
  readonly limit: number;
  readonly offset: number;
  readonly schema: readonly PlanColumn[];
}

export interface LogicalJoin {
  readonly kind: 'join';
  readonly joinType: 'inner' | 'left' | 'cross';
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  /** Equality keys: leftKeys[i] (over left schema) = rightKeys[i] (over right schema), same types. */
  readonly leftKeys: readonly BoundExpr[];
  readonly rightKeys: readonly BoundExpr[];
  /** Remaining ON condition over left schema ++ right schema. */
  readonly condition: BoundExpr | null;
  readonly schema: readonly PlanColumn[];
}

/** UNION ALL of inputs with identical column types (UNION DISTINCT is an aggregate over it). */
export interface LogicalUnion {
  readonly kind: 'union';
  readonly inputs: readonly LogicalPlan[];
  readonly schema: readonly PlanColumn[];
}

/** Window functions sharing one PARTITION BY / ORDER BY: the input's columns, then one column per function. */
export interface LogicalWindow {
  readonly kind: 'window';
  readonly input: LogicalPlan;
  readonly partitionBy: readonly BoundExpr[];
  readonly orderBy: readonly SortKey[];
  readonly functions: readonly WindowFunctionSpec[];
  readonly schema: readonly PlanColumn[];
}

export function planInputs(plan: LogicalPlan): LogicalPlan[] {
  switch (plan.kind) {
    case 'scan':
    case 'values':
      return [];
    case 'join':
      return [plan.left, plan.right];
    case 'union':
      return [...plan.inputs];
    default:
      return [plan.input];
  }
}

/** The same node over new inputs (given in planInputs() order). Schemas are unchanged. */
export function withInputs(plan: LogicalPlan, inputs: readonly LogicalPlan[]): LogicalPlan {
  switch (plan.kind) {
    case 'scan':
    case 'values':
      return plan;
    case 'join':
      return inputs[0] === plan.left && inputs[1] === plan.right ? plan : { ...plan, left: inputs[0], right: inputs[1] };
    case 'union':
      return inputs.every((input, idx) => input === plan.inputs[idx]) ? plan : { ...plan, inputs: [...inputs] };
    default:
      return inputs[0] === plan.input ? plan : { ...plan, input: inputs[0] };
  }
}

/** Apply `fn` to every expression of a node (not its inputs). */
export function mapPlanExprs(plan: LogicalPlan, fn: (expr: BoundExpr) => BoundExpr): LogicalPlan {
  switch (plan.kind) {
    case 'scan':
    case 'union':
    case 'limit':
      return plan;
    case 'values':
      return { ...plan, rows: plan.rows.map((row) => row.map(fn)) };
    case 'filter':
      return { ...plan, predicate: fn(plan.predicate) };
    case 'project':
      return { ...plan, exprs: plan.exprs.map(fn) };
    case 'aggregate':
      return { ...plan, groupKeys: plan.groupKeys.map(fn), aggregates: plan.aggregates.map((agg) => ({ ...agg, args: agg.args.map(fn) })) };
    case 'sort':
    case 'topn':
      return { ...plan, keys: plan.keys.map((key) => ({ ...key, expr: fn(key.expr) })) };
    case 'join':
      return { ...plan, leftKeys: plan.leftKeys.map(fn), rightKeys: plan.rightKeys.map(fn), condition: plan.condition ? fn(plan.condition) : null };
    case 'window':
      return {
        ...plan,
        partitionBy: plan.partitionBy.map(fn),
        orderBy: plan.orderBy.map((key) => ({ ...key, expr: fn(key.expr) })),
        functions: plan.functions.map((spec) => ({ ...spec, args: spec.args.map(fn) })),
      };
  }
}

/** Bottom-up rewrite of a whole plan tree. */
export function transformPlan(plan: LogicalPlan, fn: (node: LogicalPlan) => LogicalPlan): LogicalPlan {
  const inputs = planInputs(plan);
  const next = inputs.map((input) => transformPlan(input, fn));
  return fn(withInputs(plan, next));
}
