/**
 * Exact nearest-neighbour kernels over packed Float32Array vectors (row r at r*dim): the search path for
 * segments without an index file, for heavily filtered searches and for range queries the index cannot
 * answer. Typed arrays and one bounded heap, no per-row objects (DESIGN §6).
 *
 * Internally every metric is a "key" where smaller is better: squared L2 for l2_distance, -dot for
 * inner_product. `toDorisDistance` turns a key into what Doris returns (the true L2 distance; the inner
 * product itself, larger is better).
 */
import { dotProduct, l2Squared } from '../../common/vector-distance';
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

/**
 * The `k` nearest of `count` packed vectors to `query`, nearest first (ties by position), among the
 * positions `accept` keeps (all when absent). A max-heap of size k keeps the current k best.
 */
export function exactTopK(metric: AnnMetric, vectors: Float32Array, dim: number, count: number, query: Float32Array, k: number, accept?: (position: number) => boolean): ExactHits {
  const size = Math.min(k, count);
  const heapKeys = new Float64Array(size);
  const heapPos = new Int32Array(size);
  let filled = 0;
  const l2 = metric === 'l2_distance';
  for (let pos = 0; pos < count; pos++) {
    if (accept && !accept(pos)) continue;
    const key = l2 ? l2Squared(vectors, pos * dim, query, 0, dim) : -dotProduct(vectors, pos * dim, query, 0, dim);
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
  return sortHits(heapPos.subarray(0, filled), heapKeys.subarray(0, filled));
}

/** Every vector whose key satisfies `keep(key)`, nearest first. */
export function exactFilter(metric: AnnMetric, vectors: Float32Array, dim: number, count: number, query: Float32Array, keep: (key: number) => boolean): ExactHits {
  let positions = new Int32Array(64);
  let keys = new Float64Array(64);
  let found = 0;
  const l2 = metric === 'l2_distance';
  for (let pos = 0; pos < count; pos++) {
    const key = l2 ? l2Squared(vectors, pos * dim, query, 0, dim) : -dotProduct(vectors, pos * dim, query, 0, dim);
    if (!keep(key)) continue;
    if (found === positions.length) {
      const grownPos = new Int32Array(found * 2);
      grownPos.set(positions);
      positions = grownPos;
      const grownKeys = new Float64Array(found * 2);
      grownKeys.set(keys);
      keys = grownKeys;
    }
    positions[found] = pos;
    keys[found++] = key;
  }
  return sortHits(positions.subarray(0, found), keys.subarray(0, found));
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
