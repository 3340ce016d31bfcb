/**
 * The BE side of an ANN scan (OlapTableSource.scanAnn, be/ann-segment-scan.ts) over a store that is not
 * local (RemoteLikeObjectStore): index files are read through the BE's one FileCache (the workers over the
 * FileReadService) into private temporary files, one scan-worker task per segment, and the in-thread path
 * (no worker pool) gives the same rows; both against an exact scan of the same vectors.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Backend } from '../../src/be/backend';
import { getRaw, vectorFromRaw, type Batch, type Vector } from '../../src/common/column';
import { Config } from '../../src/common/config';
import { QueryProfile } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import { makeTableSchema } from '../../src/exec/memory-table';
import type { AnnScanRequest } from '../../src/exec/plan/fragment-spec';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import type { TableState } from '../../src/meta/catalog';
import type { SegmentRecord } from '../../src/meta/meta-store';
import { buildSegmentAnnIndexes, tableAnnIndexes } from '../../src/storage/ann/segment-ann-indexes';
import { exactTopK } from '../../src/storage/ann/exact-scan';
import { writeSegment } from '../../src/storage/segment-writer';
import { mixtureDataSet } from '../../bench/lib/vector-data';
import { BARE_CATALOG } from '../helpers/bare-catalog';

const DIM = 8;
const SEGMENTS = 2;
const SEGMENT_ROWS = 12_000;
const K = 10;

function vectorColumn(values: Float32Array, rows: number): Vector {
  const offsets = new Int32Array(rows + 1);
  for (let row = 0; row <= rows; row++) offsets[row] = row * DIM;
  return { kind: 'array', type: Types.array(Types.FLOAT), length: rows, offsets, child: { kind: 'fixed', type: Types.FLOAT, length: values.length, values, nulls: null }, nulls: null } as Vector;
}

test('ANN scan over a non-local store: index files through the FileCache, per-segment worker tasks and in-thread agree with exact search', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-ann-remote-'));
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(path.join(root, 'objects')));
  const base = makeTableSchema('db', 't', [
    { name: 'id', type: Types.INT, nullable: false },
    { name: 'embedding', type: Types.array(Types.FLOAT), nullable: false },
  ]);
  const schema = { ...base, keyColumns: ['id'], indexes: [{ name: 'idx', columns: ['embedding'], indexType: 'ANN', properties: { index_type: 'hnsw', metric_type: 'l2_distance', dim: String(DIM) }, comment: '' }] };
  const data = mixtureDataSet(SEGMENTS * SEGMENT_ROWS, 4, DIM, 9);
  const segments: SegmentRecord[] = [];
  for (let segmentIdx = 0; segmentIdx < SEGMENTS; segmentIdx++) {
    const ids = Array.from({ length: SEGMENT_ROWS }, (_v, rowIdx) => segmentIdx * SEGMENT_ROWS + rowIdx);
    const vectors = data.base.slice(segmentIdx * SEGMENT_ROWS * DIM, (segmentIdx + 1) * SEGMENT_ROWS * DIM);
    const columnData = [vectorFromRaw(Types.INT, ids), vectorColumn(vectors, SEGMENT_ROWS)];
    const columns = schema.columns.map((column) => ({ name: column.name, type: column.type, uniqueId: column.uniqueId }));
    const parts = await writeSegment(columns, columnData, { compression: 'LZ4', numShortKeyColumns: 1, pageRowLimit: 1024 });
    const key = `data/9/1_${segmentIdx}.dat`;
    await remote.put(key, parts);
    const written: string[] = [];
    const indexes = await buildSegmentAnnIndexes(remote, tableAnnIndexes(schema.indexes, ['id', 'embedding']), columnData, SEGMENT_ROWS, key, written);
    assert.equal(indexes.length, 1);
    segments.push({ key, numRows: SEGMENT_ROWS, size: parts.reduce((sum, part) => sum + part.length, 0), indexes });
  }
  // One rowset (load) per segment.
  const rowsets = segments.map((segment, loadIdx) => ({ id: loadIdx + 1, tabletId: 9, tableId: schema.id, txnId: loadIdx + 1, version: loadIdx + 2, segments: [segment], numRows: SEGMENT_ROWS, dataSize: 0, createTime: 0 }));
  const table: TableState = { schema, dbId: 1, tablets: [{ id: 9, tableId: schema.id, bucket: 0 }], rowsets, visibleVersion: rowsets.length + 1 };
  const query = data.queries.slice(0, DIM);
  const truth = new Set(Array.from(exactTopK('l2_distance', data.base, DIM, SEGMENTS * SEGMENT_ROWS, query, K).positions));
  const request: AnnScanRequest = { indexName: 'idx', query, k: K, radius: null, ef: 64, filterColumns: [], filter: null, distance: true };
  const search = async (backend: Backend, profile: QueryProfile): Promise<[number, number][]> => {
    const batches: Batch[] = [];
    for await (const batch of backend.openTable(table).scanAnn({ columns: ['id'], predicates: [], limit: null, profile, indexScan: { perSegment: true } }, request)) batches.push(batch);
    const rows: [number, number][] = [];
    for (const batch of batches) for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) rows.push([Number(getRaw(batch.columns[0], rowIdx)), Number(getRaw(batch.columns[1], rowIdx))]);
    return rows.sort((a, b) => a[1] - b[1]).slice(0, K);
  };
  const fileCache = JSON.stringify([{ path: path.join(root, 'file_cache'), total_size: 64 << 20 }]);
  const parallel = await Backend.open(new Config({ data_dir: root, scan_thread_num: 2, parallel_scan_min_rows_per_scanner: 1000, ann_search_in_thread_max_segments: 0, file_cache_path: fileCache }), BARE_CATALOG, remote);
  const inThread = await Backend.open(new Config({ data_dir: path.join(root, 'b'), scan_thread_num: 0, file_cache_path: JSON.stringify([{ path: path.join(root, 'file_cache_b'), total_size: 64 << 20 }]) }), BARE_CATALOG, remote);
  try {
    assert.equal(parallel.fileCache.kind, 'block');
    const workers = new QueryProfile('workers', '', 'u', 'd');
    const fromWorkers = await search(parallel, workers);
    assert.equal(workers.get('ParallelScanTasks'), SEGMENTS, 'one task per segment');
    assert.equal(workers.get('AnnSegmentsSearchedByIndex'), SEGMENTS);
    assert.equal(workers.get('AnnRowsReturned'), SEGMENTS * K);
    assert.ok(workers.get('FileCacheMisses') > 0, 'index files come through the FileCache');
    assert.equal(workers.columnStats.get('embedding'), undefined, 'index-only: no vector read');
    const local = new QueryProfile('in-thread', '', 'u', 'd');
    const fromThread = await search(inThread, local);
    assert.equal(local.get('ParallelScanTasks'), 0);
    assert.equal(local.get('AnnSegmentsSearchedByIndex'), SEGMENTS);
    assert.equal(fs.readdirSync(path.join(root, 'b', 'ann_index_tmp')).length, SEGMENTS, 'the in-thread search viewed private copies of the remote index files');
    assert.equal(fs.readdirSync(path.join(root, 'ann_index_tmp')).length, SEGMENTS, "so did the workers, in their BE's directory");
    for (const rows of [fromWorkers, fromThread]) {
      assert.equal(rows.length, K);
      assert.ok(rows.filter(([id]) => truth.has(id)).length >= K - 1, `recall: ${JSON.stringify(rows)}`);
      for (const [id, distance] of rows) {
        let sum = 0;
        for (let dimIdx = 0; dimIdx < DIM; dimIdx++) sum += (data.base[id * DIM + dimIdx] - query[dimIdx]) ** 2;
        assert.ok(Math.abs(Math.sqrt(sum) - distance) < 1e-4, `distance of ${id}`);
      }
    }
    assert.deepEqual(fromThread, fromWorkers, 'the same search in-thread and in the workers');
    // A warm repeat: the workers keep their open index readers.
    const warm = new QueryProfile('warm', '', 'u', 'd');
    assert.deepEqual(await search(parallel, warm), fromWorkers);
    assert.equal(warm.get('FileCacheMisses'), 0);
  } finally {
    await parallel.close();
    await inThread.close();
  }
  assert.ok(!fs.existsSync(path.join(root, 'ann_index_tmp')) && !fs.existsSync(path.join(root, 'b', 'ann_index_tmp')), 'closing the BE removes the copies');
});
