/**
 * More of Doris's numeric functions: pmod / fmod, gcd / lcm, factorial, the hyperbolic and reciprocal
 * trigonometric functions, isnan / isinf / signbit / even / positive, bin and conv. Integer functions
 * work on BIGINT (exact, as BigInt only where a value passes 2^53); DOUBLE functions on the kernel
 * templates.
 */
import type { Vector } from '../../../common/column';
import { Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';
import { mapNumbers } from '../kernels';
import { arg, defineFunction, FunctionDecl } from '../signature';
import { fixedVector, StringOut, toBigScaled, toF64, toJsStrings } from '../vector-ops';
import { minByMinusOne } from './arithmetic';
import { unaryDouble } from './math-functions';

function num(decl: Omit<FunctionDecl, 'family'>): FunctionDef {
  return defineFunction({ family: 'math', ...decl });
}

const INT64_MIN = -(1n << 63n);

/** A BOOLEAN test of one DOUBLE: `template` over `x` gives 1 or 0 (loop-gen). */
function doublePredicate(name: string, template: string, description: string, example: string): FunctionDef {
  return num({
    name,
    args: [arg('x', 'DOUBLE')],
    returns: Types.BOOLEAN,
    kernel: (args, rowCount) => fixedVector(Types.BOOLEAN, mapNumbers(template, toF64(args[0]), new Uint8Array(rowCount), rowCount)),
    description,
    example,
  });
}

/** A BIGINT function of two BIGINTs row by row; `fn` returning null makes the row NULL. */
function bigintBinary(fn: (a: bigint, b: bigint) => bigint | null) {
  return (args: readonly Vector[], rowCount: number) => {
    const a = toBigScaled(args[0], 0);
    const b = toBigScaled(args[1], 0);
    const out = new BigInt64Array(rowCount);
    let nulls: Uint8Array | null = null;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const value = fn(a[rowIdx], b[rowIdx]);
      if (value === null) {
        nulls ??= new Uint8Array(rowCount);
        nulls[rowIdx] = 1;
      } else out[rowIdx] = BigInt.asIntN(64, value);
    }
    return fixedVector(Types.BIGINT, out, nulls);
  };
}

/** a % b over DOUBLEs (positive: pmod's ((a % b) + b) % b); NULL where b is 0. */
function doubleModulo(args: readonly Vector[], rowCount: number, positive: boolean): Vector {
  const a = toF64(args[0]);
  const b = toF64(args[1]);
  const out = new Float64Array(rowCount);
  let nulls: Uint8Array | null = null;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const divisor = b[rowIdx];
    if (divisor === 0) {
      nulls ??= new Uint8Array(rowCount);
      nulls[rowIdx] = 1;
    } else out[rowIdx] = positive ? (((a[rowIdx] % divisor) + divisor) % divisor) : a[rowIdx] % divisor;
  }
  return fixedVector(Types.DOUBLE, out, nulls);
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** MySQL CONV: the longest valid prefix in `from` base, negative bases meaning signed output; NULL for bad bases. */
function convert(text: string, from: number, to: number): string | null {
  const fromBase = Math.abs(from);
  const toBase = Math.abs(to);
  if (fromBase < 2 || fromBase > 36 || toBase < 2 || toBase > 36) return null;
  let body = text.trim().toUpperCase();
  let negative = false;
  if (body.startsWith('-')) {
    negative = true;
    body = body.slice(1);
  }
  let value = 0n;
  for (const ch of body) {
    const digit = DIGITS.indexOf(ch);
    if (digit < 0 || digit >= fromBase) break;
    value = value * BigInt(fromBase) + BigInt(digit);
    if (value > 0xffffffffffffffffn) value = 0xffffffffffffffffn;
  }
  if (negative) value = BigInt.asUintN(64, -value);
  if (to < 0) {
    const signed = BigInt.asIntN(64, value);
    return (signed < 0n ? '-' + (-signed).toString(toBase) : signed.toString(toBase)).toUpperCase();
  }
  return value.toString(toBase).toUpperCase();
}

export const NUMBER_FUNCTIONS: readonly FunctionDef[] = [
  num({
    name: 'pmod',
    args: [arg('a'), arg('b')],
    returns: 'BIGINT | DOUBLE',
    resolve: (types) => {
      const integral = types.every((t) => ['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'BOOLEAN', 'NULL'].includes(t.name));
      const type = integral ? Types.BIGINT : Types.DOUBLE;
      return { argTypes: [type, type], returnType: type };
    },
    kernel: (args, rowCount, site) => {
      if (site.returnType.name === 'BIGINT') {
        return bigintBinary((a, b) => {
          if (b === 0n) return null;
          if (b === -1n && a === INT64_MIN) throw minByMinusOne(a, b);
          return ((a % b) + b) % b;
        })(args, rowCount);
      }
      return doubleModulo(args, rowCount, true);
    },
    description: 'Positive modulo: the remainder of a / b taken into [0, |b|) when b > 0 (((a % b) + b) % b); NULL when b is 0.',
    example: 'SELECT pmod(-7, 3), pmod(-7.5, 2)',
  }),
  num({
    name: 'fmod',
    args: [arg('a', 'DOUBLE'), arg('b', 'DOUBLE')],
    returns: Types.DOUBLE,
    kernel: (args, rowCount) => doubleModulo(args, rowCount, false),
    description: 'Floating-point remainder of a / b with the sign of a; NULL when b is 0.',
    example: 'SELECT fmod(10.5, 3)',
  }),
  num({
    name: 'gcd',
    args: [arg('a', 'BIGINT'), arg('b', 'BIGINT')],
    returns: Types.BIGINT,
    kernel: bigintBinary(gcd),
    description: 'Greatest common divisor (non-negative; gcd(0, 0) is 0).',
    example: 'SELECT gcd(54, 24)',
  }),
  num({
    name: 'lcm',
    args: [arg('a', 'BIGINT'), arg('b', 'BIGINT')],
    returns: Types.BIGINT,
    kernel: bigintBinary((a, b) => {
      if (a === 0n || b === 0n) return 0n;
      const value = (a < 0n ? -a : a) / gcd(a, b) * (b < 0n ? -b : b);
      return value;
    }),
    description: 'Least common multiple (non-negative; 0 when either is 0; wraps past BIGINT as Doris).',
    example: 'SELECT lcm(4, 6)',
  }),
  num({
    name: 'factorial',
    args: [arg('n', 'BIGINT')],
    returns: Types.BIGINT,
    kernel: (args, rowCount) => {
      const n = toF64(args[0]);
      const out = new BigInt64Array(rowCount);
      let nulls: Uint8Array | null = null;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const value = n[rowIdx];
        if (value < 0 || value > 20) {
          nulls ??= new Uint8Array(rowCount);
          nulls[rowIdx] = 1;
          continue;
        }
        let product = 1n;
        for (let factor = 2n; factor <= BigInt(value); factor++) product *= factor;
        out[rowIdx] = product;
      }
      return fixedVector(Types.BIGINT, out, nulls);
    },
    description: 'n! for n in [0, 20]; NULL outside (21! passes BIGINT).',
    example: 'SELECT factorial(5)',
  }),
  unaryDouble('sinh', 'Math.sinh(x)', 'Hyperbolic sine.', 'SELECT sinh(1)'),
  unaryDouble('cosh', 'Math.cosh(x)', 'Hyperbolic cosine.', 'SELECT cosh(1)'),
  unaryDouble('tanh', 'Math.tanh(x)', 'Hyperbolic tangent.', 'SELECT tanh(1)'),
  unaryDouble('asinh', 'Math.asinh(x)', 'Inverse hyperbolic sine.', 'SELECT asinh(1)'),
  unaryDouble('acosh', 'Math.acosh(x)', 'Inverse hyperbolic cosine; NULL for x < 1.', 'SELECT acosh(2)'),
  unaryDouble('atanh', 'Math.atanh(x)', 'Inverse hyperbolic tangent; NULL outside (-1, 1).', 'SELECT atanh(0.5)'),
  unaryDouble('cot', '1 / Math.tan(x)', 'Cotangent (radians).', 'SELECT cot(1)'),
  unaryDouble('sec', '1 / Math.cos(x)', 'Secant (radians).', 'SELECT sec(1)'),
  unaryDouble('csc', '1 / Math.sin(x)', 'Cosecant (radians).', 'SELECT csc(1)'),
  doublePredicate('isnan', 'x !== x ? 1 : 0', 'Whether x is NaN.', "SELECT isnan(CAST('nan' AS DOUBLE)), isnan(1)"),
  doublePredicate('isinf', 'x === Infinity || x === -Infinity ? 1 : 0', 'Whether x is +Infinity or -Infinity.', 'SELECT isinf(1e308 * 10), isinf(1)'),
  doublePredicate('signbit', 'x < 0 || Object.is(x, -0) ? 1 : 0', 'Whether the sign bit of x is set (negative numbers and -0).', 'SELECT signbit(-1.5), signbit(2)'),
  num({
    name: 'even',
    args: [arg('x', 'DOUBLE')],
    returns: Types.DOUBLE,
    kernel: (args, rowCount) => fixedVector(Types.DOUBLE, mapNumbers('x >= 0 ? Math.ceil(x / 2) * 2 : Math.floor(x / 2) * 2', toF64(args[0]), new Float64Array(rowCount), rowCount)),
    description: 'x rounded away from zero to the next even integer.',
    example: 'SELECT even(2.5), even(-3)',
  }),
  num({
    name: 'positive',
    args: [arg('x', 'NUMERIC')],
    returns: 'type of x',
    resolve: (types) => ({ argTypes: [types[0].name === 'NULL' || types[0].name === 'BOOLEAN' ? Types.BIGINT : types[0]], returnType: types[0].name === 'NULL' || types[0].name === 'BOOLEAN' ? Types.BIGINT : types[0] }),
    kernel: (args) => args[0],
    description: 'x itself (unary plus).',
    example: 'SELECT positive(-3)',
  }),
  num({
    name: 'bin',
    args: [arg('n', 'BIGINT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const values = toBigScaled(args[0], 0);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(BigInt.asUintN(64, values[rowIdx]).toString(2));
      return out.finish();
    },
    description: 'Binary digits of n (a negative n as its 64-bit two\'s complement).',
    example: 'SELECT bin(10)',
  }),
  num({
    name: 'conv',
    args: [arg('n', 'STRING'), arg('from_base', 'INT'), arg('to_base', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const texts = toJsStrings(args[0]);
      const from = toF64(args[1]);
      const to = toF64(args[2]);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const value = convert(texts[rowIdx] ?? '', from[rowIdx], to[rowIdx]);
        if (value === null) out.pushNull();
        else out.push(value);
      }
      return out.finish();
    },
    description: 'n (digits in from_base) written in to_base (2..36; a negative to_base prints signed); NULL for a base outside 2..36.',
    example: "SELECT conv('ff', 16, 10), conv(10, 10, 2)",
  }),
];
