/**
 * A stopping server keeps its data_dir lock until nothing of it writes there any more: a compaction
 * merge under way, flushes in the flush pool's threads and the shared index builders' threads are all
 * awaited or terminated before the lock is released, so a second server cannot open the directory while
 * the first still writes into it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Types } from '../../src/common/types';
import { vectorFromRaw } from '../../src/common/column';
import { makeTableSchema } from '../../src/exec/memory-table';
import { tableSegmentContext } from '../../src/load/table-writer';
import { lockDataDir } from '../../src/meta/data-dir-lock';
import { FlushPool } from '../../src/load/write-pipeline/flush-pool';
import { processBuilder, releaseProcessBuilders, retainProcessBuilders } from '../../src/storage/index-build-worker';
import { makeDataDir } from '../helpers/galene-process';
import { connect } from '../helpers/mysql-client';
import { pauseAfterMerge, startInProcess } from '../table-models/in-process';

test('stop() holds the data_dir lock until a compaction merge under way has finished', { timeout: 120_000 }, async () => {
  const dataDir = makeDataDir('galene-stop-order-');
  const server = await startInProcess(dataDir);
  const conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE so');
  await conn.query('USE so');
  await conn.query('CREATE TABLE t (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "true")');
  for (let load = 0; load < 6; load++) await conn.query(`INSERT INTO t VALUES (${load}, ${load * 10})`);
  await conn.end();

  const pause = pauseAfterMerge(server.frontend.compaction);
  const pass = server.frontend.compaction.runOnce();
  await pause.reached;
  let stopped = false;
  const stopping = server.stop().then(() => (stopped = true));
  try {
    // Let stop() run as far as it can while the merge (a merge-on-write one: the hook's kind) is paused.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(stopped, false, 'stop() waits for the paused merge');
    assert.throws(() => lockDataDir(dataDir), /in use by another Galene server/, 'the lock is still held');
  } finally {
    pause.release();
    await stopping;
  }
  await pass;
  const lock = lockDataDir(dataDir); // free now
  lock.release();
});

test('FlushPool.close() terminates running flushes and refuses new ones', { timeout: 60_000 }, async () => {
  const pool = new FlushPool(1);
  const rows = 200_000;
  const keys = Array.from({ length: rows }, (_, row) => rows - row);
  const schema = { ...makeTableSchema('db', 't', [{ name: 'k', type: Types.INT }]), keyColumns: ['k'] };
  const ctx = tableSegmentContext(schema);
  const spec = { schema, segmentColumns: ctx.segmentColumns, writeOptions: ctx.segmentOptions, segmentMaxRows: rows };
  const columns = [vectorFromRaw(Types.INT, keys)];
  const running = pool.flush(columns, rows, spec).then(
    () => 'flushed',
    (err: Error) => err.message,
  );
  await pool.close();
  const outcome = await running;
  assert.ok(outcome === 'flushed' || /memtable flush (worker failed|refused)/.test(outcome), outcome);
  await assert.rejects(pool.flush(columns, rows, spec), /memtable flush refused: the server is stopping/);
});

test('the shared index builders are closed by the last BE that releases them', async () => {
  let closes = 0;
  processBuilder({ close: async () => void closes++ });
  retainProcessBuilders();
  retainProcessBuilders();
  await releaseProcessBuilders();
  assert.equal(closes, 0, 'another BE still uses them');
  await releaseProcessBuilders();
  assert.equal(closes, 1, 'closed with the last BE');
});
