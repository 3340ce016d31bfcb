/**
 * Filter: keeps the rows whose predicate is TRUE (SQL three-valued logic: NULL and FALSE drop the row)
 * through a selection vector (selectTrue) and takeRows. Batches that pass whole are forwarded untouched.
 * Over a large table scan the plan-fragments pass replaces it by a SCAN FRAGMENT (scan-fragment.ts),
 * which runs the same predicate in the scan workers.
 */
import { selectRows, type Batch } from '../../common/column';
import type { BoundExpr } from '../bound-expr';
import { compileExpr, selectTrue } from '../expr';
import { exprToString } from '../plan/bound-expr-utils';
import type { FilterNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

/** The rows of `input` where `predicate` is TRUE (also a scan fragment's in-thread path). */
export async function* filterBatches(input: AsyncIterable<Batch>, predicate: BoundExpr, rt: OperatorRuntime): AsyncIterable<Batch> {
  // The mask is consumed by selectTrue before the next batch: its kernels may reuse their buffers.
  const compiled = compileExpr(rt.resolve(predicate), { reuseBuffers: true });
  let selection: Int32Array = new Int32Array(0);
  for await (const batch of input) {
    if (selection.length < batch.length) selection = new Int32Array(batch.length);
    const { rowIds, count } = selectTrue(compiled(batch, rt.ctx), selection);
    if (count === 0) continue;
    yield count === batch.length ? batch : selectRows(batch, rowIds, count);
  }
}

export function openFilter(node: FilterNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  return filterBatches(inputs[0], node.predicate, rt);
}

export function explainFilter(node: FilterNode): string[] {
  return [`predicate: ${exprToString(node.predicate)}`];
}
