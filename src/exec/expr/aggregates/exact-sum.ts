/**
 * Exact per-group sums of integers and scaled decimals, fast in the common case.
 *
 * Each group accumulates in a float64 while its partial sum stays within 2^52. Every addend on this path
 * is an integer below 2^53 in magnitude, so a sum whose rounded value is within 2^52 is exact (rounding is
 * monotone and 2^52 is representable); when it is not, the old partial sum and the addend (both exact)
 * move into a bigint spill for that group. Values too large for the float path (BIGINT beyond 2^52,
 * LARGEINT, wide DECIMAL without an exact float64 form) add into the spill directly. The single-group
 * case (no GROUP BY) keeps its partial sum in a local variable across the batch.
 */
import type { Vector } from '../../../common/column';
import { exactNumbers, i64Views, maxAbs, TWO_POW_32 } from '../vector-ops';

const SPILL_LIMIT = 2 ** 52;

/** Serialized ExactSumState groups (structured-cloneable). */
export interface ExactSumSnapshot {
  readonly sums: Float64Array;
  readonly counts: Float64Array;
  readonly spill: bigint[] | null;
}

export class ExactSumState {
  sums = new Float64Array(16);
  counts = new Float64Array(16);
  spill: bigint[] | null = null;
  groupCount = 0;
  /** An upper bound of every group's |partial sum| (SPILL_LIMIT when unknown). */
  private partialBound = 0;

  resize(groupCount: number): void {
    if (groupCount > this.sums.length) {
      const capacity = Math.max(groupCount, this.sums.length * 2);
      const sums = new Float64Array(capacity);
      sums.set(this.sums);
      this.sums = sums;
      const counts = new Float64Array(capacity);
      counts.set(this.counts);
      this.counts = counts;
      if (this.spill !== null) while (this.spill.length < capacity) this.spill.push(0n);
    }
    this.groupCount = Math.max(this.groupCount, groupCount);
  }

  private spillAdd(group: number, value: bigint): void {
    if (this.spill === null) this.spill = new Array<bigint>(this.sums.length).fill(0n);
    this.spill[group] += value;
  }

  /** Add rows of an integer / scaled-decimal vector (values already at the target scale). */
  update(groupIds: Int32Array, vec: Vector, rowCount: number): void {
    const nulls = vec.nulls;
    const sums = this.sums;
    const counts = this.counts;
    const exact = exactNumbers(vec);
    if (exact !== null) return this.updateNumbers(groupIds, exact, nulls, rowCount);
    if (vec.kind === 'object') {
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx]) continue;
        const group = groupIds[rowIdx];
        this.spillAdd(group, vec.values[rowIdx]);
        counts[group]++;
      }
      return;
    }
    if (vec.kind !== 'fixed') throw new TypeError('numeric vector expected');
    if (vec.values instanceof BigInt64Array) {
      this.partialBound = SPILL_LIMIT;
      const { lo, hi } = i64Views(vec.values);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx]) continue;
        const group = groupIds[rowIdx];
        const high = hi[rowIdx * 2 + 1];
        counts[group]++;
        if (high >= -0x100000 && high < 0x100000) {
          const sum = sums[group] + (high * TWO_POW_32 + lo[rowIdx * 2]);
          if (sum > SPILL_LIMIT || sum < -SPILL_LIMIT) {
            this.spillAdd(group, BigInt(sum));
            sums[group] = 0;
          } else sums[group] = sum;
        } else this.spillAdd(group, vec.values[rowIdx]);
      }
      return;
    }
    this.updateNumbers(groupIds, vec.values as unknown as ArrayLike<number>, nulls, rowCount);
  }

  /** Add integers below 2^53 in magnitude (scaled decimals, 32-bit integers, exact forms). */
  private updateNumbers(groupIds: Int32Array, values: ArrayLike<number>, nulls: Uint8Array | null, rowCount: number): void {
    const sums = this.sums;
    const counts = this.counts;
    if (this.groupCount === 1) {
      this.partialBound = SPILL_LIMIT;
      let sum = sums[0];
      let count = 0;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx]) continue;
        const value = values[rowIdx];
        const next = sum + value;
        count++;
        if (next > SPILL_LIMIT || next < -SPILL_LIMIT) {
          this.spillAdd(0, BigInt(sum) + BigInt(value));
          sum = 0;
        } else sum = next;
      }
      sums[0] = sum;
      counts[0] += count;
      return;
    }
    if (nulls === null) {
      // When no partial sum can leave 2^52 within this batch, add without the per-row check.
      const batchBound = maxAbs(values, rowCount) * rowCount;
      if (this.partialBound + batchBound > SPILL_LIMIT && this.groupCount <= 64) {
        let bound = 0;
        for (let group = 0; group < this.groupCount; group++) bound = Math.max(bound, Math.abs(sums[group]));
        this.partialBound = bound;
      }
      if (this.partialBound + batchBound <= SPILL_LIMIT) {
        this.partialBound += batchBound;
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
          const group = groupIds[rowIdx];
          sums[group] += values[rowIdx];
          counts[group]++;
        }
        return;
      }
      this.partialBound = SPILL_LIMIT;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const group = groupIds[rowIdx];
        const value = values[rowIdx];
        const sum = sums[group] + value;
        counts[group]++;
        if (sum > SPILL_LIMIT || sum < -SPILL_LIMIT) {
          this.spillAdd(group, BigInt(sums[group]) + BigInt(value));
          sums[group] = 0;
        } else sums[group] = sum;
      }
      return;
    }
    this.partialBound = SPILL_LIMIT;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls[rowIdx]) continue;
      const group = groupIds[rowIdx];
      const value = values[rowIdx];
      const sum = sums[group] + value;
      counts[group]++;
      if (sum > SPILL_LIMIT || sum < -SPILL_LIMIT) {
        this.spillAdd(group, BigInt(sums[group]) + BigInt(value));
        sums[group] = 0;
      } else sums[group] = sum;
    }
  }

  /** State of groups [0, groupCount) for a partial aggregate (see AggregateAccumulator.serialize). */
  serialize(groupCount: number): ExactSumSnapshot {
    return { sums: this.sums.slice(0, groupCount), counts: this.counts.slice(0, groupCount), spill: this.spill === null ? null : this.spill.slice(0, groupCount) };
  }

  /** Add a snapshot's group g (g >= fromGroup) into group groupMap[g] (room made by resize()). */
  merge(snapshot: ExactSumSnapshot, groupMap: Int32Array, fromGroup: number): void {
    this.partialBound = SPILL_LIMIT;
    const sums = this.sums;
    const counts = this.counts;
    for (let group = fromGroup; group < snapshot.sums.length; group++) {
      const target = groupMap[group];
      counts[target] += snapshot.counts[group];
      // Both partial sums are exact integers within 2^52, so their float sum is exact.
      const sum = sums[target] + snapshot.sums[group];
      if (sum > SPILL_LIMIT || sum < -SPILL_LIMIT) {
        this.spillAdd(target, BigInt(sum));
        sums[target] = 0;
      } else sums[target] = sum;
      if (snapshot.spill !== null && snapshot.spill[group] !== 0n) this.spillAdd(target, snapshot.spill[group]);
    }
  }

  /** The exact total of a group. */
  total(group: number): bigint {
    const partial = BigInt(this.sums[group]);
    return this.spill === null ? partial : this.spill[group] + partial;
  }

  /** True when every group's total is exact as a number (no spill used). */
  get allNumbers(): boolean {
    return this.spill === null;
  }
}
