/**
 * The optimizer: an ordered list of independent rule passes over the logical plan. The driver gives every
 * rule the same services: skipping by name (session variable `disable_nereids_rules`, a comma-separated
 * list, or the planner's `disabledRules` option), its time in the profile (`Rule.<name>.TimeMs`), a plan
 * check after it, and its name on any error it raises. Rules may import logical-plan*, the expression
 * engine and bound-expr utilities; nothing here depends on the physical planner.
 */
import { GaleneError } from '../../common/errors';
import type { PlanningContext } from '../../exec/context';
import type { LogicalPlan } from '../logical-plan';
import { annIndexPushdown } from './ann-index-pushdown';
import { applyToJoin } from './apply-to-join';
import { constantFolding } from './constant-folding';
import { extractCommonFactor } from './extract-common-factor';
import { invertedIndexPushdown } from './inverted-index-pushdown';
import { joinReorder } from './join-reorder';
import { limitPushdown } from './limit-pushdown';
import { checkPlan, type OptimizerRule } from './optimizer-rule';
import { predicatePushdown } from './predicate-pushdown';
import { projectionPruning } from './projection-pruning';
import { scoreTopnPushdown } from './score-topn-pushdown';
import { sumLiteralRewrite } from './sum-literal-rewrite';

export type { OptimizerRule, RuleContext, RuleResult } from './optimizer-rule';

/**
 * In run order. Subquery decorrelation first: the other rules then see only joins. Common factors of ORs
 * are extracted before predicate pushdown, so a factored join equality becomes a hash-join key; joins are
 * reordered after it, when the filters sit on the join inputs the estimates read. Projection pruning renumbers columns the other rules match on; the index pushdowns run
 * after it on the final columns: the inverted one first (it prunes the columns only its predicates read),
 * then the ANN one over the scan it built (its allowed rows include the index predicates' rows); the
 * score() pushdown last, over the scan both built.
 */
export const OPTIMIZER_RULES: readonly OptimizerRule[] = [applyToJoin, constantFolding, sumLiteralRewrite, extractCommonFactor, predicatePushdown, joinReorder, limitPushdown, projectionPruning, invertedIndexPushdown, annIndexPushdown, scoreTopnPushdown];

/**
 * Set once the session-variable registry has been seen to lack `disable_nereids_rules`: an exception
 * per statement (with its stack capture) costs more than a point query's whole plan.
 */
let disabledRulesVariableMissing = false;

function sessionDisabledRules(ctx: PlanningContext): string[] {
  if (disabledRulesVariableMissing) return [];
  try {
    const { value } = ctx.getSystemVariable('disable_nereids_rules', null);
    return typeof value === 'string' ? value.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean) : [];
  } catch (err) {
    if (err instanceof GaleneError && err.code === 'UNKNOWN_SYSTEM_VARIABLE') disabledRulesVariableMissing = true;
    return [];
  }
}

/** Names of the rules to skip: the planner's option plus the session variable `disable_nereids_rules`. */
export function disabledRuleNames(ctx: PlanningContext, disabledRules: readonly string[] = []): Set<string> {
  return new Set([...disabledRules.map((name) => name.toLowerCase()), ...sessionDisabledRules(ctx)]);
}

/** Run every enabled rule once, in order. */
export function optimize(plan: LogicalPlan, ctx: PlanningContext, disabledRules: readonly string[] = []): LogicalPlan {
  const disabled = disabledRuleNames(ctx, disabledRules);
  let current = plan;
  for (const rule of OPTIMIZER_RULES) {
    if (disabled.has(rule.name)) continue;
    const start = performance.now();
    try {
      current = rule.rewrite(current, { ctx }).plan;
      checkPlan(current, rule.name);
    } catch (err) {
      if (err instanceof GaleneError && err.code !== 'INTERNAL') throw err;
      throw new GaleneError('INTERNAL', [`optimizer rule ${rule.name}: ${err instanceof Error ? err.message : String(err)}`], { cause: err });
    } finally {
      ctx.profile.add(`Rule.${rule.name}.TimeMs`, performance.now() - start);
    }
  }
  return current;
}
