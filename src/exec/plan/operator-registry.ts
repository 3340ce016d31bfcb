/**
 * Per-kind tables of the physical operators. Typed as Record<OperatorKind, ...>, so a new kind does not
 * compile until it has an EXPLAIN label, parameters and an executor here. What a node promises about its
 * output (ordering, partitioning, batches or partial states) is per node: node-properties.ts.
 *
 * Only this file and the executor import the operators; operators never import the registry.
 */
import type { Batch } from '../../common/column';
import type { PartialAggregate } from '../aggregate-state';
import { explainFilter, openFilter } from '../operators/filter';
import { explainGenerate, openGenerate } from '../operators/generate';
import { explainHashAggregate, openHashAggregate } from '../operators/hash-aggregate';
import { explainHashJoin, openHashJoin } from '../operators/hash-join';
import { explainLimit, openLimit } from '../operators/limit';
import { explainMaterialize, openMaterialize } from '../operators/materialize';
import { explainNestedLoopJoin, openNestedLoopJoin } from '../operators/nested-loop-join';
import { explainProject, openProject } from '../operators/project';
import { explainCteAnchor, openCteAnchor } from '../operators/cte-anchor';
import { explainRecursiveCte, explainWorkTableScan, openRecursiveCte, openWorkTableScan } from '../operators/recursive-cte';
import { explainScanFragment, openScanFragment, openScanFragmentPartials } from '../operators/scan-fragment';
import { explainSort, openSort } from '../operators/sort';
import { explainTableScan, openTableScan } from '../operators/table-scan';
import { explainTopN, openTopN } from '../operators/top-n';
import { explainUnionAll, openUnionAll } from '../operators/union-all';
import { explainValues, openValues } from '../operators/values';
import { explainWindow, openWindow } from '../operators/window';
import type { OperatorRuntime } from './operator-runtime';
import type { OperatorKind, PhysicalNode } from './physical-plan';

export interface OperatorDef<N extends PhysicalNode> {
  /** Name shown by EXPLAIN and used in profile counter names. */
  readonly label: string;
  /** EXPLAIN parameter lines. */
  explain(node: N): string[];
  /**
   * Starts one run: turns the children's streams into this operator's stream. `inputs[i]` is child i's
   * batch stream; when child i yields partial aggregate states (nodeProperties(child).output ===
   * 'partials'), `partialInputs[i]` is its stream instead (and `inputs[i]` is empty).
   */
  open(node: N, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime, partialInputs: readonly (AsyncIterable<PartialAggregate> | null)[]): AsyncIterable<Batch>;
  /** The run of a node whose output is 'partials' (node-properties.ts); only kinds that have such nodes. */
  openPartials?(node: N, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<PartialAggregate>;
}

type NodeOf<K extends OperatorKind> = Extract<PhysicalNode, { kind: K }>;

export const OPERATORS: { readonly [K in OperatorKind]: OperatorDef<NodeOf<K>> } = {
  TableScan: { label: 'TABLE SCAN', explain: explainTableScan, open: openTableScan },
  ScanFragment: { label: 'SCAN FRAGMENT', explain: explainScanFragment, open: openScanFragment, openPartials: openScanFragmentPartials },
  Values: { label: 'VALUES', explain: explainValues, open: openValues },
  Filter: { label: 'FILTER', explain: explainFilter, open: openFilter },
  Project: { label: 'PROJECT', explain: explainProject, open: openProject },
  HashAggregate: { label: 'HASH AGGREGATE', explain: explainHashAggregate, open: openHashAggregate },
  Sort: { label: 'SORT', explain: explainSort, open: openSort },
  TopN: { label: 'TOP-N', explain: explainTopN, open: openTopN },
  Limit: { label: 'LIMIT', explain: explainLimit, open: openLimit },
  HashJoin: { label: 'HASH JOIN', explain: explainHashJoin, open: openHashJoin },
  NestedLoopJoin: { label: 'NESTED LOOP JOIN', explain: explainNestedLoopJoin, open: openNestedLoopJoin },
  UnionAll: { label: 'UNION ALL', explain: explainUnionAll, open: openUnionAll },
  Materialize: { label: 'MATERIALIZE', explain: explainMaterialize, open: openMaterialize },
  Window: { label: 'ANALYTIC', explain: explainWindow, open: openWindow },
  Generate: { label: 'TABLE FUNCTION', explain: explainGenerate, open: openGenerate },
  RecursiveCte: { label: 'RECURSIVE CTE', explain: explainRecursiveCte, open: openRecursiveCte },
  WorkTableScan: { label: 'WORK TABLE SCAN', explain: explainWorkTableScan, open: openWorkTableScan },
  CteAnchor: { label: 'CTE ANCHOR', explain: explainCteAnchor, open: openCteAnchor },
};

export function operatorDef(node: PhysicalNode): OperatorDef<PhysicalNode> {
  return OPERATORS[node.kind] as unknown as OperatorDef<PhysicalNode>;
}
