/**
 * The optimizer rule interface and the plan checks the driver runs after each rule. A rule is an
 * independent pass over the whole logical plan returning `{ plan, changed }`; rules never depend on being
 * run (each is skippable by name), only on the plan invariants checkPlan verifies.
 */
import { GaleneError } from '../../common/errors';
import type { PlanningContext } from '../../exec/context';
import { collectColumns, exprKey } from '../../exec/plan/bound-expr-utils';
import type { BoundExpr } from '../../exec/bound-expr';
import { JOIN_SHAPES } from '../../exec/plan/join-types';
import { planInputs, type LogicalPlan } from '../logical-plan';

export interface RuleContext {
  readonly ctx: PlanningContext;
}

export interface RuleResult {
  readonly plan: LogicalPlan;
  readonly changed: boolean;
}

export interface OptimizerRule {
  /** Stable name, used to skip the rule (`disable_nereids_rules`) and in profile counters. */
  readonly name: string;
  rewrite(plan: LogicalPlan, rctx: RuleContext): RuleResult;
}

/** The expressions of a node with the width of the input they index. */
function nodeExprs(plan: LogicalPlan): { exprs: BoundExpr[]; width: number }[] {
  switch (plan.kind) {
    case 'scan':
    case 'union':
    case 'limit':
    case 'recursiveCte':
    case 'workTable':
    case 'cteAnchor':
      return [];
    case 'values':
      return [{ exprs: plan.rows.flat(), width: 0 }];
    case 'filter':
      return [{ exprs: [plan.predicate], width: plan.input.schema.length }];
    case 'project':
      return [{ exprs: [...plan.exprs], width: plan.input.schema.length }];
    case 'aggregate':
      return [{ exprs: [...plan.groupKeys, ...plan.aggregates.flatMap((agg) => agg.args)], width: plan.input.schema.length }];
    case 'sort':
    case 'topn':
      return [{ exprs: plan.keys.map((key) => key.expr), width: plan.input.schema.length }];
    case 'generate':
      return [{ exprs: [...plan.args], width: plan.input.schema.length }];
    case 'window':
      return [{ exprs: [...plan.partitionBy, ...plan.orderBy.map((key) => key.expr), ...plan.functions.flatMap((spec) => spec.args)], width: plan.input.schema.length }];
    case 'join':
      return [
        { exprs: [...plan.leftKeys], width: plan.left.schema.length },
        { exprs: [...plan.rightKeys], width: plan.right.schema.length },
        { exprs: [...(plan.condition ? [plan.condition] : []), ...(plan.markCondition ? [plan.markCondition] : [])], width: plan.left.schema.length + plan.right.schema.length },
      ];
    case 'apply':
      return [{ exprs: [...(plan.operand ? [plan.operand] : []), ...plan.correlation.map((corr) => corr.expr)], width: plan.input.schema.length }];
  }
}

function expectedWidth(plan: LogicalPlan): number | null {
  switch (plan.kind) {
    case 'scan':
      return plan.columns.length + (plan.ann?.distance === true ? 1 : 0) + (plan.score !== undefined ? 1 : 0);
    case 'project':
      return plan.exprs.length;
    case 'aggregate':
      return plan.groupKeys.length + plan.aggregates.length;
    case 'join': {
      const shape = JOIN_SHAPES[plan.joinType];
      return (shape.left ? plan.left.schema.length : 0) + (shape.right ? plan.right.schema.length : 0) + (shape.mark ? 1 : 0);
    }
    case 'apply':
      return plan.input.schema.length + 1;
    case 'filter':
    case 'sort':
    case 'topn':
    case 'limit':
      return plan.input.schema.length;
    case 'union':
      return plan.inputs[0]?.schema.length ?? 0;
    case 'recursiveCte':
      return plan.anchor.schema.length;
    case 'workTable':
      return null;
    case 'cteAnchor':
      return plan.body.schema.length;
    case 'window':
      return plan.input.schema.length + plan.functions.length;
    case 'generate':
      return plan.input.schema.length + plan.columnTypes.length;
    case 'values':
      return plan.rows[0]?.length ?? plan.schema.length;
  }
}

/** Throws INTERNAL when a node's column references or schema width are inconsistent. */
export function checkPlan(plan: LogicalPlan, after: string): void {
  const width = expectedWidth(plan);
  if (width !== null && width !== plan.schema.length) {
    throw new GaleneError('INTERNAL', [`plan check after ${after}: ${plan.kind} has ${plan.schema.length} columns, expected ${width}`]);
  }
  for (const group of nodeExprs(plan)) {
    for (const expr of group.exprs) {
      for (const index of collectColumns(expr)) {
        if (index < 0 || index >= group.width) throw new GaleneError('INTERNAL', [`plan check after ${after}: ${plan.kind} reads column ${index} of ${group.width}`]);
      }
    }
  }
  for (const input of planInputs(plan)) checkPlan(input, after);
}

/**
 * The result of a rule that detects `changed` by comparing fingerprints, compared only when read: the
 * optimizer driver does not read it, and fingerprinting a plan with a wide literal (a 128-float query
 * vector) twice per rule was a measurable part of planning. Plans are immutable, so the comparison made
 * later gives the answer it would have given at once.
 */
export function fingerprintResult(before: LogicalPlan, after: LogicalPlan): RuleResult {
  let changed: boolean | undefined;
  return {
    plan: after,
    get changed(): boolean {
      changed ??= planFingerprint(after) !== planFingerprint(before);
      return changed;
    },
  };
}

/** A string equal for equal plans, for rules that detect `changed` by comparison. */
export function planFingerprint(plan: LogicalPlan): string {
  const own = nodeExprs(plan)
    .map((group) => group.exprs.map(exprKey).join(','))
    .join(';');
  const extra =
    plan.kind === 'scan'
      ? `${plan.columns.join(',')}|${JSON.stringify(plan.predicates, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}|${plan.limit}`
      : plan.kind === 'limit' || plan.kind === 'topn'
        ? `${plan.limit}|${plan.offset}`
        : plan.kind === 'join'
          ? `${plan.joinType}|${plan.markCondition ? exprKey(plan.markCondition) : ''}`
          : plan.kind === 'apply'
            ? plan.mode
            : '';
  return `${plan.kind}[${own}|${extra}](${planInputs(plan).map(planFingerprint).join(',')})`;
}
