/**
 * LIKE and regular expressions. A LIKE pattern compiles once per distinct pattern (per call site): exact,
 * prefix ('abc%'), suffix ('%abc'), contains ('%abc%') and match-all patterns compare UTF-8 bytes with no
 * decoding; any other pattern is a list of segments separated by '%' (each a run of literal bytes and '_')
 * matched greedily, leftmost first, with no backtracking: time is linear in the value's length (times the
 * pattern's), whatever the number of '%' (a backtracking regex took minutes on '%a%a%a...%b').
 *
 * Escapes follow Doris (FunctionLike::remove_escape_character): the escape character (backslash unless
 * ESCAPE names another) followed by '%', '_' or itself stands for that character; followed by anything
 * else, or at the end, it is a literal escape character. So after the string literal is unescaped,
 * '\\b' is the pattern backslash+b and matches the value backslash+b, not 'b'.
 * Matching is case-sensitive, as Doris's binary collation; '_' is one character (a UTF-8 sequence).
 *
 * REGEXP and the regexp_* functions run on RE2 (the `re2` package), as Doris does: linear-time matching
 * with no catastrophic backtracking; dot matches newline (Doris sets dot_nl). Compiled patterns are
 * cached per call site.
 */
import RE2 from 're2';
import { decodeUtf8, Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { Types } from '../../../common/types';
import type { CallSite, FunctionDef } from '../function-registry';
import { fixedVector, StringOut, toF64, toJsStrings } from '../vector-ops';
import { byteSource, mapStrings, overRanges } from '../kernels';
import { arg, defineFunction, opt } from '../signature';

/** One '%'-free piece of a LIKE pattern: literal bytes, with -1 standing for '_' (any one character). */
type Segment = Int16Array;

type LikeMatcher =
  | { readonly kind: 'all' }
  | { readonly kind: 'exact' | 'prefix' | 'suffix' | 'contains'; readonly needle: Uint8Array }
  | { readonly kind: 'segments'; readonly segments: readonly Segment[]; readonly anchoredStart: boolean; readonly anchoredEnd: boolean };

const ANY_CHAR = -1;

/** Compile a LIKE pattern (see module comment). */
export function compileLike(pattern: string, escape = '\\'): LikeMatcher {
  // Split into segments at unescaped '%'; inside a segment, '_' is ANY_CHAR and other characters literal bytes.
  const segments: number[][] = [[]];
  const encoder = new TextEncoder();
  const pushLiteral = (text: string): void => {
    for (const byte of encoder.encode(text)) segments[segments.length - 1].push(byte);
  };
  const chars = Array.from(pattern);
  for (let charIdx = 0; charIdx < chars.length; charIdx++) {
    const ch = chars[charIdx];
    const next = chars[charIdx + 1];
    if (ch === escape && (next === '%' || next === '_' || next === escape)) {
      pushLiteral(next);
      charIdx++;
    } else if (ch === '%') segments.push([]);
    else if (ch === '_') segments[segments.length - 1].push(ANY_CHAR);
    else pushLiteral(ch);
  }
  const anchoredStart = segments[0].length > 0 || segments.length === 1;
  const anchoredEnd = segments[segments.length - 1].length > 0 || segments.length === 1;
  const pieces = segments.filter((segment, segIdx) => segment.length > 0 || (segments.length === 1 && segIdx === 0));
  const literal = (segment: number[]): boolean => !segment.includes(ANY_CHAR);
  if (segments.length > 1 && pieces.length === 0) return { kind: 'all' };
  if (pieces.length === 1 && literal(pieces[0])) {
    const needle = Uint8Array.from(pieces[0]);
    if (anchoredStart && anchoredEnd) return { kind: 'exact', needle };
    if (anchoredStart) return { kind: 'prefix', needle };
    if (anchoredEnd) return { kind: 'suffix', needle };
    return { kind: 'contains', needle };
  }
  return { kind: 'segments', segments: pieces.map((segment) => Int16Array.from(segment)), anchoredStart, anchoredEnd };
}

function bytesEqualAt(bytes: Uint8Array, at: number, needle: Uint8Array): boolean {
  for (let byteIdx = 0; byteIdx < needle.length; byteIdx++) if (bytes[at + byteIdx] !== needle[byteIdx]) return false;
  return true;
}

/** Bytes of the UTF-8 sequence starting with `lead` (1 for a stray continuation byte). */
function utf8Width(lead: number): number {
  return lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/** Where `segment` matching at `pos` ends, or -1 when it does not match there (never past `end`). */
function segmentEndAt(segment: Segment, bytes: Uint8Array, pos: number, end: number): number {
  let at = pos;
  for (let elemIdx = 0; elemIdx < segment.length; elemIdx++) {
    if (at >= end) return -1;
    const want = segment[elemIdx];
    if (want === ANY_CHAR) at += utf8Width(bytes[at]);
    else if (bytes[at] === want) at++;
    else return -1;
  }
  return at <= end ? at : -1;
}

/** Characters (UTF-8 sequences) one match of `segment` spans: each '_' is one, literal bytes count as UTF-8. */
function segmentChars(segment: Segment): number {
  let count = 0;
  for (const elem of segment) if (elem === ANY_CHAR || (elem & 0xc0) !== 0x80) count++;
  return count;
}

/** Start of the `chars`-th character counted back from `end`, or -1 when the range is shorter. */
function charsBack(bytes: Uint8Array, start: number, end: number, chars: number): number {
  let pos = end;
  for (let charIdx = 0; charIdx < chars; charIdx++) {
    if (pos <= start) return -1;
    pos--;
    while (pos > start && (bytes[pos] & 0xc0) === 0x80) pos--;
  }
  return pos;
}

/**
 * Greedy '%'-segment matching: the first segment at the start (when anchored), each middle segment at its
 * leftmost match after the previous one, the last at the end (when anchored). Leftmost is always safe, so
 * nothing is ever retried: O(value length x pattern length).
 */
function matchSegments(matcher: Extract<LikeMatcher, { kind: 'segments' }>, bytes: Uint8Array, start: number, end: number): boolean {
  const { segments, anchoredStart, anchoredEnd } = matcher;
  let first = 0;
  let last = segments.length;
  let pos = start;
  let limit = end;
  if (anchoredStart) {
    const after = segmentEndAt(segments[0], bytes, pos, limit);
    if (after < 0) return false;
    if (segments.length === 1 && anchoredEnd) return after === end;
    pos = after;
    first = 1;
  }
  if (anchoredEnd && last > first) {
    const tail = segments[last - 1];
    const tailStart = charsBack(bytes, pos, limit, segmentChars(tail));
    if (tailStart < 0 || segmentEndAt(tail, bytes, tailStart, limit) !== limit) return false;
    limit = tailStart;
    last--;
  }
  for (let segIdx = first; segIdx < last; segIdx++) {
    const segment = segments[segIdx];
    let found = -1;
    for (let at = pos; at < limit; at++) {
      if ((bytes[at] & 0xc0) === 0x80) continue;
      const after = segmentEndAt(segment, bytes, at, limit);
      if (after >= 0) {
        found = after;
        break;
      }
    }
    if (found < 0) return false;
    pos = found;
  }
  return true;
}

/** Does the UTF-8 range match? */
function matchBytes(matcher: LikeMatcher, bytes: Uint8Array, start: number, end: number): boolean {
  switch (matcher.kind) {
    case 'all':
      return true;
    case 'exact':
      return end - start === matcher.needle.length && bytesEqualAt(bytes, start, matcher.needle);
    case 'prefix':
      return end - start >= matcher.needle.length && bytesEqualAt(bytes, start, matcher.needle);
    case 'suffix':
      return end - start >= matcher.needle.length && bytesEqualAt(bytes, end - matcher.needle.length, matcher.needle);
    case 'contains': {
      const needle = matcher.needle;
      if (needle.length === 0) return true;
      const first = needle[0];
      const last = end - needle.length;
      for (let pos = start; pos <= last; pos++) if (bytes[pos] === first && bytesEqualAt(bytes, pos, needle)) return true;
      return false;
    }
    case 'segments':
      return matchSegments(matcher, bytes, start, end);
  }
}

/**
 * One JS string against a LIKE pattern, in linear time (for callers outside kernels, such as
 * SHOW ... LIKE). `caseInsensitive` folds both sides to lower case first (MySQL's SHOW matching).
 */
export function matchLike(value: string, pattern: string, options: { readonly escape?: string; readonly caseInsensitive?: boolean } = {}): boolean {
  const fold = options.caseInsensitive === true;
  const matcher = compileLike(fold ? pattern.toLowerCase() : pattern, options.escape ?? '\\');
  const bytes = new TextEncoder().encode(fold ? value.toLowerCase() : value);
  return matchBytes(matcher, bytes, 0, bytes.length);
}

/** A compiled LIKE pattern as a predicate on JS strings (json_search's search string). */
export function likePredicate(pattern: string, escape = '\\'): (value: string) => boolean {
  const matcher = compileLike(pattern, escape);
  const encoder = new TextEncoder();
  return (value) => {
    const bytes = encoder.encode(value);
    return matchBytes(matcher, bytes, 0, bytes.length);
  };
}

/** The matcher for a pattern, cached per call site. */
function matcherFor(site: CallSite, pattern: string, escape: string): LikeMatcher {
  const key = `like:${escape}:${pattern}`;
  let matcher = site.cache.get(key) as LikeMatcher | undefined;
  if (matcher === undefined) {
    if (site.cache.size > 1000) site.cache.clear();
    matcher = compileLike(pattern, escape);
    site.cache.set(key, matcher);
  }
  return matcher;
}

function likeKernel(negated: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const escapes = args.length > 2 ? toJsStrings(args[2]) : null;
    const flip = negated ? 1 : 0;
    let out = new Uint8Array(rowCount);
    if (site.isConst[1]) {
      if (rowCount > 0) {
        // One pattern: each dictionary entry (or each row) is matched once.
        const matcher = matcherFor(site, toJsStrings(args[1])[0] ?? '', escapes?.[0] || '\\');
        out = overRanges(args[0], rowCount, out, (src, count, target) => {
          for (let idx = 0; idx < count; idx++) target[idx] = (matchBytes(matcher, src.bytes, src.starts[idx], src.ends[idx]) ? 1 : 0) ^ flip;
        });
      }
    } else {
      const patterns = toJsStrings(args[1]);
      const src = byteSource(args[0]);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const matcher = matcherFor(site, patterns[rowIdx] ?? '', escapes?.[rowIdx] || '\\');
        out[rowIdx] = (matchBytes(matcher, src.bytes, src.starts[rowIdx], src.ends[rowIdx]) ? 1 : 0) ^ flip;
      }
    }
    return fixedVector(Types.BOOLEAN, out);
  };
}

/**
 * The compiled RE2 for a pattern, cached per call site (a constant pattern compiles once per query).
 * `global` gives the variant regexp_replace needs. An invalid pattern is Doris's "Invalid regex
 * expression" error.
 */
export function regexFor(site: CallSite, pattern: string, global = false): RE2 {
  const key = `${global ? 're2g' : 're2'}:${pattern}`;
  let regex = site.cache.get(key) as RE2 | undefined;
  if (regex === undefined) {
    try {
      regex = new RE2(pattern, global ? 'gsu' : 'su');
    } catch {
      throw galeneError('INVALID_REGEX', pattern);
    }
    if (site.cache.size > 1000) site.cache.clear();
    site.cache.set(key, regex);
  }
  return regex;
}

function regexpKernel(negated: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const patterns = toJsStrings(args[1]);
    const flip = negated ? 1 : 0;
    const perRow = !site.isConst[1];
    const out = overRanges(args[0], rowCount, new Uint8Array(rowCount), (src, count, target) => {
      const buffer = Buffer.from(src.bytes.buffer, src.bytes.byteOffset, src.bytes.byteLength);
      for (let idx = 0; idx < count; idx++) {
        const regex = regexFor(site, patterns[perRow ? idx : 0] ?? '');
        target[idx] = (regex.test(buffer.subarray(src.starts[idx], src.ends[idx])) ? 1 : 0) ^ flip;
      }
    }, !perRow);
    return fixedVector(Types.BOOLEAN, out);
  };
}

/** A regexp_replace replacement in RE2's rewrite syntax (\\1 names a group) as a JS replacement ($1). */
export function jsReplacement(rewrite: string): string {
  return rewrite.replace(/\$/g, '$$$$').replace(/\\(\d)/g, '$$$1');
}

export const LIKE_FUNCTIONS: readonly FunctionDef[] = [
  defineFunction({
    name: 'like',
    family: 'predicate',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING'), opt('escape', 'STRING')],
    returns: Types.BOOLEAN,
    signature: "str LIKE pattern [ESCAPE c] -> BOOLEAN (like(str, pattern[, escape]))",
    kernel: likeKernel(false),
    description: "Pattern match: '%' any characters, '_' one character; a backslash escapes '%', '_' and itself (before any other character it is literal); case-sensitive; linear time.",
    example: "SELECT 'doris' LIKE 'do%'",
  }),
  defineFunction({
    name: 'not_like',
    family: 'predicate',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING'), opt('escape', 'STRING')],
    returns: Types.BOOLEAN,
    signature: 'str NOT LIKE pattern -> BOOLEAN',
    kernel: likeKernel(true),
    description: 'Negated LIKE.',
    example: "SELECT 'doris' NOT LIKE 'x%'",
  }),
  defineFunction({
    name: 'regexp',
    aliases: ['rlike'],
    family: 'predicate',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING')],
    returns: Types.BOOLEAN,
    signature: 'str REGEXP pattern -> BOOLEAN',
    kernel: regexpKernel(false),
    description: 'Whether the regular expression (RE2 syntax, linear time; dot matches newline) matches anywhere in str.',
    example: "SELECT 'doris' REGEXP '^d.r'",
  }),
  defineFunction({
    name: 'not_regexp',
    family: 'predicate',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING')],
    returns: Types.BOOLEAN,
    signature: 'str NOT REGEXP pattern -> BOOLEAN',
    kernel: regexpKernel(true),
    description: 'Negated REGEXP.',
    example: "SELECT 'doris' NOT REGEXP 'x'",
  }),
  defineFunction({
    name: 'regexp_extract',
    family: 'string',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING'), arg('group', 'INT')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const patterns = toJsStrings(args[1]);
      const groups = toF64(args[2]);
      return mapStrings(args[0], rowCount, site, (bytes, start, end, out, rowIdx) => {
        const match = regexFor(site, patterns[rowIdx] ?? '').exec(decodeUtf8(bytes, start, end));
        out.push(match?.[groups[rowIdx]] ?? '');
      });
    },
    description: 'The given capture group of the first match, or an empty string.',
    example: "SELECT regexp_extract('AbCdE', '([[:lower:]]+)C([[:lower:]]+)', 1)",
  }),
  defineFunction({
    name: 'regexp_replace',
    family: 'string',
    args: [arg('str', 'STRING'), arg('pattern', 'STRING'), arg('repl', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [texts, patterns, repls] = args.map(toJsStrings);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const regex = regexFor(site, patterns[rowIdx] ?? '', true);
        out.push(regex.replace(texts[rowIdx] ?? '', jsReplacement(repls[rowIdx] ?? '')));
      }
      return out.finish();
    },
    description: 'Replaces every match of the regular expression; \\1 in repl refers to a group.',
    example: "SELECT regexp_replace('a1b22', '[0-9]+', '#')",
  }),
];
