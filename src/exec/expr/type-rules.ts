/**
 * Doris's typing rules: the common super type that CASE / IF / COALESCE / IN / UNION / comparisons unify
 * to, the result types of arithmetic, and the types of literals as written.
 */
import { RawValue } from '../../common/column';
import { parseDecimalScaled } from '../../common/convert';
import { parseDate, parseDatetime } from '../../common/datetime';
import { galeneError, GaleneError } from '../../common/errors';
import { DataType, isIntegerType, isSketchType, isStringType, typeToSql, Types, TypeName, VARCHAR_MAX_LENGTH } from '../../common/types';

export const MAX_DECIMAL_PRECISION = 38;

const INTEGER_RANK: Partial<Record<TypeName, number>> = { BOOLEAN: 0, TINYINT: 1, SMALLINT: 2, INT: 3, BIGINT: 4, LARGEINT: 5 };
const INTEGER_BY_RANK: DataType[] = [Types.BOOLEAN, Types.TINYINT, Types.SMALLINT, Types.INT, Types.BIGINT, Types.LARGEINT];
/** Decimal digits an integer type needs (Doris: TINYINT -> DECIMAL(3,0) ... LARGEINT -> DECIMAL(38,0)). */
const INTEGER_DIGITS: Partial<Record<TypeName, number>> = { BOOLEAN: 1, TINYINT: 3, SMALLINT: 5, INT: 10, BIGINT: 19, LARGEINT: 38 };

export function integerRank(t: DataType): number {
  return INTEGER_RANK[t.name] ?? -1;
}

export function integerByRank(rank: number): DataType {
  return INTEGER_BY_RANK[Math.min(rank, 5)];
}

/** One step wider integer type, as Doris widens + - * results (INT + INT -> BIGINT). */
export function widenInteger(t: DataType): DataType {
  return integerByRank(Math.min(5, Math.max(integerRank(t), 1) + 1));
}

export function isFloatType(t: DataType): boolean {
  return t.name === 'FLOAT' || t.name === 'DOUBLE';
}

/** A decimal type, precision capped at 38 and scale at precision. */
export function decimalType(precision: number, scale: number): DataType {
  const p = Math.max(1, Math.min(MAX_DECIMAL_PRECISION, precision));
  return Types.decimal(p, Math.min(scale, p));
}

/** An integer or boolean type seen as DECIMAL(digits, 0); decimals as themselves. */
export function asDecimal(t: DataType): DataType {
  if (t.name === 'DECIMAL') return t;
  return Types.decimal(INTEGER_DIGITS[t.name] ?? MAX_DECIMAL_PRECISION, 0);
}

/** The decimal both can be cast to without losing integer digits or scale. */
export function decimalUnion(a: DataType, b: DataType): DataType {
  const da = asDecimal(a);
  const db = asDecimal(b);
  const scale = Math.max(da.scale ?? 0, db.scale ?? 0);
  const intDigits = Math.max((da.precision ?? 9) - (da.scale ?? 0), (db.precision ?? 9) - (db.scale ?? 0));
  return decimalType(intDigits + scale, scale);
}

function stringUnion(a: DataType, b: DataType): DataType {
  if (a.name === 'STRING' || b.name === 'STRING') return Types.STRING;
  return Types.varchar(Math.max(a.length ?? VARCHAR_MAX_LENGTH, b.length ?? VARCHAR_MAX_LENGTH));
}

/** Contexts whose string-vs-date / string-vs-number mixes convert the string (comparisons, IN, BETWEEN). */
function isComparisonContext(context: string): boolean {
  return /compar|^in$|^in |between|^(=|!=|<>|<|<=|>|>=|<=>)$|^eq|^ne$|^lt|^le|^gt|^ge/i.test(context);
}

const isIpType = (t: DataType): boolean => t.name === 'IPV4' || t.name === 'IPV6';

function pairSuperType(a: DataType, b: DataType, context: string): DataType {
  if (a.name === 'NULL') return b;
  if (b.name === 'NULL') return a;
  if (isSketchType(a) || isSketchType(b)) {
    // Doris: BITMAP / HLL are never compared (=, <, IN); CASE / COALESCE / UNION of the same type keep it.
    if (isComparisonContext(context)) throw new GaleneError('COMPLEX_TYPE_KEY', []);
    if (a.name === b.name) return a;
    throw galeneError('TYPE_MISMATCH', `can not find a common type of ${typeToSql(a)} and ${typeToSql(b)} in ${context}`);
  }
  if (a.name === 'JSON' || b.name === 'JSON') {
    // Doris: JSON values are never compared (no =, <, IN on JSON); CASE / COALESCE / UNION keep JSON.
    if (isComparisonContext(context)) throw galeneError('TYPE_MISMATCH', `comparison predicate could not contains json type: ${context}`);
    if (a.name === b.name) return a;
    throw galeneError('TYPE_MISMATCH', `can not find a common type of ${typeToSql(a)} and ${typeToSql(b)} in ${context}`);
  }
  if (a.name === 'ARRAY' || b.name === 'ARRAY') {
    // ARRAY<x> meets ARRAY<y> as ARRAY<common(x, y)>; `[]` (ARRAY<NULL>) takes the other's element.
    if (a.name === 'ARRAY' && b.name === 'ARRAY') return Types.array(pairSuperType(a.element ?? Types.NULL, b.element ?? Types.NULL, context));
    throw galeneError('TYPE_MISMATCH', `can not find a common type of ${typeToSql(a)} and ${typeToSql(b)} in ${context}`);
  }
  if (isIpType(a) || isIpType(b)) {
    // Doris: an address meets text as the address type (ip = '10.0.0.1'), IPV4 meets IPV6 as IPV6.
    if (a.name === b.name) return a;
    if (isIpType(a) && isIpType(b)) return Types.IPV6;
    const other = isIpType(a) ? b : a;
    if (isStringType(other)) return isComparisonContext(context) ? (isIpType(a) ? a : b) : Types.STRING;
    throw galeneError('TYPE_MISMATCH', `can not find a common type of ${typeToSql(a)} and ${typeToSql(b)} in ${context}`);
  }
  if (a.name === b.name) {
    if (a.name === 'DECIMAL') return decimalUnion(a, b);
    if (a.name === 'DATETIME') return (a.scale ?? 0) >= (b.scale ?? 0) ? a : b;
    if (isStringType(a)) return stringUnion(a, b);
    return a;
  }
  const comparison = isComparisonContext(context);
  if (isStringType(a) && isStringType(b)) return stringUnion(a, b);
  if (isStringType(a) || isStringType(b)) {
    const other = isStringType(a) ? b : a;
    if (!comparison) return Types.STRING;
    if (other.name === 'DATE' || other.name === 'DATETIME') return other;
    if (other.name === 'BOOLEAN') return Types.BOOLEAN;
    return Types.DOUBLE;
  }
  if ((a.name === 'DATE' || a.name === 'DATETIME') && (b.name === 'DATE' || b.name === 'DATETIME')) {
    return Types.datetime(Math.max(a.scale ?? 0, b.scale ?? 0));
  }
  if (a.name === 'DATE' || a.name === 'DATETIME' || b.name === 'DATE' || b.name === 'DATETIME') {
    const temporal = a.name === 'DATE' || a.name === 'DATETIME' ? a : b;
    const other = temporal === a ? b : a;
    if (comparison && isIntegerType(other)) return temporal;
    if (!comparison) return Types.STRING;
    return Types.DOUBLE;
  }
  if (isFloatType(a) || isFloatType(b)) return a.name === 'FLOAT' && b.name === 'FLOAT' ? Types.FLOAT : Types.DOUBLE;
  if (a.name === 'DECIMAL' || b.name === 'DECIMAL') return decimalUnion(a, b);
  const rankA = integerRank(a);
  const rankB = integerRank(b);
  if (rankA >= 0 && rankB >= 0) return integerByRank(Math.max(rankA, rankB));
  throw galeneError('TYPE_MISMATCH', `can not find a common type of ${typeToSql(a)} and ${typeToSql(b)} in ${context}`);
}

/**
 * The type CASE / IF / COALESCE / IN / UNION / comparisons unify to (Doris rules): numbers widen to the
 * larger integer, INT with DECIMAL gives a DECIMAL holding both, anything with FLOAT/DOUBLE gives DOUBLE,
 * DATE with DATETIME gives DATETIME. A string meets a date or a number by being converted to it in
 * comparison contexts (`context` naming a comparison, 'in' or 'between'); elsewhere the result is STRING.
 */
export function commonSuperType(types: readonly DataType[], context: string): DataType {
  let out: DataType = Types.NULL;
  for (const t of types) out = pairSuperType(out, t, context);
  return out;
}

/** Digits before the decimal point of a decimal literal, leading zeros dropped. */
function significantIntDigits(intPart: string): number {
  const trimmed = intPart.replace(/^[+-]/, '').replace(/^0+/, '');
  return trimmed.length;
}

/**
 * The typed value of a literal as written: integers get the smallest of TINYINT..LARGEINT that holds
 * them, '1.50' is DECIMAL(3,2), '1e3' DOUBLE, strings VARCHAR(character length), DATE/DATETIME literals.
 */
/** The lexical kinds of SQL literals (the parser's LiteralExpr carries one). */
export type LiteralKind = 'null' | 'boolean' | 'string' | 'integer' | 'decimal' | 'float' | 'date' | 'datetime';

/** A literal as written: its kind and its text (or boolean / null). */
export interface LiteralText {
  readonly literalType: LiteralKind;
  readonly value: null | boolean | string;
}

export function literalValue(lit: LiteralText): { type: DataType; value: RawValue } {
  switch (lit.literalType) {
    case 'null':
      return { type: Types.NULL, value: null };
    case 'boolean':
      return { type: Types.BOOLEAN, value: lit.value === true || lit.value === 'true' || lit.value === 'TRUE' ? 1 : 0 };
    case 'string': {
      const text = String(lit.value);
      return { type: Types.varchar(Math.max(1, [...text].length)), value: text };
    }
    case 'integer': {
      const text = String(lit.value).trim();
      const big = BigInt(text);
      if (big >= -128n && big <= 127n) return { type: Types.TINYINT, value: Number(big) };
      if (big >= -32768n && big <= 32767n) return { type: Types.SMALLINT, value: Number(big) };
      if (big >= -2147483648n && big <= 2147483647n) return { type: Types.INT, value: Number(big) };
      if (big >= -(2n ** 63n) && big < 2n ** 63n) return { type: Types.BIGINT, value: big };
      if (big >= -(2n ** 127n) && big < 2n ** 127n) return { type: Types.LARGEINT, value: big };
      return { type: Types.DOUBLE, value: Number(text) };
    }
    case 'decimal': {
      const text = String(lit.value).trim();
      const dot = text.indexOf('.');
      const intPart = dot >= 0 ? text.slice(0, dot) : text;
      const fracPart = dot >= 0 ? text.slice(dot + 1) : '';
      const scale = fracPart.length;
      const precision = Math.max(significantIntDigits(intPart) + scale, scale, 1);
      if (precision > MAX_DECIMAL_PRECISION) return { type: Types.DOUBLE, value: Number(text) };
      const type = Types.decimal(precision, scale);
      const scaled = parseDecimalScaled(text, scale)!;
      return { type, value: precision > 15 ? scaled : Number(scaled) };
    }
    case 'float':
      return { type: Types.DOUBLE, value: Number(String(lit.value)) };
    case 'date': {
      const days = parseDate(String(lit.value));
      if (days === null) throw galeneError('INVALID_CAST', String(lit.value), 'DATE');
      return { type: Types.DATE, value: days };
    }
    case 'datetime': {
      const text = String(lit.value);
      const micros = parseDatetime(text);
      if (micros === null) throw galeneError('INVALID_CAST', text, 'DATETIME');
      const fraction = /\.(\d+)\s*$/.exec(text);
      const scale = fraction ? Math.min(6, fraction[1].length) : 0;
      return { type: Types.datetime(scale), value: micros };
    }
  }
}
