/**
 * A minimal typed encoder for WebAssembly binary modules: enough to emit the SIMD distance kernels of
 * vector-distance-wasm.ts at start-up without a toolchain. Why an encoder and not a `.wat` file compiled
 * by `wabt`: the kernels are a few dozen instructions, an npm compiler would add a build step and a
 * devDependency for them, and a checked-in binary could not be reviewed. Each method here is one
 * instruction of the spec (https://webassembly.github.io/spec/core/binary/), named as in the text format,
 * so a kernel reads like its `.wat`; WebAssembly.validate checks the result at load.
 *
 * Only what the kernels use is here: one exported memory, functions of i32/f32/f64 parameters, locals,
 * block/loop/br_if, i32 arithmetic, scalar f32/f64 and the v128 f32x4/f64x2 SIMD instructions.
 */

export const enum ValType {
  I32 = 0x7f,
  F32 = 0x7d,
  F64 = 0x7c,
  V128 = 0x7b,
}

const SIMD_PREFIX = 0xfd;

function unsignedLeb(value: number, out: number[]): void {
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
}

function signedLeb(value: number, out: number[]): void {
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return;
  }
}

function name(text: string, out: number[]): void {
  const bytes = Buffer.from(text, 'utf8');
  unsignedLeb(bytes.length, out);
  for (const byte of bytes) out.push(byte);
}

/** One function body: its locals and instructions, appended by the chained instruction methods. */
export class FunctionBuilder {
  private readonly code: number[] = [];
  private readonly localTypes: ValType[] = [];

  constructor(readonly exportName: string, readonly params: readonly ValType[], readonly results: readonly ValType[]) {}

  /** A new local of `type`; returns its index (after the parameters). */
  local(type: ValType): number {
    this.localTypes.push(type);
    return this.params.length + this.localTypes.length - 1;
  }

  private op(...bytes: number[]): this {
    for (const byte of bytes) this.code.push(byte);
    return this;
  }

  private simd(opcode: number): this {
    this.code.push(SIMD_PREFIX);
    unsignedLeb(opcode, this.code);
    return this;
  }

  private memarg(align: number, offset: number): this {
    unsignedLeb(align, this.code);
    unsignedLeb(offset, this.code);
    return this;
  }

  // control
  block(): this { return this.op(0x02, 0x40); }
  loop(): this { return this.op(0x03, 0x40); }
  end(): this { return this.op(0x0b); }
  br(depth: number): this { this.op(0x0c); unsignedLeb(depth, this.code); return this; }
  brIf(depth: number): this { this.op(0x0d); unsignedLeb(depth, this.code); return this; }
  // variables
  localGet(idx: number): this { this.op(0x20); unsignedLeb(idx, this.code); return this; }
  localSet(idx: number): this { this.op(0x21); unsignedLeb(idx, this.code); return this; }
  localTee(idx: number): this { this.op(0x22); unsignedLeb(idx, this.code); return this; }
  // memory (align is log2 of the byte alignment)
  i32Load(offset = 0): this { return this.op(0x28).memarg(2, offset); }
  f32Load(offset = 0): this { return this.op(0x2a).memarg(2, offset); }
  f32Store(offset = 0): this { return this.op(0x38).memarg(2, offset); }
  f64Store(offset = 0): this { return this.op(0x39).memarg(3, offset); }
  v128Load(offset = 0): this { this.simd(0x00); return this.memarg(2, offset); }
  // numbers
  i32Const(value: number): this { this.op(0x41); signedLeb(value, this.code); return this; }
  f64Const(value: number): this {
    const bytes = new Uint8Array(new Float64Array([value]).buffer);
    return this.op(0x44, ...bytes);
  }
  i32GeU(): this { return this.op(0x4f); }
  i32GtU(): this { return this.op(0x4b); }
  i32Add(): this { return this.op(0x6a); }
  i32Sub(): this { return this.op(0x6b); }
  i32Mul(): this { return this.op(0x6c); }
  i32Shl(): this { return this.op(0x74); }
  f32Add(): this { return this.op(0x92); }
  f32Sub(): this { return this.op(0x93); }
  f32Mul(): this { return this.op(0x94); }
  f64Add(): this { return this.op(0xa0); }
  f64Sub(): this { return this.op(0xa1); }
  f64Mul(): this { return this.op(0xa2); }
  f64PromoteF32(): this { return this.op(0xbb); }
  // SIMD
  /** i8x16.shuffle with its 16 lane indices. */
  i8x16Shuffle(lanes: readonly number[]): this { this.simd(0x0d); return this.op(...lanes); }
  f32x4Splat(): this { return this.simd(0x13); }
  f64x2Splat(): this { return this.simd(0x14); }
  f32x4ExtractLane(lane: number): this { this.simd(0x1f); return this.op(lane); }
  f64x2ExtractLane(lane: number): this { this.simd(0x21); return this.op(lane); }
  f64x2PromoteLowF32x4(): this { return this.simd(0x5f); }
  f32x4Add(): this { return this.simd(0xe4); }
  f32x4Sub(): this { return this.simd(0xe5); }
  f32x4Mul(): this { return this.simd(0xe6); }
  f64x2Add(): this { return this.simd(0xf0); }
  f64x2Sub(): this { return this.simd(0xf1); }
  f64x2Mul(): this { return this.simd(0xf2); }

  /** The body as the code section wants it (size-prefixed, locals run-length encoded). */
  encode(): number[] {
    const body: number[] = [];
    const runs: Array<[ValType, number]> = [];
    for (const type of this.localTypes) {
      const last = runs[runs.length - 1];
      if (last && last[0] === type) last[1]++;
      else runs.push([type, 1]);
    }
    unsignedLeb(runs.length, body);
    for (const [type, count] of runs) {
      unsignedLeb(count, body);
      body.push(type);
    }
    for (const byte of this.code) body.push(byte);
    body.push(0x0b);
    const out: number[] = [];
    unsignedLeb(body.length, out);
    return out.concat(body);
  }
}

function section(id: number, content: number[], out: number[]): void {
  out.push(id);
  unsignedLeb(content.length, out);
  for (const byte of content) out.push(byte);
}

/** A module of `functions` (each exported under its name) and one exported, growable memory "memory". */
export function encodeModule(functions: readonly FunctionBuilder[], memoryPages: number): Uint8Array<ArrayBuffer> {
  const out: number[] = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const types: number[] = [];
  unsignedLeb(functions.length, types);
  for (const fn of functions) {
    types.push(0x60);
    unsignedLeb(fn.params.length, types);
    types.push(...fn.params);
    unsignedLeb(fn.results.length, types);
    types.push(...fn.results);
  }
  section(1, types, out);
  const funcs: number[] = [];
  unsignedLeb(functions.length, funcs);
  functions.forEach((_, idx) => unsignedLeb(idx, funcs));
  section(3, funcs, out);
  const memory: number[] = [1, 0x00];
  unsignedLeb(memoryPages, memory);
  section(5, memory, out);
  const exports: number[] = [];
  unsignedLeb(functions.length + 1, exports);
  functions.forEach((fn, idx) => {
    name(fn.exportName, exports);
    exports.push(0x00);
    unsignedLeb(idx, exports);
  });
  name('memory', exports);
  exports.push(0x02, 0x00);
  section(7, exports, out);
  const code: number[] = [];
  unsignedLeb(functions.length, code);
  for (const fn of functions) code.push(...fn.encode());
  section(10, code, out);
  return new Uint8Array(out);
}
