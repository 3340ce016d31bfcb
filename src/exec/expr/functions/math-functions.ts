/**
 * Math functions. Doris types: abs widens integers one step; ceil/floor of DOUBLE give BIGINT and of
 * DECIMAL a scale-0 DECIMAL; round/truncate keep the argument type (DECIMAL keeps its scale, rounding
 * half away from zero exactly); everything transcendental is DOUBLE. Domain errors (sqrt(-1), ln(0))
 * give NULL, as Doris does.
 */
import { newFixedArray, Vector } from '../../../common/column';
import { mulberry32 } from '../../../common/prng';
import { DataType, isWideDecimal, physicalKind, Types } from '../../../common/types';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { domainNulls, mapNumbers, mapNumbers2, NullsOut, shapeOf } from '../kernels';
import { arg, castForClass, defineFunction, FunctionDecl, opt, rest } from '../signature';
import { commonSuperType, decimalType, integerRank, isFloatType, widenInteger } from '../type-rules';
import { compareStrings } from '../../../common/utf8';
import { bigDivRound, fixedVector, StringOut, i64FromNumbers, MAX_EXACT, scaleOf, toBigScaled, toF64, toJsStrings, vectorFromNumbers } from '../vector-ops';
import { bigintsAs } from './arithmetic';

/** Numeric arguments stay as they are (kernels read them as float64); anything else becomes DOUBLE. */
function numericOrDouble(t: DataType): DataType {
  return castForClass('NUMERIC', t);
}

function doubleResult(values: Float64Array, nulls: Uint8Array | null = null): Vector {
  return fixedVector(Types.DOUBLE, values, nulls);
}

/** A DOUBLE function of one number: `template` over `x` (loop-gen), NULL where it leaves the domain (NaN). */
export function unaryDouble(name: string, template: string, description: string, example: string, aliases: string[] = []): FunctionDef {
  return math({
    name,
    aliases,
    args: [arg('x', 'NUMERIC')],
    returns: Types.DOUBLE,
    kernel: (args, rowCount) => {
      const input = toF64(args[0]);
      const out = mapNumbers(template, input, new Float64Array(rowCount), rowCount);
      return doubleResult(out, domainNulls(input, out, rowCount));
    },
    description,
    example,
  });
}

/** A DOUBLE function of two numbers: `template` over `x` and `y`. */
function binaryDouble(template: string, withDomainNulls: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const x = toF64(args[0]);
    const y = toF64(args[1]);
    const out = mapNumbers2(template, x, y, new Float64Array(rowCount), rowCount, shapeOf(site));
    return doubleResult(out, withDomainNulls ? domainNulls(x, out, rowCount) : null);
  };
}

/** ln etc.: NULL for x <= 0 (Doris). */
const positiveOnly = (call: string): string => `x > 0 ? ${call} : NaN`;

/** Round x to `digits` decimals, half away from zero, through the decimal text (so 1.005 -> 1.01). */
export function roundDouble(value: number, digits: number, truncate: boolean): number {
  if (!Number.isFinite(value)) return value;
  const text = String(Math.abs(value));
  let shifted: number;
  if (text.includes('e')) shifted = Math.abs(value) * 10 ** digits;
  else shifted = Number(`${text}e${digits}`);
  const whole = truncate ? Math.trunc(shifted) : Math.round(shifted);
  const result = Number(`${whole}e${-digits}`);
  return value < 0 ? -result : result;
}

/** round / truncate of a scaled decimal to `digits` decimals, keeping the type's scale. */
function roundScaledBig(value: bigint, scale: number, digits: number, truncate: boolean): bigint {
  if (digits >= scale) return value;
  const drop = 10n ** BigInt(scale - Math.max(digits, -38));
  const kept = truncate ? value / drop : bigDivRound(value, drop);
  return kept * drop;
}

function roundKernel(truncate: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const type = site.returnType;
    const digits = args.length > 1 ? toF64(args[1]) : null;
    if (type.name === 'DECIMAL') {
      const inScale = scaleOf(site.argTypes[0]);
      const outScale = scaleOf(type);
      const values = toBigScaled(args[0], inScale);
      const out = new Array<bigint>(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const d = digits === null ? 0 : Math.trunc(digits[rowIdx]);
        const rounded = roundScaledBig(values[rowIdx], inScale, d, truncate);
        out[rowIdx] = outScale === inScale ? rounded : rounded / 10n ** BigInt(inScale - outScale);
      }
      return bigintsAs(type, out, null);
    }
    if (physicalKind(type) !== 'f64' && physicalKind(type) !== 'f32') {
      // Integers: round to negative digits only.
      if (digits === null) return args[0];
      const values = toBigScaled(args[0], 0);
      const out = values.map((value, rowIdx) => (digits[rowIdx] < 0 ? roundScaledBig(value, 0, Math.trunc(digits[rowIdx]), truncate) : value));
      return bigintsAs(type, out, null);
    }
    const input = toF64(args[0]);
    const out = new Float64Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = roundDouble(input[rowIdx], digits === null ? 0 : Math.trunc(digits[rowIdx]), truncate);
    return doubleResult(out);
  };
}

function resolveRound(types: readonly DataType[]): Resolution {
  const t = numericOrDouble(types[0]);
  const argTypes = types.length > 1 ? [t, Types.INT] : [t];
  if (t.name === 'DECIMAL' && types.length === 1) {
    const p = t.precision ?? 9;
    const s = t.scale ?? 0;
    return { argTypes, returnType: decimalType(p - s + 1, 0) };
  }
  if (t.name === 'FLOAT') return { argTypes: [Types.DOUBLE, ...argTypes.slice(1)], returnType: Types.DOUBLE };
  return { argTypes, returnType: t };
}

function ceilFloorKernel(ceil: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const type = site.returnType;
    const inType = site.argTypes[0];
    if (inType.name === 'DECIMAL') {
      const scale = scaleOf(inType);
      const div = 10n ** BigInt(scale);
      const out = toBigScaled(args[0], scale).map((value) => {
        let quotient = value / div;
        const remainder = value - quotient * div;
        if (ceil && remainder > 0n) quotient += 1n;
        if (!ceil && remainder < 0n) quotient -= 1n;
        return quotient;
      });
      return bigintsAs(type, out, null);
    }
    if (integerRank(inType) >= 0) return args[0];
    const out = mapNumbers(ceil ? 'Math.ceil(x)' : 'Math.floor(x)', toF64(args[0]), new Float64Array(rowCount), rowCount);
    const nulls = new NullsOut(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (!(Math.abs(out[rowIdx]) <= MAX_EXACT)) {
        nulls.setNull(rowIdx);
        out[rowIdx] = 0;
      }
    }
    return vectorFromNumbers(type, out, nulls.map);
  };
}

function resolveCeilFloor(types: readonly DataType[]): Resolution {
  const t = numericOrDouble(types[0]);
  if (t.name === 'DECIMAL') return { argTypes: [t], returnType: decimalType((t.precision ?? 9) - (t.scale ?? 0) + 1, 0) };
  if (integerRank(t) >= 0) return { argTypes: [t], returnType: t };
  return { argTypes: [t], returnType: Types.BIGINT };
}

function absKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const type = site.returnType;
  const inType = site.argTypes[0];
  if (isFloatType(type) || (type.name === 'DECIMAL' && !isWideDecimal(type) && !isWideDecimal(inType))) {
    const input = type.name === 'DECIMAL' ? (args[0] as { values: Float64Array }).values : toF64(args[0]);
    return fixedVector(type, mapNumbers('Math.abs(x)', input, new Float64Array(rowCount), rowCount));
  }
  if (physicalKind(type) === 'i16' || physicalKind(type) === 'i32' || (physicalKind(type) === 'i64' && integerRank(inType) <= 3)) {
    const out = mapNumbers('Math.abs(x)', toF64(args[0]), new Float64Array(rowCount), rowCount);
    if (physicalKind(type) === 'i64') return fixedVector(type, i64FromNumbers(out, rowCount));
    const values = newFixedArray(physicalKind(type), rowCount) as Float64Array;
    values.set(out);
    return fixedVector(type, values);
  }
  const out = toBigScaled(args[0], scaleOf(inType)).map((value) => (value < 0n ? -value : value));
  return bigintsAs(type, out, null);
}

function minMaxKernel(greatest: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const type = site.returnType;
    const kind = physicalKind(type);
    if (kind === 'string') {
      const columns = args.map(toJsStrings);
      const out = new Array<string | null>(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        let best = columns[0][rowIdx] ?? '';
        for (let argIdx = 1; argIdx < columns.length; argIdx++) {
          const candidate = columns[argIdx][rowIdx] ?? '';
          const order = compareStrings(candidate, best);
          if (greatest ? order > 0 : order < 0) best = candidate;
        }
        out[rowIdx] = best;
      }
      const builder = new StringOut(type, rowCount);
      for (const value of out) builder.push(value ?? '');
      return builder.finish();
    }
    if (kind === 'i64' || kind === 'bigint') {
      const columns = args.map((vec) => toBigScaled(vec, scaleOf(vec.type)));
      const out = new Array<bigint>(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        let best = columns[0][rowIdx];
        for (let argIdx = 1; argIdx < columns.length; argIdx++) {
          const candidate = columns[argIdx][rowIdx];
          if (greatest ? candidate > best : candidate < best) best = candidate;
        }
        out[rowIdx] = best;
      }
      return bigintsAs(type, out, null);
    }
    const columns = args.map((vec) => (vec as { values: ArrayLike<number> }).values);
    const out = newFixedArray(kind, rowCount) as Float64Array;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      let best = columns[0][rowIdx];
      for (let argIdx = 1; argIdx < columns.length; argIdx++) {
        const candidate = columns[argIdx][rowIdx];
        if (greatest ? candidate > best : candidate < best) best = candidate;
      }
      out[rowIdx] = best;
    }
    return { kind: 'fixed', type, length: rowCount, values: out, nulls: null };
  };
}

function math(decl: Omit<FunctionDecl, 'family'>): FunctionDef {
  return defineFunction({ family: 'math', ...decl });
}

/** greatest / least: every argument and the result in the arguments' common type. */
function resolveCommon(name: string) {
  return (types: readonly DataType[]): Resolution => {
    const common = commonSuperType(types, name);
    if (common.name === 'NULL') return { argTypes: types.map(() => Types.TINYINT), returnType: Types.TINYINT };
    return { argTypes: types.map(() => common), returnType: common };
  };
}

export const MATH_FUNCTIONS: readonly FunctionDef[] = [
  math({
    name: 'abs',
    args: [arg('x')],
    returns: 'same family (integers widen one step)',
    resolve: (types) => {
      const t = numericOrDouble(types[0]);
      if (integerRank(t) >= 0) return { argTypes: [t], returnType: widenInteger(t) };
      if (t.name === 'FLOAT') return { argTypes: [Types.DOUBLE], returnType: Types.DOUBLE };
      return { argTypes: [t], returnType: t };
    },
    kernel: absKernel,
    description: 'Absolute value.',
    example: 'SELECT abs(-3)',
  }),
  math({
    name: 'ceil',
    aliases: ['ceiling', 'dceil'],
    args: [arg('x')],
    returns: 'BIGINT | DECIMAL(p,0)',
    resolve: resolveCeilFloor,
    kernel: ceilFloorKernel(true),
    description: 'Smallest integer not less than x.',
    example: 'SELECT ceil(1.2)',
  }),
  math({
    name: 'floor',
    aliases: ['dfloor'],
    args: [arg('x')],
    returns: 'BIGINT | DECIMAL(p,0)',
    resolve: resolveCeilFloor,
    kernel: ceilFloorKernel(false),
    description: 'Largest integer not greater than x.',
    example: 'SELECT floor(-1.2)',
  }),
  math({
    name: 'round',
    aliases: ['dround'],
    args: [arg('x'), opt('d')],
    returns: 'type of x',
    resolve: resolveRound,
    kernel: roundKernel(false),
    description: 'Rounds half away from zero to d decimals (default 0). A DECIMAL keeps its scale.',
    example: 'SELECT round(2.5), round(3.14159, 2)',
  }),
  math({
    name: 'truncate',
    args: [arg('x'), opt('d')],
    returns: 'type of x',
    resolve: resolveRound,
    kernel: roundKernel(true),
    description: 'Cuts x toward zero to d decimals.',
    example: 'SELECT truncate(3.789, 1)',
  }),
  unaryDouble('sqrt', 'x >= 0 ? Math.sqrt(x) : NaN', 'Square root; NULL for negative x.', 'SELECT sqrt(16)', ['dsqrt']),
  unaryDouble('cbrt', 'Math.cbrt(x)', 'Cube root.', 'SELECT cbrt(27)'),
  unaryDouble('exp', 'Math.exp(x)', 'e raised to x.', 'SELECT exp(1)', ['dexp']),
  unaryDouble('ln', positiveOnly('Math.log(x)'), 'Natural logarithm; NULL for x <= 0.', 'SELECT ln(2.718281828459045)', ['dlog1']),
  unaryDouble('log10', positiveOnly('Math.log10(x)'), 'Base-10 logarithm; NULL for x <= 0.', 'SELECT log10(1000)', ['dlog10']),
  unaryDouble('log2', positiveOnly('Math.log2(x)'), 'Base-2 logarithm; NULL for x <= 0.', 'SELECT log2(8)'),
  unaryDouble('sin', 'Math.sin(x)', 'Sine (radians).', 'SELECT sin(0)'),
  unaryDouble('cos', 'Math.cos(x)', 'Cosine (radians).', 'SELECT cos(0)'),
  unaryDouble('tan', 'Math.tan(x)', 'Tangent (radians).', 'SELECT tan(0)'),
  unaryDouble('asin', 'Math.asin(x)', 'Arc sine; NULL outside [-1, 1].', 'SELECT asin(1)'),
  unaryDouble('acos', 'Math.acos(x)', 'Arc cosine; NULL outside [-1, 1].', 'SELECT acos(1)'),
  unaryDouble('atan', 'Math.atan(x)', 'Arc tangent.', 'SELECT atan(1)'),
  unaryDouble('degrees', '(x * 180) / Math.PI', 'Radians to degrees.', 'SELECT degrees(pi())'),
  unaryDouble('radians', '(x * Math.PI) / 180', 'Degrees to radians.', 'SELECT radians(180)'),
  math({
    name: 'log',
    args: [opt('base', 'NUMERIC'), arg('x', 'NUMERIC')],
    returns: Types.DOUBLE,
    signature: 'log(base, x) -> DOUBLE (log(x) is ln(x))',
    kernel: (args, rowCount, site) => {
      const nulls = new NullsOut(rowCount);
      if (args.length === 1) {
        const x = toF64(args[0]);
        const out = mapNumbers('Math.log(x)', x, new Float64Array(rowCount), rowCount);
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (!(x[rowIdx] > 0)) nulls.setNull(rowIdx);
        return doubleResult(out, nulls.map);
      }
      const base = toF64(args[0]);
      const x = toF64(args[1]);
      const out = mapNumbers2('Math.log(y) / Math.log(x)', base, x, new Float64Array(rowCount), rowCount, shapeOf(site));
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (!(x[rowIdx] > 0) || !(base[rowIdx] > 0) || base[rowIdx] === 1) nulls.setNull(rowIdx);
      return doubleResult(out, nulls.map);
    },
    description: 'Logarithm of x in the given base; NULL outside the domain.',
    example: 'SELECT log(2, 8)',
  }),
  math({
    name: 'pow',
    aliases: ['power', 'dpow', 'fpow'],
    args: [arg('x', 'NUMERIC'), arg('y', 'NUMERIC')],
    returns: Types.DOUBLE,
    kernel: binaryDouble('Math.pow(x, y)', true),
    description: 'x raised to the power y.',
    example: 'SELECT pow(2, 10)',
  }),
  math({
    name: 'atan2',
    args: [arg('y', 'NUMERIC'), arg('x', 'NUMERIC')],
    returns: Types.DOUBLE,
    kernel: binaryDouble('Math.atan2(x, y)', false),
    description: 'Arc tangent of y/x using both signs.',
    example: 'SELECT atan2(1, 1)',
  }),
  math({
    name: 'sign',
    aliases: ['signum'],
    args: [arg('x', 'NUMERIC')],
    returns: Types.TINYINT,
    kernel: (args, rowCount) => fixedVector(Types.TINYINT, mapNumbers('x > 0 ? 1 : x < 0 ? -1 : 0', toF64(args[0]), new Int8Array(rowCount), rowCount)),
    description: '-1, 0 or 1 by the sign of x.',
    example: 'SELECT sign(-4)',
  }),
  math({
    name: 'pi',
    args: [],
    returns: Types.DOUBLE,
    kernel: (_args, rowCount) => doubleResult(new Float64Array(rowCount).fill(Math.PI)),
    description: 'The constant pi.',
    example: 'SELECT pi()',
  }),
  math({
    name: 'e',
    args: [],
    returns: Types.DOUBLE,
    kernel: (_args, rowCount) => doubleResult(new Float64Array(rowCount).fill(Math.E)),
    description: "Euler's number.",
    example: 'SELECT e()',
  }),
  math({
    name: 'rand',
    aliases: ['random'],
    args: [opt('seed', 'BIGINT')],
    returns: Types.DOUBLE,
    volatility: 'row',
    nulls: 'custom',
    kernel: (args, rowCount, site) => {
      const out = new Float64Array(rowCount);
      if (args.length === 0) {
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = Math.random();
        return doubleResult(out);
      }
      let next = site.cache.get('rng') as (() => number) | undefined;
      if (next === undefined) {
        const seed = toF64(args[0])[0] ?? 0;
        next = mulberry32(Number.isFinite(seed) ? seed : 0);
        site.cache.set('rng', next);
      }
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = next();
      return doubleResult(out);
    },
    description: 'A random number in [0, 1); with a seed, a repeatable sequence.',
    example: 'SELECT rand()',
  }),
  math({
    name: 'greatest',
    args: [arg('a'), rest('b', undefined, true)],
    returns: 'common type',
    resolve: resolveCommon('greatest'),
    kernel: minMaxKernel(true),
    description: 'The largest argument; NULL if any argument is NULL.',
    example: 'SELECT greatest(1, 5, 3)',
  }),
  math({
    name: 'least',
    args: [arg('a'), rest('b', undefined, true)],
    returns: 'common type',
    resolve: resolveCommon('least'),
    kernel: minMaxKernel(false),
    description: 'The smallest argument; NULL if any argument is NULL.',
    example: 'SELECT least(1, 5, 3)',
  }),
];
