/**
 * Date arithmetic: interval units, one function per unit (years_add ... microseconds_sub, as Doris
 * names them), the *_diff family, timestampdiff / timestampadd, the generic date_add / date_sub,
 * EXTRACT and date_trunc. On a DATE, units of a day or more give DATE, smaller units DATETIME; results
 * outside years 0..9999 are NULL.
 */
import { Vector } from '../../../common/column';
import { addMonthsToDays, daysFromCivil, MICROS_PER_DAY, MICROS_PER_SECOND } from '../../../common/datetime';
import { galeneError } from '../../../common/errors';
import { DataType, isNumericType, isStringType, Types } from '../../../common/types';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { badArgs } from '../function-registry';
import { NullsOut } from '../kernels';
import { arg, opt } from '../signature';
import { fixedVector, i64FromNumbers, toF64, toJsStrings } from '../vector-ops';
import { calcWeek, civil, civilOut, dt, microsOf, MICROS_PER_HOUR, MICROS_PER_MINUTE, preciseTemporalArg, temporalArg, weekdayMonday0, weekMode } from './datetime-fields';

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
    const nulls = new NullsOut(rowCount);
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
        nulls.setNull(rowIdx);
      } else out[rowIdx] = result;
    }
    return fixedVector(type, out, nulls.map);
  };
}

function intervalDef(unit: IntervalUnit, subtract: boolean, aliases: string[] = []): FunctionDef {
  const name = intervalFunctionName(unit, subtract);
  const keepsDate = DAY_OR_MORE.has(unit);
  return dt({
    name,
    aliases,
    args: [arg('date_or_datetime'), arg('n')],
    returns: `DATE|DATETIME`,
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
    args: [arg('date_or_datetime'), arg('n'), opt('unit')],
    returns: `DATE|DATETIME`,
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

/** BIGINT results computed as numbers. */
export function bigintVector(values: Float64Array): Vector {
  return fixedVector(Types.BIGINT, i64FromNumbers(values, values.length));
}

/** years_diff(a, b) etc.: whole units from b to a (Doris argument order: later first). */
function diffDef(unit: IntervalUnit): FunctionDef {
  const name = `${UNIT_NAMES[unit]}_diff`;
  return dt({
    name,
    args: [arg('end', 'TEMPORAL'), arg('start', 'TEMPORAL')],
    returns: Types.BIGINT,
    // microseconds_diff reads text with its fraction of a second.
    ...(unit === 'MICROSECOND' ? { resolve: (types: readonly DataType[]) => ({ argTypes: [preciseTemporalArg(types[0]), preciseTemporalArg(types[1])], returnType: Types.BIGINT }) } : {}),
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


export const DATETIME_ARITHMETIC_FUNCTIONS: readonly FunctionDef[] = [
  dt({
    name: 'timestampdiff',
    args: [arg('unit'), arg('start'), arg('end')],
    returns: "BIGINT (unit as a string: 'DAY', 'MONTH' ...)",
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
    diffDef(unit),
  ]),
  dt({
    name: 'timestampadd',
    args: [arg('unit'), arg('n'), arg('datetime')],
    returns: "DATETIME (the binder passes the unit keyword as a string)",
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
    args: [arg('unit'), arg('date_or_datetime')],
    returns: "INT (EXTRACT(unit FROM d))",
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
      return fixedVector(Types.INT, out);
    },
    description: 'One field of a date or datetime: YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MICROSECOND.',
    example: "SELECT EXTRACT(YEAR FROM '2024-03-15')",
  }),
  genericDateAdd('date_add', ['adddate'], false),
  genericDateAdd('date_sub', ['subdate'], true),
  dt({
    name: 'date_trunc',
    args: [arg('datetime'), arg('unit')],
    returns: "DATETIME (also date_trunc(unit, datetime))",
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
      return fixedVector(site.returnType, out);
    },
    description: "Truncates to the start of the unit: 'year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'.",
    example: "SELECT date_trunc('2024-03-15 10:20:30', 'month')",
  }),
];
