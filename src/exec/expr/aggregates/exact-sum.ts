/**
 * Exact per-group sums of integers and scaled decimals, fast in the common case.
 *
 * Each group accumulates in a float64 while its partial sum stays below 2^52 (every addend on this path
 * is below 2^52 too, so each addition is exact); when a partial sum crosses the limit it is moved into a
 * bigint spill for that group. Values too large for the float path (BIGINT beyond 2^52, LARGEINT, wide
 * DECIMAL) add into the spill directly. The single-group case (no GROUP BY) keeps its partial sum in a
 * local variable across the batch.
 */
import type { Vector } from '../../../common/column';
import { i64Views, TWO_POW_32 } from '../vector-ops';

const SPILL_LIMIT = 2 ** 52;

export class ExactSumState {
  sums = new Float64Array(16);
  counts = new Float64Array(16);
  spill: bigint[] | null = null;
  groupCount = 0;

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
    const values = vec.values as unknown as ArrayLike<number>;
    if (this.groupCount === 1) {
      let sum = sums[0];
      let count = 0;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx]) continue;
        sum += values[rowIdx];
        count++;
        if (sum > SPILL_LIMIT || sum < -SPILL_LIMIT) {
          this.spillAdd(0, BigInt(sum));
          sum = 0;
        }
      }
      sums[0] = sum;
      counts[0] += count;
      return;
    }
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx]) continue;
      const group = groupIds[rowIdx];
      const sum = sums[group] + values[rowIdx];
      counts[group]++;
      if (sum > SPILL_LIMIT || sum < -SPILL_LIMIT) {
        this.spillAdd(group, BigInt(sum));
        sums[group] = 0;
      } else sums[group] = sum;
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
