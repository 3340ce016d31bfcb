/**
 * Aggregates that keep or pick values: percentile / median (exact: every value kept, then sorted per
 * group), collect_list / collect_set / array_agg (ARRAY results), max_by / min_by, count_if.
 *
 * Exact percentiles keep (group id, value) pairs in two growing typed arrays; finalize orders them by
 * group with one counting pass and sorts each group's slice as a Float64Array.
 */
import { getRaw, RawValue, Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { compareRawValues } from '../../../common/row-order';
import { DataType, Types, typeToSql } from '../../../common/types';
import type { AggregateAccumulator } from '../../expr-api';
import { toF64, vectorFromValues } from '../vector-ops';
import { AggregateDef, CountAccumulator } from './aggregate-functions';
import { numericQuantileArgs, quantileLevel } from './sketch-aggregates';

// ---------------------------------------------------------------- percentile / median

/**
 * Kept rows ordered by group with one counting pass: group g's rows (indices into the kept arrays, in
 * arrival order) are order[starts[g] .. starts[g + 1]).
 */
export function rowsByGroup(groups: Int32Array, count: number, groupCount: number): { starts: Int32Array; order: Int32Array } {
  const starts = new Int32Array(groupCount + 1);
  for (let idx = 0; idx < count; idx++) starts[groups[idx] + 1]++;
  for (let group = 0; group < groupCount; group++) starts[group + 1] += starts[group];
  const order = new Int32Array(count);
  const fill = starts.slice(0, groupCount);
  for (let idx = 0; idx < count; idx++) order[fill[groups[idx]]++] = idx;
  return { starts, order };
}

class PercentileAccumulator implements AggregateAccumulator {
  private groups = new Int32Array(1024);
  private values = new Float64Array(1024);
  private count = 0;
  private level: number | null;
  /** percentile_array's levels, read from its ARRAY argument. */
  private levels: number[] | null = null;

  /** `fixedLevel`: median's 0.5; null reads the level argument (an array of levels when `arrayLevels`). */
  constructor(private readonly name: string, fixedLevel: number | null, private readonly arrayLevels = false) {
    this.level = fixedLevel;
  }

  resize(): void {}

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    if (rowCount === 0) return;
    if (this.arrayLevels) this.levels ??= arrayQuantileLevels(this.name, args[1]);
    else if (this.level === null) this.level = quantileLevel(this.name, args[1], rowCount);
    const values = toF64(args[0]);
    const nulls = args[0].nulls;
    if (this.count + rowCount > this.values.length) {
      const capacity = Math.max(this.count + rowCount, this.values.length * 2);
      const groups = new Int32Array(capacity);
      groups.set(this.groups.subarray(0, this.count));
      const kept = new Float64Array(capacity);
      kept.set(this.values.subarray(0, this.count));
      this.groups = groups;
      this.values = kept;
    }
    let count = this.count;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx]) continue;
      this.groups[count] = groupIds[rowIdx];
      this.values[count++] = values[rowIdx];
    }
    this.count = count;
  }

  stateBytes(): number {
    return this.count * 12;
  }

  finalize(groupCount: number): Vector {
    const { starts, order } = rowsByGroup(this.groups, this.count, groupCount);
    const sorted = new Float64Array(this.count);
    for (let idx = 0; idx < this.count; idx++) sorted[idx] = this.values[order[idx]];
    if (this.arrayLevels) {
      const levels = this.levels ?? [];
      const arrays: RawValue[] = [];
      for (let group = 0; group < groupCount; group++) {
        const slice = sorted.subarray(starts[group], starts[group + 1]).sort();
        arrays.push(slice.length === 0 ? null : levels.map((level) => interpolate(slice, level)));
      }
      return vectorFromValues(Types.array(Types.DOUBLE), arrays);
    }
    const out = new Float64Array(groupCount);
    let nulls: Uint8Array | null = null;
    const level = this.level ?? 0.5;
    for (let group = 0; group < groupCount; group++) {
      const slice = sorted.subarray(starts[group], starts[group + 1]).sort();
      if (slice.length === 0) {
        nulls ??= new Uint8Array(groupCount);
        nulls[group] = 1;
        continue;
      }
      out[group] = interpolate(slice, level);
    }
    return { kind: 'fixed', type: Types.DOUBLE, length: groupCount, values: out, nulls };
  }
}

/** Linear interpolation between the two sorted values around position level·(n-1), as Doris's percentile. */
function interpolate(slice: Float64Array, level: number): number {
  const pos = level * (slice.length - 1);
  const low = Math.floor(pos);
  const high = Math.min(slice.length - 1, low + 1);
  return slice[low] + (slice[high] - slice[low]) * (pos - low);
}

/** percentile_array's levels: a constant ARRAY of numbers in [0, 1]. */
function arrayQuantileLevels(name: string, vec: Vector): number[] {
  const raw = getRaw(vec, 0);
  if (!Array.isArray(raw)) throw galeneError('INVALID_ARGUMENT', `${name} levels must be an array of numbers in [0, 1]`);
  return raw.map((element) => {
    const level = Number(element);
    if (element === null || !(level >= 0 && level <= 1)) throw galeneError('INVALID_ARGUMENT', `${name} level must be in [0, 1], but given ${String(element)}`);
    return level;
  });
}

// ---------------------------------------------------------------- collect_list / collect_set / array_agg

type CollectMode = 'list' | 'set' | 'array_agg';

/** A value's identity in a collect_set: numbers and strings by themselves, arrays by their elements. */
function setKey(value: RawValue): RawValue {
  return Array.isArray(value) ? JSON.stringify(value, (_key, element) => (typeof element === 'bigint' ? `${element}n` : element)) : value;
}

class CollectAccumulator implements AggregateAccumulator {
  private lists: (RawValue[] | undefined)[] = [];
  private sets: (Set<RawValue> | undefined)[] = [];
  private maxSize = Infinity;
  private held = 0;

  constructor(private readonly mode: CollectMode, private readonly returnType: DataType) {}

  resize(groupCount: number): void {
    while (this.lists.length < groupCount) this.lists.push(undefined);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    if (rowCount === 0) return;
    if (args.length > 1) {
      const limit = toF64(args[1])[0];
      this.maxSize = args[1].nulls !== null && args[1].nulls[0] ? Infinity : Math.max(0, Math.trunc(limit));
    }
    const vec = args[0];
    const nulls = vec.nulls;
    const keepNulls = this.mode === 'array_agg';
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const group = groupIds[rowIdx];
      const list = (this.lists[group] ??= []);
      const isNull = nulls !== null && nulls[rowIdx] === 1;
      if ((isNull && !keepNulls) || list.length >= this.maxSize) continue;
      const value = isNull ? null : getRaw(vec, rowIdx);
      if (this.mode === 'set') {
        const set = (this.sets[group] ??= new Set());
        const key = setKey(value);
        if (set.has(key)) continue;
        set.add(key);
      }
      list.push(value);
      this.held++;
    }
  }

  stateBytes(): number {
    return this.held * 24;
  }

  /** A group that saw no row is an empty array (Doris: collect_list over no rows is []). */
  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    return vectorFromValues(this.returnType, this.lists.slice(0, groupCount).map((list) => list ?? []));
  }
}

// ---------------------------------------------------------------- max_by / min_by

class ByAccumulator implements AggregateAccumulator {
  private bestKeys: RawValue[] = [];
  private bestValues: RawValue[] = [];
  private seen = new Uint8Array(16);

  constructor(private readonly isMax: boolean, private readonly type: DataType) {}

  resize(groupCount: number): void {
    if (groupCount > this.seen.length) {
      const seen = new Uint8Array(Math.max(groupCount, this.seen.length * 2));
      seen.set(this.seen);
      this.seen = seen;
    }
    while (this.bestKeys.length < groupCount) {
      this.bestKeys.push(null);
      this.bestValues.push(null);
    }
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const [valueVec, keyVec] = args;
    const keyNulls = keyVec.nulls;
    const numeric = keyVec.kind === 'fixed' ? toF64(keyVec) : null;
    const sign = this.isMax ? 1 : -1;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (keyNulls !== null && keyNulls[rowIdx]) continue;
      const group = groupIds[rowIdx];
      const key: RawValue = numeric !== null ? numeric[rowIdx] : getRaw(keyVec, rowIdx);
      if (this.seen[group] && sign * compareRawValues(key, this.bestKeys[group]) <= 0) continue;
      this.seen[group] = 1;
      this.bestKeys[group] = key;
      this.bestValues[group] = getRaw(valueVec, rowIdx);
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    return vectorFromValues(this.type, this.bestValues.slice(0, groupCount));
  }
}

// ---------------------------------------------------------------- count_if

/** count_if(cond): COUNT's state and merge, counting rows whose condition is true. */
class CountIfAccumulator extends CountAccumulator {
  override update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const values = toF64(args[0]);
    const nulls = args[0].nulls;
    const counts = this.counts;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (values[rowIdx] !== 0 && !(nulls !== null && nulls[rowIdx])) counts[groupIds[rowIdx]]++;
    }
  }
}

// ---------------------------------------------------------------- declarations

const sameAsFirst = (name: string) => (argTypes: readonly DataType[]) => {
  if (argTypes[0].name === 'ARRAY' && name !== 'array_agg') throw galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${argTypes.map(typeToSql).join(', ')})`);
  return argTypes[0].name === 'NULL' ? Types.TINYINT : argTypes[0];
};

function collectDef(name: string, aliases: string[], mode: CollectMode, description: string, example: string): AggregateDef {
  return {
    name,
    aliases,
    signature: mode === 'array_agg' ? `${name}(x) -> ARRAY<type of x>` : `${name}(x[, max_size]) -> ARRAY<type of x>`,
    minArgs: 1,
    maxArgs: mode === 'array_agg' ? 1 : 2,
    resolve: (argTypes) => {
      const element = sameAsFirst(name)(argTypes);
      return { argTypes: argTypes.length > 1 ? [element, Types.INT] : [element], returnType: Types.array(element) };
    },
    create: (_argTypes, returnType) => new CollectAccumulator(mode, returnType),
    description,
    example,
  };
}

function byDef(name: string, isMax: boolean): AggregateDef {
  return {
    name,
    signature: `${name}(x, y) -> type of x`,
    minArgs: 2,
    maxArgs: 2,
    resolve: (argTypes) => {
      if (argTypes[1].name === 'ARRAY') throw galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${argTypes.map(typeToSql).join(', ')})`);
      return { argTypes: [argTypes[0], argTypes[1]], returnType: argTypes[0].name === 'NULL' ? Types.TINYINT : argTypes[0] };
    },
    create: (_argTypes, returnType) => new ByAccumulator(isMax, returnType),
    description: `The value of x on the row with the ${isMax ? 'largest' : 'smallest'} non-NULL y (the first such row on ties); NULL when y is NULL on every row.`,
    example: `SELECT ${name}(name, score) FROM (SELECT 'a' AS name, 1 AS score UNION ALL SELECT 'b', 3) t`,
  };
}

const SAMPLE = "(SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 2 UNION ALL SELECT NULL) t";

export const COLLECT_AGGREGATES: readonly AggregateDef[] = [
  {
    name: 'percentile',
    signature: 'percentile(x, p) -> DOUBLE',
    minArgs: 2,
    maxArgs: 2,
    resolve: (argTypes) => ({ argTypes: numericQuantileArgs('percentile', argTypes), returnType: Types.DOUBLE }),
    create: () => new PercentileAccumulator('percentile', null),
    description: 'Exact p-quantile (p a constant in [0, 1]) of the non-NULL values, interpolating linearly between the two nearest values.',
    example: 'SELECT percentile(x, 0.25) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 4) t',
  },
  {
    name: 'median',
    signature: 'median(x) -> DOUBLE',
    minArgs: 1,
    maxArgs: 1,
    resolve: (argTypes) => ({ argTypes: numericQuantileArgs('median', argTypes), returnType: Types.DOUBLE }),
    create: () => new PercentileAccumulator('median', 0.5),
    description: 'Exact median of the non-NULL values (percentile(x, 0.5)).',
    example: 'SELECT median(x) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 4 UNION ALL SELECT 10) t',
  },
  {
    name: 'percentile_array',
    aliases: ['percentile_approx_array'],
    signature: 'percentile_array(x, [p1, p2, ...]) -> ARRAY<DOUBLE>',
    minArgs: 2,
    maxArgs: 2,
    resolve: (argTypes) => {
      const levels = argTypes[1];
      if (levels.name !== 'ARRAY') throw galeneError('TYPE_MISMATCH', `No matching function with signature: percentile_array(${argTypes.map(typeToSql).join(', ')})`);
      return { argTypes: [numericQuantileArgs('percentile_array', argTypes.slice(0, 1))[0], Types.array(Types.DOUBLE)], returnType: Types.array(Types.DOUBLE) };
    },
    create: () => new PercentileAccumulator('percentile_array', null, true),
    description: 'Exact p-quantiles of the non-NULL values for each level of a constant array (as percentile), as an array; NULL for a group without values.',
    example: 'SELECT percentile_array(x, [0.25, 0.5]) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 4) t',
  },
  collectDef('collect_list', ['group_array'], 'list', 'The non-NULL values as an array, in input order, at most max_size of them.', `SELECT collect_list(x) FROM ${SAMPLE}`),
  collectDef('collect_set', ['group_uniq_array'], 'set', 'The distinct non-NULL values as an array, in first-seen order, at most max_size of them.', `SELECT collect_set(x) FROM ${SAMPLE}`),
  collectDef('array_agg', [], 'array_agg', 'All values, NULLs included, as an array in input order.', `SELECT array_agg(x) FROM ${SAMPLE}`),
  byDef('max_by', true),
  byDef('min_by', false),
  {
    name: 'count_if',
    signature: 'count_if(condition) -> BIGINT',
    minArgs: 1,
    maxArgs: 1,
    resolve: () => ({ argTypes: [Types.BOOLEAN], returnType: Types.BIGINT }),
    create: () => new CountIfAccumulator(),
    description: 'Number of rows where the condition is true (NULL counts as false).',
    example: `SELECT count_if(x > 1) FROM ${SAMPLE}`,
  },
];
