/**
 * The work of a hash aggregate over a stream of batches, apart from the operator plumbing, so the same
 * code runs in the HashAggregate operator and, as a partial aggregate, in scan workers (the fragment
 * runtime, src/exec/parallel/run-fragment.ts): GROUP BY keys -> dense group ids -> one AggregateAccumulator
 * per aggregate call.
 *
 * An optional filter is fused in: the predicate becomes a selection vector and no filtered copy of the
 * batch's columns is made. When most rows pass (and the keys and arguments cannot fail on any row) the
 * keys are compacted to the selected rows only (keys are few and usually dictionary codes), their group
 * ids are scattered back to row positions, and rejected rows go to a reserved group 0 that every
 * accumulator carries and finish() drops: accumulator group = key-table group + 1. When few rows pass,
 * the referenced columns are compacted instead (cheaper than evaluating arguments on rejected rows).
 */
import { BATCH_SIZE, sliceVector, takeRows, type Batch, type Vector } from '../../common/column';
import type { BoundExpr } from '../bound-expr';
import type { TaskContext } from '../context';
import type { PartialAggregate } from '../aggregate-state';
import type { AggregateAccumulator, CompiledExpr } from '../expr-api';
import { resolveAggregate, selectTrue } from '../expr';
import { collectColumns } from '../plan/bound-expr-utils';
import type { AggregateSpec } from '../plan/physical-plan';
import { createGroupKeyTable, type GroupKeyTable } from './group-key-table';

/** Scalar functions that return a value (possibly NULL) for every input row and never throw on data. */
const ROW_SAFE_FUNCTIONS: ReadonlySet<string> = new Set([
  'add', 'subtract', 'multiply', 'divide', 'mod', 'int_divide', 'negative',
  'eq', 'eq_null_safe', 'ne', 'lt', 'le', 'gt', 'ge', 'xor', 'bitand', 'bitor', 'bitxor', 'bitnot',
  'and', 'or', 'not', 'if', 'ifnull', 'nvl', 'coalesce', 'nullif', 'abs',
  'year', 'month', 'day', 'dayofmonth', 'quarter', 'upper', 'lower', 'length', 'substring', 'substr',
]);

/** True when evaluating `expr` on a row the filter rejects cannot fail the statement. */
export function isRowSafe(expr: BoundExpr): boolean {
  switch (expr.kind) {
    case 'column':
    case 'literal':
    case 'param':
      return true;
    case 'call':
      return ROW_SAFE_FUNCTIONS.has(expr.name.toLowerCase()) && expr.args.every(isRowSafe);
    case 'cast':
      return isRowSafe(expr.operand);
    case 'case':
      return expr.whens.every((when) => isRowSafe(when.when) && isRowSafe(when.then)) && (expr.elseExpr === null || isRowSafe(expr.elseExpr));
    case 'in':
      return isRowSafe(expr.operand) && expr.list.every(isRowSafe);
    case 'and':
    case 'or':
    case 'not':
      return expr.args.every(isRowSafe);
    case 'isnull':
      return isRowSafe(expr.operand);
    case 'lambda':
      return false;
  }
}

/** Fraction of rows at or above which the fused path evaluates arguments over all rows (reject group). */
const REJECT_GROUP_MIN_PASS = 0.5;

export interface GroupedAggregationSpec {
  readonly groupKeys: readonly BoundExpr[];
  readonly aggregates: readonly AggregateSpec[];
  /** Rows whose value is not TRUE are skipped. */
  readonly filter: BoundExpr | null;
}

export class GroupedAggregation {
  private readonly keyFns: CompiledExpr[];
  private readonly argFns: CompiledExpr[][];
  private readonly filterFn: CompiledExpr | null;
  readonly accumulators: AggregateAccumulator[];
  private readonly table: GroupKeyTable;
  /** 1 when a filter is fused: accumulator group 0 holds rejected rows. */
  private readonly base: number;
  private readonly rejectGroupAllowed: boolean;
  /** Input columns the keys and arguments read (compacted on the selective path). */
  private readonly usedColumns: number[];
  private groupIds: Int32Array = new Int32Array(BATCH_SIZE);
  private tableIds: Int32Array = new Int32Array(BATCH_SIZE);
  private selection: Int32Array = new Int32Array(BATCH_SIZE);

  /**
   * `compile(expr, reuseBuffers)`: compileExpr with subqueries resolved; reuseBuffers is true where the
   * result is consumed before the next batch (keys, arguments and predicate here: accumulators copy what
   * they keep), except under DISTINCT, whose accumulator keeps argument vectors.
   */
  constructor(spec: GroupedAggregationSpec, compile: (expr: BoundExpr, reuseBuffers: boolean) => CompiledExpr, private readonly ctx: TaskContext) {
    const reuse = spec.aggregates.every((agg) => !agg.distinct);
    this.keyFns = spec.groupKeys.map((expr) => compile(expr, reuse));
    this.argFns = spec.aggregates.map((agg) => agg.args.map((expr) => compile(expr, reuse)));
    this.accumulators = spec.aggregates.map((agg) => resolveAggregate(agg.name, agg.argTypes, agg.distinct, agg.order).create());
    this.table = createGroupKeyTable(spec.groupKeys.map((expr) => expr.type));
    this.filterFn = spec.filter === null ? null : compile(spec.filter, true);
    this.base = spec.filter === null ? 0 : 1;
    const used = new Set<number>();
    for (const expr of spec.groupKeys) collectColumns(expr, used);
    for (const agg of spec.aggregates) for (const arg of agg.args) collectColumns(arg, used);
    this.usedColumns = [...used];
    this.rejectGroupAllowed = spec.groupKeys.every(isRowSafe) && spec.aggregates.every((agg) => agg.args.every(isRowSafe));
  }

  get groupCount(): number {
    return this.table.groupCount;
  }

  /** Add one batch's rows. */
  consume(batch: Batch): void {
    const rowCount = batch.length;
    if (rowCount === 0) return;
    if (this.filterFn === null) return this.update(batch, rowCount, null, 0);
    if (this.selection.length < rowCount) this.selection = new Int32Array(rowCount);
    const { rowIds, count } = selectTrue(this.filterFn(batch, this.ctx), this.selection);
    this.selection = rowIds;
    if (count === 0) return;
    if (count === rowCount) return this.update(batch, rowCount, null, 0);
    if (this.rejectGroupAllowed && count >= rowCount * REJECT_GROUP_MIN_PASS) return this.update(batch, rowCount, rowIds, count);
    // Few rows pass: compact only the columns the keys and arguments read.
    const columns = batch.columns.slice();
    for (const colIdx of this.usedColumns) columns[colIdx] = takeRows(batch.columns[colIdx], rowIds, count);
    this.update({ length: count, columns }, count, null, 0);
  }

  /** `rowIds`/`count`: the selected rows when rejected rows go to group 0; null when every row counts. */
  private update(batch: Batch, rowCount: number, rowIds: Int32Array | null, count: number): void {
    if (this.groupIds.length < rowCount) {
      this.groupIds = new Int32Array(rowCount);
      this.tableIds = new Int32Array(rowCount);
    }
    const groupIds = this.groupIds;
    const base = this.base;
    let keys = this.keyFns.map((fn) => fn(batch, this.ctx));
    if (rowIds === null) {
      if (base === 0) this.table.assign(keys, rowCount, groupIds);
      else {
        const tableIds = this.tableIds;
        this.table.assign(keys, rowCount, tableIds);
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) groupIds[rowIdx] = tableIds[rowIdx] + 1;
      }
    } else {
      if (keys.length > 0) keys = keys.map((vec) => takeRows(vec, rowIds, count));
      const tableIds = this.tableIds;
      this.table.assign(keys, count, tableIds);
      groupIds.fill(0, 0, rowCount);
      for (let selIdx = 0; selIdx < count; selIdx++) groupIds[rowIds[selIdx]] = tableIds[selIdx] + 1;
    }
    const groupCount = this.table.groupCount + base;
    for (let aggIdx = 0; aggIdx < this.accumulators.length; aggIdx++) {
      const fns = this.argFns[aggIdx];
      const args = new Array<Vector>(fns.length);
      for (let argIdx = 0; argIdx < fns.length; argIdx++) args[argIdx] = fns[argIdx](batch, this.ctx);
      const accumulator = this.accumulators[aggIdx];
      accumulator.resize(groupCount);
      accumulator.update(groupIds, args, rowCount);
    }
  }

  /** Keys then aggregate values, one row per group (group id order); null when there is no group. */
  finish(): Vector[] | null {
    const groupCount = this.table.groupCount;
    if (groupCount === 0) return null;
    const columns: Vector[] = this.table.finishKeys();
    const base = this.base;
    for (const accumulator of this.accumulators) {
      accumulator.resize(groupCount + base);
      const values = accumulator.finalize(groupCount + base);
      columns.push(base === 0 ? values : sliceVector(values, base, groupCount + base));
    }
    return columns;
  }

  /** Bytes accumulators hold beyond their per-group state (DISTINCT sets): see AggregateAccumulator.stateBytes. */
  stateBytes(): number {
    let bytes = 0;
    for (const accumulator of this.accumulators) bytes += accumulator.stateBytes?.() ?? 0;
    return bytes;
  }

  /** True when every accumulator can hand its state to another thread and merge one in. */
  canPartial(): boolean {
    return this.accumulators.every((acc) => acc.serialize !== undefined && acc.merge !== undefined);
  }

  /** This aggregation's state (after the last consume) for merging elsewhere. */
  partial(): PartialAggregate {
    const groupCount = this.table.groupCount;
    const base = this.base;
    const keys = groupCount === 0 ? [] : this.table.finishKeys();
    const states = this.accumulators.map((acc) => {
      acc.resize(groupCount + base);
      return acc.serialize!(groupCount + base);
    });
    return { groupCount, keys, states };
  }

  /** Merge a partial result produced by an aggregation of the same spec (partials merged in input order). */
  mergePartial(partial: PartialAggregate): void {
    const count = partial.groupCount;
    if (count === 0) return;
    if (this.tableIds.length < count) this.tableIds = new Int32Array(count);
    const tableIds = this.tableIds;
    this.table.assign(partial.keys, count, tableIds);
    const base = this.base;
    const partialBase = partial.states.length > 0 ? partial.states[0].groupCount - count : 0;
    // Map every partial accumulator group (reject group first when present) to ours.
    const groupMap = new Int32Array(count + partialBase);
    for (let group = 0; group < count; group++) groupMap[group + partialBase] = tableIds[group] + base;
    const groupCount = this.table.groupCount + base;
    for (let aggIdx = 0; aggIdx < this.accumulators.length; aggIdx++) {
      const accumulator = this.accumulators[aggIdx];
      accumulator.resize(groupCount);
      accumulator.merge!(partial.states[aggIdx], groupMap, partialBase);
    }
  }
}
