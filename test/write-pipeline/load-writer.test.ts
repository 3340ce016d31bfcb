/**
 * A load's write side through the BE's write pipeline (LoadWriter over a WritePipeline), against a local
 * directory, a remote-like store with upload latency and the S3 server behind the fault proxy: memtables
 * accumulate over batches and flush at write_buffer_size, segments are encoded in the flush workers and
 * read back whole, the load memory limit makes writers wait and bounds the memory, backpressure follows
 * the upload queue for remote stores and the flush count otherwise (and the old policy on request), and
 * an upload that finally fails fails the load, after which its objects can all be deleted.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { batchBytes, getRaw, vectorFromRaw, type Batch } from '../../src/common/column';
import { GaleneError } from '../../src/common/errors';
import { Types } from '../../src/common/types';
import { makeTableSchema } from '../../src/exec/memory-table';
import { InPlaceFileCache } from '../../src/io/in-place-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import type { ObjectStore } from '../../src/io/object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import { S3ObjectStore } from '../../src/io/s3-object-store';
import type { TableState } from '../../src/meta/catalog';
import type { NewRowset } from '../../src/meta/meta-store';
import { PageCache } from '../../src/storage/page-cache';
import { SegmentReader } from '../../src/storage/segment-reader';
import { NO_PROFILE } from '../../src/common/profile';
import { LoadWriter } from '../../src/load/write-pipeline/load-writer';
import { WritePipeline, type WritePipelineSettings } from '../../src/load/write-pipeline/write-pipeline';
import { useS3BehindProxy } from '../helpers/s3-behind-proxy';

const pipelines: WritePipeline[] = [];
after(async () => {
  await Promise.all(pipelines.map((pipeline) => pipeline.close()));
});

function pipelineWith(settings: Partial<WritePipelineSettings>): WritePipeline {
  const pipeline = new WritePipeline({ flushThreadsMin: 2, flushThreadsMax: 2, ...settings });
  pipelines.push(pipeline);
  return pipeline;
}

function table(buckets: number, keysType: 'DUPLICATE' | 'UNIQUE' = 'DUPLICATE'): TableState {
  const schema = { ...makeTableSchema('db', 't', [{ name: 'k', type: Types.INT }, { name: 's', type: Types.varchar(16) }], 9), keysType, keyColumns: ['k'], distribution: { type: 'HASH' as const, columns: ['k'], buckets } };
  return { schema, dbId: 1, tablets: Array.from({ length: buckets }, (_v, bucket) => ({ id: 100 + bucket, tableId: 9, bucket })), rowsets: [], visibleVersion: 1 };
}

/** s of row k: 'v000123' (fixed width, so that every batch of a size has the same bytes). */
const sOf = (key: number, tag = 'v'): string => `${tag}${String(key).padStart(6, '0')}`;

/** Rows [start, start + count): k = row number, s = sOf(k). */
function batchOf(start: number, count: number, tag = 'v'): Batch {
  const keys = Array.from({ length: count }, (_v, rowIdx) => start + rowIdx);
  return { length: count, columns: [vectorFromRaw(Types.INT, keys), vectorFromRaw(Types.varchar(16), keys.map((key) => sOf(key, tag)))] };
}

function tempStore(): LocalObjectStore {
  return new LocalObjectStore(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-wpipe-')));
}

/** Every row of the rowsets' segments, read back from the store, as "k:s" sorted. */
async function readBack(store: ObjectStore, rowsets: readonly NewRowset[]): Promise<string[]> {
  const files = new InPlaceFileCache(store);
  const rows: string[] = [];
  for (const rowset of rowsets) {
    for (const segment of rowset.segments) {
      const reader = await SegmentReader.open(await files.open(segment.key, NO_PROFILE, segment.size), { pageCache: new PageCache(1 << 20), profile: NO_PROFILE });
      const columns = await Promise.all(['k', 's'].map((name) => reader.readColumn(name, null, NO_PROFILE)));
      for (let rowIdx = 0; rowIdx < segment.numRows; rowIdx++) rows.push(`${getRaw(columns[0], rowIdx)}:${getRaw(columns[1], rowIdx)}`);
    }
  }
  await files.close();
  return rows.sort();
}

test('memtables accumulate across batches and flush at write_buffer_size; the segments hold every row', async () => {
  const store = tempStore();
  const oneBatch = batchBytes(batchOf(0, 1000));
  const target = table(1);
  // Four batches fill a memtable: 10 batches -> flushes after batches 4 and 8, the rest at finish.
  const writer = new LoadWriter(pipelineWith({ writeBufferSize: 4 * oneBatch - 1 }), store, target, 1);
  for (let batchIdx = 0; batchIdx < 10; batchIdx++) await writer.add(batchOf(batchIdx * 1000, 1000));
  assert.equal(writer.memtableFlushes, 2, 'two memtables filled up during the load');
  const rowsets = await writer.finish();
  writer.close();
  assert.equal(writer.memtableFlushes, 3);
  assert.equal(rowsets.length, 1);
  assert.equal(rowsets[0].segments.length, 3, 'one segment per memtable, not one per batch');
  assert.equal(rowsets[0].numRows, 10_000);
  assert.deepEqual(rowsets[0].segments.map((segment) => segment.numRows), [4000, 4000, 2000]);
  const expected = Array.from({ length: 10_000 }, (_v, key) => `${key}:${sOf(key)}`).sort();
  assert.deepEqual(await readBack(store, rowsets), expected);

  // A large buffer: the whole load is one memtable per tablet (four tablets -> four segments).
  const big = new LoadWriter(pipelineWith({}), store, table(4), 2);
  for (let batchIdx = 0; batchIdx < 10; batchIdx++) await big.add(batchOf(batchIdx * 1000, 1000));
  assert.equal(big.memtableFlushes, 0);
  const bigRowsets = await big.finish();
  big.close();
  assert.equal(bigRowsets.length, 4);
  assert.deepEqual(bigRowsets.map((rowset) => rowset.segments.length), [1, 1, 1, 1]);
  assert.deepEqual(await readBack(store, bigRowsets), expected);
});

test('a batch larger than write_buffer_size is split over memtables of that size', async () => {
  const store = tempStore();
  const oneBatch = batchBytes(batchOf(0, 1000));
  const writer = new LoadWriter(pipelineWith({ writeBufferSize: Math.ceil(oneBatch / 4) }), store, table(1), 5);
  await writer.add(batchOf(0, 1000));
  assert.equal(writer.memtableFlushes, 4, 'one batch filled four memtables');
  const rowsets = await writer.finish();
  writer.close();
  assert.deepEqual(rowsets[0].segments.map((segment) => segment.numRows), [250, 250, 250, 250]);
  assert.deepEqual(await readBack(store, rowsets), Array.from({ length: 1000 }, (_v, key) => `${key}:${sOf(key)}`).sort());
});

test('a UNIQUE KEY load keeps the last row of a key across batches of one memtable and across memtables', async () => {
  const store = tempStore();
  const oneBatch = batchBytes(batchOf(0, 500, 'r0_'));
  const writer = new LoadWriter(pipelineWith({ writeBufferSize: 2 * oneBatch - 1 }), store, table(1, 'UNIQUE'), 3);
  for (let round = 0; round < 5; round++) await writer.add(batchOf(0, 500, `r${round}_`));
  const rowsets = await writer.finish();
  writer.close();
  // Memtables of rounds (0,1), (2,3), (4): in write order, so the newest segment wins on read.
  assert.deepEqual(rowsets[0].segments.map((segment) => segment.numRows), [500, 500, 500]);
  const lastSegment = await readBack(store, [{ ...rowsets[0], segments: [rowsets[0].segments[2]] }]);
  assert.equal(lastSegment[0], `0:${sOf(0, 'r4_')}`);
  const firstSegment = await readBack(store, [{ ...rowsets[0], segments: [rowsets[0].segments[0]] }]);
  assert.ok(firstSegment.every((row) => row.includes(':r1_')), 'within a memtable the later batch wins');
});

test('the load memory hard limit makes writers wait and bounds load memory to the limit plus one batch', async () => {
  const store = new RemoteLikeObjectStore(tempStore(), { latencyMs: 20 });
  const oneBatch = batchBytes(batchOf(0, 2000));
  const pipeline = pipelineWith({ writeBufferSize: 1 << 30, hardLimitBytes: 3 * oneBatch, softLimitPercent: 50, useUploadQueue: false, flushRunningLimit: 1000 });
  const writer = new LoadWriter(pipeline, store, table(1), 4);
  for (let batchIdx = 0; batchIdx < 12; batchIdx++) await writer.add(batchOf(batchIdx * 2000, 2000));
  const rowsets = await writer.finish();
  writer.close();
  assert.ok(writer.waitFlushLimitNs > 0, 'writers waited for the memory limit');
  assert.ok(pipeline.stats.waitFlushLimitCount > 0);
  assert.ok(pipeline.memory.peakBytes <= 3 * oneBatch + oneBatch, `peak ${pipeline.memory.peakBytes} <= limit + one batch`);
  assert.ok(pipeline.memory.softLimitFlushes > 0, 'the soft limit flushed memtables early');
  assert.equal(pipeline.memory.bytes, 0, 'all load memory given back');
  assert.equal(rowsets[0].numRows, 24_000);
});

/** Load 8 batches of 4 tablets, each batch filling every tablet's memtable: one segment per tablet per batch. */
async function loadManySegments(pipeline: WritePipeline, store: ObjectStore, txnId: number): Promise<LoadWriter> {
  const writer = new LoadWriter(pipeline, store, table(4), txnId);
  for (let batchIdx = 0; batchIdx < 8; batchIdx++) await writer.add(batchOf(batchIdx * 400, 400));
  await writer.finish();
  writer.close();
  return writer;
}

/** Occupy the pipeline's upload pool (one thread) with `count` slow uploads: the queue is count - 1 long. */
function occupyUploads(pipeline: WritePipeline, count: number): Promise<void[]> {
  const slow = new RemoteLikeObjectStore(tempStore(), { latencyMs: 40 });
  return Promise.all(Array.from({ length: count }, (_v, idx) => pipeline.uploadPool.put(slow, `busy/${idx}`, [new Uint8Array(1)])));
}

test('backpressure: a remote store waits on the upload queue, a local one on the flush count, the old policy on the flush count', async () => {
  const slowRemote = (): RemoteLikeObjectStore => new RemoteLikeObjectStore(tempStore(), { latencyMs: 30 });
  const common = { writeBufferSize: 1024, hardLimitBytes: 1 << 30, uploadThreads: 1 };
  // Remote, new policy: a queue above the threshold (0) holds writers back even with a huge flush limit.
  const byQueue = pipelineWith({ ...common, uploadQueueBusyThreshold: 0, flushRunningLimit: 1000 });
  const busy = occupyUploads(byQueue, 3);
  assert.equal(byQueue.uploadPool.queueSize, 2);
  assert.ok((await loadManySegments(byQueue, slowRemote(), 10)).waitFlushLimitNs > 0, 'waited on the upload queue');
  await busy;
  // Remote, old policy: the queue is ignored; with a huge flush limit nobody waits.
  const oldPolicy = pipelineWith({ ...common, uploadQueueBusyThreshold: 0, flushRunningLimit: 1000, useUploadQueue: false });
  const oldBusy = occupyUploads(oldPolicy, 3);
  assert.equal((await loadManySegments(oldPolicy, slowRemote(), 11)).waitFlushLimitNs, 0, 'the old policy does not read the queue');
  await oldBusy;
  // Remote, old policy, flush limit 1: each tablet writer waits for its running flush (flush + upload).
  const oldTight = pipelineWith({ ...common, uploadQueueBusyThreshold: 0, flushRunningLimit: 1, useUploadQueue: false });
  assert.ok((await loadManySegments(oldTight, slowRemote(), 12)).waitFlushLimitNs > 0, 'waited on the flush count');
  // Remote, new policy with a high threshold: neither the queue nor the flush count (limit 1) holds anyone back.
  const relaxed = pipelineWith({ ...common, uploadQueueBusyThreshold: 10_000, flushRunningLimit: 1 });
  assert.equal((await loadManySegments(relaxed, slowRemote(), 13)).waitFlushLimitNs, 0, 'a remote store ignores the flush count');
  // Local: the flush count, never the queue.
  const local = pipelineWith({ ...common, uploadQueueBusyThreshold: 0, flushRunningLimit: 1 });
  assert.ok((await loadManySegments(local, tempStore(), 14)).waitFlushLimitNs > 0, 'a local store waits on the flush count');
  const localRelaxed = pipelineWith({ ...common, uploadQueueBusyThreshold: 0, flushRunningLimit: 1000 });
  const localBusy = occupyUploads(localRelaxed, 3);
  assert.equal((await loadManySegments(localRelaxed, tempStore(), 15)).waitFlushLimitNs, 0, 'a local store ignores the upload queue');
  await localBusy;
});

const s3 = useS3BehindProxy();

test('an upload that fails after the S3 store retries fails the load with an error naming the object; nothing is left after the clean-up', async () => {
  const store = new S3ObjectStore(s3.storeOptions('wpipe-fail', { requestTimeoutMs: 2_000, maxAttempts: 2 }));
  try {
    // Uploads through the proxy with latency work; then every PUT of one tablet's segment fails.
    s3.proxy.configure({ latency: { p50Ms: 5, p99Ms: 20 } });
    const writer = new LoadWriter(pipelineWith({ writeBufferSize: 1024 }), store, table(4), 20);
    await writer.add(batchOf(0, 400));
    s3.proxy.injectNext('internal', 1000, { method: 'PUT', path: 'data/101/' });
    await writer.add(batchOf(400, 400)).catch(() => undefined);
    await assert.rejects(writer.finish(), (err: GaleneError) => err.code === 'IO_ERROR' && /put data\/101\/20_\d+\.dat/.test(err.message));
    await writer.settle();
    writer.close();
    s3.proxy.configure({});
    assert.ok(writer.objectKeys.length > 0);
    for (const key of writer.objectKeys) await store.delete(key);
    assert.deepEqual(await store.list('data/'), [], 'every object the load wrote is known to it');
  } finally {
    s3.proxy.configure({});
    store.close();
  }
});
