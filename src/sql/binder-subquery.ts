/**
 * Binding of subqueries in expressions (`(SELECT ...)`, `EXISTS`, `IN (SELECT ...)`), for the query
 * binder (binder.ts). The subquery is bound by a child binder whose unknown column names are looked up
 * in the enclosing query (an OuterColumnResolver): each such outer reference becomes a param slot recorded as a
 * Correlation.
 *
 *   - No outer reference: the subquery is planned on its own and run once before the query (its result
 *     replaces a placeholder param, exec/plan/execute-plan.ts), as before.
 *   - Correlated: the subquery's logical plan becomes a LogicalApply over the plan of the clause it appears
 *     in (the FROM result for WHERE and a plain select list, the aggregate's output for HAVING and the
 *     select list of a grouped query). An ApplyStage collects them while the clause binds, the expression
 *     refers to the apply's new column through a placeholder param, and attach() wraps the plan and turns
 *     the placeholders into column references. rules/apply-to-join.ts then decorrelates each apply into a
 *     join, so nothing runs once per outer row.
 */
import { GaleneError } from '../common/errors';
import { Types, type DataType } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import { commonSuperType } from '../exec/expr';
import { exprKey, transformExpr } from '../exec/plan/bound-expr-utils';
import type { PhysicalPlan, SubqueryPlan } from '../exec/plan/physical-plan';
import type { ExistsExpr, InSubqueryExpr, QueryExpr, SubqueryExpr } from './ast';
import { castTo, type BindEnv, type ExprBinder, type OuterColumnResolver } from './binder-expr';
import type { Correlation, LogicalPlan, PlanColumn } from './logical-plan';
import { makeProject } from './logical-plan-build';

export type SubqueryAst = SubqueryExpr | ExistsExpr | InSubqueryExpr;

/** What binding a subquery needs from the query binder that meets it. */
export interface SubqueryHost {
  readonly exprs: ExprBinder;
  /** The statement's subqueries run before it (uncorrelated ones, at any depth). */
  readonly subqueries: SubqueryPlan[];
  allocateSlot(): number;
  /** The clause being bound, when it can take correlated subqueries. */
  readonly stage: ApplyStage | null;
  /** Binds `query` with a child binder resolving outer names through `outer`, its own subqueries into `subqueries`. */
  bindChild(query: QueryExpr, outer: OuterColumnResolver, subqueries: SubqueryPlan[]): LogicalPlan;
  /** Optimizes and physically plans an uncorrelated subquery's logical plan. */
  planUncorrelated(plan: LogicalPlan, subqueries: SubqueryPlan[]): PhysicalPlan;
}

interface PendingApply {
  readonly slot: number;
  readonly mode: 'exists' | 'in' | 'scalar';
  readonly subquery: LogicalPlan;
  readonly correlation: readonly Correlation[];
  readonly operand: BoundExpr | null;
  readonly sourceText: string;
  readonly type: DataType;
}

/** The correlated subqueries of one clause of a query block, applied to the plan that clause reads. */
export class ApplyStage {
  private readonly pending: PendingApply[] = [];
  /** Whether a subquery bound in `env` belongs to this clause (an aggregate's argument does not). */
  readonly accepts: (env: BindEnv) => boolean;

  constructor(accepts: (env: BindEnv) => boolean) {
    this.accepts = accepts;
  }

  add(apply: PendingApply): void {
    this.pending.push(apply);
  }

  get isEmpty(): boolean {
    return this.pending.length === 0;
  }

  /** `plan` under one apply per subquery, and the rewrite of their placeholders into the new columns. */
  attach(plan: LogicalPlan): { plan: LogicalPlan; substitute: (expr: BoundExpr) => BoundExpr } {
    const columnOf = new Map<number, BoundExpr>();
    let out = plan;
    for (const apply of this.pending) {
      const index = out.schema.length;
      const column: PlanColumn = { name: `__subquery_${index}`, type: apply.type, nullable: true };
      out = { kind: 'apply', mode: apply.mode, input: out, subquery: apply.subquery, correlation: apply.correlation, operand: apply.operand, sourceText: apply.sourceText, schema: [...out.schema, column] };
      columnOf.set(apply.slot, { kind: 'column', index, type: apply.type, name: column.name });
    }
    const substitute = (expr: BoundExpr): BoundExpr => (columnOf.size === 0 ? expr : transformExpr(expr, (node) => (node.kind === 'param' ? (columnOf.get(node.index) ?? node) : node)));
    return { plan: out, substitute };
  }
}

/** The bound form of a subquery expression met in `env` (NOT EXISTS / NOT IN included). */
export function bindSubqueryExpr(host: SubqueryHost, ast: SubqueryAst, operand: BoundExpr | null, env: BindEnv): BoundExpr {
  const mode = ast.kind === 'subquery' ? 'scalar' : ast.kind === 'exists' ? 'exists' : 'in';
  const negated = ast.kind === 'subquery' ? false : ast.negated;
  const correlation: Correlation[] = [];
  const slotByKey = new Map<string, number>();
  const outer: OuterColumnResolver = (ref) => {
    let bound: BoundExpr;
    try {
      bound = host.exprs.bind(ref, env);
    } catch (err) {
      if (err instanceof GaleneError && err.code === 'UNKNOWN_COLUMN') return null;
      throw err;
    }
    const key = exprKey(bound);
    let slot = slotByKey.get(key);
    if (slot === undefined) {
      slot = host.allocateSlot();
      slotByKey.set(key, slot);
      correlation.push({ slot, expr: bound });
    }
    return { kind: 'param', index: slot, type: bound.type };
  };
  const nested: SubqueryPlan[] = [];
  let plan = host.bindChild(ast.query, outer, nested);
  if (mode !== 'exists' && plan.schema.length !== 1) throw new GaleneError('TYPE_MISMATCH', ['Operand should contain 1 column(s)']);
  const sourceText = host.exprs.sourceText(ast) ?? '(subquery)';

  if (correlation.length === 0) {
    const physical = host.planUncorrelated(plan, nested);
    const slot = host.allocateSlot();
    host.subqueries.push({ slot, mode, plan: physical, sourceText });
    if (mode === 'exists') {
      const test: BoundExpr = { kind: 'param', index: slot, type: Types.BOOLEAN };
      return negated ? not(test) : test;
    }
    const subType = physical.columns[0].type;
    if (mode === 'scalar') return { kind: 'param', index: slot, type: subType };
    const type = commonSuperType([operand!.type, subType], 'in');
    const placeholder = castTo({ kind: 'param', index: slot, type: subType }, type);
    return { kind: 'in', operand: castTo(operand!, type), list: [placeholder], negated, type: Types.BOOLEAN };
  }

  const stage = host.stage;
  if (stage === null || !stage.accepts(env)) throw new GaleneError('UNSUPPORTED', [`correlated subquery in the ${env.clause}${stage === null ? '' : ' inside an aggregate function'}`]);
  host.subqueries.push(...nested);
  let compared: BoundExpr | null = null;
  let type: DataType = Types.BOOLEAN;
  if (mode === 'in') {
    const subColumn = plan.schema[0];
    const common = commonSuperType([operand!.type, subColumn.type], 'in');
    compared = castTo(operand!, common);
    const value = castTo({ kind: 'column', index: 0, type: subColumn.type, name: subColumn.name }, common);
    if (value.kind !== 'column') plan = makeProject(plan, [value], [{ ...subColumn, type: common }]);
  } else if (mode === 'scalar') {
    type = plan.schema[0].type;
  }
  const slot = host.allocateSlot();
  stage.add({ slot, mode, subquery: plan, correlation, operand: compared, sourceText, type });
  const mark: BoundExpr = { kind: 'param', index: slot, type };
  return negated ? not(mark) : mark;
}

function not(expr: BoundExpr): BoundExpr {
  return { kind: 'not', args: [expr], type: Types.BOOLEAN };
}
