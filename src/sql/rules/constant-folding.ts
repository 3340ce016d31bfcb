/**
 * Constant folding: a deterministic call, cast, CASE, IN or logical node whose inputs are all literals is
 * evaluated once at plan time (evaluateConstant) and replaced by its literal. AND/OR with a literal FALSE /
 * TRUE argument are simplified under three-valued logic, and a Filter whose predicate folds to TRUE goes.
 * A node whose evaluation fails is left as it is, so the error (if any) surfaces at run time as usual.
 * Statement-level functions (DATABASE(), NOW()...) fold with the statement's session facts; folding never
 * has a task control block or a table reader (see foldingContext).
 */
import { GaleneError } from '../../common/errors';
import { isSketchType, Types } from '../../common/types';
import type { BoundExpr } from '../../exec/bound-expr';
import type { PlanningContext, TaskContext } from '../../exec/context';
import type { QueryTask } from '../../exec/query-task';
import { evaluateConstant } from '../../exec/expr';
import { exprChildren, isDeterministic, isTrueLiteral, literal, transformExpr } from '../../exec/plan/bound-expr-utils';
import { mapPlanExprs, transformPlan, type LogicalPlan } from '../logical-plan';
import { fingerprintResult, type OptimizerRule } from './optimizer-rule';

function isFalseLiteral(expr: BoundExpr): boolean {
  return expr.kind === 'literal' && expr.value !== null && Number(expr.value) === 0 && expr.type.name === 'BOOLEAN';
}

function simplifyLogical(node: BoundExpr & { kind: 'and' | 'or' | 'not' }): BoundExpr {
  if (node.kind === 'not') return node;
  const absorbing = node.kind === 'and' ? isFalseLiteral : isTrueLiteral;
  const neutral = node.kind === 'and' ? isTrueLiteral : isFalseLiteral;
  if (node.args.some(absorbing)) return literal(Types.BOOLEAN, node.kind === 'and' ? 0 : 1);
  const args = node.args.filter((arg) => !neutral(arg));
  if (args.length === node.args.length) return node;
  if (args.length === 0) return literal(Types.BOOLEAN, node.kind === 'and' ? 1 : 0);
  if (args.length === 1) return args[0];
  return { ...node, args };
}

/**
 * The task context a folded expression is evaluated with: the planning context's profile, `?` values and
 * session facts. A node that reaches for the task or a table is not constant: it throws and stays unfolded.
 */
function foldingContext(ctx: PlanningContext): TaskContext {
  return {
    profile: ctx.profile,
    parameters: ctx.parameters,
    sessionInfo: ctx.sessionInfo,
    get task(): QueryTask {
      throw new GaleneError('INTERNAL', ['constant folding read the task control block']);
    },
    openTable: () => {
      throw new GaleneError('INTERNAL', ['constant folding opened a table']);
    },
  };
}

/** Fold the constant parts of one expression. */
export function foldExpr(expr: BoundExpr, planning: PlanningContext): BoundExpr {
  const ctx = foldingContext(planning);
  return transformExpr(expr, (node) => {
    if (node.kind === 'literal' || node.kind === 'column' || node.kind === 'param') return node;
    const children = exprChildren(node);
    // A BITMAP / HLL result stays an expression: a literal holds text, and a sketch state is bytes.
    if (!children.every((child) => child.kind === 'literal') || !isDeterministic(node) || isSketchType(node.type)) {
      return node.kind === 'and' || node.kind === 'or' ? simplifyLogical(node) : node;
    }
    try {
      return literal(node.type, evaluateConstant(node, ctx, true));
    } catch {
      return node;
    }
  });
}

export const constantFolding: OptimizerRule = {
  name: 'constant_folding',
  rewrite(plan, rctx) {
    const out = transformPlan(plan, (node): LogicalPlan => {
      const folded = mapPlanExprs(node, (expr) => foldExpr(expr, rctx.ctx));
      if (folded.kind === 'filter' && isTrueLiteral(folded.predicate)) return folded.input;
      return folded;
    });
    return fingerprintResult(plan, out);
  },
};
