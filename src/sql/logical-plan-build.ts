/**
 * Constructors of logical plan nodes that compute their output schema, shared by the binder and the
 * optimizer rules. makeJoin splits an ON/WHERE condition into hash keys (`left expr = right expr`, each
 * side reading one input only) and a residual condition.
 */
import { isStringType, physicalKind, Types, typesEqual } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import { commonSuperType } from '../exec/expr';
import { collectColumns, combineConjuncts, exprToString, remapColumns, splitConjuncts } from '../exec/plan/bound-expr-utils';
import type { AggregateSpec, SortKey } from '../exec/plan/physical-plan';
import { JOIN_SHAPES } from '../exec/plan/join-types';
import { castTo } from './binder-expr';
import type { LogicalJoin, LogicalPlan, PlanColumn } from './logical-plan';

export function makeFilter(input: LogicalPlan, predicate: BoundExpr): LogicalPlan {
  return { kind: 'filter', input, predicate, schema: input.schema };
}

export function makeProject(input: LogicalPlan, exprs: readonly BoundExpr[], schema: readonly PlanColumn[]): LogicalPlan {
  return { kind: 'project', input, exprs, schema };
}

/** A Project that keeps input columns `indices` (in that order) with their names. */
export function makeColumnProject(input: LogicalPlan, indices: readonly number[]): LogicalPlan {
  return makeProject(
    input,
    indices.map((index) => ({ kind: 'column', index, type: input.schema[index].type, name: input.schema[index].name })),
    indices.map((index) => input.schema[index]),
  );
}

export function makeAggregate(input: LogicalPlan, groupKeys: readonly BoundExpr[], aggregates: readonly AggregateSpec[], keyNames: readonly string[]): LogicalPlan {
  const schema: PlanColumn[] = [
    ...groupKeys.map((key, keyIdx) => (key.kind === 'column' ? { ...input.schema[key.index], name: keyNames[keyIdx] } : { name: keyNames[keyIdx], type: key.type, nullable: true })),
    ...aggregates.map((agg, aggIdx) => ({ name: `${agg.name}#${aggIdx}`, type: agg.type, nullable: true })),
  ];
  return { kind: 'aggregate', input, groupKeys, aggregates, schema };
}

export function makeSort(input: LogicalPlan, keys: readonly SortKey[]): LogicalPlan {
  return { kind: 'sort', input, keys, schema: input.schema };
}

export function makeLimit(input: LogicalPlan, limit: number | null, offset: number): LogicalPlan {
  return { kind: 'limit', input, limit, offset, schema: input.schema };
}

function isEqCall(expr: BoundExpr): expr is BoundExpr & { kind: 'call' } {
  return expr.kind === 'call' && expr.name === 'eq' && expr.args.length === 2;
}

/** Both keys in one type whose raw values compare equal exactly when the SQL values do; null if none. */
function alignKeys(left: BoundExpr, right: BoundExpr): [BoundExpr, BoundExpr] | null {
  if (typesEqual(left.type, right.type) || (isStringType(left.type) && isStringType(right.type))) return [left, right];
  try {
    const common = commonSuperType([left.type, right.type], 'eq');
    const alignedLeft = castTo(left, common);
    const alignedRight = castTo(right, common);
    if (physicalKind(alignedLeft.type) !== physicalKind(alignedRight.type)) return null;
    return [alignedLeft, alignedRight];
  } catch {
    return null;
  }
}

/** What a join adds beyond its condition: the mark test and the scalar-subquery row check. */
export interface JoinExtras {
  readonly markCondition?: BoundExpr | null;
  readonly assertOneMatch?: string;
}

/** A join's output columns: per JOIN_SHAPES, the side whose unmatched rows get NULLs made nullable. */
export function joinSchema(joinType: LogicalJoin['joinType'], left: LogicalPlan, right: LogicalPlan): PlanColumn[] {
  const shape = JOIN_SHAPES[joinType];
  const nullable = (columns: readonly PlanColumn[]): PlanColumn[] => columns.map((column) => ({ ...column, nullable: true }));
  return [
    ...(shape.left ? (shape.keepUnmatchedRight ? nullable(left.schema) : left.schema) : []),
    ...(shape.right ? (shape.keepUnmatchedLeft ? nullable(right.schema) : right.schema) : []),
    ...(shape.mark ? [{ name: '__mark', type: Types.BOOLEAN, nullable: true }] : []),
  ];
}

/**
 * A join of `left` and `right` on `condition` (over left ++ right columns). INNER without any condition
 * becomes CROSS, CROSS with one becomes INNER.
 */
export function makeJoin(
  joinType: LogicalJoin['joinType'],
  left: LogicalPlan,
  right: LogicalPlan,
  condition: BoundExpr | null,
  baseKeys?: { left: BoundExpr[]; right: BoundExpr[] },
  extras: JoinExtras = {},
): LogicalJoin {
  const leftCount = left.schema.length;
  const leftKeys: BoundExpr[] = baseKeys ? [...baseKeys.left] : [];
  const rightKeys: BoundExpr[] = baseKeys ? [...baseKeys.right] : [];
  const rest: BoundExpr[] = [];
  for (const conjunct of condition ? splitConjuncts(condition) : []) {
    if (isEqCall(conjunct)) {
      const [first, second] = conjunct.args;
      const firstCols = [...collectColumns(first)];
      const secondCols = [...collectColumns(second)];
      const onlyLeft = (cols: number[]): boolean => cols.length > 0 && cols.every((col) => col < leftCount);
      const onlyRight = (cols: number[]): boolean => cols.length > 0 && cols.every((col) => col >= leftCount);
      let pair: [BoundExpr, BoundExpr] | null = null;
      if (onlyLeft(firstCols) && onlyRight(secondCols)) pair = [first, second];
      else if (onlyRight(firstCols) && onlyLeft(secondCols)) pair = [second, first];
      const aligned = pair ? alignKeys(pair[0], remapColumns(pair[1], (index) => index - leftCount)) : null;
      if (aligned) {
        leftKeys.push(aligned[0]);
        rightKeys.push(aligned[1]);
        continue;
      }
    }
    rest.push(conjunct);
  }
  const residual = combineConjuncts(rest);
  let type = joinType;
  if (type === 'cross' && (leftKeys.length > 0 || residual !== null)) type = 'inner';
  if (type === 'inner' && leftKeys.length === 0 && residual === null) type = 'cross';
  return {
    kind: 'join',
    joinType: type,
    left,
    right,
    leftKeys,
    rightKeys,
    condition: residual,
    ...(extras.markCondition ? { markCondition: extras.markCondition } : {}),
    ...(extras.assertOneMatch !== undefined ? { assertOneMatch: extras.assertOneMatch } : {}),
    schema: joinSchema(type, left, right),
  };
}

/** The ON condition of a join as one predicate over left ++ right (keys turned back into equalities). */
export function joinConditionParts(join: LogicalJoin): BoundExpr[] {
  const leftCount = join.left.schema.length;
  const parts: BoundExpr[] = join.leftKeys.map((key, keyIdx) => ({
    kind: 'call',
    name: 'eq',
    args: [key, remapColumns(join.rightKeys[keyIdx], (index) => index + leftCount)],
    type: Types.BOOLEAN,
  }));
  if (join.condition) parts.push(...splitConjuncts(join.condition));
  return parts;
}

export function describeKeys(keys: readonly BoundExpr[]): string {
  return keys.map(exprToString).join(', ');
}
