/**
 * The distance loops over Float32Array vectors, shared by the SQL distance functions (exec/expr) and the
 * ANN index's exact scans (storage/ann): `x` from `xStart` against `y` from `yStart`, `dim` elements.
 * 4-way unrolled: V8 keeps the four partial sums in registers.
 */

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
