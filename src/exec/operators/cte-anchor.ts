/**
 * CTEs computed once (sql/binder.ts decides: a CTE referenced more than inline_cte_referenced_threshold
 * times): CteAnchor runs each producer to completion, keeps its batches (counted against the statement's
 * exec_mem_limit) for the WorkTableScan leaves that reference it, then streams the body.
 */
import { batchBytes, type Batch } from '../../common/column';
import type { CteAnchorNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

export async function* openCteAnchor(node: CteAnchorNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  let reserved = 0;
  try {
    for (let cteIdx = 0; cteIdx < node.ctes.length; cteIdx++) {
      const rows: Batch[] = [];
      for await (const batch of inputs[cteIdx]) {
        const bytes = batchBytes(batch);
        rt.ctx.task.reserve(bytes);
        reserved += bytes;
        rows.push(batch);
      }
      rt.workTables.set(node.ctes[cteIdx].id, rows);
    }
    yield* inputs[node.ctes.length];
  } finally {
    for (const cte of node.ctes) rt.workTables.delete(cte.id);
    rt.ctx.task.release(reserved);
  }
}

export function explainCteAnchor(node: CteAnchorNode): string[] {
  return [`computed once: ${node.ctes.map((cte) => `${cte.name} (work table ${cte.id})`).join(', ')}`];
}
