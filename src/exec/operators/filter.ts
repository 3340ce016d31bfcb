/**
 * Filter: keeps the rows whose predicate is TRUE (SQL three-valued logic: NULL and FALSE drop the row)
 * through a selection vector (selectTrue) and takeRows. Batches that pass whole are forwarded untouched.
 */
import { takeRows, type Batch } from '../../common/column';
import type { BoundExpr } from '../bound-expr';
import { selectTrue } from '../expr';
import { exprToString } from '../plan/bound-expr-utils';
import type { PlanNodeBase } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

export interface FilterNode extends PlanNodeBase {
  readonly kind: 'Filter';
  readonly predicate: BoundExpr;
}

/** Rows of a batch picked by a selection vector. */
export function selectRows(batch: Batch, rowIds: Int32Array, count: number): Batch {
  return { length: count, columns: batch.columns.map((vec) => takeRows(vec, rowIds, count)) };
}

export async function* openFilter(node: FilterNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const predicate = rt.compile(node.predicate);
  for await (const batch of inputs[0]) {
    const mask = predicate(batch, rt.ctx);
    const { rowIds, count } = selectTrue(mask);
    if (count === 0) continue;
    yield count === batch.length ? batch : selectRows(batch, rowIds, count);
  }
}

export function explainFilter(node: FilterNode): string[] {
  return [`predicate: ${exprToString(node.predicate)}`];
}
