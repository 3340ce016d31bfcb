/**
 * Parallel scans over a store that is not local (RemoteLikeObjectStore): the BE keeps its scan worker
 * pool, the workers read through the BE's one FileCache (its block cache, over the FileReadService), and
 * the rows equal the in-thread scan and the in-place workers over the same files.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Backend } from '../../src/be/backend';
import { ScanWorkerPool, type ScanTask } from '../../src/be/scan-worker-pool';
import { getRaw, vectorFromRaw, type Batch, type RawValue } from '../../src/common/column';
import { Config } from '../../src/common/config';
import { mulberry32 } from '../../src/common/prng';
import { QueryProfile } from '../../src/common/profile';
import type { ScanPredicate } from '../../src/common/scan-predicate';
import { Types } from '../../src/common/types';
import type { FragmentResult, FragmentSpec } from '../../src/exec/plan/fragment-spec';
import { makeTableSchema } from '../../src/exec/memory-table';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import type { TableState } from '../../src/meta/catalog';
import type { SegmentRecord } from '../../src/meta/meta-store';
import { writeSegment } from '../../src/storage/segment-writer';
import { BARE_CATALOG } from '../helpers/bare-catalog';

const SEGMENTS = 3;
const SEGMENT_ROWS = 20_000;
const TASK_ROWS = 8192;

function rowsOf(batches: readonly Batch[]): RawValue[][] {
  const rows: RawValue[][] = [];
  for (const batch of batches) for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) rows.push(batch.columns.map((vec) => getRaw(vec, rowIdx)));
  return rows;
}

function batchesOf(results: readonly FragmentResult[]): Batch[] {
  return results.flatMap((result) => (result.kind === 'batches' ? result.batches : assert.fail('a scan without aggregate returns batches')));
}

test('parallel scans stay on over a non-local store, through the one FileCache, with the same rows', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-remote-scan-'));
  const local = new LocalObjectStore(path.join(root, 'objects'));
  const remote = new RemoteLikeObjectStore(local);
  const schema = { ...makeTableSchema('db', 't', [{ name: 'k', type: Types.INT }, { name: 's', type: Types.varchar(8) }, { name: 'x', type: Types.BIGINT }]), keyColumns: ['k'] };
  const random = mulberry32(5);
  const segments: SegmentRecord[] = [];
  for (let segmentIdx = 0; segmentIdx < SEGMENTS; segmentIdx++) {
    const keys = Array.from({ length: SEGMENT_ROWS }, (_v, rowIdx) => segmentIdx * SEGMENT_ROWS + rowIdx);
    const strings = keys.map(() => (random() < 0.1 ? null : ['a', 'bb', 'ccc'][Math.floor(random() * 3)]));
    const values = keys.map(() => (random() < 0.1 ? null : BigInt(Math.floor(random() * 1e9))));
    const columns = schema.columns.map((column) => ({ name: column.name, type: column.type, uniqueId: column.uniqueId }));
    const parts = await writeSegment(columns, [vectorFromRaw(Types.INT, keys), vectorFromRaw(Types.varchar(8), strings), vectorFromRaw(Types.BIGINT, values)], { compression: 'LZ4', numShortKeyColumns: 1, pageRowLimit: 1024 });
    const key = `data/7/1_${segmentIdx}.dat`;
    await remote.put(key, parts);
    segments.push({ key, numRows: SEGMENT_ROWS, size: parts.reduce((sum, part) => sum + part.length, 0) });
  }
  const table: TableState = {
    schema,
    dbId: 1,
    tablets: [{ id: 7, tableId: schema.id, bucket: 0 }],
    rowsets: [{ id: 1, tabletId: 7, tableId: schema.id, txnId: 1, version: 2, segments, numRows: SEGMENTS * SEGMENT_ROWS, dataSize: 0, createTime: 0 }],
    visibleVersion: 2,
  };
  const predicates: ScanPredicate[] = [{ column: 'k', op: '>=', value: 5000 }];
  const fragment: FragmentSpec = { columns: schema.columns, predicates, filter: null, aggregate: null };
  const tasks: ScanTask[] = [];
  for (const segment of segments) {
    for (let rowStart = 0; rowStart < segment.numRows; rowStart += TASK_ROWS) tasks.push({ segmentKey: segment.key, segmentSize: segment.size, rowStart, rowEnd: Math.min(segment.numRows, rowStart + TASK_ROWS), fragment });
  }
  const runAll = async (pool: ScanWorkerPool, profile: QueryProfile): Promise<RawValue[][]> => rowsOf(batchesOf(await Promise.all(tasks.map((task) => pool.run(task, profile)))));

  const config = new Config({ data_dir: root, scan_thread_num: 2, file_cache_path: JSON.stringify([{ path: path.join(root, 'file_cache'), total_size: 64 << 20 }]) });
  const backend = await Backend.open(config, BARE_CATALOG, remote);
  const inPlace = new ScanWorkerPool(2, { objectRoot: local.root, pageCacheBytes: 1 << 20 });
  try {
    assert.equal(backend.fileCache.kind, 'block');
    const pool = backend.scanPool();
    assert.ok(pool !== null, 'a remote store keeps the scan worker pool');
    assert.equal(pool.readsThroughService, true);
    const cold = new QueryProfile('cold', '', 'u', 'd');
    remote.resetCounters();
    const parallel = await runAll(pool, cold);
    assert.ok(cold.get('FileCacheMisses') > 0 && cold.get('ObjectStoreRequests') > 0, `worker reads missed into the object store: ${JSON.stringify([...cold.counters])}`);
    assert.equal(cold.get('ObjectStoreRequests'), remote.getRequests + remote.headRequests);
    assert.equal(backend.fileCache.stats().misses, cold.get('FileCacheMisses'), 'the misses are the main FileCache’s');

    const inThread = new QueryProfile('in-thread', '', 'u', 'd');
    const batches: Batch[] = [];
    for await (const batch of backend.openTable(table).scan({ columns: schema.columns.map((column) => column.name), predicates, limit: null, profile: inThread })) batches.push(batch);
    const expected = rowsOf(batches);
    // Pruning drops whole pages: the rows of the first pages below k = 5000 are gone, the rest kept.
    assert.ok(expected.length >= SEGMENTS * SEGMENT_ROWS - 5000 && expected.length < SEGMENTS * SEGMENT_ROWS, String(expected.length));
    assert.deepEqual(parallel, expected);
    assert.deepEqual(await runAll(inPlace, new QueryProfile('local', '', 'u', 'd')), expected, 'in-place workers read the same rows');

    // Workers forget the segments (their readers and pages); the blocks are still in the one cache.
    await backend.fileCache.flush();
    for (const segment of segments) pool.invalidate(segment.key);
    remote.resetCounters();
    const warm = new QueryProfile('warm', '', 'u', 'd');
    assert.deepEqual(await runAll(pool, warm), expected);
    assert.equal(remote.requests, 0, 'a warm cache answers every worker read');
    assert.ok(warm.get('FileCacheHits') > 0);
    assert.equal(warm.get('FileCacheMisses'), 0);
    // A read error in the service is the worker task's error, code and message kept.
    await assert.rejects(pool.run({ ...tasks[0], segmentKey: 'data/7/none.dat' }, warm), (err: Error & { code?: string }) => err.code === 'IO_ERROR' && /none\.dat/.test(err.message));
  } finally {
    await inPlace.close();
    await backend.close();
  }
});
