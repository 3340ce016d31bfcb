/** Limit: skips `offset` rows, then passes at most `limit` rows and stops pulling its input. */
import { sliceVector, type Batch } from '../../common/column';
import type { LimitNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

export function sliceBatch(batch: Batch, start: number, end: number): Batch {
  if (start === 0 && end === batch.length) return batch;
  return { length: end - start, columns: batch.columns.map((vec) => sliceVector(vec, start, end)) };
}

export async function* openLimit(node: LimitNode, inputs: readonly AsyncIterable<Batch>[], _rt: OperatorRuntime): AsyncIterable<Batch> {
  let toSkip = node.offset;
  let remaining = node.limit ?? Number.POSITIVE_INFINITY;
  if (remaining <= 0) return;
  for await (const batch of inputs[0]) {
    let start = 0;
    if (toSkip > 0) {
      start = Math.min(toSkip, batch.length);
      toSkip -= start;
      if (start === batch.length) continue;
    }
    const end = Math.min(batch.length, start + remaining);
    remaining -= end - start;
    yield sliceBatch(batch, start, end);
    if (remaining <= 0) return;
  }
}

export function explainLimit(node: LimitNode): string[] {
  return [`limit: ${node.limit ?? 'none'}`, ...(node.offset > 0 ? [`offset: ${node.offset}`] : [])];
}
