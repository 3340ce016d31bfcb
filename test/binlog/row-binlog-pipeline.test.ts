/**
 * The row binlog in the write pipeline (LoadWriter over a WritePipeline): a row-binlog table's writer
 * flushes the data memtable and the change-log memtable of a tablet as one GROUP request, both files
 * going through the upload pool; each is a physical flush task in the tablet's flush-running count, and
 * the backpressure limit for such a request is 2 x memtable_flush_running_count_limit (seed 002), so the
 * logical flush concurrency is the configured one — observed here as the uploads in flight at once. The
 * change-log segments hold the rows with __seq and __op, and the rowsets come back marked rowBinlog.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { getRaw, vectorFromRaw, type Batch } from '../../src/common/column';
import { NO_PROFILE } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import { makeTableSchema } from '../../src/exec/memory-table';
import { InPlaceFileCache } from '../../src/io/in-place-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import type { TableState } from '../../src/meta/catalog';
import { binlogPropertyError, binlogResultColumns, binlogSegmentSchema, loadOp, rowBinlogEnabled } from '../../src/meta/row-binlog';
import { PageCache } from '../../src/storage/page-cache';
import { SegmentReader } from '../../src/storage/segment-reader';
import { LoadWriter } from '../../src/load/write-pipeline/load-writer';
import { WritePipeline, type WritePipelineSettings } from '../../src/load/write-pipeline/write-pipeline';

const pipelines: WritePipeline[] = [];
after(async () => {
  await Promise.all(pipelines.map((pipeline) => pipeline.close()));
});

function pipelineWith(settings: Partial<WritePipelineSettings>): WritePipeline {
  const pipeline = new WritePipeline({ flushThreadsMin: 4, flushThreadsMax: 4, ...settings });
  pipelines.push(pipeline);
  return pipeline;
}

function table(binlog: boolean, keysType: 'DUPLICATE' | 'UNIQUE' = 'DUPLICATE'): TableState {
  const base = makeTableSchema('db', 't', [{ name: 'k', type: Types.INT }, { name: 's', type: Types.varchar(16) }], 9);
  const properties: Record<string, string> = binlog ? { 'binlog.enable': 'true' } : {};
  const schema = { ...base, keysType, keyColumns: ['k'], distribution: { type: 'HASH' as const, columns: ['k'], buckets: 1 }, properties };
  return { schema, dbId: 1, tablets: [{ id: 100, tableId: 9, bucket: 0 }], rowsets: [], visibleVersion: 1 };
}

function batchOf(start: number, count: number): Batch {
  const keys = Array.from({ length: count }, (_v, rowIdx) => start + rowIdx);
  return { length: count, columns: [vectorFromRaw(Types.INT, keys), vectorFromRaw(Types.varchar(16), keys.map((key) => `v${key}`))] };
}

/** A slow remote-like store that records how many puts were in flight at most. */
class CountingStore extends RemoteLikeObjectStore {
  inFlight = 0;
  peak = 0;
  override async put(key: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    this.inFlight++;
    this.peak = Math.max(this.peak, this.inFlight);
    try {
      await super.put(key, data);
    } finally {
      this.inFlight--;
    }
  }
}

const tempStore = (): LocalObjectStore => new LocalObjectStore(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-binlog-')));

test('the row binlog properties: enabled, operation, schemas and Doris-style errors', () => {
  assert.equal(rowBinlogEnabled({ properties: { 'binlog.enable': 'true' } }), true);
  assert.equal(rowBinlogEnabled({ properties: { 'binlog.enable': 'TRUE', 'binlog.format': 'row' } }), true);
  assert.equal(rowBinlogEnabled({ properties: { 'binlog.enable': 'false' } }), false);
  assert.equal(rowBinlogEnabled({ properties: {} }), false);
  assert.equal(loadOp({ keysType: 'UNIQUE' }), 'UPSERT');
  assert.equal(loadOp({ keysType: 'DUPLICATE' }), 'INSERT');
  assert.equal(binlogPropertyError('binlog.enable', 'maybe'), 'Invalid binlog.enable value: maybe');
  assert.equal(binlogPropertyError('binlog.ttl_seconds', '12'), null);
  assert.equal(binlogPropertyError('binlog.max_history_nums', '1.5'), 'Invalid binlog.max_history_nums value: 1.5');
  assert.match(binlogPropertyError('binlog.need_historical_value', 'true')!, /not supported/);
  const schema = table(true, 'UNIQUE').schema;
  const stored = binlogSegmentSchema(schema);
  assert.deepEqual(stored.columns.map((column) => column.name), ['__seq', '__op', 'k', 's']);
  assert.equal(stored.keysType, 'DUPLICATE', 'change-log rows are never merged by key');
  assert.deepEqual(binlogResultColumns(schema).map((column) => column.name), ['k', 's', '__op', '__version', '__seq']);
});

test('a row-binlog table flushes data + change log as one GROUP request, limited at 2 x memtable_flush_running_count_limit', async () => {
  const peakFor = async (binlog: boolean): Promise<{ peak: number; writer: LoadWriter; keys: string[] }> => {
    const store = new CountingStore(tempStore(), { latencyMs: 60 });
    // The flush-count policy (as for a local store, or the old policy): limit 2 logical flushes per tablet.
    const pipeline = pipelineWith({ writeBufferSize: 512, hardLimitBytes: 1 << 30, useUploadQueue: false, flushRunningLimit: 2, uploadThreads: 64 });
    const writer = new LoadWriter(pipeline, store, table(binlog), 7);
    for (let batchIdx = 0; batchIdx < 10; batchIdx++) await writer.add(batchOf(batchIdx * 100, 100));
    await writer.finish();
    writer.close();
    return { peak: store.peak, writer, keys: writer.objectKeys };
  };
  const plain = await peakFor(false);
  const logged = await peakFor(true);
  assert.equal(plain.writer.memtablesPerFlush, 1);
  assert.equal(logged.writer.memtablesPerFlush, 2, 'the binlog table writes two memtables per logical flush');
  assert.equal(plain.peak, 2, 'plain table: 2 flushes (uploads) in flight at most');
  // The check compares physical tasks with 2 x limit = 4: a new request starts once one task of an earlier
  // one finished, so 4 or 5 are in flight; with the plain limit (2) it would be 3 at most.
  assert.ok(logged.peak >= 4 && logged.peak <= 5, `binlog table: two GROUP requests in flight (the doubled limit), ${logged.peak} uploads at once`);
  assert.equal(logged.keys.filter((key) => key.includes('_binlog_')).length, logged.keys.filter((key) => !key.includes('_binlog_')).length, 'one change-log segment per data segment, uploaded through the pool');
});

test('the change-log rowsets hold every row with its __seq and __op, marked rowBinlog, after the data rowsets', async () => {
  const store = tempStore();
  const pipeline = pipelineWith({ writeBufferSize: 1 << 20, hardLimitBytes: 1 << 30 });
  const writer = new LoadWriter(pipeline, store, table(true, 'UNIQUE'), 8);
  await writer.add(batchOf(0, 300));
  await writer.add(batchOf(0, 50)); // the same keys again: the data keeps one row per key, the log both
  await writer.addDeletes(batchOf(1000, 2));
  const rowsets = await writer.finish();
  writer.close();
  assert.equal(pipeline.memory.bytes, 0, 'all load memory given back');
  const data = rowsets.filter((rowset) => !rowset.rowBinlog);
  const log = rowsets.filter((rowset) => rowset.rowBinlog);
  assert.equal(rowsets.indexOf(log[0]), data.length, 'change-log rowsets come last');
  assert.equal(data.reduce((sum, rowset) => sum + rowset.numRows, 0), 300);
  assert.equal(log.reduce((sum, rowset) => sum + rowset.numRows, 0), 352);
  const files = new InPlaceFileCache(store);
  const logged: string[] = [];
  for (const segment of log.flatMap((rowset) => rowset.segments)) {
    const reader = await SegmentReader.open(await files.open(segment.key, NO_PROFILE, segment.size), { pageCache: new PageCache(1 << 20), profile: NO_PROFILE });
    const [seq, op, key] = await Promise.all(['__seq', '__op', 'k'].map((name) => reader.readColumn(name, null, NO_PROFILE)));
    for (let rowIdx = 0; rowIdx < segment.numRows; rowIdx++) logged.push(`${getRaw(seq, rowIdx)}:${getRaw(op, rowIdx)}:${getRaw(key, rowIdx)}`);
  }
  await files.close();
  logged.sort((left, right) => Number(left.split(':')[0]) - Number(right.split(':')[0]));
  assert.equal(logged[0], '0:UPSERT:0');
  assert.equal(logged[300], '300:UPSERT:0', 'the second batch continues the sequence');
  assert.deepEqual(logged.slice(350), ['350:DELETE:1000', '351:DELETE:1001']);
});
