/**
 * The adaptive flush-thread controller (Doris's AdaptiveThreadPoolController for the memtable flush pool):
 * every 10 s it looks at the pools and adjusts the flush threads — a flush queue longer than 10 adds one
 * thread; busy IO removes two (for a remote store: the upload queue above its busy threshold; a local
 * directory has no device-utilisation signal here, so it never counts as busy) — within
 * [flush_thread_num_per_store, cpus x max_flush_thread_num_per_cpu].
 */

export const FLUSH_CONTROLLER_INTERVAL_MS = 10_000;
/** Flush queue length above which the controller adds a thread. */
export const FLUSH_QUEUE_GROW_THRESHOLD = 10;

export interface FlushThreadSignals {
  readonly threads: number;
  readonly flushQueueSize: number;
  readonly ioBusy: boolean;
  readonly minThreads: number;
  readonly maxThreads: number;
}

/** The thread count after one adjustment. */
export function adjustFlushThreads(signals: FlushThreadSignals): number {
  let threads = signals.threads;
  if (signals.flushQueueSize > FLUSH_QUEUE_GROW_THRESHOLD) threads += 1;
  if (signals.ioBusy) threads -= 2;
  return Math.max(signals.minThreads, Math.min(signals.maxThreads, threads));
}

/** Runs `adjust` every `intervalMs` (unref'd: it never keeps the process alive) until stopped. */
export class FlushThreadController {
  private timer: NodeJS.Timeout | null = null;
  adjustments = 0;

  constructor(
    private readonly signals: () => FlushThreadSignals,
    private readonly apply: (threads: number) => void,
  ) {}

  start(intervalMs = FLUSH_CONTROLLER_INTERVAL_MS): void {
    this.stop();
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  tick(): void {
    const signals = this.signals();
    const threads = adjustFlushThreads(signals);
    if (threads !== signals.threads) {
      this.adjustments++;
      this.apply(threads);
    }
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
