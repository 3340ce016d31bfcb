/**
 * Doris's SumLiteralRewrite: SUM(x + c), SUM(c + x) and SUM(x - c) over an integer or DECIMAL x become
 * SUM(x) + c * COUNT(x) (and SUM(x) - c * COUNT(x)), so that many sums over one expression (ClickBench
 * q30: 90 `SUM(ResolutionWidth + k)`) compute one SUM and one COUNT. Exact: both sides are NULL when no x
 * is non-NULL, and integer / decimal addition is associative (a float sum's rounding is not, so floats stay).
 * Applied only when an aggregate holds two or more sums over the same x (with one sum the rewrite adds a
 * COUNT and saves nothing). The aggregate's output keeps its columns and types: a Project above computes
 * the rewritten ones from the new aggregate's columns.
 */
import type { DataType } from '../../common/types';
import { typesEqual } from '../../common/types';
import type { BoundExpr } from '../../exec/bound-expr';
import { resolveAggregate, resolveFunction } from '../../exec/expr';
import { integerRank } from '../../exec/expr/type-rules';
import { exprKey } from '../../exec/plan/bound-expr-utils';
import type { AggregateSpec } from '../../exec/plan/physical-plan';
import { transformPlan, type LogicalAggregate, type LogicalPlan } from '../logical-plan';
import type { OptimizerRule } from './optimizer-rule';

/** SUM(x op c) taken apart, or null when the aggregate is not of that shape. */
interface SumOfLiteral {
  readonly operand: BoundExpr;
  readonly op: 'add' | 'subtract';
  readonly constant: BoundExpr;
}

function exactNumeric(type: DataType): boolean {
  return (integerRank(type) >= 0 && type.name !== 'BOOLEAN') || type.name === 'DECIMAL';
}

function sumOfLiteral(agg: AggregateSpec): SumOfLiteral | null {
  if (agg.name !== 'sum' || agg.distinct || (agg.order?.length ?? 0) > 0 || agg.args.length !== 1) return null;
  const arg = agg.args[0];
  if (arg.kind !== 'call' || (arg.name !== 'add' && arg.name !== 'subtract') || arg.args.length !== 2 || !exactNumeric(arg.type)) return null;
  const [left, right] = arg.args;
  const isConstant = (expr: BoundExpr): boolean => expr.kind === 'literal' && expr.value !== null;
  if (isConstant(right) && !isConstant(left) && exactNumeric(left.type)) return { operand: left, op: arg.name, constant: right };
  if (arg.name === 'add' && isConstant(left) && !isConstant(right) && exactNumeric(right.type)) return { operand: right, op: 'add', constant: left };
  return null;
}

function cast(expr: BoundExpr, type: DataType): BoundExpr {
  return typesEqual(expr.type, type) ? expr : { kind: 'cast', operand: expr, type };
}

function call(name: string, args: readonly BoundExpr[]): BoundExpr {
  const resolved = resolveFunction(name, args.map((arg) => arg.type));
  return { kind: 'call', name: resolved.name, args: args.map((arg, argIdx) => cast(arg, resolved.argTypes[argIdx] ?? arg.type)), type: resolved.returnType };
}

function aggregateOf(name: 'sum' | 'count', operand: BoundExpr): AggregateSpec {
  const resolved = resolveAggregate(name, [operand.type], false);
  const args = [cast(operand, resolved.argTypes[0] ?? operand.type)];
  return { name: resolved.name, args, argTypes: args.map((arg) => arg.type), distinct: false, type: resolved.returnType };
}

function rewriteAggregate(node: LogicalAggregate): LogicalPlan | null {
  const parts = node.aggregates.map(sumOfLiteral);
  const perOperand = new Map<string, number>();
  for (const part of parts) if (part !== null) perOperand.set(exprKey(part.operand), (perOperand.get(exprKey(part.operand)) ?? 0) + 1);
  const rewritten = parts.map((part) => (part !== null && perOperand.get(exprKey(part.operand))! >= 2 ? part : null));
  if (rewritten.every((part) => part === null)) return null;
  const groupWidth = node.groupKeys.length;
  const aggregates: AggregateSpec[] = [];
  const positions = new Map<string, number>();
  // The new aggregate's column of a call, adding the call the first time it is asked for.
  const columnOf = (agg: AggregateSpec): BoundExpr => {
    const key = `${agg.name}(${agg.args.map(exprKey).join(',')})`;
    let position = positions.get(key);
    if (position === undefined) {
      position = aggregates.length;
      aggregates.push(agg);
      positions.set(key, position);
    }
    return { kind: 'column', index: groupWidth + position, type: agg.type, name: `${agg.name}#${position}` };
  };
  const outputs = node.aggregates.map((agg, aggIdx) => {
    const part = rewritten[aggIdx];
    if (part === null) {
      // Kept as it is (never merged with an equal call: that one may be a rewritten sum's SUM(x)).
      const position = aggregates.push(agg) - 1;
      return { kind: 'column', index: groupWidth + position, type: agg.type, name: `${agg.name}#${position}` } as BoundExpr;
    }
    const sum = columnOf(aggregateOf('sum', part.operand));
    const count = columnOf(aggregateOf('count', part.operand));
    return cast(call(part.op, [sum, call('multiply', [part.constant, count])]), agg.type);
  });
  const schema = [...node.schema.slice(0, groupWidth), ...aggregates.map((agg, aggIdx) => ({ name: `${agg.name}#${aggIdx}`, type: agg.type, nullable: true }))];
  const keys: BoundExpr[] = node.schema.slice(0, groupWidth).map((column, keyIdx) => ({ kind: 'column', index: keyIdx, type: column.type, name: column.name }));
  return { kind: 'project', input: { ...node, aggregates, schema }, exprs: [...keys, ...outputs], schema: node.schema };
}

export const sumLiteralRewrite: OptimizerRule = {
  name: 'sum_literal_rewrite',
  rewrite(plan) {
    let changed = false;
    const out = transformPlan(plan, (node): LogicalPlan => {
      if (node.kind !== 'aggregate') return node;
      const replaced = rewriteAggregate(node);
      if (replaced === null) return node;
      changed = true;
      return replaced;
    });
    return { plan: out, changed };
  },
};
