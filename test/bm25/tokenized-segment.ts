// Test helpers for BM25: a segment's statistics from tokenized rows, the way an index file holds them
// (postings with term frequencies, document lengths), and Okapi BM25 straight from its definition.
import { BM25_B, BM25_K1, type Bm25SegmentStatistics, type Postings } from '../../src/storage/inverted/bm25';

export const tokenize = (text: string): string[] => text.toLowerCase().split(/[^a-z]+/).filter(Boolean);

/** One segment's statistics from tokenized rows, the way an index file holds them (postings with tf). */
export class TokenizedSegment implements Bm25SegmentStatistics {
  readonly docCount: number;
  readonly avgDocLength: number;
  private readonly postings = new Map<string, Map<number, number>>();

  constructor(private readonly rows: readonly string[][]) {
    this.docCount = rows.length;
    let total = 0;
    rows.forEach((tokens, row) => {
      total += tokens.length;
      for (const token of tokens) {
        const posting = this.postings.get(token) ?? new Map<number, number>();
        posting.set(row, (posting.get(row) ?? 0) + 1);
        this.postings.set(token, posting);
      }
    });
    this.avgDocLength = rows.length ? total / rows.length : 0;
  }

  docFreq(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  async termFrequencies(term: string): Promise<Postings> {
    const posting = [...(this.postings.get(term) ?? new Map<number, number>())].sort((a, b) => a[0] - b[0]);
    return { rows: Uint32Array.from(posting, ([row]) => row), tfs: Uint32Array.from(posting, ([, tf]) => tf) };
  }

  async docLengths(): Promise<Uint32Array> {
    return Uint32Array.from(this.rows, (tokens) => tokens.length);
  }

  /** The query text's distinct terms (what an index reader's queryTerms gives). */
  queryTerms(text: string): string[] {
    return [...new Set(tokenize(text))];
  }
}

/** Okapi BM25 of one document over the whole table, straight from the definition. */
export function bruteForceBm25(table: readonly string[][], query: readonly string[], doc: number): number {
  const avgdl = table.reduce((sum, tokens) => sum + tokens.length, 0) / table.length;
  let score = 0;
  for (const term of new Set(query)) {
    const df = table.filter((tokens) => tokens.includes(term)).length;
    if (df === 0) continue;
    const idf = Math.log(1 + (table.length - df + 0.5) / (df + 0.5));
    const tf = table[doc].filter((token) => token === term).length;
    score += (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * table[doc].length) / avgdl));
  }
  return score;
}

