/**
 * HashAggregate: GROUP BY keys -> dense group ids (group-key-table.ts) -> one AggregateAccumulator per
 * aggregate call, updated once per batch with the batch's group id array (grouped-aggregation.ts). Output
 * columns are the group keys then the aggregates. Without GROUP BY there is exactly one group, even over
 * zero input rows (COUNT(*) of an empty table is 0). Also plans DISTINCT (keys only, no aggregates).
 *
 * A Filter directly below is fused in by fuse-operators.ts (`filter`): rows are selected, not copied.
 * Over a large table scan the plan-fragments pass moves the filter and a partial aggregate into a SCAN
 * FRAGMENT child (scan-fragment.ts) and sets `mode: 'final'`: this operator then merges the partial
 * states the fragment yields (its `partialInputs[0]`) instead of consuming rows.
 */
import { BATCH_SIZE, sliceVector, type Batch, type Vector } from '../../common/column';
import type { PartialAggregate } from '../aggregate-state';
import { compileExpr } from '../expr';
import { exprToString } from '../plan/bound-expr-utils';
import { aggregateFromMetadata } from './aggregate-from-metadata';
import type { AggregateSpec, HashAggregateNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { GroupedAggregation } from './grouped-aggregation';

export async function* openHashAggregate(
  node: HashAggregateNode,
  inputs: readonly AsyncIterable<Batch>[],
  rt: OperatorRuntime,
  partialInputs: readonly (AsyncIterable<PartialAggregate> | null)[],
): AsyncIterable<Batch> {
  const fromMetadata = await aggregateFromMetadata(node, rt);
  if (fromMetadata !== null) {
    yield fromMetadata;
    return;
  }
  const spec = { groupKeys: node.groupKeys.map(rt.resolve), aggregates: node.aggregates.map((agg) => ({ ...agg, args: agg.args.map(rt.resolve) })), filter: node.filter ? rt.resolve(node.filter) : null };
  const aggregation = new GroupedAggregation(spec, (expr, reuseBuffers) => compileExpr(rt.resolve(expr), { reuseBuffers }), rt.ctx);
  // Memory is counted per group (key table slot, keys, accumulator states): an estimate, checked against
  // exec_mem_limit as groups are added, so a GROUP BY over too many keys fails instead of exhausting memory.
  const task = rt.ctx.task;
  const bytesPerGroup = GROUP_OVERHEAD_BYTES + GROUP_KEY_BYTES * spec.groupKeys.length + AGGREGATE_STATE_BYTES * spec.aggregates.length;
  let countedBytes = 0;
  const account = (): void => {
    const bytes = aggregation.groupCount * bytesPerGroup + aggregation.stateBytes();
    if (bytes === countedBytes) return;
    task.reserve(bytes - countedBytes);
    countedBytes = bytes;
  };
  try {
    if (node.mode === 'final') {
      // The executor's stream wrapper passes the task checkpoint before each partial is merged.
      for await (const partial of partialInputs[0]!) {
        aggregation.mergePartial(partial);
        account();
      }
    } else {
      for await (const batch of inputs[0]) {
        aggregation.consume(batch);
        account();
      }
    }
    const columns = aggregation.finish();
    if (columns === null) return;
    const groupCount = columns.length > 0 ? columns[0].length : aggregation.groupCount;
    for (let start = 0; start < groupCount; start += BATCH_SIZE) {
      const end = Math.min(groupCount, start + BATCH_SIZE);
      yield { length: end - start, columns: start === 0 && end === groupCount ? columns : columns.map((vec: Vector) => sliceVector(vec, start, end)) };
    }
  } finally {
    task.release(countedBytes);
  }
}

/** Per-group memory estimate: hash slot and group id, each key value, each accumulator's state. */
const GROUP_OVERHEAD_BYTES = 32;
const GROUP_KEY_BYTES = 16;
const AGGREGATE_STATE_BYTES = 16;

export function aggregateToString(spec: AggregateSpec): string {
  return `${spec.name}(${spec.distinct ? 'DISTINCT ' : ''}${spec.args.length === 0 ? '*' : spec.args.map(exprToString).join(', ')})`;
}

export function explainHashAggregate(node: HashAggregateNode): string[] {
  const lines: string[] = [];
  if (node.mode === 'final') lines.push('mode: final (merges partial states)');
  if (node.groupKeys.length > 0) lines.push(`group by: ${node.groupKeys.map(exprToString).join(', ')}`);
  if (node.aggregates.length > 0) lines.push(`aggregates: ${node.aggregates.map(aggregateToString).join(', ')}`);
  if (node.filter) lines.push(`filter (fused): ${exprToString(node.filter)}`);
  if (lines.length === 0) lines.push('group by: (none)');
  return lines;
}
