/**
 * Filter: keeps the rows whose predicate is TRUE (SQL three-valued logic: NULL and FALSE drop the row)
 * through a selection vector (selectTrue) and takeRows. Batches that pass whole are forwarded untouched.
 * Directly over a large table scan it runs in the scan workers (parallel-operators.ts).
 */
import { selectRows, type Batch } from '../../common/column';
import type { BoundExpr } from '../bound-expr';
import { compileExpr, selectTrue } from '../expr';
import { parallelFilter } from '../parallel/parallel-operators';
import { exprToString } from '../plan/bound-expr-utils';
import type { PlanNodeBase } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

export interface FilterNode extends PlanNodeBase {
  readonly kind: 'Filter';
  readonly predicate: BoundExpr;
}

export async function* openFilter(node: FilterNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  // Over a large table scan the filter runs in the scan workers; the scan input is then never opened.
  const parallel = parallelFilter(node, rt);
  if (parallel !== null) {
    yield* parallel;
    return;
  }
  // The mask is consumed by selectTrue before the next batch: its kernels may reuse their buffers.
  const predicate = compileExpr(rt.resolve(node.predicate), { reuseBuffers: true });
  let selection: Int32Array = new Int32Array(0);
  for await (const batch of inputs[0]) {
    if (selection.length < batch.length) selection = new Int32Array(batch.length);
    const { rowIds, count } = selectTrue(predicate(batch, rt.ctx), selection);
    if (count === 0) continue;
    yield count === batch.length ? batch : selectRows(batch, rowIds, count);
  }
}

export function explainFilter(node: FilterNode): string[] {
  return [`predicate: ${exprToString(node.predicate)}`];
}
