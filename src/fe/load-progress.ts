/**
 * Progress of the Stream Loads running now, by transaction id: rows scanned and bytes read so far. The
 * Stream Load service reports after every parsed block (StreamLoadHost.onProgress); SHOW LOAD, SHOW PROC
 * '/current_queries', SHOW PROCESSLIST and information_schema.processlist read it while the load runs.
 * Nothing here is durable: a finished load's counts are in its job info (meta store).
 */

/** One running load as last reported. */
export interface LoadProgressEntry {
  readonly txnId: number;
  readonly scannedRows: number;
  readonly loadBytes: number;
  /** When the first report came (ms since the epoch). */
  readonly startedAt: number;
  /** Set by CANCEL LOAD: the load stops at its next report with this reason. */
  readonly cancelReason: string | null;
}

/** Entries kept at most; the oldest go first (a load that never finished cleanly must not leak). */
const MAX_ENTRIES = 10_000;

export class LoadProgress {
  private readonly entries = new Map<number, LoadProgressEntry>();

  /**
   * The load of `txnId` has scanned `scannedRows` rows and read `loadBytes` body bytes so far. Returns the
   * reason to stop when the load was cancelled, else null.
   */
  report(txnId: number, scannedRows: number, loadBytes: number): string | null {
    const previous = this.entries.get(txnId);
    const cancelReason = previous?.cancelReason ?? null;
    this.entries.set(txnId, { txnId, scannedRows, loadBytes, startedAt: previous?.startedAt ?? Date.now(), cancelReason });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as number);
    return cancelReason;
  }

  /** Ask the running load of `txnId` to stop at its next report; false when it is not running here. */
  cancel(txnId: number, reason: string): boolean {
    const entry = this.entries.get(txnId);
    if (!entry) return false;
    this.entries.set(txnId, { ...entry, cancelReason: reason });
    return true;
  }

  get(txnId: number): LoadProgressEntry | undefined {
    return this.entries.get(txnId);
  }

  /**
   * The entries whose load still runs; `isRunning` says so from the transaction's state, and entries of
   * loads that ended are dropped here.
   */
  running(isRunning: (txnId: number) => boolean): LoadProgressEntry[] {
    const out: LoadProgressEntry[] = [];
    for (const entry of this.entries.values()) {
      if (isRunning(entry.txnId)) out.push(entry);
      else this.entries.delete(entry.txnId);
    }
    return out;
  }
}
