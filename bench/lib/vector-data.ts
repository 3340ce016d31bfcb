/**
 * Seeded vector data for ANN benchmarks and tests: a Gaussian mixture (clusters with a low-rank
 * covariance plus isotropic noise — closer to real embeddings than uniform noise, where every neighbour
 * is about as far as every other), queries from the same distribution, exact ground truth, recall, and
 * `.fvecs` reading for real data sets. Used by bench/ann-libraries.ts, the `vector` benchmark and
 * test/ann/.
 */
import * as fs from 'node:fs';
import { mulberry32 } from '../../src/common/prng';
import type { AnnMetric } from '../../src/storage/ann/ann-params';
import { exactTopK } from '../../src/storage/ann/exact-scan';

export interface MixtureOptions {
  readonly clusters?: number;
  /** Rank of each cluster's covariance. */
  readonly rank?: number;
  /** Spread of the cluster centres relative to the within-cluster spread. */
  readonly separation?: number;
  readonly noise?: number;
}

/** A standard normal generator (Box-Muller over mulberry32). */
export function gaussian(seed: number): () => number {
  const random = mulberry32(seed);
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    const u = Math.max(random(), 1e-12);
    const v = random();
    const radius = Math.sqrt(-2 * Math.log(u));
    spare = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  };
}

/** The mixture itself (centres and bases), fixed by `seed`, so base vectors and queries share it. */
export class GaussianMixture {
  private readonly centres: Float32Array;
  private readonly bases: Float32Array;
  readonly clusters: number;
  readonly rank: number;
  private readonly noise: number;

  constructor(readonly dim: number, seed: number, options: MixtureOptions = {}) {
    this.clusters = options.clusters ?? 100;
    this.rank = options.rank ?? 8;
    this.noise = options.noise ?? 0.15;
    const separation = options.separation ?? 2;
    const normal = gaussian(seed);
    this.centres = new Float32Array(this.clusters * dim);
    for (let idx = 0; idx < this.centres.length; idx++) this.centres[idx] = normal() * separation;
    this.bases = new Float32Array(this.clusters * this.rank * dim);
    const scale = 1 / Math.sqrt(this.rank);
    for (let idx = 0; idx < this.bases.length; idx++) this.bases[idx] = normal() * scale;
  }

  /** `count` packed vectors drawn with `seed`. */
  sample(count: number, seed: number): Float32Array {
    const dim = this.dim;
    const out = new Float32Array(count * dim);
    const normal = gaussian(seed);
    const random = mulberry32(seed ^ 0x5bd1e995);
    const weights = new Float32Array(this.rank);
    for (let row = 0; row < count; row++) {
      const cluster = Math.floor(random() * this.clusters);
      for (let r = 0; r < this.rank; r++) weights[r] = normal();
      const base = row * dim;
      for (let d = 0; d < dim; d++) {
        let value = this.centres[cluster * dim + d] + normal() * this.noise;
        for (let r = 0; r < this.rank; r++) value += weights[r] * this.bases[(cluster * this.rank + r) * dim + d];
        out[base + d] = value;
      }
    }
    return out;
  }
}

/** Base vectors and queries of one seeded data set. */
export function mixtureDataSet(count: number, queries: number, dim: number, seed = 42, options: MixtureOptions = {}): { base: Float32Array; queries: Float32Array } {
  const mixture = new GaussianMixture(dim, seed, options);
  return { base: mixture.sample(count, seed + 1), queries: mixture.sample(queries, seed + 2) };
}

/** Exact top-`k` rows of each query (queries.length / dim rows of k entries), by the engine's exact kernel. */
export function groundTruth(metric: AnnMetric, base: Float32Array, queries: Float32Array, dim: number, k: number, accept?: (row: number) => boolean): Int32Array[] {
  const count = base.length / dim;
  const out: Int32Array[] = [];
  for (let queryIdx = 0; queryIdx < queries.length / dim; queryIdx++) {
    out.push(exactTopK(metric, base, dim, count, queries.subarray(queryIdx * dim, (queryIdx + 1) * dim), k, accept).positions);
  }
  return out;
}

/** Mean fraction of the true top-k found in the returned top-k. */
export function recallAtK(results: readonly ArrayLike<number | bigint>[], truth: readonly Int32Array[], k: number): number {
  let found = 0;
  let expected = 0;
  for (let queryIdx = 0; queryIdx < truth.length; queryIdx++) {
    const want = new Set(Array.from(truth[queryIdx].subarray(0, k)));
    expected += want.size;
    const got = results[queryIdx];
    for (let idx = 0; idx < Math.min(k, got.length); idx++) if (want.has(Number(got[idx]))) found++;
  }
  return expected === 0 ? 1 : found / expected;
}

/** A `.fvecs` file (each vector: int32 dim, then dim float32), at most `limit` vectors. */
export function readFvecs(file: string, limit = Infinity): { vectors: Float32Array; dim: number } {
  const bytes = fs.readFileSync(file);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 4) throw new Error(`${file}: empty .fvecs file`);
  const dim = view.getInt32(0, true);
  const stride = 4 + dim * 4;
  if (dim <= 0 || bytes.length % stride !== 0) throw new Error(`${file}: not an .fvecs file (dim ${dim}, ${bytes.length} bytes)`);
  const count = Math.min(limit, bytes.length / stride);
  const vectors = new Float32Array(count * dim);
  for (let row = 0; row < count; row++) {
    if (view.getInt32(row * stride, true) !== dim) throw new Error(`${file}: vector ${row} has another dimension`);
    for (let d = 0; d < dim; d++) vectors[row * dim + d] = view.getFloat32(row * stride + 4 + d * 4, true);
  }
  return { vectors, dim };
}

/**
 * Round every value to `decimals` decimal places (then to float32), in place: the values then have a
 * short exact text (writeVectorText), so what a load sends, what the server stores and what the bench
 * searches with are the same floats.
 */
export function quantizeVectors(vectors: Float32Array, decimals: number): void {
  const scale = 10 ** decimals;
  for (let idx = 0; idx < vectors.length; idx++) vectors[idx] = Math.round(vectors[idx] * scale) / scale;
}

const DIGITS = new Uint8Array(24);

/**
 * Write `[v0,v1,...]` for the `dim` values from `start` (already quantized to `decimals`) into `out` at
 * `pos`, byte by byte (no per-value strings: 1M x 768 values are formatted this way); returns the end.
 * `out` must have room for dim * (decimals + 12) + 2 bytes.
 */
export function writeVectorText(out: Uint8Array, pos: number, vectors: Float32Array, start: number, dim: number, decimals: number): number {
  const scale = 10 ** decimals;
  out[pos++] = 0x5b; // [
  for (let d = 0; d < dim; d++) {
    if (d > 0) out[pos++] = 0x2c; // ,
    let scaled = Math.round(vectors[start + d] * scale);
    if (scaled < 0) {
      out[pos++] = 0x2d; // -
      scaled = -scaled;
    }
    let len = 0;
    do {
      const next = Math.floor(scaled / 10);
      DIGITS[len++] = 0x30 + (scaled - next * 10);
      scaled = next;
    } while (scaled > 0 || len <= decimals);
    for (let digit = len - 1; digit >= 0; digit--) {
      out[pos++] = DIGITS[digit];
      if (digit === decimals && decimals > 0) out[pos++] = 0x2e; // .
    }
  }
  out[pos++] = 0x5d; // ]
  return pos;
}

/** The text of one vector (for a query parameter), as writeVectorText writes it. */
export function vectorText(vector: Float32Array, decimals: number): string {
  const out = new Uint8Array(vector.length * (decimals + 12) + 2);
  return Buffer.from(out.buffer, 0, writeVectorText(out, 0, vector, 0, vector.length, decimals)).toString('latin1');
}

/**
 * Exact top-k per query over a data set seen chunk by chunk (so the whole set never has to be in memory):
 * add each chunk's own top-k (ids already global, distances ascending), keep the best k per query.
 */
export class StreamingTopK {
  private readonly ids: Int32Array[];
  private readonly distances: Float64Array[];

  constructor(readonly queries: number, readonly k: number) {
    this.ids = Array.from({ length: queries }, () => new Int32Array(0));
    this.distances = Array.from({ length: queries }, () => new Float64Array(0));
  }

  /** Merge one chunk's sorted candidates for `queryIdx` (ties: the smaller id first). */
  add(queryIdx: number, ids: ArrayLike<number>, distances: ArrayLike<number>, count: number): void {
    const oldIds = this.ids[queryIdx];
    const oldDist = this.distances[queryIdx];
    const size = Math.min(this.k, oldIds.length + count);
    const outIds = new Int32Array(size);
    const outDist = new Float64Array(size);
    let left = 0;
    let right = 0;
    for (let idx = 0; idx < size; idx++) {
      const takeLeft = right >= count || (left < oldIds.length && (oldDist[left] < distances[right] || (oldDist[left] === distances[right] && oldIds[left] < ids[right])));
      if (takeLeft) {
        outIds[idx] = oldIds[left];
        outDist[idx] = oldDist[left++];
      } else {
        outIds[idx] = ids[right];
        outDist[idx] = distances[right++];
      }
    }
    this.ids[queryIdx] = outIds;
    this.distances[queryIdx] = outDist;
  }

  truth(): Int32Array[] {
    return this.ids;
  }
}
