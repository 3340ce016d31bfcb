/**
 * Aggregates computed from all of a group's argument rows at finalize: topn / topn_array / topn_weighted,
 * histogram, linear_histogram, count_by_enum, sem, group_array_union / group_array_intersect,
 * percentile_reservoir, percentile_approx_weighted, sequence_match / sequence_count. One accumulator
 * (RowSetAccumulator) keeps each group's rows as raw tuples, with serialize / merge for partial
 * aggregation in worker threads (row order kept: merged partials of consecutive ranges equal one pass);
 * each aggregate is its `finish` over those tuples. Doris computes topn with a space-saving sketch and the
 * percentiles with a reservoir / t-digest: these are exact, which the approximations estimate.
 */
import { getRaw, RawValue, Vector } from '../../../common/column';
import { formatValue } from '../../../common/convert';
import { galeneError } from '../../../common/errors';
import { compareRawValues } from '../../../common/row-order';
import { DataType, elementType, isNumericType, Types, typeToSql } from '../../../common/types';
import type { AggregateState } from '../../aggregate-state';
import type { AggregateAccumulator } from '../../expr-api';
import { vectorFromValues } from '../vector-ops';
import type { AggregateDef } from './aggregate-functions';

type Tuple = readonly RawValue[];

/** Keeps every row's arguments per group; `keep` drops rows that cannot count (a NULL value). */
class RowSetAccumulator implements AggregateAccumulator {
  private groups: Tuple[][] = [];
  private held = 0;

  constructor(
    private readonly returnType: DataType,
    private readonly finish: (rows: readonly Tuple[]) => RawValue,
    private readonly keep: (row: Tuple) => boolean,
  ) {}

  resize(groupCount: number): void {
    while (this.groups.length < groupCount) this.groups.push([]);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const row = args.map((vec) => (vec.nulls !== null && vec.nulls[rowIdx] === 1 ? null : getRaw(vec, rowIdx)));
      if (!this.keep(row)) continue;
      this.groups[groupIds[rowIdx]].push(row);
      this.held++;
    }
  }

  serialize(groupCount: number): AggregateState {
    this.resize(groupCount);
    return { groupCount, data: this.groups.slice(0, groupCount) };
  }

  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const groups = state.data as Tuple[][];
    for (let group = fromGroup; group < state.groupCount; group++) {
      const target = this.groups[groupMap[group]];
      for (const row of groups[group]) target.push(row);
      this.held += groups[group].length;
    }
  }

  stateBytes(): number {
    return this.held * 48;
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    return vectorFromValues(this.returnType, this.groups.slice(0, groupCount).map((rows) => this.finish(rows)));
  }
}

const firstNotNull = (row: Tuple): boolean => row[0] !== null;
const num = (value: RawValue): number => (typeof value === 'bigint' ? Number(value) : Number(value));
const noMatch = (name: string, types: readonly DataType[]): Error => galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${types.map(typeToSql).join(', ')})`);

/** A constant integer argument (N of topn, num_buckets), read from the first row. */
function constantCount(rows: readonly Tuple[], index: number, name: string): number {
  const value = num(rows[0][index]);
  if (!Number.isInteger(value) || value < 1) throw galeneError('INVALID_ARGUMENT', `${name}: the count argument must be a positive integer, got ${String(rows[0][index])}`);
  return value;
}

/** Values by total weight (count when unweighted), heaviest first, ties in first-seen order. */
function ranked(rows: readonly Tuple[], weightIdx: number | null): [RawValue, number][] {
  const totals = new Map<RawValue, number>();
  for (const row of rows) totals.set(row[0], (totals.get(row[0]) ?? 0) + (weightIdx === null ? 1 : num(row[weightIdx] ?? 0)));
  return [...totals.entries()].sort((a, b) => b[1] - a[1]);
}

const textOf = (type: DataType, value: RawValue): string => formatValue(type, value) ?? 'null';

/** Doris's histogram: equal-height buckets over the sorted values, equal values never split. */
function histogramJson(rows: readonly Tuple[], type: DataType): string {
  const values = rows.map((row) => row[0]).sort(compareRawValues);
  const wanted = rows.length > 0 && rows[0].length > 1 ? constantCount(rows, 1, 'histogram') : 128;
  const buckets: { lower: string; upper: string; ndv: number; count: number; pre_sum: number }[] = [];
  if (values.length > 0) {
    const perBucket = Math.ceil(values.length / Math.min(wanted, values.length));
    let start = 0;
    while (start < values.length) {
      let end = Math.min(values.length, start + perBucket);
      while (end < values.length && compareRawValues(values[end], values[end - 1]) === 0) end++;
      let ndv = 1;
      for (let idx = start + 1; idx < end; idx++) if (compareRawValues(values[idx], values[idx - 1]) !== 0) ndv++;
      buckets.push({ lower: textOf(type, values[start]), upper: textOf(type, values[end - 1]), ndv, count: end - start, pre_sum: start });
      start = end;
    }
  }
  return JSON.stringify({ num_buckets: buckets.length, buckets });
}

/** Doris's linear_histogram: buckets [offset + k*interval, offset + (k+1)*interval) that hold values. */
function linearHistogramJson(rows: readonly Tuple[]): string | null {
  if (rows.length === 0) return JSON.stringify({ num_buckets: 0, buckets: [] });
  const interval = num(rows[0][1]);
  const offset = rows[0].length > 2 ? num(rows[0][2]) : 0;
  if (!(interval > 0)) throw galeneError('INVALID_ARGUMENT', `linear_histogram: the interval must be positive, got ${String(rows[0][1])}`);
  const counts = new Map<number, number>();
  for (const row of rows) {
    const key = Math.floor((num(row[0]) - offset) / interval);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let acc = 0;
  const buckets = [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([key, count]) => {
    acc += count;
    return { lower: offset + key * interval, upper: offset + (key + 1) * interval, count, acc_count: acc };
  });
  return JSON.stringify({ num_buckets: buckets.length, buckets });
}

/** Exact weighted quantile: the value where the cumulative weight reaches level of the total, interpolated. */
function weightedQuantile(pairs: [number, number][], level: number): number | null {
  const sorted = pairs.filter(([, weight]) => weight > 0).sort((a, b) => a[0] - b[0]);
  if (sorted.length === 0) return null;
  const total = sorted.reduce((sum, [, weight]) => sum + weight, 0);
  const target = level * total;
  let cumulative = 0;
  for (let idx = 0; idx < sorted.length; idx++) {
    const [value, weight] = sorted[idx];
    // Each value's weight is centred on it; between two centres the quantile is interpolated.
    const centre = cumulative + weight / 2;
    if (target <= centre) {
      if (idx === 0) return value;
      const [prevValue, prevWeight] = sorted[idx - 1];
      const prevCentre = cumulative - prevWeight / 2;
      return prevValue + ((value - prevValue) * (target - prevCentre)) / (centre - prevCentre);
    }
    cumulative += weight;
  }
  return sorted[sorted.length - 1][0];
}

function quantileLevel(value: RawValue, name: string): number {
  const level = num(value);
  if (!(level >= 0 && level <= 1)) throw galeneError('INVALID_ARGUMENT', `${name}: the level must be in [0, 1], got ${String(value)}`);
  return level;
}

// ---------------------------------------------------------------- sequence_match / sequence_count

type PatternStep = { kind: 'event'; cond: number } | { kind: 'any' } | { kind: 'one' } | { kind: 'time'; op: string; seconds: number };

/** ClickHouse's / Doris's pattern syntax: (?N) an event matching condition N, .* any events, . one event, (?t op S) a gap in seconds. */
function parsePattern(pattern: string, condCount: number): PatternStep[] {
  const steps: PatternStep[] = [];
  const re = /\(\?(\d+)\)|\.\*|\.|\(\?t\s*(<=|>=|==|<|>|!=)\s*(\d+)\)/gy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < pattern.length) {
    re.lastIndex = at;
    match = re.exec(pattern);
    if (match === null) throw galeneError('INVALID_ARGUMENT', `Could not parse the pattern of sequence_match / sequence_count at position ${at}: ${pattern}`);
    if (match[1] !== undefined) {
      const cond = Number(match[1]);
      if (cond < 1 || cond > condCount) throw galeneError('INVALID_ARGUMENT', `The pattern references condition ${cond}, but there are ${condCount}`);
      steps.push({ kind: 'event', cond: cond - 1 });
    } else if (match[0] === '.*') steps.push({ kind: 'any' });
    else if (match[0] === '.') steps.push({ kind: 'one' });
    else steps.push({ kind: 'time', op: match[2], seconds: Number(match[3]) });
    at = re.lastIndex;
  }
  return steps;
}

const TIME_TESTS: Record<string, (gap: number, limit: number) => boolean> = {
  '<': (gap, limit) => gap < limit,
  '<=': (gap, limit) => gap <= limit,
  '>': (gap, limit) => gap > limit,
  '>=': (gap, limit) => gap >= limit,
  '==': (gap, limit) => gap === limit,
  '!=': (gap, limit) => gap !== limit,
};

interface SeqEvent {
  readonly seconds: number;
  readonly conds: readonly boolean[];
}

/** Where a match of steps[stepIdx..] starting at event `at` ends (the index after it), or -1. */
function matchFrom(steps: readonly PatternStep[], stepIdx: number, events: readonly SeqEvent[], at: number, lastTime: number): number {
  if (stepIdx === steps.length) return at;
  const step = steps[stepIdx];
  switch (step.kind) {
    case 'event':
      return at < events.length && events[at].conds[step.cond] ? matchFrom(steps, stepIdx + 1, events, at + 1, events[at].seconds) : -1;
    case 'one':
      return at < events.length ? matchFrom(steps, stepIdx + 1, events, at + 1, events[at].seconds) : -1;
    case 'any':
      for (let next = at; next <= events.length; next++) {
        const end = matchFrom(steps, stepIdx + 1, events, next, next > at ? events[next - 1].seconds : lastTime);
        if (end >= 0) return end;
      }
      return -1;
    case 'time': {
      // The gap between the previous matched event and the next one (the step after the constraint).
      for (let next = at; next < events.length; next++) {
        if (!TIME_TESTS[step.op](events[next].seconds - lastTime, step.seconds)) continue;
        const end = matchFrom(steps, stepIdx + 1, events, next, lastTime);
        if (end >= 0) return end;
      }
      return -1;
    }
  }
}

/** Match count (non-overlapping, left to right) of the pattern over a group's events in time order. */
function sequenceMatches(rows: readonly Tuple[], countAll: boolean): number {
  if (rows.length === 0) return 0;
  const condCount = rows[0].length - 2;
  const steps = parsePattern(String(rows[0][0]), condCount);
  const events: SeqEvent[] = rows
    .map((row) => ({ seconds: Math.floor(num(row[1]) / 1_000_000), conds: row.slice(2).map((cond) => cond !== null && num(cond) !== 0) }))
    .filter((event) => event.conds.some(Boolean))
    .sort((a, b) => a.seconds - b.seconds);
  let count = 0;
  for (let start = 0; start < events.length; ) {
    const end = matchFrom(steps, 0, events, start, events[start].seconds);
    if (end < 0) start++;
    else {
      count++;
      if (!countAll) return 1;
      start = Math.max(end, start + 1);
    }
  }
  return count;
}

// ---------------------------------------------------------------- declarations

function rowSetDef(decl: Omit<AggregateDef, 'create'> & { finish: (rows: readonly Tuple[], argTypes: readonly DataType[]) => RawValue; keep?: (row: Tuple) => boolean }): AggregateDef {
  const { finish, keep, ...def } = decl;
  return { ...def, create: (argTypes, returnType) => new RowSetAccumulator(returnType, (rows) => finish(rows, argTypes), keep ?? firstNotNull) };
}

const SAMPLE = "(SELECT 'a' AS k, 1 AS w UNION ALL SELECT 'b', 5 UNION ALL SELECT 'a', 1 UNION ALL SELECT NULL, 1) t";
const NUMBERS = '(SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 2 UNION ALL SELECT 7) t';

const scalarArg = (name: string, t: DataType): DataType => {
  if (t.name === 'ARRAY' || t.name === 'JSON') throw noMatch(name, [t]);
  return t.name === 'NULL' ? Types.TINYINT : t;
};

export const ROW_SET_AGGREGATES: readonly AggregateDef[] = [
  rowSetDef({
    name: 'topn',
    signature: 'topn(expr, n[, space_expand_rate]) -> VARCHAR',
    minArgs: 2,
    maxArgs: 3,
    resolve: (types) => ({ argTypes: [scalarArg('topn', types[0]), Types.INT, ...(types.length > 2 ? [Types.INT] : [])], returnType: Types.STRING }),
    finish: (rows, types) => {
      if (rows.length === 0) return null;
      const top = ranked(rows, null).slice(0, constantCount(rows, 1, 'topn'));
      return `{${top.map(([value, count]) => `${JSON.stringify(textOf(types[0], value))}:${count}`).join(',')}}`;
    },
    description: "The n most frequent non-NULL values and their counts as JSON text ('{\"a\":2,\"b\":1}'), most frequent first (exact counts).",
    example: `SELECT topn(k, 2) FROM ${SAMPLE}`,
  }),
  rowSetDef({
    name: 'topn_array',
    signature: 'topn_array(expr, n[, space_expand_rate]) -> ARRAY<type of expr>',
    minArgs: 2,
    maxArgs: 3,
    resolve: (types) => {
      const element = scalarArg('topn_array', types[0]);
      return { argTypes: [element, Types.INT, ...(types.length > 2 ? [Types.INT] : [])], returnType: Types.array(element) };
    },
    finish: (rows) => (rows.length === 0 ? null : ranked(rows, null).slice(0, constantCount(rows, 1, 'topn_array')).map(([value]) => value)),
    description: 'The n most frequent non-NULL values as an array, most frequent first.',
    example: `SELECT topn_array(k, 2) FROM ${SAMPLE}`,
  }),
  rowSetDef({
    name: 'topn_weighted',
    signature: 'topn_weighted(expr, weight, n[, space_expand_rate]) -> ARRAY<type of expr>',
    minArgs: 3,
    maxArgs: 4,
    resolve: (types) => {
      const element = scalarArg('topn_weighted', types[0]);
      return { argTypes: [element, Types.DOUBLE, Types.INT, ...(types.length > 3 ? [Types.INT] : [])], returnType: Types.array(element) };
    },
    finish: (rows) => (rows.length === 0 ? null : ranked(rows, 1).slice(0, constantCount(rows, 2, 'topn_weighted')).map(([value]) => value)),
    description: 'The n non-NULL values with the largest summed weight as an array, heaviest first.',
    example: `SELECT topn_weighted(k, w, 1) FROM ${SAMPLE}`,
  }),
  rowSetDef({
    name: 'histogram',
    aliases: ['hist'],
    signature: 'histogram(expr[, num_buckets]) -> VARCHAR',
    minArgs: 1,
    maxArgs: 2,
    resolve: (types) => ({ argTypes: [scalarArg('histogram', types[0]), ...(types.length > 1 ? [Types.INT] : [])], returnType: Types.STRING }),
    finish: (rows, types) => histogramJson(rows, types[0]),
    description: 'An equal-height histogram of the non-NULL values as JSON text: at most num_buckets (default 128) buckets with lower, upper, ndv, count and pre_sum; equal values stay in one bucket.',
    example: `SELECT histogram(x, 2) FROM ${NUMBERS}`,
  }),
  rowSetDef({
    name: 'linear_histogram',
    signature: 'linear_histogram(expr, interval[, offset]) -> VARCHAR',
    minArgs: 2,
    maxArgs: 3,
    resolve: (types) => {
      if (!isNumericType(types[0]) && types[0].name !== 'NULL') throw noMatch('linear_histogram', types);
      return { argTypes: types.map(() => Types.DOUBLE), returnType: Types.STRING };
    },
    finish: linearHistogramJson,
    description: 'A histogram of the non-NULL values in buckets of width interval from offset (default 0), as JSON text: the non-empty buckets with lower, upper, count and acc_count.',
    example: `SELECT linear_histogram(x, 5) FROM ${NUMBERS}`,
  }),
  rowSetDef({
    name: 'count_by_enum',
    signature: 'count_by_enum(expr, ...) -> VARCHAR',
    minArgs: 1,
    maxArgs: Infinity,
    resolve: (types) => ({ argTypes: types.map(() => Types.STRING), returnType: Types.STRING }),
    keep: () => true,
    finish: (rows, types) => {
      const out = types.map((_t, argIdx) => {
        const counts = new Map<string, number>();
        let nulls = 0;
        for (const row of rows) {
          const value = row[argIdx];
          if (value === null) nulls++;
          else counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
        }
        const cbe = Object.fromEntries([...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
        return { cbe, notnull: rows.length - nulls, null: nulls, all: rows.length };
      });
      return JSON.stringify(out);
    },
    description: 'Per argument, the count of each distinct value (most frequent first), of non-NULL and NULL rows and of all rows, as a JSON array.',
    example: `SELECT count_by_enum(k) FROM ${SAMPLE}`,
  }),
  rowSetDef({
    name: 'sem',
    signature: 'sem(x) -> DOUBLE',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => {
      if (!isNumericType(types[0]) && types[0].name !== 'NULL') throw noMatch('sem', types);
      return { argTypes: [Types.DOUBLE], returnType: Types.DOUBLE };
    },
    finish: (rows) => {
      const n = rows.length;
      if (n === 0) return null;
      if (n === 1) return 0;
      const mean = rows.reduce((sum, row) => sum + num(row[0]), 0) / n;
      const variance = rows.reduce((sum, row) => sum + (num(row[0]) - mean) ** 2, 0) / (n - 1);
      return Math.sqrt(variance / n);
    },
    description: 'The standard error of the mean of the non-NULL values: the sample standard deviation over sqrt(n); 0 for one value, NULL for none.',
    example: `SELECT sem(x) FROM ${NUMBERS}`,
  }),
  ...(['union', 'intersect'] as const).map((op) =>
    rowSetDef({
      name: `group_array_${op}`,
      signature: `group_array_${op}(arr) -> type of arr`,
      minArgs: 1,
      maxArgs: 1,
      resolve: (types) => {
        if (types[0].name !== 'ARRAY') throw noMatch(`group_array_${op}`, types);
        return { argTypes: [types[0]], returnType: Types.array(elementType(types[0])) };
      },
      finish: (rows) => {
        const arrays = rows.map((row) => row[0] as readonly RawValue[]);
        if (op === 'union') return [...new Set(arrays.flat())];
        if (arrays.length === 0) return [];
        return [...new Set(arrays[0])].filter((value) => arrays.every((arr) => arr.includes(value)));
      },
      description: op === 'union' ? 'The distinct elements of all the non-NULL arrays of the group, in first-seen order.' : 'The distinct elements that every non-NULL array of the group has.',
      example: `SELECT group_array_${op}(a) FROM (SELECT [1, 2, 3] AS a UNION ALL SELECT [2, 3, 4]) t`,
    }),
  ),
  rowSetDef({
    name: 'percentile_reservoir',
    signature: 'percentile_reservoir(x, p) -> DOUBLE',
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => {
      if (!isNumericType(types[0]) && types[0].name !== 'NULL') throw noMatch('percentile_reservoir', types);
      return { argTypes: [Types.DOUBLE, Types.DOUBLE], returnType: Types.DOUBLE };
    },
    finish: (rows) => {
      if (rows.length === 0) return null;
      const sorted = Float64Array.from(rows, (row) => num(row[0])).sort();
      const pos = quantileLevel(rows[0][1], 'percentile_reservoir') * (sorted.length - 1);
      const low = Math.floor(pos);
      const high = Math.min(sorted.length - 1, low + 1);
      return sorted[low] + (sorted[high] - sorted[low]) * (pos - low);
    },
    description: "The p-quantile (p in [0, 1]) of the non-NULL values, interpolated between the nearest two (Doris samples a reservoir of 8192 values; here every value counts).",
    example: `SELECT percentile_reservoir(x, 0.5) FROM ${NUMBERS}`,
  }),
  rowSetDef({
    name: 'percentile_approx_weighted',
    signature: 'percentile_approx_weighted(x, weight, p[, compression]) -> DOUBLE',
    minArgs: 3,
    maxArgs: 4,
    resolve: (types) => {
      if (!isNumericType(types[0]) && types[0].name !== 'NULL') throw noMatch('percentile_approx_weighted', types);
      return { argTypes: types.map(() => Types.DOUBLE), returnType: Types.DOUBLE };
    },
    finish: (rows) => (rows.length === 0 ? null : weightedQuantile(rows.map((row) => [num(row[0]), num(row[1] ?? 0)]), quantileLevel(rows[0][2], 'percentile_approx_weighted'))),
    description: 'The p-quantile of the non-NULL values, each counted weight times: the weights are centred on their values and the quantile interpolated between the two centres around it (exact, where Doris uses a t-digest).',
    example: `SELECT percentile_approx_weighted(x, 1, 0.5) FROM ${NUMBERS}`,
  }),
  ...(['match', 'count'] as const).map((kind) =>
    rowSetDef({
      name: `sequence_${kind}`,
      signature: `sequence_${kind}(pattern, time, cond1, cond2, ...) -> ${kind === 'match' ? 'BOOLEAN' : 'BIGINT'}`,
      minArgs: 3,
      maxArgs: 34,
      resolve: (types) => {
        if (types[1].name !== 'DATETIME' && types[1].name !== 'DATE') throw noMatch(`sequence_${kind}`, types);
        return { argTypes: [Types.STRING, Types.DATETIME, ...types.slice(2).map(() => Types.BOOLEAN)], returnType: kind === 'match' ? Types.BOOLEAN : Types.BIGINT };
      },
      keep: (row) => row[0] !== null && row[1] !== null,
      finish: (rows) => {
        const matches = sequenceMatches(rows, kind === 'count');
        return kind === 'match' ? (matches > 0 ? 1 : 0) : BigInt(matches);
      },
      description:
        kind === 'match'
          ? "Whether the group's events, in time order, contain the pattern: (?N) an event where condition N holds, .* any events, . one event, (?t op seconds) a time gap (op <, <=, >, >=, ==, !=)."
          : 'How many non-overlapping times the pattern (as in sequence_match) occurs in the events of the group, in time order.',
      example: `SELECT sequence_${kind}('(?1)(?2)', ts, x = 1, x = 2) FROM (SELECT CAST('2024-01-01 00:00:01' AS DATETIME) AS ts, 1 AS x UNION ALL SELECT CAST('2024-01-01 00:00:02' AS DATETIME), 2) t`,
    }),
  ),
];
