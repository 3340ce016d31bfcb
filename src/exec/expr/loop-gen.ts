/**
 * Generated element-wise loops for the hottest kernels (arithmetic and comparisons on numbers).
 *
 * A loop that takes the operation as a callback is megamorphic once several operators share it, and
 * V8 stops inlining; writing every (operator x shape) loop by hand is hundreds of lines. So each loop is
 * generated once from an expression template and cached per (template, shape, array classes): every
 * cached function sees one combination of typed-array classes and stays monomorphic.
 *
 * Shapes: 'vv' (both operands vary), 'vc' (right operand constant: `a[rowIdx] < c`), 'cv'.
 * Templates use `x` and `y` for the operands; comparisons write 0/1 with `? 1 : 0`, which V8 compiles
 * to a conditional move (branch-free). Unary templates use `x`; byte-range templates (string kernels)
 * use `bytes`, `start` and `end`. A template may call `h`, one helper function fixed per template (the
 * loop passes it through, so the call stays monomorphic). Kernels reach these through ./kernels.ts.
 */
export type LoopShape = 'vv' | 'vc' | 'cv';
export type BinaryLoop = (a: ArrayLike<number>, b: ArrayLike<number>, out: { [index: number]: number }, rowCount: number) => void;

const cache = new Map<string, BinaryLoop>();
const unaryCache = new Map<string, UnaryLoop>();
const rangeCache = new Map<string, RangeLoop>();

function build(template: string, shape: LoopShape): BinaryLoop {
  const xRead = shape === 'cv' ? 'x0' : 'a[rowIdx]';
  const yRead = shape === 'vc' ? 'y0' : 'b[rowIdx]';
  const body = `
    const x0 = a[0], y0 = b[0];
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const x = ${xRead};
      const y = ${yRead};
      out[rowIdx] = ${template};
    }`;
  return new Function('a', 'b', 'out', 'rowCount', body) as BinaryLoop;
}

/** The cached loop for `template` over this shape and these array classes. */
export function binaryLoop(template: string, shape: LoopShape, a: object, b: object, out: object): BinaryLoop {
  const key = `${template}|${shape}|${a.constructor.name}|${b.constructor.name}|${out.constructor.name}`;
  let loop = cache.get(key);
  if (loop === undefined) {
    loop = build(template, shape);
    cache.set(key, loop);
  }
  return loop;
}

export type Helper = (...args: never[]) => number;
export type UnaryLoop = (a: ArrayLike<number>, out: { [index: number]: number }, rowCount: number, h: Helper | undefined) => void;
export type RangeLoop = (
  bytes: Uint8Array,
  starts: ArrayLike<number>,
  ends: ArrayLike<number>,
  out: { [index: number]: number },
  count: number,
  h: Helper | undefined,
) => void;

/**
 * The cached element-wise loop `out[rowIdx] = template(x = a[rowIdx])` for these array classes;
 * `prelude` is code run per row before the template (it may name values the template reads).
 */
export function unaryLoop(template: string, a: object, out: object, prelude = ''): UnaryLoop {
  const key = `${template}|${prelude}|${a.constructor.name}|${out.constructor.name}`;
  let loop = unaryCache.get(key);
  if (loop === undefined) {
    const body = `
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const x = a[rowIdx];
        ${prelude}
        out[rowIdx] = ${template};
      }`;
    loop = new Function('a', 'out', 'rowCount', 'h', body) as UnaryLoop;
    unaryCache.set(key, loop);
  }
  return loop;
}

/** The cached loop `out[idx] = template(bytes, start = starts[idx], end = ends[idx])` for this output class. */
export function rangeLoop(template: string, out: object): RangeLoop {
  const key = `${template}|${out.constructor.name}`;
  let loop = rangeCache.get(key);
  if (loop === undefined) {
    const body = `
      for (let idx = 0; idx < count; idx++) {
        const start = starts[idx];
        const end = ends[idx];
        out[idx] = ${template};
      }`;
    loop = new Function('bytes', 'starts', 'ends', 'out', 'count', 'h', body) as RangeLoop;
    rangeCache.set(key, loop);
  }
  return loop;
}
