/**
 * The aggregate registry: resolveAggregate() for the binder / hash-aggregate operator, and DISTINCT
 * applied around any aggregate (count(distinct x, y), sum(distinct x), group_concat(distinct x)...).
 */
import { constantVector, getRaw, RawValue, Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { DataType, Types } from '../../../common/types';
import type { AggregateOrder } from '../../bound-expr';
import type { AggregateAccumulator, ResolvedAggregate } from '../../expr-api';
import { vectorFromValues } from '../vector-ops';
import { AGGREGATE_FUNCTIONS as CORE_AGGREGATES, AggregateDef } from './aggregate-functions';
import { BITMAP_AGGREGATES } from './bitmap-aggregates';
import { COLLECT_AGGREGATES } from './collect-aggregates';
import { MAP_AGGREGATES } from './map-aggregates';
import { SKETCH_AGGREGATES } from './sketch-aggregates';
import { STATISTICAL_AGGREGATES } from './statistical-aggregates';
import { FUNNEL_AGGREGATES } from './funnel-aggregates';
import { ROW_SET_AGGREGATES } from './row-set-aggregates';

/** Every aggregate: the core ones, then each family file's array. */
const AGGREGATE_FUNCTIONS: readonly AggregateDef[] = [...CORE_AGGREGATES, ...COLLECT_AGGREGATES, ...SKETCH_AGGREGATES, ...STATISTICAL_AGGREGATES, ...FUNNEL_AGGREGATES, ...BITMAP_AGGREGATES, ...ROW_SET_AGGREGATES, ...MAP_AGGREGATES];

const byName = new Map<string, AggregateDef>();
for (const def of AGGREGATE_FUNCTIONS) {
  for (const name of [def.name, ...(def.aliases ?? [])]) {
    if (byName.has(name)) throw galeneError('INTERNAL', `aggregate ${name} declared twice`);
    byName.set(name, def);
  }
}

export function isAggregateFunctionName(name: string): boolean {
  return byName.has(name.toLowerCase());
}

export function listAggregateFunctions(): readonly AggregateDef[] {
  return AGGREGATE_FUNCTIONS;
}

/** Key of one row's argument tuple for DISTINCT. */
function tupleKey(values: readonly RawValue[]): RawValue {
  if (values.length === 1) return values[0];
  return values.map((value) => `${typeof value}:${String(value)}`).join('\u0001');
}

/** A distinct set grows as one JS Set up to this size, then splits into SET_SHARDS sets by hash. */
const SHARD_AFTER = 65_536;
const SET_SHARDS = 64;

function shardOf(key: RawValue): number {
  let hash: number;
  if (typeof key === 'number') hash = Number.isInteger(key) ? key | 0 : (key * 1_000_003) | 0;
  else if (typeof key === 'bigint') hash = Number(BigInt.asIntN(32, key));
  else if (typeof key === 'string') {
    hash = key.length;
    for (let charIdx = 0; charIdx < key.length && charIdx < 16; charIdx++) hash = Math.imul(hash ^ key.charCodeAt(charIdx), 0x01000193);
  } else hash = 0;
  return Math.imul(hash, 0x9e3779b1) >>> 26; // top 6 bits: SET_SHARDS = 64
}

/**
 * The distinct keys of one group. One Set while small; past SHARD_AFTER, 64 Sets chosen by hash, because
 * growing one Set of millions of entries rehashes all of them in one synchronous step (a long stall of
 * the event loop), while a shard rehashes a 64th.
 */
class DistinctSet {
  private single: Set<RawValue> | null = new Set();
  private shards: Set<RawValue>[] | null = null;

  /** Adds `key`; false when it was already there. */
  add(key: RawValue): boolean {
    const single = this.single;
    if (single !== null) {
      if (single.has(key)) return false;
      single.add(key);
      if (single.size > SHARD_AFTER) this.split(single);
      return true;
    }
    const shard = this.shards![shardOf(key)];
    if (shard.has(key)) return false;
    shard.add(key);
    return true;
  }

  private split(single: Set<RawValue>): void {
    const shards = Array.from({ length: SET_SHARDS }, () => new Set<RawValue>());
    for (const key of single) shards[shardOf(key)].add(key);
    this.shards = shards;
    this.single = null;
  }
}

/** Estimated bytes per distinct value kept (set entry, value, group id). */
const DISTINCT_VALUE_BYTES = 64;

/**
 * DISTINCT around an accumulator: keeps each group's distinct argument tuples (rows with a NULL argument
 * are skipped, as SQL DISTINCT aggregates do), then feeds them to the inner accumulator at finalize.
 */
class DistinctAccumulator implements AggregateAccumulator {
  private sets: (DistinctSet | undefined)[] = [];
  /** Distinct argument tuples in arrival order (one argument: `values`, no per-row arrays). */
  private rows: RawValue[][] = [];
  private values: RawValue[] = [];
  private groups: number[] = [];
  private extraArgs: Vector[] | null = null;

  /**
   * `countsOnly`: the inner aggregate is COUNT, which needs only how many distinct tuples each group has,
   * not their values (COUNT(DISTINCT x) then skips building a vector of every distinct value).
   */
  constructor(
    private readonly inner: AggregateAccumulator,
    private readonly argTypes: readonly DataType[],
    private readonly distinctArgCount: number,
    private readonly countsOnly = false,
  ) {}

  resize(groupCount: number): void {
    while (this.sets.length < groupCount) this.sets.push(undefined);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const keyed = args.slice(0, this.distinctArgCount);
    if (this.extraArgs === null && args.length > this.distinctArgCount && rowCount > 0) this.extraArgs = args.slice(this.distinctArgCount);
    if (this.distinctArgCount === 1) return this.updateOne(groupIds, keyed[0], rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const values = keyed.map((vec) => getRaw(vec, rowIdx));
      if (values.some((value) => value === null)) continue;
      const group = groupIds[rowIdx];
      const set = (this.sets[group] ??= new DistinctSet());
      if (!set.add(tupleKey(values))) continue;
      this.rows.push(values);
      this.groups.push(group);
    }
  }

  /** One distinct argument (COUNT(DISTINCT x)): the value itself is the set key (as tupleKey of one). */
  private updateOne(groupIds: Int32Array, vec: Vector, rowCount: number): void {
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const value = getRaw(vec, rowIdx);
      if (value === null) continue;
      const group = groupIds[rowIdx];
      const set = (this.sets[group] ??= new DistinctSet());
      if (!set.add(value)) continue;
      this.values.push(value);
      this.groups.push(group);
    }
  }

  stateBytes(): number {
    return this.groups.length * DISTINCT_VALUE_BYTES;
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    this.inner.resize(groupCount);
    const count = this.groups.length;
    const columns: Vector[] = [];
    if (this.countsOnly) columns.push(constantVector(Types.BOOLEAN, 1, count));
    else if (this.distinctArgCount === 1) columns.push(vectorFromValues(this.argTypes[0], this.values));
    else for (let argIdx = 0; argIdx < this.distinctArgCount; argIdx++) columns.push(vectorFromValues(this.argTypes[argIdx], this.rows.map((row) => row[argIdx])));
    if (this.extraArgs !== null) {
      for (const extra of this.extraArgs) columns.push(vectorFromValues(extra.type, new Array<RawValue>(count).fill(getRaw(extra, 0))));
    }
    if (count > 0) this.inner.update(Int32Array.from(this.groups), columns, count);
    return this.inner.finalize(groupCount);
  }
}

/**
 * Resolve an aggregate for its argument types. COUNT(*) has zero arguments. GROUP_CONCAT's separator,
 * when given, is a trailing constant argument. With `order` (ORDER BY inside the call) the last
 * order.length arguments are the sort keys, kept as they are. Throws UNKNOWN_FUNCTION / WRONG_ARG_COUNT,
 * UNSUPPORTED for ORDER BY in an aggregate that has no ordered form.
 */
export function resolveAggregate(name: string, argTypes: readonly DataType[], distinct: boolean, order?: readonly AggregateOrder[]): ResolvedAggregate {
  const def = byName.get(name.toLowerCase());
  if (def === undefined) throw galeneError('UNKNOWN_FUNCTION', name);
  const orderCount = order?.length ?? 0;
  if (orderCount > 0 && def.createOrdered === undefined) throw galeneError('UNSUPPORTED', `ORDER BY inside ${name}()`);
  const plainTypes = argTypes.slice(0, argTypes.length - orderCount);
  if (plainTypes.length < def.minArgs || plainTypes.length > def.maxArgs) throw galeneError('WRONG_ARG_COUNT', name);
  if (distinct && argTypes.length === 0) throw galeneError('SYNTAX_ERROR', `${name}(DISTINCT) needs an argument`);
  const resolution = def.resolve(plainTypes);
  const resolvedArgs = [...resolution.argTypes, ...argTypes.slice(plainTypes.length)];
  const returnType = resolution.returnType;
  const distinctArgCount = def.name === 'group_concat' ? 1 : resolvedArgs.length;
  return {
    name: def.name,
    returnType,
    argTypes: resolvedArgs,
    distinct,
    create: () => {
      if (order !== undefined && orderCount > 0) return def.createOrdered!(resolvedArgs, returnType, order);
      const inner = def.create(resolvedArgs, returnType);
      return distinct ? new DistinctAccumulator(inner, resolvedArgs, distinctArgCount, def.name === 'count') : inner;
    },
  };
}
