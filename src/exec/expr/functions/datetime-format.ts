/**
 * Date formatting and parsing (MySQL DATE_FORMAT / STR_TO_DATE specifiers) and the clock: now(),
 * curdate(), curtime(), unix_timestamp() and from_unixtime() use the session's `time_zone` (Doris's
 * variable; the server's zone when unset), read once per statement for now(). A constant format
 * compiles once per call site.
 */
import { constantVector } from '../../../common/column';
import { daysFromCivil, daysInMonth, formatDatetime, MICROS_PER_DAY, MICROS_PER_SECOND } from '../../../common/datetime';
import { resolveTimeZone, systemTimeZoneName, TimeZone, utcToWallMicros, wallToUtcMicros } from '../../../common/time-zone';
import { DataType, Types } from '../../../common/types';
import type { TaskContext } from '../../context';
import type { CallSite, FunctionDef } from '../function-registry';
import { valuesOrNulls } from '../kernels';
import { arg, opt } from '../signature';
import { fixedVector, StringOut, toF64, toJsStrings } from '../vector-ops';
import { calcWeek, civil, civilOut, DAY_NAMES, dt, microsOf, MICROS_PER_HOUR, MICROS_PER_MINUTE, MONTH_NAMES, temporalArg, weekdayMonday0 } from './datetime-fields';

const INT32_MAX = 2 ** 31 - 1;

// ---------------------------------------------------------------- formatting

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

/** calcWeek behaviour bits of the week specifiers %U %u %V %v. */
const WEEK_SPEC_BEHAVIOUR: Readonly<Record<string, number>> = { U: 4, u: 1, V: 6, v: 3 };

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
      case 'u':
      case 'V':
      case 'v':
        out += pad(calcWeek(days, WEEK_SPEC_BEHAVIOUR[token.spec]).week, 2);
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

/** The session's time zone (validated by SET; a load without a session reads the server's zone). */
export function sessionZone(ctx: TaskContext): TimeZone {
  return resolveTimeZone(ctx.sessionInfo.timeZone ?? systemTimeZoneName()) ?? resolveTimeZone('UTC')!;
}

/** Session wall-clock microseconds of the statement's start (a session fact: the same in every fragment). */
export function statementNowMicros(ctx: TaskContext): number {
  return utcToWallMicros(sessionZone(ctx), ctx.sessionInfo.statementStartMillis * 1000);
}

export function wallToUnixSeconds(zone: TimeZone, micros: number): number {
  return Math.floor(wallToUtcMicros(zone, micros) / MICROS_PER_SECOND);
}

export function unixSecondsToWall(zone: TimeZone, seconds: number): number {
  return utcToWallMicros(zone, seconds * MICROS_PER_SECOND);
}

// ---------------------------------------------------------------- declarations

export function clockDef(name: string, aliases: string[], type: DataType, value: (ctx: TaskContext) => number | string, description: string): FunctionDef {
  return dt({
    name,
    aliases,
    args: [],
    returns: `${type.name}`,
    resolve: () => ({ argTypes: [], returnType: type }),
    volatility: 'statement',
    kernel: (_args, rowCount, site, ctx) => constantVector(site.returnType, value(ctx), rowCount),
    description,
    example: `SELECT ${name}()`,
  });
}

const DEFAULT_DATETIME_FORMAT = '%Y-%m-%d %H:%i:%s';

/**
 * Offset of a time zone named as MySQL and Doris accept it ('+08:00', '-05:30', 'SYSTEM', 'UTC', an IANA
 * name such as 'Asia/Shanghai') at a UTC instant, in microseconds; null for a name no zone has.
 */
function zoneOffsetMicros(zone: string, utcMillis: number): number | null {
  return resolveTimeZone(zone)?.offsetMicrosAt(utcMillis) ?? null;
}

/** A signed duration in microseconds as MySQL prints a TIME: `[-]HH:MM:SS[.ffffff]` (hours may exceed 24). */
export function timeText(micros: number, fractionDigits: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const seconds = Math.floor(abs / MICROS_PER_SECOND);
  const text = `${sign}${pad(Math.floor(seconds / 3600), 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}`;
  return fractionDigits > 0 ? `${text}.${pad(abs % MICROS_PER_SECOND, 6).slice(0, fractionDigits)}` : text;
}

/** Parses a TIME text `[-]H...H:MM[:SS[.ffffff]]` to signed microseconds; null when it is not one. */
export function parseTimeText(text: string): number | null {
  const match = /^\s*(-?)(\d+):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,6}))?)?\s*$/.exec(text);
  if (!match) return null;
  const micros = ((Number(match[2]) * 60 + Number(match[3])) * 60 + Number(match[4] ?? 0)) * MICROS_PER_SECOND + Number((match[5] ?? '').padEnd(6, '0'));
  return match[1] === '-' ? -micros : micros;
}

/** MySQL TIME_FORMAT specifiers over a duration (hours, minutes, seconds, microseconds, AM/PM). */
function formatTime(micros: number, format: string): string {
  const abs = Math.abs(micros);
  const seconds = Math.floor(abs / MICROS_PER_SECOND);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  const secs = seconds % 60;
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const specs: Record<string, string> = {
    H: pad(hours, 2), k: String(hours), h: pad(hour12, 2), I: pad(hour12, 2), l: String(hour12), i: pad(minutes, 2), S: pad(secs, 2), s: pad(secs, 2),
    f: pad(abs % MICROS_PER_SECOND, 6), p: hours % 24 < 12 ? 'AM' : 'PM', T: `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(secs, 2)}`,
    r: `${pad(hour12, 2)}:${pad(minutes, 2)}:${pad(secs, 2)} ${hours % 24 < 12 ? 'AM' : 'PM'}`,
  };
  const body = format.replace(/%(.)/g, (whole, spec: string) => specs[spec] ?? (spec === '%' ? '%' : spec));
  return micros < 0 ? `-${body}` : body;
}

export const DATETIME_FORMAT_FUNCTIONS: readonly FunctionDef[] = [
  dt({
    name: 'timediff',
    args: [arg('end'), arg('start')],
    returns: 'VARCHAR',
    resolve: (types) => ({ argTypes: [temporalArg(types[0]), temporalArg(types[1])], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const [end, start] = [microsOf(args[0]), microsOf(args[1])];
      const digits = Math.max(site.argTypes[0].scale ?? 0, site.argTypes[1].scale ?? 0);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(timeText(end[rowIdx] - start[rowIdx], digits));
      return out.finish();
    },
    description: "The time from start to end as MySQL's TIME text '[-]HH:MM:SS' (Galene has no TIME type; Doris returns TIME).",
    example: "SELECT timediff('2024-01-01 12:00:00', '2024-01-01 10:30:00')",
  }),
  dt({
    name: 'time_format',
    args: [arg('time'), arg('format')],
    returns: 'VARCHAR',
    resolve: () => ({ argTypes: [Types.STRING, Types.STRING], returnType: Types.STRING }),
    kernel: (args, rowCount, site) => {
      const [times, formats] = [toJsStrings(args[0]), toJsStrings(args[1])];
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const text = times[rowIdx] ?? '';
        // A datetime text formats its time of day.
        const micros = parseTimeText(text.length > 10 && text[10] === ' ' ? text.slice(11) : text);
        if (micros === null) out.pushNull();
        else out.push(formatTime(micros, formats[rowIdx] ?? ''));
      }
      return out.finish();
    },
    description: 'Formats a time (TIME text or a datetime\'s time of day) with MySQL TIME_FORMAT specifiers (%H %k %h %I %l %i %S %s %f %p %T %r).',
    example: "SELECT time_format('25:04:05', '%H:%i')",
  }),
  dt({
    name: 'convert_tz',
    args: [arg('datetime'), arg('from_tz'), arg('to_tz')],
    returns: 'DATETIME',
    resolve: (types) => ({ argTypes: [temporalArg(types[0]).name === 'DATETIME' ? temporalArg(types[0]) : Types.DATETIME, Types.STRING, Types.STRING], returnType: temporalArg(types[0]).name === 'DATETIME' ? temporalArg(types[0]) : Types.DATETIME }),
    kernel: (args, rowCount, site) => {
      const micros = microsOf(args[0]);
      const from = toJsStrings(args[1]);
      const to = toJsStrings(args[2]);
      const out = new Float64Array(rowCount);
      let nulls: Uint8Array | null = null;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const wall = micros[rowIdx];
        const fromZone = from[rowIdx] ?? '';
        const guess = zoneOffsetMicros(fromZone, wall / 1000);
        const fromOffset = guess === null ? null : zoneOffsetMicros(fromZone, (wall - guess) / 1000);
        const utc = fromOffset === null ? null : wall - fromOffset;
        const toOffset = utc === null ? null : zoneOffsetMicros(to[rowIdx] ?? '', utc / 1000);
        if (utc === null || toOffset === null) {
          nulls ??= new Uint8Array(rowCount);
          nulls[rowIdx] = 1;
        } else out[rowIdx] = utc + toOffset;
      }
      return fixedVector(site.returnType, out, nulls);
    },
    description: "Converts a datetime from one time zone to another ('+08:00', 'SYSTEM', 'UTC' or an IANA name); NULL for an unknown zone.",
    example: "SELECT convert_tz('2024-01-01 12:00:00', '+00:00', '+08:00')",
  }),
  dt({
    name: 'date_format',
    args: [arg('date_or_datetime'), arg('format')],
    returns: 'VARCHAR',
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
    args: [arg('str'), arg('format')],
    returns: 'DATETIME',
    resolve: () => ({ argTypes: [Types.STRING, Types.STRING], returnType: Types.DATETIME }),
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      const formats = toJsStrings(args[1]);
      return valuesOrNulls(Types.DATETIME, new Float64Array(rowCount), rowCount, (rowIdx) => parseWithFormat(texts[rowIdx] ?? '', formats[rowIdx] ?? ''));
    },
    description: 'Parses text with a MySQL format; NULL when it does not match.',
    example: "SELECT str_to_date('2024-03-05 14:07', '%Y-%m-%d %H:%i')",
  }),
  dt({
    name: 'from_unixtime',
    args: [arg('seconds'), opt('format')],
    returns: 'VARCHAR',
    resolve: (types) => ({ argTypes: types.length > 1 ? [Types.BIGINT, Types.STRING] : [Types.BIGINT], returnType: Types.STRING }),
    volatility: 'statement',
    kernel: (args, rowCount, site, ctx) => {
      const zone = sessionZone(ctx);
      const seconds = toF64(args[0]);
      const formats = args.length > 1 ? toJsStrings(args[1]) : null;
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (seconds[rowIdx] < 0) {
          out.pushNull();
          continue;
        }
        const wall = unixSecondsToWall(zone, seconds[rowIdx]);
        out.push(formatWithTokens(tokensFor(site, formats === null ? DEFAULT_DATETIME_FORMAT : formats[rowIdx] ?? ''), wall));
      }
      return out.finish();
    },
    description: 'Formats a Unix timestamp in the session time zone (default format %Y-%m-%d %H:%i:%s); NULL for a negative one.',
    example: "SELECT from_unixtime(0, '%Y')",
  }),
  dt({
    name: 'unix_timestamp',
    args: [opt('datetime', 'TEMPORAL')],
    // INT as in Doris (and MySQL for a whole-second argument), so `unix_timestamp(ts) DIV 300 * 300`
    // (Grafana's time buckets) stays BIGINT; a time outside 1970-01-01 .. 2038-01-19 03:14:07 UTC reads 0, as in Doris.
    returns: Types.INT,
    volatility: 'statement',
    kernel: (args, rowCount, _site, ctx) => {
      const out = new Int32Array(rowCount);
      const inRange = (seconds: number): number => (seconds >= 0 && seconds <= INT32_MAX ? seconds : 0);
      const zone = sessionZone(ctx);
      if (args.length === 0) out.fill(inRange(Math.floor(ctx.sessionInfo.statementStartMillis / 1000)));
      else {
        const micros = microsOf(args[0]);
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = inRange(wallToUnixSeconds(zone, micros[rowIdx]));
      }
      return fixedVector(Types.INT, out);
    },
    description: 'Seconds since 1970-01-01 UTC of a datetime in the session time zone (now without argument), as INT.',
    example: "SELECT unix_timestamp('1970-01-02 00:00:00')",
  }),
  clockDef('now', ['current_timestamp', 'localtime', 'localtimestamp', 'sysdate'], Types.DATETIME, (ctx) => Math.floor(statementNowMicros(ctx) / MICROS_PER_SECOND) * MICROS_PER_SECOND, 'The statement start time in the session time zone.'),
  clockDef('curdate', ['current_date'], Types.DATE, (ctx) => Math.floor(statementNowMicros(ctx) / MICROS_PER_DAY), 'The current date in the session time zone.'),
  clockDef('curtime', ['current_time'], Types.STRING, (ctx) => formatDatetime(statementNowMicros(ctx)).slice(11), "The current time in the session time zone as 'HH:MM:SS'."),
  clockDef('utc_timestamp', [], Types.DATETIME, () => Math.floor(Date.now() / 1000) * MICROS_PER_SECOND, 'The current UTC time.'),
];
