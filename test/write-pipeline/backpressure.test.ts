/**
 * The pure parts of the write pipeline: the backpressure check of apache/doris #66847 (upload queue for
 * remote stores, flush count otherwise, the two-memtables-per-flush multiplier, the old-policy switch and
 * the fallback without an upload pool), the 10 ms wait, the adaptive flush-thread rule, the load memory
 * limiter's largest-first soft flush and the bounded task queue.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { needBackpressure, waitWhile, type BackpressureSignals } from '../../src/load/write-pipeline/backpressure';
import { adjustFlushThreads, FlushThreadController } from '../../src/load/write-pipeline/flush-thread-controller';
import { LoadMemoryLimiter, type LimitedMemtable } from '../../src/load/write-pipeline/load-memory';
import { TaskQueue } from '../../src/load/write-pipeline/task-queue';

const base: BackpressureSignals = { remote: false, uploadQueueSize: 0, uploadQueueBusyThreshold: 100, useUploadQueue: true, flushRunning: 0, flushRunningLimit: 2, memtablesPerFlush: 1 };

test('local stores wait on the flush count: running flushes >= memtable_flush_running_count_limit', () => {
  assert.equal(needBackpressure({ ...base, flushRunning: 1 }), false);
  assert.equal(needBackpressure({ ...base, flushRunning: 2 }), true);
  // A long upload queue does not matter for a local store.
  assert.equal(needBackpressure({ ...base, flushRunning: 0, uploadQueueSize: 1000 }), false);
});

test('a request that flushes two memtables per logical flush gets twice the flush-count limit', () => {
  assert.equal(needBackpressure({ ...base, flushRunning: 2, memtablesPerFlush: 2 }), false);
  assert.equal(needBackpressure({ ...base, flushRunning: 3, memtablesPerFlush: 2 }), false);
  assert.equal(needBackpressure({ ...base, flushRunning: 4, memtablesPerFlush: 2 }), true);
  assert.equal(needBackpressure({ ...base, remote: true, useUploadQueue: false, flushRunning: 3, memtablesPerFlush: 2 }), false);
  assert.equal(needBackpressure({ ...base, remote: true, useUploadQueue: false, flushRunning: 4, memtablesPerFlush: 2 }), true);
});

test('remote stores wait on the upload queue above its busy threshold, not on the flush count', () => {
  const remote = { ...base, remote: true };
  assert.equal(needBackpressure({ ...remote, uploadQueueSize: 100, flushRunning: 50 }), false, 'at the threshold: not busy');
  assert.equal(needBackpressure({ ...remote, uploadQueueSize: 101 }), true);
  // The old policy (enable_s3_upload_queue_backpressure = false) uses the flush count for remote stores too.
  assert.equal(needBackpressure({ ...remote, useUploadQueue: false, uploadQueueSize: 1000, flushRunning: 1 }), false);
  assert.equal(needBackpressure({ ...remote, useUploadQueue: false, uploadQueueSize: 0, flushRunning: 2 }), true);
  // No upload pool: fall back to the flush count.
  assert.equal(needBackpressure({ ...remote, uploadQueueSize: null, flushRunning: 2 }), true);
  assert.equal(needBackpressure({ ...remote, uploadQueueSize: null, flushRunning: 1 }), false);
});

test('waitWhile sleeps in steps while the condition holds, re-reading it, and reports the time', async () => {
  assert.equal(await waitWhile(() => false), 0, 'no wait: no time');
  let checks = 0;
  const waited = await waitWhile(() => ++checks < 4, undefined, 1);
  assert.equal(checks, 4);
  assert.ok(waited > 0);
  await assert.rejects(
    waitWhile(
      () => true,
      () => {
        throw new Error('load failed');
      },
      1,
    ),
    /load failed/,
  );
});

test('the adaptive flush-thread rule: queue > 10 adds one, busy IO removes two, within the bounds', () => {
  const signals = { threads: 6, flushQueueSize: 0, ioBusy: false, minThreads: 6, maxThreads: 8 };
  assert.equal(adjustFlushThreads(signals), 6);
  assert.equal(adjustFlushThreads({ ...signals, flushQueueSize: 10 }), 6, 'a queue of 10 is not over 10');
  assert.equal(adjustFlushThreads({ ...signals, flushQueueSize: 11 }), 7);
  assert.equal(adjustFlushThreads({ ...signals, threads: 8, flushQueueSize: 50 }), 8, 'never above the maximum');
  assert.equal(adjustFlushThreads({ ...signals, threads: 8, ioBusy: true }), 6);
  assert.equal(adjustFlushThreads({ ...signals, threads: 7, ioBusy: true }), 6, 'never below the minimum');
  assert.equal(adjustFlushThreads({ ...signals, threads: 8, flushQueueSize: 11, ioBusy: true }), 7, 'both: +1 -2');
  const applied: number[] = [];
  let current = 6;
  const controller = new FlushThreadController(
    () => ({ ...signals, threads: current, flushQueueSize: 20 }),
    (threads) => applied.push((current = threads)),
  );
  controller.tick();
  controller.tick();
  controller.tick();
  assert.deepEqual(applied, [7, 8], 'grows to the maximum, then stays');
  assert.equal(controller.adjustments, 2);
});

test('the load memory limiter flushes the largest memtable first above the soft limit, and only then', () => {
  const limiter = new LoadMemoryLimiter(1000, 800);
  const flushed: string[] = [];
  const memtable = (name: string, bytes: number): LimitedMemtable & { activeBytes: number } => {
    const entry = {
      activeBytes: bytes,
      flushEarly: () => {
        flushed.push(name);
        entry.activeBytes = 0;
      },
    };
    limiter.register(entry);
    limiter.reserve(bytes);
    return entry;
  };
  memtable('small', 200);
  memtable('large', 500);
  limiter.relieve();
  assert.deepEqual(flushed, [], 'under the soft limit nothing is flushed early');
  memtable('medium', 300);
  assert.equal(limiter.overHardLimit, true);
  limiter.relieve();
  assert.deepEqual(flushed, ['large']);
  // The bytes in flight (500) are under the soft limit, the total (1000) is not: the next largest goes.
  limiter.relieve();
  assert.deepEqual(flushed, ['large', 'medium']);
  // In flight 800 + active 200: in-flight bytes alone reach the soft limit -> no tiny early flush.
  limiter.relieve();
  assert.deepEqual(flushed, ['large', 'medium']);
  limiter.release(800);
  assert.equal(limiter.overHardLimit, false);
  assert.equal(limiter.peakBytes, 1000);
  assert.equal(limiter.softLimitFlushes, 2);
});

test('the task queue runs at most `limit` tasks, FIFO, and counts the queue', async () => {
  const queue = new TaskQueue(2);
  const order: number[] = [];
  const gates: (() => void)[] = [];
  const tasks = [0, 1, 2, 3].map((taskIdx) =>
    queue.run(
      () =>
        new Promise<number>((resolve) => {
          order.push(taskIdx);
          gates[taskIdx] = () => resolve(taskIdx);
        }),
    ),
  );
  assert.equal(queue.runningCount, 2);
  assert.equal(queue.queueSize, 2);
  gates[0]();
  await tasks[0];
  assert.deepEqual(order, [0, 1, 2]);
  queue.setLimit(3);
  assert.deepEqual(order, [0, 1, 2, 3]);
  gates[1]();
  gates[2]();
  gates[3]();
  assert.deepEqual(await Promise.all(tasks), [0, 1, 2, 3]);
  assert.equal(queue.completed, 4);
  await assert.rejects(queue.run(() => Promise.reject(new Error('put failed'))), /put failed/);
  assert.equal(queue.failed, 1);
  assert.equal(queue.runningCount, 0);
});
