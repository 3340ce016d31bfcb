/**
 * Time zones as Doris names them (the session variable `time_zone`, CONVERT_TZ, FROM_UNIXTIME...): a
 * fixed offset '+08:00' / '-05:30' (Doris accepts -12:59 .. +14:00), an IANA name ('Asia/Shanghai',
 * 'UTC') from Node's Intl data, Doris's aliases (CST and PRC are Asia/Shanghai, GMT and Z are UTC), and
 * SYSTEM for the server's own zone. DATETIME values are wall-clock values in some zone; this module turns
 * a UTC instant into a zone's wall clock and back. Zones resolve once and are cached by name.
 */
const MICROS_PER_MINUTE = 60_000_000;
const MICROS_PER_MILLI = 1000;

/** A zone: its offset from UTC (microseconds, east positive) at a UTC instant. */
export interface TimeZone {
  /** The standard name: '+08:00' for offsets, the name as given for IANA zones. */
  readonly name: string;
  offsetMicrosAt(utcMillis: number): number;
}

/** Doris's TimeUtils.timeZoneAliasMap. */
const ALIASES: Readonly<Record<string, string>> = { CST: 'Asia/Shanghai', PRC: 'Asia/Shanghai', UTC: 'UTC', GMT: 'UTC', Z: 'UTC' };

/** The server's zone (Node's Intl view of TZ / /etc/localtime), 'UTC' when unknown. */
export function systemTimeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
}

function fixedZone(name: string, offsetMinutes: number): TimeZone {
  const offset = offsetMinutes * MICROS_PER_MINUTE;
  return { name, offsetMicrosAt: () => offset };
}

function ianaZone(name: string): TimeZone | null {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone: name, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  } catch {
    return null;
  }
  // Offsets change at most a few times a year: remember the offset per UTC hour asked for.
  const byHour = new Map<number, number>();
  return {
    name,
    offsetMicrosAt(utcMillis: number): number {
      const hour = Math.floor(utcMillis / 3_600_000);
      const known = byHour.get(hour);
      if (known !== undefined) return known;
      const at = hour * 3_600_000;
      const parts = format.formatToParts(new Date(at));
      const part = (type: string): number => Number(parts.find((candidate) => candidate.type === type)?.value ?? 0);
      const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
      const offset = (wall - at) * MICROS_PER_MILLI;
      if (byHour.size > 4096) byHour.clear();
      byHour.set(hour, offset);
      return offset;
    },
  };
}

const cache = new Map<string, TimeZone | null>();

/**
 * The zone a name denotes, or null when no zone has it. Offsets: [+-]H:MM or [+-]HH:MM within
 * -12:59 .. +14:00 (Doris's range).
 */
export function resolveTimeZone(text: string): TimeZone | null {
  const key = text.trim();
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let zone: TimeZone | null;
  const fixed = /^([+-])(\d{1,2}):(\d{2})$/.exec(key);
  if (fixed) {
    const hours = Number(fixed[2]);
    const minutes = Number(fixed[3]);
    const signed = (fixed[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
    const valid = minutes < 60 && signed <= 14 * 60 && signed >= -(12 * 60 + 59);
    zone = valid ? fixedZone(`${fixed[1]}${String(hours).padStart(2, '0')}:${fixed[3]}`, signed) : null;
  } else if (key.toUpperCase() === 'SYSTEM') {
    zone = resolveTimeZone(systemTimeZoneName());
  } else {
    const alias = ALIASES[key.toUpperCase()];
    // Intl accepts some names case-insensitively; Doris wants a real zone id, and so does this check.
    zone = alias !== undefined ? ianaZone(alias) : /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(key) ? ianaZone(key) : null;
    if (zone !== null && alias === undefined) zone = { name: key, offsetMicrosAt: zone.offsetMicrosAt };
  }
  if (cache.size > 1024) cache.clear();
  cache.set(key, zone);
  return zone;
}

/** The wall clock (microseconds since 1970-01-01 00:00 of the zone's calendar) of a UTC instant. */
export function utcToWallMicros(zone: TimeZone, utcMicros: number): number {
  return utcMicros + zone.offsetMicrosAt(Math.floor(utcMicros / MICROS_PER_MILLI));
}

/**
 * The UTC instant of a wall-clock time in a zone. A wall time inside a spring-forward gap or an autumn
 * overlap resolves with the offset in force just before it (as MySQL's CONVERT_TZ).
 */
export function wallToUtcMicros(zone: TimeZone, wallMicros: number): number {
  const guess = zone.offsetMicrosAt(Math.floor(wallMicros / MICROS_PER_MILLI));
  const offset = zone.offsetMicrosAt(Math.floor((wallMicros - guess) / MICROS_PER_MILLI));
  return wallMicros - offset;
}
