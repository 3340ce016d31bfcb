/**
 * The CPU-heavy part of a compaction — read the input rowsets of one tablet through the table model
 * (merge-on-read, delete bitmap, delete predicates), then write the surviving rows as new segments — as a
 * plain function over plain data, so it runs the same in the compaction worker thread and in-thread.
 * It commits nothing: the caller swaps rowsets in the catalog.
 */
import { Batch, concatVectors } from '../common/column';
import { QueryProfile } from '../common/profile';
import { withReadKind, type FileCache } from '../io/file-cache';
import type { ObjectStore } from '../io/object-store';
import { TableWriteOptions, writeTableRows, WrittenLoad } from '../load/table-writer';
import type { TableState } from '../meta/catalog';
import { PageCache } from '../storage/page-cache';
import { SegmentReader } from '../storage/segment-reader';
import { OlapTableSource, SegmentOpener } from './olap-table-source';

/** Compaction reads each page once: a small cache of its own keeps them out of the query page cache. */
export const COMPACTION_PAGE_CACHE_BYTES = 64 * 1024 * 1024;

/** `slice` holds exactly one tablet and the rowsets to merge; returns what was written under `txnId`. */
export async function mergeTabletRowsets(slice: TableState, fileCache: FileCache, store: ObjectStore, txnId: number, writeOptions: TableWriteOptions = {}): Promise<WrittenLoad> {
  const pageCache = new PageCache(COMPACTION_PAGE_CACHE_BYTES);
  const opener: SegmentOpener = {
    // Compaction's reads fill the file cache's disposable queue (evicted first), as Doris's do.
    openSegment: async (segment, sink) => SegmentReader.open(withReadKind(await fileCache.open(segment.key, sink, segment.size), 'disposable'), { pageCache, profile: sink }),
  };
  const profile = new QueryProfile('compaction', '', 'compaction', slice.schema.databaseName);
  const source = new OlapTableSource(slice, opener);
  const parts: Batch[] = [];
  for await (const batch of source.scan({ columns: slice.schema.columns.map((column) => column.name), predicates: [], limit: null, profile })) parts.push(batch);
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const merged: Batch = { length, columns: slice.schema.columns.map((column, colIdx) => concatVectors(column.type, parts.map((part) => part.columns[colIdx]))) };
  // Only visible rows are written, so the merged segments' ANN index files hold no deleted row.
  return writeTableRows(store, slice, merged, txnId, undefined, undefined, writeOptions);
}
