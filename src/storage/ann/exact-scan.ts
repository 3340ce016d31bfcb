/**
 * Exact nearest-neighbour kernels over packed Float32Array vectors (row r at r*dim): the search path for
 * segments without an index file, for heavily filtered searches and for range queries the index cannot
 * answer. Typed arrays and one bounded heap, no per-row objects (DESIGN §6). Distances come in blocks from
 * common/vector-distance.ts (WebAssembly SIMD where it pays, the JS loops otherwise).
 *
 * Internally every metric is a "key" where smaller is better: squared L2 for l2_distance, -dot for
 * inner_product. `toDorisDistance` turns a key into what Doris returns (the true L2 distance; the inner
 * product itself, larger is better).
 */
import { distanceBatch, distanceGather, dotProduct, l2Squared, type DistanceKernelKind, type KernelPrecision } from '../../common/vector-distance';
import type { AnnMetric } from './ann-params';

/** The smaller-is-better key of one vector. */
export function metricKey(metric: AnnMetric, vectors: Float32Array, offset: number, query: Float32Array, dim: number): number {
  return metric === 'l2_distance' ? l2Squared(vectors, offset, query, 0, dim) : -dotProduct(vectors, offset, query, 0, dim);
}

export function toDorisDistance(metric: AnnMetric, key: number): number {
  return metric === 'l2_distance' ? Math.sqrt(Math.max(0, key)) : -key;
}

/** A key for a Doris distance (the inverse of toDorisDistance; negative L2 radii map below every key). */
export function fromDorisDistance(metric: AnnMetric, distance: number): number {
  if (metric === 'inner_product') return -distance;
  return distance < 0 ? -1 : distance * distance;
}

/** Positions (into the packed vectors) and keys, nearest first. */
export interface ExactHits {
  readonly positions: Int32Array;
  readonly keys: Float64Array;
}

/** Rows per distance batch: the keys of one block, then the heap or the filter over them. */
const BLOCK_ROWS = 4096;

const KERNEL: Record<AnnMetric, DistanceKernelKind> = { l2_distance: 'l2Squared', inner_product: 'dotProduct' };

/**
 * The keys of rows [first, first + rows) (or of the gathered `positions`) into `keys`, smaller is better.
 * 'fast' is the float32 WebAssembly SIMD kernel, 'exact' the JS loops' value bit for bit.
 */
function blockKeys(metric: AnnMetric, vectors: Float32Array, dim: number, first: number, rows: number, positions: Int32Array | null, query: Float32Array, keys: Float64Array, precision: KernelPrecision): void {
  if (positions) distanceGather(KERNEL[metric], vectors, dim, positions, query, keys, precision);
  else distanceBatch(KERNEL[metric], vectors.subarray(first * dim, (first + rows) * dim), dim, rows, query, keys, precision);
  if (metric === 'inner_product') for (let idx = 0; idx < (positions ? positions.length : rows); idx++) keys[idx] = -keys[idx];
}

/**
 * The `k` nearest of `count` packed vectors to `query`, nearest first (ties by position), among the
 * positions `accept` keeps (all when absent). A max-heap of size k keeps the current k best.
 *
 * When fewer than all rows are wanted, candidates are chosen by the float32 SIMD kernel and the k chosen
 * get their exact (JS-loop) keys, by which they are ordered and returned: the keys always equal
 * metricKey's, and only rows within float32 rounding of the k-th key can differ from an all-exact choice.
 */
export function exactTopK(metric: AnnMetric, vectors: Float32Array, dim: number, count: number, query: Float32Array, k: number, accept?: (position: number) => boolean): ExactHits {
  const size = Math.min(k, count);
  const heapKeys = new Float64Array(size);
  const heapPos = new Int32Array(size);
  let filled = 0;
  const precision: KernelPrecision = size < count ? 'fast' : 'exact';
  const blockRows = Math.min(BLOCK_ROWS, count);
  const keys = new Float64Array(blockRows);
  const accepted = accept ? new Int32Array(blockRows) : null;
  for (let first = 0; first < count; first += blockRows) {
    const rows = Math.min(blockRows, count - first);
    let positions: Int32Array | null = null;
    if (accepted) {
      let kept = 0;
      for (let pos = first; pos < first + rows; pos++) if (accept!(pos)) accepted[kept++] = pos;
      positions = accepted.subarray(0, kept);
    }
    blockKeys(metric, vectors, dim, first, rows, positions, query, keys, precision);
    const blockCount = positions ? positions.length : rows;
    for (let idx = 0; idx < blockCount; idx++) {
      const pos = positions ? positions[idx] : first + idx;
      const key = keys[idx];
      if (filled < size) {
        // sift up
        let child = filled++;
        while (child > 0) {
          const parent = (child - 1) >> 1;
          if (heapKeys[parent] >= key) break;
          heapKeys[child] = heapKeys[parent];
          heapPos[child] = heapPos[parent];
          child = parent;
        }
        heapKeys[child] = key;
        heapPos[child] = pos;
      } else if (size > 0 && key < heapKeys[0]) {
        // replace the root, sift down
        let parent = 0;
        for (;;) {
          let child = 2 * parent + 1;
          if (child >= size) break;
          if (child + 1 < size && heapKeys[child + 1] > heapKeys[child]) child++;
          if (heapKeys[child] <= key) break;
          heapKeys[parent] = heapKeys[child];
          heapPos[parent] = heapPos[child];
          parent = child;
        }
        heapKeys[parent] = key;
        heapPos[parent] = pos;
      }
    }
  }
  if (precision === 'fast') for (let idx = 0; idx < filled; idx++) heapKeys[idx] = metricKey(metric, vectors, heapPos[idx] * dim, query, dim);
  return sortHits(heapPos.subarray(0, filled), heapKeys.subarray(0, filled));
}

/** Every vector whose key satisfies `keep(key)`, nearest first (exact keys: a radius boundary is exact). */
export function exactFilter(metric: AnnMetric, vectors: Float32Array, dim: number, count: number, query: Float32Array, keep: (key: number) => boolean): ExactHits {
  let positions = new Int32Array(64);
  let keys = new Float64Array(64);
  let found = 0;
  const blockRows = Math.min(BLOCK_ROWS, count);
  const blockKeyValues = new Float64Array(blockRows);
  for (let first = 0; first < count; first += blockRows) {
    const rows = Math.min(blockRows, count - first);
    blockKeys(metric, vectors, dim, first, rows, null, query, blockKeyValues, 'exact');
    for (let idx = 0; idx < rows; idx++) {
      const key = blockKeyValues[idx];
      if (!keep(key)) continue;
      if (found === positions.length) {
        const grownPos = new Int32Array(found * 2);
        grownPos.set(positions);
        positions = grownPos;
        const grownKeys = new Float64Array(found * 2);
        grownKeys.set(keys);
        keys = grownKeys;
      }
      positions[found] = first + idx;
      keys[found++] = key;
    }
  }
  return sortHits(positions.subarray(0, found), keys.subarray(0, found));
}

/**
 * exactTopK over vectors held in consecutive chunks (a segment's decoded pages, read without copying them
 * into one array); positions count across the chunks. Each chunk's k nearest, merged by exact key (then
 * position): the same rows as one exactTopK over the concatenation, up to float32 rounding at the k-th key.
 */
export function exactTopKChunks(metric: AnnMetric, chunks: readonly Float32Array[], dim: number, query: Float32Array, k: number): ExactHits {
  if (chunks.length === 1) return exactTopK(metric, chunks[0], dim, chunks[0].length / dim, query, k);
  return mergeChunkHits(chunks, dim, k, (chunk, count) => exactTopK(metric, chunk, dim, count, query, k));
}

/** exactFilter over vectors in consecutive chunks (see exactTopKChunks). */
export function exactFilterChunks(metric: AnnMetric, chunks: readonly Float32Array[], dim: number, query: Float32Array, keep: (key: number) => boolean): ExactHits {
  if (chunks.length === 1) return exactFilter(metric, chunks[0], dim, chunks[0].length / dim, query, keep);
  return mergeChunkHits(chunks, dim, Infinity, (chunk, count) => exactFilter(metric, chunk, dim, count, query, keep));
}

function mergeChunkHits(chunks: readonly Float32Array[], dim: number, limit: number, search: (chunk: Float32Array, count: number) => ExactHits): ExactHits {
  const found: ExactHits[] = [];
  const bases: number[] = [];
  let base = 0;
  let total = 0;
  for (const chunk of chunks) {
    const count = chunk.length / dim;
    if (count > 0) {
      const hits = search(chunk, count);
      found.push(hits);
      bases.push(base);
      total += hits.positions.length;
    }
    base += count;
  }
  const positions = new Int32Array(total);
  const keys = new Float64Array(total);
  let at = 0;
  for (let idx = 0; idx < found.length; idx++) {
    const hits = found[idx];
    for (let hit = 0; hit < hits.positions.length; hit++) {
      positions[at] = hits.positions[hit] + bases[idx];
      keys[at++] = hits.keys[hit];
    }
  }
  const sorted = sortHits(positions, keys);
  return limit >= total ? sorted : { positions: sorted.positions.subarray(0, limit), keys: sorted.keys.subarray(0, limit) };
}

function sortHits(positions: Int32Array, keys: Float64Array): ExactHits {
  const order = Array.from(positions.keys()).sort((a, b) => keys[a] - keys[b] || positions[a] - positions[b]);
  const outPos = new Int32Array(order.length);
  const outKeys = new Float64Array(order.length);
  for (let idx = 0; idx < order.length; idx++) {
    outPos[idx] = positions[order[idx]];
    outKeys[idx] = keys[order[idx]];
  }
  return { positions: outPos, keys: outKeys };
}
