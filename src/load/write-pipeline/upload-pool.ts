/**
 * The upload pool (Doris's s3_file_upload_thread_pool): segment files leave the flush as soon as they are
 * encoded and are put into the object store here, at most `threads` at a time; the rest wait in a FIFO
 * queue whose length is the backpressure signal of loads into a remote store (backpressure.ts). For a
 * local-directory store the "upload" is the atomic put of the file. The store's own retries apply inside
 * each put; a put that finally fails rejects its promise (the load aborts).
 */
import type { ObjectStore } from '../../io/object-store';
import { TaskQueue } from './task-queue';

export class UploadPool {
  readonly tasks: TaskQueue;
  /** Bytes put so far. */
  bytes = 0;

  constructor(threads: number) {
    this.tasks = new TaskQueue(threads);
  }

  /** Uploads waiting for a thread (the backpressure signal). */
  get queueSize(): number {
    return this.tasks.queueSize;
  }

  /** Put `parts` as `key` into `store` when a thread is free; resolves when the object is written. */
  put(store: ObjectStore, key: string, parts: readonly Uint8Array[]): Promise<void> {
    return this.tasks.run(async () => {
      await store.put(key, parts);
      this.bytes += parts.reduce((sum, part) => sum + part.length, 0);
    });
  }
}
