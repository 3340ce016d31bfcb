// score() over a snapshot (src/be/score-rows.ts): rows named by global row ids, in any order and across
// segments, get the brute-force BM25 over the rows of the segments that have the index file; rows of a
// segment without the file score 0; several MATCH predicates add up; each segment's postings and lengths
// are read once per statement however many batches ask; a reader without statistics is an error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueryProfile } from '../../src/common/profile';
import { GaleneError } from '../../src/common/errors';
import type { SnapshotSegment } from '../../src/be/global-row-id';
import { ScoreRows } from '../../src/be/score-rows';
import type { BoundScoreMatch } from '../../src/exec/context';
import type { SegmentIndexRecord } from '../../src/meta/meta-store';
import { mulberry32 } from '../../src/common/prng';
import { TextCorpus } from '../../bench/lib/text-data';
import { bruteForceBm25, tokenize, TokenizedSegment } from './tokenized-segment';

const SEGMENT_ROWS = [300, 120, 250, 80];
/** Segment 1 was written before the index existed: no file. */
const WITHOUT_FILE = 1;

const corpus = new TextCorpus(3, { vocabulary: 200 });
const segmentsRows = SEGMENT_ROWS.map((count, segIdx) => Array.from({ length: count }, (_, row) => tokenize(corpus.document(segIdx * 1000 + row))));
const snapshot = SEGMENT_ROWS.map(
  (count, segIdx) =>
    ({
      rowset: { id: 1 },
      segmentIdx: segIdx,
      segment: { key: `seg${segIdx}.dat`, numRows: count, indexes: segIdx === WITHOUT_FILE ? [] : [{ name: 'idx_body', kind: 'inverted', key: `seg${segIdx}.idx_body.idx`, size: 1 }] },
    }) as unknown as SnapshotSegment,
);

function globalRowId(segment: number, row: number): bigint {
  return (BigInt(segment) << 32n) | BigInt(row);
}

function opener(calls: Map<string, number>): (record: SegmentIndexRecord) => Promise<unknown> {
  return async (record) => {
    const segIdx = Number(/^seg(\d+)/.exec(record.key)![1]);
    const segment = new TokenizedSegment(segmentsRows[segIdx]);
    const count = (name: string): void => {
      calls.set(name, (calls.get(name) ?? 0) + 1);
    };
    return {
      docCount: segment.docCount,
      avgDocLength: segment.avgDocLength,
      queryTerms: (text: string) => segment.queryTerms(text),
      docFreq: (term: string) => segment.docFreq(term),
      termFrequencies: (term: string) => {
        count(`${segIdx}:tf:${term}`);
        return segment.termFrequencies(term);
      },
      docLengths: () => {
        count(`${segIdx}:lengths`);
        return segment.docLengths();
      },
    };
  };
}

const match = (text: string, op: BoundScoreMatch['op'] = 'match_any'): BoundScoreMatch => ({ indexName: 'idx_body', column: 'body', op, text });

test('scores by global row id equal brute-force BM25 over the indexed segments; a segment without the file scores 0', async () => {
  const indexed = segmentsRows.filter((_, segIdx) => segIdx !== WITHOUT_FILE).flat();
  const docOf = (segIdx: number, row: number): number => segmentsRows.slice(0, segIdx).filter((_, idx) => idx !== WITHOUT_FILE).reduce((sum, rows) => sum + rows.length, 0) + row;
  const all: Array<[number, number]> = SEGMENT_ROWS.flatMap((count, segIdx) => Array.from({ length: count }, (_, row): [number, number] => [segIdx, row]));
  const random = mulberry32(5);
  const shuffled = all.filter(() => random() < 0.5).sort(() => random() - 0.5);
  const calls = new Map<string, number>();
  const scorer = new ScoreRows(snapshot, opener(calls));
  const profile = new QueryProfile('q', '', 'root', 'test');
  const queries = [[match(`qandoril ${corpus.vocabulary[0]}`)], [match('qesolta'), match(`${corpus.vocabulary[3]} qemtuvo`, 'match_all')], [match('qorvath qindelo ~2', 'match_phrase')]];
  for (const matches of queries) {
    const terms = matches.map((one) => tokenize(one.op === 'match_phrase' ? one.text.replace(/~\d+/, '') : one.text));
    // Three batches, as a scan would ask.
    const got: number[] = [];
    for (let first = 0; first < shuffled.length; first += 97) {
      const batch = shuffled.slice(first, first + 97);
      const scores = await scorer.score({ rowIds: BigInt64Array.from(batch, ([segIdx, row]) => globalRowId(segIdx, row)), matches, profile });
      got.push(...scores);
    }
    shuffled.forEach(([segIdx, row], idx) => {
      const want = segIdx === WITHOUT_FILE ? 0 : terms.reduce((sum, query) => sum + bruteForceBm25(indexed, query, docOf(segIdx, row)), 0);
      assert.ok(Math.abs(got[idx] - want) <= 1e-5 * Math.max(1, want), `${matches.map((one) => one.text).join(' + ')}: segment ${segIdx} row ${row}: ${got[idx]} vs ${want}`);
    });
    assert.ok(got.some((score) => score > 0), 'something matched');
  }
  // Postings and lengths: once per segment and term for the whole statement, not per batch.
  for (const [name, count] of calls) assert.equal(count, 1, name);
  assert.ok(![...calls.keys()].some((name) => name.startsWith(`${WITHOUT_FILE}:`)), 'the segment without a file is never opened');
});

test('a reader without BM25 statistics is an internal error naming the file', async () => {
  const scorer = new ScoreRows(snapshot, async () => ({ query: () => [] }));
  await assert.rejects(
    scorer.score({ rowIds: BigInt64Array.of(globalRowId(0, 1)), matches: [match('x')], profile: new QueryProfile('q', '', 'root', 'test') }),
    (err: unknown) => err instanceof GaleneError && err.code === 'INTERNAL' && /seg0\.idx_body\.idx/.test(err.message),
  );
});
