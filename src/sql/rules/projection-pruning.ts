/**
 * Projection pruning: every operator keeps only the columns something above it reads, so a scan asks
 * storage for exactly the columns the query needs (none for COUNT(*): its batches then carry only a row
 * count). Works top-down with the set of required output columns, rebuilding each node and remapping the
 * column indices of its expressions; the root keeps all its columns.
 */
import type { BoundExpr } from '../../exec/bound-expr';
import { collectColumns, remapColumns } from '../../exec/plan/bound-expr-utils';
import { JOIN_SHAPES } from '../../exec/plan/join-types';
import type { LogicalPlan } from '../logical-plan';
import { fingerprintResult, type OptimizerRule } from './optimizer-rule';

interface Pruned {
  readonly plan: LogicalPlan;
  /** Old output index -> new output index (-1 when dropped). */
  readonly map: Int32Array;
}

function identity(width: number): Int32Array {
  const map = new Int32Array(width);
  for (let colIdx = 0; colIdx < width; colIdx++) map[colIdx] = colIdx;
  return map;
}

function usedBy(exprs: readonly BoundExpr[], into: Set<number>): Set<number> {
  for (const expr of exprs) collectColumns(expr, into);
  return into;
}

function remapWith(map: Int32Array): (expr: BoundExpr) => BoundExpr {
  return (expr) => remapColumns(expr, (index) => map[index]);
}

function all(width: number): Set<number> {
  return new Set(Array.from({ length: width }, (_v, idx) => idx));
}

function prune(plan: LogicalPlan, required: Set<number>): Pruned {
  switch (plan.kind) {
    case 'scan': {
      const keep = plan.columns.map((_name, idx) => idx).filter((idx) => required.has(idx));
      if (keep.length === plan.columns.length) return { plan, map: identity(plan.columns.length) };
      const map = new Int32Array(plan.columns.length).fill(-1);
      keep.forEach((oldIdx, newIdx) => (map[oldIdx] = newIdx));
      return { plan: { ...plan, columns: keep.map((idx) => plan.columns[idx]), schema: keep.map((idx) => plan.schema[idx]) }, map };
    }
    case 'values':
      return { plan, map: identity(plan.schema.length) };
    case 'filter': {
      const child = prune(plan.input, usedBy([plan.predicate], new Set(required)));
      return { plan: { ...plan, input: child.plan, predicate: remapWith(child.map)(plan.predicate), schema: child.plan.schema }, map: child.map };
    }
    case 'project': {
      const keep = plan.exprs.map((_expr, idx) => idx).filter((idx) => required.has(idx));
      const exprs = keep.map((idx) => plan.exprs[idx]);
      const child = prune(plan.input, usedBy(exprs, new Set()));
      const map = new Int32Array(plan.exprs.length).fill(-1);
      keep.forEach((oldIdx, newIdx) => (map[oldIdx] = newIdx));
      return { plan: { ...plan, input: child.plan, exprs: exprs.map(remapWith(child.map)), schema: keep.map((idx) => plan.schema[idx]) }, map };
    }
    case 'aggregate': {
      const keyCount = plan.groupKeys.length;
      const keepAggs = plan.aggregates.map((_agg, idx) => idx).filter((idx) => required.has(keyCount + idx));
      const aggregates = keepAggs.map((idx) => plan.aggregates[idx]);
      const child = prune(plan.input, usedBy([...plan.groupKeys, ...aggregates.flatMap((agg) => agg.args)], new Set()));
      const remap = remapWith(child.map);
      const map = new Int32Array(plan.schema.length).fill(-1);
      for (let keyIdx = 0; keyIdx < keyCount; keyIdx++) map[keyIdx] = keyIdx;
      keepAggs.forEach((oldIdx, newIdx) => (map[keyCount + oldIdx] = keyCount + newIdx));
      return {
        plan: {
          ...plan,
          input: child.plan,
          groupKeys: plan.groupKeys.map(remap),
          aggregates: aggregates.map((agg) => ({ ...agg, args: agg.args.map(remap) })),
          schema: [...plan.schema.slice(0, keyCount), ...keepAggs.map((idx) => plan.schema[keyCount + idx])],
        },
        map,
      };
    }
    case 'sort':
    case 'topn': {
      const child = prune(plan.input, usedBy(plan.keys.map((key) => key.expr), new Set(required)));
      const remap = remapWith(child.map);
      return { plan: { ...plan, input: child.plan, keys: plan.keys.map((key) => ({ ...key, expr: remap(key.expr) })), schema: child.plan.schema }, map: child.map };
    }
    case 'limit': {
      const child = prune(plan.input, required);
      return { plan: { ...plan, input: child.plan, schema: child.plan.schema }, map: child.map };
    }
    case 'join': {
      const shape = JOIN_SHAPES[plan.joinType];
      const leftCount = plan.left.schema.length;
      const rightCount = plan.right.schema.length;
      // Output index -> index over left ++ right (-1: the mark column).
      const outputToPair = (index: number): number => {
        if (shape.left && index < leftCount) return index;
        const rightIdx = index - (shape.left ? leftCount : 0);
        return shape.right && rightIdx < rightCount ? rightIdx + leftCount : -1;
      };
      const needed = usedBy([...(plan.condition ? [plan.condition] : []), ...(plan.markCondition ? [plan.markCondition] : [])], new Set());
      for (const index of required) {
        const pairIdx = outputToPair(index);
        if (pairIdx >= 0) needed.add(pairIdx);
      }
      const leftNeed = usedBy(plan.leftKeys, new Set([...needed].filter((idx) => idx < leftCount)));
      const rightNeed = usedBy(plan.rightKeys, new Set([...needed].filter((idx) => idx >= leftCount).map((idx) => idx - leftCount)));
      const left = prune(plan.left, leftNeed);
      const right = prune(plan.right, rightNeed);
      const newLeftCount = left.plan.schema.length;
      const pairMap = new Int32Array(leftCount + rightCount).fill(-1);
      for (let idx = 0; idx < leftCount; idx++) pairMap[idx] = left.map[idx];
      for (let idx = 0; idx < rightCount; idx++) pairMap[leftCount + idx] = right.map[idx] < 0 ? -1 : right.map[idx] + newLeftCount;
      const map = new Int32Array(plan.schema.length).fill(-1);
      const outputStart = shape.left ? 0 : newLeftCount;
      for (let idx = 0; idx < plan.schema.length; idx++) {
        const pairIdx = outputToPair(idx);
        map[idx] = pairIdx < 0 ? -1 : pairMap[pairIdx] < 0 ? -1 : pairMap[pairIdx] - outputStart;
      }
      const newWidth = (shape.left ? newLeftCount : 0) + (shape.right ? right.plan.schema.length : 0);
      if (shape.mark) map[plan.schema.length - 1] = newWidth;
      const schema = plan.schema.filter((_column, idx) => map[idx] >= 0);
      return {
        plan: {
          ...plan,
          left: left.plan,
          right: right.plan,
          leftKeys: plan.leftKeys.map(remapWith(left.map)),
          rightKeys: plan.rightKeys.map(remapWith(right.map)),
          condition: plan.condition ? remapWith(pairMap)(plan.condition) : null,
          ...(plan.markCondition ? { markCondition: remapWith(pairMap)(plan.markCondition) } : {}),
          schema,
        },
        map,
      };
    }
    case 'apply': {
      // Normally rewritten into a join before this rule: keep the input whole.
      const width = plan.input.schema.length;
      const input = prune(plan.input, all(width)).plan;
      const subquery = prune(plan.subquery, all(plan.subquery.schema.length)).plan;
      return { plan: { ...plan, input, subquery }, map: identity(plan.schema.length) };
    }
    case 'window': {
      // Functions nobody reads are dropped (with them the whole node, when none is left).
      const width = plan.input.schema.length;
      const keepFns = plan.functions.map((_spec, idx) => idx).filter((idx) => required.has(width + idx));
      const functions = keepFns.map((idx) => plan.functions[idx]);
      const inputNeed = new Set([...required].filter((idx) => idx < width));
      if (functions.length === 0) return prune(plan.input, inputNeed);
      const child = prune(plan.input, usedBy([...plan.partitionBy, ...plan.orderBy.map((key) => key.expr), ...functions.flatMap((spec) => spec.args)], inputNeed));
      const remap = remapWith(child.map);
      const newWidth = child.plan.schema.length;
      const map = new Int32Array(plan.schema.length).fill(-1);
      for (let idx = 0; idx < width; idx++) map[idx] = child.map[idx];
      keepFns.forEach((oldIdx, newIdx) => (map[width + oldIdx] = newWidth + newIdx));
      return {
        plan: {
          ...plan,
          input: child.plan,
          partitionBy: plan.partitionBy.map(remap),
          orderBy: plan.orderBy.map((key) => ({ ...key, expr: remap(key.expr) })),
          functions: functions.map((spec) => ({ ...spec, args: spec.args.map(remap) })),
          schema: [...child.plan.schema, ...keepFns.map((idx) => plan.schema[width + idx])],
        },
        map,
      };
    }
    case 'generate': {
      // Every generated column is kept (the function makes them together); the input keeps what is read.
      const width = plan.input.schema.length;
      const child = prune(plan.input, usedBy(plan.args, new Set([...required].filter((idx) => idx < width))));
      const newWidth = child.plan.schema.length;
      const map = new Int32Array(plan.schema.length).fill(-1);
      for (let idx = 0; idx < width; idx++) map[idx] = child.map[idx];
      for (let idx = width; idx < plan.schema.length; idx++) map[idx] = newWidth + idx - width;
      return { plan: { ...plan, input: child.plan, args: plan.args.map(remapWith(child.map)), schema: [...child.plan.schema, ...plan.schema.slice(width)] }, map };
    }
    case 'union': {
      const inputs = plan.inputs.map((input) => prune(input, all(input.schema.length)).plan);
      return { plan: { ...plan, inputs }, map: identity(plan.schema.length) };
    }
    case 'recursiveCte': {
      // Every round reads the previous round's whole rows: both parts keep all their columns.
      const anchor = prune(plan.anchor, all(plan.anchor.schema.length)).plan;
      const recursive = prune(plan.recursive, all(plan.recursive.schema.length)).plan;
      return { plan: { ...plan, anchor, recursive }, map: identity(plan.schema.length) };
    }
    case 'workTable':
      return { plan, map: identity(plan.schema.length) };
    case 'cteAnchor': {
      // Producers keep every column (each reference reads its own); the body is pruned as asked.
      const producers = plan.producers.map((producer) => ({ ...producer, plan: prune(producer.plan, all(producer.plan.schema.length)).plan }));
      const body = prune(plan.body, required);
      return { plan: { ...plan, producers, body: body.plan, schema: body.plan.schema }, map: body.map };
    }
  }
}

export const projectionPruning: OptimizerRule = {
  name: 'projection_pruning',
  rewrite(plan) {
    const out = prune(plan, all(plan.schema.length)).plan;
    return fingerprintResult(plan, out);
  },
};
