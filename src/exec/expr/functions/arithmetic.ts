/**
 * Arithmetic operators with Doris's result types:
 * - integers widen one step for + - * (TINYINT+TINYINT -> SMALLINT ... INT+INT -> BIGINT,
 *   BIGINT+BIGINT -> LARGEINT); % keeps the wider operand type; DIV gives BIGINT (LARGEINT for LARGEINT);
 * - anything with FLOAT/DOUBLE (or a string, converted) gives DOUBLE;
 * - DECIMAL is exact: + - scale max(s1,s2), precision max(p1-s1,p2-s2)+max(s1,s2)+1; * scale s1+s2,
 *   precision p1+p2; / scale s1+4 (Doris div_precision_increment), precision p1+s2+4, rounded half away
 *   from zero; precision capped at 38;
 * - `/` of integers gives DOUBLE; division or modulo by zero gives NULL (Doris).
 */
import { FixedArray, newFixedArray, Vector } from '../../../common/column';
import { pow10 } from '../../../common/convert';
import { DataType, isStringType, isWideDecimal, physicalKind, Types } from '../../../common/types';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { badArgs } from '../function-registry';
import { galeneError } from '../../../common/errors';
import { binaryLoop, LoopShape } from '../loop-gen';
import { asDecimal, decimalType, integerByRank, integerRank, isFloatType, MAX_DECIMAL_PRECISION, widenInteger } from '../type-rules';
import { bigDivRound, EXACT_NUMBER_LIMIT, exactNumbers, i64AllSafe, i64Views, MAX_EXACT, maxAbs, objectVectorFromExactNumbers, outputF64, scaleOf, toBigScaled, toF64, toNumberScaled, TWO_POW_32 } from '../vector-ops';

type ArithOp = 'add' | 'subtract' | 'multiply' | 'divide' | 'mod' | 'int_divide';

/** How an operand type enters arithmetic: strings and temporals as DOUBLE, NULL as the other side. */
function arithOperand(t: DataType, other: DataType): DataType {
  if (t.name === 'NULL') return other.name === 'NULL' ? Types.TINYINT : arithOperand(other, Types.TINYINT);
  if (isStringType(t) || t.name === 'DATE' || t.name === 'DATETIME') return Types.DOUBLE;
  return t;
}

export function resolveArithmetic(op: ArithOp, types: readonly DataType[]): Resolution {
  if (types.length !== 2) throw badArgs(op, types);
  const a = arithOperand(types[0], types[1]);
  const b = arithOperand(types[1], types[0]);
  const anyFloat = isFloatType(a) || isFloatType(b);
  const anyDecimal = a.name === 'DECIMAL' || b.name === 'DECIMAL';
  if (op === 'int_divide') {
    if (anyFloat) return { argTypes: [Types.DOUBLE, Types.DOUBLE], returnType: Types.BIGINT };
    if (anyDecimal) {
      const da = asDecimal(a);
      const db = asDecimal(b);
      const scale = Math.max(da.scale ?? 0, db.scale ?? 0);
      const intDigits = Math.max((da.precision ?? 9) - (da.scale ?? 0), (db.precision ?? 9) - (db.scale ?? 0));
      const common = decimalType(intDigits + scale, scale);
      return { argTypes: [common, common], returnType: Types.BIGINT };
    }
    // Doris's int_divide: integer operands give the wider operand's type (INT DIV SMALLINT is INT).
    const rank = Math.max(integerRank(a), integerRank(b), 1);
    if (rank < 1) throw badArgs(op, types);
    return { argTypes: [a, b], returnType: integerByRank(rank) };
  }
  if (anyFloat || (op === 'divide' && !anyDecimal)) return { argTypes: [Types.DOUBLE, Types.DOUBLE], returnType: Types.DOUBLE };
  if (anyDecimal) {
    const da = asDecimal(a);
    const db = asDecimal(b);
    const p1 = da.precision ?? 9;
    const s1 = da.scale ?? 0;
    const p2 = db.precision ?? 9;
    const s2 = db.scale ?? 0;
    let returnType: DataType;
    switch (op) {
      case 'add':
      case 'subtract': {
        const scale = Math.max(s1, s2);
        returnType = decimalType(Math.max(p1 - s1, p2 - s2) + scale + 1, scale);
        break;
      }
      case 'multiply':
        returnType = decimalType(p1 + p2, Math.min(s1 + s2, MAX_DECIMAL_PRECISION));
        break;
      case 'divide':
        returnType = decimalType(p1 + s2 + 4, Math.min(s1 + 4, MAX_DECIMAL_PRECISION));
        break;
      default: {
        const scale = Math.max(s1, s2);
        returnType = decimalType(Math.max(p1 - s1, p2 - s2) + scale, scale);
      }
    }
    return { argTypes: [da, db], returnType };
  }
  const rank = Math.max(integerRank(a), integerRank(b), 1);
  if (rank < 1) throw badArgs(op, types);
  const wider = integerByRank(rank);
  return { argTypes: [a, b], returnType: op === 'mod' ? wider : widenInteger(wider) };
}

const F64_TEMPLATES: Record<'add' | 'subtract' | 'multiply' | 'divide', string> = {
  add: 'x + y',
  subtract: 'x - y',
  multiply: 'x * y',
  divide: 'x / y',
};

function shapeOf(site: CallSite): LoopShape {
  if (site.isConst[1]) return 'vc';
  if (site.isConst[0]) return 'cv';
  return 'vv';
}

/** Rows where the divisor is zero become NULL. */
function zeroDivisorNulls(divisor: ArrayLike<number | bigint>, rowCount: number): Uint8Array | null {
  let nulls: Uint8Array | null = null;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    // eslint-disable-next-line eqeqeq
    if (divisor[rowIdx] == 0) {
      nulls ??= new Uint8Array(rowCount);
      nulls[rowIdx] = 1;
    }
  }
  return nulls;
}

function doubleKernel(op: ArithOp, args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const a = toF64(args[0]);
  const b = toF64(args[1]);
  const out = outputF64(site, rowCount);
  if (op === 'mod') {
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = a[rowIdx] % b[rowIdx];
  } else if (op === 'int_divide') {
    // Result BIGINT: truncated quotient.
    const values = new BigInt64Array(rowCount);
    const { lo, hi } = i64Views(values);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const quotient = Math.trunc(a[rowIdx] / b[rowIdx]);
      if (Number.isFinite(quotient) && Math.abs(quotient) <= MAX_EXACT) {
        lo[rowIdx * 2] = quotient;
        hi[rowIdx * 2 + 1] = Math.floor(quotient / TWO_POW_32);
      } else if (Number.isFinite(quotient)) values[rowIdx] = BigInt.asIntN(64, BigInt(quotient));
    }
    return { kind: 'fixed', type: site.returnType, length: rowCount, values, nulls: zeroDivisorNulls(b, rowCount) };
  } else {
    binaryLoop(F64_TEMPLATES[op], shapeOf(site), a, b, out)(a, b, out, rowCount);
  }
  const nulls = op === 'divide' || op === 'mod' ? zeroDivisorNulls(b, rowCount) : null;
  return { kind: 'fixed', type: site.returnType, length: rowCount, values: out, nulls };
}

/** Integer operands held as numbers (TINYINT..INT, BOOLEAN). */
function isNumberInt(vec: Vector): boolean {
  return vec.kind === 'fixed' && !(vec.values instanceof BigInt64Array);
}

const INT_TEMPLATES: Record<'add' | 'subtract' | 'multiply', string> = { add: 'x + y', subtract: 'x - y', multiply: 'x * y' };

function integerKernel(op: ArithOp, args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const type = site.returnType;
  const [left, right] = args;
  const kind = physicalKind(type);
  if (isNumberInt(left) && isNumberInt(right) && kind !== 'bigint') {
    const a = left.kind === 'fixed' ? (left.values as unknown as ArrayLike<number>) : new Float64Array(0);
    const b = right.kind === 'fixed' ? (right.values as unknown as ArrayLike<number>) : new Float64Array(0);
    if (op === 'add' || op === 'subtract' || op === 'multiply') {
      if (kind !== 'i64') {
        const out = newFixedArray(kind, rowCount);
        binaryLoop(INT_TEMPLATES[op], shapeOf(site), a, b, out)(a, b, out as Float64Array, rowCount);
        return { kind: 'fixed', type, length: rowCount, values: out, nulls: null };
      }
      // BIGINT result from int32 operands: exact in float64 except large products.
      const tmp = new Float64Array(rowCount);
      binaryLoop(INT_TEMPLATES[op], shapeOf(site), a, b, tmp)(a, b, tmp, rowCount);
      const values = new BigInt64Array(rowCount);
      const { lo, hi } = i64Views(values);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const value = tmp[rowIdx];
        if (value <= MAX_EXACT && value >= -MAX_EXACT) {
          lo[rowIdx * 2] = value;
          hi[rowIdx * 2 + 1] = Math.floor(value / TWO_POW_32);
        } else values[rowIdx] = BigInt(a[rowIdx]) * BigInt(b[rowIdx]);
      }
      return { kind: 'fixed', type, length: rowCount, values, nulls: null };
    }
    const nulls = zeroDivisorNulls(b, rowCount);
    if (op === 'mod') {
      const out = newFixedArray(kind, rowCount) as Float64Array;
      const min = kind === 'i8' ? -128 : kind === 'i16' ? -32768 : -2147483648;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (b[rowIdx] === -1 && a[rowIdx] === min) throw minByMinusOne(a[rowIdx], b[rowIdx]);
        out[rowIdx] = b[rowIdx] === 0 ? 0 : a[rowIdx] % b[rowIdx];
      }
      return { kind: 'fixed', type, length: rowCount, values: out, nulls };
    }
    // int_divide: the wider operand's type (a narrow typed array wraps as Doris's C++ does).
    if (kind !== 'i64') {
      const out = newFixedArray(kind, rowCount) as Float64Array;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = b[rowIdx] === 0 ? 0 : Math.trunc(a[rowIdx] / b[rowIdx]);
      return { kind: 'fixed', type, length: rowCount, values: out, nulls };
    }
    const values = new BigInt64Array(rowCount);
    const { lo, hi } = i64Views(values);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const quotient = b[rowIdx] === 0 ? 0 : Math.trunc(a[rowIdx] / b[rowIdx]);
      lo[rowIdx * 2] = quotient;
      hi[rowIdx * 2 + 1] = Math.floor(quotient / TWO_POW_32);
    }
    return { kind: 'fixed', type, length: rowCount, values, nulls };
  }
  // Exact bigint path (BIGINT / LARGEINT operands).
  const a = toBigScaled(left, 0);
  const b = toBigScaled(right, 0);
  const bits = type.name === 'LARGEINT' ? 128 : 64;
  const result = new Array<bigint>(rowCount);
  let nulls: Uint8Array | null = null;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const x = a[rowIdx];
    const y = b[rowIdx];
    let value: bigint;
    switch (op) {
      case 'add':
        value = x + y;
        break;
      case 'subtract':
        value = x - y;
        break;
      case 'multiply':
        value = x * y;
        break;
      default:
        if (y === 0n) {
          nulls ??= new Uint8Array(rowCount);
          nulls[rowIdx] = 1;
          value = 0n;
        } else if (op === 'mod' && y === -1n && x === -(1n << BigInt(bits - 1))) throw minByMinusOne(x, y);
        else value = op === 'mod' ? x % y : x / y;
    }
    result[rowIdx] = BigInt.asIntN(bits, value);
  }
  return bigintsAs(type, result, nulls);
}

/**
 * Doris's error for the smallest value of an integer type modulo -1 (a CPU fault in C++), from
 * ModuloImpl's throw_if_division_leads_to_FPE (be/src/vec/functions/modulo.cpp).
 */
export function minByMinusOne(a: number | bigint, b: number | bigint): Error {
  return galeneError('INVALID_ARGUMENT', `Division of minimal signed number by minus one is an undefined behavior, ${a} % ${b}. `);
}

function bigintsAs(type: DataType, values: bigint[], nulls: Uint8Array | null): Vector {
  const kind = physicalKind(type);
  if (kind === 'bigint') return { kind: 'object', type, length: values.length, values, nulls };
  if (kind === 'i64') return { kind: 'fixed', type, length: values.length, values: BigInt64Array.from(values), nulls };
  const out = newFixedArray(kind === 'string' ? 'f64' : kind, values.length) as Float64Array;
  for (let rowIdx = 0; rowIdx < values.length; rowIdx++) out[rowIdx] = Number(values[rowIdx]);
  return { kind: 'fixed', type, length: values.length, values: out as FixedArray, nulls };
}

/**
 * A decimal/integer operand as exact scaled float64s at `scale`, or null when it has no such form (bigint
 * values without an exact form, or a value that would reach 2^53 after rescaling).
 */
function exactOperand(vec: Vector, scale: number, rowCount: number, isConst: boolean): Float64Array | null {
  if (isConst && vec.kind === 'fixed' && !(vec.values instanceof BigInt64Array) && scale >= scaleOf(vec.type)) {
    // A constant operand: the 'vc' / 'cv' loops read element 0 only.
    const value = Number(vec.values[0]) * pow10(scale - scaleOf(vec.type));
    return Math.abs(value) < EXACT_NUMBER_LIMIT ? Float64Array.of(value) : null;
  }
  if (vec.kind === 'object') {
    if (exactNumbers(vec) === null) return null;
  } else if (vec.kind !== 'fixed') return null;
  else if (vec.values instanceof BigInt64Array && !i64AllSafe(vec.values, rowCount)) return null;
  const fromScale = scaleOf(vec.type);
  if (scale < fromScale) return null;
  const values = toNumberScaled(vec, scale);
  // Narrow decimals and 32-bit integers are far below 2^53 unless rescaled or converted from 64 bits.
  const checked = scale !== fromScale || vec.kind === 'object' || (vec.kind === 'fixed' && vec.values instanceof BigInt64Array);
  if (checked && !(maxAbs(values, rowCount) < EXACT_NUMBER_LIMIT)) return null;
  return values;
}

/**
 * + - * of decimals in float64 when every operand and result is an integer below 2^53 in magnitude
 * (then each operation is exact: a product or sum whose rounded value is below 2^53 was not rounded).
 * Returns null to fall back to bigint arithmetic. A wide result type keeps the numbers as its exact form.
 */
function decimalKernelExact(op: 'add' | 'subtract' | 'multiply', left: Vector, right: Vector, rowCount: number, site: CallSite): Vector | null {
  const type = site.returnType;
  const s1 = scaleOf(left.type);
  const s2 = scaleOf(right.type);
  const outScale = scaleOf(type);
  if (op === 'multiply' && outScale !== s1 + s2) return null;
  const a = exactOperand(left, op === 'multiply' ? s1 : outScale, rowCount, site.isConst[0] && !site.isConst[1]);
  if (a === null) return null;
  const b = exactOperand(right, op === 'multiply' ? s2 : outScale, rowCount, site.isConst[1]);
  if (b === null) return null;
  const out = outputF64(site, rowCount);
  binaryLoop(INT_TEMPLATES[op], shapeOf(site), a, b, out)(a, b, out, rowCount);
  const narrowOut = type.name === 'DECIMAL' && !isWideDecimal(type);
  if (narrowOut) return { kind: 'fixed', type, length: rowCount, values: out, nulls: null };
  if (!(maxAbs(out, rowCount) < EXACT_NUMBER_LIMIT)) return null;
  if (physicalKind(type) !== 'bigint') return null;
  return objectVectorFromExactNumbers(type, out, null);
}

function decimalKernel(op: ArithOp, args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const type = site.returnType;
  const [left, right] = args;
  const s1 = scaleOf(left.type);
  const s2 = scaleOf(right.type);
  const outScale = scaleOf(type);
  const narrowOut = !isWideDecimal(type) && type.name === 'DECIMAL';
  const narrowIn = !isWideDecimal(left.type) && !isWideDecimal(right.type);
  if (narrowOut && narrowIn && (op === 'add' || op === 'subtract' || op === 'multiply')) {
    // Every operand and the result are below 10^15 < 2^53: exact in float64.
    const scale = op === 'multiply' ? null : outScale;
    const a = scale === null ? toNumberScaled(left, s1) : toNumberScaled(left, scale);
    const b = scale === null ? toNumberScaled(right, s2) : toNumberScaled(right, scale);
    const out = outputF64(site, rowCount);
    binaryLoop(INT_TEMPLATES[op], shapeOf(site), a, b, out)(a, b, out, rowCount);
    return { kind: 'fixed', type, length: rowCount, values: out, nulls: null };
  }
  if (type.name === 'DECIMAL' && (op === 'add' || op === 'subtract' || op === 'multiply')) {
    const exact = decimalKernelExact(op, left, right, rowCount, site);
    if (exact !== null) return exact;
  }
  let a: bigint[];
  let b: bigint[];
  let nulls: Uint8Array | null = null;
  const result = new Array<bigint>(rowCount);
  const limit = 10n ** BigInt(type.name === 'DECIMAL' ? type.precision ?? 38 : 38);
  const markNull = (rowIdx: number): void => {
    nulls ??= new Uint8Array(rowCount);
    nulls[rowIdx] = 1;
  };
  if (op === 'add' || op === 'subtract' || op === 'mod' || op === 'int_divide') {
    const scale = Math.max(s1, s2);
    a = toBigScaled(left, scale);
    b = toBigScaled(right, scale);
  } else {
    a = toBigScaled(left, s1);
    b = toBigScaled(right, s2);
  }
  const divScale = op === 'divide' ? 10n ** BigInt(outScale - s1 + s2) : 1n;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const x = a[rowIdx];
    const y = b[rowIdx];
    let value: bigint;
    switch (op) {
      case 'add':
        value = x + y;
        break;
      case 'subtract':
        value = x - y;
        break;
      case 'multiply':
        value = x * y;
        break;
      case 'divide':
        if (y === 0n) {
          markNull(rowIdx);
          value = 0n;
        } else value = bigDivRound(x * divScale, y);
        break;
      case 'mod':
      case 'int_divide':
        if (y === 0n) {
          markNull(rowIdx);
          value = 0n;
        } else value = op === 'mod' ? x % y : x / y;
        break;
    }
    if (type.name === 'DECIMAL' && (value >= limit || value <= -limit)) {
      // Arithmetic overflow of DECIMAL(38): NULL, as Doris's non-strict mode.
      markNull(rowIdx);
      value = 0n;
    }
    result[rowIdx] = value;
  }
  return bigintsAs(type, result, nulls);
}

function arithmeticKernel(op: ArithOp) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const [left, right] = site.argTypes;
    if (left.name === 'DOUBLE' || left.name === 'FLOAT' || right.name === 'DOUBLE' || right.name === 'FLOAT') return doubleKernel(op, args, rowCount, site);
    if (left.name === 'DECIMAL' || right.name === 'DECIMAL') return decimalKernel(op, args, rowCount, site);
    return integerKernel(op, args, rowCount, site);
  };
}

function arith(op: ArithOp, symbol: string, description: string, example: string): FunctionDef {
  return {
    name: op,
    family: 'operator',
    signature: `a ${symbol} b`,
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => resolveArithmetic(op, types),
    nulls: 'propagate',
    kernel: arithmeticKernel(op),
    description,
    example,
  };
}

function negativeKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const vec = args[0];
  const type = site.returnType;
  if (vec.kind === 'object') return { kind: 'object', type, length: rowCount, values: vec.values.map((value) => -value), nulls: null };
  if (vec.kind === 'fixed' && vec.values instanceof BigInt64Array) {
    const out = new BigInt64Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = -vec.values[rowIdx];
    return { kind: 'fixed', type, length: rowCount, values: out, nulls: null };
  }
  const values = (vec as { values: ArrayLike<number> }).values;
  const out = newFixedArray(physicalKind(type), rowCount) as Float64Array;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = -values[rowIdx];
  return { kind: 'fixed', type, length: rowCount, values: out, nulls: null };
}

type BitOp = 'bitand' | 'bitor' | 'bitxor';

function bitKernel(op: BitOp) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const type = site.returnType;
    if (physicalKind(type) === 'i32' || physicalKind(type) === 'i16' || physicalKind(type) === 'i8') {
      const a = (args[0] as { values: ArrayLike<number> }).values;
      const b = (args[1] as { values: ArrayLike<number> }).values;
      const out = newFixedArray(physicalKind(type), rowCount) as Int32Array;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = op === 'bitand' ? a[rowIdx] & b[rowIdx] : op === 'bitor' ? a[rowIdx] | b[rowIdx] : a[rowIdx] ^ b[rowIdx];
      return { kind: 'fixed', type, length: rowCount, values: out, nulls: null };
    }
    const a = toBigScaled(args[0], 0);
    const b = toBigScaled(args[1], 0);
    const out = a.map((x, rowIdx) => (op === 'bitand' ? x & b[rowIdx] : op === 'bitor' ? x | b[rowIdx] : x ^ b[rowIdx]));
    return bigintsAs(type, out, null);
  };
}

function resolveBits(types: readonly DataType[]): Resolution {
  const ints = types.map((t) => (integerRank(t) >= 0 ? t : Types.BIGINT));
  const rank = Math.max(1, ...ints.map(integerRank));
  const type = integerByRank(rank);
  return { argTypes: ints.map(() => type), returnType: type };
}

function bit(op: BitOp, symbol: string): FunctionDef {
  return {
    name: op,
    family: 'operator',
    signature: `a ${symbol} b`,
    minArgs: 2,
    maxArgs: 2,
    resolve: resolveBits,
    nulls: 'propagate',
    kernel: bitKernel(op),
    description: `Bitwise ${op.slice(3).toUpperCase()} of two integers.`,
    example: `SELECT 6 ${symbol} 3`,
  };
}

export const ARITHMETIC_FUNCTIONS: readonly FunctionDef[] = [
  arith('add', '+', 'Sum of two numbers; integers widen one step (INT + INT is BIGINT), decimals are exact.', 'SELECT 1 + 2'),
  arith('subtract', '-', 'Difference of two numbers, typed as add.', 'SELECT 5 - 7'),
  arith('multiply', '*', 'Product; DECIMAL scale s1+s2.', 'SELECT 1.5 * 2'),
  arith('divide', '/', 'Quotient: DOUBLE for integers and doubles, DECIMAL with scale s1+4 for decimals; NULL when dividing by zero.', 'SELECT 7 / 2'),
  arith('mod', '%', 'Remainder with the sign of the dividend; NULL when dividing by zero.', 'SELECT 7 % 3'),
  arith('int_divide', 'DIV', 'Integer division truncating toward zero; NULL when dividing by zero.', 'SELECT 7 DIV 2'),
  {
    name: 'negative',
    family: 'operator',
    signature: '-a',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => {
      const t = arithOperand(types[0], Types.TINYINT);
      return { argTypes: [t], returnType: t.name === 'BOOLEAN' ? Types.TINYINT : t };
    },
    nulls: 'propagate',
    kernel: negativeKernel,
    description: 'Unary minus.',
    example: 'SELECT -(3)',
  },
  bit('bitand', '&'),
  bit('bitor', '|'),
  bit('bitxor', '^'),
  {
    name: 'bitnot',
    family: 'operator',
    signature: '~a',
    minArgs: 1,
    maxArgs: 1,
    resolve: resolveBits,
    nulls: 'propagate',
    kernel: (args, rowCount, site) => {
      const out = toBigScaled(args[0], 0).map((value) => ~value);
      return bigintsAs(site.returnType, out, null);
    },
    description: 'Bitwise NOT of an integer.',
    example: 'SELECT ~5',
  },
];

/** Exposed for math functions that share decimal-aware helpers. */
export { bigintsAs };
export const POW10 = pow10;
