// Seeded rows for the inverted-index tests: short documents over a Zipf-ish vocabulary (words sharing
// prefixes and suffixes so prefix, edge and regexp queries expand), NULLs, numbers, arrays.
import { mulberry32 } from '../../src/common/prng';

export const VOCABULARY: readonly string[] = (() => {
  const stems = ['data', 'base', 'index', 'query', 'olap', 'search', 'vector', 'text', 'log', 'ticket', 'error', 'node', 'disk', 'cache', 'page'];
  const endings = ['', 's', 'ing', 'er', 'ed'];
  const words: string[] = [];
  for (const stem of stems) for (const ending of endings) words.push(stem + ending);
  for (let extra = 0; extra < 120; extra++) words.push(`w${extra}x`);
  return words;
})();

/** A Zipf-ish pick: word k with weight 1 / (k + 1). */
export function zipfPicker(seed: number, words: readonly string[] = VOCABULARY): () => string {
  const rand = mulberry32(seed);
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 0; rank < words.length; rank++) cumulative.push((total += 1 / (rank + 1)));
  return () => {
    const target = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
}

/** `rows` documents of 0..maxWords words (some capitalized, some punctuation), about `nullRate` NULL. */
export function textRows(rows: number, seed: number, options: { nullRate?: number; maxWords?: number } = {}): (string | null)[] {
  const rand = mulberry32(seed ^ 0x9e3779b9);
  const pick = zipfPicker(seed);
  const out: (string | null)[] = [];
  for (let row = 0; row < rows; row++) {
    if (rand() < (options.nullRate ?? 0.05)) {
      out.push(null);
      continue;
    }
    const count = Math.floor(rand() * ((options.maxWords ?? 10) + 1));
    const words: string[] = [];
    for (let wordIdx = 0; wordIdx < count; wordIdx++) {
      const word = pick();
      words.push(rand() < 0.1 ? word.toUpperCase() : word);
    }
    out.push(words.join(rand() < 0.2 ? ', ' : ' '));
  }
  return out;
}

export function intRows(rows: number, seed: number, range: number, nullRate = 0.05): (number | null)[] {
  const rand = mulberry32(seed);
  return Array.from({ length: rows }, () => (rand() < nullRate ? null : Math.floor(rand() * range) - Math.floor(range / 4)));
}
