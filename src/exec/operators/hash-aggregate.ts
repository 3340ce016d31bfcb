/**
 * HashAggregate: GROUP BY keys -> dense group ids (group-key-table.ts) -> one AggregateAccumulator per
 * aggregate call, updated once per batch with the batch's group id array. Output columns are the group
 * keys then the aggregates. Without GROUP BY there is exactly one group, even over zero input rows
 * (COUNT(*) of an empty table is 0). Also plans DISTINCT (keys only, no aggregates).
 */
import { BATCH_SIZE, sliceVector, type Batch, type Vector } from '../../common/column';
import type { BoundExpr } from '../bound-expr';
import { resolveAggregate } from '../expr';
import { exprToString } from '../plan/bound-expr-utils';
import type { AggregateSpec, PlanNodeBase } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { createGroupKeyTable } from './group-key-table';

export interface HashAggregateNode extends PlanNodeBase {
  readonly kind: 'HashAggregate';
  readonly groupKeys: readonly BoundExpr[];
  readonly aggregates: readonly AggregateSpec[];
}

export async function* openHashAggregate(node: HashAggregateNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const keyFns = node.groupKeys.map((expr) => rt.compile(expr));
  const accumulators = node.aggregates.map((spec) => resolveAggregate(spec.name, spec.argTypes, spec.distinct).create());
  const argFns = node.aggregates.map((spec) => spec.args.map((expr) => rt.compile(expr)));
  const table = createGroupKeyTable(node.groupKeys.map((expr) => expr.type));
  let groupIds = new Int32Array(BATCH_SIZE);
  for await (const batch of inputs[0]) {
    const rowCount = batch.length;
    if (rowCount === 0) continue;
    if (groupIds.length < rowCount) groupIds = new Int32Array(rowCount);
    const keys = keyFns.map((fn) => fn(batch, rt.ctx));
    table.assign(keys, rowCount, groupIds);
    for (let aggIdx = 0; aggIdx < accumulators.length; aggIdx++) {
      const args = argFns[aggIdx].map((fn) => fn(batch, rt.ctx));
      accumulators[aggIdx].resize(table.groupCount);
      accumulators[aggIdx].update(groupIds, args, rowCount);
    }
  }
  const groupCount = table.groupCount;
  if (groupCount === 0) return;
  const columns: Vector[] = table.finishKeys();
  for (const accumulator of accumulators) {
    accumulator.resize(groupCount);
    columns.push(accumulator.finalize(groupCount));
  }
  for (let start = 0; start < groupCount; start += BATCH_SIZE) {
    const end = Math.min(groupCount, start + BATCH_SIZE);
    yield { length: end - start, columns: start === 0 && end === groupCount ? columns : columns.map((vec) => sliceVector(vec, start, end)) };
  }
}

export function aggregateToString(spec: AggregateSpec): string {
  return `${spec.name}(${spec.distinct ? 'DISTINCT ' : ''}${spec.args.length === 0 ? '*' : spec.args.map(exprToString).join(', ')})`;
}

export function explainHashAggregate(node: HashAggregateNode): string[] {
  const lines: string[] = [];
  if (node.groupKeys.length > 0) lines.push(`group by: ${node.groupKeys.map(exprToString).join(', ')}`);
  if (node.aggregates.length > 0) lines.push(`aggregates: ${node.aggregates.map(aggregateToString).join(', ')}`);
  if (lines.length === 0) lines.push('group by: (none)');
  return lines;
}
