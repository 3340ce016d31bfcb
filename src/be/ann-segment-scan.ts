/**
 * One segment's part of an ANN scan (FragmentSpec.ann): the same code in a scan worker (scan-worker.ts,
 * one task per segment) and in-thread for small tables (olap-table-source.ts scanAnn).
 *
 *   1. Allowed rows: zone maps and the short-key index (the scan's predicates), minus deleted rows (delete
 *      bitmap, DELETE predicates: `excludedRows`), then the allowed-row filter evaluated on the columns it
 *      reads. Nothing is filtered after the search, so a search that finds k allowed rows returns k rows.
 *   2. The search (storage/ann AnnSegmentSearcher): from the segment's index file, or exactly when the
 *      segment has none or few rows are allowed; TopN and/or radius.
 *   3. Only the found rows' output columns are read, by their row ordinals; the distance is the index's
 *      (or the exact scan's), read from the vectors only for a far range whose rows came without one.
 *      Phase one of a lazily materialized TopN (FragmentSpec.globalRowId) reads no output column beyond
 *      what its sort needs and appends each found row's global row id (global-row-id.ts).
 * Profile counters: AnnSegmentsSearchedByIndex / AnnSegmentsSearchedExactly, AnnIndexCandidates (neighbours
 * asked of the index), AnnAllowedRows (rows the filter let through, filtered segments only), AnnRowsReturned.
 */
import type { Batch, Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import { Types } from '../common/types';
import { dotProduct, l2Squared } from '../common/vector-distance';
import { filterPositions } from '../exec/parallel/run-fragment';
import type { AnnSegmentSpec, FragmentSpec } from '../exec/plan/fragment-spec';
import type { FileOpener } from '../io/file-cache';
import { AnnIndexReader } from '../storage/ann/ann-reader';
import { AnnSegmentSearcher, type VectorSource } from '../storage/ann/ann-search';
import { RowRanges } from '../storage/row-ranges';
import type { SegmentReader } from '../storage/segment-reader';
import { globalRowIdVector } from './global-row-id';
import { applyInvertedFilter, type SegmentInvertedIndexes } from './inverted-segment-filter';
import { batchesOfParts, excludeRows } from './olap-table-source';
import { readColumns, rowsOf } from './segment-columns';

/** Open ANN index readers by object key, least recently used dropped (and closed) beyond the capacity. */
export class AnnIndexCache {
  private readonly entries = new Map<string, Promise<AnnIndexReader>>();

  /**
   * @param localPath the file of a key on a local store (viewed in place), or null: bytes are fetched
   *   through the FileCache into a private temporary file (usearch views files only)
   */
  constructor(
    private readonly opener: FileOpener,
    private readonly localPath: ((key: string) => string | null) | null,
    /** Where private copies go (default: the OS temporary directory). */
    private readonly tempDir?: string,
    private readonly capacity = 256,
  ) {}

  open(key: string, size: number, profile: ProfileSink): Promise<AnnIndexReader> {
    let entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry;
    }
    entry = AnnIndexReader.open(this.opener, key, profile, { localPath: this.localPath?.(key) ?? null, knownSize: size, tempDir: this.tempDir });
    entry.catch(() => this.entries.delete(key));
    this.entries.set(key, entry);
    if (this.entries.size > this.capacity) this.invalidate(this.entries.keys().next().value as string);
    return entry;
  }

  /** Close every reader (removing the temporary copies of remote files). */
  close(): void {
    for (const key of [...this.entries.keys()]) this.invalidate(key);
  }

  /** Forget (and close) the reader of a deleted or evicted index file. */
  invalidate(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    entry.then(
      (reader) => reader.close(),
      () => undefined,
    );
  }
}

function bitmapOf(rows: Int32Array, rowCount: number): Uint8Array {
  const bits = new Uint8Array((rowCount + 7) >> 3);
  for (const row of rows) bits[row >> 3] |= 1 << (row & 7);
  return bits;
}

/** `count` vectors of exactly `dim` floats, packed (row r at r * dim): a view of the column's child values, no copy. */
function packVectors(vec: Vector, count: number, dim: number, column: string): Float32Array {
  if (vec.kind !== 'array' || vec.child.kind !== 'fixed' || !(vec.child.values instanceof Float32Array)) throw new GaleneError('INTERNAL', [`ann search: ${column} is not ARRAY<FLOAT>`]);
  const { offsets } = vec;
  const values = vec.child.values;
  if (vec.length !== count) throw new GaleneError('INTERNAL', [`ann search: read ${vec.length} vectors of ${column}, expected ${count}`]);
  for (let row = 0; row < count; row++) {
    if (offsets[row + 1] - offsets[row] !== dim) throw new GaleneError('INVALID_ARGUMENT', [`function ann search have different input element sizes of array: ${offsets[row + 1] - offsets[row]} and ${dim}`]);
  }
  return values.subarray(offsets[0], offsets[count]);
}

/** Chunks shorter than this many rows on average (scattered allowed rows) are copied into one array. */
const MIN_CHUNK_ROWS = 64;

/**
 * The vectors of `rows` (every row when null) as packed chunks: the decoded pages themselves (slices of
 * the page cache's vectors, never copied) unless the rows are scattered into many short pieces.
 */
async function readVectorChunks(reader: SegmentReader, column: string, rows: Int32Array | null, dim: number, profile: ProfileSink): Promise<Float32Array[]> {
  const count = rows === null ? reader.numRows : rows.length;
  if (count === 0) return [];
  const parts = await reader.readColumnParts(column, rows === null ? null : RowRanges.fromRowIds(rows), profile);
  const chunks = parts.map((part) => packVectors(part, part.length, dim, column));
  let values = 0;
  for (const chunk of chunks) values += chunk.length;
  if (values !== count * dim) throw new GaleneError('INTERNAL', [`ann search: read ${values / dim} vectors of ${column}, expected ${count}`]);
  return chunks.length <= 1 || count >= chunks.length * MIN_CHUNK_ROWS ? chunks : [packChunks(chunks, values)];
}

function packChunks(chunks: readonly Float32Array[], values: number): Float32Array {
  if (chunks.length === 1) return chunks[0];
  const packed = new Float32Array(values);
  let at = 0;
  for (const chunk of chunks) {
    packed.set(chunk, at);
    at += chunk.length;
  }
  return packed;
}

/** Whether a distance satisfies the radius (every distance, without one). */
function radiusTest(radius: AnnSegmentSpec['radius']): (distance: number) => boolean {
  if (radius === null) return () => true;
  const value = radius.value;
  switch (radius.op) {
    case '<':
      return (distance) => distance < value;
    case '<=':
      return (distance) => distance <= value;
    case '>':
      return (distance) => distance > value;
    case '>=':
      return (distance) => distance >= value;
  }
}

/** The rows' output batches (in row order), then the distance column when asked, then the global row ids when asked. */
function outputBatches(parts: Vector[][], length: number, distances: Float32Array | null, rowIds: Vector | null): Batch[] {
  const columns = parts.map((pieces) => pieces);
  if (distances !== null) columns.push([{ kind: 'fixed', type: Types.FLOAT, length, values: distances, nulls: null }]);
  if (rowIds !== null) columns.push([rowIds]);
  const out: Batch[] = [];
  for (const batch of batchesOfParts({ length, parts: columns })) out.push(batch);
  return out;
}

/**
 * Search one segment: the found rows' `fragment.columns` (then their distance when `ann.distance`, then
 * their global row id when `fragment.globalRowId`: phase one of a lazily materialized ANN TopN, the
 * segment at `segmentOrdinal` in the snapshot) in row order, as batches of at most BATCH_SIZE rows.
 */
export async function searchAnnSegment(
  reader: SegmentReader,
  index: AnnIndexReader | null,
  fragment: FragmentSpec & { ann: AnnSegmentSpec },
  excludedRows: Int32Array | undefined,
  profile: ProfileSink,
  segmentOrdinal?: number,
  invertedIndexes?: SegmentInvertedIndexes,
): Promise<Batch[]> {
  if (fragment.globalRowId === true && segmentOrdinal === undefined) throw new GaleneError('INTERNAL', ['ann search: global row ids asked without the segment ordinal']);
  const spec = fragment.ann;
  const numRows = reader.numRows;
  const dim = spec.params.dim;
  let ranges: RowRanges | null = fragment.predicates.length > 0 ? await reader.pruneRows(fragment.predicates, profile) : null;
  if (excludedRows !== undefined && excludedRows.length > 0) ranges = excludeRows(ranges ?? RowRanges.all(numRows), excludedRows);
  // Index predicates (TableScanNode.inverted): their rows are part of the allowed rows.
  if (fragment.inverted !== undefined) ranges = await applyInvertedFilter(reader, ranges, fragment.inverted, invertedIndexes ?? { records: undefined, open: null }, profile);
  // Pruning that kept every row (a filter column's zone maps span the segment): no row list to build and map.
  if (ranges !== null && ranges.count() === numRows) ranges = null;
  let allowedRows: Int32Array | null = ranges === null ? null : rowsOf(ranges);
  if (spec.filter !== null) {
    const candidates = allowedRows;
    const candidateCount = candidates?.length ?? numRows;
    if (candidateCount > 0) {
      const parts = await readColumns(reader, spec.filterColumns, ranges ?? RowRanges.all(numRows), candidateCount, profile);
      const positions = filterPositions(spec.filter, batchesOfParts({ length: candidateCount, parts }));
      if (candidates === null) allowedRows = positions; // every row was a candidate: positions are row ordinals
      else {
        const passed = new Int32Array(positions.length);
        for (let idx = 0; idx < positions.length; idx++) passed[idx] = candidates[positions[idx]];
        allowedRows = passed;
      }
    } else allowedRows = candidates ?? new Int32Array(0);
    profile.add('AnnAllowedRows', allowedRows.length);
  }
  if (allowedRows !== null && allowedRows.length === 0) return [];
  const vectors: VectorSource = { read: (rows) => readVectorChunks(reader, spec.vectorColumn.name, rows, dim, profile) };
  const searcher = new AnnSegmentSearcher(spec.params, numRows, index, vectors);
  const allowed = allowedRows === null || allowedRows.length === numRows ? undefined : bitmapOf(allowedRows, numRows);
  const result = await searcher.search(spec.query, spec.k ?? Infinity, { ef: spec.ef, allowed, radius: spec.radius ?? undefined });
  profile.add(result.path === 'exact' ? 'AnnSegmentsSearchedExactly' : 'AnnSegmentsSearchedByIndex', 1);
  profile.add('AnnIndexCandidates', result.indexCandidates);
  profile.add('AnnRowsReturned', result.rows.length);
  const count = result.rows.length;
  if (count === 0) return [];

  // Row order: the ordinals ascending, each with its distance.
  const order = Array.from({ length: count }, (_v, idx) => idx).sort((a, b) => result.rows[a] - result.rows[b]);
  let rows = new Int32Array(count);
  for (let idx = 0; idx < count; idx++) rows[idx] = result.rows[order[idx]];
  let distances: Float32Array | null = null;
  if (spec.distance) {
    distances = new Float32Array(count);
    if (result.distances !== null) {
      for (let idx = 0; idx < count; idx++) distances[idx] = result.distances[order[idx]];
    } else {
      // A far range: the index gave the rows only; the distance comes from the vectors (Doris's Sql3),
      // which also drops a near row the graph search missed: every row returned satisfies the range.
      const packed = packChunks(await vectors.read(rows), rows.length * dim);
      const l2 = spec.params.metric === 'l2_distance';
      const keep = radiusTest(spec.radius);
      let kept = 0;
      for (let idx = 0; idx < count; idx++) {
        const distance = Math.fround(l2 ? Math.sqrt(l2Squared(packed, idx * dim, spec.query, 0, dim)) : dotProduct(packed, idx * dim, spec.query, 0, dim));
        if (!keep(distance)) continue;
        rows[kept] = rows[idx];
        distances[kept++] = distance;
      }
      rows = rows.subarray(0, kept);
      distances = distances.subarray(0, kept);
      if (kept === 0) return [];
    }
  }
  const rowRanges = RowRanges.fromRowIds(rows);
  const parts = await readColumns(reader, fragment.columns, rowRanges, rows.length, profile);
  const rowIds = fragment.globalRowId === true ? globalRowIdVector(segmentOrdinal!, rowRanges, numRows) : null;
  return outputBatches(parts, rows.length, distances, rowIds);
}
