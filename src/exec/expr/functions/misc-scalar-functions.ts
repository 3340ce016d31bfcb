/**
 * The rest of Doris's scalar functions that fit no larger family: bit functions (bit_length, bit_test,
 * bitcount, bitshiftleft, bitshiftright), number formatting and rounding (round_bankers, format_round,
 * money_format, width_bucket, normal_cdf, uniform), 128-bit ids (uuid_numeric, int_to_uuid),
 * parse_data_size, MySQL's compress / uncompress, the binary functions over a string's bytes (to_hex,
 * from_hex, to_base64_binary, from_base64_binary, sub_binary), format ({fmt} placeholders) and MySQL's
 * interval(N, N1, N2, ...).
 */
import { randomBytes } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import type { ObjectVector, RawValue, Vector } from '../../../common/column';
import { formatValue } from '../../../common/convert';
import { formatDatetime, parseDatetime, truncTime } from '../../../common/datetime';
import { listPartitionName, rangePartitionName } from '../../../meta/auto-partition-names';
import { galeneError } from '../../../common/errors';
import { isIntegerType, Types, type DataType } from '../../../common/types';
import type { CallSite, FunctionDef } from '../function-registry';
import { byteSource, mapRanges, mapStrings, valuesOrNulls } from '../kernels';
import { arg, defineFunction, FunctionDecl, opt, rest } from '../signature';
import { badArgs } from '../function-registry';
import { bytesRows, str } from './text-functions';
import { fixedVector, orNulls, StringOut, toBigScaled, toF64, toJsStrings, vectorFromValues } from '../vector-ops';
import { stringLists } from './regexp-functions';

/** A kernel writing each DOUBLE argument as the text `format` makes of it. */
function doublesAsText(format: (value: number) => string): FunctionDef['kernel'] {
  return (args, rowCount, site) => {
    const values = toF64(args[0]);
    const out = new StringOut(site.returnType, rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(format(values[rowIdx]));
    return out.finish();
  };
}

const RANGE_NAME_UNITS = new Set(['year', 'month', 'day', 'hour', 'minute', 'second']);

/** auto_partition_name of one row's argument texts (mode first), as an AUTO PARTITION load names it. */
function autoPartitionName([mode, ...values]: readonly string[]): string {
  const kind = mode.toLowerCase();
  if (kind === 'list') return listPartitionName(values, values.map(() => true));
  if (kind !== 'range') throw galeneError('INVALID_ARGUMENT', `function auto_partition_name must accept range|list for 1st argument, got '${mode}'`);
  const unit = (values[0] ?? '').toLowerCase();
  if (values.length !== 2 || !RANGE_NAME_UNITS.has(unit)) throw galeneError('INVALID_ARGUMENT', `range auto_partition_name must accept year|month|day|hour|minute|second for 2nd argument, got '${values[0] ?? ''}'`);
  const micros = parseDatetime(values[1]);
  if (micros === null) throw galeneError('INVALID_ARGUMENT', `range auto_partition_name needs a datetime for 3rd argument, got '${values[1]}'`);
  return rangePartitionName(formatDatetime(truncTime(Types.DATETIME, micros, unit)));
}

/** format_number's units, largest first. */
const NUMBER_UNITS: readonly [number, string][] = [[1e15, 'Q'], [1e12, 'T'], [1e9, 'B'], [1e6, 'M'], [1e3, 'K']];

function withUnitSymbol(value: number): string {
  const magnitude = Math.abs(value);
  for (const [scale, symbol] of NUMBER_UNITS) if (magnitude >= scale) return `${(value / scale).toFixed(2)}${symbol}`;
  return formatValue(Types.DOUBLE, value) ?? String(value);
}

function num(decl: Omit<FunctionDecl, 'family'>): FunctionDef {
  return defineFunction({ family: 'math', ...decl });
}

const WIDTH: Partial<Record<string, number>> = { BOOLEAN: 8, TINYINT: 8, SMALLINT: 16, INT: 32, BIGINT: 64, LARGEINT: 128 };

/** An integer argument keeps its type (its width matters); anything else is refused. */
function integerArg(name: string, t: DataType): DataType {
  if (t.name === 'NULL') return Types.BIGINT;
  if (!isIntegerType(t) && t.name !== 'BOOLEAN') throw badArgs(name, [t]);
  return t.name === 'BOOLEAN' ? Types.TINYINT : t;
}

/** A count of set bits of the value in two's complement at its type's width. */
function popCount(value: bigint, width: number): number {
  let bits = BigInt.asUintN(width, value);
  let count = 0;
  while (bits !== 0n) {
    bits &= bits - 1n;
    count++;
  }
  return count;
}

/** Decimal digits grouped by thousands: '1234567.5' -> '1,234,567.5'. */
function groupThousands(fixed: string): string {
  const negative = fixed.startsWith('-');
  const body = negative ? fixed.slice(1) : fixed;
  const dot = body.indexOf('.');
  const whole = dot < 0 ? body : body.slice(0, dot);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (negative ? '-' : '') + grouped + (dot < 0 ? '' : body.slice(dot));
}

/** x with `digits` decimals, half away from zero, grouped by thousands. */
function formatGrouped(value: number, digits: number): string {
  const factor = 10 ** digits;
  const scaled = Math.abs(value) * factor;
  const rounded = Math.round(scaled + (Number.EPSILON * scaled));
  const text = digits === 0 ? String(rounded) : (rounded / factor).toFixed(digits);
  return groupThousands((value < 0 && rounded !== 0 ? '-' : '') + text);
}

/** Round half to even at `digits` decimals (Doris's round_bankers). */
export function roundBankers(value: number, digits: number): number {
  const factor = 10 ** digits;
  const scaled = value * factor;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  const eps = 1e-9 * Math.max(1, Math.abs(scaled));
  let rounded: number;
  if (Math.abs(diff - 0.5) <= eps) rounded = floor % 2 === 0 ? floor : floor + 1;
  else rounded = Math.round(scaled);
  return rounded / factor;
}

/** erf(x) to double precision: its Taylor series below 2.5, else 1 - erfc by continued fraction. */
function erf(x: number): number {
  const ax = Math.abs(x);
  if (ax < 2.5) {
    let term = x;
    let sum = x;
    const x2 = x * x;
    for (let n = 1; n < 100; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  // erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...)))) (Lentz).
  let f = ax;
  for (let k = 60; k >= 1; k--) f = ax + k / 2 / f;
  const erfc = Math.exp(-ax * ax) / Math.sqrt(Math.PI) / f;
  return x > 0 ? 1 - erfc : erfc - 1;
}

/** SplitMix64 of a seed: a deterministic 64-bit value per seed (uniform's gen). */
function splitMix64(seed: bigint): bigint {
  let z = BigInt.asUintN(64, seed + 0x9e3779b97f4a7c15n);
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
}

const DATA_SIZE_UNITS: Readonly<Record<string, number>> = { B: 0, kB: 1, MB: 2, GB: 3, TB: 4, PB: 5, EB: 6, ZB: 7, YB: 8 };

/** Trino's / Doris's parse_data_size: '2.3MB' -> 2411724 (binary units, the fraction truncated). */
export function parseDataSize(text: string): bigint {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kMGTPEZY]?B)\s*$/.exec(text);
  if (match === null) throw galeneError('INVALID_ARGUMENT', `Invalid Input argument "${text}" of function parse_data_size`);
  const [whole, fraction = ''] = match[1].split('.');
  const unit = 1024n ** BigInt(DATA_SIZE_UNITS[match[2]]);
  const scale = 10n ** BigInt(fraction.length);
  return (BigInt(whole + fraction) * unit) / scale;
}

/** The 36-character UUID text of a 128-bit integer's little-endian bytes (Doris's int_to_uuid). */
export function intToUuid(value: bigint): string {
  let bits = BigInt.asUintN(128, value);
  let hex = '';
  for (let byteIdx = 0; byteIdx < 16; byteIdx++) {
    hex += Number(bits & 0xffn).toString(16).padStart(2, '0');
    bits >>= 8n;
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** {fmt}'s replacement fields as Doris's format() takes them: {}, {N}, {:spec} with .N, f, d, x, width. */
export function formatFields(pattern: string, values: readonly (string | number | null)[]): string {
  let next = 0;
  return pattern.replace(/\{\{|\}\}|\{(\d*)(?::([^}]*))?\}/g, (whole, index: string | undefined, spec: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const argIdx = index === undefined || index === '' ? next++ : Number(index);
    if (argIdx >= values.length) throw galeneError('INVALID_ARGUMENT', `argument not found in format string: ${pattern}`);
    const value = values[argIdx];
    let text = value === null ? 'NULL' : String(value);
    const parsed = spec === undefined ? null : /^([<>^]?)(\d*)(?:\.(\d+))?([fdxXeg]?)$/.exec(spec);
    if (spec !== undefined && parsed === null) throw galeneError('INVALID_ARGUMENT', `invalid format specifier: {:${spec}}`);
    if (parsed !== null && typeof value === 'number') {
      const [, , , precision, kind] = parsed;
      if (kind === 'x' || kind === 'X') text = Math.trunc(value).toString(16)[kind === 'X' ? 'toUpperCase' : 'toLowerCase']();
      else if (kind === 'd') text = String(Math.trunc(value));
      else if (kind === 'e') text = value.toExponential(precision === undefined ? 6 : Number(precision));
      else if (precision !== undefined) text = kind === 'f' ? value.toFixed(Number(precision)) : String(Number(value.toPrecision(Math.max(1, Number(precision)))));
    }
    if (parsed !== null && parsed[2] !== '') {
      const width = Number(parsed[2]);
      const align = parsed[1] || (typeof value === 'number' ? '>' : '<');
      const pad = Math.max(0, width - text.length);
      text = align === '<' ? text + ' '.repeat(pad) : align === '>' ? ' '.repeat(pad) + text : ' '.repeat(pad >> 1) + text + ' '.repeat(pad - (pad >> 1));
    }
    return text;
  });
}

/**
 * Raw bytes out per row from each row's bytes (null: NULL). Row by row, not mapStrings: its dictionary
 * path keeps JS strings, which bytes that are not UTF-8 do not survive.
 */
function bytesMapRows(vec: Vector, rowCount: number, site: CallSite, fn: (bytes: Uint8Array) => Uint8Array | null): Vector {
  const src = byteSource(vec);
  const out = new StringOut(site.returnType, rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const result = fn(src.bytes.subarray(src.starts[rowIdx], src.ends[rowIdx]));
    if (result === null) out.pushNull();
    else out.pushBytes(result, 0, result.length);
  }
  return out.finish();
}

const objectVector = (type: DataType, values: bigint[], nulls: Uint8Array | null = null): ObjectVector => ({ kind: 'object', type, length: values.length, values, nulls });

/** Per-row JS values of an argument for format(): numbers stay numbers. */
function formatValues(vec: Vector): (string | number | null)[] {
  if (vec.type.name === 'DOUBLE' || vec.type.name === 'FLOAT' || vec.type.name === 'DECIMAL' || (isIntegerType(vec.type) && vec.type.name !== 'LARGEINT' && vec.type.name !== 'BIGINT')) {
    const values = toF64(vec);
    return Array.from(values, (value, rowIdx) => (vec.nulls !== null && vec.nulls[rowIdx] === 1 ? null : value));
  }
  return toJsStrings(vec);
}

function shiftKernel(left: boolean) {
  return (args: readonly Vector[], rowCount: number) => {
    const values = toBigScaled(args[0], 0);
    const shifts = toF64(args[1]);
    const out = new BigInt64Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const shift = shifts[rowIdx];
      if (shift < 0 || shift >= 64) continue;
      const bits = BigInt.asUintN(64, values[rowIdx]);
      out[rowIdx] = BigInt.asIntN(64, left ? bits << BigInt(shift) : bits >> BigInt(shift));
    }
    return fixedVector(Types.BIGINT, out);
  };
}

export const MISC_SCALAR_FUNCTIONS: readonly FunctionDef[] = [
  str({
    name: 'multi_search_all_positions',
    args: [arg('haystack', 'STRING'), arg('needles')],
    returns: Types.array(Types.INT),
    resolve: () => ({ argTypes: [Types.STRING, Types.array(Types.STRING)], returnType: Types.array(Types.INT) }),
    kernel: (args, rowCount, site) => {
      const src = byteSource(args[0]);
      const lists = stringLists(args[1]);
      const rows: RawValue[] = new Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const haystack = Buffer.from(src.bytes.buffer, src.bytes.byteOffset + src.starts[rowIdx], src.ends[rowIdx] - src.starts[rowIdx]);
        rows[rowIdx] = (lists[rowIdx] ?? []).map((needle) => (needle === null ? null : haystack.indexOf(needle) + 1));
      }
      return vectorFromValues(site.returnType, rows);
    },
    description: 'For each needle, the 1-based byte position of its first occurrence in the string (0 when absent), as an array.',
    example: "SELECT multi_search_all_positions('Hello, World!', ['hello', '!', 'world'])",
  }),
  str({
    name: 'bit_length',
    args: [arg('str', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) => fixedVector(Types.INT, mapRanges('(end - start) * 8', args[0], new Int32Array(rowCount), rowCount)),
    description: 'Length of the string in bits (8 per UTF-8 byte).',
    example: "SELECT bit_length('abc'), bit_length('中国')",
  }),
  num({
    name: 'bitcount',
    args: [arg('x')],
    returns: 'TINYINT (SMALLINT for LARGEINT)',
    resolve: (types) => {
      const t = integerArg('bitcount', types[0]);
      return { argTypes: [t], returnType: t.name === 'LARGEINT' ? Types.SMALLINT : Types.TINYINT };
    },
    kernel: (args, rowCount, site) => {
      const values = toBigScaled(args[0], 0);
      const width = WIDTH[site.argTypes[0].name] ?? 64;
      const out = site.returnType.name === 'SMALLINT' ? new Int16Array(rowCount) : new Int8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = popCount(values[rowIdx], width);
      return fixedVector(site.returnType, out);
    },
    description: "Number of 1 bits of the integer in two's complement at its type's width.",
    example: 'SELECT bitcount(8), bitcount(CAST(-1 AS TINYINT)), bitcount(-1)',
  }),
  num({
    name: 'bit_test',
    aliases: ['bit_test_all'],
    args: [arg('x'), rest('bit', 'INT')],
    returns: Types.TINYINT,
    resolve: (types) => ({ argTypes: [integerArg('bit_test', types[0]), ...types.slice(1).map(() => Types.INT)], returnType: Types.TINYINT }),
    kernel: (args, rowCount, site) => {
      const values = toBigScaled(args[0], 0);
      const width = WIDTH[site.argTypes[0].name] ?? 64;
      const positions = args.slice(1).map(toF64);
      const out = new Int8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const bits = BigInt.asUintN(width, values[rowIdx]);
        let all = 1;
        for (const column of positions) {
          const pos = column[rowIdx];
          if (pos < 0 || pos >= width || ((bits >> BigInt(pos)) & 1n) === 0n) all = 0;
        }
        out[rowIdx] = all;
      }
      return fixedVector(Types.TINYINT, out);
    },
    description: 'Whether the bits at the given 0-based positions (counted from the right) are all 1, as 1 or 0; a position outside the type gives 0.',
    example: 'SELECT bit_test(43, 1), bit_test(43, 2), bit_test(43, 0, 1, 3, 5)',
  }),
  num({
    name: 'bitshiftleft',
    args: [arg('x', 'BIGINT'), arg('n', 'INT')],
    returns: Types.BIGINT,
    kernel: shiftKernel(true),
    description: 'x shifted left by n bits as a 64-bit integer; 0 when n is negative or 64 or more.',
    example: 'SELECT bitshiftleft(1, 10), bitshiftleft(-1, 63)',
  }),
  num({
    name: 'bitshiftright',
    args: [arg('x', 'BIGINT'), arg('n', 'INT')],
    returns: Types.BIGINT,
    kernel: shiftKernel(false),
    description: 'x shifted right by n bits, zeros in from the left (a logical shift of the 64-bit value); 0 when n is negative or 64 or more.',
    example: 'SELECT bitshiftright(1024, 3), bitshiftright(-1, 1)',
  }),
  num({
    name: 'round_bankers',
    args: [arg('x', 'DOUBLE'), opt('d', 'INT')],
    returns: Types.DOUBLE,
    kernel: (args, rowCount) => {
      const values = toF64(args[0]);
      const digits = args.length > 1 ? toF64(args[1]) : null;
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = roundBankers(values[rowIdx], digits === null ? 0 : digits[rowIdx]);
      return fixedVector(Types.DOUBLE, out);
    },
    description: "x rounded to d decimals (default 0), a tie going to the even neighbour (banker's rounding).",
    example: 'SELECT round_bankers(0.5), round_bankers(1.5), round_bankers(2.5), round_bankers(10.755, 2)',
  }),
  str({
    name: 'format_round',
    args: [arg('x', 'DOUBLE'), arg('d', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const values = toF64(args[0]);
      const digits = toF64(args[1]);
      const out = new StringOut(site.returnType, rowCount);
      const nulls = orNulls(args.map((vec) => vec.nulls), rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const d = digits[rowIdx];
        if (nulls !== null && nulls[rowIdx] === 1) {
          out.pushNull();
          continue;
        }
        if (d < 0) throw galeneError('INVALID_ARGUMENT', `The second argument is ${d}, it should be an integer greater than or equal to 0`);
        out.push(formatGrouped(values[rowIdx], d));
      }
      return out.finish();
    },
    description: "x rounded to d decimals (half away from zero) and written '#,###,###.##'.",
    example: 'SELECT format_round(17014116, 2), format_round(1123.456, 2), format_round(1123.4, 2)',
  }),
  str({
    name: 'auto_partition_name',
    args: [arg('mode', 'STRING'), rest('value', 'STRING')],
    signature: "auto_partition_name('range', unit, datetime) | auto_partition_name('list', value[, value ...]) -> VARCHAR",
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const texts = args.map(toJsStrings);
      const out = new StringOut(site.returnType, rowCount);
      // NULL rows hold don't-care values: skip them before the argument checks.
      const nulls = orNulls(args.map((vec) => vec.nulls), rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(nulls !== null && nulls[rowIdx] === 1 ? '' : autoPartitionName(texts.map((column) => column[rowIdx] ?? '')));
      return out.finish();
    },
    description: "The name AUTO PARTITION gives the partition of a value: RANGE — p + the datetime truncated to unit (year, month, day, hour, minute, second) as yyyyMMddHHmmss; LIST — p + the values (other characters than letters and digits as hex code points), each followed by its length.",
    example: "SELECT auto_partition_name('range', 'day', '2022-12-12 19:20:30'), auto_partition_name('list', 'helloworld')",
  }),
  str({
    name: 'format_number',
    args: [arg('val', 'DOUBLE')],
    returns: Types.STRING,
    kernel: doublesAsText(withUnitSymbol),
    description: 'The number with a unit symbol and two decimals: K (thousand), M (million), B (billion), T (trillion), Q (quadrillion); below 1000 as it is.',
    example: 'SELECT format_number(1500), format_number(5000000), format_number(999)',
  }),
  str({
    name: 'money_format',
    args: [arg('x', 'DOUBLE')],
    returns: Types.STRING,
    kernel: doublesAsText((value) => formatGrouped(value, 2)),
    description: "x as money: two decimals (half away from zero), thousands grouped ('17,014,116.67').",
    example: 'SELECT money_format(17014116.67), money_format(-123.456), money_format(1123.4)',
  }),
  num({
    name: 'width_bucket',
    args: [arg('expr', 'DOUBLE'), arg('min', 'DOUBLE'), arg('max', 'DOUBLE'), arg('buckets', 'BIGINT')],
    returns: Types.BIGINT,
    kernel: (args, rowCount) => {
      const [x, lo, hi] = args.slice(0, 3).map(toF64);
      const buckets = toF64(args[3]);
      const out = new BigInt64Array(rowCount);
      // NULL rows hold don't-care values: skip them before the argument checks.
      const nulls = orNulls(args.map((vec) => vec.nulls), rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx] === 1) continue;
        const count = buckets[rowIdx];
        if (!(count > 0)) throw galeneError('INVALID_ARGUMENT', `The fourth argument of width_bucket must be a positive integer, got ${count}`);
        const min = lo[rowIdx];
        const max = hi[rowIdx];
        if (!(min < max)) throw galeneError('INVALID_ARGUMENT', `The second argument of width_bucket must be less than the third, got ${min} and ${max}`);
        const value = x[rowIdx];
        const bucket = value < min ? 0 : value >= max ? count + 1 : Math.floor(((value - min) / (max - min)) * count) + 1;
        out[rowIdx] = BigInt(bucket);
      }
      return fixedVector(Types.BIGINT, out);
    },
    description: 'The bucket (1..buckets) of expr in buckets equal-width buckets over [min, max); 0 below min, buckets + 1 at or above max.',
    example: 'SELECT width_bucket(5.35, 0.024, 10.06, 5), width_bucket(-1, 0, 10, 5), width_bucket(10, 0, 10, 5)',
  }),
  num({
    name: 'interval',
    args: [arg('n', 'BIGINT'), rest('threshold', 'BIGINT')],
    returns: Types.INT,
    kernel: (args, rowCount) => {
      const values = toBigScaled(args[0], 0);
      const thresholds = args.slice(1).map((vec) => toBigScaled(vec, 0));
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        // Binary search for the first threshold above n, as Doris and MySQL do (the thresholds are meant ascending).
        const value = values[rowIdx];
        let lo = 0;
        let hi = thresholds.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (thresholds[mid][rowIdx] <= value) lo = mid + 1;
          else hi = mid;
        }
        out[rowIdx] = lo;
      }
      return fixedVector(Types.INT, out);
    },
    description: 'The 0-based position of the first threshold greater than n (the thresholds in ascending order), the number of thresholds when none is; NULL when any argument is NULL.',
    example: 'SELECT interval(3, 1, 10, 100), interval(0, 1, 10, 100), interval(500, 1, 10, 100)',
  }),
  num({
    name: 'normal_cdf',
    args: [arg('mean', 'DOUBLE'), arg('sd', 'DOUBLE'), arg('x', 'DOUBLE')],
    returns: Types.DOUBLE,
    kernel: (args, rowCount) => {
      const [mean, sd, x] = args.map(toF64);
      return valuesOrNulls(Types.DOUBLE, new Float64Array(rowCount), rowCount, (rowIdx) => (sd[rowIdx] > 0 && Number.isFinite(sd[rowIdx]) ? 0.5 * (1 + erf((x[rowIdx] - mean[rowIdx]) / (sd[rowIdx] * Math.SQRT2))) : null));
    },
    description: 'The cumulative distribution function of the normal distribution N(mean, sd) at x; NULL when sd is not positive.',
    example: 'SELECT normal_cdf(10, 9, 10), normal_cdf(0, 1, 1.96)',
  }),
  num({
    name: 'uniform',
    args: [arg('min'), arg('max'), arg('gen', 'BIGINT')],
    returns: 'BIGINT | DOUBLE',
    resolve: (types) => {
      const integral = types.slice(0, 2).every((t) => isIntegerType(t) || t.name === 'BOOLEAN' || t.name === 'NULL');
      const bound = integral ? Types.BIGINT : Types.DOUBLE;
      return { argTypes: [bound, bound, Types.BIGINT], returnType: bound };
    },
    kernel: (args, rowCount, site) => {
      if (!site.isConst[0] || !site.isConst[1]) throw galeneError('INVALID_ARGUMENT', 'The first two arguments of uniform must be constant');
      const gens = toBigScaled(args[2], 0);
      const integral = site.returnType.name === 'BIGINT';
      const [lo, hi] = [toF64(args[0])[0], toF64(args[1])[0]];
      const out = integral ? new BigInt64Array(rowCount) : new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const unit = Number(splitMix64(gens[rowIdx]) >> 11n) / 2 ** 53;
        if (integral) (out as BigInt64Array)[rowIdx] = BigInt(Math.floor(lo + unit * (hi - lo + 1)));
        else (out as Float64Array)[rowIdx] = lo + unit * (hi - lo);
      }
      return fixedVector(site.returnType, out);
    },
    description: 'A pseudo-random number in [min, max] (integers) or [min, max) (otherwise), the same for the same gen: uniform(1, 10, random()) differs per row.',
    example: 'SELECT uniform(1, 100, 42), uniform(1, 100, 42) = uniform(1, 100, 42)',
  }),
  num({
    name: 'uuid_numeric',
    args: [],
    returns: Types.LARGEINT,
    volatility: 'row',
    kernel: (_args, rowCount) => {
      const values: bigint[] = new Array(rowCount);
      const bytes = randomBytes(16 * rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) values[rowIdx] = BigInt.asIntN(128, BigInt('0x' + bytes.subarray(rowIdx * 16, rowIdx * 16 + 16).toString('hex')));
      return objectVector(Types.LARGEINT, values);
    },
    description: 'A random 128-bit integer (LARGEINT), different on every row.',
    example: 'SELECT uuid_numeric() IS NOT NULL',
  }),
  str({
    name: 'int_to_uuid',
    args: [arg('x')],
    returns: Types.varchar(36),
    resolve: () => ({ argTypes: [Types.LARGEINT], returnType: Types.varchar(36) }),
    kernel: (args, rowCount, site) => {
      const values = toBigScaled(args[0], 0);
      const out = new StringOut(site.returnType, rowCount, rowCount * 36);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(intToUuid(values[rowIdx]));
      return out.finish();
    },
    description: "The UUID text of a 128-bit integer's 16 little-endian bytes.",
    example: 'SELECT int_to_uuid(95721955514869408091759290071393952876)',
  }),
  str({
    name: 'parse_data_size',
    args: [arg('str', 'STRING')],
    returns: Types.LARGEINT,
    kernel: (args, rowCount) => objectVector(Types.LARGEINT, toJsStrings(args[0]).map((text) => (text === null ? 0n : parseDataSize(text)))),
    description: "Bytes of a data size with a unit (B, kB, MB, GB, TB, PB, EB, ZB, YB, powers of 1024; a fraction truncates): '2.3MB' is 2411724.",
    example: "SELECT parse_data_size('1kB'), parse_data_size('2.3MB')",
  }),
  str({
    name: 'compress',
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) =>
      bytesMapRows(args[0], rowCount, site, (bytes) => {
        if (bytes.length === 0) return bytes;
        const packed = deflateSync(bytes);
        const framed = Buffer.alloc(4 + packed.length);
        framed.writeUInt32LE(bytes.length, 0);
        framed.set(packed, 4);
        return framed;
      }),
    description: "MySQL's COMPRESS: the length as 4 little-endian bytes, then the zlib stream (raw bytes); '' stays ''.",
    example: "SELECT hex(compress('abc')), uncompress(compress('abc'))",
  }),
  str({
    name: 'uncompress',
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) =>
      bytesMapRows(args[0], rowCount, site, (bytes) => {
        if (bytes.length === 0) return bytes;
        if (bytes.length < 4) return null;
        try {
          const plain = inflateSync(bytes.subarray(4));
          return Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32LE(0) === plain.length ? plain : null;
        } catch {
          return null;
        }
      }),
    description: 'The bytes compress() packed; NULL for anything it did not make.',
    example: "SELECT uncompress(compress('Doris'))",
  }),
  str({
    name: 'to_hex',
    args: [arg('bin', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => mapStrings(args[0], rowCount, site, (bytes, start, end, out) => out.push(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('hex').toUpperCase())),
    description: 'The bytes of a binary (or string) value as upper-case hex digits.',
    example: "SELECT to_hex(from_hex('0aff')), to_hex('abc')",
  }),
  str({
    name: 'from_hex',
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => bytesRows(args, rowCount, site, (text) => (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text) ? null : Buffer.from(text, 'hex'))),
    description: 'The bytes that pairs of hex digits denote; NULL for an odd length or a non-hex character.',
    example: "SELECT from_hex('616263')",
  }),
  str({
    name: 'sub_binary',
    args: [arg('bin', 'STRING'), arg('pos', 'BIGINT'), opt('len', 'BIGINT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const src = byteSource(args[0]);
      const positions = toF64(args[1]);
      const lengths = args.length > 2 ? toF64(args[2]) : null;
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const start = src.starts[rowIdx];
        const size = src.ends[rowIdx] - start;
        const pos = positions[rowIdx];
        const from = pos > 0 ? pos - 1 : pos < 0 ? size + pos : size;
        const len = lengths === null ? size : lengths[rowIdx];
        if (from < 0 || from >= size || len <= 0) out.pushBytes(src.bytes, start, start);
        else out.pushBytes(src.bytes, start + from, start + Math.min(size, from + len));
      }
      return out.finish();
    },
    description: 'len bytes (default: to the end) from the 1-based byte position pos (negative counts from the end).',
    example: "SELECT to_hex(sub_binary(from_hex('0a0b0c0d'), 2, 2))",
  }),
  str({
    name: 'format',
    args: [arg('pattern', 'STRING'), rest('arg', undefined, true)],
    returns: Types.STRING,
    resolve: (types) => ({ argTypes: [Types.STRING, ...types.slice(1).map((t) => (t.name === 'NULL' ? Types.STRING : t))], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const patterns = toJsStrings(args[0]);
      const values = args.slice(1).map(formatValues);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(formatFields(patterns[rowIdx] ?? '', values.map((column) => column[rowIdx])));
      return out.finish();
    },
    description: "The pattern with its {fmt} fields replaced: {} (the next argument), {N} (the N-th, from 0), {:.Nf} / {:.N} (N decimals / significant digits), {:d}, {:x}, {:e} and a width with < > ^ alignment.",
    example: "SELECT format('{:.2f}', pi()), format('{0}-{1}-{0}', 'a', 'b'), format('{:>6}|', 42)",
  }),
];
