/**
 * TopN: ORDER BY ... LIMIT n [OFFSET m] without sorting everything. Keeps a buffer of candidate rows; when it
 * grows past twice the rows needed (at least one batch), it is sorted and cut back to offset + limit rows,
 * so memory stays bounded by the limit rather than the input.
 */
import { BATCH_SIZE, batchBytes, selectRows, type Batch } from '../../common/column';
import type { TopNNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { compileSortKeys, concatBatches, emitPermuted, sortPermutationSliced } from './sort-permutation';
import { sortKeyToString } from './sort';

export async function* openTopN(node: TopNNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const keep = node.limit + node.offset;
  if (node.limit <= 0) return;
  const compiled = compileSortKeys(node.keys, rt);
  const threshold = Math.max(keep, BATCH_SIZE) * 2;
  const task = rt.ctx.task;
  const checkpoint = (): Promise<void> | undefined => task.checkpoint();
  let buffer: Batch[] = [];
  let buffered = 0;
  // What the buffer holds is reserved against exec_mem_limit (a large OFFSET keeps many rows).
  let heldBytes = 0;
  const hold = (bytes: number): void => {
    task.reserve(bytes);
    heldBytes += bytes;
  };
  const compact = async (): Promise<Batch> => {
    const all = concatBatches(buffer, node.output.length);
    const perm = await sortPermutationSliced(all, node.keys, compiled, checkpoint);
    const count = Math.min(keep, all.length);
    return selectRows(all, perm, count);
  };
  try {
    for await (const batch of inputs[0]) {
      if (batch.length === 0) continue;
      buffer.push(batch);
      buffered += batch.length;
      hold(batchBytes(batch));
      if (buffered > threshold) {
        const kept = await compact();
        buffer = [kept];
        buffered = kept.length;
        task.release(heldBytes);
        heldBytes = 0;
        hold(batchBytes(kept));
      }
    }
    if (buffered === 0) return;
    const all = concatBatches(buffer, node.output.length);
    const perm = await sortPermutationSliced(all, node.keys, compiled, checkpoint);
    yield* emitPermuted(all, perm, Math.min(node.offset, all.length), Math.min(keep, all.length));
  } finally {
    task.release(heldBytes);
  }
}

export function explainTopN(node: TopNNode): string[] {
  return [`order by: ${node.keys.map(sortKeyToString).join(', ')}`, `limit: ${node.limit}`, ...(node.offset > 0 ? [`offset: ${node.offset}`] : [])];
}
