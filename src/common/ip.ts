/**
 * IPv4 / IPv6 addresses as Doris's IPV4 and IPV6 types hold them: an IPv4 address is its 32-bit number
 * (0..2^32-1, kept in a Float64Array like DATETIME, so that comparison and sorting are numeric); an IPv6
 * address is its 128-bit number, kept as a bigint shifted down by 2^127 so that the signed 128-bit
 * storage of LARGEINT and plain bigint comparison both keep address order. Text forms are Doris's
 * (ClickHouse's): dotted quads, and RFC 5952 IPv6 (lower case, the longest zero run as '::', an
 * IPv4-mapped address as ::ffff:a.b.c.d).
 */

const IPV6_SHIFT = 1n << 127n;
const U128 = (1n << 128n) - 1n;

/** The number of a dotted-quad IPv4 address, or null for anything else (no leading zeros, 4 parts). */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

export function formatIpv4(value: number): string {
  return `${Math.floor(value / 16777216) % 256}.${Math.floor(value / 65536) % 256}.${Math.floor(value / 256) % 256}.${value % 256}`;
}

/** The unsigned 128-bit number of an IPv6 address (RFC 4291 text, with an optional dotted IPv4 tail), or null. */
export function parseIpv6(text: string): bigint | null {
  if (text.length === 0 || text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let body = text;
  if (body.indexOf('.') >= 0) {
    // A dotted IPv4 tail (::ffff:1.2.3.4) stands for the last two groups.
    const lastColon = body.lastIndexOf(':');
    const v4 = lastColon < 0 ? null : parseIpv4(body.slice(lastColon + 1));
    if (v4 === null) return null;
    body = `${body.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const group of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
      out.push(parseInt(group, 16));
    }
    return out;
  };
  const head = groupsOf(halves[0]);
  const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (head === null || rest === null) return null;
  const written = head.length + rest.length;
  if (halves.length === 1 ? written !== 8 : written > 7) return null;
  const groups = [...head, ...new Array<number>(8 - written).fill(0), ...rest];
  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(group);
  return value;
}

/** RFC 5952 text of an unsigned 128-bit IPv6 number. */
export function formatIpv6(value: bigint): string {
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return `::ffff:${formatIpv4(groups[6] * 65536 + groups[7])}`;
  let bestStart = -1;
  let bestLen = 1;
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLen) {
      bestStart = start;
      bestLen = end - start;
    }
    start = end;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** An unsigned IPv6 number as the IPV6 type stores it (order-preserving signed 128-bit). */
export const ipv6ToStored = (value: bigint): bigint => (value & U128) - IPV6_SHIFT;
/** The unsigned IPv6 number of a stored IPV6 value. */
export const ipv6FromStored = (stored: bigint): bigint => stored + IPV6_SHIFT;

/** The IPv4-mapped IPv6 number (::ffff:a.b.c.d) of an IPv4 number; null stays null. */
export const ipv4AsIpv6 = (value: number | null): bigint | null => (value === null ? null : 0xffff00000000n | BigInt(value));
