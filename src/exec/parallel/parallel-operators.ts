/**
 * The operator side of parallel scans: a HashAggregate (with its fused filter) or a Filter directly over
 * a TableScan ships a scan fragment to the table source's scan workers and consumes what comes back —
 * partial aggregate states merged in row order, or filtered batches. Each returns false / null when the
 * plan or the table does not qualify, and the operator runs its in-thread path.
 */
import type { Batch } from '../../common/column';
import { findColumn } from '../../meta/schema';
import type { BoundExpr } from '../bound-expr';
import type { FilterNode } from '../operators/filter';
import type { GroupedAggregation, GroupedAggregationSpec } from '../operators/grouped-aggregation';
import type { HashAggregateNode } from '../operators/hash-aggregate';
import type { TableScanNode } from '../operators/table-scan';
import { operatorCounter } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import type { PhysicalNode } from '../plan/physical-plan';
import { contextFreeExpr, type FragmentResult, type ScanFragment } from './scan-fragment';

function allContextFree(exprs: readonly BoundExpr[], rt: OperatorRuntime): BoundExpr[] | null {
  const out: BoundExpr[] = [];
  for (const expr of exprs) {
    const free = contextFreeExpr(expr, rt.ctx);
    if (free === null) return null;
    out.push(free);
  }
  return out;
}

/** Start the fragment on the scan's table, or null when it runs in-thread. */
function startFragment(scan: PhysicalNode, filter: BoundExpr | null, aggregate: ScanFragment['aggregate'], rt: OperatorRuntime): AsyncIterable<FragmentResult> | null {
  if (scan.kind !== 'TableScan' || scan.limit !== null) return null;
  const source = rt.ctx.openTable(scan.table);
  if (source.scanParallel === undefined) return null;
  const columns = scan.columns.map((name) => findColumn(scan.table, name)!);
  const fragment: ScanFragment = { columns, predicates: scan.predicates, filter, aggregate };
  return source.scanParallel({ columns: scan.columns, predicates: scan.predicates, limit: null, profile: rt.ctx.profile }, fragment);
}

/**
 * Aggregate the HashAggregate's input in the scan workers and merge the partial states into
 * `aggregation`. True when done so; false when the caller must consume its input itself.
 */
export async function parallelAggregate(node: HashAggregateNode, spec: GroupedAggregationSpec, aggregation: GroupedAggregation, rt: OperatorRuntime, afterMerge: () => void): Promise<boolean> {
  const scan = node.children[0];
  if (scan.kind !== 'TableScan' || !aggregation.canPartial()) return false;
  const filter = spec.filter === null ? null : contextFreeExpr(spec.filter, rt.ctx);
  if (spec.filter !== null && filter === null) return false;
  const groupKeys = allContextFree(spec.groupKeys, rt);
  if (groupKeys === null) return false;
  const aggregates = [];
  for (const agg of spec.aggregates) {
    const args = allContextFree(agg.args, rt);
    if (args === null) return false;
    aggregates.push({ ...agg, args });
  }
  const results = startFragment(scan, filter, { groupKeys, aggregates }, rt);
  if (results === null) return false;
  for await (const result of results) {
    if (result.kind !== 'partial') continue;
    // A partial arrives from a worker thread (an I/O callback): merge it within the scheduler's turn budget.
    const pause = rt.ctx.task.checkpoint();
    if (pause !== undefined) await pause;
    aggregation.mergePartial(result.partial);
    afterMerge();
  }
  return true;
}

/** The Filter's output computed in the scan workers, or null when the Filter runs in-thread. */
export function parallelFilter(node: FilterNode, rt: OperatorRuntime): AsyncIterable<Batch> | null {
  const scan = node.children[0];
  // A lookup on the leading key column prunes to a few rows through the short-key index: in-thread.
  if (scan.kind === 'TableScan' && scan.predicates.some((pred) => (pred.op === '=' || pred.op === 'in') && pred.column.toLowerCase() === scan.table.keyColumns[0]?.toLowerCase())) return null;
  const predicate = contextFreeExpr(rt.resolve(node.predicate), rt.ctx);
  if (predicate === null) return null;
  const results = startFragment(scan, predicate, null, rt);
  if (results === null) return null;
  const scanRows = operatorCounter(scan as TableScanNode, 'RowsOut');
  return (async function* () {
    for await (const result of results) {
      if (result.kind !== 'batches') continue;
      for (const batch of result.batches) {
        rt.ctx.profile.add(scanRows, batch.length);
        yield batch;
      }
    }
  })();
}
