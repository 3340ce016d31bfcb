/**
 * Exact distance kernels, one query against many packed float32 vectors (common/vector-distance.ts): the
 * JS loops, the WebAssembly SIMD kernels ('exact', bit-identical to the loops, and 'fast', float32), the
 * copy into the wasm memory alone (what the kernels pay for JS-owned vectors), a gathered 10% of the
 * rows, the engine's exact TopN (storage/ann/exact-scan.ts exactTopK, k=100) and usearch's exactSearch on
 * one thread as the native peer. Seeded Gaussian-mixture data; median ms per query; ratio = JS / kernel.
 *
 *   npm run bench -- vector-kernels [--quick] [--json FILE]
 */
import * as os from 'node:os';
import { exactSearch } from 'usearch';
import { dotProduct, l2Squared, wasmDistanceKernels } from '../src/common/vector-distance';
import { WasmDistanceKernels } from '../src/common/vector-distance-wasm';
import { exactTopK } from '../src/storage/ann/exact-scan';
import { median, parseBenchArgs, peakRssMiB, report, Row } from './lib/report';
import { mixtureDataSet } from './lib/vector-data';

/** Median ms of `fn(queryIdx)` over the queries (after one warm-up call). */
function perQuery(queries: number, fn: (queryIdx: number) => void): number {
  fn(0);
  const times: number[] = [];
  for (let queryIdx = 0; queryIdx < queries; queryIdx++) {
    const start = performance.now();
    fn(queryIdx);
    times.push(performance.now() - start);
  }
  return median(times);
}

function setRows(count: number, dim: number, queryCount: number): Row[] {
  const wasm = wasmDistanceKernels();
  if (!wasm) throw new Error('WebAssembly SIMD is not available in this Node');
  const { base, queries } = mixtureDataSet(count, queryCount, dim, 42);
  const query = (queryIdx: number): Float32Array => queries.subarray(queryIdx * dim, (queryIdx + 1) * dim);
  const out = new Float64Array(count);
  const set = `${count / 1000}k x ${dim}`;
  const rows: Row[] = [];
  const add = (kernel: string, ms: number, jsMs: number, scanned = count): void => {
    rows.push({ set, kernel, ms_per_query: ms, mrows_per_s: scanned / ms / 1000, ratio_js_over_this: jsMs / ms });
  };
  for (const [kind, loop] of [['l2Squared', l2Squared], ['dotProduct', dotProduct]] as const) {
    const jsMs = perQuery(queryCount, (queryIdx) => {
      const q = query(queryIdx);
      for (let row = 0; row < count; row++) out[row] = loop(base, row * dim, q, 0, dim);
    });
    add(`${kind}: JS loop`, jsMs, jsMs);
    add(`${kind}: wasm SIMD exact (f64 sums)`, perQuery(queryCount, (queryIdx) => wasm.batch(kind, 'exact', base, dim, count, query(queryIdx), out)), jsMs);
    add(`${kind}: wasm SIMD fast (f32x4)`, perQuery(queryCount, (queryIdx) => wasm.batch(kind, 'fast', base, dim, count, query(queryIdx), out)), jsMs);
  }
  // The copy alone: the same blocks into a buffer of the wasm block size.
  const blockRows = WasmDistanceKernels.blockRows(dim);
  const block = new Float32Array(blockRows * dim);
  const l2Js = Number(rows[0].ms_per_query);
  add('copy into wasm blocks only', perQuery(queryCount, () => {
    for (let first = 0; first < count; first += blockRows) block.set(base.subarray(first * dim, Math.min(count, first + blockRows) * dim));
  }), l2Js);
  // A gathered 10% (every row whose hash falls under 0.1), as a filtered exact scan reads them.
  const picked = Int32Array.from({ length: count }, (_, row) => row).filter((row) => ((row * 2654435761) >>> 0) / 4294967296 < 0.1);
  const gatherOut = new Float64Array(picked.length);
  const gatherJs = perQuery(queryCount, (queryIdx) => {
    const q = query(queryIdx);
    for (let idx = 0; idx < picked.length; idx++) gatherOut[idx] = l2Squared(base, picked[idx] * dim, q, 0, dim);
  });
  add('l2Squared gather 10%: JS loop', gatherJs, gatherJs, picked.length);
  add('l2Squared gather 10%: wasm SIMD fast', perQuery(queryCount, (queryIdx) => wasm.gather('l2Squared', 'fast', base, dim, picked, query(queryIdx), gatherOut)), gatherJs, picked.length);
  // Exact TopN k=100: the engine's exactTopK (SIMD choice + exact keys) vs usearch on one thread.
  add('exactTopK k=100 (engine)', perQuery(queryCount, (queryIdx) => exactTopK('l2_distance', base, dim, count, query(queryIdx), 100)), l2Js);
  add('usearch exactSearch k=100, 1 thread', perQuery(queryCount, (queryIdx) => exactSearch(base, query(queryIdx), dim, 100, 'l2sq' as never, 1)), l2Js);
  return rows;
}

export async function main(args: string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const queryCount = options.quick ? 15 : 31;
  const sets: Array<[number, number]> = options.quick ? [[20_000, 128], [5_000, 768], [1_000, 128]] : [[200_000, 128], [50_000, 768], [10_000, 128], [1_000, 128]];
  const rows: Row[] = [];
  for (const [count, dim] of sets) rows.push(...setRows(count, dim, queryCount));
  console.log(`median of ${queryCount} queries per cell; peak RSS ${peakRssMiB(process.pid)} MiB; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  report(`vector-kernels${options.quick ? ' (quick)' : ''}: one query against packed float32 vectors`, rows, options);
}
