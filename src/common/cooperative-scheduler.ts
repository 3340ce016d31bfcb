/**
 * Cooperative time slicing of CPU-bound work on the event loop.
 *
 * Query execution is a chain of async iterators over in-memory batches: awaiting an already resolved
 * promise continues in a microtask, so without help a heavy statement would run to its end without ever
 * letting the loop read another socket. Long-running work calls `SliceClock.checkpoint()` at safe points
 * (between batches, every few thousand rows of a long loop); when its slice is used up it parks in this
 * scheduler and resumes from `setImmediate`, after the loop has polled I/O.
 *
 * The scheduler bounds the *total* CPU time all parked tasks get per loop turn, not each task's: a task
 * that yields hands the turn to the next parked one while the turn's budget lasts, so eight heavy
 * queries delay a `SELECT 1` by one turn budget, not eight slices.
 */

/** How long one task runs before it offers the loop back. */
export const DEFAULT_SLICE_MS = 4;
/** How long all parked tasks together run per loop turn before I/O is polled again. */
const TURN_BUDGET_FACTOR = 2;

class CooperativeScheduler {
  private readonly parked: (() => void)[] = [];
  private turnStartedAt = -Infinity;
  private turnScheduled = false;
  /** Milliseconds a task runs between checkpoints that yield; 0 turns slicing off (tasks never park). */
  sliceMs = DEFAULT_SLICE_MS;

  /** Park the calling task; resolves when it may run again. */
  park(): Promise<void> {
    return new Promise<void>((resume) => {
      this.parked.push(resume);
      if (performance.now() - this.turnStartedAt < this.sliceMs * TURN_BUDGET_FACTOR) this.resumeNext();
      else this.scheduleTurn();
    });
  }

  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(this.runTurn);
  }

  private readonly runTurn = (): void => {
    this.turnScheduled = false;
    this.turnStartedAt = performance.now();
    this.resumeNext();
  };

  private resumeNext(): void {
    const next = this.parked.shift();
    if (next !== undefined) next();
    if (this.parked.length > 0) this.scheduleTurn();
  }
}

/** The process-wide scheduler (one event loop, one scheduler). */
export const scheduler = new CooperativeScheduler();

/**
 * One task's slice clock. `due()` is a cheap test for hot loops; `yieldNow()` parks the task and starts
 * a new slice when it resumes.
 */
export class SliceClock {
  private sliceStartedAt = performance.now();

  /** True when the task has used its slice and should yield at the next safe point. */
  due(): boolean {
    return scheduler.sliceMs > 0 && performance.now() - this.sliceStartedAt >= scheduler.sliceMs;
  }

  async yieldNow(): Promise<void> {
    await scheduler.park();
    this.sliceStartedAt = performance.now();
  }

  /** Yield if due; undefined (no await needed) otherwise. */
  maybeYield(): Promise<void> | undefined {
    return this.due() ? this.yieldNow() : undefined;
  }
}
