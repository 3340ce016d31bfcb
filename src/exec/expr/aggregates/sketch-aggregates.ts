/**
 * Approximate aggregates over sketches: approx_count_distinct / ndv (HyperLogLog over 32-bit value
 * hashes) and percentile_approx (a merging t-digest). Both keep a bounded state per group, whatever the
 * input size, and work a batch at a time: the hashes of a batch are computed column-wise
 * (common/bucket-hash.ts), the values read from the batch's Float64Array.
 */
import type { Vector } from '../../../common/column';
import { hashColumn } from '../../../common/bucket-hash';
import { galeneError } from '../../../common/errors';
import { DataType, isNumericType, Types, typeToSql } from '../../../common/types';
import type { AggregateState } from '../../aggregate-state';
import type { AggregateAccumulator } from '../../expr-api';
import { i64FromNumbers, toF64 } from '../vector-ops';
import type { AggregateDef } from './aggregate-functions';
import { TDigest } from '../../../common/t-digest';

// ---------------------------------------------------------------- HyperLogLog

/** 2^14 registers, as Doris's HLL (standard error about 0.8%). */
const HLL_PRECISION = 14;
const HLL_REGISTERS = 1 << HLL_PRECISION;
/**
 * Below this many distinct hashes a group keeps the hashes themselves and counts them exactly, as Doris's
 * HLL keeps an explicit set (HLL_EXPLICIT_INT64_NUM = 160) before it switches to registers.
 */
const HLL_EXPLICIT_MAX = 160;
const HLL_ALPHA = 0.7213 / (1 + 1.079 / HLL_REGISTERS);

/** One group's sketch: an explicit set of hashes while small, then the registers. */
interface HllGroup {
  explicit: Set<number> | null;
  registers: Uint8Array | null;
}

function toRegisters(group: HllGroup): Uint8Array {
  const registers = new Uint8Array(HLL_REGISTERS);
  for (const hash of group.explicit!) addToRegisters(registers, hash);
  group.explicit = null;
  group.registers = registers;
  return registers;
}

function addToRegisters(registers: Uint8Array, hash: number): void {
  const index = hash >>> (32 - HLL_PRECISION);
  const rest = (hash << HLL_PRECISION) >>> 0;
  // Rank: position of the first 1 bit in the remaining 18 bits (19 when they are all zero).
  const rank = rest === 0 ? 32 - HLL_PRECISION + 1 : Math.clz32(rest) + 1;
  if (rank > registers[index]) registers[index] = rank;
}

function addHash(group: HllGroup, hash: number): void {
  if (group.registers !== null) return addToRegisters(group.registers, hash);
  group.explicit!.add(hash);
  if (group.explicit!.size > HLL_EXPLICIT_MAX) toRegisters(group);
}

/** The HyperLogLog estimate with the small-range (linear counting) correction. */
function estimate(group: HllGroup | undefined): number {
  if (group === undefined) return 0;
  if (group.explicit !== null) return group.explicit.size;
  const registers = group.registers!;
  let sum = 0;
  let zeros = 0;
  for (let idx = 0; idx < HLL_REGISTERS; idx++) {
    sum += 2 ** -registers[idx];
    if (registers[idx] === 0) zeros++;
  }
  const raw = (HLL_ALPHA * HLL_REGISTERS * HLL_REGISTERS) / sum;
  if (raw <= 2.5 * HLL_REGISTERS && zeros > 0) return Math.round(HLL_REGISTERS * Math.log(HLL_REGISTERS / zeros));
  return Math.round(raw);
}

class HllAccumulator implements AggregateAccumulator {
  private groups: (HllGroup | undefined)[] = [];

  resize(groupCount: number): void {
    while (this.groups.length < groupCount) this.groups.push(undefined);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    const vec = args[0];
    const hashes = hashColumn(vec);
    const nulls = vec.nulls;
    const groups = this.groups;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx]) continue;
      const groupId = groupIds[rowIdx];
      const group = (groups[groupId] ??= { explicit: new Set(), registers: null });
      addHash(group, hashes[rowIdx]);
    }
  }

  stateBytes(): number {
    let bytes = 0;
    for (const group of this.groups) if (group !== undefined) bytes += group.registers !== null ? HLL_REGISTERS : group.explicit!.size * 16;
    return bytes;
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const counts = new Float64Array(groupCount);
    for (let group = 0; group < groupCount; group++) counts[group] = estimate(this.groups[group]);
    return { kind: 'fixed', type: Types.BIGINT, length: groupCount, values: i64FromNumbers(counts, groupCount), nulls: null };
  }

  serialize(groupCount: number): AggregateState {
    return { groupCount, data: this.groups.slice(0, groupCount).map((group) => (group === undefined ? null : group.registers ?? Array.from(group.explicit!))) };
  }

  /** Registers merge by maximum; explicit hashes are added one by one. */
  merge(state: AggregateState, groupMap: Int32Array, fromGroup: number): void {
    const partial = state.data as (Uint8Array | number[] | null)[];
    for (let group = fromGroup; group < state.groupCount; group++) {
      const part = partial[group];
      if (part === null) continue;
      const target = (this.groups[groupMap[group]] ??= { explicit: new Set(), registers: null });
      if (Array.isArray(part)) {
        for (const hash of part) addHash(target, hash);
        continue;
      }
      const registers = target.registers ?? toRegisters(target);
      for (let idx = 0; idx < HLL_REGISTERS; idx++) if (part[idx] > registers[idx]) registers[idx] = part[idx];
    }
  }
}

// ---------------------------------------------------------------- t-digest

/** Doris's percentile_approx compression: default 10000, accepted range [2048, 10000]. */
const DEFAULT_COMPRESSION = 10000;
const MIN_COMPRESSION = 2048;
const MAX_COMPRESSION = 10000;

/** A quantile argument: a constant in [0, 1], as Doris requires. */
export function quantileLevel(name: string, vec: Vector, rowCount: number): number {
  const levels = toF64(vec);
  const level = levels[0];
  if ((vec.nulls !== null && vec.nulls[0]) || !(level >= 0 && level <= 1)) throw galeneError('INVALID_ARGUMENT', `${name} level must be in [0, 1], but given ${vec.nulls !== null && vec.nulls[0] ? 'NULL' : String(level)}`);
  for (let rowIdx = 1; rowIdx < rowCount; rowIdx++) if (levels[rowIdx] !== level) throw galeneError('INVALID_ARGUMENT', `${name} level must be a constant`);
  return level;
}

class PercentileApproxAccumulator implements AggregateAccumulator {
  private digests: (TDigest | undefined)[] = [];
  private level: number | null = null;
  private compression = DEFAULT_COMPRESSION;

  resize(groupCount: number): void {
    while (this.digests.length < groupCount) this.digests.push(undefined);
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    if (rowCount === 0) return;
    if (this.level === null) {
      this.level = quantileLevel('percentile_approx', args[1], rowCount);
      if (args.length > 2) {
        const given = toF64(args[2])[0];
        // Doris clamps a compression outside [2048, 10000] to the default.
        this.compression = given >= MIN_COMPRESSION && given <= MAX_COMPRESSION ? Math.trunc(given) : DEFAULT_COMPRESSION;
      }
    }
    const values = toF64(args[0]);
    const nulls = args[0].nulls;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx]) continue;
      const group = groupIds[rowIdx];
      (this.digests[group] ??= new TDigest(this.compression)).add(values[rowIdx]);
    }
  }

  stateBytes(): number {
    let bytes = 0;
    for (const digest of this.digests) if (digest !== undefined) bytes += (digest.means.length + this.compression) * 16;
    return bytes;
  }

  finalize(groupCount: number): Vector {
    this.resize(groupCount);
    const out = new Float64Array(groupCount);
    let nulls: Uint8Array | null = null;
    for (let group = 0; group < groupCount; group++) {
      const digest = this.digests[group];
      if (digest === undefined) {
        nulls ??= new Uint8Array(groupCount);
        nulls[group] = 1;
        continue;
      }
      out[group] = digest.quantile(this.level!);
    }
    return { kind: 'fixed', type: Types.DOUBLE, length: groupCount, values: out, nulls };
  }
}

// ---------------------------------------------------------------- declarations

/** The value argument of a quantile aggregate: numeric (cast to DOUBLE), never a string or an array. */
export function numericQuantileArgs(name: string, argTypes: readonly DataType[]): DataType[] {
  const t = argTypes[0];
  if (!(isNumericType(t) || t.name === 'NULL') || argTypes.slice(1).some((level) => !(isNumericType(level) || level.name === 'NULL'))) {
    throw galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${argTypes.map(typeToSql).join(', ')})`);
  }
  return argTypes.map(() => Types.DOUBLE);
}

function hllDef(name: string, aliases: string[]): AggregateDef {
  return {
    name,
    aliases,
    signature: `${name}(x) -> BIGINT`,
    minArgs: 1,
    maxArgs: 1,
    resolve: (argTypes) => {
      if (argTypes[0].name === 'ARRAY') throw galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${typeToSql(argTypes[0])})`);
      return { argTypes: [argTypes[0]], returnType: Types.BIGINT };
    },
    create: () => new HllAccumulator(),
    description: 'Approximate number of distinct non-NULL values: a HyperLogLog of 2^14 registers over value hashes (exact up to 160 distinct values; about 0.8% error beyond).',
    example: `SELECT ${name}(x) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 2) t`,
  };
}

export const SKETCH_AGGREGATES: readonly AggregateDef[] = [
  hllDef('approx_count_distinct', ['ndv']),
  {
    name: 'percentile_approx',
    signature: 'percentile_approx(x, p[, compression]) -> DOUBLE',
    minArgs: 2,
    maxArgs: 3,
    resolve: (argTypes) => ({ argTypes: numericQuantileArgs('percentile_approx', argTypes), returnType: Types.DOUBLE }),
    create: () => new PercentileApproxAccumulator(),
    description: 'Approximate p-quantile (p a constant in [0, 1]) of the non-NULL values, from a t-digest of the given compression (2048..10000, default 10000; exact interpolation while the group is small).',
    example: 'SELECT percentile_approx(x, 0.5) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 4) t',
  },
];
