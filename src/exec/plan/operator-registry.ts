/**
 * Per-kind tables of the physical operators. Typed as Record<OperatorKind, ...>, so a new kind does not
 * compile until it has an EXPLAIN label, parameters, an executor and an order property here.
 */
import type { Batch } from '../../common/column';
import { explainFilter, openFilter } from '../operators/filter';
import { explainHashAggregate, openHashAggregate } from '../operators/hash-aggregate';
import { explainHashJoin, openHashJoin } from '../operators/hash-join';
import { explainLimit, openLimit } from '../operators/limit';
import { explainNestedLoopJoin, openNestedLoopJoin } from '../operators/nested-loop-join';
import { explainProject, openProject } from '../operators/project';
import { explainSort, openSort } from '../operators/sort';
import { explainTableScan, openTableScan } from '../operators/table-scan';
import { explainTopN, openTopN } from '../operators/top-n';
import { explainUnionAll, openUnionAll } from '../operators/union-all';
import { explainValues, openValues } from '../operators/values';
import type { OperatorRuntime } from './operator-runtime';
import type { OperatorKind, PhysicalNode } from './physical-plan';

export interface OperatorDef<N extends PhysicalNode> {
  /** Name shown by EXPLAIN and used in profile counter names. */
  readonly label: string;
  /** EXPLAIN parameter lines. */
  explain(node: N): string[];
  /** Starts one run: turns the children's streams into this operator's stream. */
  open(node: N, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch>;
  /** True when the output keeps the (first) input's row order. */
  readonly keepsOrder: boolean;
}

type NodeOf<K extends OperatorKind> = Extract<PhysicalNode, { kind: K }>;

export const OPERATORS: { readonly [K in OperatorKind]: OperatorDef<NodeOf<K>> } = {
  TableScan: { label: 'TABLE SCAN', explain: explainTableScan, open: openTableScan, keepsOrder: true },
  Values: { label: 'VALUES', explain: explainValues, open: openValues, keepsOrder: true },
  Filter: { label: 'FILTER', explain: explainFilter, open: openFilter, keepsOrder: true },
  Project: { label: 'PROJECT', explain: explainProject, open: openProject, keepsOrder: true },
  HashAggregate: { label: 'HASH AGGREGATE', explain: explainHashAggregate, open: openHashAggregate, keepsOrder: false },
  Sort: { label: 'SORT', explain: explainSort, open: openSort, keepsOrder: false },
  TopN: { label: 'TOP-N', explain: explainTopN, open: openTopN, keepsOrder: false },
  Limit: { label: 'LIMIT', explain: explainLimit, open: openLimit, keepsOrder: true },
  HashJoin: { label: 'HASH JOIN', explain: explainHashJoin, open: openHashJoin, keepsOrder: false },
  NestedLoopJoin: { label: 'NESTED LOOP JOIN', explain: explainNestedLoopJoin, open: openNestedLoopJoin, keepsOrder: true },
  UnionAll: { label: 'UNION ALL', explain: explainUnionAll, open: openUnionAll, keepsOrder: false },
};

export function operatorDef(node: PhysicalNode): OperatorDef<PhysicalNode> {
  return OPERATORS[node.kind] as unknown as OperatorDef<PhysicalNode>;
}
