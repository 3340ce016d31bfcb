/**
 * Join reorder (Doris's join reorder; off with `SET disable_join_reorder = true`): a tree of INNER / CROSS
 * joins of three or more inputs is rebuilt left-deep in an order chosen by estimated rows. Start from the
 * input with the most rows (the fact table, probed), then repeatedly join the input an equality connects
 * to the inputs already joined whose join gives the fewest estimated rows (rows and ndv from column
 * statistics when ANALYZE collected them, from table metadata otherwise); failing that, one any
 * condition connects; only when nothing is connected a cross join with the smallest. So no cross join is
 * planned while an equi-join path exists. Every conjunct of the tree (hash keys and conditions) is placed
 * at the first join where all its columns are present; a projection on top restores the written column
 * order. The tree is left as written when the greedy order is the written one. Runs after predicate
 * pushdown (filters already sit on the inputs, where estimates see them).
 */
import type { BoundExpr } from '../../exec/bound-expr';
import { collectColumns, combineConjuncts, remapColumns, splitConjuncts } from '../../exec/plan/bound-expr-utils';
import { Types } from '../../common/types';
import type { PlanningContext } from '../../exec/context';
import { estimateRows } from '../cardinality-estimate';
import { planInputs, withInputs, type LogicalPlan } from '../logical-plan';
import { makeJoin, makeProject } from '../logical-plan-build';
import { planFingerprint, type OptimizerRule } from './optimizer-rule';

type Join = LogicalPlan & { kind: 'join' };

function isReorderable(plan: LogicalPlan): plan is Join {
  return plan.kind === 'join' && (plan.joinType === 'inner' || plan.joinType === 'cross') && !plan.markCondition && plan.assertOneMatch === undefined;
}

/** The inputs of a tree of inner joins (in written order) and its conjuncts over their concatenated columns. */
function flatten(plan: LogicalPlan, offset: number, leaves: LogicalPlan[], conjuncts: BoundExpr[]): void {
  if (!isReorderable(plan)) {
    leaves.push(plan);
    return;
  }
  const leftWidth = plan.left.schema.length;
  flatten(plan.left, offset, leaves, conjuncts);
  flatten(plan.right, offset + leftWidth, leaves, conjuncts);
  const shift = (expr: BoundExpr, by: number): BoundExpr => (by === 0 ? expr : remapColumns(expr, (index) => index + by));
  plan.leftKeys.forEach((leftKey, keyIdx) => {
    conjuncts.push({ kind: 'call', name: 'eq', args: [shift(leftKey, offset), shift(plan.rightKeys[keyIdx], offset + leftWidth)], type: Types.BOOLEAN });
  });
  if (plan.condition) for (const conjunct of splitConjuncts(plan.condition)) conjuncts.push(shift(conjunct, offset));
}

interface Conjunct {
  readonly expr: BoundExpr;
  /** Leaves (indices into the written order) whose columns it reads. */
  readonly leaves: ReadonlySet<number>;
  /** For `x = y` between two leaves: the estimated distinct values of each side (by leaf), else null. */
  readonly ndv: ReadonlyMap<number, number> | null;
}

/**
 * Distinct values of column `column` of a join input with `rows` estimated rows: the ndv ANALYZE
 * collected; without statistics the table's rows for its first key column, a tenth of them for another
 * column (a guess that keeps a join on a low-cardinality column from looking like a key join).
 */
function columnNdv(leaf: LogicalPlan, column: number, rows: number, ctx: PlanningContext): number {
  const scan = leaf.kind === 'filter' ? leaf.input : leaf;
  if (scan.kind !== 'scan' || column >= scan.columns.length) return Math.max(1, rows);
  const name = scan.columns[column].toLowerCase();
  const tableRows = estimateRows(scan, ctx);
  const stats = ctx.columnStats?.(scan.table)?.columns.find((candidate) => candidate.name.toLowerCase() === name);
  const base = stats ? stats.ndv : scan.table.keyColumns[0]?.toLowerCase() === name ? tableRows : tableRows / 10;
  return Math.max(1, Math.min(base, rows));
}

/**
 * The greedy order (indices of leaves in written order): from the input with the most rows, each step
 * joins the connected input whose join has the fewest estimated rows (|L| * |R| / the larger ndv of the
 * key; the most selective key of several); an input connected only by other conditions, then any input
 * (a cross join), only when no equality connects one.
 */
function greedyOrder(rows: readonly number[], conjuncts: readonly Conjunct[]): number[] {
  let first = 0;
  rows.forEach((count, leafIdx) => {
    if (count > rows[first]) first = leafIdx;
  });
  const order = [first];
  const joined = new Set(order);
  let current = rows[first];
  const connecting = (leafIdx: number): Conjunct[] =>
    conjuncts.filter((conjunct) => conjunct.leaves.has(leafIdx) && conjunct.leaves.size > 1 && [...conjunct.leaves].every((other) => other === leafIdx || joined.has(other)));
  while (order.length < rows.length) {
    let best = -1;
    let bestRank = Infinity;
    let bestRows = Infinity;
    for (let leafIdx = 0; leafIdx < rows.length; leafIdx++) {
      if (joined.has(leafIdx)) continue;
      const links = connecting(leafIdx);
      let divisor = 1;
      for (const link of links) if (link.ndv) divisor = Math.max(divisor, ...link.ndv.values());
      const equi = links.some((link) => link.ndv !== null);
      const rank = equi ? 0 : links.length > 0 ? 1 : 2;
      const out = (current * rows[leafIdx]) / (equi ? divisor : links.length > 0 ? 3 : 1);
      if (rank < bestRank || (rank === bestRank && out < bestRows)) {
        best = leafIdx;
        bestRank = rank;
        bestRows = out;
      }
    }
    order.push(best);
    joined.add(best);
    current = Math.max(1, bestRows);
  }
  return order;
}

/** The tree of inner joins rooted at `join`, its inputs visited by `visit`, reordered when the greedy order differs. */
function reorder(join: Join, ctx: PlanningContext, visit: (plan: LogicalPlan) => LogicalPlan): LogicalPlan {
  const written: LogicalPlan[] = [];
  const exprs: BoundExpr[] = [];
  flatten(join, 0, written, exprs);
  const leaves = written.map(visit);
  let nextLeaf = 0;
  const asWritten = (node: LogicalPlan): LogicalPlan => (isReorderable(node) ? withInputs(node, [asWritten(node.left), asWritten(node.right)]) : leaves[nextLeaf++]);
  if (leaves.length < 3) return asWritten(join);
  const offsets: number[] = [];
  let width = 0;
  for (const leaf of leaves) {
    offsets.push(width);
    width += leaf.schema.length;
  }
  const leafOf = (column: number): number => {
    let leafIdx = leaves.length - 1;
    while (offsets[leafIdx] > column) leafIdx--;
    return leafIdx;
  };
  const rows = leaves.map((leaf) => estimateRows(leaf, ctx));
  const conjuncts: Conjunct[] = exprs.map((expr) => {
    const used = new Set([...collectColumns(expr)].map(leafOf));
    let ndv: Map<number, number> | null = null;
    if (expr.kind === 'call' && expr.name === 'eq' && used.size === 2) {
      ndv = new Map();
      for (const side of expr.args) {
        const columns = [...collectColumns(side)];
        const leafIdx = leafOf(columns[0]);
        const one = side.kind === 'column' ? columnNdv(leaves[leafIdx], side.index - offsets[leafIdx], rows[leafIdx], ctx) : rows[leafIdx];
        ndv.set(leafIdx, Math.max(ndv.get(leafIdx) ?? 1, one));
      }
    }
    return { expr, leaves: used, ndv };
  });
  const order = greedyOrder(rows, conjuncts);
  if (order.every((leafIdx, position) => leafIdx === position)) return asWritten(join);
  // Column g of the written layout is at newIndex[g] in the new one.
  const newIndex = new Array<number>(width);
  let position = 0;
  for (const leafIdx of order) {
    for (let col = 0; col < leaves[leafIdx].schema.length; col++) newIndex[offsets[leafIdx] + col] = position++;
  }
  const placed = new Set<number>();
  const joined = new Set<number>([order[0]]);
  let current = leaves[order[0]];
  for (let step = 1; step < order.length; step++) {
    joined.add(order[step]);
    const here: BoundExpr[] = [];
    conjuncts.forEach((conjunct, conjunctIdx) => {
      if (placed.has(conjunctIdx) || ![...conjunct.leaves].every((leafIdx) => joined.has(leafIdx))) return;
      placed.add(conjunctIdx);
      here.push(remapColumns(conjunct.expr, (index) => newIndex[index]));
    });
    current = makeJoin('inner', current, leaves[order[step]], combineConjuncts(here));
  }
  const restore = join.schema.map((column, index) => ({ kind: 'column' as const, index: newIndex[index], type: column.type, name: column.name }));
  return makeProject(current, restore, join.schema);
}

/** Whether the session turned reordering off (Doris's disable_join_reorder). */
function reorderDisabled(ctx: PlanningContext): boolean {
  try {
    const { value } = ctx.getSystemVariable('disable_join_reorder', null);
    return value !== null && Number(value) !== 0 && value !== 'false';
  } catch {
    return false;
  }
}

export const joinReorder: OptimizerRule = {
  name: 'join_reorder',
  rewrite(plan, rctx) {
    if (reorderDisabled(rctx.ctx)) return { plan, changed: false };
    const before = planFingerprint(plan);
    // Top-down: the outermost join of a tree reorders all of it; the tree's inputs are visited inside.
    const visit = (node: LogicalPlan): LogicalPlan => (isReorderable(node) ? reorder(node, rctx.ctx, visit) : withInputs(node, planInputs(node).map(visit)));
    const out = visit(plan);
    return { plan: out, changed: planFingerprint(out) !== before };
  },
};
