/**
 * The inverted-index files of one segment, built from the segment's own rows as it is written (load
 * flush, INSERT, group commit, compaction, merge-on-write rewrites: every path goes through
 * writeTableRows) and by BUILD INDEX for segments written before the index existed. Unlike ANN there is
 * no size threshold: every segment gets a file for every inverted index of the table, so a segment
 * without one is exactly a segment written before its index (answered row by row until BUILD INDEX).
 */
import type { Vector } from '../../common/column';
import type { DataType } from '../../common/types';
import { elementType, isArrayType } from '../../common/types';
import type { ObjectPut, ObjectStore } from '../../io/object-store';
import type { SegmentIndexRecord } from '../../meta/meta-store';
import type { IndexSchema } from '../../meta/schema';
import { processBuilder } from '../index-build-worker';
import { segmentIndexKey } from '../segment-format';
import { indexedColumns } from '../table-indexes';
import type { AnalyzerConfig } from './analyzer';
import { analyzerFor } from './inverted-params';
import { InvertedBuilder } from './inverted-builder';

/** An inverted index of a table, resolved to its column position and analyzer. */
export interface TableInvertedIndex {
  readonly name: string;
  readonly columnIdx: number;
  readonly analyzer: AnalyzerConfig;
}

/** Column types an inverted file can hold: scalars, and ARRAYs of scalars (each element indexed). */
export function invertedIndexable(type: DataType): boolean {
  return isArrayType(type) ? !isArrayType(elementType(type)) && elementType(type).name !== 'NULL' : type.name !== 'NULL';
}

/**
 * The table's inverted indexes over `columns` (the segment's columns, in order). An index no file can hold
 * — a column type the DDL refuses, or an analyzer this process cannot run (parser chinese without its
 * segmenter) — is left out, so it never fails a load: its segments are answered row by row, where the
 * match functions give the user the analyzer's error.
 */
export function tableInvertedIndexes(indexes: readonly IndexSchema[], columns: readonly { readonly name: string; readonly type: DataType }[]): TableInvertedIndex[] {
  const out: TableInvertedIndex[] = [];
  for (const { index, columnIdx } of indexedColumns(indexes, columns.map((column) => column.name), 'INVERTED')) {
    if (!invertedIndexable(columns[columnIdx].type)) continue;
    const analyzer = analyzerOrNull(index);
    if (analyzer) out.push({ name: index.name, columnIdx, analyzer });
  }
  return out;
}

function analyzerOrNull(index: IndexSchema): AnalyzerConfig | null {
  try {
    return analyzerFor(index);
  } catch {
    return null;
  }
}

let sharedBuilder: InvertedBuilder | null = null;

/** The process's one inverted-index builder (a worker thread started on first use, unref'd while idle). */
export function invertedBuilder(): InvertedBuilder {
  sharedBuilder ??= processBuilder(new InvertedBuilder());
  return sharedBuilder;
}

/**
 * Build every inverted-index file of one segment whose columns are `data`; returns the records to keep on
 * the segment. Every key is pushed to `written` before its build starts, so a failed build (which
 * rejects) leaves the caller a complete list of objects to remove. `put`: how a file built off a local
 * store is written (default `store.put`; loads pass the upload pool's).
 */
export async function buildSegmentInvertedIndexes(store: ObjectStore, indexes: readonly TableInvertedIndex[], data: readonly Vector[], segmentKey: string, written: string[], put?: ObjectPut): Promise<SegmentIndexRecord[]> {
  const records: SegmentIndexRecord[] = [];
  for (const index of indexes) {
    const key = segmentIndexKey(segmentKey, index.name);
    written.push(key);
    const info = await invertedBuilder().buildObject(store, key, { vector: data[index.columnIdx], analyzer: index.analyzer }, undefined, put);
    records.push({ name: index.name, kind: 'inverted', key, size: info.size });
  }
  return records;
}
