/**
 * The control block of one running statement: cancellation (KILL, a closed connection), its deadline
 * (`query_timeout`), its memory budget (`exec_mem_limit`) and its slice of the event loop. Operators and
 * the write side of INSERT ... SELECT call `checkpoint()` between batches: it throws when the statement
 * was cancelled or ran out of time, and yields the loop when the statement's time slice is used up, so
 * one heavy statement never freezes the other sessions. Memory-holding operators (sort, hash aggregate,
 * hash join build) report what they hold with `reserve()`, which throws MEMORY_LIMIT past the budget.
 *
 * The FE creates one per statement; SHOW PROCESSLIST reads `state` and `startedAt`.
 */
import { GaleneError } from '../common/errors';
import { SliceClock } from '../common/cooperative-scheduler';

/** What a running statement is doing, as SHOW PROCESSLIST's State column says it. */
export type TaskState = 'Planning' | 'Executing' | 'Sending data' | 'Writing' | 'Finished';

export interface QueryTaskOptions {
  /** Seconds the statement may run (query_timeout / insert_timeout); 0 = no limit. */
  readonly timeoutSeconds: number;
  /** Bytes the statement's operators may hold (exec_mem_limit); 0 = no limit. */
  readonly memLimitBytes: number;
  /** Query id for messages. */
  readonly queryId: string;
}

export class QueryTask {
  readonly startedAt = Date.now();
  state: TaskState = 'Planning';
  private cancelError: GaleneError | null = null;
  /** Aborted by cancel(): waits that no checkpoint interrupts (a remote BE's stream) stop at once. */
  private readonly aborter = new AbortController();
  /** Epoch milliseconds the statement must end by (Infinity: no limit); remote calls carry it as their deadline. */
  readonly deadline: number;
  private readonly slice = new SliceClock();
  private heldBytes = 0;
  /** Largest `heldBytes` seen (peak memory of the statement's operators). */
  peakBytes = 0;

  constructor(readonly options: QueryTaskOptions) {
    this.deadline = options.timeoutSeconds > 0 ? this.startedAt + options.timeoutSeconds * 1000 : Infinity;
  }

  /** A task with no limits (internal statements, tests). */
  static unlimited(queryId = ''): QueryTask {
    return new QueryTask({ timeoutSeconds: 0, memLimitBytes: 0, queryId });
  }

  /** Stop the statement at its next checkpoint with `error` (the first cancel wins). */
  cancel(error: GaleneError): void {
    if (this.cancelError !== null) return;
    this.cancelError = error;
    this.aborter.abort(error);
  }

  /** Aborted (with the cancel error as its reason) when the task is cancelled. */
  get signal(): AbortSignal {
    return this.aborter.signal;
  }

  /** Throws when the task was cancelled or is past its deadline. */
  throwIfStopped(): void {
    if (this.cancelError !== null) throw this.cancelError;
    if (Date.now() > this.deadline) {
      this.cancel(new GaleneError('QUERY_TIMEOUT', [this.options.timeoutSeconds]));
      throw this.cancelError!;
    }
  }

  /**
   * A safe point between units of work: throws if stopped; yields the event loop when this task's slice
   * is used up. Returns undefined when there is nothing to await (the common case, so hot loops stay cheap).
   */
  checkpoint(): Promise<void> | undefined {
    this.throwIfStopped();
    if (!this.slice.due()) return undefined;
    return this.slice.yieldNow().then(() => this.throwIfStopped());
  }

  /** Account `bytes` more held by an operator; throws MEMORY_LIMIT past exec_mem_limit. */
  reserve(bytes: number): void {
    this.heldBytes += bytes;
    if (this.heldBytes > this.peakBytes) this.peakBytes = this.heldBytes;
    const limit = this.options.memLimitBytes;
    if (limit > 0 && this.heldBytes > limit) {
      const error = new GaleneError('MEMORY_LIMIT', [this.options.queryId, this.heldBytes, limit]);
      this.cancel(error);
      throw error;
    }
  }

  /** Give back bytes reserved earlier. */
  release(bytes: number): void {
    this.heldBytes = Math.max(0, this.heldBytes - bytes);
  }
}
