/**
 * castVector: every type to every sensible type, in two modes.
 *
 * 'sql' is Doris's non-strict CAST: a value that does not convert (bad text, out of range) becomes NULL.
 * 'insert' is the load/INSERT path: the first row that does not fit throws OUT_OF_RANGE, DATA_TOO_LONG or
 * INVALID_VALUE naming the column and the 1-based row number, so a bad row changes nothing.
 *
 * Doris compatibility: CAST(double AS INT) and CAST(decimal AS INT) truncate toward zero; casts into a
 * DECIMAL round half away from zero; DATE -> INT gives yyyymmdd and DATETIME -> BIGINT yyyymmddhhmmss;
 * strings parse through common/convert.parseValue so text converts the same everywhere.
 */
import { compactArray, decodeUtf8, getRaw, newFixedArray, RawValue, Vector, VectorBuilder, type ArrayVector, type StructVector } from '../../common/column';
import { formatValue, parseDecimalScaled, ParseFailure, parseValue, pow10 } from '../../common/convert';
import { MICROS_PER_DAY } from '../../common/datetime';
import { GaleneError } from '../../common/errors';
import { ipv4AsIpv6, ipv6ToStored } from '../../common/ip';
import { canonicalJsonText, quoteJsonString } from '../../common/json-value';
import { jsCharCount } from '../../common/utf8';
import { DataType, isIntegerType, isSketchType, isStringType, isWideDecimal, physicalKind, structFields, Types, typesEqual, typeToSql, VARCHAR_MAX_LENGTH } from '../../common/types';
import type { CastMode } from '../expr-api';
import { bigDivRound, i64FromNumbers, nullVector, StringOut, toF64, toJsStrings } from './vector-ops';

type Family = 'null' | 'bool' | 'int' | 'float' | 'decimal' | 'date' | 'datetime' | 'string' | 'array' | 'map' | 'struct' | 'ip';

function familyOf(t: DataType): Family {
  switch (t.name) {
    case 'NULL':
      return 'null';
    case 'BOOLEAN':
      return 'bool';
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
    case 'LARGEINT':
      return 'int';
    case 'FLOAT':
    case 'DOUBLE':
      return 'float';
    case 'DECIMAL':
      return 'decimal';
    case 'DATE':
      return 'date';
    case 'DATETIME':
      return 'datetime';
    case 'ARRAY':
      return 'array';
    case 'MAP':
      return 'map';
    case 'STRUCT':
      return 'struct';
    case 'IPV4':
    case 'IPV6':
      return 'ip';
    default:
      return 'string';
  }
}

const INT_LIMITS: Record<string, [number, number]> = {
  BOOLEAN: [0, 1],
  TINYINT: [-128, 127],
  SMALLINT: [-32768, 32767],
  INT: [-2147483648, 2147483647],
};
const BIG_LIMITS: Record<string, [bigint, bigint]> = {
  BIGINT: [-(2n ** 63n), 2n ** 63n - 1n],
  LARGEINT: [-(2n ** 127n), 2n ** 127n - 1n],
};

/** The word MySQL puts in "Incorrect <word> value" for a target type. */
function valueWord(t: DataType): string {
  if (t.name === 'JSON') return 'json';
  switch (familyOf(t)) {
    case 'decimal':
      return 'decimal';
    case 'float':
      return 'double';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'string':
      return 'string';
    case 'array':
      return 'array';
    case 'map':
      return 'map';
    case 'struct':
      return 'struct';
    case 'ip':
      return t.name.toLowerCase();
    default:
      return 'integer';
  }
}

/** Records conversion failures: NULL in 'sql' mode, the Doris error in 'insert' mode. */
class FailureSink {
  nulls: Uint8Array | null;
  constructor(
    readonly mode: CastMode,
    private readonly target: DataType,
    private readonly columnName: string,
    private readonly firstRowNumber: number,
    sourceNulls: Uint8Array | null,
    private readonly length: number,
  ) {
    this.nulls = sourceNulls;
  }

  fail(rowIdx: number, failure: ParseFailure, text: () => string): void {
    if (this.mode === 'insert') {
      const row = this.firstRowNumber + rowIdx;
      if (failure === 'out_of_range') throw new GaleneError('OUT_OF_RANGE', [this.columnName, row]);
      if (failure === 'too_long') throw new GaleneError('DATA_TOO_LONG', [this.columnName, row]);
      throw new GaleneError('INVALID_VALUE', [valueWord(this.target), text(), this.columnName, row]);
    }
    this.setNull(rowIdx);
  }

  setNull(rowIdx: number): void {
    if (!this.owned) {
      const copy = new Uint8Array(this.length);
      if (this.nulls !== null) copy.set(this.nulls.subarray(0, this.length));
      this.nulls = copy;
      this.owned = true;
    }
    this.nulls![rowIdx] = 1;
  }
  private owned = false;
}

function truncateChars(text: string, limit: number): string {
  let count = 0;
  for (let charIdx = 0; charIdx < text.length; charIdx++) {
    const code = text.charCodeAt(charIdx);
    if (code < 0xdc00 || code > 0xdfff) {
      if (count === limit) return text.slice(0, charIdx);
      count++;
    }
  }
  return text;
}

/**
 * Convert a vector to `target`. 'insert' mode throws on the first row that does not fit (row numbers
 * count from `firstRowNumber`); 'sql' mode turns such values into NULL.
 */
export function castVector(vec: Vector, target: DataType, mode: CastMode = 'sql', columnName = '', firstRowNumber = 1): Vector {
  if (typesEqual(vec.type, target)) return vec;
  const length = vec.length;
  const srcFamily = familyOf(vec.type);
  const dstFamily = familyOf(target);
  if (srcFamily === 'null' || dstFamily === 'null') return nullVector(target, length);
  if ((srcFamily === 'array' && dstFamily === 'array') || (srcFamily === 'map' && dstFamily === 'map')) return castArray(vec, target, mode, columnName, firstRowNumber);
  if (srcFamily === 'struct' && dstFamily === 'struct' && structFields(vec.type).length === structFields(target).length) return castStruct(vec, target, mode, columnName, firstRowNumber);
  const complex = (family: Family): boolean => family === 'array' || family === 'map' || family === 'struct';
  // Doris: a BITMAP / HLL state casts to nothing and nothing casts to one (only its functions build it).
  if (isSketchType(vec.type) || isSketchType(target) || (complex(srcFamily) && dstFamily !== 'string') || (complex(dstFamily) && srcFamily !== 'string')) {
    throw new GaleneError('TYPE_MISMATCH', [`can not cast from origin type ${typeToSql(vec.type)} to target type=${typeToSql(target)}`]);
  }
  if ((srcFamily === 'ip' || dstFamily === 'ip') && srcFamily !== 'string' && dstFamily !== 'string') return castIp(vec, target);
  const sink = new FailureSink(mode, target, columnName, firstRowNumber, vec.nulls, length);
  if (target.name === 'JSON') return castToJson(vec, target, sink);
  if (vec.type.name === 'JSON' && dstFamily === 'string') return castToString({ ...vec, type: Types.STRING } as Vector, target, sink);
  if (dstFamily === 'string') return castToString(vec, target, sink);
  if (srcFamily === 'string') return castFromString(vec, target, sink);
  return castBetweenNonStrings(vec, target, sink);
}

/**
 * Casts of an address type to or from a non-string: IPV4 -> IPV6 (IPv4-mapped), IPV4 <-> integers
 * (the address number); anything else is Doris's cast error.
 */
function castIp(vec: Vector, target: DataType): Vector {
  const length = vec.length;
  if (vec.type.name === 'IPV4' && target.name === 'IPV6') {
    const values = toF64(vec);
    const out: bigint[] = new Array(length);
    for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = ipv6ToStored(ipv4AsIpv6(values[rowIdx])!);
    return { kind: 'object', type: target, length, values: out, nulls: vec.nulls };
  }
  if (vec.type.name === 'IPV4' && (target.name === 'BIGINT' || target.name === 'LARGEINT')) {
    return castVector({ ...vec, type: Types.DOUBLE } as Vector, target);
  }
  if (target.name === 'IPV4' && familyOf(vec.type) === 'int') {
    const wide = castVector(vec, Types.DOUBLE);
    const values = toF64(wide);
    const out = new Float64Array(length);
    let nulls = wide.nulls;
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      const value = values[rowIdx];
      if (value >= 0 && value <= 0xffffffff) out[rowIdx] = value;
      else {
        nulls = nulls === null ? new Uint8Array(length) : nulls === wide.nulls ? Uint8Array.from(nulls) : nulls;
        nulls[rowIdx] = 1;
      }
    }
    return { kind: 'fixed', type: target, length, values: out, nulls };
  }
  throw new GaleneError('TYPE_MISMATCH', [`can not cast from origin type ${typeToSql(vec.type)} to target type=${typeToSql(target)}`]);
}

/** ARRAY<x> to ARRAY<y>: the elements convert (offsets and the rows' null map stay). */
function castArray(vec: Vector, target: DataType, mode: CastMode, columnName: string, firstRowNumber: number): Vector {
  const list = compactArray(vec as ArrayVector);
  const child = castVector(list.child, target.element ?? list.child.type, mode, columnName, firstRowNumber);
  return { kind: 'array', type: target, length: list.length, offsets: list.offsets, child, nulls: list.nulls };
}

/** STRUCT to STRUCT of as many fields: each field converts by position and takes the target's name. */
function castStruct(vec: Vector, target: DataType, mode: CastMode, columnName: string, firstRowNumber: number): Vector {
  const source = vec as StructVector;
  const children = structFields(target).map((field, fieldIdx) => castVector(source.children[fieldIdx], field.type, mode, columnName, firstRowNumber));
  return { kind: 'struct', type: target, length: source.length, children, nulls: source.nulls };
}

function castToString(vec: Vector, target: DataType, sink: FailureSink): Vector {
  const limit = target.name === 'STRING' ? Infinity : target.length ?? VARCHAR_MAX_LENGTH;
  const srcIsString = isStringType(vec.type);
  if (srcIsString && (limit === Infinity || (vec.type.name !== 'STRING' && (vec.type.length ?? VARCHAR_MAX_LENGTH) <= limit))) {
    return { ...vec, type: target } as Vector;
  }
  const length = vec.length;
  if (vec.kind === 'dict') {
    // Check / convert each dictionary entry once.
    const dict = vec.dict.map((entry) => (jsCharCount(entry) > limit ? null : entry));
    if (sink.mode === 'insert' && dict.some((entry) => entry === null)) {
      for (let rowIdx = 0; rowIdx < length; rowIdx++) {
        if (vec.nulls !== null && vec.nulls[rowIdx]) continue;
        const entry = vec.dict[vec.codes[rowIdx]];
        if (dict[vec.codes[rowIdx]] === null) sink.fail(rowIdx, 'too_long', () => entry);
      }
    }
    const fixedDict = vec.dict.map((entry) => truncateChars(entry, limit));
    return { kind: 'dict', type: target, length, codes: vec.codes, dict: fixedDict, nulls: sink.nulls };
  }
  const texts = srcIsString ? toJsStrings(vec) : formatAll(vec);
  const out = new StringOut(target, length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    let text = texts[rowIdx];
    if (text === null) {
      out.push('');
      continue;
    }
    if (limit !== Infinity && text.length > limit && jsCharCount(text) > limit) {
      // INSERT rejects the row; CAST truncates to the declared length (MySQL CAST AS CHAR(n)).
      if (sink.mode === 'insert') sink.fail(rowIdx, 'too_long', () => text!);
      text = truncateChars(text, limit);
    }
    out.push(text);
  }
  return { ...out.finish(), nulls: sink.nulls };
}

/**
 * Into JSON: text is parsed and stored in canonical form (invalid text: NULL for CAST, the row's error
 * for INSERT); booleans become true/false, numbers stay numbers, other values become JSON strings.
 */
function castToJson(vec: Vector, target: DataType, sink: FailureSink): Vector {
  const length = vec.length;
  const fromText = isStringType(vec.type);
  const family = familyOf(vec.type);
  const texts = fromText ? toJsStrings(vec) : formatAll(vec);
  const out = new StringOut(target, length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    const text = texts[rowIdx];
    if (text === null) {
      out.push('');
      continue;
    }
    if (!fromText) {
      if (family === 'bool') out.push(text === '1' ? 'true' : 'false');
      else if (family === 'int' || family === 'float' || family === 'decimal') out.push(text);
      else out.push(quoteJsonString(text));
      continue;
    }
    const canonical = canonicalJsonText(text);
    if (canonical === null) {
      sink.fail(rowIdx, 'invalid', () => text);
      out.push('');
    } else out.push(canonical);
  }
  return { ...out.finish(), nulls: sink.nulls };
}

function formatAll(vec: Vector): (string | null)[] {
  const out = new Array<string | null>(vec.length);
  const type = vec.type;
  const nulls = vec.nulls;
  if (vec.kind === 'fixed' && isIntegerType(type) && !(vec.values instanceof BigInt64Array)) {
    const values = vec.values as Float64Array;
    for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out[rowIdx] = nulls !== null && nulls[rowIdx] ? null : String(values[rowIdx]);
    return out;
  }
  if (vec.kind === 'array' || vec.kind === 'struct') {
    for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out[rowIdx] = nulls !== null && nulls[rowIdx] ? null : formatValue(type, getRaw(vec, rowIdx));
    return out;
  }
  const values = (vec as { values: ArrayLike<number | bigint> }).values;
  for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out[rowIdx] = nulls !== null && nulls[rowIdx] ? null : formatValue(type, values[rowIdx]);
  return out;
}

function castFromString(vec: Vector, target: DataType, sink: FailureSink): Vector {
  const length = vec.length;
  const builder = new VectorBuilder(target, length);
  if (vec.kind === 'dict') {
    const parsed = vec.dict.map((entry) => parseValue(target, entry));
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      if (vec.nulls !== null && vec.nulls[rowIdx]) {
        builder.append(null);
        continue;
      }
      const code = vec.codes[rowIdx];
      const result = parsed[code];
      if (result.failure !== null) {
        sink.fail(rowIdx, result.failure, () => vec.dict[code]);
        builder.append(null);
      } else builder.append(result.value);
    }
  } else {
    const texts = toJsStrings(vec);
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      const text = texts[rowIdx];
      if (text === null) {
        builder.append(null);
        continue;
      }
      const result = parseValue(target, text);
      if (result.failure !== null) {
        sink.fail(rowIdx, result.failure, () => text);
        builder.append(null);
      } else builder.append(result.value);
    }
  }
  const out = builder.finish();
  return { ...out, nulls: mergeNulls(out.nulls, sink.nulls, length) } as Vector;
}

function mergeNulls(a: Uint8Array | null, b: Uint8Array | null, length: number): Uint8Array | null {
  if (a === null) return b;
  if (b === null) return a;
  const out = new Uint8Array(length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = a[rowIdx] | b[rowIdx];
  return out;
}

/** Integer quotient rounded half away from zero, exact for integers below 2^53. */
export function divRoundHalfAway(value: number, divisor: number): number {
  let quotient = Math.trunc(value / divisor);
  let remainder = value - quotient * divisor;
  // Correct a float quotient that landed one off.
  if (value >= 0) {
    if (remainder < 0) {
      quotient -= 1;
      remainder += divisor;
    } else if (remainder >= divisor) {
      quotient += 1;
      remainder -= divisor;
    }
    return remainder * 2 >= divisor ? quotient + 1 : quotient;
  }
  if (remainder > 0) {
    quotient += 1;
    remainder -= divisor;
  } else if (-remainder >= divisor) {
    quotient -= 1;
    remainder += divisor;
  }
  return -remainder * 2 >= divisor ? quotient - 1 : quotient;
}

/** Digits-only number of a date / datetime (Doris: DATE -> 20240131, DATETIME -> 20240131235959). */
function temporalAsNumber(type: DataType, raw: number): number {
  if (type.name === 'DATE') return Number(formatValue(type, raw)!.replace(/-/g, ''));
  return Number(formatValue({ name: 'DATETIME' }, raw)!.replace(/[-: ]/g, ''));
}

/**
 * Numeric / temporal / boolean conversions. The source is read either as exact bigint (BIGINT, LARGEINT,
 * wide DECIMAL) or as numbers; each target writes straight into its typed array.
 */
function castBetweenNonStrings(vec: Vector, target: DataType, sink: FailureSink): Vector {
  const length = vec.length;
  const src = vec.type;
  const srcFamily = familyOf(src);
  const dstFamily = familyOf(target);
  const srcScale = src.name === 'DECIMAL' ? src.scale ?? 0 : 0;
  const nulls = vec.nulls;
  const srcBig = vec.kind === 'object' || (vec.kind === 'fixed' && vec.values instanceof BigInt64Array);
  const bigValues = srcBig ? (vec as { values: ArrayLike<bigint> }).values : null;
  const numValues = srcBig ? null : ((vec as { values: ArrayLike<number> }).values);
  const isNullRow = (rowIdx: number): boolean => nulls !== null && nulls[rowIdx] === 1;
  const srcText = (rowIdx: number): string => formatValue(src, srcBig ? bigValues![rowIdx] : numValues![rowIdx]) ?? '';

  // Temporal targets.
  if (dstFamily === 'date' || dstFamily === 'datetime') {
    const out = newFixedArray(physicalKind(target), length) as Float64Array;
    const dstScale = target.scale ?? 0;
    const unit = 10 ** (6 - dstScale);
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      if (isNullRow(rowIdx)) continue;
      if (srcFamily === 'date') {
        out[rowIdx] = dstFamily === 'date' ? numValues![rowIdx] : numValues![rowIdx] * MICROS_PER_DAY;
      } else if (srcFamily === 'datetime') {
        const micros = numValues![rowIdx];
        out[rowIdx] = dstFamily === 'date' ? Math.floor(micros / MICROS_PER_DAY) : Math.floor(micros / unit) * unit;
      } else {
        // Numbers: 20240131 / 20240131235959 as text.
        const text = srcText(rowIdx).replace(/\..*$/, '');
        const parsed = parseValue(target, text);
        if (parsed.failure !== null) sink.fail(rowIdx, 'invalid', () => text);
        else out[rowIdx] = parsed.value as number;
      }
    }
    return { kind: 'fixed', type: target, length, values: out as never, nulls: sink.nulls };
  }

  // Read a source row as a number (real value) or as an exact scaled bigint.
  const numberAt = (rowIdx: number): number => {
    if (srcBig) return Number(bigValues![rowIdx]) / pow10(srcScale);
    const raw = numValues![rowIdx];
    if (srcFamily === 'date' || srcFamily === 'datetime') return temporalAsNumber(src, raw);
    return srcScale > 0 ? raw / pow10(srcScale) : raw;
  };

  if (dstFamily === 'bool') {
    const out = new Uint8Array(length);
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      if (isNullRow(rowIdx)) continue;
      out[rowIdx] = srcBig ? (bigValues![rowIdx] !== 0n ? 1 : 0) : numValues![rowIdx] !== 0 ? 1 : 0;
    }
    return { kind: 'fixed', type: target, length, values: out, nulls: sink.nulls };
  }

  if (dstFamily === 'float' && srcFamily === 'int' && numValues !== null && ArrayBuffer.isView(numValues)) {
    // Integers to FLOAT/DOUBLE in one typed-array conversion: comparing an INT column with a DOUBLE (a
    // prepared parameter) casts every row of the column, per query.
    const out = target.name === 'FLOAT' ? new Float32Array(length) : new Float64Array(length);
    out.set((numValues as unknown as Int32Array).subarray(0, length));
    if (nulls !== null) for (let rowIdx = 0; rowIdx < length; rowIdx++) if (nulls[rowIdx] === 1) out[rowIdx] = 0;
    return { kind: 'fixed', type: target, length, values: out, nulls: sink.nulls };
  }

  if (dstFamily === 'float') {
    const out = target.name === 'FLOAT' ? new Float32Array(length) : new Float64Array(length);
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      if (isNullRow(rowIdx)) continue;
      const value = numberAt(rowIdx);
      if (target.name === 'FLOAT' && Math.abs(value) > 3.4028234663852886e38 && Number.isFinite(value)) sink.fail(rowIdx, 'out_of_range', () => String(value));
      else out[rowIdx] = value;
    }
    return { kind: 'fixed', type: target, length, values: out, nulls: sink.nulls };
  }

  if (dstFamily === 'int') {
    const limits = INT_LIMITS[target.name];
    if (limits !== undefined) {
      const [min, max] = limits;
      const out = newFixedArray(physicalKind(target), length) as Float64Array;
      for (let rowIdx = 0; rowIdx < length; rowIdx++) {
        if (isNullRow(rowIdx)) continue;
        let value: number;
        if (srcBig) {
          const big = srcScale > 0 ? bigValues![rowIdx] / 10n ** BigInt(srcScale) : bigValues![rowIdx];
          value = big > BigInt(max) || big < BigInt(min) ? NaN : Number(big);
        } else value = Math.trunc(numberAt(rowIdx));
        if (!(value >= min && value <= max)) sink.fail(rowIdx, 'out_of_range', () => srcText(rowIdx));
        else out[rowIdx] = value;
      }
      return { kind: 'fixed', type: target, length, values: out, nulls: sink.nulls };
    }
    // BIGINT / LARGEINT: exact.
    const [min, max] = BIG_LIMITS[target.name];
    if (!srcBig && target.name === 'BIGINT' && (srcFamily === 'int' || srcFamily === 'bool')) {
      return { kind: 'fixed', type: target, length, values: i64FromNumbers(numValues!, length), nulls };
    }
    const values = new Array<bigint>(length).fill(0n);
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      if (isNullRow(rowIdx)) continue;
      let big: bigint | null;
      if (srcBig) big = srcScale > 0 ? bigValues![rowIdx] / 10n ** BigInt(srcScale) : bigValues![rowIdx];
      else {
        const value = Math.trunc(numberAt(rowIdx));
        big = Number.isFinite(value) ? BigInt(value) : null;
      }
      if (big === null || big < min || big > max) sink.fail(rowIdx, 'out_of_range', () => srcText(rowIdx));
      else values[rowIdx] = big;
    }
    if (target.name === 'BIGINT') return { kind: 'fixed', type: target, length, values: BigInt64Array.from(values), nulls: sink.nulls };
    return { kind: 'object', type: target, length, values, nulls: sink.nulls };
  }

  // DECIMAL target.
  const dstScale = target.scale ?? 0;
  const precision = target.precision ?? 9;
  const wide = isWideDecimal(target);
  const limitNum = pow10(precision);
  const limitBig = 10n ** BigInt(precision);
  if (!wide && !srcBig && (srcFamily === 'int' || srcFamily === 'bool' || srcFamily === 'decimal')) {
    // Narrow to narrow: exact in numbers.
    const out = new Float64Array(length);
    const up = dstScale >= srcScale ? pow10(dstScale - srcScale) : 1;
    const down = dstScale < srcScale ? pow10(srcScale - dstScale) : 1;
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      if (isNullRow(rowIdx)) continue;
      const raw = numValues![rowIdx];
      const scaled = down === 1 ? raw * up : divRoundHalfAway(raw, down);
      if (!(scaled < limitNum && scaled > -limitNum)) sink.fail(rowIdx, 'out_of_range', () => srcText(rowIdx));
      else out[rowIdx] = scaled;
    }
    return { kind: 'fixed', type: target, length, values: out, nulls: sink.nulls };
  }
  const bigOut = new Array<bigint>(length).fill(0n);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    if (isNullRow(rowIdx)) continue;
    let scaled: bigint | null;
    if (srcFamily === 'float' || srcFamily === 'date' || srcFamily === 'datetime') {
      const value = numberAt(rowIdx);
      scaled = Number.isFinite(value) ? parseDecimalScaled(String(value), dstScale) : null;
    } else {
      const raw = srcBig ? bigValues![rowIdx] : BigInt(numValues![rowIdx]);
      scaled = dstScale >= srcScale ? raw * 10n ** BigInt(dstScale - srcScale) : bigDivRound(raw, 10n ** BigInt(srcScale - dstScale));
    }
    if (scaled === null || scaled >= limitBig || scaled <= -limitBig) sink.fail(rowIdx, 'out_of_range', () => srcText(rowIdx));
    else bigOut[rowIdx] = scaled;
  }
  if (wide) return { kind: 'object', type: target, length, values: bigOut, nulls: sink.nulls };
  const out = new Float64Array(length);
  for (let rowIdx = 0; rowIdx < length; rowIdx++) out[rowIdx] = Number(bigOut[rowIdx]);
  return { kind: 'fixed', type: target, length, values: out, nulls: sink.nulls };
}

/** Cast one raw value (constants, parameters); NULL when it does not convert. */
export function castRaw(value: RawValue, from: DataType, to: DataType): RawValue {
  if (value === null) return null;
  if (typesEqual(from, to)) return value;
  const builder = new VectorBuilder(from, 1);
  builder.append(value);
  const out = castVector(builder.finish(), to, 'sql');
  if (out.nulls !== null && out.nulls[0]) return null;
  switch (out.kind) {
    case 'fixed':
      return out.values[0];
    case 'object':
      return out.values[0];
    case 'dict':
      return out.dict[out.codes[0]];
    case 'string':
      return decodeUtf8(out.bytes, out.offsets[0], out.offsets[1]);
    case 'array':
    case 'struct':
      return getRaw(out, 0);
  }
}
