/**
 * A FIFO of asynchronous tasks of which at most `limit` run at once: the thread-pool shape both the flush
 * pool and the upload pool have (Doris ThreadPool: running tasks plus a queue whose length is read by
 * backpressure and the adaptive controller). Counts completed tasks and the time they ran.
 */
export class TaskQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  completed = 0;
  failed = 0;
  durationUs = 0;

  constructor(private max: number) {}

  /** Tasks waiting for a free slot (not counting the running ones). */
  get queueSize(): number {
    return this.waiting.length;
  }

  get runningCount(): number {
    return this.running;
  }

  get limit(): number {
    return this.max;
  }

  setLimit(limit: number): void {
    this.max = Math.max(1, limit);
    this.drain();
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(() => {
        const start = process.hrtime.bigint();
        const settle = (ok: boolean): void => {
          this.durationUs += Number((process.hrtime.bigint() - start) / 1000n);
          if (ok) this.completed++;
          else this.failed++;
          this.running--;
          this.drain();
        };
        let started: Promise<T>;
        try {
          started = task();
        } catch (err) {
          started = Promise.reject(err);
        }
        started.then(
          (value) => {
            settle(true);
            resolve(value);
          },
          (err: unknown) => {
            settle(false);
            reject(err);
          },
        );
      });
      this.drain();
    });
  }

  private drain(): void {
    while (this.running < this.max && this.waiting.length > 0) {
      this.running++;
      this.waiting.shift()!();
    }
  }
}
