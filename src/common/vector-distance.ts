/**
 * The distance loops over Float32Array vectors, shared by the SQL distance functions (exec/expr) and the
 * ANN index's exact scans (storage/ann): `x` from `xStart` against `y` from `yStart`, `dim` elements.
 * 4-way unrolled: V8 keeps the four partial sums in registers.
 *
 * distanceBatch / distanceGather compute one query against many packed vectors: with the WebAssembly SIMD
 * kernels of vector-distance-wasm.ts when the batch is big enough to pay for the call and the copies, the
 * loops here otherwise (and wherever WebAssembly SIMD is missing, or GALENE_NO_WASM_SIMD=1).
 */
import { WasmDistanceKernels, type DistanceKernelKind, type KernelPrecision } from './vector-distance-wasm';

/** Squared L2 distance. */
export function l2Squared(x: Float32Array, xStart: number, y: Float32Array, yStart: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dim; d += 4) {
    const a = x[xStart + d] - y[yStart + d];
    const b = x[xStart + d + 1] - y[yStart + d + 1];
    const c = x[xStart + d + 2] - y[yStart + d + 2];
    const e = x[xStart + d + 3] - y[yStart + d + 3];
    s0 += a * a;
    s1 += b * b;
    s2 += c * c;
    s3 += e * e;
  }
  for (; d < dim; d++) {
    const a = x[xStart + d] - y[yStart + d];
    s0 += a * a;
  }
  return s0 + s1 + s2 + s3;
}

/** Inner (dot) product. */
export function dotProduct(x: Float32Array, xStart: number, y: Float32Array, yStart: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dim; d += 4) {
    s0 += x[xStart + d] * y[yStart + d];
    s1 += x[xStart + d + 1] * y[yStart + d + 1];
    s2 += x[xStart + d + 2] * y[yStart + d + 2];
    s3 += x[xStart + d + 3] * y[yStart + d + 3];
  }
  for (; d < dim; d++) s0 += x[xStart + d] * y[yStart + d];
  return s0 + s1 + s2 + s3;
}

export type { DistanceKernelKind, KernelPrecision } from './vector-distance-wasm';

/**
 * Below this many float elements per call (rows x dim) the JS loop beats the WebAssembly call and its
 * copies (bench/vector-kernels: the crossing is near 2-4 rows of 128 floats; this keeps a margin).
 */
export const WASM_MIN_ELEMENTS = 1024;

let kernels: WasmDistanceKernels | null | undefined;

/** The WebAssembly SIMD kernels of this thread, or null where the engine has no WebAssembly SIMD. */
export function wasmDistanceKernels(): WasmDistanceKernels | null {
  if (kernels === undefined) {
    try {
      kernels = process.env.GALENE_NO_WASM_SIMD === '1' ? null : WasmDistanceKernels.create();
    } catch {
      kernels = null;
    }
  }
  return kernels;
}

const JS_LOOPS: Record<DistanceKernelKind, typeof l2Squared> = { l2Squared, dotProduct };

/**
 * out[r] = the distance (squared L2 or dot product) of `query` to row r of `vectors` (row r at r * dim),
 * for r < count. 'exact' results are the JS loops' results bit for bit, whichever path runs; 'fast'
 * computes in float32 (within f32 rounding of 'exact', about twice as fast) where WebAssembly SIMD runs.
 */
export function distanceBatch(kind: DistanceKernelKind, vectors: Float32Array, dim: number, count: number, query: Float32Array, out: Float64Array, precision: KernelPrecision = 'exact'): void {
  const wasm = count * dim >= WASM_MIN_ELEMENTS && dim > 0 ? wasmDistanceKernels() : null;
  if (wasm) {
    wasm.batch(kind, precision, vectors, dim, count, query, out);
    return;
  }
  const loop = JS_LOOPS[kind];
  for (let rowIdx = 0; rowIdx < count; rowIdx++) out[rowIdx] = loop(vectors, rowIdx * dim, query, 0, dim);
}

/** out[i] = the distance of `query` to row rows[i] of `vectors` (a gathered list of row ids). */
export function distanceGather(kind: DistanceKernelKind, vectors: Float32Array, dim: number, rows: Int32Array, query: Float32Array, out: Float64Array, precision: KernelPrecision = 'exact'): void {
  const wasm = rows.length * dim >= WASM_MIN_ELEMENTS && dim > 0 ? wasmDistanceKernels() : null;
  if (wasm) {
    wasm.gather(kind, precision, vectors, dim, rows, query, out);
    return;
  }
  const loop = JS_LOOPS[kind];
  for (let idx = 0; idx < rows.length; idx++) out[idx] = loop(vectors, rows[idx] * dim, query, 0, dim);
}
