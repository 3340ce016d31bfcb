/**
 * Join reorder (Doris's join reorder; off with `SET disable_join_reorder = true`): a tree of INNER / CROSS
 * joins of three or more inputs is rebuilt left-deep in an order chosen by estimated rows. Start from the
 * input with the most rows (the fact table, probed), then repeatedly join the input with the fewest
 * estimated rows among those an equality connects to the inputs already joined; failing that, one any
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
  readonly equi: boolean;
}

/** The greedy order (indices of leaves in written order). */
function greedyOrder(rows: readonly number[], conjuncts: readonly Conjunct[]): number[] {
  let first = 0;
  rows.forEach((count, leafIdx) => {
    if (count > rows[first]) first = leafIdx;
  });
  const order = [first];
  const joined = new Set(order);
  const connected = (leafIdx: number, equiOnly: boolean): boolean =>
    conjuncts.some((conjunct) => (!equiOnly || conjunct.equi) && conjunct.leaves.has(leafIdx) && conjunct.leaves.size > 1 && [...conjunct.leaves].every((other) => other === leafIdx || joined.has(other)));
  while (order.length < rows.length) {
    const remaining = rows.map((_, leafIdx) => leafIdx).filter((leafIdx) => !joined.has(leafIdx));
    let candidates = remaining.filter((leafIdx) => connected(leafIdx, true));
    if (candidates.length === 0) candidates = remaining.filter((leafIdx) => connected(leafIdx, false));
    if (candidates.length === 0) candidates = remaining;
    const next = candidates.reduce((best, leafIdx) => (rows[leafIdx] < rows[best] ? leafIdx : best));
    order.push(next);
    joined.add(next);
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
  const conjuncts: Conjunct[] = exprs.map((expr) => {
    const used = new Set([...collectColumns(expr)].map(leafOf));
    const equi = expr.kind === 'call' && expr.name === 'eq' && used.size === 2;
    return { expr, leaves: used, equi };
  });
  const rows = leaves.map((leaf) => estimateRows(leaf, ctx));
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
