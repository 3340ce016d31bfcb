/**
 * Aggregate functions: declarations (name, typing, description, example) and their accumulators.
 *
 * An accumulator keeps per-group state in typed arrays indexed by dense group id, grown by resize().
 * update() loops over one batch; when only one group exists (no GROUP BY) the loops keep the running
 * state in locals. Empty groups finalize to NULL, except COUNT (0).
 */
import { getRaw, RawValue, Vector } from '../../../common/column';
import { DataType, isNumericType, isSketchType, isStringType, physicalKind, Types, typeToSql } from '../../../common/types';
import { galeneError } from '../../../common/errors';
import type { AggregateState } from '../../aggregate-state';
import type { AggregateOrder } from '../../bound-expr';
import type { AggregateAccumulator } from '../../expr-api';
import { bigintsAs } from '../functions/arithmetic';
import { decimalType, MAX_DECIMAL_PRECISION } from '../type-rules';
import { compareBytes } from '../../../common/bytes';
import { bigDivRound, checkStringBytes, STRING_COLUMN_MAX_BYTES, STRING_VALUE_MAX_BYTES, i64AllSafe, i64FromNumbers, i64ToNumbers, scaleOf, toF64, vectorFromNumbers, vectorFromValues } from '../vector-ops';
import { byteSource } from '../kernels';
import { ExactSumSnapshot, ExactSumState } from './exact-sum';
import { compareRawValues } from '../../../common/row-order';

export interface AggregateDef {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly signature: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Argument types to cast to and the result type. */
  readonly resolve: (argTypes: readonly DataType[]) => { argTypes: readonly DataType[]; returnType: DataType };
  /** A fresh accumulator (DISTINCT is applied around it by the registry). */
  readonly create: (argTypes: readonly DataType[], returnType: DataType) => AggregateAccumulator;
  /** The accumulator of the call with ORDER BY (its last order.length arguments are the keys); absent: ORDER BY is refused. */
  readonly createOrdered?: (argTypes: readonly DataType[], returnType: DataType, order: readonly AggregateOrder[]) => AggregateAccumulator;
  readonly description: string;
  readonly example: string;
}

/** Capacity growth for per-group typed arrays. */
export function grown<T extends Float64Array | Uint8Array | Int32Array | BigInt64Array>(array: T, groupCount: number): T {
  if (groupCount <= array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(groupCount, array.length * 2));
  next.set(array as never);
  return next;
}

/** Null map of a finalized aggregate: groups with no input value (also the window frames with none). */
export function emptyGroupNulls(counts: ArrayLike<number>, groupCount: number): Uint8Array | null {
  let nulls: Uint8Array | null = null;
  for (let group = 0; group < groupCount; group++) {
    if (counts[group] === 0) {
      nulls ??= new Uint8Array(groupCount);
      nulls[group] = 1;
    }
  }
  return nulls;
}

// ---------------------------------------------------------------- count

/** COUNT: per-group counts (count_if extends it with its own update). */
export class CountAccumulator implements AggregateAccumulator {
  protected counts = new Float64Array(16);
  protected groupCount = 0;

  resize(groupCount: number): void {
    this.counts = grown(this.counts, groupCount);
    this.groupCount = Math.max(this.groupCount, groupCount);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const counts = this.counts;
    let nulls: Uint8Array | null = null;
    if (args.length === 1) nulls = args[0].nulls;
    else if (args.length > 1) {
      for (const arg of args) {
        if (arg.nulls === null) continue;
        if (nulls === null) nulls = new Uint8Array(rowCount);
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) nulls[rowIdx] |= arg.nulls[rowIdx];
      }
    }
    if (this.groupCount === 1) {
      let count = rowCount;
      if (nulls !== null) for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) count -= nulls[rowIdx];
      counts[0] += count;
      return;
    }
    if (nulls === null) for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) counts[groupIds[rowIdx]]++;
    else for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) counts[groupIds[rowIdx]] += nulls[rowIdx] ^ 1;
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    return { kind: 'fixed', type: Types.BIGINT, length: groupCount, values: i64FromNumbers(this.counts, groupCount), nulls: null };
  }

  serialize(groupCount: number): AggregateState {
    return { groupCount, data: this.counts.slice(0, groupCount) };
  }

  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const partial = state.data as Float64Array;
    // A merged state has more than one group whatever the key table says: leave the one-group fast path.
    this.groupCount = Math.max(this.groupCount, 2);
    for (let group = fromGroup; group < state.groupCount; group++) this.counts[groupMap[group]] += partial[group];
  }
}

// ---------------------------------------------------------------- sum / avg

/** Float sums (FLOAT / DOUBLE inputs, and AVG of integers). */
class DoubleSumState {
  sums = new Float64Array(16);
  counts = new Float64Array(16);
  groupCount = 0;

  resize(groupCount: number): void {
    this.sums = grown(this.sums, groupCount);
    this.counts = grown(this.counts, groupCount);
    this.groupCount = Math.max(this.groupCount, groupCount);
  }

  update(groupIds: Int32Array, vec: Vector, rowCount: number): void {
    const values = toF64(vec);
    const nulls = vec.nulls;
    const sums = this.sums;
    const counts = this.counts;
    if (this.groupCount === 1) {
      let sum = 0;
      let count = 0;
      if (nulls === null) {
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) sum += values[rowIdx];
        count = rowCount;
      } else {
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
          if (nulls[rowIdx]) continue;
          sum += values[rowIdx];
          count++;
        }
      }
      sums[0] += sum;
      counts[0] += count;
      return;
    }
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx]) continue;
      const group = groupIds[rowIdx];
      sums[group] += values[rowIdx];
      counts[group]++;
    }
  }
}

type SumMode = 'double' | 'exact';

function sumMode(t: DataType): SumMode {
  return t.name === 'FLOAT' || t.name === 'DOUBLE' ? 'double' : 'exact';
}

class SumAccumulator implements AggregateAccumulator {
  private readonly exact = new ExactSumState();
  private readonly double = new DoubleSumState();
  /**
   * Exact sums merge to the same result in any grouping; float sums would round differently than one
   * sequential pass, so a DOUBLE sum has no partial form (it runs in one thread).
   */
  readonly serialize?: (groupCount: number) => AggregateState;
  readonly merge?: (state: AggregateState, groupMap: Int32Array, fromGroup: number) => void;

  /** `zeroWhenEmpty`: sum0, whose group without values sums to 0 rather than NULL. */
  constructor(private readonly mode: SumMode, private readonly returnType: DataType, private readonly avg: boolean, private readonly argType: DataType, private readonly zeroWhenEmpty = false) {
    if (mode === 'exact') {
      this.serialize = (groupCount) => ({ groupCount, data: this.exact.serialize(groupCount) });
      this.merge = (state, groupMap, fromGroup) => this.exact.merge(state.data as ExactSumSnapshot, groupMap, fromGroup);
    }
  }

  resize(groupCount: number): void {
    if (this.mode === 'exact') this.exact.resize(groupCount);
    else this.double.resize(groupCount);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    if (this.mode === 'exact') this.exact.update(groupIds, args[0], rowCount);
    else this.double.update(groupIds, args[0], rowCount);
  }

  finalize(groupCount: number): Vector {
    const sums = this.sums(groupCount);
    return this.zeroWhenEmpty ? { ...sums, nulls: null } : sums;
  }

  private sums(groupCount: number): Vector {
    this.resize(groupCount);
    const type = this.returnType;
    if (this.mode === 'double') {
      const { sums, counts } = this.double;
      const out = new Float64Array(groupCount);
      for (let group = 0; group < groupCount; group++) out[group] = this.avg ? sums[group] / counts[group] : sums[group];
      return { kind: 'fixed', type, length: groupCount, values: out, nulls: emptyGroupNulls(counts, groupCount) };
    }
    const state = this.exact;
    const nulls = emptyGroupNulls(state.counts, groupCount);
    if (this.avg) {
      if (type.name === 'DECIMAL') {
        // DECIMAL(38, s+4): exact total scaled up, divided by the count, rounded half away from zero.
        const up = 10n ** BigInt(scaleOf(type) - scaleOf(this.argType));
        const out = new Array<bigint>(groupCount);
        for (let group = 0; group < groupCount; group++) out[group] = state.counts[group] === 0 ? 0n : bigDivRound(state.total(group) * up, BigInt(state.counts[group]));
        return bigintsAs(type, out, nulls);
      }
      const out = new Float64Array(groupCount);
      const divisor = 10 ** scaleOf(this.argType);
      for (let group = 0; group < groupCount; group++) out[group] = state.counts[group] === 0 ? 0 : Number(state.total(group)) / divisor / state.counts[group];
      return { kind: 'fixed', type, length: groupCount, values: out, nulls };
    }
    if (state.allNumbers && physicalKind(type) === 'i64') {
      return { kind: 'fixed', type, length: groupCount, values: i64FromNumbers(state.sums, groupCount), nulls };
    }
    const out = new Array<bigint>(groupCount);
    for (let group = 0; group < groupCount; group++) out[group] = state.total(group);
    if (physicalKind(type) === 'i64') return bigintsAs(type, out.map((value) => BigInt.asIntN(64, value)), nulls);
    return bigintsAs(type, out, nulls);
  }
}

function resolveSum(argTypes: readonly DataType[]): { argTypes: DataType[]; returnType: DataType } {
  const t = argTypes[0];
  if (t.name === 'DECIMAL') return { argTypes: [t], returnType: decimalType(MAX_DECIMAL_PRECISION, t.scale ?? 0) };
  if (t.name === 'LARGEINT') return { argTypes: [t], returnType: Types.LARGEINT };
  if (t.name === 'TINYINT' || t.name === 'SMALLINT' || t.name === 'INT' || t.name === 'BIGINT' || t.name === 'BOOLEAN') return { argTypes: [t], returnType: Types.BIGINT };
  return { argTypes: [Types.DOUBLE], returnType: Types.DOUBLE };
}

function resolveAvg(argTypes: readonly DataType[]): { argTypes: DataType[]; returnType: DataType } {
  const t = argTypes[0];
  if (t.name === 'DECIMAL') return { argTypes: [t], returnType: decimalType(MAX_DECIMAL_PRECISION, Math.min((t.scale ?? 0) + 4, MAX_DECIMAL_PRECISION)) };
  if (isNumericType(t) && t.name !== 'FLOAT' && t.name !== 'DOUBLE') return { argTypes: [t], returnType: Types.DOUBLE };
  return { argTypes: [Types.DOUBLE], returnType: Types.DOUBLE };
}

// ---------------------------------------------------------------- min / max

class MinMaxAccumulator implements AggregateAccumulator {
  private best = new Float64Array(16);
  private seen = new Uint8Array(16);
  /** bigint bests once a 64/128-bit value beyond 2^53 appears (or for LARGEINT / wide DECIMAL). */
  private bigBest: bigint[] | null = null;
  /** UTF-8 bytes of the best string per group. */
  private strBest: (Uint8Array | undefined)[] | null = null;
  private groupCount = 0;
  private readonly kind;

  constructor(private readonly isMax: boolean, private readonly type: DataType) {
    this.kind = physicalKind(type);
    if (this.kind === 'string') this.strBest = [];
    if (this.kind === 'bigint') this.bigBest = [];
  }

  resize(groupCount: number): void {
    this.best = grown(this.best, groupCount);
    this.seen = grown(this.seen, groupCount);
    this.groupCount = Math.max(this.groupCount, groupCount);
  }

  private switchToBig(): void {
    this.bigBest = Array.from(this.best, (value) => BigInt(value));
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const vec = args[0];
    const nulls = vec.nulls;
    const seen = this.seen;
    const isMax = this.isMax;
    if (this.strBest !== null) {
      const src = byteSource(vec);
      const bests = this.strBest;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx]) continue;
        const group = groupIds[rowIdx];
        const current = bests[group];
        const start = src.starts[rowIdx];
        const end = src.ends[rowIdx];
        if (current === undefined) {
          bests[group] = new Uint8Array(src.bytes.subarray(start, end));
          seen[group] = 1;
          continue;
        }
        const order = compareBytes(src.bytes, start, end, current, 0, current.length);
        if (isMax ? order > 0 : order < 0) bests[group] = new Uint8Array(src.bytes.subarray(start, end));
      }
      return;
    }
    if (vec.kind === 'fixed' && vec.values instanceof BigInt64Array && this.bigBest === null && !i64AllSafe(vec.values, rowCount)) this.switchToBig();
    if (this.bigBest !== null) {
      const values = (vec as { values: ArrayLike<bigint> }).values;
      const bests = this.bigBest;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx]) continue;
        const group = groupIds[rowIdx];
        const value = BigInt(values[rowIdx]);
        if (!seen[group] || (isMax ? value > bests[group] : value < bests[group])) {
          bests[group] = value;
          seen[group] = 1;
        }
      }
      return;
    }
    const values: ArrayLike<number> = vec.kind === 'fixed' && vec.values instanceof BigInt64Array ? i64ToNumbers(vec.values, rowCount) : (vec as { values: ArrayLike<number> }).values;
    const best = this.best;
    if (this.groupCount === 1) {
      let current = seen[0] ? best[0] : isMax ? -Infinity : Infinity;
      let any = seen[0];
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx]) continue;
        const value = values[rowIdx];
        any = 1;
        if (isMax ? value > current : value < current) current = value;
      }
      if (any) {
        best[0] = current;
        seen[0] = 1;
      }
      return;
    }
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx]) continue;
      const group = groupIds[rowIdx];
      const value = values[rowIdx];
      if (!seen[group] || (isMax ? value > best[group] : value < best[group])) {
        best[group] = value;
        seen[group] = 1;
      }
    }
  }

  serialize(groupCount: number): AggregateState {
    return {
      groupCount,
      data: { best: this.best.slice(0, groupCount), seen: this.seen.slice(0, groupCount), bigBest: this.bigBest?.slice(0, groupCount) ?? null, strBest: this.strBest?.slice(0, groupCount) ?? null },
    };
  }

  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const partial = state.data as { best: Float64Array; seen: Uint8Array; bigBest: (bigint | undefined)[] | null; strBest: (Uint8Array | undefined)[] | null };
    const isMax = this.isMax;
    const seen = this.seen;
    this.groupCount = Math.max(this.groupCount, 2);
    if (partial.bigBest !== null && this.bigBest === null) this.switchToBig();
    for (let group = fromGroup; group < state.groupCount; group++) {
      if (!partial.seen[group]) continue;
      const target = groupMap[group];
      if (this.strBest !== null) {
        const value = partial.strBest![group]!;
        const current = this.strBest[target];
        if (current === undefined || (isMax ? compareBytes(value, 0, value.length, current, 0, current.length) > 0 : compareBytes(value, 0, value.length, current, 0, current.length) < 0)) this.strBest[target] = value;
      } else if (this.bigBest !== null) {
        const value = partial.bigBest !== null ? partial.bigBest[group]! : BigInt(partial.best[group]);
        if (!seen[target] || (isMax ? value > this.bigBest[target] : value < this.bigBest[target])) this.bigBest[target] = value;
      } else {
        const value = partial.best[group];
        if (!seen[target] || (isMax ? value > this.best[target] : value < this.best[target])) this.best[target] = value;
      }
      seen[target] = 1;
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const nulls = emptyGroupNulls(this.seen, groupCount);
    if (this.strBest !== null) {
      const decoder = new TextDecoder();
      const values: RawValue[] = [];
      for (let group = 0; group < groupCount; group++) {
        const bytes = this.strBest[group];
        values.push(bytes === undefined ? null : decoder.decode(bytes));
      }
      return vectorFromValues(this.type, values);
    }
    if (this.bigBest !== null) {
      const out = new Array<bigint>(groupCount);
      for (let group = 0; group < groupCount; group++) out[group] = this.bigBest[group] ?? 0n;
      return bigintsAs(this.type, out, nulls);
    }
    return vectorFromNumbers(this.type, this.best.slice(0, groupCount), nulls);
  }
}

// ---------------------------------------------------------------- any_value, group_concat, variance

class AnyValueAccumulator implements AggregateAccumulator {
  private values: RawValue[] = [];
  private seen = new Uint8Array(16);
  constructor(private readonly type: DataType) {}

  resize(groupCount: number): void {
    this.seen = grown(this.seen, groupCount);
    while (this.values.length < groupCount) this.values.push(null);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const vec = args[0];
    const seen = this.seen;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const group = groupIds[rowIdx];
      if (seen[group] || (vec.nulls !== null && vec.nulls[rowIdx])) continue;
      seen[group] = 1;
      this.values[group] = getRaw(vec, rowIdx);
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    return vectorFromValues(this.type, this.values.slice(0, groupCount));
  }
  serialize(groupCount: number): AggregateState {
    return { groupCount, data: { values: this.values.slice(0, groupCount), seen: this.seen.slice(0, groupCount) } };
  }

  /** Partials merged in row order keep the first value a single pass would keep. */
  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const partial = state.data as { values: RawValue[]; seen: Uint8Array };
    for (let group = fromGroup; group < state.groupCount; group++) {
      const target = groupMap[group];
      if (this.seen[target] || !partial.seen[group]) continue;
      this.seen[target] = 1;
      this.values[target] = partial.values[group];
    }
  }
}

class GroupConcatAccumulator implements AggregateAccumulator {
  private parts: (string[] | undefined)[] = [];
  private separator: string | null = null;
  /** UTF-16 units held per group and over all groups (values + separators): the result's size, checked per update. */
  private groupUnits: number[] = [];
  private totalUnits = 0;

  resize(groupCount: number): void {
    while (this.parts.length < groupCount) this.parts.push(undefined);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const vec = args[0];
    if (this.separator === null) this.separator = args.length > 1 && rowCount > 0 ? String(getRaw(args[1], 0) ?? ', ') : ', ';
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const value = getRaw(vec, rowIdx);
      if (value === null) continue;
      const group = groupIds[rowIdx];
      const text = String(value);
      const units = text.length + this.separator.length;
      const groupUnits = (this.groupUnits[group] ?? 0) + units;
      this.groupUnits[group] = groupUnits;
      this.totalUnits += units;
      if (groupUnits > STRING_VALUE_MAX_BYTES || this.totalUnits > STRING_COLUMN_MAX_BYTES) checkStringBytes(this.totalUnits - groupUnits, groupUnits, group + 1);
      (this.parts[group] ??= []).push(text);
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const separator = this.separator ?? ', ';
    return vectorFromValues(Types.STRING, this.parts.slice(0, groupCount).map((parts) => (parts === undefined ? null : parts.join(separator))));
  }
}

/**
 * GROUP_CONCAT with ORDER BY: keeps every non-NULL value with its sort keys, then per group sorts by the
 * keys (stable: ties keep input order) and joins. Arguments: value[, separator], key1, key2, ...
 */
class OrderedGroupConcatAccumulator implements AggregateAccumulator {
  private groups: number[] = [];
  private texts: string[] = [];
  private keys: RawValue[][];
  private separator: string | null = null;
  private units = 0;

  constructor(private readonly order: readonly AggregateOrder[]) {
    this.keys = order.map(() => []);
  }

  resize(): void {}

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const plainCount = args.length - this.order.length;
    const vec = args[0];
    if (this.separator === null && rowCount > 0) this.separator = plainCount > 1 ? String(getRaw(args[1], 0) ?? ', ') : ', ';
    const keyVecs = args.slice(plainCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const value = getRaw(vec, rowIdx);
      if (value === null) continue;
      const text = String(value);
      this.units += text.length + (this.separator?.length ?? 0);
      if (this.units > STRING_COLUMN_MAX_BYTES) checkStringBytes(0, this.units, 1);
      this.groups.push(groupIds[rowIdx]);
      this.texts.push(text);
      keyVecs.forEach((keyVec, keyIdx) => this.keys[keyIdx].push(getRaw(keyVec, rowIdx)));
    }
  }

  stateBytes(): number {
    return this.units * 2 + this.groups.length * 16 * (1 + this.order.length);
  }

  finalize(groupCount: number): Vector {
    const rows = Array.from({ length: this.groups.length }, (_unused, idx) => idx);
    rows.sort((left, right) => {
      if (this.groups[left] !== this.groups[right]) return this.groups[left] - this.groups[right];
      for (let keyIdx = 0; keyIdx < this.order.length; keyIdx++) {
        const { descending, nullsFirst } = this.order[keyIdx];
        const a = this.keys[keyIdx][left];
        const b = this.keys[keyIdx][right];
        if (a === null || b === null) {
          if (a === b) continue;
          return (a === null) === nullsFirst ? -1 : 1;
        }
        const diff = compareRawValues(a, b);
        if (diff !== 0) return descending ? -diff : diff;
      }
      return left - right;
    });
    const parts: (string[] | undefined)[] = new Array(groupCount);
    for (const row of rows) (parts[this.groups[row]] ??= []).push(this.texts[row]);
    const separator = this.separator ?? ', ';
    const out: (string | null)[] = [];
    for (let group = 0; group < groupCount; group++) {
      const joined = parts[group]?.join(separator) ?? null;
      if (joined !== null && joined.length > STRING_VALUE_MAX_BYTES) checkStringBytes(0, joined.length, group + 1);
      out.push(joined);
    }
    return vectorFromValues(Types.STRING, out);
  }
}

/** Welford's online variance per group. */
class VarianceAccumulator implements AggregateAccumulator {
  private counts = new Float64Array(16);
  private means = new Float64Array(16);
  private m2 = new Float64Array(16);
  constructor(private readonly sample: boolean, private readonly sqrt: boolean) {}

  resize(groupCount: number): void {
    this.counts = grown(this.counts, groupCount);
    this.means = grown(this.means, groupCount);
    this.m2 = grown(this.m2, groupCount);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const values = toF64(args[0]);
    const nulls = args[0].nulls;
    const { counts, means, m2 } = this;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx]) continue;
      const group = groupIds[rowIdx];
      const value = values[rowIdx];
      const count = ++counts[group];
      const delta = value - means[group];
      means[group] += delta / count;
      m2[group] += delta * (value - means[group]);
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const out = new Float64Array(groupCount);
    const nulls = new Uint8Array(groupCount);
    let anyNull = false;
    for (let group = 0; group < groupCount; group++) {
      const count = this.counts[group];
      const denominator = this.sample ? count - 1 : count;
      if (denominator <= 0) {
        nulls[group] = 1;
        anyNull = true;
        continue;
      }
      const variance = this.m2[group] / denominator;
      out[group] = this.sqrt ? Math.sqrt(variance) : variance;
    }
    return { kind: 'fixed', type: Types.DOUBLE, length: groupCount, values: out, nulls: anyNull ? nulls : null };
  }
}

// ---------------------------------------------------------------- declarations

const same = (argTypes: readonly DataType[]) => ({ argTypes: [argTypes[0]], returnType: argTypes[0].name === 'NULL' ? Types.TINYINT : argTypes[0] });
/** MIN / MAX: any scalar type; not arrays. */
const sameScalar = (name: string) => (argTypes: readonly DataType[]) => {
  if (argTypes[0].name === 'ARRAY' || argTypes[0].name === 'JSON' || isSketchType(argTypes[0])) throw galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${typeToSql(argTypes[0])})`);
  return same(argTypes);
};
const toDouble = (argTypes: readonly DataType[]) => ({ argTypes: [isNumericType(argTypes[0]) ? argTypes[0] : Types.DOUBLE], returnType: Types.DOUBLE });

function varianceDef(name: string, aliases: string[], sample: boolean, sqrt: boolean, description: string): AggregateDef {
  return {
    name,
    aliases,
    signature: `${name}(x) -> DOUBLE`,
    minArgs: 1,
    maxArgs: 1,
    resolve: toDouble,
    create: () => new VarianceAccumulator(sample, sqrt),
    description,
    example: `SELECT ${name}(x) FROM t`,
  };
}

export const AGGREGATE_FUNCTIONS: readonly AggregateDef[] = [
  {
    name: 'count',
    signature: 'count(*) | count(x[, y...]) -> BIGINT',
    minArgs: 0,
    maxArgs: Infinity,
    resolve: (argTypes) => ({ argTypes, returnType: Types.BIGINT }),
    create: () => new CountAccumulator(),
    description: 'Number of rows (COUNT(*)) or of rows where every argument is non-NULL.',
    example: 'SELECT count(*) FROM t',
  },
  {
    name: 'sum',
    signature: 'sum(x) -> BIGINT | DECIMAL(38,s) | DOUBLE',
    minArgs: 1,
    maxArgs: 1,
    resolve: resolveSum,
    create: (argTypes, returnType) => new SumAccumulator(sumMode(argTypes[0]), returnType, false, argTypes[0]),
    description: 'Sum of non-NULL values, exact for integers and decimals; NULL when there are none.',
    example: 'SELECT sum(x) FROM t',
  },
  {
    name: 'sum0',
    signature: 'sum0(x) -> BIGINT | DECIMAL(38,s) | DOUBLE',
    minArgs: 1,
    maxArgs: 1,
    resolve: resolveSum,
    create: (argTypes, returnType) => new SumAccumulator(sumMode(argTypes[0]), returnType, false, argTypes[0], true),
    description: 'As sum, but 0 instead of NULL for a group without non-NULL values.',
    example: 'SELECT sum0(x) FROM t WHERE false',
  },
  {
    name: 'avg',
    signature: 'avg(x) -> DOUBLE | DECIMAL(38,s+4)',
    minArgs: 1,
    maxArgs: 1,
    resolve: resolveAvg,
    create: (argTypes, returnType) => new SumAccumulator(sumMode(argTypes[0]), returnType, true, argTypes[0]),
    description: 'Mean of non-NULL values (decimals exact, rounded half away from zero).',
    example: 'SELECT avg(x) FROM t',
  },
  {
    name: 'min',
    signature: 'min(x) -> type of x',
    minArgs: 1,
    maxArgs: 1,
    resolve: sameScalar('min'),
    create: (_argTypes, returnType) => new MinMaxAccumulator(false, returnType),
    description: 'Smallest non-NULL value (strings byte-wise).',
    example: 'SELECT min(x) FROM t',
  },
  {
    name: 'max',
    signature: 'max(x) -> type of x',
    minArgs: 1,
    maxArgs: 1,
    resolve: sameScalar('max'),
    create: (_argTypes, returnType) => new MinMaxAccumulator(true, returnType),
    description: 'Largest non-NULL value (strings byte-wise).',
    example: 'SELECT max(x) FROM t',
  },
  {
    name: 'any_value',
    aliases: ['any'],
    signature: 'any_value(x) -> type of x',
    minArgs: 1,
    maxArgs: 1,
    resolve: same,
    create: (_argTypes, returnType) => new AnyValueAccumulator(returnType),
    description: 'Some non-NULL value of the group.',
    example: 'SELECT any_value(x) FROM t',
  },
  {
    name: 'group_concat',
    signature: "group_concat([DISTINCT] x[, separator] [ORDER BY key [ASC|DESC], ...] [SEPARATOR sep]) -> VARCHAR (default separator ', ')",
    minArgs: 1,
    maxArgs: 2,
    resolve: (argTypes) => ({ argTypes: argTypes.map((t) => (isStringType(t) ? t : Types.STRING)), returnType: Types.STRING }),
    create: () => new GroupConcatAccumulator(),
    createOrdered: (_argTypes, _returnType, order) => new OrderedGroupConcatAccumulator(order),
    description: 'The non-NULL values joined by the separator, in input order or in the order of GROUP_CONCAT(x [, sep] ORDER BY key [ASC|DESC], ... [SEPARATOR sep]).',
    example: "SELECT group_concat(name, '|') FROM t",
  },
  varianceDef('variance', ['var_pop', 'variance_pop'], false, false, 'Population variance.'),
  varianceDef('var_samp', ['variance_samp'], true, false, 'Sample variance; NULL for fewer than two values.'),
  varianceDef('stddev', ['stddev_pop', 'std'], false, true, 'Population standard deviation.'),
  varianceDef('stddev_samp', [], true, true, 'Sample standard deviation; NULL for fewer than two values.'),
];
