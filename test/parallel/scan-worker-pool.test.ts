/**
 * The scan worker pool: a task's error comes back as its GaleneError; a worker that dies mid-task fails
 * that task with SCAN_WORKER_FAILED (cause kept) and is replaced, so the pool keeps serving.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScanWorkerPool, type ScanTask } from '../../src/be/scan-worker-pool';
import { GaleneError } from '../../src/common/errors';
import { NO_PROFILE } from '../../src/common/profile';
import { makeDataDir } from '../helpers/galene-process';

const fragment = { columns: [], predicates: [], filter: null, aggregate: null };
const missing: ScanTask = { segmentKey: 'data/1/2/missing.dat', segmentSize: 100, rowStart: 0, rowEnd: 10, fragment };

test('worker errors become query errors; a dead worker is replaced', async () => {
  const pool = new ScanWorkerPool(1, { objectRoot: makeDataDir('galene-pool-'), pageCacheBytes: 1 << 20 });
  try {
    const first = await pool.run(missing, NO_PROFILE).then(
      () => null,
      (err: unknown) => err,
    );
    assert.ok(first instanceof GaleneError, String(first));
    assert.notEqual(first.code, 'SCAN_WORKER_FAILED');
    assert.match(first.message, /missing\.dat/);

    const crashed = await pool.run({ ...missing, debugFault: 'exit' }, NO_PROFILE).then(
      () => null,
      (err: unknown) => err,
    );
    assert.ok(crashed instanceof GaleneError);
    assert.equal(crashed.code, 'SCAN_WORKER_FAILED');
    assert.match(crashed.message, /exited with code 70/);
    assert.ok(crashed.cause instanceof Error);

    // The replacement answers the next task.
    const again = await pool.run(missing, NO_PROFILE).then(
      () => null,
      (err: unknown) => err,
    );
    assert.ok(again instanceof GaleneError);
    assert.equal(again.code, first.code);
  } finally {
    await pool.close();
  }
  await assert.rejects(pool.run(missing, NO_PROFILE), /closed/);
});
