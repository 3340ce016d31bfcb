// The WebAssembly SIMD distance kernels (common/vector-distance-wasm.ts, behind vector-distance.ts) against
// the JS loops: 'exact' equal bit for bit, 'fast' within float32 rounding, over dims that are and are not
// multiples of 4 (and of 16), NaN / Infinity, empty batches, gathered rows (dense spans and scattered ids,
// blocks bigger than one wasm block); exactTopK / exactFilter against a brute-force sort; the JS fallback
// (GALENE_NO_WASM_SIMD=1, in a child process) giving the same answers; the encoder's output validating.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { mulberry32 } from '../../src/common/prng';
import { distanceBatch, distanceGather, dotProduct, l2Squared, wasmDistanceKernels, type DistanceKernelKind } from '../../src/common/vector-distance';
import { WasmDistanceKernels } from '../../src/common/vector-distance-wasm';
import { exactFilter, exactFilterChunks, exactTopK, exactTopKChunks, metricKey } from '../../src/storage/ann/exact-scan';

const LOOPS: Record<DistanceKernelKind, typeof l2Squared> = { l2Squared, dotProduct };
const KINDS = ['l2Squared', 'dotProduct'] as const;

function randomVectors(count: number, dim: number, seed: number): Float32Array {
  const random = mulberry32(seed);
  const out = new Float32Array(count * dim);
  for (let idx = 0; idx < out.length; idx++) out[idx] = random() * 4 - 2;
  return out;
}

function sameNumber(actual: number, expected: number, where: string): void {
  assert.ok(Object.is(actual, expected) || (Number.isNaN(actual) && Number.isNaN(expected)) || (actual === 0 && expected === 0), `${where}: ${actual} !== ${expected}`);
}

const kernels = wasmDistanceKernels();

test('WebAssembly SIMD is available on this Node, and the module validates', () => {
  assert.ok(kernels, 'Node 20 has WebAssembly SIMD: the kernels must load');
  assert.ok(WasmDistanceKernels.create());
});

test("'exact' batches equal the JS loops bit for bit; 'fast' is within float32 rounding", () => {
  const wasm = kernels!;
  for (const dim of [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 33, 63, 64, 65, 100, 127, 128, 129, 768, 1001]) {
    const count = dim > 500 ? 120 : 700;
    const vectors = randomVectors(count, dim, dim);
    const query = randomVectors(1, dim, dim + 1000);
    for (const kind of KINDS) {
      const exact = new Float64Array(count);
      const fast = new Float64Array(count);
      wasm.batch(kind, 'exact', vectors, dim, count, query, exact);
      wasm.batch(kind, 'fast', vectors, dim, count, query, fast);
      const viaApi = new Float64Array(count);
      distanceBatch(kind, vectors, dim, count, query, viaApi);
      for (let row = 0; row < count; row++) {
        const expected = LOOPS[kind](vectors, row * dim, query, 0, dim);
        sameNumber(exact[row], expected, `${kind} dim ${dim} row ${row}`);
        sameNumber(viaApi[row], expected, `${kind} api dim ${dim} row ${row}`);
        // float32 accumulation: relative to the sum of |terms| (bounded by dim * 16 here)
        const scale = kind === 'l2Squared' ? Math.abs(expected) : dim * 4;
        assert.ok(Math.abs(fast[row] - expected) <= 1e-5 * Math.max(scale, 1), `${kind} fast dim ${dim} row ${row}: ${fast[row]} vs ${expected}`);
      }
    }
  }
});

test('NaN and Infinity propagate as in the JS loops; empty batches and dim 0 write nothing', () => {
  const wasm = kernels!;
  const dim = 19;
  const count = 64;
  const vectors = randomVectors(count, dim, 5);
  vectors[3 * dim + 2] = NaN; // in a group of four
  vectors[5 * dim + 17] = NaN; // in the tail
  vectors[7 * dim] = Infinity;
  vectors[9 * dim + 18] = -Infinity;
  vectors[11 * dim + 4] = 3.4e38; // overflows float32 when squared, not float64
  const query = randomVectors(1, dim, 6);
  for (const kind of KINDS) {
    const exact = new Float64Array(count);
    const fast = new Float64Array(count);
    wasm.batch(kind, 'exact', vectors, dim, count, query, exact);
    wasm.batch(kind, 'fast', vectors, dim, count, query, fast);
    for (let row = 0; row < count; row++) sameNumber(exact[row], LOOPS[kind](vectors, row * dim, query, 0, dim), `${kind} row ${row}`);
    assert.ok(Number.isNaN(fast[3]) && Number.isNaN(fast[5]), 'NaN stays NaN in float32');
    assert.equal(Math.abs(fast[7]), Infinity);
    assert.equal(Math.abs(fast[9]), Infinity);
  }
  const untouched = new Float64Array([42]);
  wasm.batch('l2Squared', 'exact', vectors, dim, 0, query, untouched);
  wasm.gather('l2Squared', 'fast', vectors, dim, new Int32Array(0), query, untouched);
  distanceBatch('dotProduct', new Float32Array(0), 0, 1, new Float32Array(0), untouched);
  assert.equal(untouched[0], 0, 'dim 0: the empty sum');
  untouched[0] = 42;
  distanceBatch('dotProduct', vectors, dim, 0, query, untouched);
  assert.equal(untouched[0], 42);
});

test('gathered rows: dense spans, scattered ids, unsorted and repeated ids, more rows than one block', () => {
  const wasm = kernels!;
  for (const dim of [3, 128, 257]) {
    const count = 5000;
    const vectors = randomVectors(count, dim, dim * 7);
    const query = randomVectors(1, dim, dim * 7 + 1);
    const random = mulberry32(dim);
    const lists = [
      Int32Array.from({ length: 3000 }, (_, idx) => idx + 100), // one dense run
      Int32Array.from({ length: 900 }, (_, idx) => (idx * 37) % count), // scattered, unsorted
      Int32Array.from({ length: 2500 }, () => Math.floor(random() * count)), // random, repeats
      new Int32Array([count - 1, 0, count - 1]),
    ];
    for (const rows of lists) {
      for (const kind of KINDS) {
        const exact = new Float64Array(rows.length);
        wasm.gather(kind, 'exact', vectors, dim, rows, query, exact);
        const viaApi = new Float64Array(rows.length);
        distanceGather(kind, vectors, dim, rows, query, viaApi);
        for (let idx = 0; idx < rows.length; idx++) {
          const expected = LOOPS[kind](vectors, rows[idx] * dim, query, 0, dim);
          sameNumber(exact[idx], expected, `${kind} dim ${dim} id ${rows[idx]}`);
          sameNumber(viaApi[idx], expected, `${kind} api dim ${dim} id ${rows[idx]}`);
        }
      }
    }
  }
});

function bruteForce(metric: 'l2_distance' | 'inner_product', vectors: Float32Array, dim: number, count: number, query: Float32Array, accept?: (pos: number) => boolean): number[] {
  const positions = Array.from({ length: count }, (_, pos) => pos).filter((pos) => !accept || accept(pos));
  const keys = positions.map((pos) => metricKey(metric, vectors, pos * dim, query, dim));
  return positions.map((pos, idx) => ({ pos, key: keys[idx] })).sort((a, b) => a.key - b.key || a.pos - b.pos).map((hit) => hit.pos);
}

test('exactTopK (float32 SIMD choice, exact keys) and exactFilter match a brute-force sort', () => {
  for (const dim of [7, 128]) {
    const count = 9000;
    const vectors = randomVectors(count, dim, 11 + dim);
    for (let queryIdx = 0; queryIdx < 8; queryIdx++) {
      const query = randomVectors(1, dim, 100 + queryIdx);
      for (const metric of ['l2_distance', 'inner_product'] as const) {
        const all = bruteForce(metric, vectors, dim, count, query);
        for (const k of [1, 10, 100]) {
          const hits = exactTopK(metric, vectors, dim, count, query, k);
          assert.deepEqual(Array.from(hits.positions), all.slice(0, k), `${metric} dim ${dim} k ${k}`);
          for (let idx = 0; idx < k; idx++) sameNumber(hits.keys[idx], metricKey(metric, vectors, hits.positions[idx] * dim, query, dim), 'key');
        }
        const accept = (pos: number): boolean => pos % 13 === 3;
        assert.deepEqual(Array.from(exactTopK(metric, vectors, dim, count, query, 20, accept).positions), bruteForce(metric, vectors, dim, count, query, accept).slice(0, 20));
        const whole = exactTopK(metric, vectors, dim, 50, query, 50);
        assert.deepEqual(Array.from(whole.positions), bruteForce(metric, vectors, dim, 50, query));
        const cut = metricKey(metric, vectors, all[200] * dim, query, dim);
        const within = exactFilter(metric, vectors, dim, count, query, (key) => key <= cut);
        assert.deepEqual(Array.from(within.positions), all.slice(0, 201));
      }
    }
  }
  assert.equal(exactTopK('l2_distance', new Float32Array(0), 4, 0, new Float32Array(4), 10).positions.length, 0);
});

test('exactTopKChunks and exactFilterChunks over page-like chunks equal a brute-force sort of the whole', () => {
  for (const dim of [7, 128]) {
    const count = 5000;
    const vectors = randomVectors(count, dim, 21 + dim);
    // Uneven chunks, an empty one among them, as a segment's pages and row ranges come.
    const cuts = [0, 1, 700, 700, 2048, 4999, count];
    const chunks = cuts.slice(1).map((end, idx) => vectors.subarray(cuts[idx] * dim, end * dim));
    for (let queryIdx = 0; queryIdx < 4; queryIdx++) {
      const query = randomVectors(1, dim, 200 + queryIdx);
      for (const metric of ['l2_distance', 'inner_product'] as const) {
        const all = bruteForce(metric, vectors, dim, count, query);
        for (const k of [1, 10, 100, count]) {
          const hits = exactTopKChunks(metric, chunks, dim, query, k);
          assert.deepEqual(Array.from(hits.positions), all.slice(0, k), `${metric} dim ${dim} k ${k}`);
          for (let idx = 0; idx < hits.positions.length; idx++) sameNumber(hits.keys[idx], metricKey(metric, vectors, hits.positions[idx] * dim, query, dim), 'key');
        }
        const cut = metricKey(metric, vectors, all[300] * dim, query, dim);
        assert.deepEqual(Array.from(exactFilterChunks(metric, chunks, dim, query, (key) => key <= cut).positions), all.slice(0, 301));
        assert.deepEqual(Array.from(exactTopKChunks(metric, [vectors], dim, query, 10).positions), all.slice(0, 10), 'one chunk');
      }
    }
  }
  assert.equal(exactTopKChunks('l2_distance', [], 4, new Float32Array(4), 10).positions.length, 0);
});

test('without WebAssembly SIMD (GALENE_NO_WASM_SIMD=1) the JS loops give the same answers', () => {
  const script = `
    const vd = require(${JSON.stringify(path.join(__dirname, '../../src/common/vector-distance.js'))});
    const scan = require(${JSON.stringify(path.join(__dirname, '../../src/storage/ann/exact-scan.js'))});
    const dim = 33, count = 3000, v = new Float32Array(count * dim), q = new Float32Array(dim);
    for (let i = 0; i < v.length; i++) v[i] = Math.sin(i * 0.7);
    for (let i = 0; i < dim; i++) q[i] = Math.cos(i);
    const out = new Float64Array(count);
    vd.distanceBatch('l2Squared', v, dim, count, q, out);
    process.stdout.write(JSON.stringify({ wasm: vd.wasmDistanceKernels() !== null, sum: Array.from(out).reduce((a, b) => a + b, 0), top: Array.from(scan.exactTopK('l2_distance', v, dim, count, q, 5).positions) }));`;
  const run = (env: NodeJS.ProcessEnv): { wasm: boolean; sum: number; top: number[] } => JSON.parse(execFileSync(process.execPath, ['-e', script], { env: { ...process.env, ...env }, encoding: 'utf8' }));
  const js = run({ GALENE_NO_WASM_SIMD: '1' });
  const wasm = run({ GALENE_NO_WASM_SIMD: '' });
  assert.equal(js.wasm, false);
  assert.equal(wasm.wasm, true);
  assert.equal(js.sum, wasm.sum);
  assert.deepEqual(js.top, wasm.top);
});
