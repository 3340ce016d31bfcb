/**
 * The recycler of aborted loads' objects (Doris's recycler, `recycle_interval_seconds`). A load that fails
 * deletes what it wrote, but a delete can fail (the store is down: the very outage that failed the load)
 * and an upload can finish after its load gave up; those objects stay in the bucket. Every interval the
 * BE lists its stores' `data/` keys and deletes each object that no rowset references and whose
 * transaction (the `<txn>` of `data/<tablet>/<txn>_<segment>.dat` and of its `.<index>.idx` files) is
 * ABORTED. Objects of running loads, of compaction (no transaction record) and of a BUILD INDEX in
 * progress (its segment's transaction is visible) are never touched; what a crash cut short is aborted at
 * start-up and swept then (Backend.removeOrphans). A store that cannot be listed is skipped until the
 * next round.
 */
import type { TransactionRecord } from '../meta/meta-store';

/** The transaction id in a segment or index object key, or null for any other key. */
export function objectTxnId(key: string): number | null {
  const match = /(?:^|\/)data\/\d+\/(\d+)_\d+(?:\.[^/]+)?\.(?:dat|idx)$/.exec(key);
  return match === null ? null : Number(match[1]);
}

/** The keys of `keys` the recycler deletes: unreferenced, of an ABORTED transaction. */
export function abortedObjectKeys(keys: readonly string[], referenced: ReadonlySet<string>, transaction: (txnId: number) => Pick<TransactionRecord, 'status'> | null): string[] {
  const aborted = new Map<number, boolean>();
  return keys.filter((key) => {
    if (referenced.has(key)) return false;
    const txnId = objectTxnId(key);
    if (txnId === null) return false;
    let isAborted = aborted.get(txnId);
    if (isAborted === undefined) {
      isAborted = transaction(txnId)?.status === 'ABORTED';
      aborted.set(txnId, isAborted);
    }
    return isAborted;
  });
}

/** Runs `sweep` every `intervalSeconds()` seconds (0: not at all), one round at a time. */
export class ObjectRecycler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly intervalSeconds: () => number,
    private readonly sweep: () => Promise<void>,
  ) {}

  /** (Re)arm the timer from the current interval. */
  schedule(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const seconds = this.intervalSeconds();
    if (this.stopped || seconds <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.sweep().finally(() => {
        this.running = null;
        this.schedule();
      });
    }, seconds * 1000);
    this.timer.unref();
  }

  /** Stop the timer and wait for a round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
