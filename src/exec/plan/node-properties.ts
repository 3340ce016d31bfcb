/**
 * What each plan node promises about its output, per node (not per operator kind), the way DataFusion's
 * ExecutionPlan declares its output ordering and partitioning to the optimizer: what flows out (row
 * batches or partial aggregate states), which order the rows keep, and whether the node runs as one
 * stream or as parallel fragment tasks. The executor reads `output` to wire a partial stream to the final
 * aggregate above it; plan passes read ordering and partitioning instead of asking "which kind is this".
 */
import { emitsBuildRowsAtEnd } from './join-types';
import { exprKey } from './bound-expr-utils';
import type { BoundExpr } from '../bound-expr';
import type { PhysicalNode, SortKey } from './physical-plan';

/**
 * - `input`: rows keep the order of the first input (for a leaf: the order they are stored or written in).
 * - `sorted`: rows come out ordered by `keys` (SORT, TOP-N), whatever the input order was.
 * - `none`: no order is promised (hash tables, concatenated inputs).
 */
export type OutputOrdering = { readonly kind: 'input' } | { readonly kind: 'sorted'; readonly keys: readonly SortKey[] } | { readonly kind: 'none' };

/**
 * - `single`: the node runs as one stream.
 * - `fragments`: the node runs as `degree` parallel fragment tasks (scan workers today, remote fragments
 *   behind an exchange later) whose results reach the parent as one stream, in row order.
 */
export type Partitioning = { readonly kind: 'single' } | { readonly kind: 'fragments'; readonly degree: number };

export interface NodeProperties {
  /** `partials`: the node yields partial aggregate states (only to a HashAggregate in 'final' mode). */
  readonly output: 'batches' | 'partials';
  readonly ordering: OutputOrdering;
  readonly partitioning: Partitioning;
}

const SINGLE: Partitioning = { kind: 'single' };
const KEEPS_ORDER: NodeProperties = { output: 'batches', ordering: { kind: 'input' }, partitioning: SINGLE };
const NO_ORDER: NodeProperties = { output: 'batches', ordering: { kind: 'none' }, partitioning: SINGLE };

/** The output properties of one node (exhaustive over the operator kinds). */
export function nodeProperties(node: PhysicalNode): NodeProperties {
  switch (node.kind) {
    case 'TableScan':
    case 'Values':
    case 'Filter':
    case 'Project':
    case 'Limit':
    case 'Materialize':
    case 'Generate':
      return KEEPS_ORDER;
    case 'NestedLoopJoin':
      // The left input's order, unless build rows are output after it (RIGHT / FULL / RIGHT SEMI / ANTI).
      return emitsBuildRowsAtEnd(node.joinType) ? NO_ORDER : KEEPS_ORDER;
    case 'ScanFragment': {
      // Task results are merged in row order, so filtered rows keep the scan's order.
      const partitioning: Partitioning = { kind: 'fragments', degree: node.degree };
      return node.aggregate === null ? { output: 'batches', ordering: { kind: 'input' }, partitioning } : { output: 'partials', ordering: { kind: 'none' }, partitioning };
    }
    case 'Sort':
    case 'TopN':
      return { output: 'batches', ordering: { kind: 'sorted', keys: node.keys }, partitioning: SINGLE };
    case 'Window':
      // Rows come out sorted by partition keys, then order keys.
      return { output: 'batches', ordering: { kind: 'sorted', keys: windowSortKeys(node.partitionBy, node.orderBy) }, partitioning: SINGLE };
    case 'HashAggregate':
    case 'HashJoin':
    case 'UnionAll':
    case 'RecursiveCte':
    case 'WorkTableScan':
      return NO_ORDER;
    case 'CteAnchor':
      // It streams the body (its last child) as the body yields it.
      return { ...nodeProperties(node.children[node.children.length - 1]), output: 'batches' };
  }
}

/** The order a Window sorts its input in: partition keys (ASC NULLS FIRST), then its ORDER BY keys. */
export function windowSortKeys(partitionBy: readonly BoundExpr[], orderBy: readonly SortKey[]): SortKey[] {
  return [...partitionBy.map((expr) => ({ expr, descending: false, nullsFirst: true })), ...orderBy];
}

/** True when rows in `ordering` are also in `keys` order: `keys` is a prefix of the sorted keys. */
export function orderingCovers(ordering: OutputOrdering, keys: readonly SortKey[]): boolean {
  if (ordering.kind !== 'sorted' || keys.length > ordering.keys.length) return false;
  return keys.every((key, keyIdx) => {
    const have = ordering.keys[keyIdx];
    return have.descending === key.descending && have.nullsFirst === key.nullsFirst && exprKey(have.expr) === exprKey(key.expr);
  });
}
