/**
 * A pool of scan worker threads (node:worker_threads), `scan_thread_num` of them, that run scan fragments
 * (src/exec/parallel/run-fragment.ts) over segments next to the data, so that decoding, filtering and
 * partial aggregation use every core and stay off the event loop that serves the protocols.
 *
 * Every worker read goes through the BE's one FileCache, by one of two routes (ScanWorkerOptions): over
 * a local-directory store a worker opens the FileCache's in-place tier over the same directory (fs reads
 * of the object's own file: no thread hop, as fast as a main-thread read); over any other store it reads
 * through a FileReadService on the main thread (io/file-read-service.ts), so the one block cache, its
 * misses and back-fill serve every thread and a remote store keeps parallel scans. Each worker keeps its
 * own segment readers and its share of the decoded-page cache. Tasks are queued and handed to an idle
 * worker one at a time.
 * A task's error comes back as the GaleneError it was (code and message kept); a worker that dies
 * (crash, exit, out of memory) fails its task with SCAN_WORKER_FAILED, carrying the cause, and is
 * replaced, so the next query finds a full pool. An idle worker is unref'd: it never keeps the process alive.
 */
import * as path from 'node:path';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { GaleneError } from '../common/errors';
import { NO_PROFILE, QueryProfile, type ProfileSink } from '../common/profile';
import type { FragmentResult, FragmentSpec } from '../exec/plan/fragment-spec';
import type { FileCache } from '../io/file-cache';
import type { SegmentIndexRecord } from '../meta/meta-store';
import { errorFromWire, FileReadService, type WireError } from '../io/file-read-service';
import type { ScanPressure, ScanPressureSource } from './scan-scheduler';

/** One unit of work: rows [rowStart, rowEnd) of a segment (after pruning) through a fragment. */
export interface ScanTask {
  readonly segmentKey: string;
  readonly segmentSize: number;
  readonly rowStart: number;
  readonly rowEnd: number;
  readonly fragment: FragmentSpec;
  /** The segment's ordinal in the scan's snapshot, when the fragment returns global row ids (global-row-id.ts). */
  readonly segmentOrdinal?: number;
  /** Ascending ids of rows in [rowStart, rowEnd) that are deleted (delete bitmap, DELETE predicates). */
  readonly excludedRows?: Int32Array;
  /** An ANN task (fragment.ann): the segment's index file, absent when the segment has none (searched exactly). */
  readonly annIndex?: { readonly key: string; readonly size: number };
  /** The segment's inverted index files the fragment's index predicates name (fragment.inverted); absent: none (filtered exactly). */
  readonly invertedIndexes?: readonly SegmentIndexRecord[];
  /** Fault hook for tests: 'exit' makes the worker exit mid-task, as a crash would. */
  readonly debugFault?: 'exit';
}

/** Messages to a worker. */
export type ScanWorkerRequest = { readonly kind: 'task'; readonly taskId: number; readonly task: ScanTask } | { readonly kind: 'invalidate'; readonly segmentKey: string } | { readonly kind: 'clear-memory-caches' };

/** Messages from a worker. */
export type ScanWorkerReply =
  | { readonly kind: 'done'; readonly taskId: number; readonly result: FragmentResult; readonly counters: [string, number][]; readonly columnReads: [string, number, number][] }
  | { readonly kind: 'failed'; readonly taskId: number; readonly error: WireError };

/** How the workers read files, and their page cache. */
export interface ScanWorkerOptions {
  readonly pageCacheBytes: number;
  /** A local-directory store's root: workers read its files in place (the FileCache's in-place tier). */
  readonly objectRoot?: string;
  /**
   * Reads of every other key (all of them without objectRoot; with it, keys of remote storage vaults) go
   * to this FileCache through a FileReadService.
   */
  readonly fileCache?: FileCache;
  /** Where workers keep private copies of ANN index files read through the service (the BE empties it). */
  readonly annTempDir?: string;
}

/** Options a worker starts with (workerData): objectRoot for in-place reads, readPort for the others. */
export interface ScanWorkerData {
  readonly objectRoot: string | null;
  readonly readPort: MessagePort | null;
  readonly pageCacheBytes: number;
  readonly annTempDir?: string;
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
  /** Stops serving the worker's file reads (null: it reads in place). */
  readonly stopReads: (() => void) | null;
}

const WORKER_SCRIPT = path.join(__dirname, 'scan-worker.js');

/** What a parallel scan needs of the pool (a fake in the scheduler's tests). */
export interface ScanTaskRunner extends ScanPressureSource {
  readonly size: number;
  run(task: ScanTask, profile: ProfileSink): Promise<FragmentResult>;
}

export class ScanWorkerPool implements ScanTaskRunner {
  private readonly workers: PoolWorker[] = [];
  private readonly queue: PendingTask[] = [];
  private nextTaskId = 1;
  private closed = false;
  /** Serves the workers' reads when they do not read in place. */
  private readonly reads: FileReadService | null;

  constructor(
    readonly size: number,
    private readonly options: ScanWorkerOptions,
  ) {
    if (options.objectRoot === undefined && options.fileCache === undefined) throw new GaleneError('INTERNAL', ['a scan worker pool needs an objectRoot or a fileCache']);
    this.reads = options.fileCache !== undefined ? new FileReadService(options.fileCache) : null;
    for (let workerIdx = 0; workerIdx < size; workerIdx++) this.workers.push(this.spawn());
  }

  /** Whether workers read through the main thread's FileCache (false: in place). */
  get readsThroughService(): boolean {
    return this.reads !== null;
  }

  private spawn(): PoolWorker {
    const { pageCacheBytes, objectRoot } = this.options;
    let worker: Worker;
    let stopReads: (() => void) | null = null;
    if (this.reads === null) {
      worker = new Worker(WORKER_SCRIPT, { workerData: { objectRoot: objectRoot!, readPort: null, pageCacheBytes } satisfies ScanWorkerData });
    } else {
      const channel = new MessageChannel();
      worker = new Worker(WORKER_SCRIPT, { workerData: { objectRoot: objectRoot ?? null, readPort: channel.port2, pageCacheBytes, annTempDir: this.options.annTempDir } satisfies ScanWorkerData, transferList: [channel.port2] });
      // A read is counted into the task the worker runs when the read arrives.
      stopReads = this.reads.serve(channel.port1, () => entry.current?.profile ?? NO_PROFILE);
    }
    worker.unref();
    const entry: PoolWorker = { worker, current: null, stopReads };
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

  /**
   * Tasks waiting for a worker and tasks running, over every query: the scan scheduler sizes each query's
   * window from it (scan-scheduler.ts).
   */
  pressure(): ScanPressure {
    let running = 0;
    for (const entry of this.workers) if (entry.current !== null) running++;
    return { workers: this.workers.length, queued: this.queue.length, running };
  }

  /** Drop a deleted segment from every worker's caches. */
  invalidate(segmentKey: string): void {
    this.reads?.forget(segmentKey);
    for (const entry of this.workers) entry.worker.postMessage({ kind: 'invalidate', segmentKey } satisfies ScanWorkerRequest);
  }

  /** Drop every worker's decoded pages and open segment readers (`/api/clear_cache/all`). */
  clearMemoryCaches(): void {
    for (const entry of this.workers) entry.worker.postMessage({ kind: 'clear-memory-caches' } satisfies ScanWorkerRequest);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new GaleneError('SCAN_WORKER_FAILED', ['the scan worker pool is closed']));
    await Promise.all(this.workers.map((entry) => entry.worker.terminate()));
    for (const entry of this.workers) entry.stopReads?.();
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
      pending.reject(errorFromWire(reply.error, 'SCAN_WORKER_FAILED'));
    }
    this.dispatch();
  }

  private onDeath(entry: PoolWorker, cause: unknown): void {
    const idx = this.workers.indexOf(entry);
    if (idx < 0) return; // already replaced ('error' is followed by 'exit')
    const pending = entry.current;
    entry.current = null;
    entry.stopReads?.();
    if (this.closed) {
      this.workers.splice(idx, 1);
      return;
    }
    this.workers[idx] = this.spawn();
    pending?.reject(new GaleneError('SCAN_WORKER_FAILED', [cause instanceof Error ? cause.message : String(cause)], { cause }));
    this.dispatch();
  }
}
