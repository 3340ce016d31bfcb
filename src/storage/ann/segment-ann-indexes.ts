/**
 * The ANN index files of one segment, built from the segment's own rows as it is written (load flush,
 * compaction, BUILD INDEX): for every ANN index of the table, the vectors of its column go to the HNSW
 * builder (off the event loop, ann-builder.ts) and the file is written beside the segment under
 * segmentIndexKey(segment, index name). Segments with fewer rows than `minSegmentRows`
 * (`ann_index_build_min_segment_rows`) get no file and are searched exactly.
 *
 * A row whose vector is not exactly `dim` non-NULL floats is left out of the index (the load path filters
 * such rows before they reach a segment; this keeps a bad row from ever corrupting a build).
 */
import type { Vector } from '../../common/column';
import type { SegmentIndexRecord } from '../../meta/meta-store';
import type { IndexSchema } from '../../meta/schema';
import type { ObjectPut, ObjectStore } from '../../io/object-store';
import { processBuilder } from '../index-build-worker';
import { segmentIndexKey } from '../segment-format';
import { indexedColumns } from '../table-indexes';
import { AnnBuilder } from './ann-builder';
import { annFileSize } from './ann-file';
import type { AnnIndexParams } from './ann-params';
import { DEFAULT_MIN_SEGMENT_ROWS, parseAnnProperties } from './ann-params';

/** An ANN index of a table, resolved to its column position and parameters. */
export interface TableAnnIndex {
  readonly name: string;
  /** Position of the indexed column in the segment's columns. */
  readonly columnIdx: number;
  readonly params: AnnIndexParams;
}

/** The table's ANN indexes over `columnNames` (the segment's columns, in order). */
export function tableAnnIndexes(indexes: readonly IndexSchema[], columnNames: readonly string[]): TableAnnIndex[] {
  return indexedColumns(indexes, columnNames, 'ANN').map(({ index, columnIdx }) => ({ name: index.name, columnIdx, params: parseAnnProperties(index.properties) }));
}

/** The packed vectors of an ARRAY<FLOAT> column and the rows they belong to (rows with a bad vector skipped). */
export function indexableVectors(vec: Vector, dim: number): { vectors: Float32Array; rowIds: Int32Array | null } {
  if (vec.kind !== 'array' || vec.child.kind !== 'fixed' || !(vec.child.values instanceof Float32Array)) return { vectors: new Float32Array(0), rowIds: new Int32Array(0) };
  const { offsets, nulls } = vec;
  const child = vec.child.values;
  const childNulls = vec.child.nulls;
  const rows = new Int32Array(vec.length);
  let rowCount = 0;
  for (let row = 0; row < vec.length; row++) {
    let good = (nulls === null || nulls[row] === 0) && offsets[row + 1] - offsets[row] === dim;
    if (good && childNulls !== null) for (let pos = offsets[row]; pos < offsets[row + 1] && good; pos++) good = childNulls[pos] === 0;
    if (good) rows[rowCount++] = row;
  }
  const allRows = rowCount === vec.length;
  if (allRows && offsets[0] === 0 && offsets[vec.length] === child.length) return { vectors: child, rowIds: null };
  const vectors = new Float32Array(rowCount * dim);
  for (let idx = 0; idx < rowCount; idx++) vectors.set(child.subarray(offsets[rows[idx]], offsets[rows[idx]] + dim), idx * dim);
  return { vectors, rowIds: allRows ? null : rows.slice(0, rowCount) };
}

let sharedBuilder: AnnBuilder | null = null;

/** The process's one builder (a worker thread started on first use, unref'd while idle). */
export function annBuilder(): AnnBuilder {
  sharedBuilder ??= processBuilder(new AnnBuilder());
  return sharedBuilder;
}

/**
 * Build every ANN index file of one segment of `rowCount` rows whose columns are `data`; returns the
 * records to keep on the segment. Every key is pushed to `written` before its build starts, so a failed
 * build (which rejects) leaves the caller a complete list of objects to remove. `put`: how a file built
 * off a local store is written (default `store.put`; loads pass the upload pool's).
 */
export async function buildSegmentAnnIndexes(
  store: ObjectStore,
  indexes: readonly TableAnnIndex[],
  data: readonly Vector[],
  rowCount: number,
  segmentKey: string,
  written: string[],
  minSegmentRows = DEFAULT_MIN_SEGMENT_ROWS,
  put?: ObjectPut,
): Promise<SegmentIndexRecord[]> {
  const records: SegmentIndexRecord[] = [];
  if (rowCount < minSegmentRows) return records;
  for (const index of indexes) {
    const { vectors, rowIds } = indexableVectors(data[index.columnIdx], index.params.dim);
    const key = segmentIndexKey(segmentKey, index.name);
    written.push(key);
    const header = await annBuilder().buildObject(store, key, { params: index.params, vectors, rowIds, rowCount }, undefined, put);
    records.push({ name: index.name, kind: 'ann', key, size: annFileSize(header) });
  }
  return records;
}
