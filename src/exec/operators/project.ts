/** Project: computes the output columns from the input batch (column references are passed through). */
import type { Batch } from '../../common/column';
import { exprToString } from '../plan/bound-expr-utils';
import type { ProjectNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

export async function* openProject(node: ProjectNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const compiled = node.exprs.map((expr) => (expr.kind === 'column' ? null : rt.compile(expr)));
  for await (const batch of inputs[0]) {
    const columns = node.exprs.map((expr, colIdx) => {
      const fn = compiled[colIdx];
      return fn === null ? batch.columns[(expr as { index: number }).index] : fn(batch, rt.ctx);
    });
    yield { length: batch.length, columns };
  }
}

export function explainProject(node: ProjectNode): string[] {
  return [`exprs: ${node.exprs.map((expr, colIdx) => `${exprToString(expr)} AS ${node.output[colIdx].name}`).join(', ')}`];
}
