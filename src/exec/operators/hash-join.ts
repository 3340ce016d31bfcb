/**
 * HashJoin: equi-joins of every join type. The build side is read whole into one batch and indexed by
 * its key (Map from key to the first row, `next` chaining duplicates in input order); the probe side
 * streams. NULL keys never match. ON conditions that are not equalities run on the joined pairs.
 * The planner builds the smaller side of an INNER join (by estimated rows); every other type builds the
 * right and hands the probe's pairs to a JoinEmitter (join-emitter.ts), which outputs by join type.
 */
import type { Batch } from '../../common/column';
import { exprToString } from '../plan/bound-expr-utils';
import type { HashJoinNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { physicalKind } from '../../common/types';
import type { Vector } from '../../common/column';
import { makeRowKey } from './group-key-table';
import { JOIN_SHAPES } from '../plan/join-types';
import { buildRuntimeFilter, runtimeFilterName } from '../runtime-filter';
import { emitPairs, materializeBuild, RowPairs } from './join-common';
import { explainJoinExtras, JoinEmitter, joinEmitterOptions, keepsProbeRowsWithoutMatch } from './join-emitter';

export async function* openHashJoin(node: HashJoinNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const buildIsLeft = node.buildSide === 'left';
  const buildChild = node.children[buildIsLeft ? 0 : 1];
  const build = await materializeBuild(inputs[buildIsLeft ? 0 : 1], buildChild.output, rt.ctx.task);
  try {
    if (build.rowCount === 0 && !keepsProbeRowsWithoutMatch(node.joinType)) return;
    const buildKeyFns = (buildIsLeft ? node.leftKeys : node.rightKeys).map((expr) => rt.compile(expr));
    const probeKeyFns = (buildIsLeft ? node.rightKeys : node.leftKeys).map((expr) => rt.compile(expr));
    const condition = node.condition ? rt.compile(node.condition) : null;

    const buildKeys = build.rowCount > 0 ? buildKeyFns.map((fn) => fn(build.batch, rt.ctx)) : [];
    publishRuntimeFilters(node, buildKeys, build.rowCount, rt);
    const index = buildKeys.length === 1 && isNumericKey(buildKeys[0]) ? new NumericJoinIndex(buildKeys[0], build.rowCount) : await GenericJoinIndex.build(buildKeys, build.rowCount, () => rt.ctx.task.checkpoint());
    const pairs = new RowPairs();
    const emitter = buildIsLeft ? null : new JoinEmitter(joinEmitterOptions(node, build, rt), rt);
    for await (const probe of inputs[buildIsLeft ? 1 : 0]) {
      if (probe.length === 0) continue;
      pairs.clear();
      index.probe(probeKeyFns.map((fn) => fn(probe, rt.ctx)), probe.length, pairs, buildIsLeft);
      if (emitter === null) yield* emitPairs(build.batch, probe, pairs, condition, rt, null);
      else yield* emitter.probe(probe, pairs);
    }
    if (emitter !== null) yield* emitter.finish();
  } finally {
    build.release();
  }
}

export function explainHashJoin(node: HashJoinNode): string[] {
  const lines = [
    `join type: ${JOIN_SHAPES[node.joinType].label}`,
    `equi keys: ${node.leftKeys.map((key, keyIdx) => `${exprToString(key)} = ${exprToString(node.rightKeys[keyIdx])}`).join(', ')}`,
  ];
  if (node.condition) lines.push(`other condition: ${exprToString(node.condition)}`);
  lines.push(...explainJoinExtras(node));
  lines.push(`build side: ${node.buildSide}`);
  const filters = node.runtimeFilters ?? [];
  if (filters.length > 0) {
    const buildKeys = node.buildSide === 'left' ? node.leftKeys : node.rightKeys;
    lines.push(`runtime filters: ${filters.map((rf) => `${runtimeFilterName(rf.id)}[${rf.type}] <- ${exprToString(buildKeys[rf.keyIdx])}`).join(', ')}`);
  }
  return lines;
}

/**
 * Builds the join's runtime filters from its build keys (before the probe side is pulled, so before the
 * scans that apply them start) and hands them to those scans through the run's filter map. Profile:
 * `HashJoin#id.RuntimeFilterInfo.RF000.<counter>` — the values of an IN filter, a bloom filter's bytes.
 */
function publishRuntimeFilters(node: HashJoinNode, buildKeys: readonly Vector[], rowCount: number, rt: OperatorRuntime): void {
  const filters = node.runtimeFilters;
  if (filters === undefined) return;
  for (const source of filters) {
    const start = performance.now();
    const value = buildRuntimeFilter(source.id, source.type, source.targetColumn, source.columnType, buildKeys[source.keyIdx], rowCount, source);
    rt.runtimeFilters.set(source.id, value);
    const prefix = `${node.kind}#${node.id}.RuntimeFilterInfo.${runtimeFilterName(source.id)}`;
    rt.ctx.profile.add(`${prefix}.BuildRows`, rowCount);
    rt.ctx.profile.add(`${prefix}.BuildTimeMs`, performance.now() - start);
    if (value.inValues !== null) rt.ctx.profile.add(`${prefix}.InFilterSize`, value.inValues.length);
    if (value.bloom !== null) rt.ctx.profile.add(`${prefix}.BloomFilterBytes`, value.bloom.byteLength);
  }
}

/** Build-side rows by key; probe() appends (probe row, build row) pairs, or (build, probe) when buildIsLeft. */
interface JoinIndex {
  probe(keys: readonly Vector[], rowCount: number, pairs: RowPairs, buildIsLeft: boolean): void;
}

function isNumericKey(vec: Vector): boolean {
  const kind = physicalKind(vec.type);
  return vec.kind === 'fixed' && kind !== 'i64' && kind !== 'bigint' && kind !== 'string';
}

function hashKey(value: number): number {
  return (Math.imul((value | 0) ^ Math.trunc(value / 4294967296), 0x9e3779b1) >>> 0);
}

/** One numeric key: open addressing over a Float64Array of distinct keys, rows chained through `next`. */
class NumericJoinIndex implements JoinIndex {
  private readonly slotKeys: Float64Array;
  private readonly slotHeads: Int32Array;
  private readonly next: Int32Array;
  private readonly mask: number;

  constructor(keys: Vector, rowCount: number) {
    let capacity = 16;
    while (capacity < rowCount * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.slotKeys = new Float64Array(capacity);
    this.slotHeads = new Int32Array(capacity).fill(-1);
    this.next = new Int32Array(rowCount);
    const values = (keys as { values: ArrayLike<number> }).values;
    const nulls = keys.nulls;
    for (let rowIdx = rowCount - 1; rowIdx >= 0; rowIdx--) {
      if (nulls !== null && nulls[rowIdx] === 1) continue;
      const value = values[rowIdx] === 0 ? 0 : values[rowIdx];
      let slot = hashKey(value) & this.mask;
      while (this.slotHeads[slot] >= 0 && this.slotKeys[slot] !== value) slot = (slot + 1) & this.mask;
      this.next[rowIdx] = this.slotHeads[slot];
      this.slotKeys[slot] = value;
      this.slotHeads[slot] = rowIdx;
    }
  }

  probe(keys: readonly Vector[], rowCount: number, pairs: RowPairs, buildIsLeft: boolean): void {
    const vec = keys[0];
    if (vec.kind !== 'fixed') return new GenericJoinIndexProbe(this).probe(keys, rowCount, pairs, buildIsLeft);
    const values = vec.values as ArrayLike<number | bigint>;
    const nulls = vec.nulls;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx] === 1) continue;
      const value = Number(values[rowIdx]);
      let slot = hashKey(value) & this.mask;
      while (this.slotHeads[slot] >= 0 && this.slotKeys[slot] !== value) slot = (slot + 1) & this.mask;
      for (let buildRow = this.slotHeads[slot]; buildRow >= 0; buildRow = this.next[buildRow]) {
        if (buildIsLeft) pairs.push(buildRow, rowIdx);
        else pairs.push(rowIdx, buildRow);
      }
    }
  }

  lookupFirst(value: number): number {
    let slot = hashKey(value) & this.mask;
    while (this.slotHeads[slot] >= 0 && this.slotKeys[slot] !== value) slot = (slot + 1) & this.mask;
    return this.slotHeads[slot];
  }

  nextRow(row: number): number {
    return this.next[row];
  }
}

/** Probing a numeric index with a non-fixed key vector (defensive: keys are cast to one type). */
class GenericJoinIndexProbe {
  private readonly index: NumericJoinIndex;
  constructor(index: NumericJoinIndex) {
    this.index = index;
  }
  probe(keys: readonly Vector[], rowCount: number, pairs: RowPairs, buildIsLeft: boolean): void {
    const rowKey = makeRowKey(keys, true);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const key = rowKey(rowIdx);
      if (key === undefined || key === null) continue;
      for (let buildRow = this.index.lookupFirst(Number(key)); buildRow >= 0; buildRow = this.index.nextRow(buildRow)) {
        if (buildIsLeft) pairs.push(buildRow, rowIdx);
        else pairs.push(rowIdx, buildRow);
      }
    }
  }
}

/** Build rows the generic index inserts between checkpoints. */
const GENERIC_BUILD_CHUNK_ROWS = 8192;

/** Any keys: a Map from the row key (value or serialization) to the first row, chained through `next`. */
class GenericJoinIndex implements JoinIndex {
  private readonly heads = new Map<string | number | bigint | null, number>();
  private readonly next: Int32Array;

  private constructor(rowCount: number) {
    this.next = new Int32Array(rowCount);
  }

  /**
   * Index the build rows, last to first (so chains run in input order), in chunks with an event-loop
   * checkpoint between them: Map inserts cost about a microsecond each, a large build side seconds.
   */
  static async build(keys: readonly Vector[], rowCount: number, checkpoint: () => Promise<void> | undefined): Promise<GenericJoinIndex> {
    const index = new GenericJoinIndex(rowCount);
    if (rowCount === 0) return index;
    const rowKey = makeRowKey(keys, true);
    const { heads, next } = index;
    for (let chunkEnd = rowCount; chunkEnd > 0; chunkEnd -= GENERIC_BUILD_CHUNK_ROWS) {
      for (let rowIdx = chunkEnd - 1, stop = Math.max(0, chunkEnd - GENERIC_BUILD_CHUNK_ROWS); rowIdx >= stop; rowIdx--) {
        const key = rowKey(rowIdx);
        if (key === undefined) continue;
        next[rowIdx] = heads.get(key) ?? -1;
        heads.set(key, rowIdx);
      }
      const pause = checkpoint();
      if (pause !== undefined) await pause;
    }
    return index;
  }

  probe(keys: readonly Vector[], rowCount: number, pairs: RowPairs, buildIsLeft: boolean): void {
    const rowKey = makeRowKey(keys, true);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const key = rowKey(rowIdx);
      if (key === undefined) continue;
      for (let buildRow = this.heads.get(key) ?? -1; buildRow >= 0; buildRow = this.next[buildRow]) {
        if (buildIsLeft) pairs.push(buildRow, rowIdx);
        else pairs.push(rowIdx, buildRow);
      }
    }
  }
}
