/**
 * Date and time fields: the calendar helpers every datetime file shares (civil-from-days from
 * common/datetime.ts, MySQL week numbering), the argument typing (DATE and DATETIME stay, anything else
 * becomes DATETIME) and the functions that read one field or build a date from parts. Field extraction
 * runs generated loops (kernels.ts mapNumbers) on the numbers directly, no Date objects.
 */
import { Vector } from '../../../common/column';
import { civilFromDaysInto, daysFromCivil, daysInMonth, isLeapYear, MICROS_PER_DAY, MICROS_PER_SECOND } from '../../../common/datetime';
import { DataType, Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';
import { mapNumbers, mapNumbers2, NumberArray, shapeOf, valuesOrNulls } from '../kernels';
import { arg, defineFunction, FunctionDecl, opt } from '../signature';
import { fixedVector, StringOut, toF64 } from '../vector-ops';

export const MICROS_PER_HOUR = 3_600_000_000;
export const MICROS_PER_MINUTE = 60_000_000;

export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

// ---------------------------------------------------------------- calendar helpers

/** Scratch output of civil(): [year, month, day]. */
export const civilOut = new Int32Array(3);

/** Year / month / day of a day number into civilOut (no allocation). */
export function civil(days: number): void {
  civilFromDaysInto(days, civilOut);
}

/** 0 = Monday ... 6 = Sunday. */
export function weekdayMonday0(days: number): number {
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
export function weekMode(mode: number): number {
  let behaviour = mode & 7;
  if (!(behaviour & 1)) behaviour ^= 4;
  return behaviour;
}

// ---------------------------------------------------------------- argument typing

/** DATE and DATETIME stay; anything else is cast to DATETIME (strings parse, bad values become NULL). */
export function temporalArg(t: DataType): DataType {
  return t.name === 'DATE' || t.name === 'DATETIME' ? t : Types.DATETIME;
}

/** As temporalArg, but text becomes DATETIME(6) so its fraction of a second is kept. */
export function preciseTemporalArg(t: DataType): DataType {
  return t.name === 'DATE' || t.name === 'DATETIME' ? t : Types.datetime(6);
}

/** Day numbers of a DATE or DATETIME vector. */
export function dayNumbers(vec: Vector): ArrayLike<number> {
  const values = (vec as { values: ArrayLike<number> }).values;
  if (vec.type.name === 'DATE') return values;
  return mapNumbers(`Math.floor(x / ${MICROS_PER_DAY})`, values, new Int32Array(vec.length), vec.length);
}

/** Microseconds of a DATE or DATETIME vector. */
export function microsOf(vec: Vector): Float64Array {
  const values = (vec as { values: ArrayLike<number> }).values;
  if (vec.type.name === 'DATETIME') return values as Float64Array;
  return mapNumbers(`x * ${MICROS_PER_DAY}`, values, new Float64Array(vec.length), vec.length);
}

/** A datetime-family declaration. */
export function dt(decl: Omit<FunctionDecl, 'family'>): FunctionDef {
  return defineFunction({ family: 'datetime', ...decl });
}

// ---------------------------------------------------------------- field extraction

/** Per row of a DATE (`x` is the day) or a DATETIME (`x` is microseconds): `days` and `time` of day. */
const DATE_PRELUDE = 'const days = x; const time = 0;';
const DATETIME_PRELUDE = `const days = Math.floor(x / ${MICROS_PER_DAY}); const time = x - days * ${MICROS_PER_DAY};`;

function outputFor(type: DataType, rowCount: number): NumberArray {
  return type.name === 'SMALLINT' ? new Int16Array(rowCount) : type.name === 'TINYINT' ? new Int8Array(rowCount) : new Int32Array(rowCount);
}

/**
 * An extractor of one field from DATE/DATETIME: `template` over `days` and `time` (microseconds into
 * the day), optionally calling `h(days)`; one generated loop per field and input type.
 */
function extractor(name: string, aliases: string[], returnType: DataType, template: string, description: string, h?: (days: number) => number): FunctionDef {
  return dt({
    name,
    aliases,
    args: [arg('date_or_datetime', 'TEMPORAL')],
    returns: returnType,
    kernel: (args, rowCount) => {
      const vec = args[0];
      const values = (vec as { values: ArrayLike<number> }).values;
      const prelude = vec.type.name === 'DATE' ? DATE_PRELUDE : DATETIME_PRELUDE;
      return fixedVector(returnType, mapNumbers(template, values, outputFor(returnType, rowCount), rowCount, h, prelude));
    },
    description,
    example: `SELECT ${name}('2024-03-15 10:20:30')`,
  });
}

const yearOf = (days: number): number => (civil(days), civilOut[0]);
const monthOf = (days: number): number => (civil(days), civilOut[1]);
const dayOf = (days: number): number => (civil(days), civilOut[2]);
const quarterOf = (days: number): number => (civil(days), Math.floor((civilOut[1] - 1) / 3) + 1);
const isoWeekOf = (days: number): number => calcWeek(days, weekMode(3)).week;
const WEEKDAY = '((((days + 3) % 7) + 7) % 7)';

export const DATETIME_FIELD_FUNCTIONS: readonly FunctionDef[] = [
  extractor('year', [], Types.SMALLINT, 'h(days)', 'The year.', yearOf),
  extractor('month', [], Types.TINYINT, 'h(days)', 'The month, 1..12.', monthOf),
  extractor('day', ['dayofmonth'], Types.TINYINT, 'h(days)', 'The day of the month, 1..31.', dayOf),
  extractor('hour', [], Types.TINYINT, `Math.floor(time / ${MICROS_PER_HOUR})`, 'The hour, 0..23.'),
  extractor('minute', [], Types.TINYINT, `Math.floor(time / ${MICROS_PER_MINUTE}) % 60`, 'The minute, 0..59.'),
  extractor('second', [], Types.TINYINT, `Math.floor(time / ${MICROS_PER_SECOND}) % 60`, 'The second, 0..59.'),
  extractor('microsecond', [], Types.INT, `time % ${MICROS_PER_SECOND}`, 'The microseconds, 0..999999.'),
  extractor('dayofweek', [], Types.TINYINT, `((${WEEKDAY} + 1) % 7) + 1`, 'Day of the week, 1 = Sunday .. 7 = Saturday.'),
  extractor('weekday', [], Types.TINYINT, WEEKDAY, 'Day of the week, 0 = Monday .. 6 = Sunday.'),
  extractor('dayofyear', [], Types.SMALLINT, 'h(days)', 'Day of the year, 1..366.', dayOfYear),
  extractor('weekofyear', [], Types.TINYINT, 'h(days)', 'ISO week number, 1..53.', isoWeekOf),
  extractor('quarter', [], Types.TINYINT, 'h(days)', 'The quarter, 1..4.', quarterOf),
  extractor('to_days', [], Types.INT, 'days + 719528', 'Days since year 0 (MySQL TO_DAYS).'),
  dt({
    name: 'week',
    args: [arg('date'), opt('mode')],
    returns: 'TINYINT',
    resolve: (types) => ({ argTypes: types.length > 1 ? [temporalArg(types[0]), Types.INT] : [temporalArg(types[0])], returnType: Types.TINYINT }),
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      const modes = args.length > 1 ? toF64(args[1]) : null;
      const out = new Int8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = calcWeek(days[rowIdx], weekMode(modes === null ? 0 : modes[rowIdx])).week;
      return fixedVector(Types.TINYINT, out);
    },
    description: 'Week number under MySQL WEEK() mode 0..7 (default 0).',
    example: "SELECT week('2024-01-07', 1)",
  }),
  dt({
    name: 'dayname',
    args: [arg('date', 'TEMPORAL')],
    returns: Types.STRING,
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
    args: [arg('date', 'TEMPORAL')],
    returns: Types.STRING,
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
    args: [arg('datetime', 'TEMPORAL')],
    returns: Types.DATE,
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      return { kind: 'fixed', type: Types.DATE, length: rowCount, values: days instanceof Int32Array ? days : Int32Array.from(days), nulls: null };
    },
    description: 'The date part of a datetime.',
    example: "SELECT to_date('2024-03-15 10:20:30')",
  }),
  dt({
    name: 'datediff',
    args: [arg('a', 'TEMPORAL'), arg('b', 'TEMPORAL')],
    returns: Types.INT,
    kernel: (args, rowCount, site) => {
      const out = mapNumbers2('x - y', dayNumbers(args[0]), dayNumbers(args[1]), new Int32Array(rowCount), rowCount, shapeOf(site));
      return fixedVector(Types.INT, out);
    },
    description: 'Days from b to a, ignoring the time of day.',
    example: "SELECT datediff('2024-03-01', '2024-02-01')",
  }),
  dt({
    name: 'last_day',
    args: [arg('date', 'TEMPORAL')],
    returns: Types.DATE,
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        civil(days[rowIdx]);
        out[rowIdx] = daysFromCivil(civilOut[0], civilOut[1], daysInMonth(civilOut[0], civilOut[1]));
      }
      return fixedVector(Types.DATE, out);
    },
    description: 'The last day of the month.',
    example: "SELECT last_day('2024-02-10')",
  }),
  dt({
    name: 'from_days',
    args: [arg('n')],
    returns: 'DATE',
    resolve: () => ({ argTypes: [Types.INT], returnType: Types.DATE }),
    kernel: (args, rowCount) => {
      const input = toF64(args[0]);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = input[rowIdx] - 719528;
      return fixedVector(Types.DATE, out);
    },
    description: 'The date n days after year 0 (MySQL FROM_DAYS).',
    example: 'SELECT from_days(739000)',
  }),
  dt({
    name: 'makedate',
    args: [arg('year'), arg('dayofyear')],
    returns: 'DATE',
    resolve: () => ({ argTypes: [Types.INT, Types.INT], returnType: Types.DATE }),
    kernel: (args, rowCount) => {
      const years = toF64(args[0]);
      const doys = toF64(args[1]);
      return valuesOrNulls(Types.DATE, new Int32Array(rowCount), rowCount, (rowIdx) => (doys[rowIdx] <= 0 ? null : daysFromCivil(years[rowIdx], 1, 1) + doys[rowIdx] - 1));
    },
    description: 'The date of the given day of the year.',
    example: 'SELECT makedate(2024, 60)',
  }),];
