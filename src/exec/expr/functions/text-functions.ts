/**
 * More of Doris's string functions: edit distances (levenshtein, hamming_distance), translate,
 * find_in_set, split_by_string, substring_index, initcap, elt / field, hex / unhex, base64, digests
 * (sha1, sha2, crc32), uuid(), trim_in family, masking, url encoding, quote. Positions and lengths
 * count characters (code points), as string-functions.ts does; digests and hex work on UTF-8 bytes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { decodeUtf8, Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { Types } from '../../../common/types';
import type { CallSite, FunctionDef } from '../function-registry';
import { byteSource, mapStrings } from '../kernels';
import { arg, defineFunction, FunctionDecl, opt, rest } from '../signature';
import { nullOrEmptyKernel } from './string-functions';
import { fixedVector, StringOut, toBigScaled, toF64, toJsStrings, vectorFromValues } from '../vector-ops';

export function str(decl: Omit<FunctionDecl, 'family'>): FunctionDef {
  return defineFunction({ family: 'string', ...decl });
}

/** A string result computed row by row from the decoded arguments; null makes the row NULL. */
export function stringRows(args: readonly Vector[], rowCount: number, site: CallSite, fn: (texts: readonly (string | null)[][], rowIdx: number) => string | null): Vector {
  const texts = args.map(toJsStrings);
  const out = new StringOut(site.returnType, rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const value = fn(texts, rowIdx);
    if (value === null) out.pushNull();
    else out.push(value);
  }
  return out.finish();
}

const EMPTY_BUFFER = Buffer.alloc(0);

/**
 * Raw bytes decoded from each row's text (unhex, from_base64: Doris keeps them as they are, so that
 * aes_decrypt(from_base64(...)) gets the ciphertext); null makes the row NULL.
 */
export function bytesRows(args: readonly Vector[], rowCount: number, site: CallSite, decode: (text: string) => Uint8Array | null): Vector {
  const texts = toJsStrings(args[0]);
  const out = new StringOut(site.returnType, rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const bytes = decode(texts[rowIdx] ?? '');
    if (bytes === null) out.pushNull();
    else out.pushBytes(bytes, 0, bytes.length);
  }
  return out.finish();
}

/** An INT result row by row from the decoded string arguments. */
function intRows(args: readonly Vector[], rowCount: number, fn: (texts: readonly (string | null)[][], rowIdx: number) => number): Vector {
  const texts = args.map(toJsStrings);
  const out = new Int32Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = fn(texts, rowIdx);
  return fixedVector(Types.INT, out);
}

/** Edit distance over code points, two rows of the dynamic-programming table. */
export function levenshteinDistance(left: string, right: string): number {
  const a = Array.from(left);
  const b = Array.from(right);
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = new Int32Array(b.length + 1);
  let curr = new Int32Array(b.length + 1);
  for (let col = 0; col <= b.length; col++) prev[col] = col;
  for (let row = 1; row <= a.length; row++) {
    curr[0] = row;
    for (let col = 1; col <= b.length; col++) {
      const cost = a[row - 1] === b[col - 1] ? 0 : 1;
      curr[col] = Math.min(prev[col] + 1, curr[col - 1] + 1, prev[col - 1] + cost);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[b.length];
}

function translateText(text: string, from: string, to: string): string {
  const fromChars = Array.from(from);
  const toChars = Array.from(to);
  const map = new Map<string, string>();
  fromChars.forEach((ch, idx) => {
    if (!map.has(ch)) map.set(ch, idx < toChars.length ? toChars[idx] : '');
  });
  let out = '';
  for (const ch of text) out += map.get(ch) ?? ch;
  return out;
}

/** MySQL SUBSTRING_INDEX: before the count-th delimiter (count > 0), or after the count-th from the end. */
function substringIndex(text: string, delim: string, count: number): string {
  if (delim === '' || count === 0) return '';
  const parts = text.split(delim);
  if (count > 0) return parts.slice(0, count).join(delim);
  return parts.slice(Math.max(0, parts.length + count)).join(delim);
}

/** Doris initcap: the first letter of each run of letters and digits upper case, the rest lower case. */
function initcap(text: string): string {
  let out = '';
  let inWord = false;
  for (const ch of text) {
    const wordChar = /[\p{L}\p{N}]/u.test(ch);
    out += wordChar ? (inWord ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    inWord = wordChar;
  }
  return out;
}

function trimChars(text: string, chars: string, left: boolean, right: boolean): string {
  const set = new Set(Array.from(chars));
  const cs = Array.from(text);
  let start = 0;
  let end = cs.length;
  if (left) while (start < end && set.has(cs[start])) start++;
  if (right) while (end > start && set.has(cs[end - 1])) end--;
  return cs.slice(start, end).join('');
}

function trimInDef(name: string, left: boolean, right: boolean, what: string): FunctionDef {
  return str({
    name,
    args: [arg('str', 'STRING'), opt('chars', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([texts, chars], rowIdx) => trimChars(texts[rowIdx] ?? '', chars === undefined ? ' ' : chars[rowIdx] ?? '', left, right)),
    description: `Removes ${what} characters that are any of chars (default a space).`,
    example: `SELECT ${name}('abcxyzcba', 'abc')`,
  });
}

function maskChar(ch: string, upper: string, lower: string, digit: string): string {
  if (ch >= 'A' && ch <= 'Z') return upper;
  if (ch >= 'a' && ch <= 'z') return lower;
  if (ch >= '0' && ch <= '9') return digit;
  return ch;
}

/** mask / mask_first_n / mask_last_n: Hive's masking (upper 'X', lower 'x', digit 'n'). */
function maskDef(name: string, part: 'all' | 'first' | 'last', description: string, example: string): FunctionDef {
  return str({
    name,
    args: part === 'all' ? [arg('str', 'STRING'), opt('upper', 'STRING'), opt('lower', 'STRING'), opt('digit', 'STRING')] : [arg('str', 'STRING'), opt('n', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const texts = toJsStrings(args[0]);
      const counts = part !== 'all' && args.length > 1 ? toF64(args[1]) : null;
      const replacement = (argIdx: number, fallback: string): (string | null)[] | null => (part === 'all' && args.length > argIdx ? toJsStrings(args[argIdx]) : null) ?? [fallback];
      const uppers = replacement(1, 'X');
      const lowers = replacement(2, 'x');
      const digits = replacement(3, 'n');
      const first = (values: (string | null)[] | null, rowIdx: number, fallback: string): string => Array.from((values!.length === 1 ? values![0] : values![rowIdx]) ?? fallback)[0] ?? fallback;
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const cs = Array.from(texts[rowIdx] ?? '');
        const upper = first(uppers, rowIdx, 'X');
        const lower = first(lowers, rowIdx, 'x');
        const digit = first(digits, rowIdx, 'n');
        const n = counts === null ? (part === 'all' ? cs.length : 0) : Math.max(0, Math.trunc(counts[rowIdx]));
        const from = part === 'last' ? Math.max(0, cs.length - n) : 0;
        const to = part === 'first' ? Math.min(cs.length, n) : cs.length;
        for (let idx = from; idx < to; idx++) cs[idx] = maskChar(cs[idx], upper, lower, digit);
        out.push(cs.join(''));
      }
      return out.finish();
    },
    description,
    example,
  });
}

const SHA2_BITS: Readonly<Record<number, string>> = { 224: 'sha224', 256: 'sha256', 384: 'sha384', 512: 'sha512' };

function digestDef(name: string, aliases: string[], algorithm: string, description: string): FunctionDef {
  return str({
    name,
    aliases,
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => mapStrings(args[0], rowCount, site, (bytes, start, end, out) => out.push(createHash(algorithm).update(bytes.subarray(start, end)).digest('hex'))),
    description,
    example: `SELECT ${name}('abc')`,
  });
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
    table[byte] = crc >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let crc = 0xffffffff;
  for (let idx = start; idx < end; idx++) crc = CRC_TABLE[(crc ^ bytes[idx]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** MySQL QUOTE: single quotes around the text with backslash, quote, NUL and Ctrl-Z escaped; NULL reads NULL. */
function quote(text: string | null): string {
  if (text === null) return 'NULL';
  return `'${text.replace(/[\\'\0\x1a]/g, (ch) => (ch === '\0' ? '\\0' : ch === '\x1a' ? '\\Z' : '\\' + ch))}'`;
}

export const TEXT_FUNCTIONS: readonly FunctionDef[] = [
  str({
    name: 'levenshtein',
    aliases: ['levenshtein_distance'],
    args: [arg('a', 'STRING'), arg('b', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) => intRows(args, rowCount, ([a, b], rowIdx) => levenshteinDistance(a[rowIdx] ?? '', b[rowIdx] ?? '')),
    description: 'Edit distance: the fewest single-character insertions, deletions and substitutions turning a into b.',
    example: "SELECT levenshtein('kitten', 'sitting')",
  }),
  str({
    name: 'hamming_distance',
    args: [arg('a', 'STRING'), arg('b', 'STRING')],
    returns: Types.BIGINT,
    kernel: (args, rowCount) => {
      const [a, b] = args.map(toJsStrings);
      const out = new BigInt64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const left = Array.from(a[rowIdx] ?? '');
        const right = Array.from(b[rowIdx] ?? '');
        if (left.length !== right.length) throw galeneError('INVALID_ARGUMENT', `hamming_distance requires strings of the same length, got ${left.length} and ${right.length}`);
        let distance = 0;
        for (let idx = 0; idx < left.length; idx++) if (left[idx] !== right[idx]) distance++;
        out[rowIdx] = BigInt(distance);
      }
      return fixedVector(Types.BIGINT, out);
    },
    description: 'Number of positions where two strings of the same length (in characters) differ; an error for different lengths.',
    example: "SELECT hamming_distance('karolin', 'kathrin')",
  }),
  str({
    name: 'translate',
    args: [arg('str', 'STRING'), arg('from', 'STRING'), arg('to', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([texts, froms, tos], rowIdx) => translateText(texts[rowIdx] ?? '', froms[rowIdx] ?? '', tos[rowIdx] ?? '')),
    description: 'Replaces each character of str found in from by the character at the same position in to; characters of from past the end of to are removed.',
    example: "SELECT translate('abcd', 'abc', 'xy')",
  }),
  str({
    name: 'find_in_set',
    args: [arg('str', 'STRING'), arg('strlist', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) =>
      intRows(args, rowCount, ([needles, lists], rowIdx) => {
        const needle = needles[rowIdx] ?? '';
        if (needle.includes(',')) return 0;
        return (lists[rowIdx] ?? '').split(',').indexOf(needle) + 1;
      }),
    description: 'The 1-based position of str in the comma-separated strlist, 0 when absent (or when str has a comma).',
    example: "SELECT find_in_set('b', 'a,b,c')",
  }),
  str({
    name: 'split_by_string',
    args: [arg('str', 'STRING'), arg('separator', 'STRING')],
    returns: Types.array(Types.STRING),
    kernel: (args, rowCount) => {
      const [texts, seps] = args.map(toJsStrings);
      const values: string[][] = [];
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const text = texts[rowIdx] ?? '';
        const sep = seps[rowIdx] ?? '';
        values.push(text === '' ? [] : sep === '' ? Array.from(text) : text.split(sep));
      }
      return vectorFromValues(Types.array(Types.STRING), values);
    },
    description: "The parts of str between separators as an ARRAY<STRING>; an empty separator splits into characters, an empty str gives [].",
    example: "SELECT split_by_string('a,b,,c', ',')",
  }),
  str({
    name: 'substring_index',
    args: [arg('str', 'STRING'), arg('delimiter', 'STRING'), arg('count', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const counts = toF64(args[2]);
      return stringRows(args.slice(0, 2), rowCount, site, ([texts, delims], rowIdx) => substringIndex(texts[rowIdx] ?? '', delims[rowIdx] ?? '', Math.trunc(counts[rowIdx])));
    },
    description: 'The part of str before the count-th delimiter (count > 0) or after the |count|-th delimiter from the end (count < 0).',
    example: "SELECT substring_index('www.apache.org', '.', 2), substring_index('www.apache.org', '.', -1)",
  }),
  str({
    name: 'initcap',
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([texts], rowIdx) => initcap(texts[rowIdx] ?? '')),
    description: 'Each word (run of letters and digits) with its first letter upper case and the rest lower case.',
    example: "SELECT initcap('hello wORLD-foo')",
  }),
  str({
    name: 'elt',
    args: [arg('n', 'INT'), rest('str', 'STRING')],
    returns: Types.STRING,
    nulls: 'custom',
    kernel: (args, rowCount, site) => {
      const n = toF64(args[0]);
      const nNulls = args[0].nulls;
      const texts = args.slice(1).map(toJsStrings);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const idx = Math.trunc(n[rowIdx]);
        const value = (nNulls !== null && nNulls[rowIdx]) || idx < 1 || idx > texts.length ? null : texts[idx - 1][rowIdx];
        if (value === null) out.pushNull();
        else out.push(value);
      }
      return out.finish();
    },
    description: 'The n-th string argument (1-based); NULL when n is out of range or NULL.',
    example: "SELECT elt(2, 'a', 'b', 'c')",
  }),
  str({
    name: 'field',
    args: [arg('value', 'STRING'), rest('candidate', 'STRING')],
    returns: Types.INT,
    nulls: 'custom',
    kernel: (args, rowCount) => {
      const texts = args.map(toJsStrings);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const value = texts[0][rowIdx];
        if (value === null) continue;
        for (let argIdx = 1; argIdx < texts.length; argIdx++) {
          if (texts[argIdx][rowIdx] === value) {
            out[rowIdx] = argIdx;
            break;
          }
        }
      }
      return fixedVector(Types.INT, out);
    },
    description: 'The 1-based position of value among the candidates (compared as strings), 0 when absent or NULL.',
    example: "SELECT field('b', 'a', 'b', 'c')",
  }),
  str({
    name: 'hex',
    args: [arg('x')],
    returns: Types.STRING,
    resolve: (types) => {
      const t = types[0];
      const integral = ['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'LARGEINT', 'BOOLEAN'].includes(t.name);
      return { argTypes: [integral ? Types.BIGINT : Types.STRING], returnType: Types.STRING };
    },
    kernel: (args, rowCount, site) => {
      if (site.argTypes[0].name === 'BIGINT') {
        const values = toBigScaled(args[0], 0);
        const out = new StringOut(site.returnType, rowCount);
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(BigInt.asUintN(64, values[rowIdx]).toString(16).toUpperCase());
        return out.finish();
      }
      return mapStrings(args[0], rowCount, site, (bytes, start, end, out) => out.push(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('hex').toUpperCase()));
    },
    description: "Upper-case hex digits: of an integer's 64-bit value, or of a string's UTF-8 bytes.",
    example: "SELECT hex(255), hex('abc')",
  }),
  str({
    name: 'unhex',
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) =>
      bytesRows(args, rowCount, site, (text) => (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text) ? EMPTY_BUFFER : Buffer.from(text, 'hex'))),
    description: "The bytes that pairs of hex digits denote; '' for an odd length or a non-hex character.",
    example: "SELECT unhex('616263')",
  }),
  str({
    name: 'to_base64',
    aliases: ['to_base64_binary'],
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => mapStrings(args[0], rowCount, site, (bytes, start, end, out) => out.push(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('base64'))),
    description: 'Base64 encoding of the bytes (to_base64_binary: of a binary value).',
    example: "SELECT to_base64('doris')",
  }),
  str({
    name: 'from_base64',
    aliases: ['from_base64_binary'],
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) =>
      bytesRows(args, rowCount, site, (raw) => {
        const text = raw.replace(/\s+/g, '');
        return !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1 ? null : Buffer.from(text, 'base64');
      }),
    description: 'The bytes a Base64 string encodes, kept as they are; NULL when it is not Base64.',
    example: "SELECT from_base64('ZG9yaXM=')",
  }),
  digestDef('sha1', ['sha'], 'sha1', 'SHA-1 digest as 40 lower-case hex digits.'),
  str({
    name: 'sha2',
    args: [arg('str', 'STRING'), arg('bits', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const bits = toF64(args[1]);
      const src = byteSource(args[0]);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const algorithm = SHA2_BITS[bits[rowIdx]];
        if (algorithm === undefined) throw galeneError('INVALID_ARGUMENT', `sha2's digest length only support 224/256/384/512 but meet ${bits[rowIdx]}`);
        out.push(createHash(algorithm).update(src.bytes.subarray(src.starts[rowIdx], src.ends[rowIdx])).digest('hex'));
      }
      return out.finish();
    },
    description: 'SHA-2 digest (bits 224, 256, 384 or 512) as lower-case hex digits; other lengths are an error.',
    example: "SELECT sha2('abc', 256)",
  }),
  str({
    name: 'crc32',
    args: [arg('str', 'STRING')],
    returns: Types.BIGINT,
    kernel: (args, rowCount) => {
      const src = byteSource(args[0]);
      const out = new BigInt64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = BigInt(crc32(src.bytes, src.starts[rowIdx], src.ends[rowIdx]));
      return fixedVector(Types.BIGINT, out);
    },
    description: 'CRC-32 (IEEE) checksum of the UTF-8 bytes.',
    example: "SELECT crc32('abc')",
  }),
  str({
    name: 'uuid',
    args: [],
    returns: Types.varchar(36),
    volatility: 'row',
    kernel: (_args, rowCount, site) => {
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out.push(randomUUID());
      return out.finish();
    },
    description: 'A random (version 4) UUID, different on every row.',
    example: 'SELECT length(uuid())',
  }),
  trimInDef('trim_in', true, true, 'leading and trailing'),
  trimInDef('ltrim_in', true, false, 'leading'),
  trimInDef('rtrim_in', false, true, 'trailing'),
  maskDef('mask', 'all', "Masks letters and digits: upper case to 'X', lower case to 'x', digits to 'n' (or the given replacements).", "SELECT mask('Ab-12'), mask('Ab-12', '*', '#', '0')"),
  maskDef('mask_first_n', 'first', 'mask() over the first n characters (default 0).', "SELECT mask_first_n('1234-5678', 4)"),
  maskDef('mask_last_n', 'last', 'mask() over the last n characters (default 0).', "SELECT mask_last_n('1234-5678', 4)"),
  str({
    name: 'append_trailing_char_if_absent',
    args: [arg('str', 'STRING'), arg('char', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) =>
      stringRows(args, rowCount, site, ([texts, chars], rowIdx) => {
        const ch = chars[rowIdx] ?? '';
        if (Array.from(ch).length !== 1) return null;
        const text = texts[rowIdx] ?? '';
        return text.endsWith(ch) ? text : text + ch;
      }),
    description: 'str with char appended unless it already ends with it; NULL when char is not one character.',
    example: "SELECT append_trailing_char_if_absent('a/b', '/')",
  }),
  str({
    name: 'count_substrings',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) =>
      intRows(args, rowCount, ([texts, patterns], rowIdx) => {
        const pattern = patterns[rowIdx] ?? '';
        return pattern === '' ? 0 : (texts[rowIdx] ?? '').split(pattern).length - 1;
      }),
    description: 'Number of non-overlapping occurrences of pattern in str (0 for an empty pattern).',
    example: "SELECT count_substrings('a.b.c', '.')",
  }),
  str({
    name: 'not_null_or_empty',
    args: [arg('str', 'STRING')],
    returns: Types.BOOLEAN,
    nulls: 'custom',
    kernel: nullOrEmptyKernel(true),
    description: 'True unless the value is NULL or the empty string.',
    example: "SELECT not_null_or_empty('a'), not_null_or_empty('')",
  }),
  str({
    name: 'url_encode',
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([texts], rowIdx) => encodeURIComponent(texts[rowIdx] ?? '').replace(/%20/g, '+').replace(/[!'()*~]/g, (ch) => '%' + ch.charCodeAt(0).toString(16).toUpperCase())),
    description: "application/x-www-form-urlencoded encoding (space as '+', UTF-8 percent escapes).",
    example: "SELECT url_encode('a b&c=d')",
  }),
  str({
    name: 'url_decode',
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) =>
      stringRows(args, rowCount, site, ([texts], rowIdx) => {
        try {
          return decodeURIComponent((texts[rowIdx] ?? '').replace(/\+/g, ' '));
        } catch {
          return null;
        }
      }),
    description: "Decodes url_encode's form ('+' as space, percent escapes); NULL for a broken escape.",
    example: "SELECT url_decode('a+b%26c%3Dd')",
  }),
  str({
    name: 'quote',
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    nulls: 'custom',
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([texts], rowIdx) => quote(texts[rowIdx])),
    description: "The string as a quoted SQL literal (backslash, quote, NUL and Ctrl-Z escaped); NULL gives the text NULL.",
    example: "SELECT quote('It''s')",
  }),
];
