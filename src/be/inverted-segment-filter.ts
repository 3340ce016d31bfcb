/**
 * One segment's part of a scan with inverted-index predicates (FragmentSpec.inverted / ScanRequest.inverted,
 * planned by src/sql/rules/inverted-index-pushdown.ts): the rows of the segment the predicate holds for,
 * intersected with the rows the scan reads anyway (zone maps, short-key ranges, minus deleted rows), so
 * the scan then reads its columns only for those rows. The same code runs in-thread
 * (olap-table-source.ts), in a scan worker (scan-worker.ts) and before an ANN search (ann-segment-scan.ts:
 * the rows become part of the allowed-row filter).
 *
 *   - A segment with the index file of every index the predicate names: each leaf is a reader query (a
 *     sorted row set); AND / OR / NOT combine them in three-valued logic — a row is FALSE for a leaf when it
 *     is neither TRUE nor NULL, and NULL exactly when the column is NULL (the index's null bitmap), so
 *     `NOT c MATCH_ANY 'x'` skips NULL rows as the row-by-row evaluation does. The predicate's column is
 *     not read.
 *   - Any other segment (its file not built yet: CREATE INDEX before BUILD INDEX, a build pending), or
 *     every segment when a bound parameter has no exact index form (InvertedFilter.exactOnly): the columns
 *     the predicate reads are read for the candidate rows and the predicate is evaluated exactly.
 * Both give the same rows. Profile: RowsInvertedIndexFiltered (rows the index answer removed),
 * InvertedIndexFilterTimeMs, InvertedIndexSegmentsAnswered / InvertedIndexSegmentsFallback,
 * RowsInvertedIndexFallbackFiltered, InvertedIndexQueryCacheHit / InvertedIndexQueryCacheMiss (leaf
 * answers kept for the row-range tasks of one segment and for repeated queries).
 */
import { BATCH_SIZE, concatVectors, sliceVector, type Batch, type Vector } from '../common/column';
import type { ProfileSink } from '../common/profile';
import { filterPositions } from '../exec/parallel/run-fragment';
import type { InvertedFilter, InvertedFilterNode } from '../exec/plan/fragment-spec';
import { WeightedLru } from '../common/weighted-lru';
import type { FileOpener } from '../io/file-cache';
import { mergeSortedRowIds } from '../meta/delete-bitmap';
import type { SegmentIndexRecord } from '../meta/meta-store';
import { InvertedIndexReader } from '../storage/inverted/inverted-reader';
import type { InvertedQuery } from '../storage/inverted/inverted-query';
import { RowRanges } from '../storage/row-ranges';
import type { SegmentReader } from '../storage/segment-reader';
import { readColumns, rowsOf } from './segment-columns';

/** An open inverted index file: what the filter asks of it (src/storage/inverted InvertedIndexReader). */
export interface InvertedRowsReader {
  /** The rows (ordinals of the segment, ascending) for which the query is TRUE. */
  query(query: InvertedQuery, options?: { readonly maxExpansions?: number; readonly profile?: ProfileSink }): Promise<{ toArray(): ArrayLike<number> }>;
  /** Whether the file can answer the query (an index without a parser answers comparisons); absent: yes. */
  supports?(query: InvertedQuery): boolean;
}

/** Opens an index file (the FileCache path; the reader keeps the blocks it has read). */
export type InvertedReaderLoader = (opener: FileOpener, record: SegmentIndexRecord, profile: ProfileSink) => Promise<InvertedRowsReader>;

/** The storage reader (src/storage/inverted InvertedIndexReader), opened with the size the segment records. */
export const openInvertedReader: InvertedReaderLoader = (opener, record, profile) => InvertedIndexReader.open(opener, record.key, profile, { knownSize: record.size });

/** Open inverted index readers by object key, least recently used dropped beyond the capacity. */
export class InvertedIndexCache {
  private readonly entries: WeightedLru<Promise<InvertedRowsReader>>;

  constructor(
    private readonly opener: FileOpener,
    private readonly load: InvertedReaderLoader,
    capacity = 1024,
  ) {
    this.entries = new WeightedLru(capacity);
  }

  open(record: SegmentIndexRecord, profile: ProfileSink): Promise<InvertedRowsReader> {
    const cached = this.entries.get(record.key);
    if (cached !== undefined) return cached;
    const entry = this.load(this.opener, record, profile);
    entry.catch(() => this.entries.delete(record.key));
    this.entries.set(record.key, entry, 1);
    return entry;
  }

  /** Forget the reader of a deleted or evicted file. */
  invalidate(key: string): void {
    this.entries.delete(key);
  }
}

/** A segment's inverted index files and how to open them (absent opener: every segment filters exactly). */
export interface SegmentInvertedIndexes {
  readonly records: readonly SegmentIndexRecord[] | undefined;
  readonly open: ((record: SegmentIndexRecord, profile: ProfileSink) => Promise<InvertedRowsReader>) | null;
}

/** The inverted index records of a segment that a filter names (what a scan-worker task carries). */
export function invertedRecordsFor(records: readonly SegmentIndexRecord[] | undefined, filter: InvertedFilter | undefined): SegmentIndexRecord[] | undefined {
  if (filter === undefined || records === undefined) return undefined;
  const names = indexNames(filter.predicate, new Set());
  const found = records.filter((record) => record.kind === 'inverted' && names.has(record.name));
  return found.length > 0 ? found : undefined;
}

/** Whether a segment has a file of every index the filter names (else it filters exactly, reading columns). */
export function hasEveryInvertedIndex(records: readonly SegmentIndexRecord[] | undefined, filter: InvertedFilter): boolean {
  if (filter.exactOnly || records === undefined) return false;
  for (const name of indexNames(filter.predicate, new Set())) {
    if (!records.some((record) => record.kind === 'inverted' && record.name === name)) return false;
  }
  return true;
}

function leavesOf(node: InvertedFilterNode, into: (InvertedFilterNode & { kind: 'leaf' })[] = []): (InvertedFilterNode & { kind: 'leaf' })[] {
  if (node.kind === 'leaf') into.push(node);
  else if (node.kind === 'not') leavesOf(node.arg, into);
  else for (const arg of node.args) leavesOf(arg, into);
  return into;
}

function indexNames(node: InvertedFilterNode, into: Set<string>): Set<string> {
  for (const leaf of leavesOf(node)) into.add(leaf.indexName);
  return into;
}

// ---- sorted row-id sets ------------------------------------------------------------------------

function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let count = 0;
  for (let aIdx = 0, bIdx = 0; aIdx < a.length && bIdx < b.length; ) {
    if (a[aIdx] < b[bIdx]) aIdx++;
    else if (a[aIdx] > b[bIdx]) bIdx++;
    else {
      out[count++] = a[aIdx];
      aIdx++;
      bIdx++;
    }
  }
  return out.subarray(0, count);
}

/** Rows 0..numRows-1 in neither `a` nor `b`. */
function complement(numRows: number, a: Int32Array, b: Int32Array = new Int32Array(0)): Int32Array {
  const excluded = mergeSortedRowIds(a, b);
  const out = new Int32Array(numRows - excluded.length);
  let count = 0;
  let exIdx = 0;
  for (let row = 0; row < numRows; row++) {
    if (exIdx < excluded.length && excluded[exIdx] === row) exIdx++;
    else out[count++] = row;
  }
  return out.subarray(0, count);
}

// ---- leaf answers, cached ----------------------------------------------------------------------

/** Leaf answers by `file key + query`, at most LEAF_CACHE_ROWS row ids: the files are immutable, so an answer never changes. */
const LEAF_CACHE_ROWS = 4 * 1024 * 1024;
const leafAnswers = new WeightedLru<Int32Array>(LEAF_CACHE_ROWS);

function queryKey(key: string, query: InvertedQuery): string {
  return `${key}\u0000${JSON.stringify(query, (_k, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))}`;
}

function toRowIds(rows: ArrayLike<number>): Int32Array {
  return rows instanceof Int32Array ? rows : Int32Array.from(rows);
}

/** What one segment's evaluation reads: its numRows and an open reader per index name. */
interface SegmentIndexes {
  readonly numRows: number;
  readonly maxExpansions: number;
  readonly readers: ReadonlyMap<string, { readonly key: string; readonly reader: InvertedRowsReader }>;
  readonly profile: ProfileSink;
}

async function ask(seg: SegmentIndexes, indexName: string, query: InvertedQuery): Promise<Int32Array> {
  const { key, reader } = seg.readers.get(indexName)!;
  const cacheKey = `${queryKey(key, query)}\u0000${seg.maxExpansions}`;
  const cached = leafAnswers.get(cacheKey);
  if (cached !== undefined) {
    seg.profile.add('InvertedIndexQueryCacheHit', 1);
    return cached;
  }
  seg.profile.add('InvertedIndexQueryCacheMiss', 1);
  const rows = toRowIds((await reader.query(query, { maxExpansions: seg.maxExpansions, profile: seg.profile })).toArray());
  leafAnswers.set(cacheKey, rows, rows.length);
  return rows;
}

/** Rows where a leaf is NULL: its column is NULL (IS [NOT] NULL is never NULL). */
function leafNulls(seg: SegmentIndexes, node: InvertedFilterNode & { kind: 'leaf' }): Promise<Int32Array> {
  return node.query.op === 'is_null' || node.query.op === 'is_not_null' ? Promise.resolve(new Int32Array(0)) : ask(seg, node.indexName, { op: 'is_null' });
}

/** Rows where the node is TRUE (`truth`), or FALSE (neither TRUE nor NULL). */
async function rowsWhere(seg: SegmentIndexes, node: InvertedFilterNode, truth: boolean): Promise<Int32Array> {
  switch (node.kind) {
    case 'leaf': {
      const rows = await leafTrueRows(seg, node);
      return truth ? rows : complement(seg.numRows, rows, await leafNulls(seg, node));
    }
    case 'not':
      return rowsWhere(seg, node.arg, !truth);
    case 'and':
      return (await Promise.all(node.args.map((arg) => rowsWhere(seg, arg, truth)))).reduce(truth ? intersect : mergeSortedRowIds);
    case 'or':
      return (await Promise.all(node.args.map((arg) => rowsWhere(seg, arg, truth)))).reduce(truth ? mergeSortedRowIds : intersect);
  }
}

/** Rows where a leaf is TRUE: `!=` / NOT IN are the complements of `=` / IN without the NULL rows. */
async function leafTrueRows(seg: SegmentIndexes, node: InvertedFilterNode & { kind: 'leaf' }): Promise<Int32Array> {
  const query = node.query;
  if (query.op === '!=') return complement(seg.numRows, await ask(seg, node.indexName, { op: '=', value: query.value }), await leafNulls(seg, node));
  if (query.op === 'not_in') return complement(seg.numRows, await ask(seg, node.indexName, { op: 'in', values: query.values }), await leafNulls(seg, node));
  if (query.op === 'is_not_null') return complement(seg.numRows, await ask(seg, node.indexName, { op: 'is_null' }));
  return ask(seg, node.indexName, query);
}

/** An open reader for every index the filter names, or null when the segment lacks one of the files. */
async function openReaders(filter: InvertedFilter, indexes: SegmentInvertedIndexes, profile: ProfileSink): Promise<Map<string, { key: string; reader: InvertedRowsReader }> | null> {
  if (filter.exactOnly || indexes.open === null || indexes.records === undefined) return null;
  const readers = new Map<string, { key: string; reader: InvertedRowsReader }>();
  for (const name of indexNames(filter.predicate, new Set())) {
    const record = indexes.records.find((candidate) => candidate.kind === 'inverted' && candidate.name === name);
    if (record === undefined) return null;
    readers.set(name, { key: record.key, reader: await indexes.open(record, profile) });
  }
  // A file that cannot answer a leaf (built with other properties): the segment filters exactly.
  return leavesOf(filter.predicate).every((leaf) => readers.get(leaf.indexName)!.reader.supports?.(leaf.query) ?? true) ? readers : null;
}

/** Batches over whole columns (the exact path is the rare one: a copy per column is fine there). */
function* batchesOf(columns: readonly Vector[], length: number): Iterable<Batch> {
  for (let start = 0; start < length; start += BATCH_SIZE) {
    const end = Math.min(length, start + BATCH_SIZE);
    yield { length: end - start, columns: columns.map((vec) => (start === 0 && end === length ? vec : sliceVector(vec, start, end))) };
  }
}

/** The rows of `ranges` for which the filter holds, evaluated on the column values. */
async function exactRows(reader: SegmentReader, ranges: RowRanges, filter: InvertedFilter, profile: ProfileSink): Promise<RowRanges> {
  const count = ranges.count();
  if (count === 0) return ranges;
  const parts = await readColumns(reader, filter.filterColumns, ranges, count, profile);
  const columns = parts.map((pieces, colIdx) => (pieces.length === 1 ? pieces[0] : concatVectors(filter.filterColumns[colIdx].type, pieces)));
  const positions = filterPositions(filter.filter, batchesOf(columns, count));
  const candidates = rowsOf(ranges);
  const passed = new Int32Array(positions.length);
  for (let idx = 0; idx < positions.length; idx++) passed[idx] = candidates[positions[idx]];
  return RowRanges.fromRowIds(passed);
}

/**
 * The rows of the segment that the scan reads (`ranges`; null: all) and the filter holds for: from the
 * index files when the segment has them, else evaluated exactly. Never more rows than `ranges`.
 */
export async function applyInvertedFilter(reader: SegmentReader, ranges: RowRanges | null, filter: InvertedFilter, indexes: SegmentInvertedIndexes, profile: ProfileSink): Promise<RowRanges> {
  const start = performance.now();
  const candidates = ranges ?? RowRanges.all(reader.numRows);
  try {
    const before = candidates.count();
    if (before === 0) return candidates;
    const readers = await openReaders(filter, indexes, profile);
    if (readers === null) {
      profile.add('InvertedIndexSegmentsFallback', 1);
      const out = await exactRows(reader, candidates, filter, profile);
      profile.add('RowsInvertedIndexFallbackFiltered', before - out.count());
      return out;
    }
    profile.add('InvertedIndexSegmentsAnswered', 1);
    const rows = await rowsWhere({ numRows: reader.numRows, maxExpansions: filter.maxExpansions, readers, profile }, filter.predicate, true);
    const out = candidates.intersect(RowRanges.fromRowIds(rows));
    profile.add('RowsInvertedIndexFiltered', before - out.count());
    return out;
  } finally {
    profile.add('InvertedIndexFilterTimeMs', performance.now() - start);
  }
}
