/**
 * The load backpressure check of Doris's delta writer (apache/doris #66847): before each write a tablet
 * writer sleeps in 10 ms steps while backpressure holds, and the time waited is the load's
 * `WaitFlushLimitTime`. For a load into a remote (object storage) store the signal is the upload pool's
 * queue: above its busy threshold the uploads are the bottleneck. Otherwise — a local store, the old policy
 * (`enable_s3_upload_queue_backpressure` = false) or no upload pool — it is the writer's running flushes
 * against `memtable_flush_running_count_limit`, times the memtables one logical flush writes (2 for a
 * request that flushes a data and a row-binlog memtable together, so the logical concurrency stays the
 * configured one). The check reads the queue length as it is, with no controller state in between.
 */

/** Doris's sleep step between two checks. */
export const BACKPRESSURE_STEP_MS = 10;

/** What one check reads, each time it runs. */
export interface BackpressureSignals {
  /** The load writes into a remote (object storage) store. */
  readonly remote: boolean;
  /** Tasks waiting in the upload pool's queue; null when there is no upload pool. */
  readonly uploadQueueSize: number | null;
  /** Queue length above which the upload pool counts as busy (Doris: kS3QueueBusyThreshold, 100). */
  readonly uploadQueueBusyThreshold: number;
  /** `enable_s3_upload_queue_backpressure`: false restores the flush-count check for remote stores too. */
  readonly useUploadQueue: boolean;
  /** Memtables of this writer submitted for flush and not finished. */
  readonly flushRunning: number;
  /** `memtable_flush_running_count_limit`. */
  readonly flushRunningLimit: number;
  /** Memtables one logical flush of this request writes (1; 2 for data + row binlog). */
  readonly memtablesPerFlush: number;
}

export function needBackpressure(signals: BackpressureSignals): boolean {
  if (signals.remote && signals.useUploadQueue && signals.uploadQueueSize !== null) return signals.uploadQueueSize > signals.uploadQueueBusyThreshold;
  return signals.flushRunning >= signals.flushRunningLimit * Math.max(1, signals.memtablesPerFlush);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Wait in `stepMs` steps while `hold()` is true (it is read again after every step; `stop()` throws to
 * end the wait, e.g. when the load failed). Returns the nanoseconds waited (0 when it never held).
 */
export async function waitWhile(hold: () => boolean, stop?: () => void, stepMs = BACKPRESSURE_STEP_MS): Promise<number> {
  if (!hold()) return 0;
  const start = process.hrtime.bigint();
  do {
    stop?.();
    await sleep(stepMs);
  } while (hold());
  return Number(process.hrtime.bigint() - start);
}
