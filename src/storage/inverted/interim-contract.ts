/**
 * INTERIM stand-in for slice B's analyzer.ts and match-semantics.ts (the A/B contract): the two type
 * declarations, a plain analyzer (parser none: the whole value; other parsers: lower-cased runs of
 * letters and digits, no stemming, no stop words) and the row-level MATCH semantics, so that the index
 * can be built and tested before B lands. Replaced by B's modules at the merge; nothing outside
 * storage/inverted imports this file.
 */
import { GaleneError } from '../../common/errors';

export interface AnalyzerConfig {
  readonly parser: 'none' | 'english' | 'unicode' | 'chinese';
  readonly parserMode: 'fine_grained' | 'coarse_grained';
  readonly lowerCase: boolean;
  readonly stopwords: 'default' | 'none';
  readonly supportPhrase: boolean;
}

export interface Token {
  readonly term: string;
  readonly position: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

export function analyze(text: string, config: AnalyzerConfig): Token[] {
  if (config.parser === 'none') return [{ term: config.lowerCase ? text.toLowerCase() : text, position: 0 }];
  const out: Token[] = [];
  for (const match of text.matchAll(WORD)) out.push({ term: config.lowerCase ? match[0].toLowerCase() : match[0], position: out.length });
  return out;
}

export type MatchOp = 'match_any' | 'match_all' | 'match_phrase' | 'match_phrase_prefix' | 'match_regexp' | 'match_phrase_edge';

/** A MATCH query string parsed once: its analyzed terms and (phrases) the `~N` / `~N+` slop suffix. */
export interface ParsedMatch {
  readonly op: MatchOp;
  readonly terms: readonly string[];
  readonly slop: number;
  readonly ordered: boolean;
  /** match_regexp: the pattern (not analyzed). */
  readonly pattern: string;
}

const SLOP = /\s~(\d+)(\+?)\s*$/;

export function parseMatch(op: MatchOp, text: string, config: AnalyzerConfig): ParsedMatch {
  if (op === 'match_regexp') return { op, terms: [], slop: 0, ordered: false, pattern: text };
  let body = text;
  let slop = 0;
  let ordered = false;
  if (op === 'match_phrase') {
    const found = SLOP.exec(` ${text}`);
    if (found) {
      slop = Number(found[1]);
      ordered = found[2] === '+';
      body = ` ${text}`.slice(0, found.index);
    }
  }
  return { op, terms: analyze(body, config).map((token) => token.term), slop, ordered, pattern: '' };
}

/** A term test for match_regexp: the pattern found anywhere in the term. */
export function regexpMatcher(pattern: string): (term: string) => boolean {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch (err) {
    throw new GaleneError('TYPE_MISMATCH', [`Invalid regular expression: ${pattern}`], { cause: err });
  }
  return (term) => re.test(term);
}

/** How a query slot of a phrase-like query matches a value term. */
export type SlotKind = 'exact' | 'prefix' | 'suffix' | 'contains';

/** The slot kinds of a phrase-like query (match_phrase, match_phrase_prefix, match_phrase_edge). */
export function phraseSlots(parsed: ParsedMatch): SlotKind[] {
  const count = parsed.terms.length;
  const kinds: SlotKind[] = new Array<SlotKind>(count).fill('exact');
  if (parsed.op === 'match_phrase_prefix' && count > 0) kinds[count - 1] = 'prefix';
  if (parsed.op === 'match_phrase_edge') {
    if (count === 1) kinds[0] = 'contains';
    else if (count > 1) {
      kinds[0] = 'suffix';
      kinds[count - 1] = 'prefix';
    }
  }
  return kinds;
}

export function slotMatches(kind: SlotKind, queryTerm: string, term: string): boolean {
  switch (kind) {
    case 'exact':
      return term === queryTerm;
    case 'prefix':
      return term.startsWith(queryTerm);
    case 'suffix':
      return term.endsWith(queryTerm);
    case 'contains':
      return term.includes(queryTerm);
  }
}

/**
 * Do the positions fit the phrase? `slots[i]` holds the sorted positions where slot i matches. Exact:
 * consecutive positions. `~N`: Lucene's sloppy match, max(p_i - i) - min(p_i - i) <= N over one position
 * per slot. `~N+`: p_0 < p_1 < ... with p_last - p_0 - (n - 1) <= N.
 */
export function phraseFits(slots: readonly (readonly number[])[], slop: number, ordered: boolean): boolean {
  const count = slots.length;
  if (count === 0 || slots.some((positions) => positions.length === 0)) return false;
  if (count === 1) return true;
  if (ordered) {
    for (const start of slots[0]) {
      let prev = start;
      let ok = true;
      for (let slotIdx = 1; slotIdx < count && ok; slotIdx++) {
        const next = slots[slotIdx].find((pos) => pos > prev);
        if (next === undefined) ok = false;
        else prev = next;
      }
      if (ok && prev - start - (count - 1) <= slop) return true;
    }
    return false;
  }
  // Smallest window over the shifted positions p - i covering every slot.
  const events: [number, number][] = [];
  slots.forEach((positions, slotIdx) => positions.forEach((pos) => events.push([pos - slotIdx, slotIdx])));
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const inWindow = new Int32Array(count);
  let covered = 0;
  let left = 0;
  for (let right = 0; right < events.length; right++) {
    if (inWindow[events[right][1]]++ === 0) covered++;
    while (covered === count) {
      if (events[right][0] - events[left][0] <= slop) return true;
      if (--inWindow[events[left][1]] === 0) covered--;
      left++;
    }
  }
  return false;
}

/** The row-level answer: does a value with `tokens` match the parsed query? */
export function matchesTokens(parsed: ParsedMatch, tokens: readonly Token[]): boolean {
  if (parsed.op === 'match_regexp') {
    const test = regexpMatcher(parsed.pattern);
    return tokens.some((token) => test(token.term));
  }
  if (parsed.terms.length === 0) return false;
  if (parsed.op === 'match_any') return tokens.some((token) => parsed.terms.includes(token.term));
  if (parsed.op === 'match_all') return parsed.terms.every((term) => tokens.some((token) => token.term === term));
  const kinds = phraseSlots(parsed);
  const slots = parsed.terms.map((queryTerm, slotIdx) => tokens.filter((token) => slotMatches(kinds[slotIdx], queryTerm, token.term)).map((token) => token.position).sort((a, b) => a - b));
  const exact = parsed.op !== 'match_phrase';
  return phraseFits(slots, exact ? 0 : parsed.slop, exact ? false : parsed.ordered);
}

/** INTERIM analyzerFor (B's inverted-params.ts): the analyzer of an index from its PROPERTIES. */
export function analyzerFromProperties(properties: Readonly<Record<string, string>>): AnalyzerConfig {
  const parser = (properties['parser'] ?? 'none').toLowerCase();
  return {
    parser: parser === 'english' || parser === 'unicode' || parser === 'chinese' ? parser : 'none',
    parserMode: properties['parser_mode'] === 'coarse_grained' ? 'coarse_grained' : 'fine_grained',
    lowerCase: parser === 'none' ? properties['lower_case'] === 'true' : properties['lower_case'] !== 'false',
    stopwords: properties['stopwords'] === 'none' ? 'none' : 'default',
    supportPhrase: properties['support_phrase'] === 'true',
  };
}
