/**
 * Extract common factors of OR (Doris's ExtractCommonFactorRule): a conjunct present in every branch of an
 * OR is taken out of it, `(A AND B) OR (A AND C)` -> `A AND (B OR C)`, and `(A AND B) OR A` -> `A`. Exact in
 * SQL's three-valued logic (AND distributes over OR). Runs on filter predicates and join conditions before
 * predicate pushdown, so a factored equality between two tables becomes a hash-join key (TPC-H q19, whose
 * only join condition sits inside an OR, is then a hash join, not a cross join). Only deterministic
 * conjuncts are factored: a nondeterministic one must still be evaluated once per branch.
 */
import type { BoundExpr } from '../../exec/bound-expr';
import { combineConjuncts, exprKey, isDeterministic, splitConjuncts } from '../../exec/plan/bound-expr-utils';
import { Types } from '../../common/types';
import { transformPlan, type LogicalPlan } from '../logical-plan';
import { planFingerprint, type OptimizerRule } from './optimizer-rule';

function splitDisjuncts(expr: BoundExpr, into: BoundExpr[] = []): BoundExpr[] {
  if (expr.kind === 'or') for (const arg of expr.args) splitDisjuncts(arg, into);
  else into.push(expr);
  return into;
}

/** exprKey, with the two sides of `a = b` in one order (`a = b` and `b = a` are one factor). */
function factorKey(expr: BoundExpr): string {
  if (expr.kind === 'call' && expr.name === 'eq' && expr.args.length === 2) return `eq(${expr.args.map(exprKey).sort().join(',')})`;
  return exprKey(expr);
}

/** `expr` with the common factors of each of its ORs extracted (ANDs and ORs looked into). */
export function extractCommonFactors(expr: BoundExpr): BoundExpr {
  if (expr.kind === 'and') {
    const parts = splitConjuncts(expr).map(extractCommonFactors);
    return combineConjuncts(parts.flatMap((part) => splitConjuncts(part))) ?? expr;
  }
  if (expr.kind !== 'or') return expr;
  const branches = splitDisjuncts(expr).map((branch) => splitConjuncts(extractCommonFactors(branch)));
  const branchKeys = branches.map((conjuncts) => new Set(conjuncts.map(factorKey)));
  const common: BoundExpr[] = [];
  const commonKeys = new Set<string>();
  for (const conjunct of branches[0]) {
    const key = factorKey(conjunct);
    if (commonKeys.has(key) || !isDeterministic(conjunct) || !branchKeys.every((keys) => keys.has(key))) continue;
    common.push(conjunct);
    commonKeys.add(key);
  }
  const rebuiltOr = (lists: readonly BoundExpr[][]): BoundExpr => {
    const args = lists.map((conjuncts) => combineConjuncts(conjuncts)!);
    return args.length === 1 ? args[0] : { kind: 'or', args, type: Types.BOOLEAN };
  };
  if (common.length === 0) return rebuiltOr(branches);
  const rests = branches.map((conjuncts) => conjuncts.filter((conjunct) => !commonKeys.has(factorKey(conjunct))));
  // A branch left with nothing is TRUE: the OR is then TRUE and only the common factors remain.
  if (rests.some((rest) => rest.length === 0)) return combineConjuncts(common)!;
  return combineConjuncts([...common, ...splitConjuncts(extractCommonFactors(rebuiltOr(rests)))])!;
}

export const extractCommonFactor: OptimizerRule = {
  name: 'extract_common_factor',
  rewrite(plan) {
    const before = planFingerprint(plan);
    const out = transformPlan(plan, (node): LogicalPlan => {
      if (node.kind === 'filter') return { ...node, predicate: extractCommonFactors(node.predicate) };
      if (node.kind === 'join' && node.condition) return { ...node, condition: extractCommonFactors(node.condition) };
      return node;
    });
    return { plan: out, changed: planFingerprint(out) !== before };
  },
};
