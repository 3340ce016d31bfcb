/**
 * A merging t-digest (Dunning), the one quantile sketch of the project: percentile_approx's per-group
 * state (exec/expr/aggregates/sketch-aggregates.ts) and the QUANTILE_STATE value (quantile-state.ts).
 * Imports nothing.
 */

/**
 * A merging t-digest (Dunning): centroids sorted by mean, new values buffered and merged in when the
 * buffer fills. A centroid near quantile q holds at most 4·n·q·(1-q)/compression values, so the tails
 * stay exact. While every centroid holds one value the digest is the sorted input itself.
 */
export class TDigest {
  means: number[] = [];
  weights: number[] = [];
  total = 0;
  private buffer: number[] = [];

  constructor(readonly compression: number) {}

  add(value: number): void {
    this.buffer.push(value);
    if (this.buffer.length >= this.compression * 2) this.compress();
  }

  addCentroid(mean: number, weight: number): void {
    if (weight === 1) return this.add(mean);
    this.compress();
    this.means.push(mean);
    this.weights.push(weight);
    this.total += weight;
    this.compress(true);
  }

  /** Merge many centroids (another digest's) with one compression pass. */
  addCentroids(means: readonly number[], weights: readonly number[]): void {
    this.compress();
    for (let centroid = 0; centroid < means.length; centroid++) {
      this.means.push(means[centroid]);
      this.weights.push(weights[centroid]);
      this.total += weights[centroid];
    }
    this.compress(true);
  }

  compress(force = false): void {
    if (this.buffer.length === 0 && !force) return;
    const count = this.means.length + this.buffer.length;
    const order = new Float64Array(count);
    const weightOf = new Float64Array(count);
    let idx = 0;
    for (let centroid = 0; centroid < this.means.length; centroid++, idx++) {
      order[idx] = this.means[centroid];
      weightOf[idx] = this.weights[centroid];
    }
    for (const value of this.buffer) {
      order[idx] = value;
      weightOf[idx++] = 1;
    }
    const perm = Array.from({ length: count }, (_unused, pos) => pos).sort((left, right) => order[left] - order[right]);
    const total = this.total + this.buffer.length;
    const means: number[] = [];
    const weights: number[] = [];
    let before = 0;
    for (const pos of perm) {
      const mean = order[pos];
      const weight = weightOf[pos];
      const last = means.length - 1;
      if (last >= 0) {
        const merged = weights[last] + weight;
        const q = (before - weights[last] + merged / 2) / total;
        if (merged <= Math.max(1, (4 * total * q * (1 - q)) / this.compression)) {
          means[last] += ((mean - means[last]) * weight) / merged;
          weights[last] = merged;
          before += weight;
          continue;
        }
      }
      means.push(mean);
      weights.push(weight);
      before += weight;
    }
    this.means = means;
    this.weights = weights;
    this.total = total;
    this.buffer = [];
  }

  /** The q-quantile: linear interpolation between neighbouring centroids (between values while exact). */
  quantile(q: number): number {
    this.compress();
    const count = this.means.length;
    if (count === 1) return this.means[0];
    if (count === this.total) {
      const pos = q * (count - 1);
      const low = Math.floor(pos);
      const high = Math.min(count - 1, low + 1);
      return this.means[low] + (this.means[high] - this.means[low]) * (pos - low);
    }
    const target = q * this.total;
    let before = 0;
    for (let idx = 0; idx < count; idx++) {
      const center = before + this.weights[idx] / 2;
      if (target <= center) {
        if (idx === 0) return this.means[0];
        const prevCenter = before - this.weights[idx - 1] / 2;
        return this.means[idx - 1] + ((this.means[idx] - this.means[idx - 1]) * (target - prevCenter)) / (center - prevCenter);
      }
      before += this.weights[idx];
    }
    return this.means[count - 1];
  }
}
