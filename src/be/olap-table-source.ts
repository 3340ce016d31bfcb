/**
 * Reads a table's rows at one visible version: every tablet's rowsets, segment by segment, through the
 * file cache and page cache, pruned by zone maps and the short-key index, reading only the requested
 * columns. Applies the table model on read: DUPLICATE and merge-on-write UNIQUE KEY return rows as stored
 * minus deleted rows (the delete bitmap of the version read, DELETE predicates of later versions), so every
 * predicate prunes and large scans run in the scan workers; merge-on-read UNIQUE KEY returns the newest row
 * per key (highest version, last within a load); AGGREGATE KEY merges rows per key with each value
 * column's aggregation.
 */
import { Batch, BATCH_SIZE, concatVectors, constantVector, getRaw, RawValue, sliceVector, takeRows, Vector, VectorBuilder } from '../common/column';
import type { ProfileSink } from '../common/profile';
import { compareRawValues } from '../common/row-order';
import type { FetchRequest, MetadataAggregateCall, ScanRequest, ScoreRowsRequest, TableSource } from '../exec/context';
import { metadataAggregates } from './metadata-aggregate';
import { GaleneError } from '../common/errors';
import type { TableState } from '../meta/catalog';
import { DeleteBitmap, DeleteCondition, DeletePredicateRecord, isMergeOnWrite, mergeSortedRowIds, sequenceColumnName } from '../meta/delete-bitmap';
import { segmentIndexRecord, type RowsetRecord, type SegmentIndexRecord, type SegmentRecord, type TabletRecord } from '../meta/meta-store';
import { ColumnSchema, findColumn, IndexSchema, partitionInfoOf, TableSchema } from '../meta/schema';
import { RowRanges } from '../storage/row-ranges';
import { mergeRowsByKey } from '../storage/table-model-merge';
import type { ScanPredicate } from '../common/scan-predicate';
import type { SegmentReader } from '../storage/segment-reader';
import type { AnnScanRequest, AnnSegmentSpec, FragmentResult, FragmentSpec } from '../exec/plan/fragment-spec';
import { parseAnnProperties, type AnnIndexParams } from '../storage/ann/ann-params';
import { EXACT_SCAN_BUDGET_VALUES } from '../storage/ann/ann-search';
import type { ScanTaskRunner } from './scan-worker-pool';
import { DORIS_ROWS_PER_SCAN_TASK, planScanTasks, runScanTasks, scanTaskPolicy, type ScanPiece, type SegmentToScan } from './scan-scheduler';
import { globalRowIdVector, snapshotSegments, type SnapshotSegment } from './global-row-id';
import { ScoreRows } from './score-rows';
import { fetchOlapRows } from './olap-row-fetcher';
import { applyInvertedFilter, hasEveryInvertedIndex, invertedRecordsFor, type InvertedRowsReader, type SegmentInvertedIndexes } from './inverted-segment-filter';
import { readColumns, rowsOf } from './segment-columns';
import { readRowStoreRows } from '../storage/row-store';
import { encodeKeys, type EncodedKeys, type PrimaryKeyIndexReader } from '../storage/primary-key-index';
import { primaryKeyIndexRecord, segmentMayHoldKeys } from '../storage/primary-key-index-segment';
import { pinnedTuples, prunedBuckets } from '../storage/bucket-pruning';
import { partitionTablets, prunedPartitions } from '../storage/partitions';
import { physicalKind, type PhysicalKind } from '../common/types';

/** Opens segment readers (cached by the BE so footers are read once). */
export interface SegmentOpener {
  openSegment(segment: SegmentRecord, profile: ProfileSink): Promise<SegmentReader>;
  /** The scan worker pool, or null/absent when scans run in-thread. */
  scanPool?(): ScanTaskRunner | null;
  /**
   * Whether a parallel scan sizes its window from the pool's pressure (`enable_scan_dynamic_parallelism`;
   * absent: yes); false keeps a fixed window of two tasks per worker (the benchmark's peer).
   */
  readonly scanDynamicParallelism?: boolean;
  /** Tables with fewer rows scan in-thread: the worker round trip would cost more than it saves. */
  readonly parallelScanMinRows?: number;
  /**
   * Cheap ANN TopN searches over at most this many indexed segments run in-thread even when the table
   * scans in parallel (`ann_search_in_thread_max_segments`; absent or 0: in the workers).
   */
  readonly annSearchInThreadMaxSegments?: number;
  /**
   * One segment's ANN search in-thread (ann-segment-scan.ts), with the opener's cached index readers;
   * `segmentOrdinal` (global-row-id.ts) when `fragment.globalRowId` asks for row ids.
   */
  searchAnnSegment?(segment: SegmentRecord, fragment: FragmentSpec & { ann: AnnSegmentSpec }, excludedRows: Int32Array, profile: ProfileSink, segmentOrdinal?: number): Promise<Batch[]>;
  /** Opens a segment's inverted index file (cached); absent: segments are filtered exactly, on their column values. */
  openInvertedIndex?(record: SegmentIndexRecord, profile: ProfileSink): Promise<InvertedRowsReader>;
  /** Opens a segment's primary-key index file (cached); absent: key lookups read the key columns. */
  openPrimaryKeyIndex?(record: SegmentIndexRecord, profile: ProfileSink): Promise<PrimaryKeyIndexReader>;
}

const DEFAULT_PARALLEL_SCAN_MIN_ROWS = 65_536;
/** Rows per worker task (a segment range): bounds so that small tables still split and big ones do not over-split. */
const MIN_TASK_ROWS = 32_768;
// Small enough that merging one task's partial aggregate (up to this many groups) on the event loop
// stays a short slice of work.
const MAX_TASK_ROWS = 32_768;
const NO_ROWS = new Int32Array(0);
/**
 * Vector values (rows x dim) of segments without an index file an in-thread ANN search may scan exactly:
 * sixteen times the searcher's own exact-scan crossover (8,192 rows of 128 dims), well under a
 * millisecond with the SIMD kernel over the cached pages (no copy: ann-segment-scan.ts readVectorChunks),
 * so the usual tail of a loading table (the last load's segment, below ann_index_build_min_segment_rows)
 * does not send every search to the workers: their round trip costs more than that scan.
 */
const IN_THREAD_EXACT_VALUES = 16 * EXACT_SCAN_BUDGET_VALUES;

/** Each ANN index's parsed properties, by its (immutable) schema entry: parsed once, not per query. */
const annParamsByIndex = new WeakMap<IndexSchema, AnnIndexParams>();

function annIndexParams(index: IndexSchema): AnnIndexParams {
  let params = annParamsByIndex.get(index);
  if (params === undefined) {
    params = parseAnnProperties(index.properties);
    annParamsByIndex.set(index, params);
  }
  return params;
}

/**
 * Rows of a segment matching a DELETE predicate, by segment key and predicate id: both are immutable, so
 * the answer never changes; kept for the segments read most recently.
 */
const predicateMatches = new Map<string, Int32Array>();
const PREDICATE_MATCH_CACHE_ENTRIES = 4096;

/** `ranges` without the rows of ascending `excluded`. */
export function excludeRows(ranges: RowRanges, excluded: Int32Array): RowRanges {
  if (excluded.length === 0) return ranges;
  const pairs: [number, number][] = [];
  let idIdx = 0;
  for (let rangeIdx = 0; rangeIdx < ranges.rangeCount; rangeIdx++) {
    let start = ranges.start(rangeIdx);
    const end = ranges.end(rangeIdx);
    while (idIdx < excluded.length && excluded[idIdx] < start) idIdx++;
    while (idIdx < excluded.length && excluded[idIdx] < end) {
      const rowId = excluded[idIdx++];
      if (rowId > start) pairs.push([start, rowId]);
      start = rowId + 1;
    }
    if (start < end) pairs.push([start, end]);
  }
  return RowRanges.of(pairs);
}

/** Whether a stored value satisfies one DELETE condition (SQL semantics: a comparison with NULL is not true). */
export function conditionMatches(condition: DeleteCondition, value: RawValue): boolean {
  switch (condition.op) {
    case 'isnull':
      return value === null;
    case 'isnotnull':
      return value !== null;
    default:
      break;
  }
  if (value === null) return false;
  const values = condition.values;
  switch (condition.op) {
    case 'in':
      return values.some((candidate) => candidate !== null && compareRawValues(value, candidate) === 0);
    case 'not in':
      return values.every((candidate) => candidate !== null && compareRawValues(value, candidate) !== 0);
    default:
      break;
  }
  if (values[0] === null) return false;
  const diff = compareRawValues(value, values[0]);
  switch (condition.op) {
    case '=':
      return diff === 0;
    case '!=':
      return diff !== 0;
    case '<':
      return diff < 0;
    case '<=':
      return diff <= 0;
    case '>':
      return diff > 0;
    default:
      return diff >= 0;
  }
}

/** The pruning form of the conditions zone maps and the short-key index understand. */
function prunableConditions(conditions: readonly DeleteCondition[]): ScanPredicate[] {
  const out: ScanPredicate[] = [];
  for (const condition of conditions) {
    if (condition.op === 'in') out.push({ column: condition.column, op: 'in', values: condition.values });
    else if (condition.op === 'isnull' || condition.op === 'isnotnull') out.push({ column: condition.column, op: condition.op });
    else if (condition.op !== '!=' && condition.op !== 'not in') out.push({ column: condition.column, op: condition.op, value: condition.values[0] });
  }
  return out;
}

/** The task field naming the segment's inverted index files a fragment's index predicates use. */
function invertedTaskFields(segment: SegmentRecord, fragment: FragmentSpec): { invertedIndexes?: readonly SegmentIndexRecord[] } {
  const records = invertedRecordsFor(segment.indexes, fragment.inverted);
  return records === undefined ? {} : { invertedIndexes: records };
}

/** Rows of the table state that are visible (its rowsets' rows minus the delete bitmap's), from metadata alone. */
export function visibleRowCount(table: TableState): number {
  const bitmap = table.deleteBitmap ?? DeleteBitmap.EMPTY;
  return table.rowsets.reduce((sum, rowset) => sum + rowset.numRows - bitmap.deletedInRowset(rowset.id), 0);
}

/**
 * The tablets a scan with these (must-hold) predicates reads, in the table's tablet order: with every HASH
 * distribution column pinned by `=` / IN, only the buckets the values hash to (bucket-pruning.ts), and of a
 * partitioned table only the partitions the predicates can match.
 */
export function tabletsToRead(table: TableState, predicates: readonly ScanPredicate[]): readonly TabletRecord[] {
  const all = table.tablets;
  const schema = table.schema;
  const info = partitionInfoOf(schema);
  if (info === null) {
    const buckets = prunedBuckets(schema, all.length, predicates);
    return buckets === null ? all : buckets.map((bucket) => all[bucket]);
  }
  // A partitioned table: the partitions the predicates can match, then the buckets of each.
  const layout = partitionTablets(info, all);
  const partitions = prunedPartitions(schema, predicates) ?? info.partitions.map((_, idx) => idx);
  const tablets: TabletRecord[] = [];
  for (const partitionIdx of partitions) {
    const positions = layout[partitionIdx];
    const buckets = prunedBuckets(schema, positions.length, predicates);
    for (const bucket of buckets ?? positions.keys()) if (positions[bucket] >= 0) tablets.push(all[positions[bucket]]);
  }
  return tablets;
}

export class OlapTableSource implements TableSource {
  readonly schema: TableSchema;
  private readonly deleteBitmap: DeleteBitmap;
  /** Merge-on-write UNIQUE KEY scans like DUPLICATE: no merge on read. */
  private readonly merging: boolean;
  /** The snapshot's segments by global-row-id ordinal, and each segment key's ordinal (built on first use). */
  private segmentList: SnapshotSegment[] | null = null;
  private ordinals: Map<string, number> | null = null;
  /** score()'s statistics and readers for this statement (built on first use). */
  private scorer: ScoreRows | null = null;
  /** keyProbe's answer per predicate list (a scan's list is one immutable array). */
  private readonly keyProbes = new WeakMap<readonly ScanPredicate[], { readonly keys: EncodedKeys; readonly kinds: readonly PhysicalKind[] } | null>();

  constructor(
    private readonly table: TableState,
    private readonly opener: SegmentOpener,
  ) {
    this.schema = table.schema;
    this.deleteBitmap = table.deleteBitmap ?? DeleteBitmap.EMPTY;
    this.merging = table.schema.keysType !== 'DUPLICATE' && !isMergeOnWrite(table.schema);
  }

  estimatedRowCount(): number {
    return visibleRowCount(this.table);
  }

  metadataAggregates(calls: readonly MetadataAggregateCall[], profile: ProfileSink): Promise<RawValue[] | null> {
    const opener = this.opener;
    return metadataAggregates({ table: this.table, merging: this.merging, tablets: this.tabletsToScan([], profile), openSegment: (segment, sink) => opener.openSegment(segment, sink) }, calls, profile);
  }

  async *scan(request: ScanRequest): AsyncIterable<Batch> {
    if (request.globalRowId === true && this.merging) throw new GaleneError('INTERNAL', [`${this.schema.name}: a merge-on-read table has no global row ids`]);
    const columns = request.columns.map((name) => findColumn(this.schema, name)!);
    let remaining = request.limit ?? Infinity;
    const rowsetsByTablet = new Map<number, RowsetRecord[]>();
    for (const rowset of this.table.rowsets) {
      const list = rowsetsByTablet.get(rowset.tabletId) ?? [];
      list.push(rowset);
      rowsetsByTablet.set(rowset.tabletId, list);
    }
    const merging = this.merging;
    // Under a merging model a value column's stored rows may be superseded: prune on key columns only.
    const predicates = merging ? request.predicates.filter((predicate) => findColumn(this.schema, predicate.column)?.isKey) : request.predicates;
    if (!merging && remaining > 0 && request.inverted === undefined && request.globalRowId !== true) {
      const found = await this.lookupOneKey(columns, predicates, request);
      if (found !== undefined) {
        if (found !== null) yield* found;
        return;
      }
    }
    for (const tablet of this.tabletsToScan(predicates, request.profile)) {
      const rowsets = rowsetsByTablet.get(tablet.id);
      if (!rowsets) continue;
      const source = merging ? this.mergedTabletBatches(rowsets, columns, predicates, request) : this.duplicateTabletBatches(rowsets, columns, predicates, request);
      for await (const batch of source) {
        if (batch.length >= remaining) {
          yield batch.length === remaining ? batch : { length: remaining, columns: batch.columns.map((vec) => sliceVector(vec, 0, remaining)) };
          return;
        }
        remaining -= batch.length;
        yield batch;
      }
    }
  }

  /**
   * Fragment tasks that may run at once over this table: the scan worker count, or 0 — scan in-thread —
   * for merge-on-read models (a key's rows span segments), small tables, or when there is no worker pool.
   */
  scanDegree(): number {
    if (this.merging) return 0;
    const totalRows = this.estimatedRowCount();
    if (totalRows < (this.opener.parallelScanMinRows ?? DEFAULT_PARALLEL_SCAN_MIN_ROWS) || totalRows === 0) return 0;
    return this.opener.scanPool?.()?.size ?? 0;
  }

  /**
   * Runs a scan fragment over every segment in the scan workers, as tasks planned and windowed by the scan
   * scheduler (scan-scheduler.ts: row ranges for an ordinary scan, whole segments for an index-driven one,
   * the window from the pool's pressure), yielding results in row order (so merging them in turn equals
   * one sequential pass). Each piece carries the rows of its range that are deleted (bitmap, DELETE
   * predicates). Null — scan in-thread — for LIMIT scans and whenever scanDegree() is 0 now.
   */
  scanParallel(request: ScanRequest, fragment: FragmentSpec): AsyncIterable<FragmentResult> | null {
    // A lookup of pinned full keys reads a row or a few through the primary-key index: in-thread.
    if (request.limit !== null || this.scanDegree() === 0 || this.keyProbe(request.predicates) !== null || this.indexAnswersAlone(fragment)) return null;
    const pool = this.opener.scanPool?.() ?? null;
    if (pool === null) return null;
    const totalRows = this.estimatedRowCount();
    const policy = scanTaskPolicy(request.indexScan, Math.min(MAX_TASK_ROWS, Math.max(MIN_TASK_ROWS, Math.ceil(totalRows / (pool.size * 2)))));
    const profile = request.profile;
    // At most two tasks per worker in flight: results wait in memory only until the consumer takes them.
    const options = { maxWindow: pool.size * 2, pressure: this.opener.scanDynamicParallelism === false ? undefined : pool, profile };
    const segmentsToScan = (): Promise<SegmentToScan[]> => this.segmentsToScan(request.predicates, profile);
    const rowIdFields = (segment: SegmentRecord): { segmentOrdinal?: number } => this.rowIdFields(segment, fragment.globalRowId === true);
    return (async function* () {
      const tasks = planScanTasks(await segmentsToScan(), policy);
      profile.add('ParallelScanTasks', tasks.length);
      profile.add('ScanPoolQueuedAtStart', pool.pressure().queued);
      const run = ({ segment, rowStart, rowEnd, excludedRows }: ScanPiece): Promise<FragmentResult> =>
        pool.run({ segmentKey: segment.key, segmentSize: segment.size, rowStart, rowEnd, fragment, ...rowIdFields(segment), ...invertedTaskFields(segment, fragment), ...(excludedRows === undefined ? {} : { excludedRows }) }, profile);
      yield* runScanTasks(tasks, run, options);
    })();
  }

  /**
   * Whether the inverted indexes answer the whole fragment — no column read, no other filter, every segment
   * with the index files — so each segment costs a few posting-list operations: cheaper on this thread
   * than the scan workers' round trip per task (a rare-term count over 24 segments: ~2 ms here against
   * ~8 ms through the workers).
   */
  private indexAnswersAlone(fragment: FragmentSpec): boolean {
    const inverted = fragment.inverted;
    if (inverted === undefined || fragment.columns.length > 0 || fragment.predicates.length > 0 || fragment.filter !== null || (fragment.virtualColumns?.length ?? 0) > 0) return false;
    return this.table.rowsets.every((rowset) => rowset.segments.every((segment) => hasEveryInvertedIndex(segment.indexes, inverted)));
  }

  /** Every segment of the version read, in scan order (tablet, then rowset), with its rows not visible. */
  private async segmentsToScan(predicates: readonly ScanPredicate[], profile: ProfileSink): Promise<SegmentToScan[]> {
    const segments: SegmentToScan[] = [];
    for (const tablet of this.tabletsToScan(predicates, profile)) {
      for (const rowset of this.table.rowsets) {
        if (rowset.tabletId !== tablet.id) continue;
        for (let segmentIdx = 0; segmentIdx < rowset.segments.length; segmentIdx++) segments.push({ segment: rowset.segments[segmentIdx], excludedRows: await this.excludedRows(rowset, segmentIdx, profile) });
      }
    }
    return segments;
  }

  /**
   * The tablets a scan with these (must-hold) predicates reads: with every HASH distribution column
   * pinned by `=` / IN, only the buckets the values hash to (bucket-pruning.ts). Counts TabletsScanned and
   * TabletsPruned.
   */
  private tabletsToScan(predicates: readonly ScanPredicate[], profile: ProfileSink): readonly TabletRecord[] {
    return this.countTablets(this.prunedTablets(predicates), profile);
  }

  private prunedTablets(predicates: readonly ScanPredicate[]): readonly TabletRecord[] {
    return tabletsToRead(this.table, predicates);
  }

  private countTablets(tablets: readonly TabletRecord[], profile: ProfileSink): readonly TabletRecord[] {
    profile.add('TabletsScanned', tablets.length);
    if (tablets.length < this.table.tablets.length) profile.add('TabletsPruned', this.table.tablets.length - tablets.length);
    return tablets;
  }

  /**
   * The encoded full keys a merge-on-write scan's predicates pin (every key column by `=` / IN), for
   * primary-key index lookups; null when they pin none. Computed once per predicate list.
   */
  private keyProbe(predicates: readonly ScanPredicate[]): EncodedKeys | null {
    if (this.merging || !isMergeOnWrite(this.schema) || this.opener.openPrimaryKeyIndex === undefined || predicates.length === 0) return null;
    let probe = this.keyProbes.get(predicates);
    if (probe === undefined) {
      const tuples = pinnedTuples(this.schema, this.schema.keyColumns, predicates);
      const kinds = this.schema.keyColumns.map((name) => physicalKind(findColumn(this.schema, name)!.type));
      probe = tuples === null ? null : { keys: encodeKeys(tuples, kinds, tuples[0]?.length ?? 0), kinds };
      this.keyProbes.set(predicates, probe);
    }
    return probe?.keys ?? null;
  }

  /**
   * Rows of a segment holding the keys the predicates pin, ascending, through its primary-key index (bloom,
   * then one key page per key that may be present); null when the predicates pin no full key or the
   * segment has no usable index (written before it existed): the caller prunes the usual way.
   */
  private async primaryKeyRows(segment: SegmentRecord, predicates: readonly ScanPredicate[], profile: ProfileSink): Promise<Int32Array | null> {
    const keys = this.keyProbe(predicates);
    const record = keys === null ? undefined : primaryKeyIndexRecord(segment);
    if (keys === null || record === undefined) return null;
    const kinds = this.keyProbes.get(predicates)!.kinds;
    if (!segmentMayHoldKeys(record, keys, kinds)) {
      profile.add('SegmentsPrunedByKeyBounds', 1);
      return NO_ROWS;
    }
    const index = await this.opener.openPrimaryKeyIndex!(record, profile);
    if (!index.matchesKinds(kinds) || index.numRows !== segment.numRows) return null;
    profile.add('PrimaryKeyIndexLookups', keys.count);
    const found = await index.lookup(keys, profile);
    if (found.length === 1) return found[0] >= 0 ? found : NO_ROWS;
    return Int32Array.from(new Set(found.filter((rowId) => rowId >= 0))).sort();
  }

  /**
   * A lookup of one full key of a merge-on-write table (every key column pinned by `=`, the short-circuit
   * point query's shape): the tablet the key hashes to, its segments newest first through their
   * primary-key indexes, stopping at the first visible row — merge-on-write leaves at most one visible row
   * per key (publish puts the older ones in the delete bitmap), as Doris's lookup_row_key searches rowsets
   * newest first. The row's batches; null when the key has no visible row; undefined when the lookup cannot
   * go this way (another shape, a segment without a usable index): the caller scans.
   */
  private async lookupOneKey(columns: readonly ColumnSchema[], predicates: readonly ScanPredicate[], request: ScanRequest): Promise<Batch[] | null | undefined> {
    const keys = this.keyProbe(predicates);
    if (keys === null || keys.count !== 1) return undefined;
    const profile = request.profile;
    const refs: SegmentRef[] = [];
    const tablets = this.prunedTablets(predicates);
    for (const tablet of tablets) {
      for (const rowset of this.table.rowsets) {
        if (rowset.tabletId !== tablet.id) continue;
        for (let segmentIdx = 0; segmentIdx < rowset.segments.length; segmentIdx++) {
          if (primaryKeyIndexRecord(rowset.segments[segmentIdx]) === undefined) return undefined;
          refs.push({ rowset, segmentIdx });
        }
      }
    }
    this.countTablets(tablets, profile);
    for (let refIdx = refs.length - 1; refIdx >= 0; refIdx--) {
      const { rowset, segmentIdx } = refs[refIdx];
      const keyRows = await this.primaryKeyRows(rowset.segments[segmentIdx], predicates, profile);
      if (keyRows === null) return undefined;
      const read = await this.readSegmentParts(rowset, segmentIdx, columns, predicates, request, keyRows);
      if (read !== null) return [...batchesOfParts(read)];
    }
    return null;
  }

  /**
   * An ANN search over every segment (TableScanNode.ann), each segment's found rows in row order, segments
   * in tablet and version order; each search gets the segment's deleted rows and its index file.
   * In-thread when the table does not scan in parallel, or when the search is cheap (annInThread): a few
   * native index searches cost less than the worker round trip. Otherwise scan-worker tasks planned and
   * windowed by the scan scheduler: one per segment with optimize_index_scan_parallelism
   * (ScanRequest.indexScan), else segments grouped by Doris's row split, the window from the pool's pressure.
   */
  async *scanAnn(request: ScanRequest, ann: AnnScanRequest): AsyncIterable<Batch> {
    const index = this.schema.indexes.find((candidate) => candidate.indexType.toUpperCase() === 'ANN' && candidate.name === ann.indexName);
    const vectorColumn = index === undefined ? undefined : findColumn(this.schema, index.columns[0]);
    if (index === undefined || vectorColumn === undefined) throw new GaleneError('INTERNAL', [`ann index ${ann.indexName} of ${this.schema.name} not found`]);
    const column = (name: string): ColumnSchema => findColumn(this.schema, name)!;
    const segmentSpec: AnnSegmentSpec = {
      indexName: index.name,
      params: annIndexParams(index),
      vectorColumn,
      query: ann.query,
      k: ann.k,
      radius: ann.radius,
      ef: ann.ef,
      filterColumns: ann.filterColumns.map(column),
      filter: ann.filter,
      distance: ann.distance,
    };
    const fragment = {
      columns: request.columns.map(column),
      predicates: request.predicates,
      filter: null,
      aggregate: null,
      ann: segmentSpec,
      ...(request.globalRowId === true ? { globalRowId: true } : {}),
      ...(request.inverted === undefined ? {} : { inverted: request.inverted }),
    };
    // Phase one of a lazily materialized TopN: each found row's global row id after the distance.
    const rowIdFields = (segment: SegmentRecord): { segmentOrdinal?: number } => this.rowIdFields(segment, request.globalRowId === true);
    const profile = request.profile;
    const segments = (await this.segmentsToScan(request.predicates, profile)).filter(({ segment, excludedRows }) => excludedRows.length < segment.numRows);
    const pool = this.scanDegree() > 0 ? (this.opener.scanPool?.() ?? null) : null;
    if (pool === null || this.annInThread(request, segmentSpec, segments)) {
      const search = this.opener.searchAnnSegment;
      if (search === undefined) throw new GaleneError('INTERNAL', ['this backend cannot run ANN searches in-thread']);
      if (pool !== null) profile.add('AnnSearchesInThread', segments.length);
      for (const { segment, excludedRows } of segments) yield* await search.call(this.opener, segment, fragment, excludedRows, profile, rowIdFields(segment).segmentOrdinal);
      return;
    }
    const tasks = planScanTasks(segments, scanTaskPolicy(request.indexScan ?? { perSegment: false }, DORIS_ROWS_PER_SCAN_TASK));
    profile.add('ParallelScanTasks', tasks.length);
    profile.add('ScanPoolQueuedAtStart', pool.pressure().queued);
    const annIndexOf = (segment: SegmentRecord): { annIndex?: { key: string; size: number } } => {
      const record = segmentIndexRecord(segment, index.name, 'ann');
      return record === undefined ? {} : { annIndex: { key: record.key, size: record.size } };
    };
    const run = ({ segment, rowStart, rowEnd, excludedRows }: ScanPiece): Promise<FragmentResult> =>
      pool.run({ segmentKey: segment.key, segmentSize: segment.size, rowStart, rowEnd, fragment, ...rowIdFields(segment), ...annIndexOf(segment), ...invertedTaskFields(segment, fragment), ...(excludedRows === undefined ? {} : { excludedRows }) }, profile);
    // An ANN task returns at most k rows (or the rows within the radius): a window of two per worker.
    const options = { maxWindow: pool.size * 2, pressure: this.opener.scanDynamicParallelism === false ? undefined : pool, profile };
    for await (const result of runScanTasks(tasks, run, options)) if (result.kind === 'batches') yield* result.batches;
  }

  /**
   * Whether an ANN search is cheap enough for the event loop (`ann_search_in_thread_max_segments`): a TopN
   * without allowed-row filter or pruning predicates (no big column read, no large exact fallback), over
   * at most that many segments with an index file and few deleted rows, plus segments without one
   * (searched exactly) holding at most IN_THREAD_EXACT_VALUES vector values in all.
   */
  private annInThread(request: ScanRequest, spec: AnnSegmentSpec, segments: readonly SegmentToScan[]): boolean {
    const maxIndexed = this.opener.annSearchInThreadMaxSegments ?? 0;
    if (maxIndexed <= 0 || spec.k === null || spec.filter !== null || request.predicates.length > 0 || request.inverted !== undefined) return false;
    let indexed = 0;
    let exactValues = 0;
    for (const { segment, excludedRows } of segments) {
      const hasIndex = segmentIndexRecord(segment, spec.indexName, 'ann') !== undefined;
      if (!hasIndex) exactValues += (segment.numRows - excludedRows.length) * spec.params.dim;
      else if (++indexed > maxIndexed || excludedRows.length * 10 > segment.numRows) return false;
    }
    return exactValues <= IN_THREAD_EXACT_VALUES;
  }

  /**
   * Ascending ids of the rows of a segment that are not visible at this version: its delete bitmap, and
   * the rows matching a DELETE predicate of a later version.
   */
  private async excludedRows(rowset: RowsetRecord, segmentIdx: number, profile: ProfileSink, reader?: SegmentReader): Promise<Int32Array> {
    let excluded = this.deleteBitmap.get(rowset.id, segmentIdx);
    const predicates = this.table.deletePredicates;
    if (predicates === undefined) return excluded;
    for (const predicate of predicates) {
      if (predicate.version <= rowset.version) continue;
      const segment = rowset.segments[segmentIdx];
      const cacheKey = `${segment.key}#${predicate.id}`;
      let matches = predicateMatches.get(cacheKey);
      if (matches === undefined) {
        matches = await this.matchPredicate(reader ?? (await this.opener.openSegment(segment, profile)), predicate, profile);
        predicateMatches.set(cacheKey, matches);
        if (predicateMatches.size > PREDICATE_MATCH_CACHE_ENTRIES) predicateMatches.delete(predicateMatches.keys().next().value as string);
      }
      excluded = mergeSortedRowIds(excluded, matches);
    }
    return excluded;
  }

  /** Rows of a segment matching every condition of a DELETE predicate (zone maps first, then the values). */
  private async matchPredicate(reader: SegmentReader, predicate: DeletePredicateRecord, profile: ProfileSink): Promise<Int32Array> {
    const ranges = await reader.pruneRows(prunableConditions(predicate.conditions), profile);
    if (ranges.isEmpty()) return NO_ROWS;
    const count = ranges.count();
    const values: Vector[] = [];
    for (const condition of predicate.conditions) {
      const column = findColumn(this.schema, condition.column);
      const stored = column !== undefined && reader.columns.some((candidate) => candidate.uniqueId === column.uniqueId && candidate.name === column.name);
      values.push(stored ? await reader.readColumn(column.name, ranges, profile) : constantVector(column?.type ?? this.schema.columns[0].type, null, count));
    }
    const out: number[] = [];
    let pos = 0;
    for (let rangeIdx = 0; rangeIdx < ranges.rangeCount; rangeIdx++) {
      for (let rowId = ranges.start(rangeIdx); rowId < ranges.end(rangeIdx); rowId++, pos++) {
        let matched = true;
        for (let condIdx = 0; condIdx < predicate.conditions.length && matched; condIdx++) matched = conditionMatches(predicate.conditions[condIdx], getRaw(values[condIdx], pos));
        if (matched) out.push(rowId);
      }
    }
    return Int32Array.from(out);
  }

  /**
   * Read `columns` of one segment for the rows that survive pruning and deletes, each column as
   * consecutive pieces (decoded pages or slices of them, see SegmentReader.readColumnParts); null when no
   * row survives.
   */
  private async readSegmentParts(rowset: RowsetRecord, segmentIdx: number, columns: readonly ColumnSchema[], predicates: readonly ScanPredicate[], request: ScanRequest, knownKeyRows?: Int32Array): Promise<SegmentParts | null> {
    const profile = request.profile;
    const segment = rowset.segments[segmentIdx];
    const keyRows = knownKeyRows ?? (await this.primaryKeyRows(segment, predicates, profile));
    if (keyRows !== null && keyRows.length === 0) {
      // No pinned key in this segment: its own files are not even opened.
      profile.add('RowsPrunedByPrimaryKeyIndex', segment.numRows);
      profile.add('SegmentsRead', 1);
      profile.add('SegmentsPruned', 1);
      return null;
    }
    if (keyRows !== null) profile.add('RowsPrunedByPrimaryKeyIndex', segment.numRows - keyRows.length);
    const reader = await this.opener.openSegment(segment, profile);
    let ranges = keyRows !== null ? RowRanges.of(Array.from(keyRows, (rowId): [number, number] => [rowId, rowId + 1])) : predicates.length > 0 ? await reader.pruneRows(predicates, profile) : null;
    const excluded = await this.excludedRows(rowset, segmentIdx, profile, reader);
    if (excluded.length > 0) {
      const before = ranges ?? RowRanges.all(reader.numRows);
      ranges = excludeRows(before, excluded);
      profile.add('RowsDeleted', before.count() - ranges.count());
    }
    if (request.inverted !== undefined) ranges = await applyInvertedFilter(reader, ranges, request.inverted, this.invertedIndexes(segment), profile);
    const rowCount = ranges ? ranges.count() : reader.numRows;
    profile.add('SegmentsRead', 1);
    if (rowCount === 0) {
      profile.add('SegmentsPruned', 1);
      return null;
    }
    profile.add('RowsRead', rowCount);
    // A key lookup on a table with a row store reads one page of its row column (row-store.ts).
    const rowStore = keyRows !== null && ranges !== null ? await readRowStoreRows(reader, columns, rowsOf(ranges), profile) : null;
    const parts = rowStore !== null ? rowStore.map((vec) => [vec]) : await readColumns(reader, columns, ranges, rowCount, profile);
    if (request.globalRowId === true) parts.push([globalRowIdVector(this.segmentOrdinal(segment), ranges, reader.numRows)]);
    return { length: rowCount, parts };
  }

  /** A segment's inverted index files and the opener's way to open them (an in-thread index filter). */
  private invertedIndexes(segment: SegmentRecord): SegmentInvertedIndexes {
    const open = this.opener.openInvertedIndex;
    return { records: segment.indexes, open: open === undefined ? null : (record, profile) => open.call(this.opener, record, profile) };
  }

  /** The segment's ordinal in this snapshot (global-row-id.ts). */
  /** The task field that makes a worker append global row ids (when `wanted`: a lazily materialized TopN). */
  private rowIdFields(segment: SegmentRecord, wanted: boolean): { segmentOrdinal?: number } {
    return wanted ? { segmentOrdinal: this.segmentOrdinal(segment) } : {};
  }

  private segmentOrdinal(segment: SegmentRecord): number {
    if (this.ordinals === null) this.ordinals = new Map(this.snapshot().map((entry, ordinal) => [entry.segment.key, ordinal]));
    return this.ordinals.get(segment.key)!;
  }

  private snapshot(): SnapshotSegment[] {
    return (this.segmentList ??= snapshotSegments(this.table));
  }

  /** score(): BM25 of rows this source's scans returned, from the inverted index files (score-rows.ts). */
  scoreRows(request: ScoreRowsRequest): Promise<Float32Array> {
    const open = this.opener.openInvertedIndex;
    if (open === undefined) return Promise.reject(new GaleneError('SCORE_USAGE', ['score() needs inverted index files; this backend cannot open them']));
    this.scorer ??= new ScoreRows(this.snapshot(), (record, profile) => open.call(this.opener, record, profile));
    return this.scorer.score(request);
  }

  /** Phase two of a lazily materialized TopN: the columns of rows this source's scans returned (olap-row-fetcher.ts). */
  fetchRows(request: FetchRequest): Promise<Vector[]> {
    if (this.merging) return Promise.reject(new GaleneError('INTERNAL', [`${this.schema.name}: a merge-on-read table has no global row ids`]));
    return fetchOlapRows(this.schema, this.snapshot(), this.opener, request);
  }

  /** Read `columns` of one segment as one batch (the merging models need every row of a tablet at once). */
  private async readSegment(rowset: RowsetRecord, segmentIdx: number, columns: readonly ColumnSchema[], predicates: readonly ScanPredicate[], request: ScanRequest): Promise<Batch | null> {
    const read = await this.readSegmentParts(rowset, segmentIdx, columns, predicates, request);
    if (read === null) return null;
    return { length: read.length, columns: read.parts.map((pieces, colIdx) => (pieces.length === 1 ? pieces[0] : concatVectors(columns[colIdx].type, pieces))) };
  }

  private async *duplicateTabletBatches(rowsets: readonly RowsetRecord[], columns: readonly ColumnSchema[], predicates: readonly ScanPredicate[], request: ScanRequest): AsyncIterable<Batch> {
    for await (const read of readAhead(segmentsOf(rowsets), (ref) => this.readSegmentParts(ref.rowset, ref.segmentIdx, columns, predicates, request))) {
      if (read !== null) yield* batchesOfParts(read);
    }
  }

  /**
   * UNIQUE and AGGREGATE KEY: read keys, the sequence column and the requested columns of every rowset,
   * then merge per key with the table model — the same merge (table-model-merge.ts) a load's memtable does
   * on flush, so a key's result does not depend on whether its rows were loaded together, apart, or
   * compacted. Rows come out in key order.
   */
  private async *mergedTabletBatches(rowsets: readonly RowsetRecord[], columns: readonly ColumnSchema[], predicates: readonly ScanPredicate[], request: ScanRequest): AsyncIterable<Batch> {
    const keyColumns = this.schema.keyColumns.map((name) => findColumn(this.schema, name)!);
    const readColumns = [...keyColumns, ...columns.filter((column) => !column.isKey)];
    const seqName = sequenceColumnName(this.schema);
    let sequenceIdx = seqName === null ? -1 : readColumns.findIndex((column) => column.name === seqName);
    if (seqName !== null && sequenceIdx < 0) {
      sequenceIdx = readColumns.length;
      readColumns.push(findColumn(this.schema, seqName)!);
    }
    const parts: Batch[] = [];
    for await (const batch of readAhead(segmentsOf(rowsets), (ref) => this.readSegment(ref.rowset, ref.segmentIdx, readColumns, predicates, request))) {
      if (batch) parts.push(batch);
    }
    if (parts.length === 0) return;
    const all: Vector[] = readColumns.map((column, colIdx) => concatVectors(column.type, parts.map((part) => part.columns[colIdx])));
    const length = parts.reduce((sum, part) => sum + part.length, 0);
    // Rows arrive in version order (and load order within a version), as the merge expects.
    const merged = mergeRowsByKey(all, length, { keysType: this.schema.keysType, numKeyColumns: keyColumns.length, columns: readColumns, sequenceIdx });
    const output: Vector[] = columns.map((column) => merged.columns[readColumns.indexOf(column)]);
    for (let start = 0; start < merged.length; start += BATCH_SIZE) {
      const end = Math.min(merged.length, start + BATCH_SIZE);
      yield { length: end - start, columns: output.map((vec) => sliceVector(vec, start, end)) };
    }
  }
}

/**
 * Segments read ahead of the consumer by an in-thread scan. Each segment costs a few dependent I/O round
 * trips (open, tail, pages), each of which waits for an event-loop turn; on a table of many small
 * segments under concurrent loads, reading them one after another made a scan as slow as segments x
 * round trips x turn latency (a 1,000-segment count took seconds). Reading a bounded window at once
 * overlaps those waits; results are still taken in segment order, and memory stays bounded by the window.
 */
export const SEGMENT_READ_AHEAD = 16;

interface SegmentRef {
  readonly rowset: RowsetRecord;
  readonly segmentIdx: number;
}

function segmentsOf(rowsets: readonly RowsetRecord[]): SegmentRef[] {
  const refs: SegmentRef[] = [];
  for (const rowset of rowsets) for (let segmentIdx = 0; segmentIdx < rowset.segments.length; segmentIdx++) refs.push({ rowset, segmentIdx });
  return refs;
}

/**
 * `read(item)` for every item, in order, with up to `window` reads in flight. The window starts at one
 * and doubles with each result taken, so a consumer that stops early (LIMIT) starts few extra reads. A
 * failed read rejects when its turn comes; reads still in flight after the consumer stops (or fails) are
 * left to settle unobserved.
 */
export async function* readAhead<T, R>(items: readonly T[], read: (item: T) => Promise<R>, window = SEGMENT_READ_AHEAD): AsyncIterable<R> {
  const inFlight: Promise<R>[] = [];
  let next = 0;
  let current = 1;
  const fill = (): void => {
    while (next < items.length && inFlight.length < current) {
      const promise = read(items[next++]);
      promise.catch(() => undefined); // awaited in order below; not unhandled meanwhile
      inFlight.push(promise);
    }
  };
  fill();
  while (inFlight.length > 0) {
    const result = await inFlight.shift()!;
    current = Math.min(window, current * 2);
    fill();
    yield result;
  }
}

/** A segment's rows as per-column lists of consecutive pieces (piece boundaries differ between columns). */
export interface SegmentParts {
  readonly length: number;
  readonly parts: readonly (readonly Vector[])[];
}

/**
 * Batches of at most BATCH_SIZE rows over per-column pieces, cut where any column's piece ends, so every
 * column of a batch is one piece or a zero-copy slice of one (no concatenation).
 */
export function* batchesOfParts(read: SegmentParts): Iterable<Batch> {
  const { length, parts } = read;
  const colCount = parts.length;
  const partIdx = new Int32Array(colCount);
  const offset = new Int32Array(colCount);
  for (let row = 0; row < length; ) {
    let take = Math.min(BATCH_SIZE, length - row);
    for (let colIdx = 0; colIdx < colCount; colIdx++) take = Math.min(take, parts[colIdx][partIdx[colIdx]].length - offset[colIdx]);
    const columns = new Array<Vector>(colCount);
    for (let colIdx = 0; colIdx < colCount; colIdx++) {
      const piece = parts[colIdx][partIdx[colIdx]];
      const start = offset[colIdx];
      columns[colIdx] = start === 0 && take === piece.length ? piece : sliceVector(piece, start, start + take);
      if (start + take === piece.length) {
        partIdx[colIdx]++;
        offset[colIdx] = 0;
      } else offset[colIdx] = start + take;
    }
    yield { length: take, columns };
    row += take;
  }
}
