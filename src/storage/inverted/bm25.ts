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
 * What scoring needs from one segment's inverted index (InvertedIndexReader has this shape). Rows are the
 * segment's ordinals 0..numRows-1.
 */
export interface Bm25SegmentStatistics {
  /** Rows (documents) with a value, deleted or not. */
  readonly docCount: number;
  /** Mean token count of those rows (0 for a segment without tokens). */
  readonly avgDocLength: number;
  /** Rows of the segment holding `term`. */
  docFreq(term: string): number | Promise<number>;
  /** The rows holding `term` (ascending) and its occurrences in each. */
  termFrequencies(term: string): Promise<Postings>;
  /** Token count of every row of the segment (0 for NULL), by ordinal. */
  docLengths(): Promise<Uint32Array>;
}

/** A term's postings: ascending rows and the term's frequency in each. */
export interface Postings {
  readonly rows: Uint32Array;
  readonly tfs: Uint32Array;
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
export async function collectionStatistics(segments: readonly Bm25SegmentStatistics[], terms: readonly string[]): Promise<Bm25CollectionStatistics> {
  let docCount = 0;
  let totalLength = 0;
  const docFreq = new Map<string, number>(distinctTerms(terms).map((term) => [term, 0]));
  for (const segment of segments) {
    docCount += segment.docCount;
    totalLength += segment.avgDocLength * segment.docCount;
    for (const term of docFreq.keys()) docFreq.set(term, docFreq.get(term)! + (await segment.docFreq(term)));
  }
  return { docCount, avgDocLength: docCount === 0 ? 0 : totalLength / docCount, docFreq };
}

/**
 * BM25 scores of `rows` (ascending ordinals of one segment) for the query `terms` under the collection
 * statistics `collection` (collectionStatistics over every segment the query reads, this one included),
 * from the segment's postings and document lengths. A row holding none of the terms scores 0.
 */
export async function bm25Scores(collection: Bm25CollectionStatistics, segment: Bm25SegmentStatistics, terms: readonly string[], rows: Uint32Array): Promise<Float32Array> {
  if (rows.length === 0) return new Float32Array(0);
  const postings = new Map<string, Postings>();
  for (const term of distinctTerms(terms)) if ((collection.docFreq.get(term) ?? 0) > 0) postings.set(term, await segment.termFrequencies(term));
  return scoreRows(collection, postings, await segment.docLengths(), rows);
}

/**
 * The kernel of bm25Scores: each term's postings merged with the ascending `rows` (one pass per term),
 * `lengths` indexed by row ordinal.
 */
export function scoreRows(collection: Bm25CollectionStatistics, postings: ReadonlyMap<string, Postings>, lengths: Uint32Array, rows: Uint32Array, k1 = BM25_K1, b = BM25_B): Float32Array {
  const count = rows.length;
  // The length normalisation k1 * (1 - b + b * len / avgdl) of each row, shared by every term.
  const norms = new Float64Array(count);
  const avgdl = collection.avgDocLength;
  for (let rowIdx = 0; rowIdx < count; rowIdx++) norms[rowIdx] = k1 * (1 - b + (avgdl > 0 ? (b * lengths[rows[rowIdx]]) / avgdl : 0));
  const sums = new Float64Array(count);
  for (const [term, posting] of postings) {
    const df = collection.docFreq.get(term) ?? 0;
    if (df === 0) continue;
    const idf = bm25Idf(collection.docCount, df);
    const postingRows = posting.rows;
    // Start at the first posting at or after the first row (a batch is a small window of a long list).
    let postingIdx = lowerBound(postingRows, rows[0]);
    for (let rowIdx = 0; rowIdx < count && postingIdx < postingRows.length; rowIdx++) {
      const row = rows[rowIdx];
      while (postingIdx < postingRows.length && postingRows[postingIdx] < row) postingIdx++;
      if (postingIdx < postingRows.length && postingRows[postingIdx] === row) {
        const tf = posting.tfs[postingIdx];
        sums[rowIdx] += (idf * tf * (k1 + 1)) / (tf + norms[rowIdx]);
      }
    }
  }
  return Float32Array.from(sums);
}

/** The first index of ascending `values` holding a value >= `target` (values.length when none). */
function lowerBound(values: Uint32Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
