/**
 * Generate: the operator of a LATERAL VIEW. Per input batch it evaluates the table function's arguments,
 * asks the function's kernel for the generated rows (which input row each came from, and the generated
 * column vectors), and repeats the input columns with one takeRows per column. Output batches are cut at
 * BATCH_SIZE rows, so an input row that explodes into many rows never makes one huge batch.
 */
import { BATCH_SIZE, sliceVector, takeRows, type Batch } from '../../common/column';
import { galeneError } from '../../common/errors';
import { lookupTableFunction } from '../expr/table-functions/all-table-functions';
import { exprToString } from '../plan/bound-expr-utils';
import type { GenerateNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

export async function* openGenerate(node: GenerateNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const def = lookupTableFunction(node.function);
  if (def === undefined) throw galeneError('UNKNOWN_FUNCTION', node.function);
  const args = node.args.map((arg) => rt.compile(arg));
  for await (const batch of inputs[0]) {
    if (batch.length === 0) continue;
    const generated = def.kernel(args.map((compute) => compute(batch, rt.ctx)), batch.length, node.columnTypes);
    const total = generated.parentRows.length;
    for (let start = 0; start < total; start += BATCH_SIZE) {
      const end = Math.min(total, start + BATCH_SIZE);
      const parents = generated.parentRows.subarray(start, end);
      const repeated = batch.columns.map((vec) => takeRows(vec, parents));
      const appended = generated.columns.map((vec) => (start === 0 && end === total ? vec : sliceVector(vec, start, end)));
      yield { length: end - start, columns: [...repeated, ...appended] };
    }
  }
}

export function explainGenerate(node: GenerateNode): string[] {
  const width = node.children[0].output.length;
  const names = node.output.slice(width).map((column) => column.name);
  return [`table function: ${node.function}(${node.args.map(exprToString).join(', ')})`, `generated columns: ${names.join(', ')}`];
}
