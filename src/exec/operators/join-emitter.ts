/**
 * The output half of both join operators, for every join type whose build side is the right input. The
 * hash index or the nested loop hands it, per probe (left) batch, the candidate pairs (probe row, build
 * row); the emitter applies the residual condition and, by the type's shape (plan/join-types.ts), yields
 * joined rows, unmatched rows padded with NULLs, the kept rows of semi / anti joins, or the rows with
 * their mark column. After the last probe batch, finish() yields what RIGHT / FULL / RIGHT SEMI / RIGHT
 * ANTI joins output from the build side (the build rows that did, or did not, match).
 *
 * Per-row bookkeeping is typed arrays: `matched` per probe row of the batch, `buildMatched` per build
 * row for the whole join, the mark state per probe row (0 no passing pair, 1 only NULL tests, 2 a TRUE one).
 */
import { BATCH_SIZE, constantVector, selectRows, takeRows, type Batch, type FixedVector } from '../../common/column';
import { GaleneError } from '../../common/errors';
import { Types } from '../../common/types';
import { selectTrue } from '../expr';
import type { CompiledExpr } from '../expr-api';
import { JOIN_SHAPES, type JoinShape } from '../plan/join-types';
import { exprToString } from '../plan/bound-expr-utils';
import type { HashJoinNode, JoinType, NestedLoopJoinNode, OutputColumn } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { pairBatch, type BuildSide, type RowPairs } from './join-common';

const MARK_NONE = 0;
const MARK_NULL = 1;
const MARK_TRUE = 2;

export interface JoinEmitterOptions {
  readonly type: JoinType;
  readonly build: BuildSide;
  /** The probe (left) input's columns, for the NULL row an unmatched build row is padded with. */
  readonly leftOutput: readonly OutputColumn[];
  readonly condition: CompiledExpr | null;
  readonly markCondition: CompiledExpr | null;
  /** Set for a correlated scalar subquery's left join: the subquery text of the error on a second match. */
  readonly assertOneMatch?: string;
}

export class JoinEmitter {
  private readonly type: JoinType;
  private readonly shape: JoinShape;
  private readonly build: BuildSide;
  private readonly leftOutput: readonly OutputColumn[];
  private readonly condition: CompiledExpr | null;
  private readonly markCondition: CompiledExpr | null;
  private readonly assertOneMatch: string | undefined;
  private readonly rt: OperatorRuntime;
  /** Per build row: some pair with it passed (types that output build rows at the end). */
  private readonly buildMatched: Uint8Array | null;

  constructor(options: JoinEmitterOptions, rt: OperatorRuntime) {
    this.type = options.type;
    this.shape = JOIN_SHAPES[options.type];
    this.build = options.build;
    this.leftOutput = options.leftOutput;
    this.condition = options.condition;
    this.markCondition = options.markCondition;
    this.assertOneMatch = options.assertOneMatch;
    this.rt = rt;
    this.buildMatched = this.shape.keepUnmatchedRight || options.type === 'right_semi' || options.type === 'right_anti' ? new Uint8Array(options.build.rowCount) : null;
  }

  /** The output for one probe batch, whose candidate pairs (probe row, build row) are `pairs`. */
  *probe(probe: Batch, pairs: RowPairs): Iterable<Batch> {
    switch (this.type) {
      case 'inner':
      case 'cross':
      case 'right':
        yield* this.joined(probe, pairs, null);
        return;
      case 'left':
      case 'full': {
        const matched = new Uint8Array(probe.length);
        yield* this.joined(probe, pairs, matched);
        yield* this.unmatchedProbeRows(probe, matched);
        return;
      }
      case 'left_semi':
      case 'left_anti': {
        const matched = new Uint8Array(probe.length);
        this.markMatches(probe, pairs, matched);
        yield* this.probeRowsWhere(probe, matched, this.type === 'left_semi' ? 1 : 0);
        return;
      }
      case 'right_semi':
      case 'right_anti':
        this.markMatches(probe, pairs, null);
        return;
      case 'left_mark':
      case 'null_aware_left_anti': {
        const state = this.markStates(probe, pairs);
        if (this.type === 'null_aware_left_anti') {
          yield* this.probeRowsWhere(probe, state, MARK_NONE);
          return;
        }
        const values = new Uint8Array(probe.length);
        const nulls = new Uint8Array(probe.length);
        let anyNull = 0;
        for (let rowIdx = 0; rowIdx < probe.length; rowIdx++) {
          values[rowIdx] = state[rowIdx] === MARK_TRUE ? 1 : 0;
          nulls[rowIdx] = state[rowIdx] === MARK_NULL ? 1 : 0;
          anyNull |= nulls[rowIdx];
        }
        const mark: FixedVector = { kind: 'fixed', type: Types.BOOLEAN, length: probe.length, values, nulls: anyNull ? nulls : null };
        yield { length: probe.length, columns: [...probe.columns, mark] };
        return;
      }
    }
  }

  /** After the last probe batch: the build rows RIGHT / FULL (unmatched, NULL-padded), RIGHT SEMI / ANTI output. */
  *finish(): Iterable<Batch> {
    const buildMatched = this.buildMatched;
    if (buildMatched === null) return;
    const want = this.type === 'right_semi' ? 1 : 0;
    const ids = new Int32Array(BATCH_SIZE);
    let count = 0;
    const flush = (): Batch => {
      if (this.type === 'right_semi' || this.type === 'right_anti') return selectRows(this.build.batch, ids, count);
      const nullLeft: Batch = { length: 1, columns: this.leftOutput.map((column) => constantVector(column.type, null, 1)) };
      return pairBatch(nullLeft, new Int32Array(count), this.build.batch, ids, count);
    };
    for (let buildRow = 0; buildRow < buildMatched.length; buildRow++) {
      if (buildMatched[buildRow] !== want) continue;
      ids[count++] = buildRow;
      if (count === BATCH_SIZE) {
        yield flush();
        count = 0;
      }
    }
    if (count > 0) yield flush();
  }

  /**
   * Passing pairs in chunks of at most BATCH_SIZE: the probe and build row ids of each and, when the
   * pairs' joined batch was needed (a condition to evaluate), that batch and the passing positions.
   */
  private *passing(probe: Batch, pairs: RowPairs, needBatch: boolean): Iterable<{ leftIds: Int32Array; rightIds: Int32Array; batch: Batch | null; rowIds: Int32Array | null; count: number }> {
    for (let start = 0; start < pairs.count; start += BATCH_SIZE) {
      const end = Math.min(pairs.count, start + BATCH_SIZE);
      const leftIds = pairs.leftIds.subarray(start, end);
      const rightIds = pairs.rightIds.subarray(start, end);
      if (this.condition === null && !needBatch) {
        yield { leftIds, rightIds, batch: null, rowIds: null, count: end - start };
        continue;
      }
      const batch = pairBatch(probe, leftIds, this.build.withNullRow, rightIds, end - start);
      if (this.condition === null) {
        yield { leftIds, rightIds, batch, rowIds: null, count: end - start };
        continue;
      }
      const { rowIds, count } = selectTrue(this.condition(batch, this.rt.ctx));
      if (count > 0) yield { leftIds, rightIds, batch, rowIds, count };
    }
  }

  /** Joined rows of the passing pairs (left ++ right); records matches of probe rows and build rows. */
  private *joined(probe: Batch, pairs: RowPairs, matched: Uint8Array | null): Iterable<Batch> {
    const buildMatched = this.buildMatched;
    const counts = this.assertOneMatch !== undefined ? new Uint8Array(probe.length) : null;
    for (const chunk of this.passing(probe, pairs, true)) {
      const { leftIds, rightIds, rowIds, count } = chunk;
      for (let pos = 0; pos < count; pos++) {
        const pairIdx = rowIds === null ? pos : rowIds[pos];
        if (matched !== null) matched[leftIds[pairIdx]] = 1;
        if (buildMatched !== null) buildMatched[rightIds[pairIdx]] = 1;
        if (counts !== null && ++counts[leftIds[pairIdx]] > 1) throw new GaleneError('SCALAR_SUBQUERY_ROWS', [this.assertOneMatch ?? '']);
      }
      const batch = chunk.batch!;
      yield rowIds === null || count === batch.length ? batch : selectRows(batch, rowIds, count);
    }
  }

  /** Sets matched[probe row] (when given) and buildMatched[build row] for every passing pair. */
  private markMatches(probe: Batch, pairs: RowPairs, matched: Uint8Array | null): void {
    const buildMatched = this.buildMatched;
    for (const { leftIds, rightIds, rowIds, count } of this.passing(probe, pairs, false)) {
      for (let pos = 0; pos < count; pos++) {
        const pairIdx = rowIds === null ? pos : rowIds[pos];
        if (matched !== null) matched[leftIds[pairIdx]] = 1;
        if (buildMatched !== null) buildMatched[rightIds[pairIdx]] = 1;
      }
    }
  }

  /** Per probe row: MARK_TRUE when a passing pair's mark test is TRUE, MARK_NULL when one is only NULL. */
  private markStates(probe: Batch, pairs: RowPairs): Uint8Array {
    const state = new Uint8Array(probe.length);
    const test = this.markCondition;
    for (const chunk of this.passing(probe, pairs, test !== null)) {
      const { leftIds, rowIds, count } = chunk;
      if (test === null) {
        for (let pos = 0; pos < count; pos++) state[leftIds[rowIds === null ? pos : rowIds[pos]]] = MARK_TRUE;
        continue;
      }
      const batch = rowIds === null ? chunk.batch! : selectRows(chunk.batch!, rowIds, count);
      const result = test(batch, this.rt.ctx);
      const nulls = result.nulls;
      const truth = new Uint8Array(count);
      const selected = selectTrue(result);
      for (let pos = 0; pos < selected.count; pos++) truth[selected.rowIds[pos]] = 1;
      for (let pos = 0; pos < count; pos++) {
        const probeRow = leftIds[rowIds === null ? pos : rowIds[pos]];
        if (truth[pos] === 1) state[probeRow] = MARK_TRUE;
        else if (nulls !== null && nulls[pos] === 1 && state[probeRow] === MARK_NONE) state[probeRow] = MARK_NULL;
      }
    }
    return state;
  }

  /** Probe rows without a passing pair, with the build side's NULL row. */
  private *unmatchedProbeRows(probe: Batch, matched: Uint8Array): Iterable<Batch> {
    const ids = new Int32Array(probe.length);
    let count = 0;
    for (let rowIdx = 0; rowIdx < probe.length; rowIdx++) if (matched[rowIdx] === 0) ids[count++] = rowIdx;
    if (count === 0) return;
    const nullIds = new Int32Array(count).fill(this.build.rowCount);
    yield pairBatch(probe, ids, this.build.withNullRow, nullIds, count);
  }

  /** The probe rows whose flag equals `want` (semi: matched, anti: not). */
  private *probeRowsWhere(probe: Batch, flags: Uint8Array, want: number): Iterable<Batch> {
    const ids = new Int32Array(probe.length);
    let count = 0;
    for (let rowIdx = 0; rowIdx < probe.length; rowIdx++) {
      ids[count] = rowIdx;
      count += flags[rowIdx] === want ? 1 : 0;
    }
    if (count === probe.length) yield probe;
    else if (count > 0) yield { length: count, columns: probe.columns.map((vec) => takeRows(vec, ids, count)) };
  }
}

/** Whether a join with an empty build side still outputs probe rows (so the probe must be read). */
export function keepsProbeRowsWithoutMatch(type: JoinType): boolean {
  return type === 'left' || type === 'full' || type === 'left_anti' || type === 'null_aware_left_anti' || type === 'left_mark';
}

/** The emitter of a join node whose build side (`build`) is its right input. */
export function joinEmitterOptions(node: HashJoinNode | NestedLoopJoinNode, build: BuildSide, rt: OperatorRuntime): JoinEmitterOptions {
  return {
    type: node.joinType,
    build,
    leftOutput: node.children[0].output,
    condition: node.condition ? rt.compile(node.condition) : null,
    markCondition: node.markCondition ? rt.compile(node.markCondition) : null,
    ...(node.assertOneMatch !== undefined ? { assertOneMatch: node.assertOneMatch } : {}),
  };
}

/** EXPLAIN lines of the mark test and the scalar-subquery check, when the join has them. */
export function explainJoinExtras(node: HashJoinNode | NestedLoopJoinNode): string[] {
  const lines: string[] = [];
  if (node.markCondition) lines.push(`mark condition: ${exprToString(node.markCondition)}`);
  if (node.assertOneMatch !== undefined) lines.push('assert: at most 1 match per left row');
  return lines;
}
