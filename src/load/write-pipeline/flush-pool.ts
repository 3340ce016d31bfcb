/**
 * The memtable flush pool (Doris's MemTableFlushExecutor): memtables are sorted, merged and encoded as
 * segment files in worker threads, off the event loop; at most `threads` flushes run at once and the rest
 * wait in a FIFO queue (its length drives the adaptive flush-thread controller). Each thread is an
 * IndexBuildWorker (started on first use, unref'd while idle); a shrinking pool closes idle threads.
 */
import * as path from 'node:path';
import type { Vector } from '../../common/column';
import { GaleneError } from '../../common/errors';
import { flushMemtable, type FlushedSegment, type MemtableFlushSpec } from '../../storage/memtable';
import { IndexBuildWorker } from '../../storage/index-build-worker';
import type { FlushRequest } from './flush-worker';
import { TaskQueue } from './task-queue';

const FLUSH_WORKER_SCRIPT = path.join(__dirname, 'flush-worker.js');

/** Memtables smaller than this are flushed on the calling thread: a worker round trip costs more than their encode (single-row INSERTs). */
export const IN_THREAD_FLUSH_BYTES = 64 * 1024;

type FlushThread = IndexBuildWorker<FlushRequest, FlushedSegment[]>;

export class FlushPool {
  /** Flushes: completed (doris_be_memtable_flush_total), durationUs (doris_be_memtable_flush_duration_us). */
  readonly tasks: TaskQueue;
  private readonly idle: FlushThread[] = [];
  /** Threads running a flush now: close() terminates them too, so no flush writes after it resolves. */
  private readonly busy = new Set<FlushThread>();
  private closed = false;

  constructor(threads: number) {
    this.tasks = new TaskQueue(threads);
  }

  setThreads(threads: number): void {
    this.tasks.setLimit(threads);
    while (this.idle.length > this.tasks.limit) void this.idle.pop()!.close();
  }

  /** Flush one memtable's rows (columns in schema order, `bytes` of them) into segment files. */
  flush(columns: Vector[], length: number, spec: MemtableFlushSpec, bytes = Number.POSITIVE_INFINITY): Promise<FlushedSegment[]> {
    return this.tasks.run(async () => {
      if (this.closed) throw new GaleneError('INTERNAL', ['memtable flush refused: the server is stopping']);
      if (bytes < IN_THREAD_FLUSH_BYTES) return flushMemtable(columns, length, spec);
      const thread = this.idle.pop() ?? new IndexBuildWorker<FlushRequest, FlushedSegment[]>(FLUSH_WORKER_SCRIPT, 'memtable flush');
      this.busy.add(thread);
      try {
        return await thread.run({ columns, length, spec });
      } finally {
        this.busy.delete(thread);
        if (!this.closed && this.idle.length < this.tasks.limit) this.idle.push(thread);
        else void thread.close();
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.idle.splice(0), ...this.busy].map((thread) => thread.close()));
  }
}
