/**
 * Entry point of a scan worker thread (see scan-worker-pool.ts): reads the rows of one segment range
 * through its own segment readers and page cache — files read in place (a local store) or through the
 * main thread's FileCache (a FileReadClient on the port it was given) — runs the task's scan fragment over them and posts
 * back the result (partial aggregate states or filtered rows) with the profile counters it added.
 * Vectors are compacted before posting: a zero-copy slice of a cached page would otherwise drag the
 * whole page buffer through the structured clone.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Batch, Vector } from '../common/column';
import { QueryProfile, type ProfileSink } from '../common/profile';
import { runFragment } from '../exec/parallel/run-fragment';
import type { FragmentResult } from '../exec/plan/fragment-spec';
import type { FileOpener } from '../io/file-cache';
import { FileReadClient, errorToWire } from '../io/file-read-service';
import { InPlaceFileCache } from '../io/in-place-file-cache';
import { LocalObjectStore } from '../io/local-object-store';
import { VaultObjectStore } from '../io/vault-object-store';
import { PageCache } from '../storage/page-cache';
import { RowRanges } from '../storage/row-ranges';
import { SegmentReader } from '../storage/segment-reader';
import { globalRowIdVector } from './global-row-id';
import { batchesOfParts, excludeRows } from './olap-table-source';
import { AnnIndexCache, searchAnnSegment } from './ann-segment-scan';
import { readColumns } from './segment-columns';
import { applyRuntimeFilterRanges } from './runtime-filter-rows';
import { applyInvertedFilter, InvertedIndexCache, openInvertedReader, type SegmentInvertedIndexes } from './inverted-segment-filter';
import type { ScanTask, ScanWorkerData, ScanWorkerReply, ScanWorkerRequest } from './scan-worker-pool';

/** Open segment readers kept per worker. */
const READER_CACHE_SIZE = 1024;

const data = workerData as ScanWorkerData;
/** The local directory read in place; keys of remote storage vaults (kindOf) go to the main thread's FileCache. */
const localStore = data.objectRoot !== null ? new VaultObjectStore(new LocalObjectStore(data.objectRoot)) : null;
const fileCache: FileOpener = openerOf(localStore, data.readPort === null ? null : new FileReadClient(data.readPort));
/** ANN index files, viewed in place on a local store (usearch memory-maps them: every worker shares the pages). */
const annIndexes = new AnnIndexCache(fileCache, localStore !== null ? (key) => localStore.localPath(key) : null, data.annTempDir);

/** In place for the local store's keys, through the read port for the others. */
function openerOf(local: VaultObjectStore | null, remote: FileOpener | null): FileOpener {
  if (local === null) return remote!;
  const inPlace = new InPlaceFileCache(local);
  if (remote === null) return inPlace;
  return { open: (key, profile, knownSize) => (local.kindOf(key) === 'local' ? inPlace : remote).open(key, profile, knownSize) };
}
const pageCache = new PageCache(data.pageCacheBytes);
const invertedIndexes = new InvertedIndexCache(fileCache, openInvertedReader);
const readers = new Map<string, Promise<SegmentReader>>();

function openReader(key: string, size: number, profile: ProfileSink): Promise<SegmentReader> {
  let reader = readers.get(key);
  if (reader !== undefined) {
    readers.delete(key);
    readers.set(key, reader);
    return reader;
  }
  const onDamage = (): void => {
    if (readers.get(key) === opened) readers.delete(key);
  };
  const opened = fileCache.open(key, profile, size).then((file) => SegmentReader.open(file, { pageCache, profile, onDamage }));
  reader = opened;
  reader.catch(() => readers.delete(key));
  readers.set(key, reader);
  if (readers.size > READER_CACHE_SIZE) readers.delete(readers.keys().next().value as string);
  return reader;
}

/** A vector whose arrays own exactly their bytes (no view into a larger cached buffer). */
function compact(vec: Vector): Vector {
  const nulls = vec.nulls === null ? null : vec.nulls.slice();
  switch (vec.kind) {
    case 'fixed':
      return { ...vec, values: vec.values.slice(), nulls };
    case 'dict':
      return { ...vec, codes: vec.codes.slice(), nulls };
    case 'string':
      return { ...vec, offsets: vec.offsets.slice(), bytes: vec.bytes.slice(), nulls };
    case 'object':
      return { kind: 'object', type: vec.type, length: vec.length, values: Array.from(vec.values), nulls };
    case 'array':
      return { ...vec, offsets: vec.offsets.slice(), child: compact(vec.child), nulls };
    case 'struct':
      return { ...vec, children: vec.children.map(compact), nulls };
  }
}

function compactResult(result: FragmentResult): FragmentResult {
  if (result.kind === 'partial') return { kind: 'partial', partial: { ...result.partial, keys: result.partial.keys.map(compact) } };
  return { kind: 'batches', batches: result.batches.map((batch): Batch => ({ length: batch.length, columns: batch.columns.map(compact) })) };
}

/** The task's inverted index files, opened through this worker's cache. */
function invertedIndexesOf(task: ScanTask): SegmentInvertedIndexes {
  return { records: task.invertedIndexes, open: (record, profile) => invertedIndexes.open(record, profile) };
}

async function runTask(task: ScanTask, profile: ProfileSink): Promise<FragmentResult> {
  if (task.debugFault === 'exit') process.exit(70);
  const { fragment } = task;
  const reader = await openReader(task.segmentKey, task.segmentSize, profile);
  if (fragment.ann !== undefined) {
    const index = task.annIndex === undefined ? null : await annIndexes.open(task.annIndex.key, task.annIndex.size, profile);
    return { kind: 'batches', batches: await searchAnnSegment(reader, index, { ...fragment, ann: fragment.ann }, task.excludedRows, profile, task.segmentOrdinal, invertedIndexesOf(task)) };
  }
  let ranges = RowRanges.range(task.rowStart, Math.min(task.rowEnd, reader.numRows));
  if (task.excludedRows !== undefined) ranges = excludeRows(ranges, task.excludedRows);
  if (fragment.predicates.length > 0) ranges = ranges.intersect(await reader.pruneRows(fragment.predicates, profile));
  if (fragment.inverted !== undefined) ranges = await applyInvertedFilter(reader, ranges, fragment.inverted, invertedIndexesOf(task), profile);
  profile.add('RowsRead', ranges.count());
  if (fragment.runtimeFilters !== undefined) ranges = await applyRuntimeFilterRanges(reader, ranges, fragment, profile);
  const rowCount = ranges.count();
  if (rowCount === 0) return runFragment(fragment, []);
  const parts = await readColumns(reader, fragment.columns, ranges, rowCount, profile);
  if (fragment.globalRowId === true) parts.push([globalRowIdVector(task.segmentOrdinal!, ranges, reader.numRows)]);
  return runFragment(fragment, batchesOfParts({ length: rowCount, parts }));
}

parentPort!.on('message', (message: ScanWorkerRequest) => {
  if (message.kind === 'invalidate') {
    readers.delete(message.segmentKey);
    pageCache.invalidateFile(message.segmentKey);
    annIndexes.invalidate(message.segmentKey);
    invertedIndexes.invalidate(message.segmentKey);
    return;
  }
  if (message.kind === 'clear-memory-caches') {
    readers.clear();
    pageCache.clear();
    return;
  }
  // A QueryProfile, so the segment reader records per-column reads too; both go back with the result.
  const profile = new QueryProfile('scan-task', '', '', '');
  runTask(message.task, profile).then(
    (result) =>
      parentPort!.postMessage({
        kind: 'done',
        taskId: message.taskId,
        result: compactResult(result),
        counters: [...profile.counters],
        columnReads: [...profile.columnStats].map(([column, stats]) => [column, stats.rows, stats.bytes]),
      } satisfies ScanWorkerReply),
    (err: unknown) => parentPort!.postMessage({ kind: 'failed', taskId: message.taskId, error: errorToWire(err) } satisfies ScanWorkerReply),
  );
});
