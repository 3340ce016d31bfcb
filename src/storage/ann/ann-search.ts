/**
 * One segment's vector search: TopN, range and filtered, answered from the HNSW index where it can be and
 * exactly where it must be, with Doris's distance values (the true L2 distance; the inner product,
 * larger is better). The gaps of the library are closed here, never by lowering recall:
 *
 * - Filtered search (allowed rows: zone maps, short-key ranges, delete bitmaps, predicates): usearch's JS
 *   API has no filter, so the index is asked for more neighbours than k (k / selectivity, growing 4x per
 *   round) and the rows not allowed are dropped; when few rows are allowed (at most `exactMaxRows`, or
 *   when the over-fetch would approach the segment size) those rows are scanned exactly instead. So a
 *   search never returns fewer than k rows when k allowed rows exist.
 * - Range search (`dist <= r`, `<`, `>`, `>=`): usearch has none; near ranges grow k until the farthest
 *   neighbour returned lies outside the radius (or the index is exhausted); far ranges (`>`, `>=`) are the
 *   allowed rows minus the near set, without distances (the index cannot give them: Doris's Sql3/Sql4).
 * - Segments without an index file (below the build threshold) are searched exactly.
 */
import { GaleneError } from '../../common/errors';
import type { AnnIndexParams } from './ann-params';
import { DEFAULT_EF_SEARCH } from './ann-params';
import type { AnnIndexReader } from './ann-reader';
import { exactFilterChunks, exactTopKChunks, fromDorisDistance, toDorisDistance } from './exact-scan';

/**
 * Vectors of a segment's rows: `rows` ascending, or null for every row; packed `rows.length * dim` values
 * in consecutive chunks (a segment's decoded pages as they are, so a warm exact scan copies nothing).
 */
export interface VectorSource {
  read(rows: Int32Array | null): Promise<readonly Float32Array[]>;
}

/** Allowed rows: a bitmap (bit r of byte r >> 3, least significant first) or a predicate on row ordinals. */
export type AllowedRows = Uint8Array | ((row: number) => boolean);

export type RangeOp = '<' | '<=' | '>' | '>=';

export interface AnnSearchOptions {
  /** hnsw_ef_search; the library uses max(ef, k). Default 32 (Doris's). */
  readonly ef?: number;
  readonly allowed?: AllowedRows;
  /** Keep only rows whose Doris distance satisfies `distance op value`. */
  readonly radius?: { readonly op: RangeOp; readonly value: number };
}

export type AnnSearchPath = 'index' | 'exact' | 'index-complement';

export interface AnnSearchResult {
  readonly rows: Int32Array;
  /** Doris distances of `rows`; null when the index cannot return them (a `>` / `>=` range). */
  readonly distances: Float32Array | null;
  readonly path: AnnSearchPath;
  /** Neighbours asked of the index (0 on the exact path), for profiles and tests. */
  readonly indexCandidates: number;
}

export interface AnnSegmentSearcherOptions {
  /** Allowed-row counts up to this are searched exactly (default exactMaxRowsFor(dim)). */
  readonly exactMaxRows?: number;
}

/**
 * The crossover between a filtered index search and an exact scan of the allowed rows, in vector values
 * scanned: 512 rows of 128 dimensions. The engine's JS kernel (with gathering the allowed rows) scans
 * 400-1,700 128-dim rows per ms on the shared 2-core machine, and a filtered index search at k=10 costs
 * 0.3-1 ms (bench/ann-libraries.ts, docs/benchmarks.md): below this the scan is about as fast — and exact.
 */
export const EXACT_SCAN_BUDGET_VALUES = 512 * 128;

/** Allowed rows up to which a `dim`-dimensional segment is scanned exactly (at least 128). */
export function exactMaxRowsFor(dim: number): number {
  return Math.max(128, Math.floor(EXACT_SCAN_BUDGET_VALUES / dim));
}

const isBitmap = (allowed: AllowedRows): allowed is Uint8Array => allowed instanceof Uint8Array;

function allowedTest(allowed: AllowedRows | undefined): ((row: number) => boolean) | null {
  if (!allowed) return null;
  if (!isBitmap(allowed)) return allowed;
  return (row) => (allowed[row >> 3] & (1 << (row & 7))) !== 0;
}

/** Allowed row count: exact for a bitmap (popcount), estimated from 1,024 evenly spread rows for a predicate. */
function estimateAllowed(allowed: AllowedRows, rowCount: number): number {
  if (isBitmap(allowed)) {
    let count = 0;
    const fullBytes = rowCount >> 3;
    for (let byteIdx = 0; byteIdx < fullBytes; byteIdx++) {
      let bits = allowed[byteIdx];
      bits = bits - ((bits >> 1) & 0x55);
      bits = (bits & 0x33) + ((bits >> 2) & 0x33);
      count += (bits + (bits >> 4)) & 0x0f;
    }
    for (let row = fullBytes << 3; row < rowCount; row++) if (allowed[row >> 3] & (1 << (row & 7))) count++;
    return count;
  }
  const samples = Math.min(rowCount, 1024);
  let hits = 0;
  for (let sample = 0; sample < samples; sample++) if (allowed(Math.floor(((sample + 0.5) * rowCount) / samples))) hits++;
  return samples === 0 ? 0 : Math.round((hits / samples) * rowCount);
}

function allowedRowList(test: (row: number) => boolean, rowCount: number): Int32Array {
  let out = new Int32Array(Math.min(rowCount, 1024));
  let count = 0;
  for (let row = 0; row < rowCount; row++) {
    if (!test(row)) continue;
    if (count === out.length) {
      const grown = new Int32Array(Math.min(rowCount, out.length * 2));
      grown.set(out);
      out = grown;
    }
    out[count++] = row;
  }
  return out.subarray(0, count);
}

/** Whether a key's Doris distance satisfies the radius predicate. */
function radiusKeep(params: AnnIndexParams, radius: AnnSearchOptions['radius']): ((key: number) => boolean) | null {
  if (!radius) return null;
  if (!Number.isFinite(radius.value)) throw new GaleneError('TYPE_MISMATCH', [`ann range search radius must be a finite number, got ${radius.value}`]);
  const metric = params.metric;
  const value = radius.value;
  // Compared in Doris units, so a row's reported distance always satisfies the predicate.
  const distance = (key: number): number => Math.fround(toDorisDistance(metric, key));
  switch (radius.op) {
    case '<':
      return (key) => distance(key) < value;
    case '<=':
      return (key) => distance(key) <= value;
    case '>':
      return (key) => distance(key) > value;
    case '>=':
      return (key) => distance(key) >= value;
  }
}

/** Whether the radius keeps the near side (nearest rows) — then the index can answer it with distances. */
function radiusIsNear(params: AnnIndexParams, op: RangeOp): boolean {
  const lessThan = op === '<' || op === '<=';
  return params.metric === 'l2_distance' ? lessThan : !lessThan;
}

const NEAR_OF_FAR: Readonly<Record<RangeOp, RangeOp>> = { '>': '<=', '>=': '<', '<': '>=', '<=': '>' };

export class AnnSegmentSearcher {
  private readonly exactMaxRows: number;
  private readonly index: AnnIndexReader | null;

  /**
   * @param params the index definition (metric and dim are used even when the segment has no index file)
   * @param rowCount rows in the segment
   * @param index the segment's index file, or null (a segment below the build threshold)
   * @param vectors the segment's vectors, read for exact scans
   */
  constructor(
    readonly params: AnnIndexParams,
    readonly rowCount: number,
    index: AnnIndexReader | null,
    private readonly vectors: VectorSource,
    options: AnnSegmentSearcherOptions = {},
  ) {
    this.exactMaxRows = options.exactMaxRows ?? exactMaxRowsFor(params.dim);
    // A file built for another definition of the index (dropped and re-created under the same name while
    // a load was writing) cannot answer this one: the segment is searched exactly instead.
    this.index = index !== null && index.params.dim === params.dim && index.params.metric === params.metric ? index : null;
    if (index && index.header.rowCount !== rowCount) throw new GaleneError('CORRUPTION', [`ann index ${index.file} covers ${index.header.rowCount} rows, its segment has ${rowCount}`]);
  }

  /**
   * The `k` nearest allowed rows within the radius (`k` = Infinity: every row within the radius), nearest
   * first, with Doris distances.
   */
  async search(query: Float32Array, k: number, options: AnnSearchOptions = {}): Promise<AnnSearchResult> {
    if (query.length !== this.params.dim) throw new GaleneError('TYPE_MISMATCH', [`query vector has ${query.length} dimensions, the ann index expects ${this.params.dim}`]);
    if (!(k >= 0)) throw new GaleneError('TYPE_MISMATCH', [`ann search limit must be >= 0, got ${k}`]);
    const empty: AnnSearchResult = { rows: new Int32Array(0), distances: new Float32Array(0), path: this.index ? 'index' : 'exact', indexCandidates: 0 };
    if (k === 0 || this.rowCount === 0) return empty;
    const ef = options.ef ?? DEFAULT_EF_SEARCH;
    const allowedCount = options.allowed ? estimateAllowed(options.allowed, this.rowCount) : this.rowCount;
    if (allowedCount === 0 && options.allowed && isBitmap(options.allowed)) return empty;
    const useIndex = this.index !== null && allowedCount > this.exactMaxRows;
    if (!useIndex) return this.exactSearch(query, k, options);
    const radius = options.radius;
    if (radius && !radiusIsNear(this.params, radius.op)) {
      if (k === Infinity) return this.farRange(query, ef, options, allowedCount);
    }
    return this.indexSearch(query, k, ef, options, allowedCount);
  }

  /** Exact scan over the allowed rows (only their vectors are read). */
  private async exactSearch(query: Float32Array, k: number, options: AnnSearchOptions): Promise<AnnSearchResult> {
    const test = allowedTest(options.allowed);
    const rows = test ? allowedRowList(test, this.rowCount) : null;
    const count = rows ? rows.length : this.rowCount;
    const chunks = await this.vectors.read(rows);
    let values = 0;
    for (const chunk of chunks) values += chunk.length;
    if (values !== count * this.params.dim) throw new GaleneError('INTERNAL', [`vector source returned ${values} values for ${count} rows of dim ${this.params.dim}`]);
    const keep = radiusKeep(this.params, options.radius);
    const metric = this.params.metric;
    const hits = k === Infinity && keep ? exactFilterChunks(metric, chunks, this.params.dim, query, keep) : exactTopKChunks(metric, chunks, this.params.dim, query, keep ? count : k);
    let positions = hits.positions;
    let keys = hits.keys;
    if (keep && k !== Infinity) {
      const kept = filterHits(positions, keys, (idx) => keep(keys[idx]), k);
      positions = kept.positions;
      keys = kept.keys;
    }
    const outRows = new Int32Array(positions.length);
    const distances = new Float32Array(positions.length);
    for (let idx = 0; idx < positions.length; idx++) {
      outRows[idx] = rows ? rows[positions[idx]] : positions[idx];
      distances[idx] = toDorisDistance(metric, keys[idx]);
    }
    return { rows: outRows, distances, path: 'exact', indexCandidates: 0 };
  }

  /** Over-fetch from the index with growing k until k accepted rows (or the radius, or the index) are exhausted. */
  private async indexSearch(query: Float32Array, k: number, ef: number, options: AnnSearchOptions, allowedCount: number): Promise<AnnSearchResult> {
    const index = this.index!;
    const total = index.header.vectorCount;
    const test = allowedTest(options.allowed);
    const keep = radiusKeep(this.params, options.radius);
    const nearRadius = options.radius && radiusIsNear(this.params, options.radius.op) ? fromDorisDistance(this.params.metric, options.radius.value) : null;
    const selectivity = Math.max(allowedCount, 1) / this.rowCount;
    const base = k === Infinity ? Math.max(ef, 100) : k;
    let wanted = Math.min(total, Math.ceil(base / selectivity) + (test ? 16 : 0));
    // The over-fetch a filter needs would approach the segment: the exact scan is cheaper (and exact).
    if (test && wanted > total / 4) return this.exactSearch(query, k, options);
    let asked = 0;
    for (;;) {
      asked += wanted;
      // A radius keeps rows deep in the candidate list (range + TopN on the far side wants ranks 150-170):
      // widen the beam with the over-fetch (a power of two, so few per-ef views open), or those ranks lose
      // recall. Filters keep their ef: their recall holds (bench ann-libraries) and a wider beam halves QPS.
      const searchEf = keep ? Math.max(ef, 2 ** Math.ceil(Math.log2(2 * wanted))) : ef;
      const hits = index.searchIndex(query, wanted, searchEf);
      const accepted = filterHits(hits.rows, hits.keys, (idx) => (!test || test(hits.rows[idx])) && (!keep || keep(hits.keys[idx])), k);
      const exhausted = hits.rows.length < wanted || wanted >= total;
      const lastKey = hits.keys.length ? hits.keys[hits.keys.length - 1] : Infinity;
      const radiusCovered = nearRadius !== null && lastKey > nearRadius;
      if (accepted.positions.length >= k || radiusCovered || exhausted) return this.indexResult(accepted, asked);
      // Not enough: grow, or scan exactly when the over-fetch approaches the segment (the filter or a
      // far radius keeps too few of the nearest rows for the graph to find them cheaply).
      const next = Math.min(total, wanted * 4);
      if (next > total / 4) {
        const exact = await this.exactSearch(query, k, options);
        return { ...exact, indexCandidates: asked };
      }
      wanted = next;
    }
  }

  private indexResult(accepted: { positions: Int32Array; keys: Float64Array }, asked: number): AnnSearchResult {
    const distances = new Float32Array(accepted.keys.length);
    for (let idx = 0; idx < distances.length; idx++) distances[idx] = toDorisDistance(this.params.metric, accepted.keys[idx]);
    return { rows: accepted.positions, distances, path: 'index', indexCandidates: asked };
  }

  /** `dist > r` (or `>=`) over every allowed row: the allowed rows minus the index's near set; no distances. */
  private async farRange(query: Float32Array, ef: number, options: AnnSearchOptions, allowedCount: number): Promise<AnnSearchResult> {
    const near = await this.indexSearch(query, Infinity, ef, { ...options, allowed: undefined, radius: { op: NEAR_OF_FAR[options.radius!.op], value: options.radius!.value } }, this.rowCount);
    if (near.path === 'exact') {
      // the near side is most of the segment: the exact scan answers the far side directly, with distances
      const exact = await this.exactSearch(query, Infinity, options);
      return { ...exact, indexCandidates: near.indexCandidates };
    }
    const nearRows = new Uint8Array((this.rowCount + 7) >> 3);
    for (const row of near.rows) nearRows[row >> 3] |= 1 << (row & 7);
    const test = allowedTest(options.allowed);
    const out = new Int32Array(Math.min(this.rowCount, allowedCount + near.rows.length + 1024));
    let count = 0;
    let buffer = out;
    for (let row = 0; row < this.rowCount; row++) {
      if (nearRows[row >> 3] & (1 << (row & 7))) continue;
      if (test && !test(row)) continue;
      if (count === buffer.length) {
        const grown = new Int32Array(Math.min(this.rowCount, buffer.length * 2));
        grown.set(buffer);
        buffer = grown;
      }
      buffer[count++] = row;
    }
    return { rows: buffer.slice(0, count), distances: null, path: 'index-complement', indexCandidates: near.indexCandidates };
  }
}

/** The first `limit` hits (in order) that `keep(idx)` accepts. */
function filterHits(rows: Int32Array, keys: Float64Array, keep: (idx: number) => boolean, limit: number): { positions: Int32Array; keys: Float64Array } {
  const size = Math.min(rows.length, limit);
  const outRows = new Int32Array(size);
  const outKeys = new Float64Array(size);
  let count = 0;
  for (let idx = 0; idx < rows.length && count < limit; idx++) {
    if (!keep(idx)) continue;
    outRows[count] = rows[idx];
    outKeys[count++] = keys[idx];
  }
  return { positions: outRows.subarray(0, count), keys: outKeys.subarray(0, count) };
}
