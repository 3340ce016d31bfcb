/**
 * Calendar arithmetic for DATE (days since 1970-01-01) and DATETIME (microseconds since 1970-01-01
 * 00:00:00), without time zones: Doris DATE/DATETIME values are wall-clock values.
 *
 * The civil-from-days conversions are Howard Hinnant's public-domain algorithms: exact over the proleptic
 * Gregorian calendar, no Date objects, no allocation.
 */

export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_DAY = 86_400 * MICROS_PER_SECOND;

/** Day number of a civil date (month 1..12, day 1..31). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * Year, month and day of a day number into out[0..2] (Hinnant's civil_from_days): the one home of the
 * conversion; hot loops pass a scratch Int32Array(3) so nothing is allocated per row.
 */
export function civilFromDaysInto(days: number, out: Int32Array): void {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  out[0] = yoe + era * 400 + (month <= 2 ? 1 : 0);
  out[1] = month;
  out[2] = doy - Math.floor((153 * mp + 2) / 5) + 1;
}

const civilScratch = new Int32Array(3);

/** [year, month, day] of a day number. */
export function civilFromDays(days: number): [number, number, number] {
  civilFromDaysInto(days, civilScratch);
  return [civilScratch[0], civilScratch[1], civilScratch[2]];
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

const pad2 = (n: number): string => (n < 10 ? '0' + n : String(n));
const pad4 = (n: number): string => (n < 0 ? '-' + String(-n).padStart(4, '0') : String(n).padStart(4, '0'));

export function formatDate(days: number): string {
  const [y, m, d] = civilFromDays(days);
  return `${pad4(y)}-${pad2(m)}-${pad2(d)}`;
}

/** `YYYY-MM-DD HH:MM:SS[.ffffff]` with `scale` fractional digits (0..6). */
export function formatDatetime(micros: number, scale = 0): string {
  const days = Math.floor(micros / MICROS_PER_DAY);
  let rest = micros - days * MICROS_PER_DAY;
  const hour = Math.floor(rest / 3_600_000_000);
  rest -= hour * 3_600_000_000;
  const minute = Math.floor(rest / 60_000_000);
  rest -= minute * 60_000_000;
  const second = Math.floor(rest / 1_000_000);
  const fraction = Math.round(rest - second * 1_000_000);
  let out = `${formatDate(days)} ${pad2(hour)}:${pad2(minute)}:${pad2(second)}`;
  if (scale > 0) out += '.' + String(fraction).padStart(6, '0').slice(0, scale);
  return out;
}

const DATE_RE = /^\s*(\d{1,4})-(\d{1,2})-(\d{1,2})\s*$/;
const COMPACT_DATE_RE = /^\s*(\d{4})(\d{2})(\d{2})\s*$/;
const DATETIME_RE = /^\s*(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?)?\s*(?:Z|[+-]\d{2}:?\d{2})?\s*$/;
const COMPACT_DATETIME_RE = /^\s*(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})\s*$/;

function validDate(y: number, m: number, d: number): boolean {
  return y >= 0 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** Day number of a 'YYYY-MM-DD' (or 'YYYYMMDD', or a datetime string, time dropped); null when invalid. */
export function parseDate(text: string): number | null {
  let match = DATE_RE.exec(text) ?? COMPACT_DATE_RE.exec(text);
  if (!match) {
    const micros = parseDatetime(text);
    return micros === null ? null : Math.floor(micros / MICROS_PER_DAY);
  }
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  return validDate(y, m, d) ? daysFromCivil(y, m, d) : null;
}

/** Microseconds of a 'YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]' string; null when invalid. */
export function parseDatetime(text: string): number | null {
  let y: number, m: number, d: number, hh = 0, mi = 0, ss = 0, micros = 0;
  let match = DATETIME_RE.exec(text);
  if (match) {
    y = Number(match[1]);
    m = Number(match[2]);
    d = Number(match[3]);
    if (match[4] !== undefined) {
      hh = Number(match[4]);
      mi = Number(match[5]);
      ss = match[6] !== undefined ? Number(match[6]) : 0;
      if (match[7] !== undefined) micros = Number((match[7] + '000000').slice(0, 6));
    }
  } else if ((match = COMPACT_DATETIME_RE.exec(text) ?? COMPACT_DATE_RE.exec(text))) {
    y = Number(match[1]);
    m = Number(match[2]);
    d = Number(match[3]);
    if (match[4] !== undefined) {
      hh = Number(match[4]);
      mi = Number(match[5]);
      ss = Number(match[6]);
    }
  } else {
    return null;
  }
  if (!validDate(y, m, d) || hh > 23 || mi > 59 || ss > 59) return null;
  return daysFromCivil(y, m, d) * MICROS_PER_DAY + ((hh * 60 + mi) * 60 + ss) * MICROS_PER_SECOND + micros;
}

/** Add months to a day number, clamping the day to the month's end (as MySQL's DATE_ADD does). */
export function addMonthsToDays(days: number, months: number): number {
  const [y, m, d] = civilFromDays(days);
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  return daysFromCivil(ny, nm, Math.min(d, daysInMonth(ny, nm)));
}

/** `date_trunc(value, unit)` of a DATE (days) or DATETIME (micros) value. */
export function truncTime(type: { readonly name: string }, value: number, unit: string): number {
  const micros = type.name === 'DATETIME';
  const days = micros ? Math.floor(value / MICROS_PER_DAY) : value;
  const fromDays = (next: number): number => (micros ? next * MICROS_PER_DAY : next);
  const [year, month] = civilFromDays(days);
  switch (unit) {
    case 'year':
      return fromDays(daysFromCivil(year, 1, 1));
    case 'quarter':
      return fromDays(daysFromCivil(year, month - ((month - 1) % 3), 1));
    case 'month':
      return fromDays(daysFromCivil(year, month, 1));
    case 'week':
      return fromDays(days - ((((days + 3) % 7) + 7) % 7)); // Monday (1970-01-01 was a Thursday)
    case 'day':
      return fromDays(days);
    case 'hour':
      return micros ? value - (((value % 3_600_000_000) + 3_600_000_000) % 3_600_000_000) : value;
    case 'minute':
      return micros ? value - (((value % 60_000_000) + 60_000_000) % 60_000_000) : value;
    default:
      return micros ? value - (((value % 1_000_000) + 1_000_000) % 1_000_000) : value;
  }
}

/** `value` (a DATE's days or a DATETIME's micros) plus `count` units. */
export function addTimeUnits(type: { readonly name: string }, value: number, unit: string, count: number): number {
  const micros = type.name === 'DATETIME';
  const days = micros ? Math.floor(value / MICROS_PER_DAY) : value;
  const within = micros ? value - days * MICROS_PER_DAY : 0;
  const fromDays = (next: number): number => (micros ? next * MICROS_PER_DAY + within : next);
  switch (unit) {
    case 'year':
      return fromDays(addMonthsToDays(days, 12 * count));
    case 'quarter':
      return fromDays(addMonthsToDays(days, 3 * count));
    case 'month':
      return fromDays(addMonthsToDays(days, count));
    case 'week':
      return fromDays(days + 7 * count);
    case 'day':
      return fromDays(days + count);
    case 'hour':
      return value + count * 3_600_000_000;
    case 'minute':
      return value + count * 60_000_000;
    default:
      return value + count * 1_000_000;
  }
}
