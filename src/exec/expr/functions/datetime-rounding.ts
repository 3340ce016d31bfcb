/**
 * Doris's period rounding: year_floor / year_ceil ... second_floor / second_ceil. Each rounds a datetime
 * down (floor) or up (ceil) to `origin + k * period units` (period default 1, origin default
 * 1970-01-01 00:00:00, for weeks 1970-01-04). Units of a week or less are fixed lengths of microseconds; months, quarters and
 * years step whole months from the origin (the day clamps to the month end). A DATE gives a DATE, anything
 * else a DATETIME;
 * a result outside years 0..9999 is NULL.
 */
import { Vector } from '../../../common/column';
import { addMonthsToDays, daysFromCivil, MICROS_PER_DAY, MICROS_PER_SECOND } from '../../../common/datetime';
import { galeneError } from '../../../common/errors';
import { isNumericType, Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';
import { NullsOut } from '../kernels';
import { arg, opt } from '../signature';
import { fixedVector, toF64, toJsStrings } from '../vector-ops';
import { civil, civilOut, dt, microsOf, MICROS_PER_HOUR, MICROS_PER_MINUTE, temporalArg } from './datetime-fields';

type RoundUnit = 'year' | 'quarter' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second';

/** Months per step for the calendar units, microseconds per step for the fixed ones. */
const MONTHS: Partial<Record<RoundUnit, number>> = { year: 12, quarter: 3, month: 1 };
const FIXED: Partial<Record<RoundUnit, number>> = { week: 7 * MICROS_PER_DAY, day: MICROS_PER_DAY, hour: MICROS_PER_HOUR, minute: MICROS_PER_MINUTE, second: MICROS_PER_SECOND };

/** Doris's default origins: 1970-01-01 00:00:00, for weeks the Sunday 1970-01-04. */
const DEFAULT_ORIGIN = 0;
const DEFAULT_WEEK_ORIGIN = 3 * MICROS_PER_DAY;
const MIN_MICROS = daysFromCivil(0, 1, 1) * MICROS_PER_DAY;
const MAX_MICROS = (daysFromCivil(9999, 12, 31) + 1) * MICROS_PER_DAY - 1;

/** The origin moved by `months` whole months (the day clamps), its time of day kept. */
function addMonthsMicros(origin: number, months: number): number {
  const days = Math.floor(origin / MICROS_PER_DAY);
  return addMonthsToDays(days, months) * MICROS_PER_DAY + (origin - days * MICROS_PER_DAY);
}

/** Round `value` down (ceil false) or up to origin + k * period units. */
export function roundToPeriod(value: number, unit: RoundUnit, period: number, origin: number, ceil: boolean): number {
  const fixed = FIXED[unit];
  if (fixed !== undefined) {
    const size = fixed * period;
    const floor = origin + Math.floor((value - origin) / size) * size;
    return ceil && floor !== value ? floor + size : floor;
  }
  const step = MONTHS[unit]! * period;
  civil(Math.floor(value / MICROS_PER_DAY));
  const valueMonths = civilOut[0] * 12 + civilOut[1];
  civil(Math.floor(origin / MICROS_PER_DAY));
  const originMonths = civilOut[0] * 12 + civilOut[1];
  let steps = Math.floor((valueMonths - originMonths) / step);
  let floor = addMonthsMicros(origin, steps * step);
  if (floor > value) floor = addMonthsMicros(origin, --steps * step);
  return ceil && floor !== value ? addMonthsMicros(origin, (steps + 1) * step) : floor;
}

function roundDef(unit: RoundUnit, ceil: boolean): FunctionDef {
  const name = `${unit}_${ceil ? 'ceil' : 'floor'}`;
  return dt({
    name,
    args: [arg('datetime'), opt('period'), opt('origin')],
    returns: 'DATE|DATETIME', note: `(also ${name}(datetime, origin))`,
    resolve: (types) => {
      const returnType = temporalArg(types[0]);
      if (types.length === 1) return { argTypes: [returnType], returnType };
      if (types.length === 2 && !isNumericType(types[1])) return { argTypes: [returnType, Types.DATETIME], returnType };
      return { argTypes: types.length === 2 ? [returnType, Types.INT] : [returnType, Types.INT, Types.DATETIME], returnType };
    },
    kernel: (args, rowCount, site) => {
      const values = microsOf(args[0]);
      const periodFirst = args.length > 1 && site.argTypes[1].name === 'INT';
      const periods = periodFirst ? toF64(args[1]) : null;
      const originVec: Vector | null = args.length === 3 ? args[2] : args.length === 2 && !periodFirst ? args[1] : null;
      const origins = originVec === null ? null : microsOf(originVec);
      const isDate = site.returnType.name === 'DATE';
      const defaultOrigin = unit === 'week' ? DEFAULT_WEEK_ORIGIN : DEFAULT_ORIGIN;
      const out = isDate ? new Int32Array(rowCount) : new Float64Array(rowCount);
      const nulls = new NullsOut(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const period = periods === null ? 1 : Math.trunc(periods[rowIdx]);
        if (args.some((vec) => vec.nulls !== null && vec.nulls[rowIdx] === 1)) continue;
        if (!(period >= 1)) throw galeneError('INVALID_ARGUMENT', `Operation ${name} of ${period} out of range`);
        const result = roundToPeriod(values[rowIdx], unit, period, origins === null ? defaultOrigin : origins[rowIdx], ceil);
        if (result >= MIN_MICROS && result <= MAX_MICROS) out[rowIdx] = isDate ? Math.floor(result / MICROS_PER_DAY) : result;
        else nulls.setNull(rowIdx);
      }
      return fixedVector(site.returnType, out, nulls.map);
    },
    description: `Rounds ${ceil ? 'up' : 'down'} to a multiple of period ${unit}s (default 1) counted from origin (default 1970-01-01 00:00:00; weeks from Sunday 1970-01-04).`,
    example: `SELECT ${name}('2023-07-13 22:28:18', 5)`,
  });
}

const ROUND_UNITS: readonly RoundUnit[] = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'];

/** date_floor / date_ceil count periods from 0001-01-01 00:00:00 (Doris's DATE_FLOOR). */
const YEAR_ONE = daysFromCivil(1, 1, 1) * MICROS_PER_DAY;

/**
 * date_floor(datetime, INTERVAL n unit) / date_ceil: the binder passes the unit as a third, string
 * argument (`date_floor(d, n, 'DAY')`), so one declaration covers every unit.
 */
function dateRoundDef(ceil: boolean): FunctionDef {
  const name = ceil ? 'date_ceil' : 'date_floor';
  return dt({
    name,
    args: [arg('datetime'), arg('period', 'INT'), arg('unit', 'STRING')],
    returns: 'DATE|DATETIME',
    signature: `${name}(datetime, INTERVAL period unit) -> DATETIME`,
    resolve: (types) => ({ argTypes: [temporalArg(types[0]), Types.INT, Types.STRING], returnType: Types.datetime(temporalArg(types[0]).scale ?? 0) }),
    kernel: (args, rowCount, site) => {
      const values = microsOf(args[0]);
      const periods = toF64(args[1]);
      const units = toJsStrings(args[2]);
      const out = new Float64Array(rowCount);
      const nulls = new NullsOut(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (args.some((vec) => vec.nulls !== null && vec.nulls[rowIdx] === 1)) continue;
        const unit = (units[rowIdx] ?? '').toLowerCase() as RoundUnit;
        if (!ROUND_UNITS.includes(unit)) throw galeneError('INVALID_ARGUMENT', `${name} does not support the unit ${units[rowIdx]}`);
        const period = Math.trunc(periods[rowIdx]);
        if (!(period >= 1)) throw galeneError('INVALID_ARGUMENT', `Operation ${name} of ${period} out of range`);
        const result = roundToPeriod(values[rowIdx], unit, period, YEAR_ONE, ceil);
        if (result >= MIN_MICROS && result <= MAX_MICROS) out[rowIdx] = result;
        else nulls.setNull(rowIdx);
      }
      return fixedVector(site.returnType, out, nulls.map);
    },
    description: `Rounds ${ceil ? 'up' : 'down'} to a multiple of the interval counted from 0001-01-01 00:00:00 (units YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND).`,
    example: `SELECT ${name}('2023-07-13 22:28:18', INTERVAL 5 MINUTE)`,
  });
}

export const DATETIME_ROUNDING_FUNCTIONS: readonly FunctionDef[] = [...ROUND_UNITS.flatMap((unit) => [roundDef(unit, false), roundDef(unit, true)]), dateRoundDef(false), dateRoundDef(true)];
