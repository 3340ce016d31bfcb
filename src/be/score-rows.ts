/**
 * score() for an OLAP table (TableSource.scoreRows): BM25 of rows named by their global row ids
 * (global-row-id.ts), for the bound MATCH predicates of the score, from the segments' inverted index files
 * only (src/storage/inverted/bm25.ts) — the text column is never read.
 *
 * Per statement (one instance per table source) and per MATCH predicate: the query terms (the index's own
 * analyzer), then the collection statistics N / avgdl / df summed over every segment of the snapshot that
 * has the index file, so a score means the same in every segment and tablet. Each file's decoded postings
 * and document lengths are kept (by file key, bounded) and reused by every batch and later statements. A segment without the file
 * (written before CREATE INDEX and not yet built by BUILD INDEX) adds nothing to the statistics and its
 * rows score 0 for that predicate.
 */
import { WeightedLru } from '../common/weighted-lru';
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import type { BoundScoreMatch, ScoreRowsRequest } from '../exec/context';
import { segmentIndexRecord, type SegmentIndexRecord } from '../meta/meta-store';
import { parseSlop } from '../storage/inverted/match-semantics';
import { bm25Scores, collectionStatistics, type Bm25CollectionStatistics, type Bm25SegmentStatistics, type Postings } from '../storage/inverted/bm25';
import { decodeGlobalRowIds, type SnapshotSegment } from './global-row-id';

/** What scoring asks of an open inverted index file (src/storage/inverted InvertedIndexReader has it). */
export interface ScoringReader {
  readonly docCount: number;
  readonly avgDocLength: number;
  /** The query text's distinct terms, as the index's analyzer makes them. */
  queryTerms(text: string): string[];
  docFreq(term: string, profile?: ProfileSink): number | Promise<number>;
  termFrequencies(term: string, profile?: ProfileSink): Promise<Postings>;
  docLengths(profile?: ProfileSink): Promise<Uint32Array>;
}

export type ScoringReaderOpener = (record: SegmentIndexRecord, profile: ProfileSink) => Promise<unknown>;

function asScoringReader(reader: unknown, key: string): ScoringReader {
  const candidate = reader as Partial<ScoringReader> | null;
  if (candidate === null || typeof candidate !== 'object' || typeof candidate.docCount !== 'number' || typeof candidate.queryTerms !== 'function' || typeof candidate.termFrequencies !== 'function' || typeof candidate.docLengths !== 'function') {
    throw new GaleneError('INTERNAL', [`score(): the reader of inverted index file ${key} has no BM25 statistics`]);
  }
  return candidate as ScoringReader;
}

/**
 * Decoded document lengths and postings of index files, by file key and term, least recently used dropped
 * beyond SCORING_CACHE_BYTES: files are immutable, so a repeated query (a search box's next page, the same
 * terms again) decodes nothing. Decoding a segment's lengths costs about as much as scoring its rows.
 */
const SCORING_CACHE_BYTES = 64 << 20;
const scoringCache = new WeightedLru<Promise<Uint32Array | Postings>>(SCORING_CACHE_BYTES);

function cached<T extends Uint32Array | Postings>(key: string, load: () => Promise<T>, bytesOf: (value: T) => number): Promise<T> {
  const hit = scoringCache.get(key);
  if (hit !== undefined) return hit as Promise<T>;
  const value = load();
  // Weighed once decoded; a load that failed, or was evicted or replaced meanwhile, is not re-added.
  scoringCache.set(key, value, 0);
  value.then(
    (loaded) => {
      if (scoringCache.peek(key) === value) scoringCache.set(key, value, bytesOf(loaded));
    },
    () => {
      if (scoringCache.peek(key) === value) scoringCache.delete(key);
    },
  );
  return value;
}

/** One segment's statistics with its postings and lengths decoded once (the reader's profile: this statement's). */
class SegmentStatistics implements Bm25SegmentStatistics {
  constructor(
    readonly reader: ScoringReader,
    private readonly fileKey: string,
    private readonly profile: ProfileSink,
  ) {}

  get docCount(): number {
    return this.reader.docCount;
  }

  get avgDocLength(): number {
    return this.reader.avgDocLength;
  }

  docFreq(term: string): number | Promise<number> {
    return this.reader.docFreq(term, this.profile);
  }

  termFrequencies(term: string): Promise<Postings> {
    return cached(`${this.fileKey}\0${term}`, () => this.reader.termFrequencies(term, this.profile), (postings) => postings.rows.byteLength + postings.tfs.byteLength);
  }

  docLengths(): Promise<Uint32Array> {
    return cached(this.fileKey, () => this.reader.docLengths(this.profile), (lengths) => lengths.byteLength);
  }
}

/** A MATCH predicate's terms, collection statistics and per-segment statistics (null: no index file). */
interface MatchScoring {
  readonly terms: readonly string[];
  readonly collection: Bm25CollectionStatistics;
  readonly segments: readonly (SegmentStatistics | null)[];
}

/** Scores rows of one snapshot; reused by every batch of the statement's score() scan. */
export class ScoreRows {
  private readonly scorings = new Map<string, Promise<MatchScoring>>();
  /** Each index file's statistics, shared by every MATCH predicate on it. */
  private readonly files = new Map<string, Promise<SegmentStatistics>>();

  constructor(
    private readonly snapshot: readonly SnapshotSegment[],
    private readonly open: ScoringReaderOpener,
  ) {}

  /** The scores of `request.rowIds`, in their order: the sum over the matches of each one's BM25. */
  async score(request: ScoreRowsRequest): Promise<Float32Array> {
    const { segments, rows } = decodeGlobalRowIds(request.rowIds);
    const sums = new Float64Array(rows.length);
    // Positions of each segment's rows (a batch usually holds one segment, in row order).
    const groups = new Map<number, number[]>();
    for (let pos = 0; pos < rows.length; pos++) {
      const group = groups.get(segments[pos]);
      if (group === undefined) groups.set(segments[pos], [pos]);
      else group.push(pos);
    }
    for (const match of request.matches) {
      const scoring = await this.scoring(match, request.profile);
      for (const [ordinal, positions] of groups) {
        const segment = scoring.segments[ordinal];
        if (segment === null || segment === undefined) continue;
        positions.sort((a, b) => rows[a] - rows[b]);
        const segmentRows = Uint32Array.from(positions, (pos) => rows[pos]);
        const scores = await bm25Scores(scoring.collection, segment, scoring.terms, segmentRows);
        for (let idx = 0; idx < positions.length; idx++) sums[positions[idx]] += scores[idx];
      }
    }
    return Float32Array.from(sums);
  }

  private scoring(match: BoundScoreMatch, profile: ProfileSink): Promise<MatchScoring> {
    const key = JSON.stringify([match.indexName, match.op, match.text]);
    let entry = this.scorings.get(key);
    if (entry === undefined) {
      entry = this.buildScoring(match, profile);
      this.scorings.set(key, entry);
    }
    return entry;
  }

  private file(record: SegmentIndexRecord, profile: ProfileSink): Promise<SegmentStatistics> {
    let entry = this.files.get(record.key);
    if (entry === undefined) {
      entry = this.open(record, profile).then((reader) => new SegmentStatistics(asScoringReader(reader, record.key), record.key, profile));
      this.files.set(record.key, entry);
    }
    return entry;
  }

  private async buildScoring(match: BoundScoreMatch, profile: ProfileSink): Promise<MatchScoring> {
    const segments: (SegmentStatistics | null)[] = [];
    let terms: string[] | null = null;
    for (const { segment } of this.snapshot) {
      const record = segmentIndexRecord(segment, match.indexName, 'inverted');
      if (record === undefined) {
        segments.push(null);
        continue;
      }
      const statistics = await this.file(record, profile);
      terms ??= statistics.reader.queryTerms(queryText(match));
      segments.push(statistics);
    }
    const present = segments.filter((segment): segment is SegmentStatistics => segment !== null);
    profile.add('ScoreSegmentsWithIndex', present.length);
    const collection = await collectionStatistics(present, terms ?? []);
    return { terms: terms ?? [], collection, segments };
  }
}

/** The text whose terms a predicate scores: a phrase's slop suffix (`'a b ~3'`, `'~3+'`) is no term. */
function queryText(match: BoundScoreMatch): string {
  return match.op === 'match_phrase' ? parseSlop(match.text).text : match.text;
}
