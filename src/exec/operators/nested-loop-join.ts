/**
 * NestedLoopJoin: CROSS JOIN, and INNER / LEFT joins whose ON condition has no equality to hash on. The
 * right side is read whole; each left batch is paired with every right row in chunks of about one batch.
 * Meant for small inputs: the cost is |left| x |right| condition evaluations.
 */
import type { Batch } from '../../common/column';
import { exprToString } from '../plan/bound-expr-utils';
import type { NestedLoopJoinNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { BATCH_SIZE } from '../../common/column';
import { emitPairs, materializeBuild, RowPairs } from './join-common';

export async function* openNestedLoopJoin(node: NestedLoopJoinNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const build = await materializeBuild(inputs[1], node.children[1].output, rt.ctx.task);
  try {
    if (build.rowCount === 0 && node.joinType !== 'left') return;
    const condition = node.condition ? rt.compile(node.condition) : null;
    const isLeft = node.joinType === 'left';
    const rowsPerChunk = Math.max(1, Math.floor(BATCH_SIZE / Math.max(1, build.rowCount)));
    const pairs = new RowPairs();
    for await (const probe of inputs[0]) {
      const matched = isLeft ? new Uint8Array(probe.length) : null;
      for (let chunkStart = 0; chunkStart < probe.length; chunkStart += rowsPerChunk) {
        const chunkEnd = Math.min(probe.length, chunkStart + rowsPerChunk);
        pairs.clear();
        for (let rowIdx = chunkStart; rowIdx < chunkEnd; rowIdx++) {
          for (let buildRow = 0; buildRow < build.rowCount; buildRow++) pairs.push(rowIdx, buildRow);
        }
        yield* emitPairs(probe, build.withNullRow, pairs, condition, rt, matched);
      }
      if (matched !== null) {
        pairs.clear();
        for (let rowIdx = 0; rowIdx < probe.length; rowIdx++) if (matched[rowIdx] === 0) pairs.push(rowIdx, build.rowCount);
        yield* emitPairs(probe, build.withNullRow, pairs, null, rt, null);
      }
    }
  } finally {
    build.release();
  }
}

export function explainNestedLoopJoin(node: NestedLoopJoinNode): string[] {
  const label = node.joinType === 'cross' ? 'CROSS JOIN' : node.joinType === 'inner' ? 'INNER JOIN' : 'LEFT OUTER JOIN';
  return [`join type: ${label}`, ...(node.condition ? [`condition: ${exprToString(node.condition)}`] : [])];
}
