/**
 * Doris's IP functions over the IPV4 / IPV6 types (common/ip.ts holds their layout and text forms), over
 * address text, and over 16-byte binary IPv6 values (ipv6_string_to_num's result): conversions with the
 * _or_default / _or_null forms, the is_* tests, is_ip_address_in_range and cut_ipv6.
 */
import { vectorFromRaw, type ObjectVector, type RawValue, type Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { formatIpv4, formatIpv6, ipv4AsIpv6, ipv6FromStored, ipv6ToStored, parseIpv4, parseIpv6 } from '../../../common/ip';
import { isIntegerType, isStringType, Types, type DataType } from '../../../common/types';
import { badArgs, type CallSite, type FunctionDef } from '../function-registry';
import { byteSource, valuesOrNulls } from '../kernels';
import { arg, defineFunction, type FunctionDecl } from '../signature';
import { fixedVector, StringOut, toBigScaled, toF64, toJsStrings } from '../vector-ops';

function ip(decl: Omit<FunctionDecl, 'family'>): FunctionDef {
  return defineFunction({ family: 'string', ...decl });
}

/** What a bad address does: the error (plain form), a default value, or NULL. */
type OnBad = 'error' | 'default' | 'null';
const SUFFIX: Record<OnBad, string> = { error: '', default: '_or_default', null: '_or_null' };

function badIp(kind: 'IPv4' | 'IPv6', text: string): Error {
  return galeneError('INVALID_ARGUMENT', `Invalid ${kind} value '${text}'`);
}

/** The unsigned IPv6 number of an address text (an IPv4 text maps to ::ffff:a.b.c.d), or null. */
const ipv6OfText = (text: string): bigint | null => parseIpv6(text) ?? ipv4AsIpv6(parseIpv4(text));

/** The 16 network-order bytes of an unsigned IPv6 number. */
function ipv6Bytes(value: bigint): Buffer {
  const out = Buffer.alloc(16);
  out.writeBigUInt64BE(value >> 64n, 0);
  out.writeBigUInt64BE(value & 0xffffffffffffffffn, 8);
  return out;
}

/** Per row, the unsigned IPv6 number of an IPV6 value or a 16-byte binary value (other lengths: null). */
function ipv6Numbers(vec: Vector): (bigint | null)[] {
  if (vec.type.name === 'IPV6') return (vec as ObjectVector).values.map((stored, rowIdx) => (vec.nulls !== null && vec.nulls[rowIdx] === 1 ? null : ipv6FromStored(stored)));
  const src = byteSource(vec);
  const out: (bigint | null)[] = new Array(vec.length);
  for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) {
    const start = src.starts[rowIdx];
    if (src.ends[rowIdx] - start !== 16) out[rowIdx] = null;
    else {
      const view = Buffer.from(src.bytes.buffer, src.bytes.byteOffset + start, 16);
      out[rowIdx] = (view.readBigUInt64BE(0) << 64n) | view.readBigUInt64BE(8);
    }
  }
  return out;
}

/** The argument type of functions that take an IPv6 address as IPV6 or as 16 binary bytes. */
function ipv6Arg(name: string, t: DataType): DataType {
  if (t.name === 'IPV6' || isStringType(t)) return t;
  if (t.name === 'IPV4') return Types.IPV6;
  if (t.name === 'NULL') return Types.STRING;
  throw badArgs(name, [t]);
}

function textToIpv4(name: string, onBad: OnBad, asType: boolean): FunctionDef {
  const returns = asType ? Types.IPV4 : Types.BIGINT;
  return ip({
    name: name + SUFFIX[onBad],
    args: [arg('str', 'STRING')],
    returns,
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      return valuesOrNulls(returns, asType ? new Float64Array(rowCount) : new Float64Array(rowCount), rowCount, (rowIdx) => {
        const text = texts[rowIdx];
        if (text === null) return 0;
        const value = parseIpv4(text);
        if (value !== null) return value;
        if (onBad === 'error') throw badIp('IPv4', text);
        return onBad === 'default' ? 0 : null;
      });
    },
    description: `The ${asType ? 'IPV4 address' : 'number (BIGINT)'} of a dotted-quad IPv4 text; ${onBad === 'error' ? 'an error for anything else' : onBad === 'default' ? `${asType ? '0.0.0.0' : '0'} for anything else` : 'NULL for anything else'}.`,
    example: `SELECT ${name + SUFFIX[onBad]}('192.168.0.1')`,
  });
}

function textToIpv6(name: string, onBad: OnBad, asType: boolean): FunctionDef {
  const returns = asType ? Types.IPV6 : Types.STRING;
  return ip({
    name: name + SUFFIX[onBad],
    args: [arg('str', 'STRING')],
    returns,
    kernel: (args, rowCount, site) => {
      const texts = toJsStrings(args[0]);
      const values: (bigint | null)[] = texts.map((text) => {
        if (text === null) return 0n;
        const value = ipv6OfText(text);
        if (value !== null) return value;
        if (onBad === 'error') throw badIp('IPv6', text);
        return onBad === 'default' ? 0n : null;
      });
      const nulls = values.some((value) => value === null) ? Uint8Array.from(values, (value) => (value === null ? 1 : 0)) : null;
      if (asType) return { kind: 'object', type: Types.IPV6, length: rowCount, values: values.map((value) => ipv6ToStored(value ?? 0n)), nulls };
      const out = new StringOut(site.returnType, rowCount, rowCount * 16);
      for (const value of values) {
        if (value === null) out.pushNull();
        else out.pushBytes(ipv6Bytes(value), 0, 16);
      }
      return out.finish();
    },
    description: `The ${asType ? 'IPV6 address' : '16 network-order bytes'} of an IPv6 text (an IPv4 text gives ::ffff:a.b.c.d); ${onBad === 'error' ? 'an error for anything else' : onBad === 'default' ? `${asType ? '::' : '16 zero bytes'} for anything else` : 'NULL for anything else'}.`,
    example: asType ? `SELECT ${name + SUFFIX[onBad]}('2001:db8::1')` : `SELECT hex(${name + SUFFIX[onBad]}('2001:db8::1'))`,
  });
}

/** A BOOLEAN per row from the address text. */
function textTest(name: string, test: (text: string) => boolean, description: string, example: string): FunctionDef {
  return ip({
    name,
    args: [arg('str', 'STRING')],
    returns: Types.BOOLEAN,
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      return fixedVector(Types.BOOLEAN, Uint8Array.from(texts, (text) => (text !== null && test(text) ? 1 : 0)));
    },
    description,
    example,
  });
}

/** A BOOLEAN per row from a 16-byte IPv6 value (IPV6 or binary); another length gives 0. */
function ipv6Test(name: string, test: (value: bigint) => boolean, description: string, example: string): FunctionDef {
  return ip({
    name,
    args: [arg('ipv6')],
    returns: Types.BOOLEAN,
    resolve: (types) => ({ argTypes: [ipv6Arg(name, types[0])], returnType: Types.BOOLEAN }),
    kernel: (args) => fixedVector(Types.BOOLEAN, Uint8Array.from(ipv6Numbers(args[0]), (value) => (value !== null && test(value) ? 1 : 0))),
    description,
    example,
  });
}

/** [address, prefix bits] of 'a.b.c.d/n' or 'x::y/n', as IPv6 numbers (IPv4 mapped); null when not a CIDR. */
function parseCidr(text: string): { base: bigint; bits: number; v4: boolean } | null {
  const slash = text.indexOf('/');
  if (slash < 0 || !/^\d{1,3}$/.test(text.slice(slash + 1))) return null;
  const address = text.slice(0, slash);
  const prefix = Number(text.slice(slash + 1));
  const v4 = parseIpv4(address);
  if (v4 !== null) return prefix > 32 ? null : { base: ipv4AsIpv6(v4)!, bits: 96 + prefix, v4: true };
  const v6 = parseIpv6(address);
  return v6 === null || prefix > 128 ? null : { base: v6, bits: prefix, v4: false };
}

const cidrRangeType = (ipType: DataType): DataType => Types.struct([{ name: 'min', type: ipType }, { name: 'max', type: ipType }]);

/** ipv4_cidr_to_range / ipv6_cidr_to_range: the network's first and last address as STRUCT<min, max>. */
function cidrRangeKernel(v6: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const width = v6 ? 128 : 32;
    const prefixes = toF64(args[1]);
    const mins: RawValue[] = [];
    const maxes: RawValue[] = [];
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const prefix = prefixes[rowIdx];
      if (!(prefix >= 0 && prefix <= width)) throw galeneError('INVALID_ARGUMENT', `Illegal cidr value '${prefix}'`);
      if (v6) {
        const address = ipv6FromStored((args[0] as ObjectVector).values[rowIdx]);
        const mask = maskOf(prefix);
        mins.push(ipv6ToStored(address & mask));
        maxes.push(ipv6ToStored(address | (~mask & ((1n << 128n) - 1n))));
      } else {
        const address = (args[0] as { values: ArrayLike<number> }).values[rowIdx];
        const hostSpan = 2 ** (32 - prefix);
        const low = Math.floor(address / hostSpan) * hostSpan;
        mins.push(low);
        maxes.push(low + hostSpan - 1);
      }
    }
    const ipType = v6 ? Types.IPV6 : Types.IPV4;
    return { kind: 'struct', type: site.returnType, length: rowCount, children: [vectorFromRaw(ipType, mins), vectorFromRaw(ipType, maxes)], nulls: null };
  };
}

const maskOf = (bits: number): bigint => (bits === 0 ? 0n : (((1n << BigInt(bits)) - 1n) << BigInt(128 - bits)));

const MAPPED_PREFIX = 0xffffn << 32n;

export const IP_FUNCTIONS: readonly FunctionDef[] = [
  ip({
    name: 'ipv4_cidr_to_range',
    args: [arg('ip_v4'), arg('cidr')],
    returns: 'STRUCT<min:IPV4, max:IPV4>',
    resolve: () => ({ argTypes: [Types.IPV4, Types.SMALLINT], returnType: cidrRangeType(Types.IPV4) }),
    kernel: cidrRangeKernel(false),
    description: 'The lowest and highest address of the network of an IPv4 address with a prefix length (0..32), as STRUCT<min, max>.',
    example: "SELECT ipv4_cidr_to_range(to_ipv4('192.168.5.2'), 16)",
  }),
  ip({
    name: 'ipv6_cidr_to_range',
    args: [arg('ip_v6'), arg('cidr')],
    returns: 'STRUCT<min:IPV6, max:IPV6>',
    resolve: () => ({ argTypes: [Types.IPV6, Types.SMALLINT], returnType: cidrRangeType(Types.IPV6) }),
    kernel: cidrRangeKernel(true),
    description: 'The lowest and highest address of the network of an IPv6 address with a prefix length (0..128), as STRUCT<min, max>.',
    example: "SELECT ipv6_cidr_to_range(to_ipv6('2001:0db8:0000:85a3:0000:0000:ac1f:8001'), 32)",
  }),
  ip({
    name: 'ipv4_num_to_string',
    aliases: ['inet_ntoa'],
    args: [arg('num')],
    returns: Types.varchar(15),
    resolve: (types) => {
      if (!isIntegerType(types[0]) && types[0].name !== 'IPV4' && types[0].name !== 'NULL') throw badArgs('ipv4_num_to_string', types);
      return { argTypes: [types[0].name === 'IPV4' ? Types.IPV4 : Types.BIGINT], returnType: Types.varchar(15) };
    },
    kernel: (args, rowCount, site) => {
      const values = toF64(args[0]);
      const out = new StringOut(site.returnType, rowCount, rowCount * 15);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const value = values[rowIdx];
        if (value >= 0 && value <= 0xffffffff) out.push(formatIpv4(value));
        else out.pushNull();
      }
      return out.finish();
    },
    description: 'The dotted-quad text of an IPv4 number (or IPV4); NULL outside 0..4294967295.',
    example: 'SELECT ipv4_num_to_string(3232235521), inet_ntoa(-1)',
  }),
  textToIpv4('ipv4_string_to_num', 'error', false),
  textToIpv4('ipv4_string_to_num', 'default', false),
  { ...textToIpv4('ipv4_string_to_num', 'null', false), aliases: ['inet_aton'] },
  textToIpv4('to_ipv4', 'error', true),
  textToIpv4('to_ipv4', 'default', true),
  textToIpv4('to_ipv4', 'null', true),
  ip({
    name: 'ipv6_num_to_string',
    aliases: ['inet6_ntoa'],
    args: [arg('ipv6')],
    returns: Types.varchar(39),
    resolve: (types) => ({ argTypes: [ipv6Arg('ipv6_num_to_string', types[0])], returnType: Types.varchar(39) }),
    kernel: (args, rowCount, site) => {
      const out = new StringOut(site.returnType, rowCount, rowCount * 39);
      for (const value of ipv6Numbers(args[0])) {
        if (value === null) out.pushNull();
        else out.push(formatIpv6(value));
      }
      return out.finish();
    },
    description: 'The text of an IPv6 address given as 16 network-order bytes (or IPV6); NULL for another length.',
    example: "SELECT ipv6_num_to_string(unhex('2A0206B8000000000000000000000011'))",
  }),
  textToIpv6('ipv6_string_to_num', 'error', false),
  textToIpv6('ipv6_string_to_num', 'default', false),
  { ...textToIpv6('ipv6_string_to_num', 'null', false), aliases: ['inet6_aton'] },
  textToIpv6('to_ipv6', 'error', true),
  textToIpv6('to_ipv6', 'default', true),
  textToIpv6('to_ipv6', 'null', true),
  textTest('is_ipv4_string', (text) => parseIpv4(text) !== null, 'Whether the text is a dotted-quad IPv4 address.', "SELECT is_ipv4_string('255.255.255.255'), is_ipv4_string('255.255.255.256')"),
  textTest('is_ipv6_string', (text) => parseIpv6(text) !== null, 'Whether the text is an IPv6 address.', "SELECT is_ipv6_string('::ffff:1.2.3.4'), is_ipv6_string('1.2.3.4')"),
  ipv6Test('is_ipv4_compat', (value) => value >> 32n === 0n && value > 1n, 'Whether an IPv6 address (16 bytes or IPV6) is IPv4-compatible (::a.b.c.d: 96 zero bits, then not 0 or 1).', "SELECT is_ipv4_compat(inet6_aton('::10.0.5.9')), is_ipv4_compat(inet6_aton('::ffff:10.0.5.9'))"),
  ipv6Test('is_ipv4_mapped', (value) => value >> 32n === 0xffffn, 'Whether an IPv6 address (16 bytes or IPV6) is IPv4-mapped (::ffff:a.b.c.d).', "SELECT is_ipv4_mapped(inet6_aton('::ffff:10.0.5.9')), is_ipv4_mapped(inet6_aton('::10.0.5.9'))"),
  ip({
    name: 'ipv4_to_ipv6',
    args: [arg('ipv4')],
    returns: Types.IPV6,
    resolve: (types) => {
      if (types[0].name !== 'IPV4' && types[0].name !== 'NULL') throw badArgs('ipv4_to_ipv6', types);
      return { argTypes: [Types.IPV4], returnType: Types.IPV6 };
    },
    kernel: (args, rowCount) => ({ kind: 'object', type: Types.IPV6, length: rowCount, values: Array.from(toF64(args[0]), (value) => ipv6ToStored(MAPPED_PREFIX | BigInt(value))), nulls: null }),
    description: 'The IPv4-mapped IPv6 address (::ffff:a.b.c.d) of an IPV4.',
    example: "SELECT ipv4_to_ipv6(to_ipv4('192.168.0.1'))",
  }),
  ip({
    name: 'is_ip_address_in_range',
    args: [arg('addr', 'STRING'), arg('cidr', 'STRING')],
    returns: Types.BOOLEAN,
    kernel: (args, rowCount) => {
      const [addresses, cidrs] = args.map(toJsStrings);
      const out = new Uint8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const text = addresses[rowIdx];
        const cidrText = cidrs[rowIdx];
        if (text === null || cidrText === null) continue;
        const v4 = parseIpv4(text);
        const address = v4 !== null ? ipv4AsIpv6(v4)! : parseIpv6(text);
        if (address === null) throw galeneError('INVALID_ARGUMENT', `The arguments of function is_ip_address_in_range are invalid: '${text}' is not an IP address`);
        const cidr = parseCidr(cidrText);
        if (cidr === null) throw galeneError('INVALID_ARGUMENT', `The arguments of function is_ip_address_in_range are invalid: '${cidrText}' is not a CIDR`);
        // An IPv4 address is never in an IPv6 range and back, as in Doris.
        if ((v4 !== null) !== cidr.v4) continue;
        const mask = maskOf(cidr.bits);
        out[rowIdx] = (address & mask) === (cidr.base & mask) ? 1 : 0;
      }
      return fixedVector(Types.BOOLEAN, out);
    },
    description: "Whether an IPv4 or IPv6 address text is in a CIDR range ('10.0.0.0/8', '2001:db8::/32'); an error for a bad address or CIDR.",
    example: "SELECT is_ip_address_in_range('127.0.0.1', '127.0.0.0/8'), is_ip_address_in_range('::ffff:192.168.0.1', '::ffff:192.168.0.4/128')",
  }),
  ip({
    name: 'cut_ipv6',
    args: [arg('ipv6'), arg('bytes_v6', 'INT'), arg('bytes_v4', 'INT')],
    returns: Types.varchar(39),
    resolve: (types) => ({ argTypes: [ipv6Arg('cut_ipv6', types[0]), Types.INT, Types.INT], returnType: Types.varchar(39) }),
    kernel: (args, rowCount, site) => {
      const values = ipv6Numbers(args[0]);
      const [cutV6, cutV4] = args.slice(1).map((vec) => toBigScaled(vec, 0));
      const out = new StringOut(site.returnType, rowCount, rowCount * 39);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const value = values[rowIdx];
        if (value === null) {
          out.pushNull();
          continue;
        }
        const mapped = value >> 32n === 0xffffn;
        const cut = Number(mapped ? cutV4[rowIdx] : cutV6[rowIdx]);
        if (cut < 0 || cut > (mapped ? 4 : 16)) throw galeneError('INVALID_ARGUMENT', `Illegal value for argument ${mapped ? 3 : 2} of function cut_ipv6: ${cut}`);
        out.push(formatIpv6(value & ~((1n << BigInt(cut * 8)) - 1n)));
      }
      return out.finish();
    },
    description: 'The address text with its last bytes_v6 bytes zeroed (bytes_v4 for an IPv4-mapped address).',
    example: "SELECT cut_ipv6(to_ipv6('2001:0DB8:AC10:FE01:FEED:BABE:CAFE:F00D'), 10, 0), cut_ipv6(to_ipv6('::ffff:192.168.0.1'), 10, 2)",
  }),
];
