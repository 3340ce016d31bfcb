/**
 * Values: constant rows (VALUES queries, SELECT without FROM, INSERT ... VALUES). Each cell is evaluated
 * once per run with evaluateConstant, so `?` parameters and session functions take their run-time value.
 * A node with zero columns yields `rows.length` rows of no columns (the one-row source of SELECT 1).
 */
import { VectorBuilder, type Batch } from '../../common/column';
import { evaluateConstant } from '../expr';
import type { ValuesNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

export async function* openValues(node: ValuesNode, _inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  if (node.rows.length === 0) return;
  const builders = node.output.map((column) => new VectorBuilder(column.type, node.rows.length));
  for (const row of node.rows) {
    for (let colIdx = 0; colIdx < builders.length; colIdx++) builders[colIdx].append(evaluateConstant(rt.resolve(row[colIdx]), rt.ctx));
  }
  yield { length: node.rows.length, columns: builders.map((builder) => builder.finish()) };
}

export function explainValues(node: ValuesNode): string[] {
  return [`rows: ${node.rows.length}`, `columns: ${node.output.length}`];
}
