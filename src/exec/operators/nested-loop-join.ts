/**
 * NestedLoopJoin: CROSS JOIN, and joins of any type whose ON condition has no equality to hash on. The
 * right side is read whole; each left batch is paired with every right row in chunks of about one batch.
 * Meant for small inputs: the cost is |left| x |right| condition evaluations.
 */
import type { Batch } from '../../common/column';
import { exprToString } from '../plan/bound-expr-utils';
import type { NestedLoopJoinNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { BATCH_SIZE } from '../../common/column';
import { JOIN_SHAPES } from '../plan/join-types';
import { materializeBuild, RowPairs } from './join-common';
import { explainJoinExtras, JoinEmitter, joinEmitterOptions, keepsProbeRowsWithoutMatch } from './join-emitter';
import { sliceBatch } from './limit';

export async function* openNestedLoopJoin(node: NestedLoopJoinNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const build = await materializeBuild(inputs[1], node.children[1].output, rt.ctx.task);
  try {
    if (build.rowCount === 0 && !keepsProbeRowsWithoutMatch(node.joinType)) return;
    const emitter = new JoinEmitter(joinEmitterOptions(node, build, rt), rt);
    const rowsPerChunk = Math.max(1, Math.floor(BATCH_SIZE / Math.max(1, build.rowCount)));
    const pairs = new RowPairs();
    for await (const probe of inputs[0]) {
      if (probe.length === 0) continue;
      // Probe rows in chunks whose pairs make about one batch; each chunk's rows are complete, so the
      // emitter sees every pair of a probe row at once (the unit its match bookkeeping works in).
      for (let chunkStart = 0; chunkStart < probe.length; chunkStart += rowsPerChunk) {
        const chunkEnd = Math.min(probe.length, chunkStart + rowsPerChunk);
        const chunk = chunkStart === 0 && chunkEnd === probe.length ? probe : sliceBatch(probe, chunkStart, chunkEnd);
        pairs.clear();
        for (let rowIdx = 0; rowIdx < chunk.length; rowIdx++) {
          for (let buildRow = 0; buildRow < build.rowCount; buildRow++) pairs.push(rowIdx, buildRow);
        }
        yield* emitter.probe(chunk, pairs);
      }
    }
    yield* emitter.finish();
  } finally {
    build.release();
  }
}

export function explainNestedLoopJoin(node: NestedLoopJoinNode): string[] {
  return [`join type: ${JOIN_SHAPES[node.joinType].label}`, ...(node.condition ? [`condition: ${exprToString(node.condition)}`] : []), ...explainJoinExtras(node)];
}
