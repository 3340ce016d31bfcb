/**
 * String functions. Positions and lengths count characters (Unicode code points) except length(), which
 * counts bytes, as in Doris. Kernels work on UTF-8 bytes where they can (length, concat, ASCII
 * upper/lower/substring) and decode to JS strings only where the operation needs characters. One-string
 * functions run on the kernel templates (kernels.ts mapRanges / mapStrings), which compute a
 * dictionary-encoded column once per entry; functions whose result can grow without bound (repeat,
 * lpad/rpad, replace) stay row by row so the string-column size checks apply.
 */
import { createHash } from 'node:crypto';
import { decodeUtf8, Vector } from '../../../common/column';
import { Types } from '../../../common/types';
import type { CallSite, FunctionDef } from '../function-registry';
import { byteSource, mapRanges, mapStrings, overRanges } from '../kernels';
import { arg, defineFunction, FunctionDecl, opt, rest } from '../signature';
import { compareStrings, jsCharCount, utf8CharCount } from '../../../common/utf8';
import { checkStringBytes, fixedVector, StringOut, toF64, toJsStrings } from '../vector-ops';

/** Numbers of an integer/double argument. */
function nums(vec: Vector): ArrayLike<number> {
  return toF64(vec);
}

/** Row-wise string result from JS strings; `fn` returning null makes the row NULL. */
export function mapRows(site: CallSite, rowCount: number, fn: (rowIdx: number) => string | null): Vector {
  const out = new StringOut(site.returnType, rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const value = fn(rowIdx);
    if (value === null) out.pushNull();
    else out.push(value);
  }
  return out.finish();
}

function intResult(values: Int32Array): Vector {
  return fixedVector(Types.INT, values);
}

function boolResult(values: Uint8Array): Vector {
  return fixedVector(Types.BOOLEAN, values);
}

const SURROGATE_RE = /[\uD800-\uDFFF]/;

/** Characters of a string: the string itself when it has no surrogate pairs (index = UTF-16 unit). */
function chars(text: string): string | string[] {
  return SURROGATE_RE.test(text) ? Array.from(text) : text;
}

/** MySQL SUBSTRING semantics over characters: 1-based, negative pos from the end, pos 0 gives ''. */
export function substringChars(text: string, pos: number, len: number): string {
  const cs = chars(text);
  const count = cs.length;
  if (pos === 0 || len <= 0 || !Number.isFinite(pos)) return '';
  let start = pos > 0 ? pos - 1 : count + pos;
  if (start < 0 || start >= count) return '';
  const end = Math.min(count, start + Math.min(len, count));
  if (typeof cs === 'string') return cs.slice(start, end);
  return cs.slice(start, end).join('');
}

function substringKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const pos = nums(args[1]);
  const len = args.length > 2 ? nums(args[2]) : null;
  return mapStrings(args[0], rowCount, site, (bytes, start, end, out, rowIdx) => {
    const p = Math.trunc(pos[rowIdx]);
    const l = len === null ? Infinity : Math.trunc(len[rowIdx]);
    if (!isAscii(bytes, start, end)) {
      out.push(substringChars(decodeUtf8(bytes, start, end), p, l));
      return;
    }
    const count = end - start;
    const from = p > 0 ? p - 1 : count + p;
    if (p === 0 || l <= 0 || from < 0 || from >= count) out.pushBytes(bytes, 0, 0);
    else out.pushBytes(bytes, start + from, start + Math.min(count, from + Math.min(l, count)));
  });
}

function concatKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const sources = args.map(byteSource);
  let total = 0;
  for (const source of sources) for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) total += source.ends[rowIdx] - source.starts[rowIdx];
  const out = new StringOut(site.returnType, rowCount, total);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    for (const source of sources) out.appendPart(source.bytes, source.starts[rowIdx], source.ends[rowIdx]);
    out.endValue();
  }
  return out.finish();
}

function concatWsKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const sources = args.map(byteSource);
  const nullMaps = args.map((vec) => vec.nulls);
  const out = new StringOut(site.returnType, rowCount);
  const sep = sources[0];
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (nullMaps[0] !== null && nullMaps[0][rowIdx]) {
      out.pushNull();
      continue;
    }
    let first = true;
    for (let argIdx = 1; argIdx < sources.length; argIdx++) {
      const nulls = nullMaps[argIdx];
      if (nulls !== null && nulls[rowIdx]) continue;
      if (!first) out.appendPart(sep.bytes, sep.starts[rowIdx], sep.ends[rowIdx]);
      first = false;
      const source = sources[argIdx];
      out.appendPart(source.bytes, source.starts[rowIdx], source.ends[rowIdx]);
    }
    out.endValue();
  }
  return out.finish();
}

/** Whether a byte range is all ASCII (then bytes are characters). */
function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let byteIdx = start; byteIdx < end; byteIdx++) if (bytes[byteIdx] > 0x7f) return false;
  return true;
}

/** Upper/lower case: ASCII bytes mapped directly, other values through JS case mapping. */
function caseKernel(upper: boolean) {
  const lowBound = upper ? 0x61 : 0x41;
  const highBound = upper ? 0x7a : 0x5a;
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector =>
    mapStrings(args[0], rowCount, site, (bytes, start, end, out) => {
      if (!isAscii(bytes, start, end)) {
        const text = decodeUtf8(bytes, start, end);
        out.push(upper ? text.toUpperCase() : text.toLowerCase());
        return;
      }
      // A copy even when `bytes` is a Buffer (whose slice() is a view of the column's cached page).
      const copy = new Uint8Array(bytes.subarray(start, end));
      for (let byteIdx = 0; byteIdx < copy.length; byteIdx++) {
        const byte = copy[byteIdx];
        if (byte >= lowBound && byte <= highBound) copy[byteIdx] = byte ^ 0x20;
      }
      out.pushBytes(copy, 0, copy.length);
    });
}

/** A string map that works on the decoded value: `fn(text, rowIdx)`; null makes the row NULL. */
function mapTexts(args: readonly Vector[], rowCount: number, site: CallSite, fn: (text: string, rowIdx: number) => string | null): Vector {
  return mapStrings(args[0], rowCount, site, (bytes, start, end, out, rowIdx) => {
    const value = fn(decodeUtf8(bytes, start, end), rowIdx);
    if (value === null) out.pushNull();
    else out.push(value);
  });
}

function trimString(text: string, chars: string | null, left: boolean, right: boolean): string {
  if (chars === null) {
    let start = 0;
    let end = text.length;
    if (left) while (start < end && text.charCodeAt(start) === 0x20) start++;
    if (right) while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
    return text.slice(start, end);
  }
  if (chars === '') return text;
  let out = text;
  if (left) while (out.startsWith(chars)) out = out.slice(chars.length);
  if (right) while (out.endsWith(chars)) out = out.slice(0, out.length - chars.length);
  return out;
}

function trimDef(name: string, aliases: string[], left: boolean, right: boolean, what: string): FunctionDef {
  return str(name, {
    aliases,
    args: [arg('str', 'STRING'), opt('remove', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const remove = args.length > 1 ? toJsStrings(args[1]) : null;
      return mapTexts(args, rowCount, site, (text, rowIdx) => trimString(text, remove === null ? null : remove[rowIdx] ?? '', left, right));
    },
    description: `Removes ${what} spaces (or repetitions of the given string).`,
    example: `SELECT ${name}('  ab  ')`,
  });
}

/** 1-based character position of `needle` in `hay` at or after character `from` (1-based); 0 if absent. */
function locateChars(needle: string, hay: string, from: number): number {
  if (from < 1) return 0;
  const hasSurrogates = SURROGATE_RE.test(hay) || SURROGATE_RE.test(needle);
  if (!hasSurrogates) {
    if (from - 1 > hay.length) return 0;
    return hay.indexOf(needle, from - 1) + 1;
  }
  const hayChars = Array.from(hay);
  if (from - 1 > hayChars.length) return 0;
  const prefix = hayChars.slice(0, from - 1).join('');
  const unitIdx = hay.indexOf(needle, prefix.length);
  if (unitIdx < 0) return 0;
  return Array.from(hay.slice(0, unitIdx)).length + 1;
}

/** The first `count` characters of a string (code points). */
function firstChars(text: string, count: number): string {
  return SURROGATE_RE.test(text) ? Array.from(text).slice(0, count).join('') : text.slice(0, count);
}

/**
 * lpad/rpad: the result size is known before it is built (and checked against the string column limit),
 * and the fill is built by String.repeat, never character by character.
 */
function padKernel(left: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const texts = toJsStrings(args[0]);
    const lens = nums(args[1]);
    const pads = toJsStrings(args[2]);
    const out = new StringOut(site.returnType, rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const text = texts[rowIdx] ?? '';
      const target = Math.trunc(lens[rowIdx]);
      if (!(target >= 0)) {
        out.pushNull();
        continue;
      }
      const textChars = jsCharCount(text);
      if (textChars >= target) {
        out.push(firstChars(text, target));
        continue;
      }
      const pad = pads[rowIdx] ?? '';
      const padChars = jsCharCount(pad);
      if (padChars === 0) {
        out.push('');
        continue;
      }
      const need = target - textChars;
      const whole = Math.floor(need / padChars);
      const rest = firstChars(pad, need - whole * padChars);
      const planned = Buffer.byteLength(text) + whole * Buffer.byteLength(pad) + Buffer.byteLength(rest);
      checkStringBytes(out.bytesWritten, planned, rowIdx + 1);
      const fill = pad.repeat(whole) + rest;
      out.push(left ? fill + text : text + fill);
    }
    return out.finish();
  };
}

/** Each row's text repeated its count times (count < 1 gives ''); the size is checked before the value is built. */
function repeatRows(site: CallSite, rowCount: number, textAt: (rowIdx: number) => string, counts: ArrayLike<number>): Vector {
  const out = new StringOut(site.returnType, rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const text = textAt(rowIdx);
    const count = Math.trunc(counts[rowIdx]);
    if (!(count > 0) || text === '') {
      out.push('');
      continue;
    }
    checkStringBytes(out.bytesWritten, Buffer.byteLength(text) * count, rowIdx + 1);
    out.push(text.repeat(count));
  }
  return out.finish();
}

function repeatKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const texts = toJsStrings(args[0]);
  return repeatRows(site, rowCount, (rowIdx) => texts[rowIdx] ?? '', nums(args[1]));
}

function spaceKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  return repeatRows(site, rowCount, () => ' ', nums(args[0]));
}

/** replace(str, from, to): the result grows by (|to| - |from|) per occurrence; checked before it is built. */
function replaceKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const [texts, froms, tos] = args.map(toJsStrings);
  const out = new StringOut(site.returnType, rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const text = texts[rowIdx] ?? '';
    const from = froms[rowIdx] ?? '';
    const to = tos[rowIdx] ?? '';
    if (from === '' || text === '') {
      out.push(text);
      continue;
    }
    const pieces = text.split(from);
    const planned = Buffer.byteLength(text) + (pieces.length - 1) * (Buffer.byteLength(to) - Buffer.byteLength(from));
    checkStringBytes(out.bytesWritten, planned, rowIdx + 1);
    out.push(pieces.join(to));
  }
  return out.finish();
}

/** null_or_empty (and, negated, not_null_or_empty): NULL or '' reads true. */
export function nullOrEmptyKernel(negate: boolean) {
  return (args: readonly Vector[], rowCount: number): Vector => {
    const src = byteSource(args[0]);
    const nulls = args[0].nulls;
    const out = new Uint8Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = ((nulls !== null && nulls[rowIdx]) || src.ends[rowIdx] === src.starts[rowIdx] ? 1 : 0) ^ (negate ? 1 : 0);
    return boolResult(out);
  };
}

function str(name: string, decl: Omit<FunctionDecl, 'name' | 'family'>): FunctionDef {
  return defineFunction({ name, family: 'string', ...decl });
}

export const STRING_FUNCTIONS: readonly FunctionDef[] = [
  str('concat', {
    args: [rest('str', 'STRING')],
    returns: Types.STRING,
    kernel: concatKernel,
    description: 'Concatenates its arguments; NULL if any argument is NULL.',
    example: "SELECT concat('a', 'b', 'c')",
  }),
  str('concat_ws', {
    args: [arg('sep', 'STRING'), rest('str', 'STRING')],
    returns: Types.STRING,
    nulls: 'custom',
    kernel: concatWsKernel,
    description: 'Joins the non-NULL arguments with a separator; NULL only when the separator is NULL.',
    example: "SELECT concat_ws('-', 'a', NULL, 'b')",
  }),
  str('substring', {
    aliases: ['substr', 'mid'],
    args: [arg('str', 'STRING'), arg('pos', 'INT'), opt('len', 'INT')],
    returns: Types.STRING,
    kernel: substringKernel,
    description: 'Characters from 1-based position pos (negative: from the end), at most len of them.',
    example: "SELECT substring('doris', 2, 3)",
  }),
  str('left', {
    aliases: ['strleft'],
    args: [arg('str', 'STRING'), arg('len', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const lens = nums(args[1]);
      return mapTexts(args, rowCount, site, (text, rowIdx) => substringChars(text, 1, Math.trunc(lens[rowIdx])));
    },
    description: 'The first len characters.',
    example: "SELECT left('doris', 2)",
  }),
  str('right', {
    aliases: ['strright'],
    args: [arg('str', 'STRING'), arg('len', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const lens = nums(args[1]);
      return mapTexts(args, rowCount, site, (text, rowIdx) => {
        const cs = Array.from(text);
        const len = Math.trunc(lens[rowIdx]);
        return len <= 0 ? '' : cs.slice(Math.max(0, cs.length - len)).join('');
      });
    },
    description: 'The last len characters.',
    example: "SELECT right('doris', 2)",
  }),
  str('length', {
    aliases: ['octet_length'],
    args: [arg('str', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) => intResult(mapRanges('end - start', args[0], new Int32Array(rowCount), rowCount)),
    description: 'Length in bytes (UTF-8).',
    example: "SELECT length('héllo')",
  }),
  str('char_length', {
    aliases: ['character_length'],
    args: [arg('str', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) =>
      intResult(
        overRanges(args[0], rowCount, new Int32Array(rowCount), (src, count, target) => {
          for (let idx = 0; idx < count; idx++) target[idx] = utf8CharCount(src.bytes, src.starts[idx], src.ends[idx]);
        }),
      ),
    description: 'Length in characters.',
    example: "SELECT char_length('héllo')",
  }),
  str('upper', {
    aliases: ['ucase'],
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: caseKernel(true),
    description: 'Upper case.',
    example: "SELECT upper('Doris')",
  }),
  str('lower', {
    aliases: ['lcase'],
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: caseKernel(false),
    description: 'Lower case.',
    example: "SELECT lower('Doris')",
  }),
  trimDef('trim', ['btrim'], true, true, 'leading and trailing'),
  trimDef('ltrim', [], true, false, 'leading'),
  trimDef('rtrim', [], false, true, 'trailing'),
  str('replace', {
    args: [arg('str', 'STRING'), arg('from', 'STRING'), arg('to', 'STRING')],
    returns: Types.STRING,
    kernel: replaceKernel,
    description: 'Replaces every occurrence of from by to.',
    example: "SELECT replace('a-b-c', '-', '+')",
  }),
  str('reverse', {
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => mapTexts(args, rowCount, site, (text) => Array.from(text).reverse().join('')),
    description: 'Characters in reverse order.',
    example: "SELECT reverse('abc')",
  }),
  str('lpad', {
    args: [arg('str', 'STRING'), arg('len', 'INT'), arg('pad', 'STRING')],
    returns: Types.STRING,
    kernel: padKernel(true),
    description: 'Left-pads to len characters with pad (truncates when longer).',
    example: "SELECT lpad('7', 3, '0')",
  }),
  str('rpad', {
    args: [arg('str', 'STRING'), arg('len', 'INT'), arg('pad', 'STRING')],
    returns: Types.STRING,
    kernel: padKernel(false),
    description: 'Right-pads to len characters with pad (truncates when longer).',
    example: "SELECT rpad('7', 3, '0')",
  }),
  str('instr', {
    args: [arg('str', 'STRING'), arg('substr', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) => {
      const [hay, needle] = args.map(toJsStrings);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = locateChars(needle[rowIdx] ?? '', hay[rowIdx] ?? '', 1);
      return intResult(out);
    },
    description: '1-based character position of substr in str, 0 if absent.',
    example: "SELECT instr('doris', 'ri')",
  }),
  str('locate', {
    aliases: ['position'],
    args: [arg('substr', 'STRING'), arg('str', 'STRING'), opt('pos', 'INT')],
    returns: Types.INT,
    kernel: (args, rowCount) => {
      const needle = toJsStrings(args[0]);
      const hay = toJsStrings(args[1]);
      const from = args.length > 2 ? nums(args[2]) : null;
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = locateChars(needle[rowIdx] ?? '', hay[rowIdx] ?? '', from === null ? 1 : Math.trunc(from[rowIdx]));
      return intResult(out);
    },
    description: '1-based character position of substr in str at or after pos, 0 if absent. POSITION(a IN b) is locate(a, b).',
    example: "SELECT locate('ri', 'doris')",
  }),
  str('repeat', {
    args: [arg('str', 'STRING'), arg('count', 'INT')],
    returns: Types.STRING,
    kernel: repeatKernel,
    description: 'str repeated count times.',
    example: "SELECT repeat('ab', 3)",
  }),
  str('split_part', {
    args: [arg('str', 'STRING'), arg('delimiter', 'STRING'), arg('n', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const texts = toJsStrings(args[0]);
      const delims = toJsStrings(args[1]);
      const parts = nums(args[2]);
      return mapRows(site, rowCount, (rowIdx) => {
        const delim = delims[rowIdx] ?? '';
        const part = Math.trunc(parts[rowIdx]);
        if (delim === '' || part === 0) return null;
        const pieces = (texts[rowIdx] ?? '').split(delim);
        const idx = part > 0 ? part - 1 : pieces.length + part;
        return idx >= 0 && idx < pieces.length ? pieces[idx] : null;
      });
    },
    description: 'The n-th (1-based; negative from the end) part of str split by delimiter; NULL when absent.',
    example: "SELECT split_part('a,b,c', ',', 2)",
  }),
  str('starts_with', {
    args: [arg('str', 'STRING'), arg('prefix', 'STRING')],
    returns: Types.BOOLEAN,
    kernel: (args, rowCount) => {
      const a = byteSource(args[0]);
      const b = byteSource(args[1]);
      const out = new Uint8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const len = b.ends[rowIdx] - b.starts[rowIdx];
        let match = a.ends[rowIdx] - a.starts[rowIdx] >= len ? 1 : 0;
        for (let byteIdx = 0; match === 1 && byteIdx < len; byteIdx++) if (a.bytes[a.starts[rowIdx] + byteIdx] !== b.bytes[b.starts[rowIdx] + byteIdx]) match = 0;
        out[rowIdx] = match;
      }
      return boolResult(out);
    },
    description: 'Whether str begins with prefix.',
    example: "SELECT starts_with('doris', 'do')",
  }),
  str('ends_with', {
    args: [arg('str', 'STRING'), arg('suffix', 'STRING')],
    returns: Types.BOOLEAN,
    kernel: (args, rowCount) => {
      const a = byteSource(args[0]);
      const b = byteSource(args[1]);
      const out = new Uint8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const len = b.ends[rowIdx] - b.starts[rowIdx];
        const aStart = a.ends[rowIdx] - len;
        let match = aStart >= a.starts[rowIdx] ? 1 : 0;
        for (let byteIdx = 0; match === 1 && byteIdx < len; byteIdx++) if (a.bytes[aStart + byteIdx] !== b.bytes[b.starts[rowIdx] + byteIdx]) match = 0;
        out[rowIdx] = match;
      }
      return boolResult(out);
    },
    description: 'Whether str ends with suffix.',
    example: "SELECT ends_with('doris', 'is')",
  }),
  str('md5', {
    args: [arg('str', 'STRING')],
    returns: Types.varchar(32),
    kernel: (args, rowCount, site) => mapStrings(args[0], rowCount, site, (bytes, start, end, out) => out.push(createHash('md5').update(bytes.subarray(start, end)).digest('hex'))),
    description: 'MD5 digest as 32 lower-case hex digits.',
    example: "SELECT md5('abc')",
  }),
  str('ascii', {
    args: [arg('str', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) => intResult(mapRanges('end > start ? bytes[start] : 0', args[0], new Int32Array(rowCount), rowCount)),
    description: 'Code of the first byte, 0 for an empty string.',
    example: "SELECT ascii('A')",
  }),
  str('space', {
    args: [arg('n', 'INT')],
    returns: Types.STRING,
    kernel: spaceKernel,
    description: 'A string of n spaces.',
    example: 'SELECT space(3)',
  }),
  str('strcmp', {
    args: [arg('a', 'STRING'), arg('b', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) => {
      const [a, b] = args.map(toJsStrings);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = Math.sign(compareStrings(a[rowIdx] ?? '', b[rowIdx] ?? ''));
      return intResult(out);
    },
    description: '-1, 0 or 1 comparing two strings byte-wise.',
    example: "SELECT strcmp('a', 'b')",
  }),
  str('null_or_empty', {
    args: [arg('str', 'STRING')],
    returns: Types.BOOLEAN,
    nulls: 'custom',
    kernel: nullOrEmptyKernel(false),
    description: 'True for NULL or the empty string.',
    example: "SELECT null_or_empty('')",
  }),
];

