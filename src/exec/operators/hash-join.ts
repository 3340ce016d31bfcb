/**
 * HashJoin: INNER and LEFT OUTER equi-joins. The build side is read whole into one batch and indexed by
 * its key (Map from key to the first row, `next` chaining duplicates in input order); the probe side
 * streams. NULL keys never match. ON conditions that are not equalities run on the joined pairs; for a
 * LEFT JOIN a probe row none of whose pairs pass is emitted once with NULLs on the right.
 * The planner builds the smaller side of an INNER join (by estimated rows); a LEFT JOIN builds the right.
 */
import type { Batch } from '../../common/column';
import type { BoundExpr } from '../bound-expr';
import { exprToString } from '../plan/bound-expr-utils';
import type { PlanNodeBase } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { makeRowKey } from './group-key-table';
import { emitPairs, materializeBuild, RowPairs } from './join-common';

export interface HashJoinNode extends PlanNodeBase {
  readonly kind: 'HashJoin';
  readonly joinType: 'inner' | 'left';
  /** Key expressions over the left child's output, pairwise equal-typed with rightKeys. */
  readonly leftKeys: readonly BoundExpr[];
  readonly rightKeys: readonly BoundExpr[];
  /** Residual ON condition over the joined row (left columns then right columns). */
  readonly condition: BoundExpr | null;
  readonly buildSide: 'left' | 'right';
}

export async function* openHashJoin(node: HashJoinNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const buildIsLeft = node.buildSide === 'left';
  const buildChild = node.children[buildIsLeft ? 0 : 1];
  const build = await materializeBuild(inputs[buildIsLeft ? 0 : 1], buildChild.output);
  if (build.rowCount === 0 && node.joinType === 'inner') return;
  const buildKeyFns = (buildIsLeft ? node.leftKeys : node.rightKeys).map((expr) => rt.compile(expr));
  const probeKeyFns = (buildIsLeft ? node.rightKeys : node.leftKeys).map((expr) => rt.compile(expr));
  const condition = node.condition ? rt.compile(node.condition) : null;

  const heads = new Map<string | number | bigint | null, number>();
  const next = new Int32Array(build.rowCount);
  if (build.rowCount > 0) {
    const buildKey = makeRowKey(buildKeyFns.map((fn) => fn(build.batch, rt.ctx)), true);
    for (let rowIdx = build.rowCount - 1; rowIdx >= 0; rowIdx--) {
      const key = buildKey(rowIdx);
      if (key === undefined) continue;
      next[rowIdx] = heads.get(key) ?? -1;
      heads.set(key, rowIdx);
    }
  }
  const nullRow = build.rowCount;
  const pairs = new RowPairs();
  for await (const probe of inputs[buildIsLeft ? 1 : 0]) {
    if (probe.length === 0) continue;
    const probeKey = makeRowKey(probeKeyFns.map((fn) => fn(probe, rt.ctx)), true);
    pairs.clear();
    for (let rowIdx = 0; rowIdx < probe.length; rowIdx++) {
      const key = probeKey(rowIdx);
      if (key === undefined) continue;
      for (let buildRow = heads.get(key) ?? -1; buildRow >= 0; buildRow = next[buildRow]) {
        if (buildIsLeft) pairs.push(buildRow, rowIdx);
        else pairs.push(rowIdx, buildRow);
      }
    }
    if (node.joinType === 'inner') {
      if (buildIsLeft) yield* emitPairs(build.batch, probe, pairs, condition, rt, null);
      else yield* emitPairs(probe, build.batch, pairs, condition, rt, null);
      continue;
    }
    // LEFT JOIN: the probe is the left side.
    const matched = new Uint8Array(probe.length);
    yield* emitPairs(probe, build.withNullRow, pairs, condition, rt, matched);
    pairs.clear();
    for (let rowIdx = 0; rowIdx < probe.length; rowIdx++) if (matched[rowIdx] === 0) pairs.push(rowIdx, nullRow);
    yield* emitPairs(probe, build.withNullRow, pairs, null, rt, null);
  }
}

export function explainHashJoin(node: HashJoinNode): string[] {
  const lines = [
    `join type: ${node.joinType === 'inner' ? 'INNER JOIN' : 'LEFT OUTER JOIN'}`,
    `equi keys: ${node.leftKeys.map((key, keyIdx) => `${exprToString(key)} = ${exprToString(node.rightKeys[keyIdx])}`).join(', ')}`,
  ];
  if (node.condition) lines.push(`other condition: ${exprToString(node.condition)}`);
  lines.push(`build side: ${node.buildSide}`);
  return lines;
}
