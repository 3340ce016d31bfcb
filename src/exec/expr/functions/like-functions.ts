/**
 * LIKE and regular expressions. A LIKE pattern compiles once per distinct pattern (per call site): exact,
 * prefix ('abc%'), suffix ('%abc'), contains ('%abc%') and match-all patterns compare UTF-8 bytes with no
 * decoding; patterns with '_' or inner '%' become an anchored RegExp over characters. Backslash escapes
 * '%', '_' and itself (MySQL/Doris default); an optional third argument names another escape character.
 * Matching is case-sensitive, as Doris's binary collation.
 */
import { Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { Types } from '../../../common/types';
import type { CallSite, FunctionDef } from '../function-registry';
import { StringOut, toF64, toJsStrings } from '../vector-ops';
import { byteSource, simpleSignature } from './string-functions';

type LikeMatcher =
  | { readonly kind: 'all' }
  | { readonly kind: 'exact' | 'prefix' | 'suffix' | 'contains'; readonly needle: Uint8Array }
  | { readonly kind: 'regex'; readonly regex: RegExp };

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

/** Compile a LIKE pattern (see module comment). */
export function compileLike(pattern: string, escape = '\\'): LikeMatcher {
  // Tokens: literal text runs, '%' and '_'.
  const tokens: (string | { wild: '%' | '_' })[] = [];
  let literal = '';
  const chars = Array.from(pattern);
  for (let charIdx = 0; charIdx < chars.length; charIdx++) {
    const ch = chars[charIdx];
    if (ch === escape && charIdx + 1 < chars.length) {
      literal += chars[++charIdx];
    } else if (ch === '%' || ch === '_') {
      if (literal) tokens.push(literal);
      literal = '';
      const last = tokens[tokens.length - 1];
      if (ch === '%' && typeof last === 'object' && last.wild === '%') continue;
      tokens.push({ wild: ch });
    } else literal += ch;
  }
  if (literal) tokens.push(literal);
  const isPct = (token: (typeof tokens)[number] | undefined): boolean => typeof token === 'object' && token.wild === '%';
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  const hasUnderscore = tokens.some((token) => typeof token === 'object' && token.wild === '_');
  if (!hasUnderscore) {
    if (tokens.length === 0) return { kind: 'exact', needle: new Uint8Array(0) };
    if (tokens.length === 1) return isPct(tokens[0]) ? { kind: 'all' } : { kind: 'exact', needle: encode(tokens[0] as string) };
    if (tokens.length === 2 && isPct(tokens[1])) return { kind: 'prefix', needle: encode(tokens[0] as string) };
    if (tokens.length === 2 && isPct(tokens[0])) return { kind: 'suffix', needle: encode(tokens[1] as string) };
    if (tokens.length === 3 && isPct(tokens[0]) && isPct(tokens[2])) return { kind: 'contains', needle: encode(tokens[1] as string) };
  }
  const source = tokens
    .map((token) => (typeof token === 'string' ? token.replace(REGEX_SPECIAL, '\\$&') : token.wild === '%' ? '.*' : '.'))
    .join('');
  return { kind: 'regex', regex: new RegExp(`^${source}$`, 'su') };
}

function bytesEqualAt(bytes: Uint8Array, at: number, needle: Uint8Array): boolean {
  for (let byteIdx = 0; byteIdx < needle.length; byteIdx++) if (bytes[at + byteIdx] !== needle[byteIdx]) return false;
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
    case 'regex':
      return matcher.regex.test(new TextDecoder().decode(bytes.subarray(start, end)));
  }
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
    const src = byteSource(args[0]);
    const patterns = site.isConst[1] ? null : toJsStrings(args[1]);
    const escapes = args.length > 2 ? toJsStrings(args[2]) : null;
    const out = new Uint8Array(rowCount);
    const flip = negated ? 1 : 0;
    if (patterns === null && rowCount > 0) {
      const constPattern = toJsStrings(args[1])[0] ?? '';
      const matcher = matcherFor(site, constPattern, escapes?.[0] || '\\');
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = (matchBytes(matcher, src.bytes, src.starts[rowIdx], src.ends[rowIdx]) ? 1 : 0) ^ flip;
    } else if (patterns !== null) {
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const matcher = matcherFor(site, patterns[rowIdx] ?? '', escapes?.[rowIdx] || '\\');
        out[rowIdx] = (matchBytes(matcher, src.bytes, src.starts[rowIdx], src.ends[rowIdx]) ? 1 : 0) ^ flip;
      }
    }
    return { kind: 'fixed', type: Types.BOOLEAN, length: rowCount, values: out, nulls: null };
  };
}

const POSIX_CLASSES: Record<string, string> = {
  alpha: 'a-zA-Z',
  digit: '0-9',
  alnum: 'a-zA-Z0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: '\\s',
  punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f',
};

function regexFor(site: CallSite, rawPattern: string): RegExp {
  const key = `re:${rawPattern}`;
  let regex = site.cache.get(key) as RegExp | undefined;
  if (regex === undefined) {
    // RE2/POSIX bracket classes ([[:alpha:]]) have no JS spelling: translate them.
    const pattern = rawPattern.replace(/\[:(\w+):\]/g, (whole, name: string) => POSIX_CLASSES[name] ?? whole);
    try {
      regex = new RegExp(pattern, 'u');
    } catch {
      try {
        regex = new RegExp(pattern);
      } catch {
        throw galeneError('TYPE_MISMATCH', `Invalid regex expression: ${rawPattern}`);
      }
    }
    if (site.cache.size > 1000) site.cache.clear();
    site.cache.set(key, regex);
  }
  return regex;
}

function regexpKernel(negated: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const texts = toJsStrings(args[0]);
    const patterns = toJsStrings(args[1]);
    const out = new Uint8Array(rowCount);
    const flip = negated ? 1 : 0;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = (regexFor(site, patterns[rowIdx] ?? '').test(texts[rowIdx] ?? '') ? 1 : 0) ^ flip;
    return { kind: 'fixed', type: Types.BOOLEAN, length: rowCount, values: out, nulls: null };
  };
}

export const LIKE_FUNCTIONS: readonly FunctionDef[] = [
  {
    name: 'like',
    family: 'predicate',
    signature: "str LIKE pattern [ESCAPE c] -> BOOLEAN (like(str, pattern[, escape]))",
    minArgs: 2,
    maxArgs: 3,
    resolve: simpleSignature('like', ['s', 's', 's'], Types.BOOLEAN),
    nulls: 'propagate',
    kernel: likeKernel(false),
    description: "Pattern match: '%' any characters, '_' one character, backslash escapes; case-sensitive.",
    example: "SELECT 'doris' LIKE 'do%'",
  },
  {
    name: 'not_like',
    family: 'predicate',
    signature: 'str NOT LIKE pattern -> BOOLEAN',
    minArgs: 2,
    maxArgs: 3,
    resolve: simpleSignature('not_like', ['s', 's', 's'], Types.BOOLEAN),
    nulls: 'propagate',
    kernel: likeKernel(true),
    description: 'Negated LIKE.',
    example: "SELECT 'doris' NOT LIKE 'x%'",
  },
  {
    name: 'regexp',
    aliases: ['rlike'],
    family: 'predicate',
    signature: 'str REGEXP pattern -> BOOLEAN',
    minArgs: 2,
    maxArgs: 2,
    resolve: simpleSignature('regexp', ['s', 's'], Types.BOOLEAN),
    nulls: 'propagate',
    kernel: regexpKernel(false),
    description: 'Whether the regular expression matches anywhere in str.',
    example: "SELECT 'doris' REGEXP '^d.r'",
  },
  {
    name: 'not_regexp',
    family: 'predicate',
    signature: 'str NOT REGEXP pattern -> BOOLEAN',
    minArgs: 2,
    maxArgs: 2,
    resolve: simpleSignature('not_regexp', ['s', 's'], Types.BOOLEAN),
    nulls: 'propagate',
    kernel: regexpKernel(true),
    description: 'Negated REGEXP.',
    example: "SELECT 'doris' NOT REGEXP 'x'",
  },
  {
    name: 'regexp_extract',
    family: 'string',
    signature: 'regexp_extract(str, pattern, group) -> VARCHAR',
    minArgs: 3,
    maxArgs: 3,
    resolve: simpleSignature('regexp_extract', ['s', 's', 'i'], Types.STRING),
    nulls: 'propagate',
    kernel: (args, rowCount, site) => {
      const texts = toJsStrings(args[0]);
      const patterns = toJsStrings(args[1]);
      const groups = toF64(args[2]);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const match = regexFor(site, patterns[rowIdx] ?? '').exec(texts[rowIdx] ?? '');
        const group = match?.[groups[rowIdx]];
        out.push(group ?? '');
      }
      return out.finish();
    },
    description: 'The given capture group of the first match, or an empty string.',
    example: "SELECT regexp_extract('AbCdE', '([[:lower:]]+)C([[:lower:]]+)', 1)",
  },
  {
    name: 'regexp_replace',
    family: 'string',
    signature: 'regexp_replace(str, pattern, repl) -> VARCHAR',
    minArgs: 3,
    maxArgs: 3,
    resolve: simpleSignature('regexp_replace', ['s', 's', 's'], Types.STRING),
    nulls: 'propagate',
    kernel: (args, rowCount, site) => {
      const [texts, patterns, repls] = args.map(toJsStrings);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const regex = regexFor(site, patterns[rowIdx] ?? '');
        const global = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : regex.flags + 'g');
        out.push((texts[rowIdx] ?? '').replace(global, (repls[rowIdx] ?? '').replace(/\\(\d)/g, '$$$1')));
      }
      return out.finish();
    },
    description: 'Replaces every match of the regular expression; \\1 in repl refers to a group.',
    example: "SELECT regexp_replace('a1b22', '[0-9]+', '#')",
  },
];
