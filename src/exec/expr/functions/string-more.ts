/**
 * More of Doris's string functions: char, overlay, soundex, replace_empty, sub_replace, make_set,
 * export_set, is_uuid, is_valid_utf8, unicode_normalize, damerau_levenshtein_distance, digital_masking,
 * ngram_search and random_bytes. Positions count characters (code points) as string-functions.ts does.
 */
import { randomBytes } from 'node:crypto';
import { Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';
import { byteSource } from '../kernels';
import { arg, opt, rest } from '../signature';
import { str, stringRows } from './text-functions';
import { fixedVector, StringOut, toF64, toJsStrings } from '../vector-ops';

function boolRows(rowCount: number, fn: (rowIdx: number) => boolean): Vector {
  const out = new Uint8Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = fn(rowIdx) ? 1 : 0;
  return fixedVector(Types.BOOLEAN, out);
}

const SOUNDEX_CODES: Record<string, string> = { B: '1', F: '1', P: '1', V: '1', C: '2', G: '2', J: '2', K: '2', Q: '2', S: '2', X: '2', Z: '2', D: '3', T: '3', L: '4', M: '5', N: '5', R: '6' };

/** American Soundex of the ASCII letters: the first letter and three digits ('R163'); '' without letters. */
export function soundex(text: string): string {
  let out = '';
  let last = '';
  for (const ch of text.toUpperCase()) {
    if (ch < 'A' || ch > 'Z') continue;
    const code = SOUNDEX_CODES[ch] ?? '';
    if (out === '') {
      out = ch;
      last = code;
    } else if (code !== '' && code !== last) {
      out += code;
      if (out.length === 4) break;
    }
    if (ch !== 'H' && ch !== 'W') last = code;
  }
  return out === '' ? '' : out.padEnd(4, '0');
}

/** Damerau-Levenshtein distance (adjacent transpositions count 1, unrestricted) over code points. */
export function damerauLevenshtein(left: string, right: string): number {
  const a = Array.from(left);
  const b = Array.from(right);
  const maxDist = a.length + b.length;
  const lastRow = new Map<string, number>();
  const width = b.length + 2;
  const d = new Int32Array((a.length + 2) * width);
  d[0] = maxDist;
  for (let i = 0; i <= a.length; i++) {
    d[(i + 1) * width] = maxDist;
    d[(i + 1) * width + 1] = i;
  }
  for (let j = 0; j <= b.length; j++) {
    d[j + 1] = maxDist;
    d[width + j + 1] = j;
  }
  for (let i = 1; i <= a.length; i++) {
    let lastMatchCol = 0;
    for (let j = 1; j <= b.length; j++) {
      const k = lastRow.get(b[j - 1]) ?? 0;
      const l = lastMatchCol;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      if (cost === 0) lastMatchCol = j;
      d[(i + 1) * width + j + 1] = Math.min(
        d[i * width + j] + cost,
        d[(i + 1) * width + j] + 1,
        d[i * width + j + 1] + 1,
        d[k * width + l] + (i - k - 1) + 1 + (j - l - 1),
      );
    }
    lastRow.set(a[i - 1], i);
  }
  return d[(a.length + 1) * width + b.length + 1];
}

function ngrams(text: string, size: number): Set<string> {
  const chars = Array.from(text);
  const out = new Set<string>();
  for (let idx = 0; idx + size <= chars.length; idx++) out.add(chars.slice(idx, idx + size).join(''));
  return out;
}

const UUID_TEXT = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[0-9a-f]{32})$/i;
const NORMAL_FORMS = new Set(['NFC', 'NFD', 'NFKC', 'NFKD']);
const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true });

/** Unicode code point -> its GBK bytes (two-byte codes), built once from the GBK decoder. */
let gbkTable: Map<number, number> | null = null;

function gbkCodes(): Map<number, number> {
  if (gbkTable !== null) return gbkTable;
  const table = new Map<number, number>();
  const decoder = new TextDecoder('gbk');
  const pair = new Uint8Array(2);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      pair[0] = lead;
      pair[1] = trail;
      const ch = decoder.decode(pair);
      const code = ch.codePointAt(0)!;
      if (ch.length === 1 && code !== 0xfffd && !table.has(code)) table.set(code, (lead << 8) | trail);
    }
  }
  return (gbkTable = table);
}

/** convert_to(str, 'gbk'): the text's GBK bytes ('?' for a character GBK lacks), which sort Chinese by pinyin. */
export function toGbk(text: string): Uint8Array {
  const codes = gbkCodes();
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) out.push(code);
    else {
      const gbk = codes.get(code);
      if (gbk === undefined) out.push(0x3f);
      else out.push(gbk >> 8, gbk & 0xff);
    }
  }
  return Uint8Array.from(out);
}

export const STRING_MORE_FUNCTIONS: readonly FunctionDef[] = [
  str({
    name: 'char',
    args: [rest('n', 'BIGINT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const codes = args.map(toF64);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const bytes: number[] = [];
        for (const column of codes) {
          // MySQL CHAR: each integer contributes its bytes, most significant first, leading zero bytes dropped.
          let value = Math.trunc(column[rowIdx]) >>> 0;
          const own: number[] = [];
          do {
            own.unshift(value & 0xff);
            value = Math.floor(value / 256);
          } while (value > 0);
          bytes.push(...own);
        }
        try {
          out.push(UTF8_STRICT.decode(Uint8Array.from(bytes)));
        } catch {
          out.pushNull();
        }
      }
      return out.finish();
    },
    description: 'The UTF-8 string whose bytes are the given integers (MySQL CHAR(n, ... USING utf8)); NULL when they are not valid UTF-8.',
    example: 'SELECT char(68, 111, 114, 105, 115)',
  }),
  str({
    name: 'overlay',
    args: [arg('str', 'STRING'), arg('pos', 'BIGINT'), arg('len', 'BIGINT'), arg('newstr', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [positions, lengths] = [toF64(args[1]), toF64(args[2])];
      return stringRows([args[0], args[3]], rowCount, site, ([texts, news], rowIdx) => {
        const chars = Array.from(texts[rowIdx] ?? '');
        const pos = positions[rowIdx];
        const len = lengths[rowIdx];
        if (pos < 1 || pos > chars.length) return chars.join('');
        const end = len < 0 || pos - 1 + len > chars.length ? chars.length : pos - 1 + len;
        return chars.slice(0, pos - 1).join('') + (news[rowIdx] ?? '') + chars.slice(end).join('');
      });
    },
    description: 'Replaces len characters of str from pos (1-based) with newstr (MySQL INSERT); str unchanged when pos is outside it.',
    example: "SELECT overlay('Quadratic', 3, 4, 'What')",
  }),
  str({
    name: 'soundex',
    args: [arg('str', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([texts], rowIdx) => soundex(texts[rowIdx] ?? '')),
    description: "The American Soundex code of the ASCII letters of str ('R163'); an empty string without letters.",
    example: "SELECT soundex('Robert')",
  }),
  str({
    name: 'replace_empty',
    args: [arg('str', 'STRING'), arg('old', 'STRING'), arg('new', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([texts, olds, news], rowIdx) => {
      const [text, old, repl] = [texts[rowIdx] ?? '', olds[rowIdx] ?? '', news[rowIdx] ?? ''];
      if (old !== '') return text.split(old).join(repl);
      return repl + Array.from(text).map((ch) => ch + repl).join('');
    }),
    description: 'Replaces every old with new; an empty old puts new before every character and at the end.',
    example: "SELECT replace_empty('abc', '', 'x')",
  }),
  str({
    name: 'sub_replace',
    args: [arg('str', 'STRING'), arg('new', 'STRING'), arg('start', 'BIGINT'), opt('len', 'BIGINT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const starts = toF64(args[2]);
      const lengths = args.length > 3 ? toF64(args[3]) : null;
      return stringRows([args[0], args[1]], rowCount, site, ([texts, news], rowIdx) => {
        const chars = Array.from(texts[rowIdx] ?? '');
        const repl = news[rowIdx] ?? '';
        const start = starts[rowIdx];
        const len = lengths === null ? Array.from(repl).length : lengths[rowIdx];
        if (start < 0 || start > chars.length || len < 0) return null;
        return chars.slice(0, start).join('') + repl + chars.slice(Math.min(chars.length, start + len)).join('');
      });
    },
    description: 'Replaces len characters (default the length of new) of str from start (0-based) with new; NULL when start or len is out of range.',
    example: "SELECT sub_replace('this is origin str', 'NEW-STR', 1)",
  }),
  str({
    name: 'make_set',
    args: [arg('bits', 'BIGINT'), rest('str', 'STRING')],
    returns: Types.STRING,
    nulls: 'custom',
    kernel: (args, rowCount, site) => {
      const bits = args[0];
      const values = (bits as { values: BigInt64Array }).values;
      const strs = args.slice(1).map(toJsStrings);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (bits.nulls !== null && bits.nulls[rowIdx]) {
          out.pushNull();
          continue;
        }
        const mask = BigInt.asUintN(64, values[rowIdx]);
        const picked: string[] = [];
        strs.forEach((column, idx) => {
          const value = column[rowIdx];
          if (idx < 64 && (mask >> BigInt(idx)) & 1n && value !== null) picked.push(value);
        });
        out.push(picked.join(','));
      }
      return out.finish();
    },
    description: 'The strings whose bit is set in bits (bit 0 the first), comma-separated; NULL strings are skipped.',
    example: "SELECT make_set(3, 'dog', 'cat', 'bird')",
  }),
  str({
    name: 'export_set',
    args: [arg('bits', 'BIGINT'), arg('on', 'STRING'), arg('off', 'STRING'), opt('separator', 'STRING'), opt('number_of_bits', 'BIGINT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const values = (args[0] as { values: BigInt64Array }).values;
      const counts = args.length > 4 ? toF64(args[4]) : null;
      return stringRows(args.slice(1, 4), rowCount, site, ([ons, offs, seps], rowIdx) => {
        const mask = BigInt.asUintN(64, values[rowIdx]);
        const requested = counts === null ? 64 : counts[rowIdx];
        const count = requested < 0 || requested > 64 ? 64 : requested;
        const parts: string[] = [];
        for (let bit = 0; bit < count; bit++) parts.push((mask >> BigInt(bit)) & 1n ? ons[rowIdx] ?? '' : offs[rowIdx] ?? '');
        return parts.join(seps === undefined ? ',' : seps[rowIdx] ?? ',');
      });
    },
    description: 'For each of number_of_bits (default 64) bits of bits, lowest first, on or off, joined by separator (default comma).',
    example: "SELECT export_set(5, 'Y', 'N', ',', 4)",
  }),
  str({
    name: 'is_uuid',
    args: [arg('str', 'STRING')],
    returns: Types.BOOLEAN,
    kernel: (args, rowCount) => {
      const texts = toJsStrings(args[0]);
      return boolRows(rowCount, (rowIdx) => UUID_TEXT.test(texts[rowIdx] ?? ''));
    },
    description: "Whether str is a UUID: 8-4-4-4-12 hex digits (optionally in braces) or 32 hex digits.",
    example: "SELECT is_uuid('6ccd780c-baba-1026-9564-5b8c656024db')",
  }),
  str({
    name: 'is_valid_utf8',
    args: [arg('str', 'STRING')],
    returns: Types.BOOLEAN,
    kernel: (args, rowCount) => {
      const src = byteSource(args[0]);
      return boolRows(rowCount, (rowIdx) => {
        try {
          UTF8_STRICT.decode(src.bytes.subarray(src.starts[rowIdx], src.ends[rowIdx]));
          return true;
        } catch {
          return false;
        }
      });
    },
    description: 'Whether the bytes of str are valid UTF-8.',
    example: "SELECT is_valid_utf8('doris')",
  }),
  str({
    name: 'unicode_normalize',
    args: [arg('str', 'STRING'), arg('mode', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([texts, modes], rowIdx) => {
      const mode = (modes[rowIdx] ?? '').trim().toUpperCase();
      if (!NORMAL_FORMS.has(mode)) throw galeneError('INVALID_ARGUMENT', `Invalid normalization mode: ${modes[rowIdx]}, only support NFC, NFD, NFKC, NFKD`);
      return (texts[rowIdx] ?? '').normalize(mode);
    }),
    description: "str in Unicode normal form mode: 'NFC', 'NFD', 'NFKC' or 'NFKD'.",
    example: "SELECT length(unicode_normalize('Café', 'NFD'))",
  }),
  str({
    name: 'damerau_levenshtein_distance',
    args: [arg('a', 'STRING'), arg('b', 'STRING')],
    returns: Types.INT,
    kernel: (args, rowCount) => {
      const [lefts, rights] = args.map(toJsStrings);
      const out = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = damerauLevenshtein(lefts[rowIdx] ?? '', rights[rowIdx] ?? '');
      return fixedVector(Types.INT, out);
    },
    description: 'Edit distance counting insertions, deletions, substitutions and transpositions of adjacent characters.',
    example: "SELECT damerau_levenshtein_distance('ca', 'abc')",
  }),
  str({
    name: 'digital_masking',
    args: [arg('number', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([texts], rowIdx) => {
      const chars = Array.from(texts[rowIdx] ?? '');
      return chars.slice(0, 3).join('') + '****' + chars.slice(Math.max(0, chars.length - 4)).join('');
    }),
    description: "The first 3 and last 4 characters with '****' between (concat(left(s, 3), '****', right(s, 4))).",
    example: 'SELECT digital_masking(13812345678)',
  }),
  str({
    name: 'ngram_search',
    args: [arg('text', 'STRING'), arg('pattern', 'STRING'), arg('gram_num', 'INT')],
    returns: Types.DOUBLE,
    kernel: (args, rowCount) => {
      const [texts, patterns] = [toJsStrings(args[0]), toJsStrings(args[1])];
      const sizes = toF64(args[2]);
      const out = new Float64Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const size = Math.trunc(sizes[rowIdx]);
        if (size < 1) continue;
        const [a, b] = [ngrams(texts[rowIdx] ?? '', size), ngrams(patterns[rowIdx] ?? '', size)];
        if (a.size === 0 || b.size === 0) continue;
        let common = 0;
        for (const gram of b) if (a.has(gram)) common++;
        out[rowIdx] = (2 * common) / (a.size + b.size);
      }
      return fixedVector(Types.DOUBLE, out);
    },
    description: 'N-gram similarity 2 * |common| / (|grams of text| + |grams of pattern|) over distinct gram_num-character grams; 0 when either is shorter than gram_num.',
    example: "SELECT ngram_search('123456789', '12345', 3)",
  }),
  str({
    name: 'convert_to',
    args: [arg('str', 'STRING'), arg('charset', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [texts, charsets] = args.map(toJsStrings);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const text = texts[rowIdx];
        if (text === null || charsets[rowIdx] === null) {
          out.pushNull();
          continue;
        }
        if (charsets[rowIdx]!.toLowerCase() !== 'gbk') throw galeneError('INVALID_ARGUMENT', `Illegal second parameter for convert_to function: ${charsets[rowIdx]}, only support gbk`);
        const bytes = toGbk(text);
        out.pushBytes(bytes, 0, bytes.length);
      }
      return out.finish();
    },
    description: "The string's GBK bytes (charset 'gbk' only): ORDER BY convert_to(name, 'gbk') sorts Chinese text by pinyin.",
    example: "SELECT hex(convert_to('你好', 'gbk'))",
  }),
  str({
    name: 'random_bytes',
    args: [arg('len', 'INT')],
    returns: Types.STRING,
    volatility: 'row',
    kernel: (args, rowCount, site) => {
      const lengths = toF64(args[0]);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const len = lengths[rowIdx];
        if (!(len >= 1) || len > 1024 * 1024) throw galeneError('INVALID_ARGUMENT', `argument ${len} of function random_bytes at row ${rowIdx} was invalid.`);
        out.push('0x' + randomBytes(len).toString('hex'));
      }
      return out.finish();
    },
    description: "len random bytes as hex text '0x...' (len 1 .. 1048576).",
    example: 'SELECT length(random_bytes(7))',
  }),
];
