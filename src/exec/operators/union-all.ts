/** UnionAll: the inputs' rows one input after another (inputs already cast to the unified types). */
import type { Batch } from '../../common/column';
import type { UnionAllNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

export async function* openUnionAll(_node: UnionAllNode, inputs: readonly AsyncIterable<Batch>[], _rt: OperatorRuntime): AsyncIterable<Batch> {
  for (const input of inputs) yield* input;
}

export function explainUnionAll(node: UnionAllNode): string[] {
  return [`inputs: ${node.children.length}`];
}
