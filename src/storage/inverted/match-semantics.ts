/**
 * What MATCH_ANY, MATCH_ALL, MATCH_PHRASE, MATCH_PHRASE_PREFIX, MATCH_REGEXP and MATCH_PHRASE_EDGE mean,
 * as pure functions over analyzed tokens. Two paths use them: the row-by-row match_* functions
 * (exec/expr/functions/match-functions.ts, the path without an index file and the oracle of index tests)
 * and the inverted-index reader, which answers the same question from posting lists. Both get the query
 * from matchQuery() and decide with the same slot predicates and position rule, so their answers are
 * equal by construction.
 *
 * A query is a list of slots, one per query token (one regexp slot for MATCH_REGEXP). slotMatcher() says
 * which terms fill a slot (the exact term; for PHRASE_PREFIX the last slot by prefix; for PHRASE_EDGE the
 * first slot by suffix and the last by prefix, a single slot by substring; for REGEXP an unanchored RE2
 * search, Doris runs hyperscan the same way). positionsMatch() decides a row from the positions where each
 * slot is filled (Doris be/src/vec/functions/match.cpp and inverted_index/query/phrase_query.cpp):
 * - MATCH_ANY / MATCH_REGEXP: some slot is filled; MATCH_ALL: every slot is filled.
 * - MATCH_PHRASE: the slots at their query offsets (query token positions, so a dropped stopword keeps
 *   its gap) from one start position. `'a b ~N'`: sloppy, Lucene's rule: distinct positions whose
 *   (position - offset) spread is at most N. `'a b ~N+'`: ordered, strictly increasing positions whose
 *   gaps sum to at most N (Doris OrderedSloppyPhraseMatcher).
 * - MATCH_PHRASE_PREFIX / MATCH_PHRASE_EDGE: an exact phrase with those slot rules.
 * A query that analyzes to no tokens matches no row (Doris: "token parser result is empty for query").
 * An ARRAY value is its elements' tokens in order, positions continuing from one element to the next.
 */
import RE2 from 're2';
import { GaleneError } from '../../common/errors';
import { analyze, type AnalyzerConfig, type Token } from './analyzer';

export type MatchOp = 'match_any' | 'match_all' | 'match_phrase' | 'match_phrase_prefix' | 'match_regexp' | 'match_phrase_edge';

export const MATCH_OPS: readonly MatchOp[] = ['match_any', 'match_all', 'match_phrase', 'match_phrase_prefix', 'match_regexp', 'match_phrase_edge'];

/** The phrase operators: they need positions (an index with support_phrase = true). */
export const PHRASE_OPS: ReadonlySet<MatchOp> = new Set<MatchOp>(['match_phrase', 'match_phrase_prefix', 'match_phrase_edge']);

export interface MatchQuery {
  readonly op: MatchOp;
  /** The analyzed query text (after the slop suffix is cut off); empty for MATCH_REGEXP. */
  readonly tokens: readonly Token[];
  /** MATCH_PHRASE's `~N`; 0 otherwise. */
  readonly slop: number;
  /** MATCH_PHRASE's `~N+`. */
  readonly ordered: boolean;
  /** MATCH_REGEXP's compiled pattern. */
  readonly regexp?: RE2;
}

/**
 * Doris PhraseQuery::parser_slop: a last space-separated word `~N` or `~N+` (N decimal digits) is the slop
 * and is cut off the query; anything else leaves the query as written.
 */
export function parseSlop(query: string): { readonly text: string; readonly slop: number; readonly ordered: boolean } {
  const none = { text: query, slop: 0, ordered: false };
  const lastSpace = query.lastIndexOf(' ');
  if (lastSpace < 0) return none;
  const tilde = lastSpace + 1;
  if (!(tilde < query.length - 1 && query[tilde] === '~')) return none;
  let slopText = query.slice(tilde + 1);
  let ordered = false;
  if (slopText.length > 1 && slopText.endsWith('+')) {
    ordered = true;
    slopText = slopText.slice(0, -1);
  }
  if (!/^[0-9]+$/.test(slopText)) return none;
  const slop = Number(slopText);
  if (!Number.isSafeInteger(slop) || slop > 0x7fffffff) return none;
  return { text: query.slice(0, lastSpace), slop, ordered };
}

/** The query of `op` with text `text` on a column analyzed by `config`. Throws for a bad regexp. */
export function matchQuery(op: MatchOp, text: string, config: AnalyzerConfig): MatchQuery {
  if (op === 'match_regexp') {
    let regexp: RE2;
    try {
      regexp = new RE2(text, 'su');
    } catch (err) {
      throw new GaleneError('INVALID_ARGUMENT', [`invalid regular expression for match_regexp: ${err instanceof Error ? err.message : String(err)}`]);
    }
    return { op, tokens: [], slop: 0, ordered: false, regexp };
  }
  if (op === 'match_phrase' && config.parser !== 'none') {
    const { text: phrase, slop, ordered } = parseSlop(text);
    return { op, tokens: analyze(phrase, config), slop, ordered };
  }
  return { op, tokens: analyze(text, config), slop: 0, ordered: false };
}

/** How many slots the query has (positionsMatch takes one position list per slot). */
export function slotCount(query: MatchQuery): number {
  return query.op === 'match_regexp' ? 1 : query.tokens.length;
}

/** Which terms fill slot `slot` of the query. */
export function slotMatcher(query: MatchQuery, slot: number): (term: string) => boolean {
  if (query.op === 'match_regexp') {
    const regexp = query.regexp!;
    return (term) => regexp.test(term);
  }
  const wanted = query.tokens[slot].term;
  const last = query.tokens.length - 1;
  if (query.op === 'match_phrase_prefix' && slot === last) return (term) => term.startsWith(wanted);
  if (query.op === 'match_phrase_edge') {
    if (last === 0) return (term) => term.includes(wanted);
    if (slot === 0) return (term) => term.endsWith(wanted);
    if (slot === last) return (term) => term.startsWith(wanted);
  }
  return (term) => term === wanted;
}

/**
 * Whether a row matches, given for each slot the sorted positions in the row where the slot is filled.
 * A query without slots matches nothing.
 */
export function positionsMatch(query: MatchQuery, slotPositions: readonly (readonly number[])[]): boolean {
  const slots = slotCount(query);
  if (slots === 0) return false;
  switch (query.op) {
    case 'match_any':
    case 'match_regexp':
      return slotPositions.some((positions) => positions.length > 0);
    case 'match_all':
      return slotPositions.every((positions) => positions.length > 0);
    default:
      break;
  }
  if (slotPositions.some((positions) => positions.length === 0)) return false;
  if (slots === 1) return true;
  const offsets = query.tokens.map((token) => token.position - query.tokens[0].position);
  if (query.op === 'match_phrase' && query.ordered) return orderedWithin(slotPositions, query.slop);
  if (query.op === 'match_phrase' && query.slop > 0) return sloppyWithin(query, offsets, slotPositions);
  return exactPhrase(offsets, slotPositions);
}

/** Per query, computed once: the slot predicates, and for exact slots the slots of each term. */
interface CompiledQuery {
  readonly matchers: readonly ((term: string) => boolean)[];
  /** term -> the slots it fills, when every slot is an exact term (else null). */
  readonly exactSlots: ReadonlyMap<string, readonly number[]> | null;
}

const compiled = new WeakMap<MatchQuery, CompiledQuery>();

function compile(query: MatchQuery): CompiledQuery {
  let out = compiled.get(query);
  if (out === undefined) {
    const slots = slotCount(query);
    const exact = query.op === 'match_any' || query.op === 'match_all' || query.op === 'match_phrase';
    let exactSlots: Map<string, number[]> | null = null;
    if (exact) {
      exactSlots = new Map();
      query.tokens.forEach((token, slot) => {
        const list = exactSlots!.get(token.term);
        if (list) list.push(slot);
        else exactSlots!.set(token.term, [slot]);
      });
    }
    out = { matchers: Array.from({ length: slots }, (_, slot) => slotMatcher(query, slot)), exactSlots };
    compiled.set(query, out);
  }
  return out;
}

/** Whether a row with tokens `valueTokens` matches the query. */
export function matchesTokens(op: MatchOp, query: MatchQuery, valueTokens: readonly Token[]): boolean {
  if (op !== query.op) throw new GaleneError('INTERNAL', [`match query prepared for ${query.op} used for ${op}`]);
  const slots = slotCount(query);
  if (slots === 0) return false;
  const { matchers, exactSlots } = compile(query);
  if (op === 'match_any' && exactSlots !== null) return valueTokens.some((token) => exactSlots.has(token.term));
  const slotPositions: number[][] = Array.from({ length: slots }, () => []);
  for (const token of valueTokens) {
    if (exactSlots !== null) {
      const filled = exactSlots.get(token.term);
      if (filled !== undefined) for (const slot of filled) slotPositions[slot].push(token.position);
      continue;
    }
    for (let slot = 0; slot < slots; slot++) if (matchers[slot](token.term)) slotPositions[slot].push(token.position);
  }
  for (const positions of slotPositions) if (positions.length > 1) positions.sort((left, right) => left - right);
  return positionsMatch(query, slotPositions);
}

/**
 * The tokens of one value of a column: a string, or an ARRAY's elements (NULL elements skipped), whose
 * positions continue from one element to the next (Doris's row-by-row phrase match does the same).
 */
export function analyzeElements(elements: readonly (string | null)[], config: AnalyzerConfig): Token[] {
  if (elements.length === 1 && elements[0] !== null) return analyze(elements[0], config);
  const out: Token[] = [];
  let base = 0;
  for (const element of elements) {
    if (element === null) continue;
    const tokens = analyze(element, config);
    for (const token of tokens) out.push({ term: token.term, position: base + token.position });
    if (tokens.length > 0) base += tokens[tokens.length - 1].position + 1;
  }
  return out;
}

/** Some position p with slot i filled at p + offsets[i] for every slot. */
function exactPhrase(offsets: readonly number[], slotPositions: readonly (readonly number[])[]): boolean {
  const sets = slotPositions.map((positions) => new Set(positions));
  for (const start of slotPositions[0]) {
    const base = start - offsets[0];
    let all = true;
    for (let slot = 1; slot < offsets.length && all; slot++) all = sets[slot].has(base + offsets[slot]);
    if (all) return true;
  }
  return false;
}

/** The smallest element of sorted `values` that is >= `min`, or undefined (position lists of a row are short). */
function firstAtLeast(values: readonly number[], min: number): number | undefined {
  for (const value of values) if (value >= min) return value;
  return undefined;
}

/** Strictly increasing positions, one per slot in order, whose gaps sum to at most `slop` (greedy per start). */
function orderedWithin(slotPositions: readonly (readonly number[])[], slop: number): boolean {
  for (const start of slotPositions[0]) {
    let previous = start;
    let width = 0;
    let ok = true;
    for (let slot = 1; slot < slotPositions.length && ok; slot++) {
      const next = firstAtLeast(slotPositions[slot], previous + 1);
      if (next === undefined) return false;
      width += next - (previous + 1);
      previous = next;
      ok = width <= slop;
    }
    if (ok) return true;
  }
  return false;
}

/**
 * Lucene's sloppy phrase: distinct positions p_i (slot i filled at p_i) with max(p_i - o_i) - min(p_i - o_i)
 * <= slop. Tries each candidate window start m = p - o_i; within a window, slots of the same term take
 * distinct positions greedily in offset order (equal-length intervals, so earliest-fit is exact).
 */
function sloppyWithin(query: MatchQuery, offsets: readonly number[], slotPositions: readonly (readonly number[])[]): boolean {
  const groups = new Map<string, number[]>();
  query.tokens.forEach((token, slot) => {
    const group = groups.get(token.term);
    if (group) group.push(slot);
    else groups.set(token.term, [slot]);
  });
  const candidates = new Set<number>();
  slotPositions.forEach((positions, slot) => {
    for (const position of positions) candidates.add(position - offsets[slot]);
  });
  const slop = query.slop;
  for (const windowStart of [...candidates].sort((left, right) => left - right)) {
    let ok = true;
    for (const slots of groups.values()) {
      let taken = -Infinity;
      for (const slot of slots) {
        const low = windowStart + offsets[slot];
        const position = firstAtLeast(slotPositions[slot], Math.max(low, taken + 1));
        if (position === undefined || position > low + slop) {
          ok = false;
          break;
        }
        taken = position;
      }
      if (!ok) break;
    }
    if (ok) return true;
  }
  return false;
}
