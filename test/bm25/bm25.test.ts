// BM25 (src/storage/inverted/bm25.ts) against a brute-force Okapi BM25 over the same tokenized rows: the
// table's rows split into segments, collection statistics summed over the segments, every row scored by
// its own segment's term frequencies and lengths, equal to one evaluation over the whole table — for any
// split of the rows into segments, any query and any subset of rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextCorpus } from '../../bench/lib/text-data';
import { mulberry32 } from '../../src/common/prng';
import { BM25_B, BM25_K1, bm25Idf, bm25Scores, collectionStatistics } from '../../src/storage/inverted/bm25';
import { bruteForceBm25 as bruteForce, tokenize, TokenizedSegment } from './tokenized-segment';

/** Score every row of `table` split at `cuts` (segment boundaries) for `query`, by segment. */
async function scoreSplit(table: readonly string[][], cuts: readonly number[], query: readonly string[], keep: (doc: number) => boolean): Promise<Map<number, number>> {
  const bounds = [0, ...cuts, table.length];
  const segments = bounds.slice(1).map((end, segIdx) => ({ first: bounds[segIdx], segment: new TokenizedSegment(table.slice(bounds[segIdx], end)) }));
  const collection = await collectionStatistics(
    segments.map(({ segment }) => segment),
    query,
  );
  const out = new Map<number, number>();
  for (const { first, segment } of segments) {
    const rows = Uint32Array.from({ length: segment.docCount }, (_, row) => row).filter((row) => keep(first + row));
    const scores = await bm25Scores(collection, segment, query, rows);
    rows.forEach((row, idx) => out.set(first + row, scores[idx]));
  }
  return out;
}

test("Lucene's idf and a hand-computed score", async () => {
  assert.ok(Math.abs(bm25Idf(10, 1) - Math.log(1 + 9.5 / 1.5)) < 1e-12);
  assert.ok(bm25Idf(10, 10) > 0, 'idf stays positive for a term in every document');
  assert.ok(bm25Idf(1000, 1) > bm25Idf(1000, 100), 'a rarer term weighs more');
  // Three documents: "a b", "a a c", "c". Query "a": N=3, df=2, avgdl=2.
  const segment = new TokenizedSegment([['a', 'b'], ['a', 'a', 'c'], ['c']]);
  const collection = await collectionStatistics([segment], ['a']);
  assert.deepEqual([collection.docCount, collection.avgDocLength, collection.docFreq.get('a')], [3, 2, 2]);
  const idf = Math.log(1 + 1.5 / 2.5);
  const want = [(idf * 1 * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 2) / 2)), (idf * 2 * 2.2) / (2 + 1.2 * (0.25 + (0.75 * 3) / 2)), 0];
  const got = await bm25Scores(collection, segment, ['a'], Uint32Array.of(0, 1, 2));
  want.forEach((value, idx) => assert.ok(Math.abs(got[idx] - value) < 1e-6, `row ${idx}: ${got[idx]} vs ${value}`));
  assert.ok(got[1] > got[0], 'two occurrences in a longer row still beat one');
});

test('scores over segments equal brute-force BM25 over the whole table, for any split', async () => {
  const corpus = new TextCorpus(5, { vocabulary: 300 });
  const table = Array.from({ length: 600 }, (_, id) => tokenize(corpus.document(id)));
  const random = mulberry32(77);
  const vocabulary = [...new Set(table.flat())];
  const queries = [['qandoril'], ['qesolta', 'qemtuvo'], [corpus.vocabulary[0]], [corpus.vocabulary[0], corpus.vocabulary[5], 'qandoril'], ['absentword'], ['qesolta', 'qesolta']];
  for (let extra = 0; extra < 6; extra++) queries.push(Array.from({ length: 1 + Math.floor(random() * 4) }, () => vocabulary[Math.floor(random() * vocabulary.length)]));
  const splits = [[], [300], [1, 2, 250, 599], [100, 200, 300, 400, 500]];
  for (const query of queries) {
    const keep = (doc: number): boolean => doc % 3 !== 1;
    const want = new Map(table.map((_, doc) => [doc, bruteForce(table, query, doc)]));
    for (const cuts of splits) {
      const got = await scoreSplit(table, cuts, query, keep);
      assert.equal(got.size, table.filter((_, doc) => keep(doc)).length);
      for (const [doc, score] of got) {
        const expected = want.get(doc)!;
        assert.ok(Math.abs(score - expected) <= 1e-5 * Math.max(1, expected), `query ${query.join(' ')}, split ${cuts.join(',')}, doc ${doc}: ${score} vs ${expected}`);
      }
    }
    // A query that matches something gives some row a positive score; rows without its terms score 0.
    const got = await scoreSplit(table, [300], query, () => true);
    for (const [doc, score] of got) assert.equal(score > 0, query.some((term) => table[doc].includes(term)), `doc ${doc}`);
  }
});

test('duplicate query terms count once; empty row sets and empty segments score nothing', async () => {
  const segment = new TokenizedSegment([['x', 'y'], ['x']]);
  const empty = new TokenizedSegment([]);
  const collection = await collectionStatistics([segment, empty], ['x', 'x', 'y']);
  assert.equal(collection.docCount, 2);
  assert.equal(collection.avgDocLength, 1.5);
  assert.deepEqual(await bm25Scores(collection, segment, ['x', 'x', 'y'], Uint32Array.of(0, 1)), await bm25Scores(collection, segment, ['x', 'y'], Uint32Array.of(0, 1)));
  assert.equal((await bm25Scores(collection, segment, ['x'], new Uint32Array(0))).length, 0);
  assert.deepEqual(await collectionStatistics([empty], ['x']), { docCount: 0, avgDocLength: 0, docFreq: new Map([['x', 0]]) });
});
