/**
 * WebAssembly SIMD kernels for vector-distance.ts: squared L2 and dot product of one query against many
 * packed float32 vectors (a run of rows, or a gathered list of row ids), emitted by wasm-encoder.ts at
 * first use. `null` where WebAssembly SIMD is unavailable; the JS loops are then the only path.
 *
 * Two precisions, both reading the vectors four floats at a time (v128.load):
 * - 'exact' promotes the four floats to two f64x2 pairs and keeps four f64 partial sums, lane d % 4, in
 *   the order of the JS loops (vector-distance.ts l2Squared / dotProduct), so its results are the JS
 *   results bit for bit and a caller may switch between the two paths by batch size invisibly.
 * - 'fast' computes in f32x4 with four accumulators of 16 floats (as faiss, usearch and Doris do): about
 *   twice the speed, and results within f32 rounding of the exact ones. Measured by bench/vector-kernels.
 *
 * Memory: the module owns one growable memory. A call copies the query, then the vectors in blocks of
 * about BLOCK_BYTES (so a block stays in L2 while the kernel reads it), runs the kernel and copies the
 * block's distances out. The copy is the price of a JS-owned Float32Array (bench/vector-kernels measures
 * it: a memcpy, well below the kernel's time).
 */
import { encodeModule, FunctionBuilder, ValType } from './wasm-encoder';

export type DistanceKernelKind = 'l2Squared' | 'dotProduct';
export type KernelPrecision = 'exact' | 'fast';

const PAGE_BYTES = 65536;
const BLOCK_BYTES = 256 * 1024;
/** Lanes 2 and 3 of an f32x4 moved to lanes 0 and 1 (for the second f64x2.promote_low). */
const HIGH_HALF = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];

/**
 * One kernel: `(query, base, ids, count, dim, out)`, all pointers in bytes; row r's vector is at
 * `base + r * dim * 4`, or at `base + ids[r] * dim * 4` when gathered; out[r] is an f64.
 */
function kernel(kind: DistanceKernelKind, precision: KernelPrecision, gathered: boolean): FunctionBuilder {
  const I32 = ValType.I32;
  const fn = new FunctionBuilder(`${kind}_${precision}${gathered ? '_gather' : ''}`, [I32, I32, I32, I32, I32, I32], []);
  const [query, base, ids, count, dim, out] = [0, 1, 2, 3, 4, 5];
  const row = fn.local(I32);
  const rowPtr = fn.local(I32);
  const offset = fn.local(I32);
  const dimBytes = fn.local(I32);
  const x = fn.local(ValType.V128);
  const y = fn.local(ValType.V128);
  const acc = [fn.local(ValType.V128), fn.local(ValType.V128), fn.local(ValType.V128), fn.local(ValType.V128)];
  const scalar = fn.local(precision === 'exact' ? ValType.F64 : ValType.F32);
  const temp = fn.local(precision === 'exact' ? ValType.F64 : ValType.F32);
  const l2 = kind === 'l2Squared';

  fn.localGet(dim).i32Const(2).i32Shl().localSet(dimBytes);
  fn.block().loop();
  fn.localGet(row).localGet(count).i32GeU().brIf(1);
  // rowPtr = base + (gathered ? ids[row] : row) * dimBytes
  if (gathered) fn.localGet(ids).localGet(row).i32Const(2).i32Shl().i32Add().i32Load();
  else fn.localGet(row);
  fn.localGet(dimBytes).i32Mul().localGet(base).i32Add().localSet(rowPtr);
  fn.i32Const(0).localSet(offset);
  if (precision === 'exact') exactBody(fn, l2, { query, rowPtr, offset, dimBytes, x, y, acc, scalar, temp });
  else fastBody(fn, l2, { query, rowPtr, offset, dimBytes, x, y, acc, scalar, temp });
  // the result (an f64) is on the stack: out[row] = it
  const result = fn.local(ValType.F64);
  fn.localSet(result);
  fn.localGet(out).localGet(row).i32Const(3).i32Shl().i32Add().localGet(result).f64Store();
  fn.localGet(row).i32Const(1).i32Add().localSet(row);
  fn.br(0).end().end();
  return fn;
}

interface BodyLocals {
  readonly query: number;
  readonly rowPtr: number;
  readonly offset: number;
  readonly dimBytes: number;
  readonly x: number;
  readonly y: number;
  readonly acc: readonly number[];
  readonly scalar: number;
  /** A scalar scratch local (squares). */
  readonly temp: number;
}

/** Four f64 partial sums (lanes d % 4 in acc[0] = [s0, s1], acc[1] = [s2, s3]), as the JS loop keeps them. */
function exactBody(fn: FunctionBuilder, l2: boolean, locals: BodyLocals): void {
  const { query, rowPtr, offset, dimBytes, x, y, acc, scalar } = locals;
  fn.f64Const(0).f64x2Splat().localTee(acc[0]).localSet(acc[1]);
  // whole groups of four: offset + 16 <= dimBytes
  fn.block().loop();
  fn.localGet(offset).i32Const(16).i32Add().localGet(dimBytes).i32GtU().brIf(1);
  fn.localGet(rowPtr).localGet(offset).i32Add().v128Load().localSet(x);
  fn.localGet(query).localGet(offset).i32Add().v128Load().localSet(y);
  for (const half of [0, 1]) {
    fn.localGet(acc[half]);
    fn.localGet(x);
    if (half) fn.localGet(x).i8x16Shuffle(HIGH_HALF);
    fn.f64x2PromoteLowF32x4();
    fn.localGet(y);
    if (half) fn.localGet(y).i8x16Shuffle(HIGH_HALF);
    fn.f64x2PromoteLowF32x4();
    if (l2) {
      // (x - y) squared, the difference kept in acc[2] (unused by the exact body)
      fn.f64x2Sub().localTee(acc[2]).localGet(acc[2]).f64x2Mul();
    } else {
      fn.f64x2Mul();
    }
    fn.f64x2Add().localSet(acc[half]);
  }
  fn.localGet(offset).i32Const(16).i32Add().localSet(offset);
  fn.br(0).end().end();
  // the tail, added to s0 one element at a time
  fn.localGet(acc[0]).f64x2ExtractLane(0).localSet(scalar);
  scalarTail(fn, l2, locals, true);
  // ((s0 + s1) + s2) + s3
  fn.localGet(scalar).localGet(acc[0]).f64x2ExtractLane(1).f64Add();
  fn.localGet(acc[1]).f64x2ExtractLane(0).f64Add();
  fn.localGet(acc[1]).f64x2ExtractLane(1).f64Add();
}

/** f32x4 with four accumulators over 16 floats, then groups of 4, then a scalar tail; the sum as an f64. */
function fastBody(fn: FunctionBuilder, l2: boolean, locals: BodyLocals): void {
  const { query, rowPtr, offset, dimBytes, x, acc, scalar } = locals;
  fn.f64Const(0).f64x2Splat().localTee(acc[0]).localTee(acc[1]).localTee(acc[2]).localSet(acc[3]);
  const step = (accIdx: number, at: number): void => {
    fn.localGet(acc[accIdx]);
    fn.localGet(rowPtr).localGet(offset).i32Add().v128Load(at);
    fn.localGet(query).localGet(offset).i32Add().v128Load(at);
    if (l2) {
      fn.f32x4Sub().localTee(x).localGet(x).f32x4Mul();
    } else {
      fn.f32x4Mul();
    }
    fn.f32x4Add().localSet(acc[accIdx]);
  };
  fn.block().loop();
  fn.localGet(offset).i32Const(64).i32Add().localGet(dimBytes).i32GtU().brIf(1);
  for (let accIdx = 0; accIdx < 4; accIdx++) step(accIdx, accIdx * 16);
  fn.localGet(offset).i32Const(64).i32Add().localSet(offset);
  fn.br(0).end().end();
  fn.block().loop();
  fn.localGet(offset).i32Const(16).i32Add().localGet(dimBytes).i32GtU().brIf(1);
  step(0, 0);
  fn.localGet(offset).i32Const(16).i32Add().localSet(offset);
  fn.br(0).end().end();
  // (acc0 + acc1) + (acc2 + acc3), then its lanes (l0 + l1) + (l2 + l3)
  fn.localGet(acc[0]).localGet(acc[1]).f32x4Add().localGet(acc[2]).localGet(acc[3]).f32x4Add().f32x4Add().localSet(x);
  fn.localGet(x).f32x4ExtractLane(0).localGet(x).f32x4ExtractLane(1).f32Add();
  fn.localGet(x).f32x4ExtractLane(2).localGet(x).f32x4ExtractLane(3).f32Add();
  fn.f32Add().localSet(scalar);
  scalarTail(fn, l2, locals, false);
  fn.localGet(scalar).f64PromoteF32();
}

/** The elements past the last group of four, one at a time into `scalar` (f64 when `wide`, else f32). */
function scalarTail(fn: FunctionBuilder, l2: boolean, locals: BodyLocals, wide: boolean): void {
  const { query, rowPtr, offset, dimBytes, scalar, temp } = locals;
  const load = (ptr: number): void => {
    fn.localGet(ptr).localGet(offset).i32Add().f32Load();
    if (wide) fn.f64PromoteF32();
  };
  fn.block().loop();
  fn.localGet(offset).localGet(dimBytes).i32GeU().brIf(1);
  fn.localGet(scalar);
  load(rowPtr);
  load(query);
  if (l2) {
    if (wide) fn.f64Sub().localTee(temp).localGet(temp).f64Mul();
    else fn.f32Sub().localTee(temp).localGet(temp).f32Mul();
  } else if (wide) {
    fn.f64Mul();
  } else {
    fn.f32Mul();
  }
  if (wide) fn.f64Add();
  else fn.f32Add();
  fn.localSet(scalar);
  fn.localGet(offset).i32Const(4).i32Add().localSet(offset);
  fn.br(0).end().end();
}

type KernelFn = (query: number, base: number, ids: number, count: number, dim: number, out: number) => void;

/** The compiled kernels and their memory; one per thread (module state, like any cache). */
export class WasmDistanceKernels {
  private memory: WebAssembly.Memory;
  private readonly kernels: Map<string, KernelFn>;
  private floats: Float32Array;
  private doubles: Float64Array;
  private ints: Int32Array;

  private constructor(instance: WebAssembly.Instance) {
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.kernels = new Map(Object.entries(instance.exports).filter(([key]) => key !== 'memory') as Array<[string, KernelFn]>);
    this.floats = new Float32Array(this.memory.buffer);
    this.doubles = new Float64Array(this.memory.buffer);
    this.ints = new Int32Array(this.memory.buffer);
  }

  /** The kernels, or null where the engine lacks WebAssembly SIMD (validate fails) or WebAssembly itself. */
  static create(): WasmDistanceKernels | null {
    if (typeof WebAssembly !== 'object') return null;
    const functions: FunctionBuilder[] = [];
    for (const kind of ['l2Squared', 'dotProduct'] as const) for (const precision of ['exact', 'fast'] as const) for (const gathered of [false, true]) functions.push(kernel(kind, precision, gathered));
    const bytes = encodeModule(functions, 8);
    if (!WebAssembly.validate(bytes)) return null;
    return new WasmDistanceKernels(new WebAssembly.Instance(new WebAssembly.Module(bytes)));
  }

  private ensureBytes(bytes: number): void {
    if (bytes <= this.memory.buffer.byteLength) return;
    this.memory.grow(Math.ceil((bytes - this.memory.buffer.byteLength) / PAGE_BYTES));
    this.floats = new Float32Array(this.memory.buffer);
    this.doubles = new Float64Array(this.memory.buffer);
    this.ints = new Int32Array(this.memory.buffer);
  }

  /** Rows per block for `dim` and the byte layout: query, distances, row ids, vectors. */
  private layout(dim: number, blockRows: number): { outPtr: number; idsPtr: number; basePtr: number } {
    const align = (bytes: number): number => (bytes + 15) & ~15;
    const outPtr = align(dim * 4);
    const idsPtr = align(outPtr + blockRows * 8);
    const basePtr = align(idsPtr + blockRows * 4);
    this.ensureBytes(basePtr + blockRows * dim * 4);
    return { outPtr, idsPtr, basePtr };
  }

  static blockRows(dim: number): number {
    return Math.max(1, Math.floor(BLOCK_BYTES / Math.max(1, dim * 4)));
  }

  /** out[r] = distance of `query` to rows [0, count) of `vectors` (row r at r * dim). */
  batch(kind: DistanceKernelKind, precision: KernelPrecision, vectors: Float32Array, dim: number, count: number, query: Float32Array, out: Float64Array): void {
    const run = this.kernels.get(`${kind}_${precision}`)!;
    const blockRows = WasmDistanceKernels.blockRows(dim);
    const { outPtr, idsPtr, basePtr } = this.layout(dim, blockRows);
    this.floats.set(query.subarray(0, dim), 0);
    for (let first = 0; first < count; first += blockRows) {
      const rows = Math.min(blockRows, count - first);
      this.floats.set(vectors.subarray(first * dim, (first + rows) * dim), basePtr >> 2);
      run(0, basePtr, idsPtr, rows, dim, outPtr);
      out.set(this.doubles.subarray(outPtr >> 3, (outPtr >> 3) + rows), first);
    }
  }

  /**
   * out[i] = distance of `query` to row rows[i] of `vectors`. Rows that lie close together (a run of ids
   * whose span is at most 4x their number) are copied as one span; scattered ones one vector at a time.
   */
  gather(kind: DistanceKernelKind, precision: KernelPrecision, vectors: Float32Array, dim: number, rows: Int32Array, query: Float32Array, out: Float64Array): void {
    const run = this.kernels.get(`${kind}_${precision}_gather`)!;
    const blockRows = WasmDistanceKernels.blockRows(dim);
    const { outPtr, idsPtr, basePtr } = this.layout(dim, blockRows);
    this.floats.set(query.subarray(0, dim), 0);
    const idsAt = idsPtr >> 2;
    let start = 0;
    while (start < rows.length) {
      let low = rows[start];
      let high = low;
      let end = start + 1;
      while (end < rows.length && end - start < blockRows) {
        const next = rows[end];
        const newLow = Math.min(low, next);
        const newHigh = Math.max(high, next);
        if (newHigh - newLow >= blockRows) break;
        low = newLow;
        high = newHigh;
        end++;
      }
      const picked = end - start;
      if (high - low + 1 <= 4 * picked) {
        this.floats.set(vectors.subarray(low * dim, (high + 1) * dim), basePtr >> 2);
        for (let idx = 0; idx < picked; idx++) this.ints[idsAt + idx] = rows[start + idx] - low;
      } else {
        for (let idx = 0; idx < picked; idx++) {
          const row = rows[start + idx];
          this.floats.set(vectors.subarray(row * dim, (row + 1) * dim), (basePtr >> 2) + idx * dim);
          this.ints[idsAt + idx] = idx;
        }
      }
      run(0, basePtr, idsPtr, picked, dim, outPtr);
      out.set(this.doubles.subarray(outPtr >> 3, (outPtr >> 3) + picked), start);
      start = end;
    }
  }
}
