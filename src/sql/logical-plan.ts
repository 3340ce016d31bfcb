/**
 * The logical plan: what the binder produces and the optimizer rules rewrite, before physical choices
 * (hash vs nested-loop join, build side, sort vs top-n) are made by the planner. Nodes are immutable
 * objects with a `kind`; every node carries its output `schema`. Column references in a node's
 * expressions are indices into its input's schema (a join's condition: left schema then right schema).
 */
import type { BoundExpr } from '../exec/bound-expr';
import type { AggregateSpec, AnnScanSpec, InvertedScanSpec, JoinType, OutputColumn, ScoreScanSpec, SortKey, WindowFunctionSpec } from '../exec/plan/physical-plan';
import type { TableSchema } from '../meta/schema';
import type { DataType } from '../common/types';
import type { ScanPredicate } from '../common/scan-predicate';

export type PlanColumn = OutputColumn;

export type LogicalPlan =
  | LogicalScan
  | LogicalValues
  | LogicalFilter
  | LogicalProject
  | LogicalAggregate
  | LogicalSort
  | LogicalLimit
  | LogicalTopN
  | LogicalJoin
  | LogicalUnion
  | LogicalApply
  | LogicalWindow
  | LogicalGenerate
  | LogicalRecursiveCte
  | LogicalWorkTable
  | LogicalCteAnchor;

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
  readonly joinType: JoinType;
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  /** Equality keys: leftKeys[i] (over left schema) = rightKeys[i] (over right schema), same types. */
  readonly leftKeys: readonly BoundExpr[];
  readonly rightKeys: readonly BoundExpr[];
  /** Remaining ON condition over left schema ++ right schema. */
  readonly condition: BoundExpr | null;
  /** left_mark / null_aware_left_anti: the three-valued test over left ++ right (see JoinType). */
  readonly markCondition?: BoundExpr | null;
  /** Left join of a correlated scalar subquery: a second match fails with this subquery text. */
  readonly assertOneMatch?: string;
  readonly schema: readonly PlanColumn[];
}

/** A reference from inside a subquery to a column of the query around it: param `slot` stands for `expr`. */
export interface Correlation {
  readonly slot: number;
  /** Over the apply's input (or itself a param of a query further out). */
  readonly expr: BoundExpr;
}

/**
 * A correlated subquery evaluated for each row of `input`: the subquery's plan reads the row through the
 * params of `correlation`. Output: the input's columns, then one column: the subquery's value (`scalar`),
 * or BOOLEAN `EXISTS (subquery)` / `operand IN (subquery)` in three-valued logic. The binder makes it;
 * rules/apply-to-join.ts rewrites every one into a join, so no operator ever runs a subquery per row.
 */
export interface LogicalApply {
  readonly kind: 'apply';
  readonly mode: 'exists' | 'in' | 'scalar';
  readonly input: LogicalPlan;
  /** For `in`, its single column already has the compared type (the operand's). */
  readonly subquery: LogicalPlan;
  readonly correlation: readonly Correlation[];
  /** `in`: the compared value over the input. */
  readonly operand: BoundExpr | null;
  /** The subquery as written, for error messages. */
  readonly sourceText: string;
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

/**
 * LATERAL VIEW fn(args) alias AS c1, ...: the input's columns, then the columns the table function
 * generates; each input row is repeated once per generated row (none: the row is dropped, unless the
 * function is an `_outer` twin, which generates a row of NULLs).
 */
export interface LogicalGenerate {
  readonly kind: 'generate';
  readonly input: LogicalPlan;
  /** Registry name of the table function. */
  readonly function: string;
  /** Over the input's schema. */
  readonly args: readonly BoundExpr[];
  readonly columnTypes: readonly DataType[];
  readonly schema: readonly PlanColumn[];
}

/**
 * WITH RECURSIVE (sql/binder-recursive-cte.ts): the anchor's rows, then `recursive` run again and again
 * over the rows the previous round added (its `workTable` leaves), until a round adds none. `distinct`
 * (UNION) drops rows seen before; UNION ALL keeps every row.
 */
export interface LogicalRecursiveCte {
  readonly kind: 'recursiveCte';
  readonly name: string;
  readonly anchor: LogicalPlan;
  readonly recursive: LogicalPlan;
  readonly distinct: boolean;
  readonly workTableId: number;
  readonly schema: readonly PlanColumn[];
}

/**
 * A WITH whose CTEs are computed once (referenced more than `inline_cte_referenced_threshold` times):
 * each producer's rows are materialized, in order, then `body` runs; its `workTable` leaves of a producer's
 * id read those rows. The output is the body's.
 */
export interface LogicalCteAnchor {
  readonly kind: 'cteAnchor';
  readonly producers: readonly CteProducer[];
  readonly body: LogicalPlan;
  readonly schema: readonly PlanColumn[];
}

/** A CTE computed once: the work table id its references read, its name, its plan. */
export interface CteProducer {
  readonly id: number;
  readonly name: string;
  readonly plan: LogicalPlan;
}

/** Inside a recursive CTE's recursive part, or a CTE computed once: the rows its producer made. */
export interface LogicalWorkTable {
  readonly kind: 'workTable';
  readonly name: string;
  readonly workTableId: number;
  readonly schema: readonly PlanColumn[];
}

export function planInputs(plan: LogicalPlan): LogicalPlan[] {
  switch (plan.kind) {
    case 'scan':
    case 'values':
    case 'workTable':
      return [];
    case 'recursiveCte':
      return [plan.anchor, plan.recursive];
    case 'cteAnchor':
      return [...plan.producers.map((producer) => producer.plan), plan.body];
    case 'join':
      return [plan.left, plan.right];
    case 'union':
      return [...plan.inputs];
    case 'apply':
      return [plan.input, plan.subquery];
    default:
      return [plan.input];
  }
}

/** The same node over new inputs (given in planInputs() order). Schemas are unchanged. */
export function withInputs(plan: LogicalPlan, inputs: readonly LogicalPlan[]): LogicalPlan {
  switch (plan.kind) {
    case 'scan':
    case 'values':
    case 'workTable':
      return plan;
    case 'recursiveCte':
      return inputs[0] === plan.anchor && inputs[1] === plan.recursive ? plan : { ...plan, anchor: inputs[0], recursive: inputs[1] };
    case 'cteAnchor': {
      const body = inputs[plan.producers.length];
      if (body === plan.body && plan.producers.every((producer, idx) => producer.plan === inputs[idx])) return plan;
      return { ...plan, producers: plan.producers.map((producer, idx) => ({ ...producer, plan: inputs[idx] })), body };
    }
    case 'join':
      return inputs[0] === plan.left && inputs[1] === plan.right ? plan : { ...plan, left: inputs[0], right: inputs[1] };
    case 'union':
      return inputs.every((input, idx) => input === plan.inputs[idx]) ? plan : { ...plan, inputs: [...inputs] };
    case 'apply':
      return inputs[0] === plan.input && inputs[1] === plan.subquery ? plan : { ...plan, input: inputs[0], subquery: inputs[1] };
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
    case 'recursiveCte':
    case 'workTable':
    case 'cteAnchor':
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
      return {
        ...plan,
        leftKeys: plan.leftKeys.map(fn),
        rightKeys: plan.rightKeys.map(fn),
        condition: plan.condition ? fn(plan.condition) : null,
        ...(plan.markCondition ? { markCondition: fn(plan.markCondition) } : {}),
      };
    case 'apply':
      return { ...plan, operand: plan.operand ? fn(plan.operand) : null, correlation: plan.correlation.map((corr) => ({ ...corr, expr: fn(corr.expr) })) };
    case 'generate':
      return { ...plan, args: plan.args.map(fn) };
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
