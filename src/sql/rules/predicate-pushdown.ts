/**
 * Predicate pushdown: moves filter conjuncts as close to the scans as they can go — through projections
 * (substituting the projected expressions), sorts, group keys of aggregates, into every input of a union
 * and into the sides of joins (both sides of INNER/CROSS, the preserved side of LEFT; ON conjuncts that
 * read only the right input of a LEFT JOIN filter that input). A WHERE equality between the two sides of a
 * cross join becomes a hash-join key. At a scan, the conjuncts of a prunable shape are also copied into
 * the scan's ScanPredicates, while the Filter stays above the scan for exactness.
 */
import type { BoundExpr } from '../../exec/bound-expr';
import { collectColumns, combineConjuncts, isDeterministic, remapColumns, splitConjuncts, substituteColumns } from '../../exec/plan/bound-expr-utils';
import type { ScanPredicate } from '../../common/scan-predicate';
import type { LogicalPlan } from '../logical-plan';
import { makeFilter, makeJoin } from '../logical-plan-build';
import { JOIN_SHAPES } from '../../exec/plan/join-types';
import { fingerprintResult, type OptimizerRule } from './optimizer-rule';
import { toScanPredicate } from './scan-predicate-extract';

function wrap(plan: LogicalPlan, preds: readonly BoundExpr[]): LogicalPlan {
  const predicate = combineConjuncts(preds);
  return predicate ? makeFilter(plan, predicate) : plan;
}

function scanPredicateKey(pred: ScanPredicate): string {
  return JSON.stringify(pred, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

/** `plan` with `preds` (over its output) applied as low as possible. */
function pushDown(plan: LogicalPlan, preds: readonly BoundExpr[]): LogicalPlan {
  switch (plan.kind) {
    case 'filter':
      return pushDown(plan.input, [...preds, ...splitConjuncts(plan.predicate)]);
    case 'project': {
      const below: BoundExpr[] = [];
      const above: BoundExpr[] = [];
      for (const pred of preds) {
        const used = [...collectColumns(pred)];
        if (isDeterministic(pred) && used.every((index) => isDeterministic(plan.exprs[index]))) below.push(substituteColumns(pred, (index) => plan.exprs[index]));
        else above.push(pred);
      }
      return wrap({ ...plan, input: pushDown(plan.input, below) }, above);
    }
    case 'sort':
      return { ...plan, input: pushDown(plan.input, preds) };
    case 'aggregate': {
      const keyCount = plan.groupKeys.length;
      const below: BoundExpr[] = [];
      const above: BoundExpr[] = [];
      for (const pred of preds) {
        const used = [...collectColumns(pred)];
        if (used.length > 0 && used.every((index) => index < keyCount) && isDeterministic(pred)) below.push(substituteColumns(pred, (index) => plan.groupKeys[index]));
        else above.push(pred);
      }
      return wrap({ ...plan, input: pushDown(plan.input, below) }, above);
    }
    case 'union': {
      const movable = preds.filter(isDeterministic);
      const fixed = preds.filter((pred) => !isDeterministic(pred));
      return wrap({ ...plan, inputs: plan.inputs.map((input) => pushDown(input, movable)) }, fixed);
    }
    case 'join':
      return pushIntoJoin(plan, preds);
    case 'apply': {
      // Normally rewritten into a join before this rule: only conjuncts not reading the subquery's column go below.
      const width = plan.input.schema.length;
      const below = preds.filter((pred) => isDeterministic(pred) && !collectColumns(pred).has(width));
      const fixed = preds.filter((pred) => !below.includes(pred));
      return wrap({ ...plan, input: pushDown(plan.input, below), subquery: pushDown(plan.subquery, []) }, fixed);
    }
    case 'scan': {
      if (preds.length === 0) return plan;
      const seen = new Set(plan.predicates.map(scanPredicateKey));
      const predicates = [...plan.predicates];
      for (const pred of preds) {
        const scanPred = toScanPredicate(pred, plan);
        if (scanPred === null) continue;
        const key = scanPredicateKey(scanPred);
        if (seen.has(key)) continue;
        seen.add(key);
        predicates.push(scanPred);
      }
      return wrap(predicates.length === plan.predicates.length ? plan : { ...plan, predicates }, preds);
    }
    case 'generate': {
      // Conjuncts over the input's columns only filter input rows before they are repeated.
      const width = plan.input.schema.length;
      const below = preds.filter((pred) => isDeterministic(pred) && [...collectColumns(pred)].every((index) => index < width));
      return wrap({ ...plan, input: pushDown(plan.input, below) }, preds.filter((pred) => !below.includes(pred)));
    }
    case 'limit':
    case 'topn':
    case 'window':
      // A window function sees the rows of its partition: a filter above it must stay above it.
      return wrap({ ...plan, input: pushDown(plan.input, []) }, preds);
    case 'values':
    case 'workTable':
      return wrap(plan, preds);
    case 'cteAnchor':
      // The producers' rows serve every reference: filters go into the body only.
      return { ...plan, producers: plan.producers.map((producer) => ({ ...producer, plan: pushDown(producer.plan, []) })), body: pushDown(plan.body, preds) };
    case 'recursiveCte':
      // A row the filter drops may still feed the next round: filters stay above; each part is pushed on its own.
      return wrap({ ...plan, anchor: pushDown(plan.anchor, []), recursive: pushDown(plan.recursive, []) }, preds);
  }
}

function pushIntoJoin(join: LogicalPlan & { kind: 'join' }, preds: readonly BoundExpr[]): LogicalPlan {
  const leftCount = join.left.schema.length;
  const type = join.joinType;
  const shape = JOIN_SHAPES[type];
  const leftPreds: BoundExpr[] = [];
  const rightPreds: BoundExpr[] = [];
  const joinPreds: BoundExpr[] = [];
  const above: BoundExpr[] = [];
  const side = (pred: BoundExpr): 'left' | 'right' | 'both' | 'none' => {
    const used = [...collectColumns(pred)];
    if (used.length === 0) return 'none';
    if (used.every((index) => index < leftCount)) return 'left';
    if (used.every((index) => index >= leftCount)) return 'right';
    return 'both';
  };
  const toRight = (pred: BoundExpr): BoundExpr => remapColumns(pred, (index) => index - leftCount);
  const markIndex = shape.mark ? leftCount : -1;
  for (const output of preds) {
    if (!isDeterministic(output) || (markIndex >= 0 && collectColumns(output).has(markIndex))) {
      above.push(output);
      continue;
    }
    // Over left ++ right: a right-only output (RIGHT SEMI / ANTI) starts at the right's first column.
    const pred = shape.left ? output : remapColumns(output, (index) => index + leftCount);
    const where = side(pred);
    // A filter on a side may go below the join unless the other side's unmatched rows bring NULLs there.
    if (where === 'left' && !shape.keepUnmatchedRight) leftPreds.push(pred);
    else if (where === 'right' && !shape.keepUnmatchedLeft) rightPreds.push(toRight(pred));
    else if (where === 'both' && (type === 'inner' || type === 'cross')) joinPreds.push(pred);
    else above.push(output);
  }
  // The join's own residual condition: a conjunct on one side only filters that side's input, unless
  // that side's rows are output whether they match or not (outer, anti and mark joins).
  const keepsAllLeft = type === 'left' || type === 'full' || type === 'left_anti' || type === 'null_aware_left_anti' || type === 'left_mark';
  const keepsAllRight = type === 'right' || type === 'full' || type === 'right_anti';
  const residual: BoundExpr[] = [];
  for (const pred of join.condition ? splitConjuncts(join.condition) : []) {
    const where = isDeterministic(pred) ? side(pred) : 'both';
    if (where === 'right' && !keepsAllRight) rightPreds.push(toRight(pred));
    else if (where === 'left' && !keepsAllLeft) leftPreds.push(pred);
    else residual.push(pred);
  }
  const left = pushDown(join.left, leftPreds);
  const right = pushDown(join.right, rightPreds);
  const extras = { markCondition: join.markCondition ?? null, ...(join.assertOneMatch !== undefined ? { assertOneMatch: join.assertOneMatch } : {}) };
  const rebuilt = makeJoin(type, left, right, combineConjuncts([...residual, ...joinPreds]), { left: [...join.leftKeys], right: [...join.rightKeys] }, extras);
  return wrap({ ...rebuilt, schema: join.schema }, above);
}

export const predicatePushdown: OptimizerRule = {
  name: 'predicate_pushdown',
  rewrite(plan) {
    const out = pushDown(plan, []);
    return fingerprintResult(plan, out);
  },
};
