/**
 * A least-recently-used map bounded by the total weight of its values (rows, bytes), for caches of
 * immutable things keyed by file: the most recently set entry is never the one evicted, so a single
 * entry heavier than the capacity still serves its own query.
 */
export class WeightedLru<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly weight: number }>();
  private totalWeight = 0;

  constructor(private readonly capacity: number) {}

  /** The value of `key`, now the most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The value of `key` without touching the order. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Insert or replace `key`, then drop the least recently used others while over capacity. */
  set(key: string, value: V, weight: number): void {
    this.delete(key);
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    for (const [oldKey, old] of this.entries) {
      if (this.totalWeight <= this.capacity || oldKey === key) break;
      this.entries.delete(oldKey);
      this.totalWeight -= old.weight;
    }
  }

  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
  }
}
