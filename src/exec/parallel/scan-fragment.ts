/**
 * A scan fragment: the part of a plan that runs next to the data in a scan worker thread — a table
 * scan's columns and pruning predicates, a filter, and optionally a partial aggregate. Everything in it is
 * plain data (bound expressions, aggregate specs), so it crosses to a worker by structured clone; the
 * worker (src/be/scan-worker.ts) reads a segment's rows and calls runFragment on them, and the operator
 * on the main thread merges what comes back (parallel-operators.ts).
 *
 * Only context-free expressions qualify: a worker has no session, so `?` parameters are substituted by
 * literals before shipping and statement-level functions (now(), database()...) keep the plan in-thread.
 */
import { selectRows, type Batch } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { ColumnSchema } from '../../meta/schema';
import type { ScanPredicate } from '../../common/scan-predicate';
import type { BoundExpr } from '../bound-expr';
import type { TaskContext } from '../context';
import { compileExpr, selectTrue } from '../expr';
import { lookupFunction } from '../expr/function-registry';
import { ensureFunctionsRegistered } from '../expr/functions/all-functions';
import { GroupedAggregation, type PartialAggregate } from '../operators/grouped-aggregation';
import { literal, transformExpr } from '../plan/bound-expr-utils';
import type { AggregateSpec } from '../plan/physical-plan';

export interface ScanFragment {
  /** Stored columns the scan returns, in batch column order (schema entries: type, uniqueId). */
  readonly columns: readonly ColumnSchema[];
  readonly predicates: readonly ScanPredicate[];
  /** Rows where this is not TRUE are dropped. */
  readonly filter: BoundExpr | null;
  /** A partial aggregate over the filtered rows; null to return the filtered rows. */
  readonly aggregate: { readonly groupKeys: readonly BoundExpr[]; readonly aggregates: readonly AggregateSpec[] } | null;
}

/** What one fragment task returns: a partial aggregate, or the filtered rows. */
export type FragmentResult = { readonly kind: 'partial'; readonly partial: PartialAggregate } | { readonly kind: 'batches'; readonly batches: Batch[] };

/** A TaskContext for workers: context-free expressions never read it. */
const WORKER_CONTEXT = new Proxy({} as TaskContext, {
  get(_target, prop) {
    throw new GaleneError('INTERNAL', [`scan fragment read TaskContext.${String(prop)}`]);
  },
});

/** The expression with `?` parameters replaced by their values, or null when it needs the session. */
export function contextFreeExpr(expr: BoundExpr, ctx: TaskContext): BoundExpr | null {
  ensureFunctionsRegistered();
  let free = true;
  const out = transformExpr(expr, (node) => {
    if (node.kind === 'param') {
      const param = ctx.parameters[node.index];
      if (param === undefined || param.type.name !== node.type.name) {
        free = false;
        return node;
      }
      return literal(node.type, param.value);
    }
    if (node.kind === 'call' && !['and', 'or', 'not'].includes(node.name.toLowerCase())) {
      const def = lookupFunction(node.name);
      if (def === undefined || (def.volatility ?? 'pure') !== 'pure') free = false;
    }
    return node;
  });
  return free ? out : null;
}

/**
 * Run a fragment over one segment's batches (in a worker). With an aggregate, the partial state of the
 * aggregation; otherwise the rows that pass the filter.
 */
export function runFragment(fragment: ScanFragment, batches: Iterable<Batch>): FragmentResult {
  if (fragment.aggregate !== null) {
    const aggregation = new GroupedAggregation(
      { groupKeys: fragment.aggregate.groupKeys, aggregates: fragment.aggregate.aggregates, filter: fragment.filter },
      (expr, reuseBuffers) => compileExpr(expr, { reuseBuffers }),
      WORKER_CONTEXT,
    );
    for (const batch of batches) aggregation.consume(batch);
    return { kind: 'partial', partial: aggregation.partial() };
  }
  const out: Batch[] = [];
  const predicate = fragment.filter === null ? null : compileExpr(fragment.filter, { reuseBuffers: true });
  let selection: Int32Array = new Int32Array(0);
  for (const batch of batches) {
    if (predicate === null) {
      out.push(batch);
      continue;
    }
    if (selection.length < batch.length) selection = new Int32Array(batch.length);
    const { rowIds, count } = selectTrue(predicate(batch, WORKER_CONTEXT), selection);
    if (count === 0) continue;
    out.push(count === batch.length ? batch : selectRows(batch, rowIds, count));
  }
  return { kind: 'batches', batches: out };
}
