/**
 * A bounded cache of open read-only file descriptors, shared by the local object store and the in-place
 * file reader so that hot segment files are not reopened for every ranged read.
 *
 * Descriptors are reference counted: one evicted (or invalidated) while a read uses it is closed only when
 * that read releases it, so a descriptor number is never closed under a running read (and then reused for
 * another file).
 */
import * as fsp from 'node:fs/promises';

interface FdEntry {
  readonly handle: fsp.FileHandle;
  readonly size: number;
  refs: number;
  retired: boolean;
}

export class FdCache {
  private readonly entries = new Map<string, FdEntry>();
  private readonly opening = new Map<string, Promise<FdEntry>>();
  readonly maxOpen: number;

  constructor(maxOpen = 256) {
    this.maxOpen = Math.max(1, maxOpen);
  }

  get openCount(): number {
    return this.entries.size;
  }

  /**
   * Run `fn` with an open handle of `path` (and the file's size at open time). Rejects with the fs error
   * (ENOENT...) when the file cannot be opened; callers map it to their error.
   */
  async with<T>(path: string, fn: (handle: fsp.FileHandle, size: number) => Promise<T>): Promise<T> {
    const entry = await this.acquire(path);
    try {
      return await fn(entry.handle, entry.size);
    } finally {
      this.release(entry);
    }
  }

  private async acquire(path: string): Promise<FdEntry> {
    let entry = this.entries.get(path);
    if (entry) {
      // LRU: move to the end.
      this.entries.delete(path);
      this.entries.set(path, entry);
      entry.refs++;
      return entry;
    }
    let pending = this.opening.get(path);
    if (!pending) {
      pending = (async () => {
        const handle = await fsp.open(path, 'r');
        try {
          const stat = await handle.stat();
          return { handle, size: stat.size, refs: 0, retired: false };
        } catch (err) {
          await handle.close();
          throw err;
        }
      })();
      this.opening.set(path, pending);
      pending.then(
        (opened) => {
          this.opening.delete(path);
          this.entries.set(path, opened);
          this.evictOverflow();
        },
        () => this.opening.delete(path),
      );
    }
    entry = await pending;
    if (entry.retired) return this.acquire(path);
    entry.refs++;
    return entry;
  }

  private release(entry: FdEntry): void {
    entry.refs--;
    if (entry.retired && entry.refs === 0) void entry.handle.close().catch(() => undefined);
  }

  private retire(path: string, entry: FdEntry): void {
    this.entries.delete(path);
    entry.retired = true;
    if (entry.refs === 0) void entry.handle.close().catch(() => undefined);
  }

  private evictOverflow(): void {
    for (const [path, entry] of this.entries) {
      if (this.entries.size <= this.maxOpen) break;
      this.retire(path, entry);
    }
  }

  /** Forget a path (deleted or replaced file). */
  invalidate(path: string): void {
    const entry = this.entries.get(path);
    if (entry) this.retire(path, entry);
  }

  /** Close every idle descriptor (busy ones close when released). */
  closeAll(): void {
    for (const [path, entry] of [...this.entries]) this.retire(path, entry);
  }
}
