/**
 * Sort: materializes its input, then emits it in key order (multi-key, ASC/DESC, NULLS FIRST/LAST; stable).
 * Doris defaults: NULLS FIRST for ASC, NULLS LAST for DESC (decided by the binder, stored in the keys).
 */
import type { Batch } from '../../common/column';
import { exprToString } from '../plan/bound-expr-utils';
import type { SortKey, SortNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { batchBytes } from '../../common/column';
import { compileSortKeys, concatBatches, emitPermuted, sortPermutationSliced } from './sort-permutation';

export async function* openSort(node: SortNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const task = rt.ctx.task;
  const batches: Batch[] = [];
  let heldBytes = 0;
  try {
    for await (const batch of inputs[0]) {
      if (batch.length === 0) continue;
      batches.push(batch);
      const bytes = batchBytes(batch);
      heldBytes += bytes;
      task.reserve(bytes);
    }
    if (batches.length === 0) return;
    const all = concatBatches(batches, node.output.length);
    batches.length = 0;
    const perm = await sortPermutationSliced(all, node.keys, compileSortKeys(node.keys, rt), () => task.checkpoint());
    yield* emitPermuted(all, perm, 0, all.length);
  } finally {
    task.release(heldBytes);
  }
}

export function sortKeyToString(key: SortKey): string {
  return `${exprToString(key.expr)} ${key.descending ? 'DESC' : 'ASC'} NULLS ${key.nullsFirst ? 'FIRST' : 'LAST'}`;
}

export function explainSort(node: SortNode): string[] {
  return [`order by: ${node.keys.map(sortKeyToString).join(', ')}`];
}
