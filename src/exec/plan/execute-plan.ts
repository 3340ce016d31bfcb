/**
 * Runs a physical plan: first its uncorrelated subqueries (once each, their results substituted into the
 * main plan's expressions as literals), then the operator tree, pull-based. Every operator's stream is
 * wrapped to count RowsIn / RowsOut and inclusive wall time (`<Kind>#<id>.<metric>` profile counters),
 * which EXPLAIN ANALYZE prints, and to pass the statement's task checkpoint between batches (cancel,
 * timeout, and yielding the event loop: see query-task.ts). A node whose output is partial aggregate
 * states (node-properties.ts) is opened through its kind's openPartials and handed to its parent as a
 * partial input; its groups count as rows.
 */
import { getRaw, type Batch, type RawValue } from '../../common/column';
import type { PartialAggregate } from '../aggregate-state';
import { GaleneError } from '../../common/errors';
import { Types, type DataType } from '../../common/types';
import type { BoundExpr } from '../bound-expr';
import type { TaskContext } from '../context';
import { compileExpr } from '../expr';
import { exprKey, literal, transformExpr } from './bound-expr-utils';
import { operatorCounter } from './physical-plan';
import { nodeProperties } from './node-properties';
import { operatorDef } from './operator-registry';
import type { OperatorRuntime } from './operator-runtime';
import { SUBQUERY_SLOT_BASE, type PhysicalNode, type PhysicalPlan, type SubqueryPlan } from './physical-plan';

interface SubqueryResult {
  readonly mode: SubqueryPlan['mode'];
  readonly values: readonly RawValue[];
}

async function runSubquery(sub: SubqueryPlan, ctx: TaskContext): Promise<SubqueryResult> {
  const values: RawValue[] = [];
  const seen = new Set<string>();
  const type: DataType = sub.plan.columns[0]?.type ?? Types.NULL;
  for await (const batch of executePhysicalPlan(sub.plan, ctx)) {
    if (sub.mode === 'exists') {
      if (batch.length > 0) return { mode: sub.mode, values: [1] };
      continue;
    }
    const vec = batch.columns[0];
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
      const value = vec.nulls !== null && vec.nulls[rowIdx] === 1 ? null : getRaw(vec, rowIdx);
      if (sub.mode === 'scalar') {
        if (values.length >= 1) throw new GaleneError('SCALAR_SUBQUERY_ROWS', [sub.sourceText ?? '(subquery)']);
        values.push(value);
      } else {
        const key = exprKey(literal(type, value));
        if (!seen.has(key)) {
          seen.add(key);
          values.push(value);
        }
      }
    }
  }
  return { mode: sub.mode, values: sub.mode === 'exists' ? [0] : values };
}

function isSlot(expr: BoundExpr): expr is BoundExpr & { kind: 'param' } {
  return expr.kind === 'param' && expr.index >= SUBQUERY_SLOT_BASE;
}

/** Replace subquery placeholders by their results. */
function substituteSubqueries(expr: BoundExpr, results: ReadonlyMap<number, SubqueryResult>): BoundExpr {
  if (results.size === 0) return expr;
  return transformExpr(expr, (node) => {
    if (node.kind === 'in' && node.list.length === 1) {
      // `x IN (subquery)`: the list is the placeholder, possibly under a cast to the compared type.
      const item = node.list[0];
      const slot = isSlot(item) ? item : item.kind === 'cast' && isSlot(item.operand) ? item.operand : null;
      const result = slot ? results.get(slot.index) : undefined;
      if (slot && result?.mode === 'in') {
        if (result.values.length === 0) return literal(Types.BOOLEAN, node.negated ? 1 : 0);
        const list = result.values.map((value): BoundExpr => {
          const lit = literal(slot.type, value);
          return item.kind === 'cast' ? { ...item, operand: lit } : lit;
        });
        return { ...node, list };
      }
    }
    if (isSlot(node)) {
      const result = results.get(node.index);
      if (!result) throw new GaleneError('INTERNAL', [`subquery slot ${node.index} has no result`]);
      if (result.mode === 'in') return node; // expanded by its IN node
      if (result.mode === 'exists') return literal(Types.BOOLEAN, result.values[0]);
      return literal(node.type, result.values[0] ?? null);
    }
    return node;
  });
}

/** Rows a stream item stands for: a batch's rows, a partial aggregate's groups. */
const batchRows = (batch: Batch): number => batch.length;
const partialRows = (partial: PartialAggregate): number => partial.groupCount;

async function* instrument<T>(stream: AsyncIterable<T>, ctx: TaskContext, rowsCounter: string, timeCounter: string | null, rowsOf: (item: T) => number): AsyncIterable<T> {
  const iterator = stream[Symbol.asyncIterator]();
  const profile = ctx.profile;
  const task = ctx.task;
  let done = false;
  try {
    for (;;) {
      // A safe point between batches: stop if cancelled or timed out, give the loop back when due.
      const pause = task.checkpoint();
      if (pause !== undefined) await pause;
      const start = performance.now();
      const step = await iterator.next();
      if (timeCounter !== null) profile.add(timeCounter, performance.now() - start);
      if (step.done) {
        done = true;
        return;
      }
      // The batch may have come from I/O (a scan worker, a file read): the consumer's work on it then runs
      // from an I/O callback, outside the scheduler's turn budget. Re-enter through the scheduler first
      // when this task's slice is used up, so many statements woken together still share one budget.
      const resumed = task.checkpoint();
      if (resumed !== undefined) await resumed;
      profile.add(rowsCounter, rowsOf(step.value));
      yield step.value;
    }
  } finally {
    if (!done && iterator.return) await iterator.return();
  }
}

async function* noBatches(): AsyncIterable<Batch> {}

function childInputs(node: PhysicalNode, rt: OperatorRuntime): { inputs: AsyncIterable<Batch>[]; partialInputs: (AsyncIterable<PartialAggregate> | null)[] } {
  const rowsIn = operatorCounter(node, 'RowsIn');
  const inputs: AsyncIterable<Batch>[] = [];
  const partialInputs: (AsyncIterable<PartialAggregate> | null)[] = [];
  for (const child of node.children) {
    if (nodeProperties(child).output === 'partials') {
      inputs.push(noBatches());
      partialInputs.push(instrument(openPartialsNode(child, rt), rt.ctx, rowsIn, null, partialRows));
    } else {
      inputs.push(instrument(openNode(child, rt), rt.ctx, rowsIn, null, batchRows));
      partialInputs.push(null);
    }
  }
  return { inputs, partialInputs };
}

function openNode(node: PhysicalNode, rt: OperatorRuntime): AsyncIterable<Batch> {
  const { inputs, partialInputs } = childInputs(node, rt);
  return instrument(operatorDef(node).open(node, inputs, rt, partialInputs), rt.ctx, operatorCounter(node, 'RowsOut'), operatorCounter(node, 'TimeMs'), batchRows);
}

function openPartialsNode(node: PhysicalNode, rt: OperatorRuntime): AsyncIterable<PartialAggregate> {
  const def = operatorDef(node);
  if (def.openPartials === undefined) throw new GaleneError('INTERNAL', [`${def.label} #${node.id} yields no partial states`]);
  const { inputs } = childInputs(node, rt);
  return instrument(def.openPartials(node, inputs, rt), rt.ctx, operatorCounter(node, 'RowsOut'), operatorCounter(node, 'TimeMs'), partialRows);
}

/** The batches of a plan's result, produced as the consumer pulls them. */
export async function* executePhysicalPlan(plan: PhysicalPlan, ctx: TaskContext): AsyncIterable<Batch> {
  const results = new Map<number, SubqueryResult>();
  for (const sub of plan.subqueries) results.set(sub.slot, await runSubquery(sub, ctx));
  const rt: OperatorRuntime = {
    ctx,
    resolve: (expr) => substituteSubqueries(expr, results),
    compile: (expr) => compileExpr(substituteSubqueries(expr, results)),
    openSubtree: (node) => openNode(node, rt),
    workTables: new Map(),
    runtimeFilters: new Map(),
  };
  yield* openNode(plan.root, rt);
}
