/**
 * A set of row ids of one segment as sorted, disjoint, non-adjacent [start, end) intervals: what index
 * pruning (zone maps, short key, later inverted / ANN indexes) produces and what column reads consume.
 * Immutable; operations return new sets.
 */
export class RowRanges {
  /** starts[i] < ends[i] <= starts[i + 1]... (strictly less: adjacent intervals are merged). */
  private readonly starts: number[];
  private readonly ends: number[];

  private constructor(starts: number[], ends: number[]) {
    this.starts = starts;
    this.ends = ends;
  }

  static empty(): RowRanges {
    return new RowRanges([], []);
  }

  /** Rows [0, rowCount). */
  static all(rowCount: number): RowRanges {
    return rowCount > 0 ? new RowRanges([0], [rowCount]) : RowRanges.empty();
  }

  static range(start: number, end: number): RowRanges {
    return end > start ? new RowRanges([start], [end]) : RowRanges.empty();
  }

  /** From any [start, end) pairs (unsorted, overlapping, empty ones allowed). */
  static of(pairs: readonly (readonly [number, number])[]): RowRanges {
    const sorted = pairs.filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
    const starts: number[] = [];
    const ends: number[] = [];
    for (const [start, end] of sorted) {
      const last = ends.length - 1;
      if (last >= 0 && start <= ends[last]) {
        if (end > ends[last]) ends[last] = end;
      } else {
        starts.push(start);
        ends.push(end);
      }
    }
    return new RowRanges(starts, ends);
  }

  /** From ascending row ids (duplicates allowed). */
  static fromRowIds(rowIds: Int32Array): RowRanges {
    const starts: number[] = [];
    const ends: number[] = [];
    for (let idIdx = 0; idIdx < rowIds.length; idIdx++) {
      const rowId = rowIds[idIdx];
      const last = ends.length - 1;
      if (last >= 0 && rowId <= ends[last]) {
        if (rowId + 1 > ends[last]) ends[last] = rowId + 1;
      } else {
        starts.push(rowId);
        ends.push(rowId + 1);
      }
    }
    return new RowRanges(starts, ends);
  }

  get rangeCount(): number {
    return this.starts.length;
  }

  start(rangeIdx: number): number {
    return this.starts[rangeIdx];
  }

  end(rangeIdx: number): number {
    return this.ends[rangeIdx];
  }

  /** Number of rows in the set. */
  count(): number {
    let total = 0;
    for (let rangeIdx = 0; rangeIdx < this.starts.length; rangeIdx++) total += this.ends[rangeIdx] - this.starts[rangeIdx];
    return total;
  }

  isEmpty(): boolean {
    return this.starts.length === 0;
  }

  /** True when some row of [start, end) is in the set. */
  overlaps(start: number, end: number): boolean {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ends[mid] <= start) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.starts.length && this.starts[lo] < end;
  }

  intersect(other: RowRanges): RowRanges {
    const starts: number[] = [];
    const ends: number[] = [];
    let aIdx = 0;
    let bIdx = 0;
    while (aIdx < this.starts.length && bIdx < other.starts.length) {
      const start = Math.max(this.starts[aIdx], other.starts[bIdx]);
      const end = Math.min(this.ends[aIdx], other.ends[bIdx]);
      if (start < end) {
        starts.push(start);
        ends.push(end);
      }
      if (this.ends[aIdx] < other.ends[bIdx]) aIdx++;
      else bIdx++;
    }
    return new RowRanges(starts, ends);
  }

  union(other: RowRanges): RowRanges {
    const pairs: [number, number][] = [];
    for (let rangeIdx = 0; rangeIdx < this.starts.length; rangeIdx++) pairs.push([this.starts[rangeIdx], this.ends[rangeIdx]]);
    for (let rangeIdx = 0; rangeIdx < other.starts.length; rangeIdx++) pairs.push([other.starts[rangeIdx], other.ends[rangeIdx]]);
    return RowRanges.of(pairs);
  }

  /** The intervals as [start, end) pairs. */
  toPairs(): [number, number][] {
    return this.starts.map((start, rangeIdx) => [start, this.ends[rangeIdx]] as [number, number]);
  }

  toString(): string {
    return this.toPairs()
      .map(([start, end]) => `[${start},${end})`)
      .join(' ');
  }
}
