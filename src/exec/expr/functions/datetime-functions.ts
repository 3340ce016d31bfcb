/**
 * Date and time functions over DATE (Int32Array of days since 1970-01-01) and DATETIME (Float64Array of
 * microseconds). Field extraction works on the numbers directly (civil-from-days, no Date objects).
 *
 * Interval arithmetic: one function per unit, as Doris names them: years_add, quarters_add, months_add,
 * weeks_add, days_add, hours_add, minutes_add, seconds_add, microseconds_add and the *_sub twins. On a
 * DATE they return DATE for units of a day or more and DATETIME below; the binder maps
 * `d + INTERVAL n UNIT` / `date_add(d, INTERVAL n UNIT)` to them (intervalFunctionName()).
 * date_add/adddate/date_sub/subdate(d, n) add days; the generic 3-argument form date_add(d, n, 'UNIT')
 * returns DATETIME (its type cannot depend on the unit's value).
 *
 * now(), curdate(), unix_timestamp() and from_unixtime() use the server's local time zone, read once
 * per statement for now().
 */
import { constantVector, Vector } from '../../../common/column';
import { addMonthsToDays, civilFromDaysInto, daysFromCivil, daysInMonth, formatDatetime, isLeapYear, MICROS_PER_DAY, MICROS_PER_SECOND } from '../../../common/datetime';
import { galeneError } from '../../../common/errors';
import { DataType, isNumericType, isStringType, Types } from '../../../common/types';
import type { ExecContext } from '../../context';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { badArgs } from '../function-registry';
import { i64FromNumbers, StringOut, toF64, toJsStrings } from '../vector-ops';

const MICROS_PER_HOUR = 3_600_000_000;
const MICROS_PER_MINUTE = 60_000_000;

// ---------------------------------------------------------------- calendar helpers

/** Scratch output of civil(): [year, month, day]. */
const civilOut = new Int32Array(3);

/** Year / month / day of a day number into civilOut (no allocation). */
function civil(days: number): void {
  civilFromDaysInto(days, civilOut);
}

/** 0 = Monday ... 6 = Sunday. */
function weekdayMonday0(days: number): number {
  return (((days + 3) % 7) + 7) % 7;
}

function dayOfYear(days: number): number {
  civil(days);
  return days - daysFromCivil(civilOut[0], 1, 1) + 1;
}

/** MySQL calc_week: week number and its year for a behaviour bit set (1 monday first, 2 week year, 4 first weekday). */
export function calcWeek(days: number, behaviour: number): { week: number; year: number } {
  civil(days);
  let year = civilOut[0];
  const month = civilOut[1];
  const day = civilOut[2];
  const mondayFirst = (behaviour & 1) !== 0;
  let weekYear = (behaviour & 2) !== 0;
  const firstWeekday = (behaviour & 4) !== 0;
  let firstDaynr = daysFromCivil(year, 1, 1);
  // weekday of Jan 1: 0 = first day of the week.
  let weekday = mondayFirst ? weekdayMonday0(firstDaynr) : (weekdayMonday0(firstDaynr) + 1) % 7;
  if (month === 1 && day <= 7 - weekday) {
    if (!weekYear && ((firstWeekday && weekday !== 0) || (!firstWeekday && weekday >= 4))) return { week: 0, year };
    weekYear = true;
    year--;
    const yearDays = isLeapYear(year) ? 366 : 365;
    firstDaynr -= yearDays;
    weekday = (weekday + 53 * 7 - yearDays) % 7;
  }
  let offset: number;
  if ((firstWeekday && weekday !== 0) || (!firstWeekday && weekday >= 4)) offset = days - (firstDaynr + (7 - weekday));
  else offset = days - (firstDaynr - weekday);
  if (weekYear && offset >= 52 * 7) {
    const nextWeekday = (weekday + (isLeapYear(year) ? 366 : 365)) % 7;
    if ((!firstWeekday && nextWeekday < 4) || (firstWeekday && nextWeekday === 0)) return { week: 1, year: year + 1 };
  }
  return { week: Math.floor(offset / 7) + 1, year };
}

/** MySQL week_mode(): the behaviour bits of WEEK(d, mode). */
function weekMode(mode: number): number {
  let behaviour = mode & 7;
  if (!(behaviour & 1)) behaviour ^= 4;
  return behaviour;
}

// ---------------------------------------------------------------- argument typing

function isTemporal(t: DataType): boolean {
  return t.name === 'DATE' || t.name === 'DATETIME';
}

/** DATE and DATETIME stay; anything else is cast to DATETIME (strings parse, bad values become NULL). */
function temporalArg(t: DataType): DataType {
  return isTemporal(t) ? t : Types.DATETIME;
}

/** Day numbers of a DATE or DATETIME vector. */
function dayNumbers(vec: Vector): ArrayLike<number> {
  const values = (vec as { values: ArrayLike<number> }).values;
  if (vec.type.name === 'DATE') return values;
  const out = new Int32Array(vec.length);
  for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out[rowIdx] = Math.floor(values[rowIdx] / MICROS_PER_DAY);
  return out;
}

/** Microseconds of a DATE or DATETIME vector. */
function microsOf(vec: Vector): Float64Array {
  const values = (vec as { values: ArrayLike<number> }).values;
  if (vec.type.name === 'DATETIME') return values as Float64Array;
  const out = new Float64Array(vec.length);
  for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) out[rowIdx] = values[rowIdx] * MICROS_PER_DAY;
  return out;
}

function intVector(type: DataType, values: Int32Array | Int16Array | Int8Array, nulls: Uint8Array | null = null): Vector {
  return { kind: 'fixed', type, length: values.length, values, nulls };
}

function dt(def: Omit<FunctionDef, 'family' | 'nulls'> & { nulls?: 'propagate' | 'custom' }): FunctionDef {
  return { family: 'datetime', nulls: 'propagate', ...def };
}

/** An extractor of one field from DATE/DATETIME. */
function extractor(name: string, aliases: string[], returnType: DataType, field: (days: number, timeOfDay: number) => number, description: string): FunctionDef {
  return dt({
    name,
    aliases,
    signature: `${name}(date_or_datetime) -> ${returnType.name}`,
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => ({ argTypes: [temporalArg(types[0])], returnType }),
    kernel: (args, rowCount) => {
      const vec = args[0];
      const values = (vec as { values: ArrayLike<number> }).values;
      const isDate = vec.type.name === 'DATE';
      const out = returnType.name === 'SMALLINT' ? new Int16Array(rowCount) : returnType.name === 'TINYINT' ? new Int8Array(rowCount) : new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const value = values[rowIdx];
        const days = isDate ? value : Math.floor(value / MICROS_PER_DAY);
        out[rowIdx] = field(days, isDate ? 0 : value - days * MICROS_PER_DAY);
      }
      return intVector(returnType, out);
    },
    description,
    example: `SELECT ${name}('2024-03-15 10:20:30')`,
  });
}

// ---------------------------------------------------------------- intervals

export type IntervalUnit = 'YEAR' | 'QUARTER' | 'MONTH' | 'WEEK' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND' | 'MICROSECOND';

const UNIT_NAMES: Record<IntervalUnit, string> = {
  YEAR: 'years',
  QUARTER: 'quarters',
  MONTH: 'months',
  WEEK: 'weeks',
  DAY: 'days',
  HOUR: 'hours',
  MINUTE: 'minutes',
  SECOND: 'seconds',
  MICROSECOND: 'microseconds',
};

/** Is `text` an INTERVAL unit keyword (YEAR ... MICROSECOND)? */
export function isIntervalUnit(text: string): text is IntervalUnit {
  return Object.prototype.hasOwnProperty.call(UNIT_NAMES, text);
}

/** Registry name for `d + INTERVAL n UNIT` ('days_add') or `d - INTERVAL n UNIT` ('days_sub'). */
export function intervalFunctionName(unit: IntervalUnit, subtract: boolean): string {
  const base = UNIT_NAMES[unit];
  if (base === undefined) throw galeneError('UNSUPPORTED', `INTERVAL unit ${unit}`);
  return `${base}_${subtract ? 'sub' : 'add'}`;
}

function parseUnit(text: string): IntervalUnit {
  const upper = text.trim().toUpperCase().replace(/S$/, '');
  if (upper in UNIT_NAMES) return upper as IntervalUnit;
  throw galeneError('TYPE_MISMATCH', `Unsupported time unit: ${text}`);
}

const DAY_OR_MORE: ReadonlySet<IntervalUnit> = new Set(['YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY']);

/** Add `amount` units to a day number or a microsecond value. */
function addInterval(value: number, isDate: boolean, unit: IntervalUnit, amount: number): number {
  const days = isDate ? value : Math.floor(value / MICROS_PER_DAY);
  const time = isDate ? 0 : value - days * MICROS_PER_DAY;
  let outDays = days;
  let micros = 0;
  switch (unit) {
    case 'YEAR':
      outDays = addMonthsToDays(days, amount * 12);
      break;
    case 'QUARTER':
      outDays = addMonthsToDays(days, amount * 3);
      break;
    case 'MONTH':
      outDays = addMonthsToDays(days, amount);
      break;
    case 'WEEK':
      outDays = days + amount * 7;
      break;
    case 'DAY':
      outDays = days + amount;
      break;
    case 'HOUR':
      micros = amount * MICROS_PER_HOUR;
      break;
    case 'MINUTE':
      micros = amount * MICROS_PER_MINUTE;
      break;
    case 'SECOND':
      micros = amount * MICROS_PER_SECOND;
      break;
    case 'MICROSECOND':
      micros = amount;
      break;
  }
  if (isDate && DAY_OR_MORE.has(unit)) return outDays;
  return outDays * MICROS_PER_DAY + time + micros;
}

const MIN_DAYS = daysFromCivil(0, 1, 1);
const MAX_DAYS = daysFromCivil(9999, 12, 31);

function intervalKernel(fixedUnit: IntervalUnit | null, sign: 1 | -1) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const type = site.returnType;
    const src = args[0];
    const isDate = src.type.name === 'DATE';
    const values = (src as { values: ArrayLike<number> }).values;
    const amounts = toF64(args[1]);
    const units = fixedUnit === null ? toJsStrings(args[2]) : null;
    const outDate = type.name === 'DATE';
    const out = outDate ? new Int32Array(rowCount) : new Float64Array(rowCount);
    let nulls: Uint8Array | null = null;
    let constUnit: IntervalUnit | null = fixedUnit;
    if (units !== null && site.isConst[2] && rowCount > 0) constUnit = parseUnit(units[0] ?? 'DAY');
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const unit = constUnit ?? parseUnit(units![rowIdx] ?? 'DAY');
      let value = values[rowIdx];
      let asDate = isDate;
      if (isDate && !outDate) {
        value *= MICROS_PER_DAY;
        asDate = false;
      }
      const result = addInterval(value, asDate, unit, Math.trunc(amounts[rowIdx]) * sign);
      const resultDays = outDate ? result : Math.floor(result / MICROS_PER_DAY);
      if (!(resultDays >= MIN_DAYS && resultDays <= MAX_DAYS)) {
        nulls ??= new Uint8Array(rowCount);
        nulls[rowIdx] = 1;
      } else out[rowIdx] = result;
    }
    return { kind: 'fixed', type, length: rowCount, values: out, nulls };
  };
}

function intervalDef(unit: IntervalUnit, subtract: boolean, aliases: string[] = []): FunctionDef {
  const name = intervalFunctionName(unit, subtract);
  const keepsDate = DAY_OR_MORE.has(unit);
  return dt({
    name,
    aliases,
    signature: `${name}(date_or_datetime, n) -> DATE|DATETIME`,
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => {
      const t = temporalArg(types[0]);
      const returnType = t.name === 'DATE' ? (keepsDate ? Types.DATE : Types.DATETIME) : t;
      return { argTypes: [t, Types.INT], returnType };
    },
    kernel: intervalKernel(unit, subtract ? -1 : 1),
    description: `${subtract ? 'Subtracts' : 'Adds'} n ${UNIT_NAMES[unit]}${unit === 'MONTH' || unit === 'YEAR' || unit === 'QUARTER' ? ' (the day clamps to the month end)' : ''}.`,
    example: `SELECT ${name}('2024-01-31', 1)`,
  });
}

function genericDateAdd(name: string, aliases: string[], subtract: boolean): FunctionDef {
  return dt({
    name,
    aliases,
    signature: `${name}(date_or_datetime, n[, unit]) -> DATE|DATETIME`,
    minArgs: 2,
    maxArgs: 3,
    resolve: (types) => {
      const t = temporalArg(types[0]);
      if (types.length === 2) return { argTypes: [t, Types.INT], returnType: t };
      return { argTypes: [t.name === 'DATE' ? Types.DATETIME : t, Types.INT, Types.STRING], returnType: t.name === 'DATE' ? Types.DATETIME : t };
    },
    kernel: (args, rowCount, site) => intervalKernel(args.length === 2 ? 'DAY' : null, subtract ? -1 : 1)(args, rowCount, site),
    description: `${subtract ? 'Subtracts' : 'Adds'} n days, or n units ('YEAR'...'MICROSECOND') with the third argument (then DATETIME).`,
    example: `SELECT ${name}('2024-01-31', 1)`,
  });
}

// ---------------------------------------------------------------- differences

/** Whole months from a to b (MySQL TIMESTAMPDIFF(MONTH)): counts only completed months. */
function monthsBetween(aMicros: number, bMicros: number): number {
  const aDays = Math.floor(aMicros / MICROS_PER_DAY);
  const bDays = Math.floor(bMicros / MICROS_PER_DAY);
  civil(aDays);
  const [ay, am, ad] = [civilOut[0], civilOut[1], civilOut[2]];
  const aTime = aMicros - aDays * MICROS_PER_DAY;
  civil(bDays);
  const [by, bm, bd] = [civilOut[0], civilOut[1], civilOut[2]];
  const bTime = bMicros - bDays * MICROS_PER_DAY;
  let months = by * 12 + bm - (ay * 12 + am);
  if (months > 0 && (bd < ad || (bd === ad && bTime < aTime))) months--;
  if (months < 0 && (bd > ad || (bd === ad && bTime > aTime))) months++;
  return months;
}

function diffUnits(unit: IntervalUnit, aMicros: number, bMicros: number): number {
  switch (unit) {
    case 'YEAR':
      return Math.trunc(monthsBetween(aMicros, bMicros) / 12);
    case 'QUARTER':
      return Math.trunc(monthsBetween(aMicros, bMicros) / 3);
    case 'MONTH':
      return monthsBetween(aMicros, bMicros);
    case 'WEEK':
      return Math.trunc((bMicros - aMicros) / (7 * MICROS_PER_DAY));
    case 'DAY':
      return Math.trunc((bMicros - aMicros) / MICROS_PER_DAY);
    case 'HOUR':
      return Math.trunc((bMicros - aMicros) / MICROS_PER_HOUR);
    case 'MINUTE':
      return Math.trunc((bMicros - aMicros) / MICROS_PER_MINUTE);
    case 'SECOND':
      return Math.trunc((bMicros - aMicros) / MICROS_PER_SECOND);
    case 'MICROSECOND':
      return bMicros - aMicros;
  }
}

function bigintVector(values: Float64Array): Vector {
  return { kind: 'fixed', type: Types.BIGINT, length: values.length, values: i64FromNumbers(values, values.length), nulls: null };
}

/** years_diff(a, b) etc.: whole units from b to a (Doris argument order: later first). */
function diffDef(unit: IntervalUnit): FunctionDef {
  const name = `${UNIT_NAMES[unit]}_diff`;
  return dt({
    name,
    signature: `${name}(end, start) -> BIGINT`,
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => ({ argTypes: types.map(temporalArg), returnType: Types.BIGINT }),
    kernel: (args, rowCount) => {
      const end = microsOf(args[0]);
      const start = microsOf(args[1]);
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = diffUnits(unit, start[rowIdx], end[rowIdx]);
      return bigintVector(out);
    },
    description: `Whole ${UNIT_NAMES[unit]} from start to end.`,
    example: `SELECT ${name}('2024-03-01', '2024-01-15')`,
  });
}

// ---------------------------------------------------------------- formatting

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

function ordinalSuffix(day: number): string {
  if (day % 100 >= 11 && day % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][day % 10] ?? 'th';
}

/** A compiled date_format pattern: literal strings and specifier letters. */
type FormatToken = string | { spec: string };

export function compileDateFormat(format: string): FormatToken[] {
  const tokens: FormatToken[] = [];
  let literal = '';
  for (let charIdx = 0; charIdx < format.length; charIdx++) {
    const ch = format[charIdx];
    if (ch === '%' && charIdx + 1 < format.length) {
      const spec = format[++charIdx];
      if ('aMbcDdefHhIijklmpMrSsTUuVvWwXxYy'.includes(spec)) {
        if (literal) tokens.push(literal);
        literal = '';
        tokens.push({ spec });
      } else literal += spec; // %% and unknown specifiers print the character
    } else literal += ch;
  }
  if (literal) tokens.push(literal);
  return tokens;
}

/** MySQL DATE_FORMAT of microseconds since the epoch. */
export function formatWithTokens(tokens: readonly FormatToken[], micros: number): string {
  const days = Math.floor(micros / MICROS_PER_DAY);
  let rest = micros - days * MICROS_PER_DAY;
  const hour = Math.floor(rest / MICROS_PER_HOUR);
  rest -= hour * MICROS_PER_HOUR;
  const minute = Math.floor(rest / MICROS_PER_MINUTE);
  rest -= minute * MICROS_PER_MINUTE;
  const second = Math.floor(rest / MICROS_PER_SECOND);
  const fraction = Math.round(rest - second * MICROS_PER_SECOND);
  civil(days);
  const year = civilOut[0];
  const month = civilOut[1];
  const day = civilOut[2];
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  let out = '';
  for (const token of tokens) {
    if (typeof token === 'string') {
      out += token;
      continue;
    }
    switch (token.spec) {
      case 'a':
        out += DAY_NAMES[weekdayMonday0(days)].slice(0, 3);
        break;
      case 'b':
        out += MONTH_NAMES[month - 1].slice(0, 3);
        break;
      case 'c':
        out += String(month);
        break;
      case 'D':
        out += day + ordinalSuffix(day);
        break;
      case 'd':
        out += pad(day, 2);
        break;
      case 'e':
        out += String(day);
        break;
      case 'f':
        out += pad(fraction, 6);
        break;
      case 'H':
        out += pad(hour, 2);
        break;
      case 'h':
      case 'I':
        out += pad(hour12, 2);
        break;
      case 'i':
        out += pad(minute, 2);
        break;
      case 'j':
        out += pad(days - daysFromCivil(year, 1, 1) + 1, 3);
        break;
      case 'k':
        out += String(hour);
        break;
      case 'l':
        out += String(hour12);
        break;
      case 'M':
        out += MONTH_NAMES[month - 1];
        break;
      case 'm':
        out += pad(month, 2);
        break;
      case 'p':
        out += hour < 12 ? 'AM' : 'PM';
        break;
      case 'r':
        out += `${pad(hour12, 2)}:${pad(minute, 2)}:${pad(second, 2)} ${hour < 12 ? 'AM' : 'PM'}`;
        break;
      case 'S':
      case 's':
        out += pad(second, 2);
        break;
      case 'T':
        out += `${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}`;
        break;
      case 'U':
        out += pad(calcWeek(days, 4).week, 2);
        break;
      case 'u':
        out += pad(calcWeek(days, 1).week, 2);
        break;
      case 'V':
        out += pad(calcWeek(days, 6).week, 2);
        break;
      case 'v':
        out += pad(calcWeek(days, 3).week, 2);
        break;
      case 'W':
        out += DAY_NAMES[weekdayMonday0(days)];
        break;
      case 'w':
        out += String((weekdayMonday0(days) + 1) % 7);
        break;
      case 'X':
        out += pad(calcWeek(days, 6).year, 4);
        break;
      case 'x':
        out += pad(calcWeek(days, 3).year, 4);
        break;
      case 'Y':
        out += pad(year, 4);
        break;
      case 'y':
        out += pad(year % 100, 2);
        break;
    }
  }
  return out;
}

function tokensFor(site: CallSite, format: string): FormatToken[] {
  const key = `fmt:${format}`;
  let tokens = site.cache.get(key) as FormatToken[] | undefined;
  if (tokens === undefined) {
    if (site.cache.size > 1000) site.cache.clear();
    tokens = compileDateFormat(format);
    site.cache.set(key, tokens);
  }
  return tokens;
}

/** MySQL STR_TO_DATE: microseconds, or null when the text does not match the format. */
export function parseWithFormat(text: string, format: string): number | null {
  let pos = 0;
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let micros = 0;
  let pm: boolean | null = null;
  let dayOfYearValue: number | null = null;
  const readNumber = (maxDigits: number): number | null => {
    while (pos < text.length && text[pos] === ' ') pos++;
    let digits = '';
    while (pos < text.length && digits.length < maxDigits && text[pos] >= '0' && text[pos] <= '9') digits += text[pos++];
    return digits ? Number(digits) : null;
  };
  const readName = (names: readonly string[], abbreviated: boolean): number | null => {
    const rest = text.slice(pos).toLowerCase();
    for (let nameIdx = 0; nameIdx < names.length; nameIdx++) {
      const candidate = (abbreviated ? names[nameIdx].slice(0, 3) : names[nameIdx]).toLowerCase();
      if (rest.startsWith(candidate)) {
        pos += candidate.length;
        return nameIdx;
      }
    }
    return null;
  };
  for (let fmtIdx = 0; fmtIdx < format.length; fmtIdx++) {
    const ch = format[fmtIdx];
    if (ch !== '%' || fmtIdx + 1 >= format.length) {
      if (ch === ' ') {
        while (pos < text.length && text[pos] === ' ') pos++;
        continue;
      }
      if (text[pos] !== ch) return null;
      pos++;
      continue;
    }
    const spec = format[++fmtIdx];
    let value: number | null = 0;
    switch (spec) {
      case 'Y':
        value = year = readNumber(4) ?? NaN;
        break;
      case 'y': {
        const yy = readNumber(2);
        value = yy;
        if (yy !== null) year = yy < 70 ? 2000 + yy : 1900 + yy;
        break;
      }
      case 'm':
      case 'c':
        value = month = readNumber(2) ?? NaN;
        break;
      case 'd':
      case 'e':
        value = day = readNumber(2) ?? NaN;
        break;
      case 'H':
      case 'k':
      case 'h':
      case 'I':
      case 'l':
        value = hour = readNumber(2) ?? NaN;
        break;
      case 'i':
        value = minute = readNumber(2) ?? NaN;
        break;
      case 's':
      case 'S':
        value = second = readNumber(2) ?? NaN;
        break;
      case 'f': {
        while (pos < text.length && text[pos] === ' ') pos++;
        let digits = '';
        while (pos < text.length && digits.length < 6 && text[pos] >= '0' && text[pos] <= '9') digits += text[pos++];
        value = micros = digits ? Number(digits.padEnd(6, '0')) : NaN;
        break;
      }
      case 'j':
        value = dayOfYearValue = readNumber(3);
        break;
      case 'p': {
        const marker = text.slice(pos, pos + 2).toUpperCase();
        if (marker !== 'AM' && marker !== 'PM') return null;
        pm = marker === 'PM';
        pos += 2;
        break;
      }
      case 'M':
        value = readName(MONTH_NAMES, false);
        if (value !== null) month = value + 1;
        break;
      case 'b':
        value = readName(MONTH_NAMES, true);
        if (value !== null) month = value + 1;
        break;
      case 'W':
        value = readName(DAY_NAMES, false);
        break;
      case 'a':
        value = readName(DAY_NAMES, true);
        break;
      case 'T': {
        const parts = [readNumber(2), text[pos] === ':' ? (pos++, readNumber(2)) : null, text[pos] === ':' ? (pos++, readNumber(2)) : null];
        if (parts.some((part) => part === null)) return null;
        [hour, minute, second] = parts as number[];
        break;
      }
      case '%':
        if (text[pos] !== '%') return null;
        pos++;
        break;
      default:
        return null;
    }
    if (value === null || Number.isNaN(value)) return null;
  }
  if (pm !== null) {
    if (hour > 12 || hour < 1) return null;
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (dayOfYearValue !== null) {
    const base = daysFromCivil(year, 1, 1) + dayOfYearValue - 1;
    return base * MICROS_PER_DAY + ((hour * 60 + minute) * 60 + second) * MICROS_PER_SECOND + micros;
  }
  if (year < 0 || year > 9999 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return null;
  return daysFromCivil(year, month, day) * MICROS_PER_DAY + ((hour * 60 + minute) * 60 + second) * MICROS_PER_SECOND + micros;
}

// ---------------------------------------------------------------- clock

/** Offset of the server's local time zone at a UTC instant, in microseconds. */
function localOffsetMicros(utcMillis: number): number {
  return -new Date(utcMillis).getTimezoneOffset() * MICROS_PER_MINUTE;
}

const statementClock = new WeakMap<ExecContext, number>();

/** Local wall-clock microseconds of the statement's start (constant within a statement). */
function statementNowMicros(ctx: ExecContext): number {
  let utcMillis = statementClock.get(ctx);
  if (utcMillis === undefined) {
    utcMillis = Date.now();
    statementClock.set(ctx, utcMillis);
  }
  return utcMillis * 1000 + localOffsetMicros(utcMillis);
}

function wallToUnixSeconds(micros: number): number {
  const approxUtcMillis = micros / 1000;
  return Math.floor((micros - localOffsetMicros(approxUtcMillis)) / MICROS_PER_SECOND);
}

function unixSecondsToWall(seconds: number): number {
  return seconds * MICROS_PER_SECOND + localOffsetMicros(seconds * 1000);
}

// ---------------------------------------------------------------- declarations

function clockDef(name: string, aliases: string[], type: DataType, value: (ctx: ExecContext) => number | string, description: string): FunctionDef {
  return dt({
    name,
    aliases,
    signature: `${name}() -> ${type.name}`,
    minArgs: 0,
    maxArgs: 0,
    resolve: () => ({ argTypes: [], returnType: type }),
    volatility: 'statement',
    kernel: (_args, rowCount, site, ctx) => constantVector(site.returnType, value(ctx), rowCount),
    description,
    example: `SELECT ${name}()`,
  });
}

function truncateToUnit(micros: number, unit: string): number {
  const days = Math.floor(micros / MICROS_PER_DAY);
  civil(days);
  const [year, month] = [civilOut[0], civilOut[1]];
  switch (unit.toLowerCase()) {
    case 'year':
      return daysFromCivil(year, 1, 1) * MICROS_PER_DAY;
    case 'quarter':
      return daysFromCivil(year, Math.floor((month - 1) / 3) * 3 + 1, 1) * MICROS_PER_DAY;
    case 'month':
      return daysFromCivil(year, month, 1) * MICROS_PER_DAY;
    case 'week':
      return (days - weekdayMonday0(days)) * MICROS_PER_DAY;
    case 'day':
      return days * MICROS_PER_DAY;
    case 'hour':
      return Math.floor(micros / MICROS_PER_HOUR) * MICROS_PER_HOUR;
    case 'minute':
      return Math.floor(micros / MICROS_PER_MINUTE) * MICROS_PER_MINUTE;
    case 'second':
      return Math.floor(micros / MICROS_PER_SECOND) * MICROS_PER_SECOND;
    default:
      throw galeneError('TYPE_MISMATCH', `date_trunc function time unit param only support argument is year|quarter|month|week|day|hour|minute|second, got ${unit}`);
  }
}

const DEFAULT_DATETIME_FORMAT = '%Y-%m-%d %H:%i:%s';

export const DATETIME_FUNCTIONS: readonly FunctionDef[] = [
  extractor('year', [], Types.SMALLINT, (days) => (civil(days), civilOut[0]), 'The year.'),
  extractor('month', [], Types.TINYINT, (days) => (civil(days), civilOut[1]), 'The month, 1..12.'),
  extractor('day', ['dayofmonth'], Types.TINYINT, (days) => (civil(days), civilOut[2]), 'The day of the month, 1..31.'),
  extractor('hour', [], Types.TINYINT, (_days, time) => Math.floor(time / MICROS_PER_HOUR), 'The hour, 0..23.'),
  extractor('minute', [], Types.TINYINT, (_days, time) => Math.floor(time / MICROS_PER_MINUTE) % 60, 'The minute, 0..59.'),
  extractor('second', [], Types.TINYINT, (_days, time) => Math.floor(time / MICROS_PER_SECOND) % 60, 'The second, 0..59.'),
  extractor('microsecond', [], Types.INT, (_days, time) => time % MICROS_PER_SECOND, 'The microseconds, 0..999999.'),
  extractor('dayofweek', [], Types.TINYINT, (days) => ((weekdayMonday0(days) + 1) % 7) + 1, 'Day of the week, 1 = Sunday .. 7 = Saturday.'),
  extractor('weekday', [], Types.TINYINT, (days) => weekdayMonday0(days), 'Day of the week, 0 = Monday .. 6 = Sunday.'),
  extractor('dayofyear', [], Types.SMALLINT, (days) => dayOfYear(days), 'Day of the year, 1..366.'),
  extractor('weekofyear', [], Types.TINYINT, (days) => calcWeek(days, weekMode(3)).week, 'ISO week number, 1..53.'),
  extractor('quarter', [], Types.TINYINT, (days) => (civil(days), Math.floor((civilOut[1] - 1) / 3) + 1), 'The quarter, 1..4.'),
  extractor('to_days', [], Types.INT, (days) => days + 719528, 'Days since year 0 (MySQL TO_DAYS).'),
  dt({
    name: 'week',
    signature: 'week(date[, mode]) -> TINYINT',
    minArgs: 1,
    maxArgs: 2,
    resolve: (types) => ({ argTypes: types.length > 1 ? [temporalArg(types[0]), Types.INT] : [temporalArg(types[0])], returnType: Types.TINYINT }),
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      const modes = args.length > 1 ? toF64(args[1]) : null;
      const out = new Int8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = calcWeek(days[rowIdx], weekMode(modes === null ? 0 : modes[rowIdx])).week;
      return intVector(Types.TINYINT, out);
    },
    description: 'Week number under MySQL WEEK() mode 0..7 (default 0).',
    example: "SELECT week('2024-01-07', 1)",
  }),
  dt({
    name: 'dayname',
    signature: 'dayname(date) -> VARCHAR',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => ({ argTypes: [temporalArg(types[0])], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const days = dayNumbers(args[0]);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(DAY_NAMES[weekdayMonday0(days[rowIdx])]);
      return out.finish();
    },
    description: 'English name of the weekday.',
    example: "SELECT dayname('2024-03-15')",
  }),
  dt({
    name: 'monthname',
    signature: 'monthname(date) -> VARCHAR',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => ({ argTypes: [temporalArg(types[0])], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const days = dayNumbers(args[0]);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        civil(days[rowIdx]);
        out.push(MONTH_NAMES[civilOut[1] - 1]);
      }
      return out.finish();
    },
    description: 'English name of the month.',
    example: "SELECT monthname('2024-03-15')",
  }),
  dt({
    name: 'to_date',
    aliases: ['date'],
    signature: 'to_date(datetime) -> DATE',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => ({ argTypes: [temporalArg(types[0])], returnType: Types.DATE }),
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      return { kind: 'fixed', type: Types.DATE, length: rowCount, values: days instanceof Int32Array ? days : Int32Array.from(days), nulls: null };
    },
    description: 'The date part of a datetime.',
    example: "SELECT to_date('2024-03-15 10:20:30')",
  }),
  dt({
    name: 'datediff',
    signature: 'datediff(a, b) -> INT',
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => ({ argTypes: types.map(temporalArg), returnType: Types.INT }),
    kernel: (args, rowCount) => {
      const a = dayNumbers(args[0]);
      const b = dayNumbers(args[1]);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = a[rowIdx] - b[rowIdx];
      return intVector(Types.INT, out);
    },
    description: 'Days from b to a, ignoring the time of day.',
    example: "SELECT datediff('2024-03-01', '2024-02-01')",
  }),
  dt({
    name: 'timestampdiff',
    signature: "timestampdiff(unit, start, end) -> BIGINT (unit as a string: 'DAY', 'MONTH' ...)",
    minArgs: 3,
    maxArgs: 3,
    resolve: (types) => ({ argTypes: [Types.STRING, temporalArg(types[1]), temporalArg(types[2])], returnType: Types.BIGINT }),
    kernel: (args, rowCount) => {
      const units = toJsStrings(args[0]);
      const start = microsOf(args[1]);
      const end = microsOf(args[2]);
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = diffUnits(parseUnit(units[rowIdx] ?? 'DAY'), start[rowIdx], end[rowIdx]);
      return bigintVector(out);
    },
    description: 'Whole units from start to end (the binder passes the unit keyword as a string).',
    example: "SELECT timestampdiff('MONTH', '2024-01-31', '2024-03-01')",
  }),
  ...(['YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'MICROSECOND'] as IntervalUnit[]).flatMap((unit) => [
    intervalDef(unit, false),
    intervalDef(unit, true),
    ...(unit !== 'QUARTER' && unit !== 'MICROSECOND' ? [diffDef(unit)] : []),
  ]),
  dt({
    name: 'timestampadd',
    signature: "timestampadd(unit, n, datetime) -> DATETIME (the binder passes the unit keyword as a string)",
    minArgs: 3,
    maxArgs: 3,
    resolve: () => ({ argTypes: [Types.STRING, Types.INT, Types.DATETIME], returnType: Types.DATETIME }),
    kernel: (args, rowCount, site) => {
      const reordered: CallSite = { ...site, argTypes: [site.argTypes[2], site.argTypes[1], site.argTypes[0]], isConst: [site.isConst[2], site.isConst[1], site.isConst[0]] };
      return intervalKernel(null, 1)([args[2], args[1], args[0]], rowCount, reordered);
    },
    description: 'Adds n units to a datetime (TIMESTAMPADD(unit, n, d)).',
    example: "SELECT timestampadd('MINUTE', 90, '2024-01-01 00:00:00')",
  }),
  dt({
    name: 'extract',
    signature: "extract(unit, date_or_datetime) -> INT (EXTRACT(unit FROM d))",
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => ({ argTypes: [Types.STRING, temporalArg(types[1])], returnType: Types.INT }),
    kernel: (args, rowCount) => {
      const units = toJsStrings(args[0]);
      const vec = args[1];
      const values = (vec as { values: ArrayLike<number> }).values;
      const isDate = vec.type.name === 'DATE';
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const unit = parseUnit(units[rowIdx] ?? 'DAY');
        const value = values[rowIdx];
        const days = isDate ? value : Math.floor(value / MICROS_PER_DAY);
        const time = isDate ? 0 : value - days * MICROS_PER_DAY;
        civil(days);
        switch (unit) {
          case 'YEAR':
            out[rowIdx] = civilOut[0];
            break;
          case 'QUARTER':
            out[rowIdx] = Math.floor((civilOut[1] - 1) / 3) + 1;
            break;
          case 'MONTH':
            out[rowIdx] = civilOut[1];
            break;
          case 'WEEK':
            out[rowIdx] = calcWeek(days, weekMode(0)).week;
            break;
          case 'DAY':
            out[rowIdx] = civilOut[2];
            break;
          case 'HOUR':
            out[rowIdx] = Math.floor(time / MICROS_PER_HOUR);
            break;
          case 'MINUTE':
            out[rowIdx] = Math.floor(time / MICROS_PER_MINUTE) % 60;
            break;
          case 'SECOND':
            out[rowIdx] = Math.floor(time / MICROS_PER_SECOND) % 60;
            break;
          case 'MICROSECOND':
            out[rowIdx] = time % MICROS_PER_SECOND;
            break;
        }
      }
      return intVector(Types.INT, out);
    },
    description: 'One field of a date or datetime: YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MICROSECOND.',
    example: "SELECT EXTRACT(YEAR FROM '2024-03-15')",
  }),
  genericDateAdd('date_add', ['adddate'], false),
  genericDateAdd('date_sub', ['subdate'], true),
  dt({
    name: 'date_format',
    signature: 'date_format(date_or_datetime, format) -> VARCHAR',
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => ({ argTypes: [temporalArg(types[0]), Types.STRING], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const micros = microsOf(args[0]);
      const formats = toJsStrings(args[1]);
      const out = new StringOut(site.returnType, rowCount);
      const constTokens = site.isConst[1] && rowCount > 0 ? tokensFor(site, formats[0] ?? '') : null;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(formatWithTokens(constTokens ?? tokensFor(site, formats[rowIdx] ?? ''), micros[rowIdx]));
      return out.finish();
    },
    description: 'Formats with MySQL specifiers (%Y %m %d %H %i %s %f %y %M %b %a %W %j %e %c %T %p %h %l %k %r %U %u %V %v %X %x %D %w).',
    example: "SELECT date_format('2024-03-05 14:07:09', '%Y/%m/%d %H:%i')",
  }),
  dt({
    name: 'str_to_date',
    signature: 'str_to_date(str, format) -> DATETIME',
    minArgs: 2,
    maxArgs: 2,
    resolve: () => ({ argTypes: [Types.STRING, Types.STRING], returnType: Types.DATETIME }),
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      const formats = toJsStrings(args[1]);
      const out = new Float64Array(rowCount);
      let nulls: Uint8Array | null = null;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const micros = parseWithFormat(texts[rowIdx] ?? '', formats[rowIdx] ?? '');
        if (micros === null) {
          nulls ??= new Uint8Array(rowCount);
          nulls[rowIdx] = 1;
        } else out[rowIdx] = micros;
      }
      return { kind: 'fixed', type: Types.DATETIME, length: rowCount, values: out, nulls };
    },
    description: 'Parses text with a MySQL format; NULL when it does not match.',
    example: "SELECT str_to_date('2024-03-05 14:07', '%Y-%m-%d %H:%i')",
  }),
  dt({
    name: 'from_unixtime',
    signature: 'from_unixtime(seconds[, format]) -> VARCHAR',
    minArgs: 1,
    maxArgs: 2,
    resolve: (types) => ({ argTypes: types.length > 1 ? [Types.BIGINT, Types.STRING] : [Types.BIGINT], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const seconds = toF64(args[0]);
      const formats = args.length > 1 ? toJsStrings(args[1]) : null;
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (seconds[rowIdx] < 0) {
          out.pushNull();
          continue;
        }
        const wall = unixSecondsToWall(seconds[rowIdx]);
        out.push(formatWithTokens(tokensFor(site, formats === null ? DEFAULT_DATETIME_FORMAT : formats[rowIdx] ?? ''), wall));
      }
      return out.finish();
    },
    description: 'Formats a Unix timestamp in the server time zone (default format %Y-%m-%d %H:%i:%s).',
    example: "SELECT from_unixtime(0, '%Y')",
  }),
  dt({
    name: 'unix_timestamp',
    signature: 'unix_timestamp([datetime]) -> BIGINT',
    minArgs: 0,
    maxArgs: 1,
    resolve: (types) => ({ argTypes: types.map(temporalArg), returnType: Types.BIGINT }),
    volatility: 'statement',
    kernel: (args, rowCount, _site, ctx) => {
      const out = new Float64Array(rowCount);
      if (args.length === 0) out.fill(wallToUnixSeconds(statementNowMicros(ctx)));
      else {
        const micros = microsOf(args[0]);
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = Math.max(0, wallToUnixSeconds(micros[rowIdx]));
      }
      return bigintVector(out);
    },
    description: 'Seconds since 1970-01-01 UTC of a datetime in the server time zone (now without argument).',
    example: "SELECT unix_timestamp('1970-01-02 00:00:00')",
  }),
  clockDef('now', ['current_timestamp', 'localtime', 'localtimestamp', 'sysdate'], Types.DATETIME, (ctx) => Math.floor(statementNowMicros(ctx) / MICROS_PER_SECOND) * MICROS_PER_SECOND, 'The statement start time (local time zone).'),
  clockDef('curdate', ['current_date'], Types.DATE, (ctx) => Math.floor(statementNowMicros(ctx) / MICROS_PER_DAY), 'The current date (local time zone).'),
  clockDef('curtime', ['current_time'], Types.STRING, (ctx) => formatDatetime(statementNowMicros(ctx)).slice(11), "The current time as 'HH:MM:SS'."),
  clockDef('utc_timestamp', [], Types.DATETIME, () => Math.floor(Date.now() / 1000) * MICROS_PER_SECOND, 'The current UTC time.'),
  dt({
    name: 'last_day',
    signature: 'last_day(date) -> DATE',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => ({ argTypes: [temporalArg(types[0])], returnType: Types.DATE }),
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        civil(days[rowIdx]);
        out[rowIdx] = daysFromCivil(civilOut[0], civilOut[1], daysInMonth(civilOut[0], civilOut[1]));
      }
      return { kind: 'fixed', type: Types.DATE, length: rowCount, values: out, nulls: null };
    },
    description: 'The last day of the month.',
    example: "SELECT last_day('2024-02-10')",
  }),
  dt({
    name: 'date_trunc',
    signature: "date_trunc(datetime, unit) -> DATETIME (also date_trunc(unit, datetime))",
    minArgs: 2,
    maxArgs: 2,
    resolve: (types): Resolution => {
      // Doris's documented order is (datetime, unit); (unit, datetime) is taken only when the second
      // argument is typed DATE/DATETIME, since two strings cannot be told apart by type.
      const unitFirst = isStringType(types[0]) && (types[1].name === 'DATE' || types[1].name === 'DATETIME');
      const valueType = temporalArg(unitFirst ? types[1] : types[0]);
      const argTypes = unitFirst ? [Types.STRING, valueType] : [valueType, Types.STRING];
      if (!unitFirst && isNumericType(types[1])) throw badArgs('date_trunc', types);
      return { argTypes, returnType: valueType };
    },
    kernel: (args, rowCount, site) => {
      const unitFirst = isStringType(site.argTypes[0]);
      const valueVec = unitFirst ? args[1] : args[0];
      const units = toJsStrings(unitFirst ? args[0] : args[1]);
      const micros = microsOf(valueVec);
      const isDate = site.returnType.name === 'DATE';
      const out = isDate ? new Int32Array(rowCount) : new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const truncated = truncateToUnit(micros[rowIdx], units[rowIdx] ?? 'day');
        out[rowIdx] = isDate ? Math.floor(truncated / MICROS_PER_DAY) : truncated;
      }
      return { kind: 'fixed', type: site.returnType, length: rowCount, values: out, nulls: null };
    },
    description: "Truncates to the start of the unit: 'year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'.",
    example: "SELECT date_trunc('2024-03-15 10:20:30', 'month')",
  }),
  dt({
    name: 'from_days',
    signature: 'from_days(n) -> DATE',
    minArgs: 1,
    maxArgs: 1,
    resolve: () => ({ argTypes: [Types.INT], returnType: Types.DATE }),
    kernel: (args, rowCount) => {
      const input = toF64(args[0]);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = input[rowIdx] - 719528;
      return { kind: 'fixed', type: Types.DATE, length: rowCount, values: out, nulls: null };
    },
    description: 'The date n days after year 0 (MySQL FROM_DAYS).',
    example: 'SELECT from_days(739000)',
  }),
  dt({
    name: 'makedate',
    signature: 'makedate(year, dayofyear) -> DATE',
    minArgs: 2,
    maxArgs: 2,
    resolve: () => ({ argTypes: [Types.INT, Types.INT], returnType: Types.DATE }),
    kernel: (args, rowCount) => {
      const years = toF64(args[0]);
      const doys = toF64(args[1]);
      const out = new Int32Array(rowCount);
      let nulls: Uint8Array | null = null;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (doys[rowIdx] <= 0) {
          nulls ??= new Uint8Array(rowCount);
          nulls[rowIdx] = 1;
        } else out[rowIdx] = daysFromCivil(years[rowIdx], 1, 1) + doys[rowIdx] - 1;
      }
      return { kind: 'fixed', type: Types.DATE, length: rowCount, values: out, nulls };
    },
    description: 'The date of the given day of the year.',
    example: 'SELECT makedate(2024, 60)',
  }),
];
