/**
 * A pool of scan worker threads (node:worker_threads), `scan_thread_num` of them, that run scan fragments
 * (src/exec/parallel/run-fragment.ts) over segments next to the data, so that decoding, filtering and
 * partial aggregation use every core and stay off the event loop that serves the protocols.
 *
 * Each worker reads segment files of the local object store in place and keeps its own segment readers
 * and its share of the decoded-page cache. Tasks are queued and handed to an idle worker one at a time.
 * A task's error comes back as the GaleneError it was (code and message kept); a worker that dies
 * (crash, exit, out of memory) fails its task with SCAN_WORKER_FAILED, carrying the cause, and is
 * replaced, so the next query finds a full pool. An idle worker is unref'd: it never keeps the process alive.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ErrorCode, ERROR_CODES, GaleneError } from '../common/errors';
import { QueryProfile, type ProfileSink } from '../common/profile';
import type { FragmentResult, FragmentSpec } from '../exec/plan/fragment-spec';

/** One unit of work: rows [rowStart, rowEnd) of a segment (after pruning) through a fragment. */
export interface ScanTask {
  readonly segmentKey: string;
  readonly segmentSize: number;
  readonly rowStart: number;
  readonly rowEnd: number;
  readonly fragment: FragmentSpec;
  /** Ascending ids of rows in [rowStart, rowEnd) that are deleted (delete bitmap, DELETE predicates). */
  readonly excludedRows?: Int32Array;
  /** Fault hook for tests: 'exit' makes the worker exit mid-task, as a crash would. */
  readonly debugFault?: 'exit';
}

/** Messages to a worker. */
export type ScanWorkerRequest = { readonly kind: 'task'; readonly taskId: number; readonly task: ScanTask } | { readonly kind: 'invalidate'; readonly segmentKey: string };

/** Messages from a worker. */
export type ScanWorkerReply =
  | { readonly kind: 'done'; readonly taskId: number; readonly result: FragmentResult; readonly counters: [string, number][]; readonly columnReads: [string, number, number][] }
  | { readonly kind: 'failed'; readonly taskId: number; readonly error: { readonly code: string | null; readonly message: string; readonly stack?: string } };

/** Options a worker starts with (workerData). */
export interface ScanWorkerData {
  readonly objectRoot: string;
  readonly pageCacheBytes: number;
}

interface PendingTask {
  readonly taskId: number;
  readonly task: ScanTask;
  readonly profile: ProfileSink;
  resolve(result: FragmentResult): void;
  reject(err: unknown): void;
}

interface PoolWorker {
  readonly worker: Worker;
  current: PendingTask | null;
}

const WORKER_SCRIPT = path.join(__dirname, 'scan-worker.js');

export class ScanWorkerPool {
  private readonly workers: PoolWorker[] = [];
  private readonly queue: PendingTask[] = [];
  private nextTaskId = 1;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly data: ScanWorkerData,
  ) {
    for (let workerIdx = 0; workerIdx < size; workerIdx++) this.workers.push(this.spawn());
  }

  private spawn(): PoolWorker {
    const worker = new Worker(WORKER_SCRIPT, { workerData: this.data });
    worker.unref();
    const entry: PoolWorker = { worker, current: null };
    worker.on('message', (reply: ScanWorkerReply) => this.onReply(entry, reply));
    worker.on('error', (err) => this.onDeath(entry, err));
    worker.on('exit', (code) => this.onDeath(entry, new Error(`scan worker exited with code ${code}`)));
    return entry;
  }

  /** Run one task; resolves with its result, rejects with a GaleneError. Counters go to `profile`. */
  run(task: ScanTask, profile: ProfileSink): Promise<FragmentResult> {
    if (this.closed) return Promise.reject(new GaleneError('SCAN_WORKER_FAILED', ['the scan worker pool is closed']));
    return new Promise((resolve, reject) => {
      this.queue.push({ taskId: this.nextTaskId++, task, profile, resolve, reject });
      this.dispatch();
    });
  }

  /** Drop a deleted segment from every worker's caches. */
  invalidate(segmentKey: string): void {
    for (const entry of this.workers) entry.worker.postMessage({ kind: 'invalidate', segmentKey } satisfies ScanWorkerRequest);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new GaleneError('SCAN_WORKER_FAILED', ['the scan worker pool is closed']));
    await Promise.all(this.workers.map((entry) => entry.worker.terminate()));
  }

  private dispatch(): void {
    for (const entry of this.workers) {
      if (this.queue.length === 0) return;
      if (entry.current !== null) continue;
      const pending = this.queue.shift()!;
      entry.current = pending;
      entry.worker.ref(); // a task in flight keeps the process alive until it answers
      entry.worker.postMessage({ kind: 'task', taskId: pending.taskId, task: pending.task } satisfies ScanWorkerRequest);
    }
  }

  private onReply(entry: PoolWorker, reply: ScanWorkerReply): void {
    const pending = entry.current;
    if (pending === null || pending.taskId !== reply.taskId) return;
    entry.current = null;
    entry.worker.unref();
    if (reply.kind === 'done') {
      const profile = pending.profile;
      for (const [name, value] of reply.counters) profile.add(name, value);
      if (profile instanceof QueryProfile) for (const [column, rows, bytes] of reply.columnReads) profile.addColumnRead(column, rows, bytes);
      pending.resolve(reply.result);
    } else {
      const code = reply.error.code !== null && reply.error.code in ERROR_CODES ? (reply.error.code as ErrorCode) : null;
      const err = code !== null ? new GaleneError(code, []) : new GaleneError('SCAN_WORKER_FAILED', [reply.error.message]);
      if (code !== null) err.message = reply.error.message;
      if (reply.error.stack !== undefined) err.stack = reply.error.stack;
      pending.reject(err);
    }
    this.dispatch();
  }

  private onDeath(entry: PoolWorker, cause: unknown): void {
    const idx = this.workers.indexOf(entry);
    if (idx < 0) return; // already replaced ('error' is followed by 'exit')
    const pending = entry.current;
    entry.current = null;
    if (this.closed) {
      this.workers.splice(idx, 1);
      return;
    }
    this.workers[idx] = this.spawn();
    pending?.reject(new GaleneError('SCAN_WORKER_FAILED', [cause instanceof Error ? cause.message : String(cause)], { cause }));
    this.dispatch();
  }
}
