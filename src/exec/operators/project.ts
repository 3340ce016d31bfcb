/**
 * Project: computes the output columns from the input batch (column references are passed through).
 * A virtual-columns Project (ProjectNode.virtual, built by plan/virtual-columns.ts) passes the input
 * through and appends common subexpressions, each computed once per batch over the columns before it.
 */
import type { Batch } from '../../common/column';
import type { BoundExpr } from '../bound-expr';
import type { TaskContext } from '../context';
import type { CompiledExpr } from '../expr-api';
import { exprToString } from '../plan/bound-expr-utils';
import type { ProjectNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

/**
 * `batch` with one column appended per compiled virtual column, in order; each reads the batch's columns
 * and the virtual columns appended before it. Also the scan fragments' path (scan-fragment.ts, workers).
 */
export function appendVirtualColumns(batch: Batch, virtualColumns: readonly CompiledExpr[], ctx: TaskContext): Batch {
  if (virtualColumns.length === 0) return batch;
  const extended: Batch = { length: batch.length, columns: [...batch.columns] };
  for (const compute of virtualColumns) extended.columns.push(compute(extended, ctx));
  return extended;
}

async function* openVirtualColumns(node: ProjectNode, input: AsyncIterable<Batch>, rt: OperatorRuntime): AsyncIterable<Batch> {
  const compiled = node.exprs.slice(node.children[0].output.length).map((expr) => rt.compile(expr));
  for await (const batch of input) yield appendVirtualColumns(batch, compiled, rt.ctx);
}

export async function* openProject(node: ProjectNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  if (node.virtual === true) {
    yield* openVirtualColumns(node, inputs[0], rt);
    return;
  }
  const compiled = node.exprs.map((expr) => (expr.kind === 'column' ? null : rt.compile(expr)));
  for await (const batch of inputs[0]) {
    const columns = node.exprs.map((expr, colIdx) => {
      const fn = compiled[colIdx];
      return fn === null ? batch.columns[(expr as { index: number }).index] : fn(batch, rt.ctx);
    });
    yield { length: batch.length, columns };
  }
}

/** `virtual columns: [v0 := ..., v1 := ...]`: the EXPLAIN line of a node's virtual columns. */
export function virtualColumnsLine(exprs: readonly BoundExpr[], names: readonly string[]): string {
  return `virtual columns: [${exprs.map((expr, colIdx) => `${names[colIdx]} := ${exprToString(expr)}`).join(', ')}]`;
}

export function explainProject(node: ProjectNode): string[] {
  if (node.virtual === true) {
    const width = node.children[0].output.length;
    return [virtualColumnsLine(node.exprs.slice(width), node.output.slice(width).map((column) => column.name))];
  }
  return [`exprs: ${node.exprs.map((expr, colIdx) => `${exprToString(expr)} AS ${node.output[colIdx].name}`).join(', ')}`];
}
