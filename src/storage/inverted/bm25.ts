/**
 * Okapi BM25 relevance over inverted-index statistics: what `score()` returns for the rows a MATCH
 * predicate keeps (issue 12; later Doris versions' `score()`), computed from the index files alone, never
 * by re-reading the text.
 *
 *   score(row) = sum over distinct query terms t of  idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avgdl))
 *   idf(t)     = ln(1 + (N - df + 0.5) / (df + 0.5))          (Lucene's BM25Similarity: never negative)
 *
 * with k1 = 1.2, b = 0.75, tf = occurrences of t in the row, len = the row's token count, N = documents,
 * df = documents holding t, avgdl = mean token count.
 *
 * Collection statistics (N, df, avgdl) are summed over every segment a query reads before any row is
 * scored (`collectionStatistics`), not taken per segment as a Lucene segment alone would: a score then
 * means the same in every segment, so a TopN across segments (and tablets) compares like with like, and a
 * table's ranking does not change with how its rows happen to be split into segments. Per-row statistics
 * (tf, len) come from the row's own segment. As in Lucene, rows deleted after their segment was written
 * still count in N / df / avgdl until compaction rewrites the segment; the deleted rows themselves are
 * never scored, because the scan removes them from the row set first.
 *
 * Query terms are the analyzer's tokens of the MATCH text, deduplicated (`'a a'` scores like `'a'`); a
 * phrase query is scored by its terms as MATCH_ANY would be. Storage layer: knows no SQL; works on row
 * ordinals and typed arrays (DESIGN §6).
 */

/** Lucene's / Elasticsearch's defaults. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * What scoring needs from one segment's inverted index (InvertedIndexReader provides it). Rows are the
 * segment's ordinals 0..docCount-1; `rows` arguments are sorted ascending.
 */
export interface Bm25SegmentStatistics {
  /** Rows (documents) the segment's index covers, deleted or not. */
  readonly docCount: number;
  /** Mean token count of those rows (0 for a segment without tokens). */
  readonly avgDocLength: number;
  /** Rows of the segment holding `term`. */
  docFreq(term: string): number;
  /** Occurrences of `term` in each of `rows` (0 where absent), aligned with `rows`. */
  termFrequencies(term: string, rows: Uint32Array): Uint32Array;
  /** Token count of each of `rows`, aligned with `rows`. */
  docLengths(rows: Uint32Array): Uint32Array;
}

/** N, avgdl and df of the query's terms over all the segments a query reads. */
export interface Bm25CollectionStatistics {
  readonly docCount: number;
  readonly avgDocLength: number;
  readonly docFreq: ReadonlyMap<string, number>;
}

/** Lucene's idf: ln(1 + (N - df + 0.5) / (df + 0.5)), positive for every df <= N. */
export function bm25Idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** Distinct terms in first-seen order. */
export function distinctTerms(terms: readonly string[]): string[] {
  return [...new Set(terms)];
}

/** Collection statistics of `terms` summed over `segments` (each segment's total length = avgdl x N). */
export function collectionStatistics(segments: readonly Bm25SegmentStatistics[], terms: readonly string[]): Bm25CollectionStatistics {
  let docCount = 0;
  let totalLength = 0;
  const docFreq = new Map<string, number>(distinctTerms(terms).map((term) => [term, 0]));
  for (const segment of segments) {
    docCount += segment.docCount;
    totalLength += segment.avgDocLength * segment.docCount;
    for (const term of docFreq.keys()) docFreq.set(term, docFreq.get(term)! + segment.docFreq(term));
  }
  return { docCount, avgDocLength: docCount === 0 ? 0 : totalLength / docCount, docFreq };
}

/**
 * BM25 scores of `rows` (sorted ordinals of `segment`) for the query `terms` under the collection
 * statistics `collection` (from collectionStatistics over every segment the query reads, this one
 * included). A row holding none of the terms scores 0.
 */
export function bm25Scores(collection: Bm25CollectionStatistics, segment: Bm25SegmentStatistics, terms: readonly string[], rows: Uint32Array, k1 = BM25_K1, b = BM25_B): Float32Array {
  const count = rows.length;
  const scores = new Float32Array(count);
  if (count === 0) return scores;
  const lengths = segment.docLengths(rows);
  // The length normalisation k1 * (1 - b + b * len / avgdl) of each row, shared by every term.
  const norms = new Float64Array(count);
  const avgdl = collection.avgDocLength;
  for (let rowIdx = 0; rowIdx < count; rowIdx++) norms[rowIdx] = k1 * (1 - b + (avgdl > 0 ? (b * lengths[rowIdx]) / avgdl : 0));
  const sums = new Float64Array(count);
  for (const term of distinctTerms(terms)) {
    const df = collection.docFreq.get(term) ?? 0;
    if (df === 0) continue;
    const idf = bm25Idf(collection.docCount, df);
    const freqs = segment.termFrequencies(term, rows);
    for (let rowIdx = 0; rowIdx < count; rowIdx++) {
      const tf = freqs[rowIdx];
      sums[rowIdx] += tf === 0 ? 0 : (idf * tf * (k1 + 1)) / (tf + norms[rowIdx]);
    }
  }
  for (let rowIdx = 0; rowIdx < count; rowIdx++) scores[rowIdx] = sums[rowIdx];
  return scores;
}
