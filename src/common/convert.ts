/**
 * Text <-> raw value conversion for every type: how values print in result sets (MySQL text protocol,
 * CAST to string) and how text from SQL literals, CSV and JSON becomes a raw value (INSERT, Stream Load,
 * CAST from string). One place, so a value prints the same everywhere and parses the same everywhere.
 */
import { canonicalJsonText } from './json-value';
import { RawArray, RawValue } from './column';
import { daysFromCivil, formatDate, formatDatetime, MICROS_PER_DAY, MICROS_PER_SECOND, parseDate, parseDatetime } from './datetime';
import { DataType, elementType, isWideDecimal, mapKeyType, mapValueType, structFields } from './types';
import { formatIpv4, formatIpv6, ipv4AsIpv6, ipv6FromStored, ipv6ToStored, parseIpv4, parseIpv6 } from './ip';
import { jsCharCount } from './utf8';

const POW10: number[] = [];
for (let exp = 0; exp <= 38; exp++) POW10.push(10 ** exp);

export function pow10(exp: number): number {
  return POW10[exp];
}

/** Print a scaled decimal integer (number or bigint) with `scale` fractional digits. */
export function formatDecimal(scaled: number | bigint, scale: number): string {
  let digits = typeof scaled === 'bigint' ? scaled.toString() : BigInt(Math.round(scaled)).toString();
  let sign = '';
  if (digits.startsWith('-')) {
    sign = '-';
    digits = digits.slice(1);
  }
  if (scale === 0) return sign + digits;
  digits = digits.padStart(scale + 1, '0');
  return `${sign}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

/** Print a double as MySQL/Doris do: shortest round-trip form, no exponent for ordinary magnitudes. */
export function formatDouble(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (Object.is(value, -0)) return '0';
  const abs = Math.abs(value);
  if (abs !== 0 && (abs >= 1e16 || abs < 1e-7)) {
    return value.toExponential().replace(/e\+?/, 'e+').replace('e+-', 'e-');
  }
  return String(value);
}

export function formatFloat(value: number): string {
  return formatDouble(Number(Math.fround(value).toPrecision(7)));
}

/** The text form of a raw value of `type` (NULL as null). */
export function formatValue(type: DataType, value: RawValue): string | null {
  if (value === null) return null;
  switch (type.name) {
    case 'NULL':
      return null;
    case 'BOOLEAN':
      return value ? '1' : '0';
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
    case 'LARGEINT':
      return typeof value === 'number' ? String(Math.trunc(value)) : String(value);
    case 'FLOAT':
      return formatFloat(value as number);
    case 'DOUBLE':
      return formatDouble(value as number);
    case 'DECIMAL':
      return formatDecimal(value as number | bigint, type.scale ?? 0);
    case 'DATE':
      return formatDate(value as number);
    case 'DATETIME':
      return formatDatetime(value as number, type.scale ?? 0);
    case 'ARRAY':
      return formatArray(type, value as RawArray);
    case 'MAP':
      return formatMap(type, value as RawArray);
    case 'STRUCT':
      return formatStruct(type, value as RawArray);
    case 'IPV4':
      return formatIpv4(value as number);
    case 'IPV6':
      return formatIpv6(ipv6FromStored(value as bigint));
    default:
      return String(value);
  }
}

/** Element types Doris prints in double quotes inside an array (`["a", "2024-01-01"]`). */
function quotedInArray(type: DataType): boolean {
  return type.name === 'CHAR' || type.name === 'VARCHAR' || type.name === 'STRING' || type.name === 'DATE' || type.name === 'DATETIME';
}

/**
 * An array as Doris prints it: `[1, 2, 3]`, `["a", "b"]` (strings, dates and datetimes in double quotes
 * with `"` and `\` escaped), `null` for a NULL element, `[]` when empty, nested arrays the same way.
 */
function formatArray(type: DataType, value: RawArray): string {
  const element = elementType(type);
  const quoted = quotedInArray(element);
  let out = '[';
  for (let elemIdx = 0; elemIdx < value.length; elemIdx++) {
    if (elemIdx > 0) out += ', ';
    const text = formatValue(element, value[elemIdx]);
    if (text === null) out += 'null';
    else out += quoted ? `"${text.replace(/["\\]/g, (ch) => '\\' + ch)}"` : text;
  }
  return out + ']';
}

/** One item inside a map or struct: `null`, quoted text (strings, dates, addresses), or the plain text. */
function nestedItemText(type: DataType, value: RawValue): string {
  const text = formatValue(type, value);
  if (text === null) return 'null';
  return quotedInArray(type) || type.name === 'IPV4' || type.name === 'IPV6' ? `"${text.replace(/["\\]/g, (ch) => '\\' + ch)}"` : text;
}

/** A map as Doris prints it: `{"a":1, "b":null}`, `{}` when empty. */
function formatMap(type: DataType, value: RawArray): string {
  const keyType = mapKeyType(type);
  const valueType = mapValueType(type);
  return `{${value.map((entry) => `${nestedItemText(keyType, (entry as RawArray)[0])}:${nestedItemText(valueType, (entry as RawArray)[1])}`).join(', ')}}`;
}

/** A struct as Doris prints it: `{"f1":1, "f2":"x"}`. */
function formatStruct(type: DataType, value: RawArray): string {
  return `{${structFields(type).map((field, fieldIdx) => `"${field.name}":${nestedItemText(field.type, value[fieldIdx] ?? null)}`).join(', ')}}`;
}

/**
 * A plain finite decimal number of a FLOAT / DOUBLE element as parseValue would give it, or NaN to let
 * parseValue decide (anything else: `inf`, hex, out of FLOAT range, not a number). Vectors are loaded
 * as millions of such elements; this skips parseValue's regular expression for each.
 */
function fastFloat(raw: string, isFloat: boolean): number {
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  if (!((first >= 48 && first <= 57) || first === 45 || first === 43 || first === 46) || !((last >= 48 && last <= 57) || last === 46)) return NaN;
  for (let charIdx = 1; charIdx < raw.length; charIdx++) {
    const code = raw.charCodeAt(charIdx) | 32;
    if (code === 120 || code === 111 || code === 98) return NaN; // 0x / 0o / 0b prefixes are not SQL numbers
  }
  const value = Number(raw);
  if (!Number.isFinite(value)) return NaN;
  if (!isFloat) return value;
  return Math.abs(value) > 3.4028234663852886e38 ? NaN : Math.fround(value);
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };

/**
 * Parse the text form of an array, map or struct (`[1, 2]`, `["a", 'b', null]`, `[[1], []]`,
 * `{"k":1, "k2":null}`, `{"f1": 1, "f2": "x"}` or positional `{1, "x"}`): items separated by commas,
 * strings in single or double quotes (backslash escapes), `null` for NULL, each scalar parsed as its type.
 * The first item that does not parse fails the whole value. A map's repeated key keeps its last value
 * (Doris deduplicates map keys the same way).
 */
function parseNestedText(type: DataType, text: string): ParseResult {
  let pos = 0;
  const skipSpace = (): void => {
    while (pos < text.length && (text[pos] === ' ' || text[pos] === '\t' || text[pos] === '\n' || text[pos] === '\r')) pos++;
  };
  /** A quoted string at `pos` (its quote char), unescaped; null when unterminated. */
  const readQuoted = (): string | null => {
    const quote = text[pos++];
    let raw = '';
    while (pos < text.length && text[pos] !== quote) {
      if (text[pos] === '\\' && pos + 1 < text.length) {
        // JSON's escapes (native JSON arrays and objects reach here as JSON text); any other escaped char is itself.
        const next = text[++pos];
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 1, pos + 5))) {
          raw += String.fromCharCode(parseInt(text.slice(pos + 1, pos + 5), 16));
          pos += 5;
        } else {
          raw += ESCAPES[next] ?? next;
          pos++;
        }
        continue;
      }
      raw += text[pos++];
    }
    if (pos >= text.length) return null;
    pos++;
    return raw;
  };
  /** One item of `itemType` at `pos`; an unquoted scalar ends at a comma, a closing bracket or (keys) a colon. */
  const parseItem = (itemType: DataType, isKey: boolean): ParseResult => {
    skipSpace();
    const ch = text[pos];
    const nested = itemType.name === 'ARRAY' || itemType.name === 'MAP' || itemType.name === 'STRUCT';
    if (ch === '[' || ch === '{') {
      if ((ch === '[') !== (itemType.name === 'ARRAY') || !nested) return fail('invalid');
      const value = ch === '[' ? parseList(itemType) : parseBraces(itemType);
      return typeof value === 'string' ? fail(value) : ok(value);
    }
    if (ch === '"' || ch === "'") {
      const raw = readQuoted();
      if (raw === null || nested) return fail('invalid');
      return parseValue(itemType, raw);
    }
    const start = pos;
    while (pos < text.length && text[pos] !== ',' && text[pos] !== ']' && text[pos] !== '}' && !(isKey && text[pos] === ':')) pos++;
    const raw = text.slice(start, pos).trim();
    if (raw.length === 0) return fail('invalid');
    if (itemType.name === 'FLOAT' || itemType.name === 'DOUBLE') {
      const fast = fastFloat(raw, itemType.name === 'FLOAT');
      if (fast === fast) return ok(fast);
    }
    if (raw.toLowerCase() === 'null') return ok(null);
    return nested ? fail('invalid') : parseValue(itemType, raw);
  };
  /** After an item: true at a comma (consumed), false at `close` (consumed), 'invalid' otherwise. */
  const next = (close: string): boolean | ParseFailure => {
    skipSpace();
    if (text[pos] === ',') {
      pos++;
      return true;
    }
    if (text[pos] === close) {
      pos++;
      return false;
    }
    return 'invalid';
  };
  const parseList = (listType: DataType): RawArray | ParseFailure => {
    const elemType = elementType(listType);
    const items: RawValue[] = [];
    pos++; // '['
    skipSpace();
    if (text[pos] === ']') {
      pos++;
      return items;
    }
    while (true) {
      const item = parseItem(elemType, false);
      if (item.failure !== null) return item.failure;
      items.push(item.value);
      const more = next(']');
      if (typeof more === 'string') return more;
      if (!more) return items;
    }
  };
  const parseBraces = (braceType: DataType): RawArray | ParseFailure => {
    pos++; // '{'
    skipSpace();
    const isMap = braceType.name === 'MAP';
    const fields = isMap ? [] : structFields(braceType);
    const entries: RawValue[][] = [];
    const fieldValues: RawValue[] = fields.map(() => null);
    let fieldPos = 0;
    if (text[pos] === '}') {
      pos++;
    } else {
      while (true) {
        skipSpace();
        if (isMap) {
          const key = parseItem(mapKeyType(braceType), true);
          if (key.failure !== null) return key.failure;
          skipSpace();
          if (text[pos++] !== ':') return 'invalid';
          const value = parseItem(mapValueType(braceType), false);
          if (value.failure !== null) return value.failure;
          entries.push([key.value, value.value]);
        } else {
          // `"name": value` or a positional value.
          let fieldIdx = fieldPos;
          const save = pos;
          if (text[pos] === '"' || text[pos] === "'") {
            const name = readQuoted();
            skipSpace();
            if (name !== null && text[pos] === ':') {
              pos++;
              fieldIdx = fields.findIndex((field) => field.name.toLowerCase() === name.toLowerCase());
              if (fieldIdx < 0) return 'invalid';
            } else {
              pos = save;
            }
          }
          if (fieldIdx >= fields.length) return 'invalid';
          const value = parseItem(fields[fieldIdx].type, false);
          if (value.failure !== null) return value.failure;
          fieldValues[fieldIdx] = value.value;
          fieldPos = fieldIdx + 1;
        }
        const more = next('}');
        if (typeof more === 'string') return more;
        if (!more) break;
      }
    }
    return isMap ? dedupeMapEntries(entries) : fieldValues;
  };
  skipSpace();
  const open = type.name === 'ARRAY' ? '[' : '{';
  if (text[pos] !== open) return fail('invalid');
  const value = type.name === 'ARRAY' ? parseList(type) : parseBraces(type);
  if (typeof value === 'string') return fail(value);
  skipSpace();
  if (pos !== text.length) return fail('invalid');
  return ok(value);
}

/** Map entries with each key once, at its first place, holding its last value (Doris keeps the last). */
export function dedupeMapEntries(entries: readonly (readonly RawValue[])[]): RawValue[][] {
  const seen = new Map<string, number>();
  const out: RawValue[][] = [];
  for (const entry of entries) {
    const key = entry[0] === null ? '\u0000null' : typeof entry[0] === 'object' ? JSON.stringify(entry[0], (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) : `${typeof entry[0]}:${String(entry[0])}`;
    const at = seen.get(key);
    if (at === undefined) {
      seen.set(key, out.length);
      out.push([entry[0], entry[1]]);
    } else {
      out[at][1] = entry[1];
    }
  }
  return out;
}

/** Why a text could not become a value of a type; the caller turns it into a Doris error. */
export type ParseFailure = 'invalid' | 'out_of_range' | 'too_long';

export interface ParseResult {
  readonly value: RawValue;
  readonly failure: ParseFailure | null;
}

const INT_RANGES: Record<string, [number, number]> = {
  TINYINT: [-128, 127],
  SMALLINT: [-32768, 32767],
  INT: [-2147483648, 2147483647],
};
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;
const LARGEINT_MIN = -(2n ** 127n);
const LARGEINT_MAX = 2n ** 127n - 1n;
const INTEGER_RE = /^\s*[+-]?\d+\s*$/;
const NUMBER_RE = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

const ok = (value: RawValue): ParseResult => ({ value, failure: null });
const fail = (failure: ParseFailure): ParseResult => ({ value: null, failure });

/** Scale a decimal text to an integer with `scale` digits, rounding half away from zero. */
export function parseDecimalScaled(text: string, scale: number): bigint | null {
  const trimmed = text.trim();
  if (!NUMBER_RE.test(trimmed)) return null;
  let mantissa = trimmed;
  let exponent = 0;
  const eIdx = mantissa.search(/[eE]/);
  if (eIdx >= 0) {
    exponent = Number(mantissa.slice(eIdx + 1));
    mantissa = mantissa.slice(0, eIdx);
  }
  let negative = false;
  if (mantissa[0] === '+' || mantissa[0] === '-') {
    negative = mantissa[0] === '-';
    mantissa = mantissa.slice(1);
  }
  const dot = mantissa.indexOf('.');
  let intPart = dot >= 0 ? mantissa.slice(0, dot) : mantissa;
  let fracPart = dot >= 0 ? mantissa.slice(dot + 1) : '';
  // Shift the decimal point by the exponent.
  if (exponent > 0) {
    fracPart = fracPart.padEnd(exponent, '0');
    intPart += fracPart.slice(0, exponent);
    fracPart = fracPart.slice(exponent);
  } else if (exponent < 0) {
    intPart = intPart.padStart(-exponent, '0');
    fracPart = intPart.slice(intPart.length + exponent) + fracPart;
    intPart = intPart.slice(0, intPart.length + exponent);
  }
  const kept = fracPart.slice(0, scale).padEnd(scale, '0');
  let scaled = BigInt((intPart || '0') + kept);
  if (fracPart.length > scale && fracPart.charCodeAt(scale) >= 53 /* '5' */) scaled += 1n;
  return negative ? -scaled : scaled;
}

/** Does a scaled decimal fit DECIMAL(p, s)? */
export function decimalFits(scaled: bigint, precision: number): boolean {
  const limit = 10n ** BigInt(precision);
  return scaled < limit && scaled > -limit;
}

/** Parse text as a value of `type` (text from SQL literals, CSV, JSON, CAST). */
export function parseValue(type: DataType, text: string): ParseResult {
  switch (type.name) {
    case 'NULL':
      return ok(null);
    case 'BOOLEAN': {
      const lower = text.trim().toLowerCase();
      if (lower === 'true' || lower === '1') return ok(1);
      if (lower === 'false' || lower === '0') return ok(0);
      if (NUMBER_RE.test(lower)) return ok(Number(lower) !== 0 ? 1 : 0);
      return fail('invalid');
    }
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT': {
      if (!INTEGER_RE.test(text)) {
        if (!NUMBER_RE.test(text)) return fail('invalid');
        const rounded = Math.round(Number(text));
        const [min, max] = INT_RANGES[type.name];
        return rounded < min || rounded > max ? fail('out_of_range') : ok(rounded);
      }
      const value = Number(text);
      const [min, max] = INT_RANGES[type.name];
      return value < min || value > max ? fail('out_of_range') : ok(value);
    }
    case 'BIGINT':
    case 'LARGEINT': {
      let value: bigint;
      if (INTEGER_RE.test(text)) value = BigInt(text.trim());
      else if (NUMBER_RE.test(text)) {
        const scaled = parseDecimalScaled(text, 0);
        if (scaled === null) return fail('invalid');
        value = scaled;
      } else return fail('invalid');
      const [min, max] = type.name === 'BIGINT' ? [BIGINT_MIN, BIGINT_MAX] : [LARGEINT_MIN, LARGEINT_MAX];
      return value < min || value > max ? fail('out_of_range') : ok(value);
    }
    case 'FLOAT':
    case 'DOUBLE': {
      const trimmed = text.trim();
      if (!NUMBER_RE.test(trimmed)) {
        const lower = trimmed.toLowerCase();
        if (lower === 'nan') return ok(NaN);
        if (lower === 'inf' || lower === 'infinity') return ok(Infinity);
        if (lower === '-inf' || lower === '-infinity') return ok(-Infinity);
        return fail('invalid');
      }
      const value = Number(trimmed);
      if (type.name === 'FLOAT' && Math.abs(value) > 3.4028234663852886e38) return fail('out_of_range');
      return ok(type.name === 'FLOAT' ? Math.fround(value) : value);
    }
    case 'DECIMAL': {
      const precision = type.precision ?? 9;
      const scale = type.scale ?? 0;
      const scaled = parseDecimalScaled(text, scale);
      if (scaled === null) return fail('invalid');
      if (!decimalFits(scaled, precision)) return fail('out_of_range');
      return ok(isWideDecimal(type) ? scaled : Number(scaled));
    }
    case 'DATE': {
      const days = parseDate(text);
      return days === null ? fail('invalid') : ok(days);
    }
    case 'DATETIME': {
      const micros = parseDatetime(text);
      if (micros === null) return fail('invalid');
      const scale = type.scale ?? 0;
      const unit = 10 ** (6 - scale);
      return ok(Math.floor(micros / unit) * unit);
    }
    case 'CHAR':
    case 'VARCHAR': {
      const limit = type.length ?? 65533;
      return jsCharCount(text) > limit ? fail('too_long') : ok(text);
    }
    case 'STRING':
      return ok(text);
    case 'ARRAY':
    case 'MAP':
    case 'STRUCT':
      return parseNestedText(type, text);
    case 'JSON': {
      const canonical = canonicalJsonText(text);
      return canonical === null ? fail('invalid') : ok(canonical);
    }
    case 'IPV4': {
      const address = parseIpv4(text.trim());
      return address === null ? fail('invalid') : ok(address);
    }
    case 'IPV6': {
      const trimmed = text.trim();
      const address = parseIpv6(trimmed) ?? ipv4AsIpv6(parseIpv4(trimmed));
      return address === null ? fail('invalid') : ok(ipv6ToStored(address));
    }
    case 'BITMAP':
    case 'HLL':
    case 'QUANTILE_STATE':
      // Text is never a sketch state: loads and INSERT build them with to_bitmap(), hll_hash()...
      return fail('invalid');
  }
}

// ---------------------------------------------------------------- span fast paths
//
// Bulk loads (INSERT ... VALUES, later CSV) convert millions of cells of a few common shapes. These read
// such a cell straight from the text between two offsets, with no substring and no regular expression,
// and return NaN for anything outside their shape: the caller then uses parseValue on the text, so the
// result (value or error) is always exactly parseValue's. Only an exactly-representable result is
// returned.

const CODE_0 = 48;
const CODE_MINUS = 45;
const CODE_DOT = 46;
/** Largest magnitude accumulated digit by digit without losing exactness (below 2^53). */
const EXACT_LIMIT = 2 ** 53 / 10 - 1;

/** `[-]digits` (at most 15 significant digits' worth) as a number; NaN for any other text. */
export function parseIntegerSpan(text: string, start: number, end: number): number {
  let pos = start;
  const negative = text.charCodeAt(pos) === CODE_MINUS;
  if (negative) pos++;
  if (pos >= end) return NaN;
  let value = 0;
  for (; pos < end; pos++) {
    const digit = text.charCodeAt(pos) - CODE_0;
    if (digit < 0 || digit > 9 || value > EXACT_LIMIT) return NaN;
    value = value * 10 + digit;
  }
  return negative ? 0 - value : value;
}

/**
 * `[-]digits[.digits]` scaled by 10^scale and rounded half away from zero, as parseDecimalScaled does;
 * NaN for any other text (exponents, signs other than a leading `-`) or when the scaled value would not
 * be exact.
 */
export function parseScaledDecimalSpan(text: string, start: number, end: number, scale: number): number {
  let pos = start;
  const negative = text.charCodeAt(pos) === CODE_MINUS;
  if (negative) pos++;
  let value = 0;
  let digits = 0;
  for (; pos < end; pos++) {
    const digit = text.charCodeAt(pos) - CODE_0;
    if (digit < 0 || digit > 9) break;
    if (value > EXACT_LIMIT) return NaN;
    value = value * 10 + digit;
    digits++;
  }
  let fracDigits = 0;
  if (pos < end && text.charCodeAt(pos) === CODE_DOT) {
    pos++;
    for (; pos < end; pos++) {
      const digit = text.charCodeAt(pos) - CODE_0;
      if (digit < 0 || digit > 9) return NaN;
      digits++;
      if (fracDigits < scale) {
        if (value > EXACT_LIMIT) return NaN;
        value = value * 10 + digit;
        fracDigits++;
      } else if (fracDigits === scale) {
        // first dropped digit decides the rounding; later ones are only validated
        if (digit >= 5) value += 1;
        fracDigits++;
      }
    }
  }
  if (pos !== end || digits === 0) return NaN;
  for (; fracDigits < scale; fracDigits++) {
    if (value > EXACT_LIMIT) return NaN;
    value *= 10;
  }
  if (value > 2 ** 53) return NaN;
  return negative ? 0 - value : value;
}

const MONTH_DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digitAt(text: string, pos: number): number {
  const digit = text.charCodeAt(pos) - CODE_0;
  return digit >= 0 && digit <= 9 ? digit : -1000;
}

/** Days of a valid `YYYY-MM-DD` starting at `pos`, or NaN. */
function dateAt(text: string, pos: number): number {
  const year = digitAt(text, pos) * 1000 + digitAt(text, pos + 1) * 100 + digitAt(text, pos + 2) * 10 + digitAt(text, pos + 3);
  const month = digitAt(text, pos + 5) * 10 + digitAt(text, pos + 6);
  const day = digitAt(text, pos + 8) * 10 + digitAt(text, pos + 9);
  if (year < 0 || month < 1 || month > 12 || day < 1 || text.charCodeAt(pos + 4) !== CODE_MINUS || text.charCodeAt(pos + 7) !== CODE_MINUS) return NaN;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > (month === 2 && leap ? 29 : MONTH_DAYS[month])) return NaN;
  return daysFromCivil(year, month, day);
}

/** Day number of exactly `YYYY-MM-DD` (a valid date) in text[start, end); NaN for any other text. */
export function parseDateSpan(text: string, start: number, end: number): number {
  return end - start === 10 ? dateAt(text, start) : NaN;
}

/** Microseconds of exactly `YYYY-MM-DD HH:MM:SS` (valid) in text[start, end); NaN for any other text. */
export function parseDatetimeSpan(text: string, start: number, end: number): number {
  if (end - start !== 19 || text.charCodeAt(start + 10) !== 32 || text.charCodeAt(start + 13) !== 58 || text.charCodeAt(start + 16) !== 58) return NaN;
  const days = dateAt(text, start);
  const hour = digitAt(text, start + 11) * 10 + digitAt(text, start + 12);
  const minute = digitAt(text, start + 14) * 10 + digitAt(text, start + 15);
  const second = digitAt(text, start + 17) * 10 + digitAt(text, start + 18);
  if (Number.isNaN(days) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return NaN;
  return days * MICROS_PER_DAY + ((hour * 60 + minute) * 60 + second) * MICROS_PER_SECOND;
}

/** Range of TINYINT / SMALLINT / INT (null for other types), for callers that check spans themselves. */
export function smallIntRange(type: DataType): readonly [number, number] | null {
  return INT_RANGES[type.name] ?? null;
}
