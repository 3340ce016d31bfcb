/**
 * Limit pushdown: ORDER BY + LIMIT becomes a TopN (no full sort); a LIMIT over a scan (directly or
 * through row-preserving projections) also tells the scan it may stop after limit + offset rows. The
 * Limit operator stays, so a scan that returns more rows is still cut exactly.
 */
import type { LogicalPlan } from '../logical-plan';
import { transformPlan } from '../logical-plan';
import type { OptimizerRule } from './optimizer-rule';

function limitScan(plan: LogicalPlan, rows: number): LogicalPlan | null {
  if (plan.kind === 'scan') return plan.limit !== null && plan.limit <= rows ? null : { ...plan, limit: rows };
  if (plan.kind === 'project') {
    const input = limitScan(plan.input, rows);
    return input ? { ...plan, input } : null;
  }
  return null;
}

export const limitPushdown: OptimizerRule = {
  name: 'limit_pushdown',
  rewrite(plan) {
    let changed = false;
    const out = transformPlan(plan, (node): LogicalPlan => {
      if (node.kind !== 'limit' || node.limit === null) return node;
      const input = node.input;
      if (input.kind === 'sort') {
        changed = true;
        return { kind: 'topn', input: input.input, keys: input.keys, limit: node.limit, offset: node.offset, schema: node.schema };
      }
      const limited = limitScan(input, node.limit + node.offset);
      if (limited) {
        changed = true;
        return { ...node, input: limited };
      }
      return node;
    });
    return { plan: out, changed };
  },
};
