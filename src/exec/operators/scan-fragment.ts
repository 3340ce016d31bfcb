/**
 * ScanFragment (EXPLAIN: SCAN FRAGMENT): the part of a plan that runs next to the data — its TableScan
 * child's columns and pruning predicates, a filter, and optionally a partial aggregate — as `degree`
 * parallel tasks in the table source's scan workers (TableSource.scanParallel), described to them as
 * plain data (plan/fragment-spec.ts). Built by the plan-fragments pass (src/exec/plan/plan-fragments.ts):
 * a Filter over a large table scan becomes a fragment that yields the filtered batches in row order; below
 * a HashAggregate a fragment yields partial aggregate states, which the aggregate merges ('final' mode).
 *
 * When it starts, the fragment binds `?` parameters into its expressions and asks the source to run it.
 * It runs in-thread over its scan child instead — same rows, same states — when this run cannot ship it:
 * the table shrank below the parallel threshold or lost its worker pool since the plan was made (plans are
 * cached), a parameter's type is not the planned one, or a prepared lookup on the leading key column now
 * prunes the scan to a few rows.
 */
import type { Batch } from '../../common/column';
import { findColumn } from '../../meta/schema';
import type { PartialAggregate } from '../aggregate-state';
import type { BoundExpr } from '../bound-expr';
import { compileExpr } from '../expr';
import { bindFragmentParams } from '../parallel/run-fragment';
import { exprToString } from '../plan/bound-expr-utils';
import type { FragmentResult } from '../plan/fragment-spec';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { operatorCounter, type FragmentAggregate, type ScanFragmentNode } from '../plan/physical-plan';
import { filterBatches } from './filter';
import { GroupedAggregation } from './grouped-aggregation';
import { appendVirtualColumns, virtualColumnsLine } from './project';
import { aggregateToString } from './hash-aggregate';
import { invertedField } from './inverted-scan';
import { globalRowIdField, leadingKeyLookup, runtimeFiltersOf, withRuntimeFilterPredicates } from './table-scan';

/** `expr` for this run: subqueries resolved, `?` parameters bound; null when a parameter does not fit. */
function bindExprs(exprs: readonly BoundExpr[], rt: OperatorRuntime): BoundExpr[] | null {
  const out: BoundExpr[] = [];
  for (const expr of exprs) {
    const bound = bindFragmentParams(rt.resolve(expr), rt.ctx.parameters);
    if (bound === null) return null;
    out.push(bound);
  }
  return out;
}

function bindAggregate(aggregate: FragmentAggregate, rt: OperatorRuntime): FragmentAggregate | null {
  const groupKeys = bindExprs(aggregate.groupKeys, rt);
  if (groupKeys === null) return null;
  const aggregates = [];
  for (const agg of aggregate.aggregates) {
    const args = bindExprs(agg.args, rt);
    if (args === null) return null;
    aggregates.push({ ...agg, args });
  }
  return { groupKeys, aggregates };
}

/** The fragment's results from the scan workers, or null when this run executes it in-thread. */
function startFragment(node: ScanFragmentNode, rt: OperatorRuntime): AsyncIterable<FragmentResult> | null {
  const scan = node.children[0];
  // A lookup on the leading key column prunes to a few rows through the short-key index: in-thread.
  if (node.aggregate === null && leadingKeyLookup(scan)) return null;
  const source = rt.ctx.openTable(scan.table);
  if (source.scanParallel === undefined) return null;
  const filter = node.filter === null ? [] : bindExprs([node.filter], rt);
  const aggregate = node.aggregate === null ? null : bindAggregate(node.aggregate, rt);
  const virtualColumns = bindExprs((node.virtualColumns ?? []).map((column) => column.expr), rt);
  if (filter === null || virtualColumns === null || (node.aggregate !== null && aggregate === null)) return null;
  const columns = scan.columns.map((name) => findColumn(scan.table, name)!);
  const inverted = invertedField(scan, rt);
  const filters = runtimeFiltersOf(scan, rt);
  // A fragment cut only for its runtime filters (runtime-filters.ts) pays for shipping its rows back from
  // the workers; worth it when an IN filter (few build keys) drops most rows, not for a bloom filter of a
  // large build side, whose rows the in-thread scan reads in place and tests after.
  if (node.filter === null && node.aggregate === null && (node.virtualColumns ?? []).length === 0 && !filters.some((filter) => filter.inValues !== null || filter.empty)) return null;
  const predicates = withRuntimeFilterPredicates(scan.predicates, filters);
  const runtimeFilters = filters.length === 0 ? {} : { runtimeFilters: { scanId: scan.id, filters } };
  const spec = { columns, predicates, virtualColumns, filter: filter[0] ?? null, aggregate, ...globalRowIdField(scan), ...inverted, ...runtimeFilters };
  return source.scanParallel({ columns: scan.columns, predicates, limit: null, profile: rt.ctx.profile, ...globalRowIdField(scan), ...inverted }, spec);
}

/** The in-thread path: the scan child's batches with the fragment's virtual columns appended. */
async function* withVirtualColumns(node: ScanFragmentNode, input: AsyncIterable<Batch>, rt: OperatorRuntime): AsyncIterable<Batch> {
  const compiled = (node.virtualColumns ?? []).map((column) => rt.compile(column.expr));
  if (compiled.length === 0) {
    yield* input;
    return;
  }
  for await (const batch of input) yield appendVirtualColumns(batch, compiled, rt.ctx);
}

/** The filtered batches of a fragment without an aggregate, in row order. */
export async function* openScanFragment(node: ScanFragmentNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const results = startFragment(node, rt);
  if (results === null) {
    const input = withVirtualColumns(node, inputs[0], rt);
    yield* node.filter === null ? input : filterBatches(input, node.filter, rt);
    return;
  }
  // The scan child is never opened: its rows are counted here, as they arrive from the workers.
  const scanRows = operatorCounter(node.children[0], 'RowsOut');
  for await (const result of results) {
    if (result.kind !== 'batches') continue;
    for (const batch of result.batches) {
      rt.ctx.profile.add(scanRows, batch.length);
      yield batch;
    }
  }
}

/** The partial aggregate states of a fragment with an aggregate, in row order (one per worker task). */
export async function* openScanFragmentPartials(node: ScanFragmentNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<PartialAggregate> {
  const results = startFragment(node, rt);
  if (results !== null) {
    for await (const result of results) if (result.kind === 'partial') yield result.partial;
    return;
  }
  // In-thread: one partial over all the scan's rows.
  const aggregate = node.aggregate!;
  const spec = { groupKeys: aggregate.groupKeys.map(rt.resolve), aggregates: aggregate.aggregates.map((agg) => ({ ...agg, args: agg.args.map(rt.resolve) })), filter: node.filter === null ? null : rt.resolve(node.filter) };
  const aggregation = new GroupedAggregation(spec, (expr, reuseBuffers) => compileExpr(rt.resolve(expr), { reuseBuffers }), rt.ctx);
  for await (const batch of withVirtualColumns(node, inputs[0], rt)) aggregation.consume(batch);
  yield aggregation.partial();
}

export function explainScanFragment(node: ScanFragmentNode): string[] {
  const lines = [`degree: ${node.degree}`];
  const virtualColumns = node.virtualColumns ?? [];
  if (virtualColumns.length > 0) lines.push(virtualColumnsLine(virtualColumns.map((column) => column.expr), virtualColumns.map((column) => column.name)));
  if (node.filter !== null) lines.push(`filter: ${exprToString(node.filter)}`);
  if (node.aggregate !== null) {
    if (node.aggregate.groupKeys.length > 0) lines.push(`partial group by: ${node.aggregate.groupKeys.map(exprToString).join(', ')}`);
    lines.push(`partial aggregates: ${node.aggregate.aggregates.length === 0 ? '(none)' : node.aggregate.aggregates.map(aggregateToString).join(', ')}`);
  }
  return lines;
}
