/**
 * The physical plan: a tree of constant operator descriptions that the planner (src/sql/planner.ts)
 * builds and the executor (execute-plan.ts) runs. Descriptions hold no run state, so one plan can run
 * many times (prepared statements, plan cache); each run creates fresh per-operator state.
 *
 * Execution model: pull-based. Every operator turns its children's batch streams
 * (`AsyncIterable<Batch>`) into its own stream; a consumer that stops early (LIMIT) returns the
 * iterators, which closes the scans underneath.
 *
 * Adding an operator: a file in src/exec/operators/ exporting its node interface (kind, parameters), its
 * `open` and `explain` functions, its kind added to OperatorKind and PhysicalNode below, one entry in
 * OPERATORS (operator-registry.ts) and one case in nodeProperties (node-properties.ts) — the Record type
 * and the exhaustive switch make the build fail until every table handles it.
 */
import type { ResultColumn } from '../../common/result';
import type { DataType } from '../../common/types';
import type { BoundExpr } from '../bound-expr';
import type { FilterNode } from '../operators/filter';
import type { HashAggregateNode } from '../operators/hash-aggregate';
import type { HashJoinNode } from '../operators/hash-join';
import type { LimitNode } from '../operators/limit';
import type { NestedLoopJoinNode } from '../operators/nested-loop-join';
import type { ProjectNode } from '../operators/project';
import type { ScanFragmentNode } from '../operators/scan-fragment';
import type { SortNode } from '../operators/sort';
import type { TableScanNode } from '../operators/table-scan';
import type { TopNNode } from '../operators/top-n';
import type { UnionAllNode } from '../operators/union-all';
import type { ValuesNode } from '../operators/values';

export type OperatorKind =
  | 'TableScan'
  | 'ScanFragment'
  | 'Values'
  | 'Filter'
  | 'Project'
  | 'HashAggregate'
  | 'Sort'
  | 'TopN'
  | 'Limit'
  | 'HashJoin'
  | 'NestedLoopJoin'
  | 'UnionAll';

export type PhysicalNode =
  | TableScanNode
  | ScanFragmentNode
  | ValuesNode
  | FilterNode
  | ProjectNode
  | HashAggregateNode
  | SortNode
  | TopNNode
  | LimitNode
  | HashJoinNode
  | NestedLoopJoinNode
  | UnionAllNode;

/** One column an operator produces: its display name and type, plus its origin for result metadata. */
export interface OutputColumn {
  readonly name: string;
  readonly type: DataType;
  readonly nullable: boolean;
  /** Table alias, base table, database and column name when the column comes straight from a table. */
  readonly table?: string;
  readonly orgTable?: string;
  readonly orgName?: string;
  readonly database?: string;
}

/** Fields every operator description has. */
export interface PlanNodeBase {
  /** Unique within one plan; names the operator's profile counters. */
  readonly id: number;
  readonly output: readonly OutputColumn[];
  readonly children: readonly PhysicalNode[];
}

/** ORDER BY key: Doris defaults are NULLS FIRST for ASC and NULLS LAST for DESC. */
export interface SortKey {
  readonly expr: BoundExpr;
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}

/** One aggregate function call of a HashAggregate: resolved again at run time to create accumulators. */
export interface AggregateSpec {
  readonly name: string;
  readonly args: readonly BoundExpr[];
  readonly argTypes: readonly DataType[];
  readonly distinct: boolean;
  readonly type: DataType;
}

/**
 * An uncorrelated subquery of the statement, run once before the main plan; its result replaces the
 * BoundParam placeholders with index `slot` (>= SUBQUERY_SLOT_BASE, above any `?` index MySQL allows).
 */
export interface SubqueryPlan {
  readonly slot: number;
  readonly mode: 'scalar' | 'in' | 'exists';
  readonly plan: PhysicalPlan;
}

export const SUBQUERY_SLOT_BASE = 65536;

/** A planned statement: the operator tree, the result column metadata and subqueries to run first. */
export interface PhysicalPlan {
  readonly root: PhysicalNode;
  readonly columns: readonly ResultColumn[];
  readonly subqueries: readonly SubqueryPlan[];
}

/**
 * Profile counter name of one operator's metric (EXPLAIN ANALYZE reads them). Kept here, in the module of
 * plan types, so operators can name counters without importing the EXPLAIN code and its operator registry.
 */
export function operatorCounter(node: PhysicalNode, metric: 'RowsIn' | 'RowsOut' | 'TimeMs'): string {
  return `${node.kind}#${node.id}.${metric}`;
}
