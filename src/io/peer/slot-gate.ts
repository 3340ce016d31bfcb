/**
 * A counting gate with a bounded wait: at most `capacity()` holders at once (read at each acquire, so a
 * run-time setting change applies), others wait in order for up to their timeout. Used by the peer server's
 * fetch pool and the requester's race limit.
 */
export class SlotGate {
  private held = 0;
  private readonly waiters: { grant: () => void }[] = [];

  constructor(private readonly capacity: () => number) {}

  /** A slot now if one is free. */
  tryAcquire(): boolean {
    if (this.held >= this.capacity() || this.waiters.length > 0) return false;
    this.held++;
    return true;
  }

  /** A slot within `timeoutMs` (false after it, or when `signal` aborts meanwhile). */
  acquire(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.tryAcquire()) return Promise.resolve(true);
    if (timeoutMs <= 0 || signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter = {
        grant: (): void => {
          finish();
          this.held++;
          resolve(true);
        },
      };
      const giveUp = (): void => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        finish();
        resolve(false);
      };
      const timer = setTimeout(giveUp, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(): void {
    this.held--;
    while (this.held < this.capacity() && this.waiters.length > 0) this.waiters.shift()!.grant();
  }

  get inUse(): number {
    return this.held;
  }
}
