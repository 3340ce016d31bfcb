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
