/**
 * GROUP BY GROUPING SETS / ROLLUP / CUBE / WITH ROLLUP and the GROUPING() / GROUPING_ID() functions.
 *
 * The binder binds the aggregate exactly as for a plain GROUP BY over the union of all the sets' keys,
 * with each GROUPING call registered as a placeholder aggregate (name `grouping` / `grouping_id`, its
 * arguments the group keys it names). planGroupingSets then makes the plan: for every grouping set one
 * hash aggregate on that set's keys computing the real aggregates, projected to the full output (keys
 * outside the set NULL, each GROUPING placeholder the constant it has for that set), all put together by
 * a UNION ALL. The output has the layout of the plain aggregate (keys, then aggregates), so the rest of
 * the SELECT (HAVING, the select list, ORDER BY) binds unchanged. Each set reads the input again — the
 * plain shape, where Doris's Repeat operator instead copies each input row once per set.
 *
 * GROUPING(k) is 1 when k is not in the row's grouping set, else 0; GROUPING_ID(k1, ..., kn) packs those
 * bits with k1 the most significant (Doris / MySQL).
 */
import { GaleneError } from '../common/errors';
import { Types } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import type { AggregateSpec } from '../exec/plan/physical-plan';
import type { Expr, FunctionCallExpr } from './ast';
import { astChildren } from './binder-expr';
import type { LogicalPlan, PlanColumn } from './logical-plan';
import { makeAggregate, makeProject } from './logical-plan-build';

export function isGroupingCall(expr: Expr): expr is FunctionCallExpr {
  if (expr.kind !== 'call') return false;
  const name = expr.name.toLowerCase();
  return name === 'grouping' || name === 'grouping_id';
}

export function containsGroupingCall(expr: Expr): boolean {
  return isGroupingCall(expr) || astChildren(expr).some(containsGroupingCall);
}

/**
 * The placeholder aggregate of a GROUPING / GROUPING_ID call whose arguments are group keys `keyIdxs`
 * (`keyExprs` are those keys' expressions). Throws Doris's errors when there are no grouping sets or
 * the arguments are wrong.
 */
export function groupingPlaceholder(ast: FunctionCallExpr, hasGroupingSets: boolean, keyExprs: readonly BoundExpr[]): AggregateSpec {
  const name = ast.name.toLowerCase();
  if (!hasGroupingSets) throw new GaleneError('ANALYSIS_ERROR', ['cannot use GROUPING functions without [grouping sets|rollup|cube] clause']);
  if (ast.args.length === 0 || (name === 'grouping' && ast.args.length !== 1)) throw new GaleneError('WRONG_ARG_COUNT', [name]);
  return { name, args: keyExprs, argTypes: keyExprs.map((expr) => expr.type), distinct: false, type: Types.BIGINT };
}

/** The aggregate of a GROUP BY with grouping `sets` (indices into groupKeys), laid out as makeAggregate's. */
export function planGroupingSets(
  input: LogicalPlan,
  groupKeys: readonly BoundExpr[],
  aggregates: readonly AggregateSpec[],
  keyNames: readonly string[],
  sets: readonly (readonly number[])[],
  /** For each placeholder aggregate (by index into `aggregates`), the group keys it names. */
  groupingArgs: ReadonlyMap<number, readonly number[]>,
): LogicalPlan {
  const full = makeAggregate(input, groupKeys, aggregates, keyNames);
  const schema: PlanColumn[] = full.schema.map((column, colIdx) => (colIdx < groupKeys.length ? { ...column, nullable: true } : column));
  const realAggs = aggregates.filter((_agg, aggIdx) => !groupingArgs.has(aggIdx));
  const branches = sets.map((set) => {
    const setKeys = set.map((keyIdx) => groupKeys[keyIdx]);
    const grouped = makeAggregate(input, setKeys, realAggs, set.map((keyIdx) => keyNames[keyIdx]));
    const ref = (index: number): BoundExpr => ({ kind: 'column', index, type: grouped.schema[index].type, name: grouped.schema[index].name });
    const exprs: BoundExpr[] = groupKeys.map((key, keyIdx) => {
      const position = set.indexOf(keyIdx);
      return position >= 0 ? ref(position) : { kind: 'literal', type: key.type, value: null };
    });
    let realIdx = 0;
    aggregates.forEach((_agg, aggIdx) => {
      const named = groupingArgs.get(aggIdx);
      if (named === undefined) {
        exprs.push(ref(set.length + realIdx++));
        return;
      }
      let bits = 0n;
      for (const keyIdx of named) bits = (bits << 1n) | (set.includes(keyIdx) ? 0n : 1n);
      exprs.push({ kind: 'literal', type: Types.BIGINT, value: bits });
    });
    return makeProject(grouped, exprs, schema);
  });
  return { kind: 'union', inputs: branches, schema };
}
