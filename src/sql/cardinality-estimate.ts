/**
 * Estimated output rows of a logical plan, from table metadata (row counts the rowsets keep current):
 * the physical planner uses it to choose a hash join's build side, the join_reorder rule to order joins.
 */
import type { PlanningContext } from '../exec/context';
import { JOIN_SHAPES } from '../exec/plan/join-types';
import type { LogicalPlan } from './logical-plan';

/** Estimated output rows, for choosing join build sides. */
export function estimateRows(plan: LogicalPlan, ctx: PlanningContext): number {
  switch (plan.kind) {
    case 'scan': {
      let rows: number;
      try {
        rows = ctx.estimatedRowCount(plan.table);
      } catch {
        rows = 1_000_000;
      }
      return plan.limit !== null ? Math.min(rows, plan.limit) : rows;
    }
    case 'values':
      return plan.rows.length;
    case 'filter':
      return Math.ceil(estimateRows(plan.input, ctx) / 2);
    case 'aggregate':
      return plan.groupKeys.length === 0 ? 1 : Math.ceil(estimateRows(plan.input, ctx) / 2);
    case 'limit':
      return Math.min(plan.limit ?? Number.MAX_SAFE_INTEGER, estimateRows(plan.input, ctx));
    case 'topn':
      return Math.min(plan.limit, estimateRows(plan.input, ctx));
    case 'join':
      if (plan.joinType === 'right_semi' || plan.joinType === 'right_anti') return estimateRows(plan.right, ctx);
      if (!JOIN_SHAPES[plan.joinType].right) return estimateRows(plan.left, ctx);
      return Math.max(estimateRows(plan.left, ctx), estimateRows(plan.right, ctx));
    case 'apply':
      return estimateRows(plan.input, ctx);
    case 'union':
      return plan.inputs.reduce((sum, input) => sum + estimateRows(input, ctx), 0);
    case 'project':
    case 'sort':
    case 'window':
      return estimateRows(plan.input, ctx);
    case 'recursiveCte':
      // Rounds are unknown before running: a guess of a few rounds of the anchor's size.
      return estimateRows(plan.anchor, ctx) * 10;
    case 'workTable':
      return 100;
  }
}
