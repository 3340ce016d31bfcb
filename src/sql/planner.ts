/**
 * The physical planner: maps each logical node to an operator description (src/exec/operators) and makes
 * the physical choices — hash join when there are equality keys, nested-loop join otherwise; the build
 * side of an INNER hash join is the input with fewer estimated rows. The per-kind mapping is a
 * Record<LogicalKind, ...>, so a new logical node does not compile until it has a physical form.
 */
import { GaleneError } from '../common/errors';
import type { PlanningContext } from '../exec/context';
import { nodeProperties, orderingCovers, windowSortKeys } from '../exec/plan/node-properties';
import type { PhysicalNode } from '../exec/plan/physical-plan';
import { JOIN_SHAPES } from '../exec/plan/join-types';
import { variableValue } from '../exec/plan/planning-variables';
import { estimateRows } from './cardinality-estimate';
import type { LogicalKind, LogicalPlan } from './logical-plan';

export interface PhysicalPlanningContext {
  readonly ctx: PlanningContext;
  /** Next operator id; shared by all plans of one statement so profile counters never collide. */
  nextId(): number;
}

type Mapper<K extends LogicalKind> = (plan: Extract<LogicalPlan, { kind: K }>, pctx: PhysicalPlanningContext) => PhysicalNode;

export { estimateRows };

const MAPPERS: { readonly [K in LogicalKind]: Mapper<K> } = {
  scan: (plan, pctx) => ({
    kind: 'TableScan',
    id: pctx.nextId(),
    output: plan.schema,
    children: [],
    table: plan.table,
    alias: plan.alias,
    columns: plan.columns,
    predicates: plan.predicates,
    limit: plan.limit,
    ...(plan.ann !== undefined ? { ann: plan.ann } : {}),
    ...(plan.inverted !== undefined ? { inverted: plan.inverted } : {}),
    ...(plan.score !== undefined ? { score: plan.score } : {}),
  }),
  values: (plan, pctx) => ({ kind: 'Values', id: pctx.nextId(), output: plan.schema, children: [], rows: plan.rows }),
  filter: (plan, pctx) => ({ kind: 'Filter', id: pctx.nextId(), output: plan.schema, children: [toPhysical(plan.input, pctx)], predicate: plan.predicate }),
  project: (plan, pctx) => ({ kind: 'Project', id: pctx.nextId(), output: plan.schema, children: [toPhysical(plan.input, pctx)], exprs: plan.exprs }),
  aggregate: (plan, pctx) => ({
    kind: 'HashAggregate',
    id: pctx.nextId(),
    output: plan.schema,
    children: [toPhysical(plan.input, pctx)],
    groupKeys: plan.groupKeys,
    aggregates: plan.aggregates,
  }),
  sort: (plan, pctx) => ({ kind: 'Sort', id: pctx.nextId(), output: plan.schema, children: [toPhysical(plan.input, pctx)], keys: plan.keys }),
  topn: (plan, pctx) => ({
    kind: 'TopN',
    id: pctx.nextId(),
    output: plan.schema,
    children: [toPhysical(plan.input, pctx)],
    keys: plan.keys,
    limit: plan.limit,
    offset: plan.offset,
  }),
  limit: (plan, pctx) => ({ kind: 'Limit', id: pctx.nextId(), output: plan.schema, children: [toPhysical(plan.input, pctx)], limit: plan.limit, offset: plan.offset }),
  join: (plan, pctx) => {
    const id = pctx.nextId();
    const children = [toPhysical(plan.left, pctx), toPhysical(plan.right, pctx)];
    const extras = {
      ...(plan.markCondition ? { markCondition: plan.markCondition } : {}),
      ...(plan.assertOneMatch !== undefined ? { assertOneMatch: plan.assertOneMatch } : {}),
    };
    if (plan.joinType === 'cross' || plan.leftKeys.length === 0) {
      return { kind: 'NestedLoopJoin', id, output: plan.schema, children, joinType: plan.joinType, condition: plan.condition, ...extras };
    }
    const joinType = plan.joinType;
    // Only an INNER join may build its left side; every other type streams the left and builds the right.
    const buildSide = joinType === 'inner' && estimateRows(plan.left, pctx.ctx) < estimateRows(plan.right, pctx.ctx) ? 'left' : 'right';
    return { kind: 'HashJoin', id, output: plan.schema, children, joinType, leftKeys: plan.leftKeys, rightKeys: plan.rightKeys, condition: plan.condition, buildSide, ...extras };
  },
  apply: () => {
    // rules/apply-to-join.ts rewrites every apply; one is left only when that rule is skipped.
    throw new GaleneError('UNSUPPORTED', ['correlated subquery without the apply_to_join rule']);
  },
  window: (plan, pctx) => {
    const id = pctx.nextId();
    const child = toPhysical(plan.input, pctx);
    const keys = windowSortKeys(plan.partitionBy, plan.orderBy);
    const presorted = keys.length > 0 && orderingCovers(nodeProperties(child).ordering, keys);
    return { kind: 'Window', id, output: plan.schema, children: [child], partitionBy: plan.partitionBy, orderBy: plan.orderBy, functions: plan.functions, ...(presorted ? { presorted } : {}) };
  },
  generate: (plan, pctx) => ({
    kind: 'Generate',
    id: pctx.nextId(),
    output: plan.schema,
    children: [toPhysical(plan.input, pctx)],
    function: plan.function,
    args: plan.args,
    columnTypes: plan.columnTypes,
  }),
  union: (plan, pctx) => ({ kind: 'UnionAll', id: pctx.nextId(), output: plan.schema, children: plan.inputs.map((input) => toPhysical(input, pctx)) }),
  recursiveCte: (plan, pctx) => ({
    kind: 'RecursiveCte',
    id: pctx.nextId(),
    output: plan.schema,
    children: [toPhysical(plan.anchor, pctx), toPhysical(plan.recursive, pctx)],
    name: plan.name,
    workTableId: plan.workTableId,
    distinct: plan.distinct,
    maxRounds: Number(variableValue(pctx.ctx, 'cte_max_recursion_depth') ?? 1000),
  }),
  cteAnchor: (plan, pctx) => ({
    kind: 'CteAnchor',
    id: pctx.nextId(),
    output: plan.schema,
    children: [...plan.producers.map((producer) => toPhysical(producer.plan, pctx)), toPhysical(plan.body, pctx)],
    ctes: plan.producers.map((producer) => ({ id: producer.id, name: producer.name })),
  }),
  workTable: (plan, pctx) => ({ kind: 'WorkTableScan', id: pctx.nextId(), output: plan.schema, children: [], name: plan.name, workTableId: plan.workTableId }),
};

export function toPhysical(plan: LogicalPlan, pctx: PhysicalPlanningContext): PhysicalNode {
  return (MAPPERS[plan.kind] as Mapper<LogicalKind>)(plan as never, pctx);
}
