/**
 * Estimated output rows of a logical plan, from table metadata (row counts the rowsets keep current):
 * the physical planner uses it to choose a hash join's build side, the join_reorder rule to order joins.
 */
import type { PlanningContext } from '../exec/context';
import { JOIN_SHAPES } from '../exec/plan/join-types';
import type { ScanPredicate } from '../common/scan-predicate';
import type { ColumnStatsRecord } from '../meta/table-stats';
import type { LogicalPlan } from './logical-plan';

/** Fraction of rows a scan predicate keeps, from the column's statistics (min/max, ndv, nulls). */
function selectivity(pred: ScanPredicate, stats: ColumnStatsRecord): number {
  const nonNull = stats.count === 0 ? 0 : (stats.count - stats.numNulls) / stats.count;
  switch (pred.op) {
    case 'isnull':
      return 1 - nonNull;
    case 'isnotnull':
      return nonNull;
    case 'in':
      return stats.ndv > 0 ? Math.min(1, pred.values.length / stats.ndv) * nonNull : 0.5;
    case '=':
      return stats.ndv > 0 ? nonNull / stats.ndv : 0.5;
    default: {
      const { minNumber: min, maxNumber: max } = stats;
      const value = typeof pred.value === 'bigint' || typeof pred.value === 'number' ? Number(pred.value) : null;
      if (min === null || max === null || value === null) return 1 / 3;
      if (max === min) return (pred.op === '<' || pred.op === '<=' ? value >= min : value <= max) ? nonNull : 0;
      const below = Math.min(1, Math.max(0, (value - min) / (max - min)));
      return (pred.op === '<' || pred.op === '<=' ? below : 1 - below) * nonNull;
    }
  }
}

/**
 * Rows of a filtered scan: with column statistics (ANALYZE TABLE), the product of its scan predicates'
 * selectivities (columns are taken as independent); without them half the table.
 */
function filteredScanRows(scan: LogicalPlan & { kind: 'scan' }, ctx: PlanningContext): number {
  const rows = estimateRows(scan, ctx);
  const stats = ctx.columnStats?.(scan.table) ?? null;
  if (stats === null || scan.predicates.length === 0) return Math.ceil(rows / 2);
  let fraction = 1;
  for (const pred of scan.predicates) {
    const column = stats.columns.find((candidate) => candidate.name.toLowerCase() === pred.column.toLowerCase());
    fraction *= column ? selectivity(pred, column) : 0.5;
  }
  return Math.max(1, Math.ceil(rows * fraction));
}

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
      return plan.input.kind === 'scan' ? filteredScanRows(plan.input, ctx) : Math.ceil(estimateRows(plan.input, ctx) / 2);
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
    case 'generate':
      // Unknown fan-out: a few rows per input row.
      return estimateRows(plan.input, ctx) * 4;
    case 'recursiveCte':
      // Rounds are unknown before running: a guess of a few rounds of the anchor's size.
      return estimateRows(plan.anchor, ctx) * 10;
    case 'workTable':
      return 100;
    case 'cteAnchor':
      return estimateRows(plan.body, ctx);
  }
}
