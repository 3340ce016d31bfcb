/**
 * Load memory, bounded and metered (Doris's MemTableMemoryLimiter): every memtable's bytes count from the
 * row append until its segments are uploaded. Above the soft limit (`load_process_soft_mem_limit_percent`
 * of the hard one) the largest memtable not yet flushing is flushed first; at the hard limit
 * (`load_process_max_memory_limit_percent` of mem_limit) writers wait until flushes and uploads bring
 * the total back under it.
 */

/** A memtable the limiter can pick for an early flush. */
export interface LimitedMemtable {
  /** Bytes it holds and that are not yet flushing. */
  readonly activeBytes: number;
  /** Submit it for flush now (the writer keeps appending to a fresh memtable). */
  flushEarly(): void;
}

export class LoadMemoryLimiter {
  /** Bytes of memtables appended, flushing or uploading. */
  bytes = 0;
  /** Highest `bytes` seen. */
  peakBytes = 0;
  /** Early flushes the soft limit caused. */
  softLimitFlushes = 0;
  private readonly memtables = new Set<LimitedMemtable>();

  constructor(
    public hardLimitBytes: number,
    public softLimitBytes: number,
  ) {}

  reserve(bytes: number): void {
    this.bytes += bytes;
    if (this.bytes > this.peakBytes) this.peakBytes = this.bytes;
  }

  release(bytes: number): void {
    this.bytes = Math.max(0, this.bytes - bytes);
  }

  register(memtable: LimitedMemtable): void {
    this.memtables.add(memtable);
  }

  unregister(memtable: LimitedMemtable): void {
    this.memtables.delete(memtable);
  }

  /** At or over the hard limit: writers wait. */
  get overHardLimit(): boolean {
    return this.bytes >= this.hardLimitBytes;
  }

  /**
   * Over the soft limit: flush the largest memtable not yet flushing — unless the bytes already flushing
   * or uploading reach the soft limit by themselves (another early flush would only make small segments).
   */
  relieve(): void {
    if (this.bytes <= this.softLimitBytes) return;
    let largest: LimitedMemtable | null = null;
    let active = 0;
    for (const memtable of this.memtables) {
      active += memtable.activeBytes;
      if (memtable.activeBytes > 0 && (largest === null || memtable.activeBytes > largest.activeBytes)) largest = memtable;
    }
    if (largest === null || this.bytes - active >= this.softLimitBytes) return;
    this.softLimitFlushes++;
    largest.flushEarly();
  }
}
