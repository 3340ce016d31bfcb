/**
 * Subquery decorrelation (Doris's rule name APPLY_TO_JOIN): rewrites every LogicalApply the binder made
 * for a correlated subquery (binder-subquery.ts) into a join, so no operator ever runs a subquery per row.
 *
 *   1. The correlated conjuncts of the subquery's WHERE (those reading an outer param) are pulled up out
 *      of it — through filters, projections (which pass the columns they need up), inner / cross joins and
 *      an aggregate, whose correlated equalities `inner = outer` become extra GROUP BY keys — and become
 *      the join condition, the outer params replaced by the outer expressions.
 *   2. EXISTS and IN become a LEFT MARK join (IN's `operand = value` is its three-valued mark condition);
 *      a scalar subquery becomes a LEFT join, over the regrouped aggregate (an outer row without a group
 *      gets what the aggregate gives on no rows: 0 for COUNT, else NULL), or, without an aggregate, one
 *      that fails with Doris's "Expected EQ 1 ..." when an outer row matches twice.
 *   3. A filter conjunct that is just a mark (`EXISTS`, `IN`) or its negation turns its mark join into a
 *      LEFT SEMI / LEFT ANTI join; `NOT IN` becomes a NULL AWARE LEFT ANTI join unless neither side can
 *      be NULL. Marks used anywhere else (under OR, in the select list) stay mark joins.
 *
 * A subquery whose correlation sits elsewhere (a select-list expression, a LIMIT, an outer join, a
 * non-equality below an aggregate) fails with a "doesn't yet support" error naming the shape.
 */
import { GaleneError } from '../../common/errors';
import { Types, typesEqual } from '../../common/types';
import type { BoundExpr } from '../../exec/bound-expr';
import { anyExpr, collectColumns, combineConjuncts, exprKey, literal, remapColumns, splitConjuncts, substituteColumns, transformExpr } from '../../exec/plan/bound-expr-utils';
import type { LogicalApply, LogicalJoin, LogicalPlan, PlanColumn } from '../logical-plan';
import { mapPlanExprs, planInputs, transformPlan } from '../logical-plan';
import { makeAggregate, makeColumnProject, makeFilter, makeJoin, makeProject } from '../logical-plan-build';
import { fingerprintResult, type OptimizerRule } from './optimizer-rule';

type Slots = ReadonlyMap<number, BoundExpr>;

/** A subquery plan with its correlated conjuncts taken out: they read `plan`'s output and outer params. */
interface Pulled {
  readonly plan: LogicalPlan;
  readonly preds: readonly BoundExpr[];
  /** A global aggregate was regrouped by the correlation keys (an outer row may now find no row). */
  readonly regrouped: RegroupedAggregate | null;
}

/** A global aggregate regrouped by correlation keys: what each output column would be on no rows. */
interface RegroupedAggregate {
  /** Per output column of the pulled plan: its value (no columns read) on no input rows; null when unknown. */
  readonly emptyColumns: readonly (BoundExpr | null)[];
}

function unsupported(shape: string): GaleneError {
  return new GaleneError('UNSUPPORTED', [`correlated subquery with ${shape}`]);
}

function readsSlots(expr: BoundExpr, slots: Slots): boolean {
  return anyExpr(expr, (node) => node.kind === 'param' && slots.has(node.index));
}

function planReadsSlots(plan: LogicalPlan, slots: Slots): boolean {
  let found = false;
  mapPlanExprs(plan, (expr) => {
    if (readsSlots(expr, slots)) found = true;
    return expr;
  });
  if (plan.kind === 'apply' && plan.correlation.some((corr) => readsSlots(corr.expr, slots))) found = true;
  return found || planInputs(plan).some((input) => planReadsSlots(input, slots));
}

function column(plan: LogicalPlan, index: number): BoundExpr {
  return { kind: 'column', index, type: plan.schema[index].type, name: plan.schema[index].name };
}

function pull(plan: LogicalPlan, slots: Slots): Pulled {
  if (!planReadsSlots(plan, slots)) return { plan, preds: [], regrouped: null };
  switch (plan.kind) {
    case 'filter': {
      const below = pull(plan.input, slots);
      const kept: BoundExpr[] = [];
      const pulled = [...below.preds];
      for (const conjunct of splitConjuncts(plan.predicate)) (readsSlots(conjunct, slots) ? pulled : kept).push(conjunct);
      const predicate = combineConjuncts(kept);
      if (below.regrouped !== null && predicate !== null) throw unsupported('a HAVING clause');
      return { plan: predicate ? makeFilter(below.plan, predicate) : below.plan, preds: pulled, regrouped: below.regrouped };
    }
    case 'project': {
      if (plan.exprs.some((expr) => readsSlots(expr, slots))) throw unsupported('an outer column in its select list');
      const below = pull(plan.input, slots);
      // The pulled conjuncts read the input: pass the columns they need up, after the projected ones.
      const exprs = [...plan.exprs];
      const schema = [...plan.schema];
      const position = new Map<number, number>();
      for (const pred of below.preds) {
        for (const index of collectColumns(pred)) {
          if (position.has(index)) continue;
          position.set(index, exprs.length);
          exprs.push(column(below.plan, index));
          schema.push(below.plan.schema[index]);
        }
      }
      const preds = below.preds.map((pred) => remapColumns(pred, (index) => position.get(index)!));
      const empty = below.regrouped?.emptyColumns;
      const regrouped = empty === undefined ? null : { emptyColumns: plan.exprs.map((expr) => valueOnNoRows(expr, empty)) };
      return { plan: makeProject(below.plan, exprs, schema), preds, regrouped };
    }
    case 'sort':
      // ORDER BY without LIMIT does not change a subquery's result.
      return pull(plan.input, slots);
    case 'join':
      return pullThroughJoin(plan, slots);
    case 'aggregate':
      return pullThroughAggregate(plan, slots);
    case 'limit':
    case 'topn':
      throw unsupported('LIMIT');
    case 'union':
      throw unsupported('UNION');
    case 'apply':
      throw unsupported('a nested subquery reading it');
    case 'window':
      throw unsupported('a window function');
    case 'generate':
      throw unsupported('a LATERAL VIEW');
    case 'recursiveCte':
    case 'workTable':
    case 'cteAnchor':
      throw unsupported('a recursive or materialized CTE');
    case 'scan':
    case 'values':
      return { plan, preds: [], regrouped: null };
  }
}

function pullThroughJoin(join: LogicalJoin, slots: Slots): Pulled {
  if (join.joinType !== 'inner' && join.joinType !== 'cross') throw unsupported(`an outer column under a ${join.joinType.replace(/_/g, ' ').toUpperCase()} join`);
  const left = pull(join.left, slots);
  const right = pull(join.right, slots);
  if (left.regrouped !== null || right.regrouped !== null) throw unsupported('an aggregate joined on');
  const oldLeft = join.left.schema.length;
  const oldRight = join.right.schema.length;
  const newLeft = left.plan.schema.length;
  const toNew = (index: number): number => (index < oldLeft ? index : index - oldLeft + newLeft);
  const conjuncts = join.condition ? splitConjuncts(join.condition) : [];
  const correlated = conjuncts.filter((conjunct) => readsSlots(conjunct, slots)).map((conjunct) => remapColumns(conjunct, toNew));
  const residual = combineConjuncts(conjuncts.filter((conjunct) => !readsSlots(conjunct, slots)).map((conjunct) => remapColumns(conjunct, toNew)));
  const rebuilt = makeJoin(join.joinType, left.plan, right.plan, residual, { left: [...join.leftKeys], right: [...join.rightKeys] });
  // Put the columns back in the join's order, the ones passed up from below after them.
  const order = [
    ...Array.from({ length: oldLeft }, (_v, idx) => idx),
    ...Array.from({ length: oldRight }, (_v, idx) => newLeft + idx),
    ...Array.from({ length: newLeft - oldLeft }, (_v, idx) => oldLeft + idx),
    ...Array.from({ length: right.plan.schema.length - oldRight }, (_v, idx) => newLeft + oldRight + idx),
  ];
  const inverse = new Map(order.map((from, to) => [from, to]));
  const preds = [...left.preds, ...right.preds.map((pred) => remapColumns(pred, (index) => index + newLeft)), ...correlated].map((pred) => remapColumns(pred, (index) => inverse.get(index)!));
  return { plan: makeColumnProject(rebuilt, order), preds, regrouped: null };
}

function pullThroughAggregate(agg: LogicalPlan & { kind: 'aggregate' }, slots: Slots): Pulled {
  if (agg.groupKeys.some((key) => readsSlots(key, slots)) || agg.aggregates.some((spec) => spec.args.some((arg) => readsSlots(arg, slots)))) {
    throw unsupported('an outer column in an aggregate');
  }
  const below = pull(agg.input, slots);
  if (below.regrouped !== null) throw unsupported('nested aggregates');
  // Each correlated conjunct must be `inner = outer`: the inner side becomes a GROUP BY key.
  const keys = [...agg.groupKeys];
  const keyNames = agg.schema.slice(0, agg.groupKeys.length).map((col) => col.name);
  const pairs: { key: number; outer: BoundExpr; eq: BoundExpr & { kind: 'call' } }[] = [];
  for (const pred of below.preds) {
    const split = correlatedEquality(pred, slots);
    if (split === null) throw unsupported('a correlated condition other than an equality below an aggregate');
    const key = exprKey(split.inner);
    let keyIdx = keys.findIndex((existing) => exprKey(existing) === key);
    if (keyIdx < 0) {
      keyIdx = keys.length;
      keys.push(split.inner);
      keyNames.push(`__corr_${keyIdx}`);
    }
    pairs.push({ key: keyIdx, outer: split.outer, eq: split.eq });
  }
  const grouped = makeAggregate(below.plan, keys, agg.aggregates, keyNames);
  // Back to the aggregate's own column order (keys, aggregates), the new keys after it.
  const oldKeys = agg.groupKeys.length;
  const newKeys = keys.length;
  const order = [
    ...Array.from({ length: oldKeys }, (_v, idx) => idx),
    ...agg.aggregates.map((_spec, idx) => newKeys + idx),
    ...Array.from({ length: newKeys - oldKeys }, (_v, idx) => oldKeys + idx),
  ];
  const inverse = new Map(order.map((from, to) => [from, to]));
  const plan = makeColumnProject({ ...grouped, schema: grouped.schema.map((col, idx) => (idx < oldKeys ? { ...agg.schema[idx] } : idx >= newKeys ? agg.schema[idx - newKeys + oldKeys] : col)) }, order);
  const preds = pairs.map((pair): BoundExpr => ({ ...pair.eq, args: [{ kind: 'column', index: inverse.get(pair.key)!, type: keys[pair.key].type, name: keyNames[pair.key] }, pair.outer] }));
  let regrouped: RegroupedAggregate | null = null;
  if (agg.groupKeys.length === 0) {
    // A global aggregate on no rows gives one row: COUNT 0, the others NULL. The new keys have no such value.
    regrouped = { emptyColumns: [...agg.aggregates.map((spec) => literal(spec.type, spec.name === 'count' ? 0 : null)), ...keys.map(() => null)] };
  }
  return { plan, preds, regrouped };
}

/** `expr` over a regrouped aggregate's output, as on no input rows; null when some column it reads is unknown. */
function valueOnNoRows(expr: BoundExpr, emptyColumns: readonly (BoundExpr | null)[]): BoundExpr | null {
  let known = true;
  const value = substituteColumns(expr, (index) => {
    const empty = emptyColumns[index] ?? null;
    if (empty === null) known = false;
    return empty ?? literal(Types.NULL, null);
  });
  return known ? value : null;
}

/** `inner = outer` (either order) where `inner` reads only columns and `outer` only outer params. */
function correlatedEquality(pred: BoundExpr, slots: Slots): { inner: BoundExpr; outer: BoundExpr; eq: BoundExpr & { kind: 'call' } } | null {
  if (pred.kind !== 'call' || pred.name !== 'eq' || pred.args.length !== 2) return null;
  const [first, second] = pred.args;
  const innerOnly = (expr: BoundExpr): boolean => !readsSlots(expr, slots) && collectColumns(expr).size > 0;
  const outerOnly = (expr: BoundExpr): boolean => readsSlots(expr, slots) && collectColumns(expr).size === 0;
  if (innerOnly(first) && outerOnly(second)) return { inner: first, outer: second, eq: pred };
  if (innerOnly(second) && outerOnly(first)) return { inner: second, outer: first, eq: { ...pred, args: [second, first] } };
  return null;
}

/** The apply as a join with the same output columns (input ++ the subquery's value or mark). */
function decorrelate(apply: LogicalApply): LogicalPlan {
  const slots: Slots = new Map(apply.correlation.map((corr) => [corr.slot, corr.expr]));
  let subquery = apply.subquery;
  // EXISTS (... LIMIT n), n >= 1: the limit does not change whether a row exists.
  while (apply.mode === 'exists' && (subquery.kind === 'limit' || subquery.kind === 'sort') && (subquery.kind === 'sort' || (subquery.offset === 0 && (subquery.limit ?? 1) >= 1))) subquery = subquery.input;
  const pulled = pull(subquery, slots);
  if (planReadsSlots(pulled.plan, slots)) throw unsupported('an outer column outside its WHERE conditions');
  if (pulled.preds.length === 0) throw unsupported('an outer column outside its WHERE conditions');
  if (pulled.regrouped !== null && apply.mode !== 'scalar') throw unsupported('an aggregate without GROUP BY under EXISTS or IN');
  const width = apply.input.schema.length;
  // Over input ++ subquery: outer params become the outer expressions, subquery columns shift right.
  const toPair = (pred: BoundExpr): BoundExpr =>
    transformExpr(
      remapColumns(pred, (index) => index + width),
      (node) => (node.kind === 'param' && slots.has(node.index) ? slots.get(node.index)! : node),
    );
  const condition = combineConjuncts(pulled.preds.map(toPair));
  const valueColumn: BoundExpr = { kind: 'column', index: width, type: pulled.plan.schema[0]?.type ?? Types.BOOLEAN, name: pulled.plan.schema[0]?.name ?? 'value' };
  if (apply.mode === 'exists' || apply.mode === 'in') {
    const markCondition: BoundExpr | null = apply.mode === 'in' ? { kind: 'call', name: 'eq', args: [apply.operand!, valueColumn], type: Types.BOOLEAN } : null;
    const join = makeJoin('left_mark', apply.input, pulled.plan, condition, undefined, { markCondition });
    return { ...join, schema: apply.schema };
  }
  const join = makeJoin('left', apply.input, pulled.plan, condition, undefined, pulled.regrouped === null ? { assertOneMatch: apply.sourceText } : {});
  let value: BoundExpr = valueColumn;
  if (pulled.regrouped !== null) {
    const empty = pulled.regrouped.emptyColumns[0] ?? null;
    if (empty === null) throw unsupported('a computed value over its aggregate');
    if (!(empty.kind === 'literal' && empty.value === null)) {
      // An outer row with no group: the join key (an equality that held) is NULL exactly then.
      const marker = [...collectColumns(pulled.preds[0])][0];
      const matchedKey: BoundExpr = { kind: 'column', index: width + marker, type: pulled.plan.schema[marker].type, name: pulled.plan.schema[marker].name };
      value = { kind: 'case', whens: [{ when: { kind: 'isnull', operand: matchedKey, negated: false, type: Types.BOOLEAN }, then: castLiteral(empty, valueColumn) }], elseExpr: valueColumn, type: valueColumn.type };
    }
  }
  const exprs: BoundExpr[] = [...apply.input.schema.map((_col, idx) => column(join, idx)), value];
  return makeProject(join, exprs, apply.schema);
}

function castLiteral(value: BoundExpr, like: BoundExpr): BoundExpr {
  return typesEqual(value.type, like.type) ? value : { kind: 'cast', operand: value, type: like.type };
}

function isNullable(expr: BoundExpr, schema: readonly PlanColumn[]): boolean {
  if (expr.kind === 'column') return schema[expr.index].nullable;
  if (expr.kind === 'literal') return expr.value === null;
  if (expr.kind === 'cast') return isNullable(expr.operand, schema);
  return true;
}

/**
 * Filter conjuncts `mark` / `NOT mark` over a mark join become a semi / anti join under the remaining
 * conjuncts; returns a plan with the filter's output columns (the consumed mark becomes a constant).
 */
function markFilterToJoin(conjuncts: readonly BoundExpr[], input: LogicalPlan): LogicalPlan {
  if (input.kind !== 'join' || input.joinType !== 'left_mark') return conjuncts.length === 0 ? input : makeFilter(input, combineConjuncts(conjuncts)!);
  const markIndex = input.left.schema.length;
  const usesMark = (expr: BoundExpr): boolean => collectColumns(expr).has(markIndex);
  const markConjuncts = conjuncts.filter(usesMark);
  const isMark = (expr: BoundExpr): boolean => expr.kind === 'column' && expr.index === markIndex;
  const negatedMark = (expr: BoundExpr): boolean => expr.kind === 'not' && isMark(expr.args[0]);
  if (markConjuncts.length !== 1 || !(isMark(markConjuncts[0]) || negatedMark(markConjuncts[0]))) return makeFilter(input, combineConjuncts(conjuncts)!);
  const anti = negatedMark(markConjuncts[0]);
  const left = markFilterToJoin(conjuncts.filter((conjunct) => !usesMark(conjunct)), input.left);
  const keys = { left: [...input.leftKeys], right: [...input.rightKeys] };
  const mark = input.markCondition ?? null;
  let join: LogicalJoin;
  if (mark === null || !anti) {
    join = makeJoin(anti ? 'left_anti' : 'left_semi', left, input.right, combineConjuncts([...(input.condition ? [input.condition] : []), ...(mark ? [mark] : [])]), keys);
  } else {
    const pairSchema = [...input.left.schema, ...input.right.schema];
    const nullable = mark.kind !== 'call' || mark.args.some((arg) => isNullable(arg, pairSchema));
    join = nullable
      ? makeJoin('null_aware_left_anti', left, input.right, input.condition, keys, { markCondition: mark })
      : makeJoin('left_anti', left, input.right, combineConjuncts([...(input.condition ? [input.condition] : []), mark]), keys);
  }
  const markValue = literal(Types.BOOLEAN, anti ? 0 : 1);
  return makeProject(join, [...left.schema.map((_col, idx) => column(join, idx)), markValue], input.schema);
}

export const applyToJoin: OptimizerRule = {
  name: 'apply_to_join',
  rewrite(plan) {
    const out = transformPlan(plan, (node) => {
      if (node.kind === 'apply') return decorrelate(node);
      if (node.kind === 'filter' && node.input.kind === 'join' && node.input.joinType === 'left_mark') return markFilterToJoin(splitConjuncts(node.predicate), node.input);
      return node;
    });
    return fingerprintResult(plan, out);
  },
};
