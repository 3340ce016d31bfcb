/**
 * More of Doris's date and time functions: TIME-valued helpers (add_time, sub_time, maketime,
 * sec_to_time, time_to_sec, time; Galene has no TIME type, so a TIME result is MySQL's TIME text
 * '[-]HH:MM:SS' as timediff gives), millisecond arithmetic, Unix epochs in the session time zone
 * (from_second ... microsecond_timestamp), ISO 8601 (from_iso8601_date, to_iso8601), get_format,
 * months_between, next_day / previous_day, MySQL periods (period_add, period_diff), to_monday,
 * to_seconds, year_of_week, yearweek, century, timestamp() and the UTC clock (utc_date, utc_time).
 */
import { Vector } from '../../../common/column';
import { daysFromCivil, daysInMonth, formatDate, formatDatetime, MICROS_PER_DAY, MICROS_PER_SECOND } from '../../../common/datetime';
import { galeneError } from '../../../common/errors';
import { utcToWallMicros, wallToUtcMicros } from '../../../common/time-zone';
import { DataType, Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';
import { NullsOut, valuesOrNulls } from '../kernels';
import { arg, opt } from '../signature';
import { fixedVector, toF64, toJsStrings } from '../vector-ops';
import { bigintVector } from './datetime-arithmetic';
import { calcWeek, civil, civilOut, dayNumbers, DAY_NAMES, dt, microsOf, preciseTemporalArg, temporalArg, weekdayMonday0, weekMode } from './datetime-fields';
import { clockDef, parseTimeText, sessionZone, timeText } from './datetime-format';
import { mapRows } from './string-functions';

const MIN_MICROS = daysFromCivil(0, 1, 1) * MICROS_PER_DAY;
const MAX_MICROS = (daysFromCivil(9999, 12, 31) + 1) * MICROS_PER_DAY - 1;
/** MySQL's TIME range: -838:59:59 .. 838:59:59. */
const MAX_TIME_MICROS = (838 * 3600 + 59 * 60 + 59) * MICROS_PER_SECOND;

const clampTime = (micros: number): number => Math.max(-MAX_TIME_MICROS, Math.min(MAX_TIME_MICROS, micros));

/** The DATETIME type of a temporal argument, with at least `scale` fractional digits. */
function datetimeOf(t: DataType, scale = 0): DataType {
  const own = t.name === 'DATETIME' ? t.scale ?? 0 : 0;
  return Types.datetime(Math.max(own, scale));
}

/** A DATETIME result row by row; null or a value outside years 0..9999 makes the row NULL. */
function datetimeRows(type: DataType, rowCount: number, fn: (rowIdx: number) => number | null): Vector {
  return valuesOrNulls(type, new Float64Array(rowCount), rowCount, (rowIdx) => {
    const value = fn(rowIdx);
    return value === null || !(value >= MIN_MICROS && value <= MAX_MICROS) ? null : value;
  });
}

/** Is the row NULL in any argument (kernels skip such rows before validating them)? */
function anyNull(args: readonly Vector[], rowIdx: number): boolean {
  return args.some((vec) => vec.nulls !== null && vec.nulls[rowIdx] === 1);
}

function addTimeDef(name: string, sign: 1 | -1): FunctionDef {
  return dt({
    name,
    args: [arg('datetime'), arg('time')],
    returns: 'DATETIME',
    resolve: (types) => {
      const t = datetimeOf(temporalArg(types[0]));
      return { argTypes: [t, Types.STRING], returnType: t };
    },
    kernel: (args, rowCount, site) => {
      const values = microsOf(args[0]);
      const times = toJsStrings(args[1]);
      return datetimeRows(site.returnType, rowCount, (rowIdx) => {
        const time = parseTimeText(times[rowIdx] ?? '');
        return time === null ? null : values[rowIdx] + sign * time;
      });
    },
    description: `${sign > 0 ? 'Adds' : 'Subtracts'} a time ('HH:MM:SS[.ffffff]', hours may exceed 24) ${sign > 0 ? 'to' : 'from'} a datetime; NULL for a bad time.`,
    example: `SELECT ${name}('2023-10-14 00:00:00', '22:35:22')`,
  });
}

function millisecondsDef(name: string, sign: 1 | -1): FunctionDef {
  return dt({
    name,
    args: [arg('datetime'), arg('n')],
    returns: 'DATETIME(3)',
    resolve: (types) => {
      const t = datetimeOf(temporalArg(types[0]), 3);
      return { argTypes: [t, Types.BIGINT], returnType: t };
    },
    kernel: (args, rowCount, site) => {
      const values = microsOf(args[0]);
      const amounts = toF64(args[1]);
      return datetimeRows(site.returnType, rowCount, (rowIdx) => values[rowIdx] + sign * Math.trunc(amounts[rowIdx]) * 1000);
    },
    description: `${sign > 0 ? 'Adds' : 'Subtracts'} n milliseconds.`,
    example: `SELECT ${name}('2023-09-08 16:02:08.435', 1)`,
  });
}

/** from_second / from_millisecond / from_microsecond: a Unix epoch in the session time zone. */
function fromEpochDef(name: string, unitMicros: number, scale: number): FunctionDef {
  const type = Types.datetime(scale);
  return dt({
    name,
    args: [arg('n')],
    returns: type,
    resolve: () => ({ argTypes: [Types.BIGINT], returnType: type }),
    volatility: 'statement',
    kernel: (args, rowCount, _site, ctx) => {
      const zone = sessionZone(ctx);
      const amounts = toF64(args[0]);
      return datetimeRows(type, rowCount, (rowIdx) => (amounts[rowIdx] < 0 ? null : utcToWallMicros(zone, amounts[rowIdx] * unitMicros)));
    },
    description: `The datetime (session time zone) of a Unix timestamp in ${name.slice(5)}s; NULL for a negative one.`,
    example: `SELECT ${name}(0) IS NOT NULL`,
  });
}

/** millisecond_timestamp / microsecond_timestamp: the Unix epoch of a datetime in the session time zone. */
function toEpochDef(name: string, unitMicros: number): FunctionDef {
  return dt({
    name,
    args: [arg('datetime')],
    returns: Types.BIGINT,
    resolve: (types) => ({ argTypes: [preciseTemporalArg(types[0])], returnType: Types.BIGINT }),
    volatility: 'statement',
    kernel: (args, rowCount, _site, ctx) => {
      const zone = sessionZone(ctx);
      const values = microsOf(args[0]);
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = Math.floor(wallToUtcMicros(zone, values[rowIdx]) / unitMicros);
      return bigintVector(out);
    },
    description: `${name.split('_')[0]}s since 1970-01-01 00:00:00 UTC of a datetime in the session time zone.`,
    example: `SELECT ${name}('2025-01-23 12:34:56.123') IS NOT NULL`,
  });
}

/** ISO 8601 date text: YYYY, YYYY-MM, YYYY-MM-DD, YYYYMMDD, YYYY-Www[-D], YYYYWww[D], YYYY-DDD, YYYYDDD. */
export function parseIso8601Date(text: string): number | null {
  const trimmed = text.trim();
  let match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(trimmed) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(trimmed);
  if (match) {
    const year = Number(match[1]);
    const month = match[2] === undefined ? 1 : Number(match[2]);
    const day = match[3] === undefined ? 1 : Number(match[3]);
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
    return daysFromCivil(year, month, day);
  }
  match = /^(\d{4})-?W(\d{2})(?:-?([1-7]))?$/.exec(trimmed);
  if (match) {
    const year = Number(match[1]);
    const week = Number(match[2]);
    const jan4 = daysFromCivil(year, 1, 4);
    const weeks = calcWeek(daysFromCivil(year, 12, 28), weekMode(3)).week;
    if (week < 1 || week > weeks) return null;
    return jan4 - weekdayMonday0(jan4) + (week - 1) * 7 + (match[3] === undefined ? 0 : Number(match[3]) - 1);
  }
  match = /^(\d{4})-?(\d{3})$/.exec(trimmed);
  if (match) {
    const year = Number(match[1]);
    const dayOfYear = Number(match[2]);
    const yearDays = daysFromCivil(year + 1, 1, 1) - daysFromCivil(year, 1, 1);
    if (dayOfYear < 1 || dayOfYear > yearDays) return null;
    return daysFromCivil(year, 1, 1) + dayOfYear - 1;
  }
  return null;
}

/** MySQL GET_FORMAT: [DATE, DATETIME, TIME] formats per standard. */
const GET_FORMATS: Record<string, readonly [string, string, string]> = {
  USA: ['%m.%d.%Y', '%Y-%m-%d %H.%i.%s', '%h:%i:%s %p'],
  JIS: ['%Y-%m-%d', '%Y-%m-%d %H:%i:%s', '%H:%i:%s'],
  ISO: ['%Y-%m-%d', '%Y-%m-%d %H:%i:%s', '%H:%i:%s'],
  EUR: ['%d.%m.%Y', '%Y-%m-%d %H.%i.%s', '%H.%i.%s'],
  INTERNAL: ['%Y%m%d', '%Y%m%d%H%i%s', '%H%i%s'],
};
const FORMAT_KINDS = ['DATE', 'DATETIME', 'TIME'];

/** Doris months_between: whole months plus the day difference over 31 (whole when the days match or both end their months). */
function monthsBetweenDays(endDays: number, startDays: number): number {
  civil(endDays);
  const [y1, m1, d1] = [civilOut[0], civilOut[1], civilOut[2]];
  const end1 = d1 === daysInMonth(y1, m1);
  civil(startDays);
  const [y2, m2, d2] = [civilOut[0], civilOut[1], civilOut[2]];
  const end2 = d2 === daysInMonth(y2, m2);
  const months = (y1 - y2) * 12 + (m1 - m2);
  if (d1 === d2 || (end1 && end2)) return months;
  return months + (d1 - d2) / 31;
}

/** The weekday (0 = Monday) a name stands for: 'MO', 'MON', 'MONDAY' ... in any case. */
function weekdayOf(name: string, fn: string): number {
  const upper = name.trim().toUpperCase();
  const idx = DAY_NAMES.findIndex((day) => {
    const full = day.toUpperCase();
    return upper === full || upper === full.slice(0, 3) || upper === full.slice(0, 2);
  });
  if (idx < 0) throw galeneError('INVALID_ARGUMENT', `Function ${fn} failed to parse weekday: ${name}`);
  return idx;
}

function nearWeekdayDef(name: string, direction: 1 | -1): FunctionDef {
  return dt({
    name,
    args: [arg('date'), arg('day_of_week')],
    returns: Types.DATE,
    resolve: (types) => ({ argTypes: [temporalArg(types[0]), Types.STRING], returnType: Types.DATE }),
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      const names = toJsStrings(args[1]);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (anyNull(args, rowIdx)) continue;
        const target = weekdayOf(names[rowIdx] ?? '', name);
        const delta = (((target - weekdayMonday0(days[rowIdx])) * direction + 7) % 7) || 7;
        out[rowIdx] = days[rowIdx] + delta * direction;
      }
      return fixedVector(Types.DATE, out);
    },
    description: `The first date strictly ${direction > 0 ? 'after' : 'before'} the given one that falls on day_of_week ('MO', 'MON', 'MONDAY' ...).`,
    example: `SELECT ${name}('2020-01-31', 'MONDAY')`,
  });
}

/** A MySQL period (YYMM or YYYYMM) as a month count; a two-digit year below 70 is 20YY. */
function periodMonths(period: number): number {
  const month = period % 100;
  let year = Math.floor(period / 100);
  if (period < 0 || month < 1 || month > 12) throw galeneError('INVALID_ARGUMENT', `Period function got invalid period: ${period}`);
  if (year < 100) year += year < 70 ? 2000 : 1900;
  return year * 12 + month - 1;
}

export const DATETIME_MORE_FUNCTIONS: readonly FunctionDef[] = [
  addTimeDef('add_time', 1),
  addTimeDef('sub_time', -1),
  millisecondsDef('milliseconds_add', 1),
  millisecondsDef('milliseconds_sub', -1),
  dt({
    name: 'milliseconds_diff',
    args: [arg('end'), arg('start')],
    returns: Types.BIGINT,
    resolve: (types) => ({ argTypes: [preciseTemporalArg(types[0]), preciseTemporalArg(types[1])], returnType: Types.BIGINT }),
    kernel: (args, rowCount) => {
      const [end, start] = [microsOf(args[0]), microsOf(args[1])];
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = Math.trunc((end[rowIdx] - start[rowIdx]) / 1000);
      return bigintVector(out);
    },
    description: 'Whole milliseconds from start to end.',
    example: "SELECT milliseconds_diff('2020-12-25 21:00:00.623', '2020-12-25 21:00:00.123')",
  }),
  dt({
    name: 'century',
    args: [arg('date', 'TEMPORAL')],
    returns: Types.INT,
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        civil(days[rowIdx]);
        out[rowIdx] = Math.floor((civilOut[0] - 1) / 100) + 1;
      }
      return fixedVector(Types.INT, out);
    },
    description: 'The century: years 1..100 are century 1, 2001..2100 century 21.',
    example: "SELECT century('2024-01-01')",
  }),
  fromEpochDef('from_second', MICROS_PER_SECOND, 0),
  fromEpochDef('from_millisecond', 1000, 3),
  fromEpochDef('from_microsecond', 1, 6),
  toEpochDef('millisecond_timestamp', 1000),
  toEpochDef('microsecond_timestamp', 1),
  dt({
    name: 'from_iso8601_date',
    args: [arg('str', 'STRING')],
    returns: Types.DATE,
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      return valuesOrNulls(Types.DATE, new Int32Array(rowCount), rowCount, (rowIdx) => parseIso8601Date(texts[rowIdx] ?? ''));
    },
    description: 'The date of an ISO 8601 text (YYYY, YYYY-MM, YYYY-MM-DD, YYYYMMDD, YYYY-Www[-D], YYYY-DDD); NULL when it is not one.',
    example: "SELECT from_iso8601_date('2023-W01-3')",
  }),
  dt({
    name: 'to_iso8601',
    args: [arg('date_or_datetime', 'TEMPORAL')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const vec = args[0];
      const values = (vec as { values: ArrayLike<number> }).values;
      const isDate = vec.type.name === 'DATE';
      const scale = vec.type.scale ?? 0;
      return mapRows(site, rowCount, (rowIdx) => (isDate ? formatDate(values[rowIdx]) : formatDatetime(values[rowIdx], scale).replace(' ', 'T')));
    },
    description: "ISO 8601 text: 'YYYY-MM-DD' for a date, 'YYYY-MM-DDTHH:MM:SS[.ffffff]' for a datetime.",
    example: "SELECT to_iso8601('2023-10-05 10:30:00')",
  }),
  dt({
    name: 'get_format',
    args: [arg('type', 'STRING'), arg('standard', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [kinds, standards] = [toJsStrings(args[0]), toJsStrings(args[1])];
      return mapRows(site, rowCount, (rowIdx) => {
        const kind = FORMAT_KINDS.indexOf((kinds[rowIdx] ?? '').toUpperCase());
        const formats = GET_FORMATS[(standards[rowIdx] ?? '').toUpperCase()];
        return kind < 0 || formats === undefined ? null : formats[kind];
      });
    },
    description: "The date_format format of a standard: type 'DATE', 'DATETIME' or 'TIME', standard 'USA', 'JIS', 'ISO', 'EUR' or 'INTERNAL'; NULL otherwise.",
    example: "SELECT get_format('DATE', 'USA')",
  }),
  dt({
    name: 'maketime',
    args: [arg('hour', 'BIGINT'), arg('minute', 'BIGINT'), arg('second', 'DOUBLE')],
    returns: 'VARCHAR (TIME text)',
    resolve: () => ({ argTypes: [Types.BIGINT, Types.BIGINT, Types.DOUBLE], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const [hours, minutes, seconds] = args.map(toF64);
      const digits = args[2].type.name === 'DOUBLE' && seconds.some((value) => value % 1 !== 0) ? 6 : 0;
      return mapRows(site, rowCount, (rowIdx) => {
        const [hour, minute, second] = [Math.trunc(hours[rowIdx]), Math.trunc(minutes[rowIdx]), seconds[rowIdx]];
        if (minute < 0 || minute > 59 || second < 0 || second >= 60) return null;
        const micros = (Math.abs(hour) * 3600 + minute * 60) * MICROS_PER_SECOND + Math.round(second * MICROS_PER_SECOND);
        return timeText(clampTime(hour < 0 ? -micros : micros), digits);
      });
    },
    description: "The TIME text 'HH:MM:SS' of hour, minute and second (hours up to 838); NULL when minute or second is outside 0..59.",
    example: 'SELECT maketime(12, 15, 30)',
  }),
  dt({
    name: 'months_between',
    args: [arg('end'), arg('start'), opt('round_off')],
    returns: Types.DOUBLE,
    resolve: (types) => ({ argTypes: [temporalArg(types[0]), temporalArg(types[1]), ...(types.length > 2 ? [Types.BOOLEAN] : [])], returnType: Types.DOUBLE }),
    kernel: (args, rowCount) => {
      const [end, start] = [dayNumbers(args[0]), dayNumbers(args[1])];
      const rounds = args.length > 2 ? (args[2] as { values: Uint8Array }).values : null;
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const months = monthsBetweenDays(end[rowIdx], start[rowIdx]);
        out[rowIdx] = rounds === null || rounds[rowIdx] ? Math.round(months * 1e8) / 1e8 : months;
      }
      return fixedVector(Types.DOUBLE, out);
    },
    description: 'Months from start to end with the day difference as a fraction of 31 days (whole when the days of the month match or both are month ends); rounded to 8 decimals unless round_off is false.',
    example: "SELECT months_between('2020-12-26', '2020-10-25')",
  }),
  nearWeekdayDef('next_day', 1),
  nearWeekdayDef('previous_day', -1),
  dt({
    name: 'period_add',
    args: [arg('period', 'BIGINT'), arg('n', 'BIGINT')],
    returns: Types.BIGINT,
    kernel: (args, rowCount) => {
      const [periods, amounts] = [toF64(args[0]), toF64(args[1])];
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (anyNull(args, rowIdx)) continue;
        const months = periodMonths(periods[rowIdx]) + amounts[rowIdx];
        out[rowIdx] = Math.floor(months / 12) * 100 + (months % 12) + 1;
      }
      return bigintVector(out);
    },
    description: 'Adds n months to a period YYMM or YYYYMM; the result is YYYYMM.',
    example: 'SELECT period_add(202401, 2)',
  }),
  dt({
    name: 'period_diff',
    args: [arg('period1', 'BIGINT'), arg('period2', 'BIGINT')],
    returns: Types.BIGINT,
    kernel: (args, rowCount) => {
      const [first, second] = [toF64(args[0]), toF64(args[1])];
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (anyNull(args, rowIdx)) continue;
        out[rowIdx] = periodMonths(first[rowIdx]) - periodMonths(second[rowIdx]);
      }
      return bigintVector(out);
    },
    description: 'Months from period2 to period1 (periods YYMM or YYYYMM).',
    example: 'SELECT period_diff(202405, 202401)',
  }),
  dt({
    name: 'sec_to_time',
    args: [arg('seconds', 'DOUBLE')],
    returns: 'VARCHAR (TIME text)',
    resolve: (types) => ({ argTypes: [types[0].name === 'DOUBLE' || types[0].name === 'FLOAT' || types[0].name === 'DECIMAL' ? Types.DOUBLE : Types.BIGINT], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const seconds = toF64(args[0]);
      const digits = site.argTypes[0].name === 'DOUBLE' ? 6 : 0;
      return mapRows(site, rowCount, (rowIdx) => timeText(clampTime(Math.round(seconds[rowIdx] * MICROS_PER_SECOND)), digits));
    },
    description: "The TIME text '[-]HH:MM:SS' of a number of seconds (clamped to 838:59:59).",
    example: 'SELECT sec_to_time(59738)',
  }),
  dt({
    name: 'time_to_sec',
    args: [arg('time', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      return valuesOrNulls(Types.INT, new Int32Array(rowCount), rowCount, (rowIdx) => {
        const text = texts[rowIdx] ?? '';
        const micros = parseTimeText(text.length > 10 && text[10] === ' ' ? text.slice(11) : text);
        return micros === null ? null : Math.trunc(micros / MICROS_PER_SECOND);
      });
    },
    description: "Seconds of a time ('[-]HH:MM:SS', or a datetime's time of day); NULL when it is not one.",
    example: "SELECT time_to_sec('16:32:18')",
  }),
  dt({
    name: 'time',
    args: [arg('datetime', 'TEMPORAL')],
    returns: 'VARCHAR (TIME text)',
    resolve: (types) => ({ argTypes: [datetimeOf(temporalArg(types[0]))], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const values = microsOf(args[0]);
      const digits = site.argTypes[0].scale ?? 0;
      return mapRows(site, rowCount, (rowIdx) => timeText(values[rowIdx] - Math.floor(values[rowIdx] / MICROS_PER_DAY) * MICROS_PER_DAY, digits));
    },
    description: "The time of day of a datetime as TIME text 'HH:MM:SS'.",
    example: "SELECT time('2025-01-01 12:00:00')",
  }),
  dt({
    name: 'timestamp',
    args: [arg('datetime'), opt('time')],
    returns: 'DATETIME',
    resolve: (types) => {
      const t = datetimeOf(temporalArg(types[0]));
      return { argTypes: types.length > 1 ? [t, Types.STRING] : [t], returnType: t };
    },
    kernel: (args, rowCount, site) => {
      const values = microsOf(args[0]);
      const times = args.length > 1 ? toJsStrings(args[1]) : null;
      return datetimeRows(site.returnType, rowCount, (rowIdx) => {
        if (times === null) return values[rowIdx];
        const time = parseTimeText(times[rowIdx] ?? '');
        return time === null ? null : values[rowIdx] + time;
      });
    },
    description: "The value as a DATETIME; with a second argument, that time ('HH:MM:SS') added.",
    example: "SELECT timestamp('2019-01-01', '12:00:00')",
  }),
  dt({
    name: 'to_monday',
    args: [arg('date', 'TEMPORAL')],
    returns: Types.DATE,
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      const out = new Int32Array(rowCount);
      // Doris: 1970-01-01 .. 1970-01-04 (before the first Monday of the epoch) give 1970-01-01.
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = days[rowIdx] >= 0 && days[rowIdx] <= 3 ? 0 : days[rowIdx] - weekdayMonday0(days[rowIdx]);
      return fixedVector(Types.DATE, out);
    },
    description: 'The Monday of the week (1970-01-01 .. 1970-01-04 give 1970-01-01, as in Doris).',
    example: "SELECT to_monday('2022-09-10')",
  }),
  dt({
    name: 'to_seconds',
    args: [arg('datetime', 'TEMPORAL')],
    returns: Types.BIGINT,
    kernel: (args, rowCount) => {
      const values = microsOf(args[0]);
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = Math.floor(values[rowIdx] / MICROS_PER_SECOND) + 719528 * 86400;
      return bigintVector(out);
    },
    description: 'Seconds since year 0 (MySQL TO_SECONDS).',
    example: "SELECT to_seconds('2025-01-01 11:22:33')",
  }),
  dt({
    name: 'year_of_week',
    aliases: ['yow'],
    args: [arg('date', 'TEMPORAL')],
    returns: Types.SMALLINT,
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      const out = new Int16Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = calcWeek(days[rowIdx], weekMode(3)).year;
      return fixedVector(Types.SMALLINT, out);
    },
    description: 'The ISO 8601 week-numbering year (the year of the week the date falls in).',
    example: "SELECT year_of_week('2005-01-01')",
  }),
  dt({
    name: 'yearweek',
    args: [arg('date'), opt('mode')],
    returns: Types.INT,
    resolve: (types) => ({ argTypes: types.length > 1 ? [temporalArg(types[0]), Types.INT] : [temporalArg(types[0])], returnType: Types.INT }),
    kernel: (args, rowCount) => {
      const days = dayNumbers(args[0]);
      const modes = args.length > 1 ? toF64(args[1]) : null;
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const week = calcWeek(days[rowIdx], weekMode(modes === null ? 0 : modes[rowIdx]) | 2);
        out[rowIdx] = week.year * 100 + week.week;
      }
      return fixedVector(Types.INT, out);
    },
    description: 'Year and week as YYYYWW under MySQL WEEK() mode 0..7 (default 0); the week belongs to its own year.',
    example: "SELECT yearweek('2021-01-01')",
  }),
  clockDef('utc_date', [], Types.DATE, (ctx) => Math.floor((ctx.sessionInfo.statementStartMillis * 1000) / MICROS_PER_DAY), 'The current UTC date.'),
  clockDef('utc_time', [], Types.STRING, (ctx) => formatDatetime(Math.floor(ctx.sessionInfo.statementStartMillis / 1000) * MICROS_PER_SECOND).slice(11), "The current UTC time as 'HH:MM:SS'."),
];
