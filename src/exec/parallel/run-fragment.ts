/**
 * The fragment runtime: runs a scan fragment (plan/fragment-spec.ts) over one segment range's batches —
 * in a scan worker thread today (src/be/scan-worker.ts), behind an exchange on another BE later — and the
 * two expression checks that keep a fragment plain data: at planning, only pure functions
 * (fragmentSafeExpr; statement-level functions such as now() or database() keep the plan without a
 * fragment), and when the fragment starts, `?` parameters substituted by literals (bindFragmentParams).
 */
import { selectRows, type Batch, type RawValue } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { DataType } from '../../common/types';
import type { BoundExpr } from '../bound-expr';
import type { TaskContext } from '../context';
import { compileExpr, selectTrue } from '../expr';
import { lookupFunction } from '../expr/function-registry';
import { ensureFunctionsRegistered } from '../expr/functions/all-functions';
import { GroupedAggregation } from '../operators/grouped-aggregation';
import { appendVirtualColumns } from '../operators/project';
import { anyExpr, literal, transformExpr } from '../plan/bound-expr-utils';
import type { FragmentResult, FragmentSpec } from '../plan/fragment-spec';

/** An TaskContext for workers: context-free expressions never read it. */
const WORKER_CONTEXT = new Proxy({} as TaskContext, {
  get(_target, prop) {
    throw new GaleneError('INTERNAL', [`scan fragment read TaskContext.${String(prop)}`]);
  },
});

/** True when a call in `node` may read the session (a function that is not pure). */
function readsSession(node: BoundExpr): boolean {
  if (node.kind !== 'call' || ['and', 'or', 'not'].includes(node.name.toLowerCase())) return false;
  const def = lookupFunction(node.name);
  return def === undefined || (def.volatility ?? 'pure') !== 'pure';
}

/** Planning: whether `expr` may run in a fragment once its `?` parameters are bound (only pure functions). */
export function fragmentSafeExpr(expr: BoundExpr): boolean {
  ensureFunctionsRegistered();
  return !anyExpr(expr, readsSession);
}

/**
 * When a fragment starts: `expr` with its `?` parameters replaced by their values, or null when a value is
 * missing or of another type than the plan was made for (the fragment then runs in-thread).
 */
export function bindFragmentParams(expr: BoundExpr, parameters: readonly { type: DataType; value: RawValue }[]): BoundExpr | null {
  let bound = true;
  const out = transformExpr(expr, (node) => {
    if (node.kind !== 'param') return node;
    const param = parameters[node.index];
    if (param === undefined || param.type.name !== node.type.name) {
      bound = false;
      return node;
    }
    return literal(node.type, param.value);
  });
  return bound ? out : null;
}

/** The batches with the fragment's virtual columns appended (each computed once per batch). */
function* withVirtualColumns(virtualColumns: readonly BoundExpr[], batches: Iterable<Batch>): Iterable<Batch> {
  if (virtualColumns.length === 0) {
    yield* batches;
    return;
  }
  const compiled = virtualColumns.map((expr) => compileExpr(expr));
  for (const batch of batches) yield appendVirtualColumns(batch, compiled, WORKER_CONTEXT);
}

/**
 * Run a fragment over one segment's batches (in a worker). With an aggregate, the partial state of the
 * aggregation; otherwise the rows that pass the filter.
 */
export function runFragment(fragment: FragmentSpec, scanned: Iterable<Batch>): FragmentResult {
  const batches = withVirtualColumns(fragment.virtualColumns ?? [], scanned);
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

/**
 * Positions (0-based over the concatenated batches) of the rows where `filter` is TRUE: the allowed-row
 * filter of an ANN search (src/be/ann-segment-scan.ts), evaluated on a segment's rows before the search.
 */
export function filterPositions(filter: BoundExpr, batches: Iterable<Batch>): Int32Array {
  const predicate = compileExpr(filter, { reuseBuffers: true });
  const chunks: Int32Array[] = [];
  let total = 0;
  let base = 0;
  let selection: Int32Array = new Int32Array(0);
  for (const batch of batches) {
    if (selection.length < batch.length) selection = new Int32Array(batch.length);
    const { rowIds, count } = selectTrue(predicate(batch, WORKER_CONTEXT), selection);
    const chunk = new Int32Array(count);
    for (let idx = 0; idx < count; idx++) chunk[idx] = base + rowIds[idx];
    chunks.push(chunk);
    total += count;
    base += batch.length;
  }
  const out = new Int32Array(total);
  let pos = 0;
  for (const chunk of chunks) {
    out.set(chunk, pos);
    pos += chunk.length;
  }
  return out;
}
