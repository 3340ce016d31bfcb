/**
 * TopN: ORDER BY ... LIMIT n [OFFSET m] without sorting everything. Keeps a buffer of candidate rows; when it
 * grows past twice the rows needed (at least one batch), it is sorted and cut back to offset + limit rows,
 * so memory stays bounded by the limit rather than the input.
 */
import { BATCH_SIZE, takeRows, type Batch } from '../../common/column';
import type { PlanNodeBase, SortKey } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { compileSortKeys, concatBatches, emitPermuted, sortPermutation } from './sort-permutation';
import { sortKeyToString } from './sort';

export interface TopNNode extends PlanNodeBase {
  readonly kind: 'TopN';
  readonly keys: readonly SortKey[];
  readonly limit: number;
  readonly offset: number;
}

export async function* openTopN(node: TopNNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const keep = node.limit + node.offset;
  if (node.limit <= 0) return;
  const compiled = compileSortKeys(node.keys, rt);
  const threshold = Math.max(keep, BATCH_SIZE) * 2;
  let buffer: Batch[] = [];
  let buffered = 0;
  const compact = (): Batch => {
    const all = concatBatches(buffer, node.output.length);
    const perm = sortPermutation(all, node.keys, compiled);
    const count = Math.min(keep, all.length);
    return { length: count, columns: all.columns.map((vec) => takeRows(vec, perm, count)) };
  };
  for await (const batch of inputs[0]) {
    if (batch.length === 0) continue;
    buffer.push(batch);
    buffered += batch.length;
    if (buffered > threshold) {
      const kept = compact();
      buffer = [kept];
      buffered = kept.length;
    }
  }
  if (buffered === 0) return;
  const all = concatBatches(buffer, node.output.length);
  const perm = sortPermutation(all, node.keys, compiled);
  yield* emitPermuted(all, perm, Math.min(node.offset, all.length), Math.min(keep, all.length));
}

export function explainTopN(node: TopNNode): string[] {
  return [`order by: ${node.keys.map(sortKeyToString).join(', ')}`, `limit: ${node.limit}`, ...(node.offset > 0 ? [`offset: ${node.offset}`] : [])];
}
