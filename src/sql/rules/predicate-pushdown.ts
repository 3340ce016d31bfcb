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
import { planFingerprint, type OptimizerRule } from './optimizer-rule';
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
    case 'limit':
    case 'topn':
    case 'window':
      // A window function sees the rows of its partition: a filter above it must stay above it.
      return wrap({ ...plan, input: pushDown(plan.input, []) }, preds);
    case 'values':
      return wrap(plan, preds);
  }
}

function pushIntoJoin(join: LogicalPlan & { kind: 'join' }, preds: readonly BoundExpr[]): LogicalPlan {
  const leftCount = join.left.schema.length;
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
  const outer = join.joinType === 'left';
  for (const pred of preds) {
    if (!isDeterministic(pred)) {
      above.push(pred);
      continue;
    }
    const where = side(pred);
    if (where === 'left') leftPreds.push(pred);
    else if (where === 'right' && !outer) rightPreds.push(toRight(pred));
    else if (where === 'both' && !outer) joinPreds.push(pred);
    else above.push(pred);
  }
  // The join's own residual condition.
  const residual: BoundExpr[] = [];
  for (const pred of join.condition ? splitConjuncts(join.condition) : []) {
    const where = isDeterministic(pred) ? side(pred) : 'both';
    if (where === 'right') rightPreds.push(toRight(pred));
    else if (where === 'left' && !outer) leftPreds.push(pred);
    else residual.push(pred);
  }
  const left = pushDown(join.left, leftPreds);
  const right = pushDown(join.right, rightPreds);
  const rebuilt = makeJoin(join.joinType, left, right, combineConjuncts([...residual, ...joinPreds]), { left: [...join.leftKeys], right: [...join.rightKeys] });
  return wrap({ ...rebuilt, schema: join.schema }, above);
}

export const predicatePushdown: OptimizerRule = {
  name: 'predicate_pushdown',
  rewrite(plan) {
    const before = planFingerprint(plan);
    const out = pushDown(plan, []);
    return { plan: out, changed: planFingerprint(out) !== before };
  },
};
