/**
 * The plan-fragments pass: cuts the parts of a physical plan that run next to the data into SCAN
 * FRAGMENT nodes (src/exec/operators/scan-fragment.ts), so that parallelism is visible to EXPLAIN and to
 * the passes after it, and so that the same node can later run behind an exchange on another BE.
 *   - Filter over a TableScan -> ScanFragment (filter), which yields the filtered rows in row order.
 *   - HashAggregate over a TableScan -> HashAggregate (mode 'final') over ScanFragment (filter, partial
 *     aggregate), which yields partial states the aggregate merges.
 *   - A virtual-columns Project (virtual-columns.ts) between either and the scan moves into the fragment:
 *     the workers compute the common subexpressions once per batch, before the filter.
 * A scan qualifies when the table source can run fragments now (`scanDegree`: a parallel-capable source,
 * large enough, not merge-on-read) and has no LIMIT; every expression must be fragment-safe (pure
 * functions; `?` parameters are bound when the fragment starts) and every aggregate must have a partial
 * form. A Filter whose scan looks up the leading key stays in-thread (the short-key index prunes it).
 *
 * Run by the planner (src/sql/query.ts) after fuseOperators; skipped by name ('plan_fragments') like the
 * optimizer rules. Returns the same objects where nothing changed. The decision is a plan-time estimate
 * that a cached plan keeps, like its join sides; the fragment node re-checks at open what depends on this
 * run (see scan-fragment.ts) and falls back to an in-thread run with the same results.
 */
import type { TableSchema } from '../../meta/schema';
import type { BoundExpr } from '../bound-expr';
import { resolveAggregate } from '../expr';
import { leadingKeyLookup } from '../operators/table-scan';
import { fragmentSafeExpr } from '../parallel/run-fragment';
import type { AggregateSpec, HashAggregateNode, PhysicalNode, ScanFragmentNode, TableScanNode, VirtualColumn } from './physical-plan';

/** Name by which EXPLAIN tests and `disable_nereids_rules` skip the pass. */
export const PLAN_FRAGMENTS = 'plan_fragments';

/** What the pass asks about a table while planning. */
export interface FragmentPlanning {
  /** Fragment tasks that may run at once for a scan of `table`; 0 when it scans in-thread. */
  scanDegree(table: TableSchema): number;
  /** A fresh operator id (the statement's counter). */
  nextId(): number;
}

function hasPartialForm(agg: AggregateSpec): boolean {
  const accumulator = resolveAggregate(agg.name, agg.argTypes, agg.distinct, agg.order).create();
  return accumulator.serialize !== undefined && accumulator.merge !== undefined;
}

/** The degree for a fragment over `scan` with these expressions, or 0 when it does not qualify. */
function degreeFor(scan: PhysicalNode, exprs: readonly BoundExpr[], planning: FragmentPlanning): number {
  // An ANN scan (TableScanNode.ann) runs its own per-segment search tasks; a score() scan scores in-thread.
  if (scan.kind !== 'TableScan' || scan.limit !== null || scan.ann !== undefined || scan.score !== undefined || !exprs.every(fragmentSafeExpr)) return 0;
  return planning.scanDegree(scan.table);
}

/**
 * The scan under a node's input and the virtual columns between them: the input itself, or a
 * virtual-columns Project (virtual-columns.ts) over it, whose columns the fragment computes instead.
 */
function scanInput(input: PhysicalNode): { scan: PhysicalNode; virtualColumns: VirtualColumn[] } {
  if (input.kind !== 'Project' || input.virtual !== true) return { scan: input, virtualColumns: [] };
  const scan = input.children[0];
  const width = scan.output.length;
  return { scan, virtualColumns: input.exprs.slice(width).map((expr, colIdx) => ({ name: input.output[width + colIdx].name, expr })) };
}

function virtualFields(virtualColumns: readonly VirtualColumn[]): { virtualColumns?: readonly VirtualColumn[] } {
  return virtualColumns.length > 0 ? { virtualColumns } : {};
}

function aggregateFragment(node: HashAggregateNode, planning: FragmentPlanning): PhysicalNode {
  if (node.mode === 'final' || !node.aggregates.every(hasPartialForm)) return node;
  const { scan, virtualColumns } = scanInput(node.children[0]);
  const exprs = [...node.groupKeys, ...node.aggregates.flatMap((agg) => agg.args), ...(node.filter ? [node.filter] : []), ...virtualColumns.map((column) => column.expr)];
  const degree = degreeFor(scan, exprs, planning);
  if (degree === 0) return node;
  const fragment: ScanFragmentNode = {
    kind: 'ScanFragment',
    id: planning.nextId(),
    output: node.output,
    children: [scan as TableScanNode],
    degree,
    filter: node.filter ?? null,
    aggregate: { groupKeys: node.groupKeys, aggregates: node.aggregates },
    ...virtualFields(virtualColumns),
  };
  const { filter: _moved, ...rest } = node;
  return { ...rest, mode: 'final', children: [fragment] };
}

/**
 * A fragment (no filter, no aggregate) over a bare scan, or null when the scan does not qualify: the
 * runtime-filters pass (runtime-filters.ts) moves a filtered probe-side scan into the workers this way, so
 * its filters are tested before its other columns are read.
 */
export function bareScanFragment(scan: TableScanNode, planning: FragmentPlanning): ScanFragmentNode | null {
  if (leadingKeyLookup(scan) || scan.globalRowId === true || scan.inverted !== undefined) return null;
  const degree = degreeFor(scan, [], planning);
  if (degree === 0) return null;
  return { kind: 'ScanFragment', id: planning.nextId(), output: scan.output, children: [scan], degree, filter: null, aggregate: null };
}

/** The plan with its scan fragments cut (the same objects where nothing changed). */
export function planFragments(node: PhysicalNode, planning: FragmentPlanning): PhysicalNode {
  const children = node.children.map((child) => planFragments(child, planning));
  const changed = children.some((child, childIdx) => child !== node.children[childIdx]);
  const current = changed ? ({ ...node, children } as PhysicalNode) : node;
  if (current.kind === 'HashAggregate') return aggregateFragment(current, planning);
  if (current.kind !== 'Filter') return current;
  const { scan, virtualColumns } = scanInput(current.children[0]);
  if (scan.kind !== 'TableScan' || leadingKeyLookup(scan)) return current;
  const degree = degreeFor(scan, [current.predicate, ...virtualColumns.map((column) => column.expr)], planning);
  if (degree === 0) return current;
  // The Filter becomes the fragment (it keeps the Filter's id, like fused operators do).
  return { kind: 'ScanFragment', id: current.id, output: current.output, children: [scan], degree, filter: current.predicate, aggregate: null, ...virtualFields(virtualColumns) };
}
