/**
 * Statistical and bitwise aggregates: covariance / correlation / linear regression (regr_*), skewness and
 * kurtosis, weighted average, bool_and / bool_or, group_bit_and / or / xor. Per-group state lives in typed
 * arrays; the moment states merge (partial / final) with the pairwise update formulas of Chan et al.
 */
import type { RawValue, Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { DataType, isNumericType, physicalKind, Types, typeToSql } from '../../../common/types';
import type { AggregateState } from '../../aggregate-state';
import type { AggregateAccumulator } from '../../expr-api';
import { toF64, vectorFromValues } from '../vector-ops';
import type { AggregateDef } from './aggregate-functions';
import { emptyGroupNulls, grown as grow } from './aggregate-functions';

function doubleVector(values: Float64Array, nulls: Uint8Array | null): Vector {
  return { kind: 'fixed', type: Types.DOUBLE, length: values.length, values, nulls };
}

/** Per-group DOUBLE results: `value(group)` returns null for a NULL result. */
function finalizeDoubles(groupCount: number, value: (group: number) => number | null): Vector {
  const out = new Float64Array(groupCount);
  let nulls: Uint8Array | null = null;
  for (let group = 0; group < groupCount; group++) {
    const result = value(group);
    if (result === null || Number.isNaN(result)) {
      nulls ??= new Uint8Array(groupCount);
      nulls[group] = 1;
    } else out[group] = result;
  }
  return doubleVector(out, nulls);
}

// ---------------------------------------------------------------- two-variable moments

type PairResult = (n: number, meanY: number, meanX: number, m2y: number, m2x: number, c: number) => number | null;

/**
 * Per-group DOUBLE state columns (count, means, moment sums) grown together and serialized as one list,
 * for the moment accumulators below.
 */
abstract class MomentColumns {
  protected columns: Float64Array[];

  constructor(columnCount: number) {
    this.columns = Array.from({ length: columnCount }, () => new Float64Array(16));
  }

  resize(groupCount: number): void {
    this.columns = this.columns.map((column) => grow(column, groupCount));
  }

  serialize(groupCount: number): AggregateState {
    return { groupCount, data: this.columns.map((column) => column.slice(0, groupCount)) };
  }
}

/**
 * Count, means, sums of squared deviations and the co-moment of (y, x) per group, over the rows where both
 * are non-NULL. Arguments are (y, x) as in regr_*(y, x); covar / corr are symmetric.
 */
class PairMomentsAccumulator extends MomentColumns implements AggregateAccumulator {
  /** Columns: n, meanY, meanX, m2y, m2x, c. */
  constructor(private readonly result: PairResult, private readonly countResult = false) {
    super(6);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const ys = toF64(args[0]);
    const xs = toF64(args[1]);
    const nullsY = args[0].nulls;
    const nullsX = args[1].nulls;
    const [n, meanY, meanX, m2y, m2x, c] = this.columns;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if ((nullsY !== null && nullsY[rowIdx]) || (nullsX !== null && nullsX[rowIdx])) continue;
      const group = groupIds[rowIdx];
      const y = ys[rowIdx];
      const x = xs[rowIdx];
      const count = ++n[group];
      const dx = x - meanX[group];
      const dy = y - meanY[group];
      meanX[group] += dx / count;
      meanY[group] += dy / count;
      m2x[group] += dx * (x - meanX[group]);
      m2y[group] += dy * (y - meanY[group]);
      c[group] += dx * (y - meanY[group]);
    }
  }

  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const [pn, pMeanY, pMeanX, pM2y, pM2x, pC] = state.data as Float64Array[];
    const [n, meanY, meanX, m2y, m2x, c] = this.columns;
    for (let group = fromGroup; group < state.groupCount; group++) {
      const nb = pn[group];
      if (nb === 0) continue;
      const target = groupMap[group];
      const na = n[target];
      const total = na + nb;
      const dx = pMeanX[group] - meanX[target];
      const dy = pMeanY[group] - meanY[target];
      const weight = (na * nb) / total;
      m2x[target] += pM2x[group] + dx * dx * weight;
      m2y[target] += pM2y[group] + dy * dy * weight;
      c[target] += pC[group] + dx * dy * weight;
      meanX[target] += (dx * nb) / total;
      meanY[target] += (dy * nb) / total;
      n[target] = total;
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const [n, meanY, meanX, m2y, m2x, c] = this.columns;
    if (this.countResult) {
      const out = new BigInt64Array(groupCount);
      for (let group = 0; group < groupCount; group++) out[group] = BigInt(n[group]);
      return { kind: 'fixed', type: Types.BIGINT, length: groupCount, values: out, nulls: null };
    }
    return finalizeDoubles(groupCount, (group) => (n[group] === 0 ? null : this.result(n[group], meanY[group], meanX[group], m2y[group], m2x[group], c[group])));
  }
}

const slope: PairResult = (_n, _my, _mx, _m2y, m2x, c) => (m2x === 0 ? null : c / m2x);

const PAIR_FUNCTIONS: readonly { name: string; aliases?: string[]; result: PairResult; description: string }[] = [
  { name: 'covar', aliases: ['covar_pop'], result: (n, _my, _mx, _m2y, _m2x, c) => c / n, description: 'Population covariance of the rows where both x and y are non-NULL.' },
  { name: 'covar_samp', result: (n, _my, _mx, _m2y, _m2x, c) => (n < 2 ? null : c / (n - 1)), description: 'Sample covariance; NULL for fewer than two rows.' },
  {
    name: 'corr',
    aliases: ['corr_welford'],
    result: (_n, _my, _mx, m2y, m2x, c) => (m2x === 0 || m2y === 0 ? null : c / Math.sqrt(m2x * m2y)),
    description: 'Pearson correlation coefficient; NULL when either variable is constant.',
  },
  { name: 'regr_avgx', result: (_n, _my, mx) => mx, description: 'Mean of the independent variable x over the rows where both are non-NULL.' },
  { name: 'regr_avgy', result: (_n, my) => my, description: 'Mean of the dependent variable y over the rows where both are non-NULL.' },
  { name: 'regr_sxx', result: (_n, _my, _mx, _m2y, m2x) => m2x, description: 'Sum of squared deviations of x: regr_count * var_pop(x).' },
  { name: 'regr_syy', result: (_n, _my, _mx, m2y) => m2y, description: 'Sum of squared deviations of y: regr_count * var_pop(y).' },
  { name: 'regr_sxy', result: (_n, _my, _mx, _m2y, _m2x, c) => c, description: 'Sum of products of the deviations of x and y: regr_count * covar_pop(y, x).' },
  { name: 'regr_slope', result: slope, description: 'Slope of the least-squares line fitted to (x, y); NULL when x is constant.' },
  {
    name: 'regr_intercept',
    result: (n, my, mx, m2y, m2x, c) => {
      const s = slope(n, my, mx, m2y, m2x, c);
      return s === null ? null : my - s * mx;
    },
    description: 'Intercept with the y axis of the least-squares line fitted to (x, y); NULL when x is constant.',
  },
  {
    name: 'regr_r2',
    result: (_n, _my, _mx, m2y, m2x, c) => (m2x === 0 ? null : m2y === 0 ? 1 : (c * c) / (m2x * m2y)),
    description: 'Coefficient of determination of the least-squares line; NULL when x is constant, 1 when y is.',
  },
];

/** Two numeric arguments, computed in DOUBLE. */
function resolveNumericArgs(name: string, count: number) {
  return (argTypes: readonly DataType[]) => {
    for (const type of argTypes) {
      if (!isNumericType(type) && type.name !== 'NULL') throw galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${argTypes.map(typeToSql).join(', ')})`);
    }
    return { argTypes: new Array<DataType>(count).fill(Types.DOUBLE), returnType: Types.DOUBLE };
  };
}

// ---------------------------------------------------------------- one-variable higher moments

/** Count, mean and the 2nd..4th central moment sums per group (Pébay's online / pairwise formulas). */
class HigherMomentsAccumulator extends MomentColumns implements AggregateAccumulator {
  /** Columns: n, mean, m2, m3, m4. */
  constructor(private readonly kurtosis: boolean) {
    super(5);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const values = toF64(args[0]);
    const nulls = args[0].nulls;
    const [n, mean, m2, m3, m4] = this.columns;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx]) continue;
      const group = groupIds[rowIdx];
      const before = n[group];
      const count = before + 1;
      n[group] = count;
      const delta = values[rowIdx] - mean[group];
      const deltaN = delta / count;
      const deltaN2 = deltaN * deltaN;
      const term = delta * deltaN * before;
      mean[group] += deltaN;
      m4[group] += term * deltaN2 * (count * count - 3 * count + 3) + 6 * deltaN2 * m2[group] - 4 * deltaN * m3[group];
      m3[group] += term * deltaN * (count - 2) - 3 * deltaN * m2[group];
      m2[group] += term;
    }
  }

  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const [pn, pMean, pM2, pM3, pM4] = state.data as Float64Array[];
    const [n, mean, m2, m3, m4] = this.columns;
    for (let group = fromGroup; group < state.groupCount; group++) {
      const nb = pn[group];
      if (nb === 0) continue;
      const target = groupMap[group];
      const na = n[target];
      const total = na + nb;
      const delta = pMean[group] - mean[target];
      const d2 = delta * delta;
      const a2 = m2[target];
      const a3 = m3[target];
      const b2 = pM2[group];
      const b3 = pM3[group];
      m4[target] += pM4[group] + (d2 * d2 * na * nb * (na * na - na * nb + nb * nb)) / (total * total * total) + (6 * d2 * (na * na * b2 + nb * nb * a2)) / (total * total) + (4 * delta * (na * b3 - nb * a3)) / total;
      m3[target] += b3 + (d2 * delta * na * nb * (na - nb)) / (total * total) + (3 * delta * (na * b2 - nb * a2)) / total;
      m2[target] += b2 + (d2 * na * nb) / total;
      mean[target] += (delta * nb) / total;
      n[target] = total;
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const [n, , m2, m3, m4] = this.columns;
    return finalizeDoubles(groupCount, (group) => {
      const count = n[group];
      if (count === 0 || m2[group] === 0) return null;
      const variance = m2[group] / count;
      if (this.kurtosis) return m4[group] / count / (variance * variance) - 3;
      return m3[group] / count / Math.pow(variance, 1.5);
    });
  }
}

// ---------------------------------------------------------------- avg_weighted

/** sum(x * w) / sum(w) over the rows where both are non-NULL. */
class WeightedAvgAccumulator implements AggregateAccumulator {
  private weighted = new Float64Array(16);
  private weights = new Float64Array(16);
  private counts = new Float64Array(16);

  resize(groupCount: number): void {
    this.weighted = grow(this.weighted, groupCount);
    this.weights = grow(this.weights, groupCount);
    this.counts = grow(this.counts, groupCount);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const xs = toF64(args[0]);
    const ws = toF64(args[1]);
    const nullsX = args[0].nulls;
    const nullsW = args[1].nulls;
    const { weighted, weights, counts } = this;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if ((nullsX !== null && nullsX[rowIdx]) || (nullsW !== null && nullsW[rowIdx])) continue;
      const group = groupIds[rowIdx];
      weighted[group] += xs[rowIdx] * ws[rowIdx];
      weights[group] += ws[rowIdx];
      counts[group]++;
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const { weighted, weights, counts } = this;
    return finalizeDoubles(groupCount, (group) => (counts[group] === 0 ? null : weighted[group] / weights[group]));
  }
}

// ---------------------------------------------------------------- bool_and / bool_or

const BOOL_WORDS: Record<BitOp, string> = { and: 'every non-NULL value of the group is true (non-zero)', or: 'some non-NULL value of the group is true (non-zero)', xor: 'an odd number of the non-NULL values of the group are true (non-zero)' };

function boolDef(op: BitOp): AggregateDef {
  const name = `bool_${op}`;
  return {
    name,
    aliases: [`bool${op}_agg`],
    signature: `${name}(x) -> BOOLEAN`,
    minArgs: 1,
    maxArgs: 1,
    resolve: () => ({ argTypes: [Types.BOOLEAN], returnType: Types.BOOLEAN }),
    // On 0 / 1 truth values, AND, OR and XOR of the bits.
    create: () => new BitAccumulator(op, Types.BOOLEAN),
    description: `Whether ${BOOL_WORDS[op]}; NULL when there are none.`,
    example: `SELECT ${name}(x > 1) FROM (SELECT 1 AS x UNION ALL SELECT 2) t`,
  };
}

// ---------------------------------------------------------------- group_bit_and / or / xor

type BitOp = 'and' | 'or' | 'xor';

/** Bitwise AND / OR / XOR of the non-NULL integers of a group, in the argument's integer type (bool_and / bool_or: of BOOLEANs). */
class BitAccumulator implements AggregateAccumulator {
  private small = new Int32Array(16);
  private wide = new BigInt64Array(16);
  private seen = new Uint8Array(16);
  private readonly isWide: boolean;

  constructor(private readonly op: BitOp, private readonly type: DataType) {
    this.isWide = physicalKind(type) === 'i64';
  }

  resize(groupCount: number): void {
    this.small = grow(this.small, groupCount);
    this.wide = grow(this.wide, groupCount);
    this.seen = grow(this.seen, groupCount);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const vec = args[0];
    if (vec.kind !== 'fixed') throw galeneError('INTERNAL', `${vec.kind} vector in a bit aggregate`);
    if (this.isWide) foldBits(this.wide, vec.values as BigInt64Array, this.seen, vec.nulls, groupIds, rowCount, WIDE_BIT_OPS[this.op]);
    else foldBits(this.small, vec.values as ArrayLike<number>, this.seen, vec.nulls, groupIds, rowCount, SMALL_BIT_OPS[this.op]);
  }

  serialize(groupCount: number): AggregateState {
    return { groupCount, data: { small: this.small.slice(0, groupCount), wide: this.wide.slice(0, groupCount), seen: this.seen.slice(0, groupCount) } };
  }

  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const partial = state.data as { small: Int32Array; wide: BigInt64Array; seen: Uint8Array };
    const count = state.groupCount - fromGroup;
    const targets = groupMap.subarray(fromGroup, state.groupCount);
    const seen = partial.seen.subarray(fromGroup);
    const nulls = seen.map((flag) => flag ^ 1);
    if (this.isWide) foldBits(this.wide, partial.wide.subarray(fromGroup), this.seen, nulls, targets, count, WIDE_BIT_OPS[this.op]);
    else foldBits(this.small, partial.small.subarray(fromGroup), this.seen, nulls, targets, count, SMALL_BIT_OPS[this.op]);
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const nulls = emptyGroupNulls(this.seen, groupCount);
    const type = this.type;
    if (this.isWide) return { kind: 'fixed', type, length: groupCount, values: this.wide.slice(0, groupCount), nulls };
    const kind = physicalKind(type);
    const source = this.small.subarray(0, groupCount);
    const values = kind === 'u8' ? Uint8Array.from(source) : kind === 'i8' ? Int8Array.from(source) : kind === 'i16' ? Int16Array.from(source) : source.slice();
    return { kind: 'fixed', type, length: groupCount, values, nulls };
  }
}

const SMALL_BIT_OPS: Record<BitOp, (a: number, b: number) => number> = { and: (a, b) => a & b, or: (a, b) => a | b, xor: (a, b) => a ^ b };
const WIDE_BIT_OPS: Record<BitOp, (a: bigint, b: bigint) => bigint> = { and: (a, b) => a & b, or: (a, b) => a | b, xor: (a, b) => a ^ b };

/** Folds the non-NULL `values` into acc[group] (the first value of a group taken as is). */
function foldBits<T extends number | bigint>(acc: { [idx: number]: T }, values: ArrayLike<T>, seen: Uint8Array, nulls: Uint8Array | null, groupIds: Int32Array, rowCount: number, combine: (a: T, b: T) => T): void {
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (nulls !== null && nulls[rowIdx]) continue;
    const group = groupIds[rowIdx];
    if (!seen[group]) {
      seen[group] = 1;
      acc[group] = values[rowIdx];
    } else acc[group] = combine(acc[group], values[rowIdx]);
  }
}

const BIT_INPUT_TYPES = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT']);

function bitDef(op: BitOp): AggregateDef {
  const name = `group_bit_${op}`;
  return {
    name,
    aliases: [`bit_${op}`],
    signature: `${name}(x) -> type of x (TINYINT, SMALLINT, INT or BIGINT)`,
    minArgs: 1,
    maxArgs: 1,
    resolve: (argTypes) => {
      const type = argTypes[0];
      if (type.name === 'NULL' || type.name === 'BOOLEAN') return { argTypes: [Types.TINYINT], returnType: Types.TINYINT };
      if (!BIT_INPUT_TYPES.has(type.name)) throw galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${typeToSql(type)})`);
      return { argTypes: [type], returnType: type };
    },
    create: (_argTypes, returnType) => new BitAccumulator(op, returnType),
    description: `Bitwise ${op.toUpperCase()} of the non-NULL integers of the group; NULL when there are none.`,
    example: `SELECT ${name}(x) FROM (SELECT 3 AS x UNION ALL SELECT 5 UNION ALL SELECT 6) t`,
  };
}

// ---------------------------------------------------------------- retention

/** Doris's limit on retention's conditions. */
const RETENTION_MAX_EVENTS = 32;

/**
 * retention(c1, ..., cn): per group a bit mask of the conditions true on some row; the result's element i
 * is whether c1 and c(i+1) were both true on some rows (element 0: c1 itself).
 */
class RetentionAccumulator implements AggregateAccumulator {
  private masks = new Int32Array(16);
  private seen = new Uint8Array(16);

  constructor(private readonly eventCount: number) {}

  resize(groupCount: number): void {
    this.masks = grow(this.masks, groupCount);
    this.seen = grow(this.seen, groupCount);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const { masks, seen } = this;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) seen[groupIds[rowIdx]] = 1;
    args.forEach((arg, eventIdx) => {
      const values = toF64(arg);
      const nulls = arg.nulls;
      const bit = 1 << eventIdx;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (values[rowIdx] !== 0 && !(nulls !== null && nulls[rowIdx])) masks[groupIds[rowIdx]] |= bit;
      }
    });
  }

  serialize(groupCount: number): AggregateState {
    return { groupCount, data: { masks: this.masks.slice(0, groupCount), seen: this.seen.slice(0, groupCount) } };
  }

  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const partial = state.data as { masks: Int32Array; seen: Uint8Array };
    for (let group = fromGroup; group < state.groupCount; group++) {
      if (!partial.seen[group]) continue;
      this.seen[groupMap[group]] = 1;
      this.masks[groupMap[group]] |= partial.masks[group];
    }
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const arrays: RawValue[] = [];
    for (let group = 0; group < groupCount; group++) {
      if (!this.seen[group]) {
        arrays.push(null);
        continue;
      }
      const mask = this.masks[group];
      const first = mask & 1;
      const row: number[] = [];
      for (let eventIdx = 0; eventIdx < this.eventCount; eventIdx++) row.push(first & (mask >>> eventIdx) & 1);
      arrays.push(row);
    }
    return vectorFromValues(Types.array(Types.BOOLEAN), arrays);
  }
}

// ---------------------------------------------------------------- declarations

const PAIR_EXAMPLE_FROM = 'FROM (SELECT 1 AS y, 2 AS x UNION ALL SELECT 3, 4 UNION ALL SELECT 4, 7) t';

export const STATISTICAL_AGGREGATES: readonly AggregateDef[] = [
  ...PAIR_FUNCTIONS.map(
    ({ name, aliases, result, description }): AggregateDef => ({
      name,
      aliases,
      signature: `${name}(y, x) -> DOUBLE`,
      minArgs: 2,
      maxArgs: 2,
      resolve: resolveNumericArgs(name, 2),
      create: () => new PairMomentsAccumulator(result),
      description,
      example: `SELECT ${name}(y, x) ${PAIR_EXAMPLE_FROM}`,
    }),
  ),
  {
    name: 'regr_count',
    signature: 'regr_count(y, x) -> BIGINT',
    minArgs: 2,
    maxArgs: 2,
    resolve: (argTypes) => ({ argTypes: resolveNumericArgs('regr_count', 2)(argTypes).argTypes, returnType: Types.BIGINT }),
    create: () => new PairMomentsAccumulator(() => null, true),
    description: 'Number of rows where both y and x are non-NULL.',
    example: `SELECT regr_count(y, x) ${PAIR_EXAMPLE_FROM}`,
  },
  {
    name: 'skew',
    aliases: ['skew_pop', 'skewness'],
    signature: 'skew(x) -> DOUBLE',
    minArgs: 1,
    maxArgs: 1,
    resolve: resolveNumericArgs('skew', 1),
    create: () => new HigherMomentsAccumulator(false),
    description: 'Population skewness: the third central moment over the population variance to the power 1.5; NULL when the variance is 0.',
    example: 'SELECT skew(x) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 10) t',
  },
  {
    name: 'kurt',
    aliases: ['kurt_pop', 'kurtosis'],
    signature: 'kurt(x) -> DOUBLE',
    minArgs: 1,
    maxArgs: 1,
    resolve: resolveNumericArgs('kurt', 1),
    create: () => new HigherMomentsAccumulator(true),
    description: 'Population excess kurtosis: the fourth central moment over the squared population variance, minus 3; NULL when the variance is 0.',
    example: 'SELECT kurt(x) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 10) t',
  },
  {
    name: 'avg_weighted',
    signature: 'avg_weighted(x, weight) -> DOUBLE',
    minArgs: 2,
    maxArgs: 2,
    resolve: resolveNumericArgs('avg_weighted', 2),
    create: () => new WeightedAvgAccumulator(),
    description: 'Weighted mean sum(x * weight) / sum(weight) over the rows where both are non-NULL.',
    example: 'SELECT avg_weighted(x, w) FROM (SELECT 1 AS x, 3 AS w UNION ALL SELECT 5, 1) t',
  },
  boolDef('and'),
  boolDef('or'),
  boolDef('xor'),
  {
    name: 'retention',
    signature: 'retention(condition1, ..., conditionN) -> ARRAY<BOOLEAN>',
    minArgs: 1,
    maxArgs: RETENTION_MAX_EVENTS,
    resolve: (argTypes) => {
      for (const type of argTypes) {
        if (!(type.name === 'BOOLEAN' || type.name === 'NULL' || isNumericType(type))) throw galeneError('TYPE_MISMATCH', `No matching function with signature: retention(${argTypes.map(typeToSql).join(', ')})`);
      }
      return { argTypes: argTypes.map(() => Types.BOOLEAN), returnType: Types.array(Types.BOOLEAN) };
    },
    create: (argTypes) => new RetentionAccumulator(argTypes.length),
    description: 'Retention analysis: element 1 is whether condition1 held on some row of the group, element i whether condition1 and condition i both held (on some rows); NULL for no rows.',
    example: "SELECT uid, retention(day = '2024-01-01', day = '2024-01-02') FROM (SELECT 1 AS uid, '2024-01-01' AS day UNION ALL SELECT 1, '2024-01-02') t GROUP BY uid",
  },
  bitDef('and'),
  bitDef('or'),
  bitDef('xor'),
];
