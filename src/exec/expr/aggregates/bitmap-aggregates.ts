/**
 * Doris's BITMAP and HLL aggregates: bitmap_union / bitmap_union_count / bitmap_union_int / bitmap_agg /
 * bitmap_intersect / group_bitmap_xor / intersect_count over bitmaps (common/bitmap-value.ts), and
 * hll_union_agg / hll_union / hll_raw_agg over HLLs (common/hll-value.ts), and quantile_union over
 * QUANTILE_STATEs (common/quantile-state.ts).
 *
 * Every one keeps one state per group and has a partial form: a state serializes to its Doris bytes, so
 * a scan fragment's partial crosses to the final aggregate by structured clone and merges there with the
 * aggregate's own operation (union, intersection or xor).
 */
import { BitmapValue } from '../../../common/bitmap-value';
import type { RawValue, Vector } from '../../../common/column';
import { getRaw } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { HllValue } from '../../../common/hll-value';
import { QuantileStateValue } from '../../../common/quantile-state';
import { bitmapAt, quantileStateAt } from '../../../common/sketch-state';
import { DataType, isIntegerType, isSketchType, Types, typeToSql } from '../../../common/types';
import type { AggregateState } from '../../aggregate-state';
import type { AggregateAccumulator } from '../../expr-api';
import { integerAt, statesVector } from '../functions/bitmap-functions';
import type { AggregateDef } from './aggregate-functions';

type Sketch = BitmapValue | HllValue | QuantileStateValue;

/** How an aggregate folds rows and partial states into its per-group sketch, and what it returns. */
interface SketchAggregate<S extends Sketch> {
  /** The state of a group after row rowIdx of args is added (state undefined: the group's first row). */
  add(state: S | undefined, args: readonly Vector[], rowIdx: number): S | undefined;
  /** Two partial states of one group, in row order. */
  merge(left: S, right: S): S;
  deserialize(bytes: Uint8Array): S | null;
  finalize(states: readonly (S | undefined)[], groupCount: number): Vector;
}

class SketchAccumulator<S extends Sketch> implements AggregateAccumulator {
  private states: (S | undefined)[] = [];

  constructor(private readonly spec: SketchAggregate<S>) {}

  resize(groupCount: number): void {
    while (this.states.length < groupCount) this.states.push(undefined);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const states = this.states;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const group = groupIds[rowIdx];
      states[group] = this.spec.add(states[group], args, rowIdx);
    }
  }

  stateBytes(): number {
    let bytes = 0;
    for (const state of this.states) if (state !== undefined) bytes += state instanceof BitmapValue ? state.size * 2 + 64 : 16_384;
    return bytes;
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    return this.spec.finalize(this.states, groupCount);
  }

  serialize(groupCount: number): AggregateState {
    return { groupCount, data: this.states.slice(0, groupCount).map((state) => state?.serialize() ?? null) };
  }

  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const partial = state.data as (Uint8Array | null)[];
    for (let group = fromGroup; group < state.groupCount; group++) {
      const bytes = partial[group];
      if (bytes === null) continue;
      const incoming = this.spec.deserialize(bytes);
      if (incoming === null) continue;
      const target = groupMap[group];
      const mine = this.states[target];
      this.states[target] = mine === undefined ? incoming : this.spec.merge(mine, incoming);
    }
  }
}

const bitmapBytes = (bytes: Uint8Array) => BitmapValue.deserialize(bytes, 0, bytes.length);
const hllBytes = (bytes: Uint8Array) => HllValue.deserialize(bytes, 0, bytes.length);

/** Each group's bitmap as a BITMAP column; a group with no input is NULL. */
const bitmapResult = (states: readonly (BitmapValue | undefined)[], groupCount: number) => statesVector(Types.BITMAP, states.slice(0, groupCount).map((state) => state ?? null));
/** Each group's count (0 for none). */
function countResult(states: readonly (Sketch | undefined)[], groupCount: number): Vector {
  const values = new BigInt64Array(groupCount);
  for (let group = 0; group < groupCount; group++) {
    const state = states[group];
    values[group] = BigInt(state === undefined ? 0 : state instanceof HllValue ? state.cardinality() : (state as BitmapValue).size);
  }
  return { kind: 'fixed', type: Types.BIGINT, length: groupCount, values, nulls: null };
}

/** Bitmap arguments folded with `op` (or / and / xor); the union reads single-value states on their bytes. */
function bitmapFold(op: 'or' | 'and' | 'xor', finalize: SketchAggregate<BitmapValue>['finalize']): SketchAggregate<BitmapValue> {
  return {
    add(state, args, rowIdx) {
      const vec = args[0];
      if (op === 'or' && vec.kind === 'string') {
        if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return state;
        const next = state ?? new BitmapValue();
        return next.orSerialized(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]) ? next : state;
      }
      const value = vec.kind === 'string' ? bitmapAt(vec, rowIdx) : null;
      if (value === null) return state;
      return state === undefined ? value : state[op](value);
    },
    merge: (left, right) => left[op](right),
    deserialize: bitmapBytes,
    finalize,
  };
}

/** Integer arguments collected into a bitmap (negative values and NULLs are left out). */
function integerCollect(finalize: SketchAggregate<BitmapValue>['finalize']): SketchAggregate<BitmapValue> {
  return {
    add(state, args, rowIdx) {
      const value = integerAt(args[0], rowIdx);
      if (value === null || value < 0n) return state;
      const out = state ?? new BitmapValue();
      out.add(value);
      return out;
    },
    merge: (left, right) => left.or(right),
    deserialize: bitmapBytes,
    finalize,
  };
}

const hllFold = (finalize: SketchAggregate<HllValue>['finalize']): SketchAggregate<HllValue> => ({
  add(state, args, rowIdx) {
    const vec = args[0];
    if (vec.kind !== 'string' || (vec.nulls !== null && vec.nulls[rowIdx] === 1)) return state;
    const next = state ?? new HllValue();
    return next.mergeSerialized(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]) ? next : state;
  },
  merge: (left, right) => left.merge(right),
  deserialize: hllBytes,
  finalize,
});

const quantileFold: SketchAggregate<QuantileStateValue> = {
  add(state, args, rowIdx) {
    const value = args[0].kind === 'string' ? quantileStateAt(args[0], rowIdx) : null;
    if (value === null) return state;
    return state === undefined ? value : state.merge(value);
  },
  merge: (left, right) => left.merge(right),
  deserialize: (bytes) => QuantileStateValue.deserialize(bytes, 0, bytes.length),
  finalize: (states, groupCount) => statesVector(Types.QUANTILE_STATE, states.slice(0, groupCount).map((state) => state ?? null)),
};

const noMatch = (name: string, argTypes: readonly DataType[]) => galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${argTypes.map(typeToSql).join(', ')})`);

function sketchArg(name: string, type: DataType, returnType: DataType) {
  return (argTypes: readonly DataType[]) => {
    if (!(argTypes[0].name === type.name || argTypes[0].name === 'NULL')) throw noMatch(name, argTypes);
    return { argTypes: [type], returnType };
  };
}

function integerArg(name: string, returnType: DataType) {
  return (argTypes: readonly DataType[]) => {
    const t = argTypes[0];
    if (!(isIntegerType(t) || t.name === 'NULL' || t.name === 'BOOLEAN')) throw noMatch(name, argTypes);
    return { argTypes: [t.name === 'LARGEINT' ? t : Types.BIGINT], returnType };
  };
}

// ---------------------------------------------------------------- intersect_count

/**
 * intersect_count(bitmap, column, v1, v2, ...): per group, the union of the bitmaps of the rows whose
 * `column` equals each v, then the size of the intersection of those unions. The state is one bitmap per
 * filter value (positionally), serialized as an array.
 */
class IntersectCountAccumulator implements AggregateAccumulator {
  private groups: ((BitmapValue | undefined)[] | undefined)[] = [];
  private filters: RawValue[] | null = null;

  resize(groupCount: number): void {
    while (this.groups.length < groupCount) this.groups.push(undefined);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    if (rowCount === 0) return;
    this.filters ??= args.slice(2).map((vec) => getRaw(vec, 0));
    const filters = this.filters;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const key = getRaw(args[1], rowIdx);
      const slot = filters.findIndex((value) => value !== null && key !== null && String(value) === String(key));
      if (slot < 0 || args[0].kind !== 'string') continue;
      const bitmap = bitmapAt(args[0], rowIdx);
      if (bitmap === null) continue;
      const per = (this.groups[groupIds[rowIdx]] ??= new Array<BitmapValue | undefined>(filters.length).fill(undefined));
      per[slot] = per[slot] === undefined ? bitmap : per[slot]!.or(bitmap);
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const values = new BigInt64Array(groupCount);
    for (let group = 0; group < groupCount; group++) {
      const per = this.groups[group];
      if (per === undefined || per.some((bitmap) => bitmap === undefined)) continue;
      const acc = per[0]!.clone();
      for (let slot = 1; slot < per.length; slot++) acc.and(per[slot]!);
      values[group] = BigInt(acc.size);
    }
    return { kind: 'fixed', type: Types.BIGINT, length: groupCount, values, nulls: null };
  }

  serialize(groupCount: number): AggregateState {
    return { groupCount, data: { filters: this.filters, groups: this.groups.slice(0, groupCount).map((per) => per?.map((bitmap) => bitmap?.serialize() ?? null) ?? null) } };
  }

  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const data = state.data as { filters: RawValue[] | null; groups: ((Uint8Array | null)[] | null)[] };
    this.filters ??= data.filters;
    for (let group = fromGroup; group < state.groupCount; group++) {
      const incoming = data.groups[group];
      if (incoming === null) continue;
      const per = (this.groups[groupMap[group]] ??= new Array<BitmapValue | undefined>(incoming.length).fill(undefined));
      incoming.forEach((bytes, slot) => {
        const bitmap = bytes === null ? null : bitmapBytes(bytes);
        if (bitmap !== null) per[slot] = per[slot] === undefined ? bitmap : per[slot]!.or(bitmap);
      });
    }
  }
}

// ---------------------------------------------------------------- declarations

function sketchDef(name: string, aliases: string[], signature: string, resolve: AggregateDef['resolve'], spec: () => SketchAggregate<BitmapValue> | SketchAggregate<HllValue> | SketchAggregate<QuantileStateValue>, description: string, example: string): AggregateDef {
  return { name, aliases, signature, minArgs: 1, maxArgs: 1, resolve, create: () => new SketchAccumulator(spec() as SketchAggregate<Sketch>), description, example };
}

const SAMPLE = "(SELECT bitmap_from_string('1,2') AS b UNION ALL SELECT bitmap_from_string('2,3')) t";
const HLL_SAMPLE = "(SELECT hll_hash('a') AS h UNION ALL SELECT hll_hash('b') UNION ALL SELECT hll_hash('a')) t";

export const BITMAP_AGGREGATES: readonly AggregateDef[] = [
  sketchDef('bitmap_union', [], 'bitmap_union(bitmap) -> BITMAP', sketchArg('bitmap_union', Types.BITMAP, Types.BITMAP), () => bitmapFold('or', bitmapResult), 'The union of the bitmaps of the group.', `SELECT bitmap_to_string(bitmap_union(b)) FROM ${SAMPLE}`),
  sketchDef('bitmap_union_count', [], 'bitmap_union_count(bitmap) -> BIGINT', sketchArg('bitmap_union_count', Types.BITMAP, Types.BIGINT), () => bitmapFold('or', countResult), 'How many values the union of the bitmaps of the group holds (bitmap_count(bitmap_union(b))).', `SELECT bitmap_union_count(b) FROM ${SAMPLE}`),
  sketchDef('bitmap_intersect', [], 'bitmap_intersect(bitmap) -> BITMAP', sketchArg('bitmap_intersect', Types.BITMAP, Types.BITMAP), () => bitmapFold('and', bitmapResult), 'The intersection of the bitmaps of the group.', `SELECT bitmap_to_string(bitmap_intersect(b)) FROM ${SAMPLE}`),
  sketchDef('group_bitmap_xor', [], 'group_bitmap_xor(bitmap) -> BITMAP', sketchArg('group_bitmap_xor', Types.BITMAP, Types.BITMAP), () => bitmapFold('xor', bitmapResult), 'The symmetric difference of the bitmaps of the group.', `SELECT bitmap_to_string(group_bitmap_xor(b)) FROM ${SAMPLE}`),
  sketchDef('bitmap_union_int', [], 'bitmap_union_int(x) -> BIGINT', integerArg('bitmap_union_int', Types.BIGINT), () => integerCollect(countResult), 'How many distinct non-negative integers the group holds (count(DISTINCT x) through a bitmap).', 'SELECT bitmap_union_int(x) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 2) t'),
  sketchDef('bitmap_agg', [], 'bitmap_agg(x) -> BITMAP', integerArg('bitmap_agg', Types.BITMAP), () => integerCollect(bitmapResult), 'A bitmap of the non-negative integers of the group.', 'SELECT bitmap_to_string(bitmap_agg(x)) FROM (SELECT 3 AS x UNION ALL SELECT 1 UNION ALL SELECT 3) t'),
  sketchDef('hll_union_agg', [], 'hll_union_agg(hll) -> BIGINT', sketchArg('hll_union_agg', Types.HLL, Types.BIGINT), () => hllFold(countResult), 'The estimated number of distinct values of the union of the HLLs of the group.', `SELECT hll_union_agg(h) FROM ${HLL_SAMPLE}`),
  sketchDef('hll_union', ['hll_raw_agg'], 'hll_union(hll) -> HLL', sketchArg('hll_union', Types.HLL, Types.HLL), () => hllFold((states, groupCount) => statesVector(Types.HLL, states.slice(0, groupCount).map((state) => state ?? null))), 'The union of the HLLs of the group, as an HLL.', `SELECT hll_cardinality(hll_union(h)) FROM ${HLL_SAMPLE}`),
  sketchDef('quantile_union', [], 'quantile_union(state) -> QUANTILE_STATE', sketchArg('quantile_union', Types.QUANTILE_STATE, Types.QUANTILE_STATE), () => quantileFold, 'The union of the QUANTILE_STATEs of the group.', 'SELECT quantile_percent(quantile_union(to_quantile_state(x, 2048)), 0.9) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 3) t'),
  {
    name: 'intersect_count',
    signature: 'intersect_count(bitmap, column, value, ...) -> BIGINT',
    minArgs: 3,
    maxArgs: Infinity,
    resolve: (argTypes) => {
      if (!(argTypes[0].name === 'BITMAP' || argTypes[0].name === 'NULL') || isSketchType(argTypes[1])) throw noMatch('intersect_count', argTypes);
      return { argTypes: [Types.BITMAP, ...argTypes.slice(1)], returnType: Types.BIGINT };
    },
    create: () => new IntersectCountAccumulator(),
    description: 'How many values are in every one of the unions of the bitmaps of the rows whose column equals each given value.',
    example: "SELECT intersect_count(b, d, 1, 2) FROM (SELECT bitmap_from_string('1,2') AS b, 1 AS d UNION ALL SELECT bitmap_from_string('2,3'), 2) t",
  },
];
