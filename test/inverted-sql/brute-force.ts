/**
 * A brute-force evaluation of the MATCH operators, written independently of src/storage/inverted's
 * slot/position algorithms: it enumerates every assignment of row positions to query terms. Only the
 * analyzer and Doris's slop-suffix parsing are shared (both are unit-tested on their own). Index tests
 * (slices A and C) can compare their answers against it too.
 */
import { analyze, analyzeElements, parseSlop, type AnalyzerConfig, type MatchOp, type Token } from '../../src/storage/inverted';

function positionsOf(tokens: readonly Token[], accept: (term: string) => boolean): number[] {
  return tokens.filter((token) => accept(token.term)).map((token) => token.position);
}

/** Every choice of one position per slot. */
function* assignments(lists: readonly number[][]): Generator<number[]> {
  if (lists.length === 0) {
    yield [];
    return;
  }
  for (const first of lists[0]) for (const rest of assignments(lists.slice(1))) yield [first, ...rest];
}

/** Whether a row whose value analyzes to `value` matches `op` with query `queryText` (Doris semantics). */
export function bruteForceMatch(op: MatchOp, queryText: string, config: AnalyzerConfig, value: readonly Token[]): boolean {
  if (op === 'match_regexp') {
    const regexp = new RegExp(queryText, 's');
    return value.some((token) => regexp.test(token.term));
  }
  const { text, slop, ordered } = op === 'match_phrase' && config.parser !== 'none' ? parseSlop(queryText) : { text: queryText, slop: 0, ordered: false };
  const query = analyze(text, config);
  if (query.length === 0) return false;
  const terms = value.map((token) => token.term);
  if (op === 'match_any') return query.some((token) => terms.includes(token.term));
  if (op === 'match_all') return query.every((token) => terms.includes(token.term));
  const last = query.length - 1;
  const accept = (slot: number) => (term: string): boolean => {
    const wanted = query[slot].term;
    if (op === 'match_phrase_prefix' && slot === last) return term.startsWith(wanted);
    if (op === 'match_phrase_edge' && last === 0) return term.includes(wanted);
    if (op === 'match_phrase_edge' && slot === 0) return term.endsWith(wanted);
    if (op === 'match_phrase_edge' && slot === last) return term.startsWith(wanted);
    return term === wanted;
  };
  const lists = query.map((_, slot) => positionsOf(value, accept(slot)));
  const offsets = query.map((token) => token.position - query[0].position);
  for (const chosen of assignments(lists)) {
    if (ordered) {
      let increasing = true;
      let width = 0;
      for (let slot = 1; slot < chosen.length; slot++) {
        increasing &&= chosen[slot] > chosen[slot - 1];
        width += chosen[slot] - chosen[slot - 1] - 1;
      }
      if (increasing && width <= slop) return true;
      continue;
    }
    if (new Set(chosen).size !== chosen.length) continue;
    const shifted = chosen.map((position, slot) => position - offsets[slot]);
    if (Math.max(...shifted) - Math.min(...shifted) <= slop) return true;
  }
  return false;
}

/** The same for a column value: a string, an ARRAY's elements, or NULL (never matches). */
export function bruteForceValue(op: MatchOp, queryText: string, config: AnalyzerConfig, value: string | readonly (string | null)[] | null): boolean {
  if (value === null) return false;
  return bruteForceMatch(op, queryText, config, analyzeElements(typeof value === 'string' ? [value] : value, config));
}

/** A deterministic pseudo-random generator (LCG) for test data. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
