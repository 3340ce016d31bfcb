/**
 * Window (EXPLAIN: ANALYTIC, as Doris prints its analytic node): buffers its input the way Sort does
 * (reserving the bytes against exec_mem_limit), sorts it once by partition keys (ASC NULLS FIRST) then
 * the ORDER BY keys, finds partitions and peer groups (window-frames.ts), computes each function over the
 * whole sorted input (window-functions.ts) and emits the sorted rows with one column appended per
 * function. Every function of one node shares the sort; the binder gives each distinct
 * PARTITION BY / ORDER BY its own node.
 */
import { batchBytes, BATCH_SIZE, selectRows, sliceVector, type Batch, type Vector } from '../../common/column';
import { exprToString } from '../plan/bound-expr-utils';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { windowSortKeys } from '../plan/node-properties';
import type { WindowFunctionSpec, WindowNode } from '../plan/physical-plan';
import { compileSortKeys, concatBatches, sortPermutationSliced } from './sort-permutation';
import { sortKeyToString } from './sort';
import { frameRows, LAYOUT_BYTES_PER_ROW, partitionLayout, windowFrameToString, type FrameRows } from './window-frames';
import { computeWindowFunction } from './window-functions';

export async function* openWindow(node: WindowNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const task = rt.ctx.task;
  const width = node.children[0].output.length;
  const batches: Batch[] = [];
  let heldBytes = 0;
  const hold = (bytes: number): void => {
    task.reserve(bytes);
    heldBytes += bytes;
  };
  try {
    for await (const batch of inputs[0]) {
      if (batch.length === 0) continue;
      batches.push(batch);
      hold(batchBytes(batch));
    }
    if (batches.length === 0) return;
    let rows = concatBatches(batches, width);
    batches.length = 0;
    const sortKeys = windowSortKeys(node.partitionBy, node.orderBy);
    const partitionKeys = sortKeys.slice(0, node.partitionBy.length);
    if (sortKeys.length > 0 && node.presorted !== true) {
      const perm = await sortPermutationSliced(rows, sortKeys, compileSortKeys(sortKeys, rt), () => task.checkpoint());
      rows = selectRows(rows, perm, rows.length);
    }
    hold(rows.length * LAYOUT_BYTES_PER_ROW);
    const layout = await partitionLayout(rows, partitionKeys, compileSortKeys(partitionKeys, rt), node.orderBy, compileSortKeys(node.orderBy, rt), () => task.checkpoint());
    const frames = new Map<string, FrameRows>();
    const results: Vector[] = [];
    for (const spec of node.functions) {
      const key = windowFrameToString(spec.frame);
      let frame = frames.get(key);
      if (frame === undefined) {
        hold(rows.length * 8);
        frame = frameRows(spec.frame, layout);
        frames.set(key, frame);
      }
      const args = spec.args.map((expr) => (expr.kind === 'column' ? rows.columns[expr.index] : rt.compile(expr)(rows, rt.ctx)));
      const result = await computeWindowFunction({ spec, args, layout, frame, checkpoint: () => task.checkpoint() });
      results.push(result);
      hold(batchBytes({ length: result.length, columns: [result] }));
      const pause = task.checkpoint();
      if (pause !== undefined) await pause;
    }
    const columns = [...rows.columns, ...results];
    for (let start = 0; start < rows.length; start += BATCH_SIZE) {
      const end = Math.min(rows.length, start + BATCH_SIZE);
      yield { length: end - start, columns: columns.map((vec) => sliceVector(vec, start, end)) };
    }
  } finally {
    task.release(heldBytes);
  }
}

function functionToString(spec: WindowFunctionSpec): string {
  const args = spec.name === 'count' && spec.args.length === 0 ? ['*'] : spec.args.map(exprToString);
  if (spec.param !== 0) args.splice(spec.name === 'ntile' ? 0 : 1, 0, String(spec.param));
  const ranked = spec.name === 'row_number' || spec.name === 'rank' || spec.name === 'dense_rank' || spec.name === 'percent_rank' || spec.name === 'cume_dist' || spec.name === 'ntile' || spec.name === 'lag' || spec.name === 'lead';
  return `${spec.name}(${spec.distinct ? 'DISTINCT ' : ''}${args.join(', ')}${spec.ignoreNulls ? ', true' : ''})${ranked ? '' : ` ${windowFrameToString(spec.frame)}`}`;
}

export function explainWindow(node: WindowNode): string[] {
  const lines = [`functions: ${node.functions.map(functionToString).join(', ')}`];
  if (node.partitionBy.length > 0) lines.push(`partition by: ${node.partitionBy.map(exprToString).join(', ')}`);
  if (node.orderBy.length > 0) lines.push(`order by: ${node.orderBy.map(sortKeyToString).join(', ')}`);
  if (node.presorted === true) lines.push('sort: none (input already in this order)');
  return lines;
}
