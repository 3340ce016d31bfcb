/**
 * The main thread's handle on the compaction worker thread: one worker (compaction is serial), started on
 * first use, replaced if it dies; a request that fails comes back as a GaleneError, never a crash.
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ErrorCode, GaleneError } from '../common/errors';
import type { TableWriteOptions, WrittenLoad } from '../load/table-writer';
import type { TableState } from '../meta/catalog';

export interface CompactionWorkerRequest {
  readonly id: number;
  /** The tablet slice without its delete bitmap (a class instance), which travels as entries. */
  readonly slice: Omit<TableState, 'deleteBitmap'>;
  readonly deleteBitmap: [number, Int32Array[]][];
  readonly txnId: number;
  readonly writeOptions: TableWriteOptions;
}

export type CompactionWorkerReply = { readonly id: number; readonly ok: true; readonly written: WrittenLoad } | { readonly id: number; readonly ok: false; readonly code: ErrorCode | null; readonly message: string };

export class CompactionWorkerClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (written: WrittenLoad) => void; reject: (err: Error) => void }>();

  constructor(private readonly objectRoot: string) {}

  private start(): Worker {
    const worker = new Worker(path.join(__dirname, 'compaction-worker.js'), { workerData: { objectRoot: this.objectRoot } });
    worker.on('message', (reply: CompactionWorkerReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiter.resolve(reply.written);
      else waiter.reject(new GaleneError('INTERNAL', [`compaction failed${reply.code ? ` (${reply.code})` : ''}: ${reply.message}`]));
    });
    const fail = (err: Error): void => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.pending.values()) waiter.reject(new GaleneError('INTERNAL', [`compaction worker failed: ${err.message}`], { cause: err }));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exited with code ${code}`)));
    return worker;
  }

  merge(slice: TableState, txnId: number, writeOptions: TableWriteOptions = {}): Promise<WrittenLoad> {
    this.worker ??= this.start();
    const worker = this.worker;
    worker.ref();
    const id = this.nextId++;
    const { deleteBitmap, ...plain } = slice;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, slice: plain, deleteBitmap: deleteBitmap?.toEntries() ?? [], txnId, writeOptions } satisfies CompactionWorkerRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
