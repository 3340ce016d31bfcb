/**
 * In-memory cache of decoded pages (`storage_page_cache_limit`), so that a warm query neither reads nor
 * decodes again. LRU by bytes of decoded vectors, keyed by `${fileKey}:${pageOffset}`.
 *
 * Decoded pages are shared read-only between queries: callers must never mutate a vector (or its arrays)
 * obtained from the cache or from SegmentReader. A capacity of 0 disables caching.
 */
import * as os from 'node:os';
import type { Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import { vectorBytes } from './encoding/page-encoding';

interface PageEntry {
  readonly vec: Vector;
  readonly bytes: number;
}

export interface PageCacheStats {
  readonly capacityBytes: number;
  readonly usedBytes: number;
  readonly entries: number;
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
}

export class PageCache {
  capacityBytes: number;
  private readonly entries = new Map<string, PageEntry>();
  private used = 0;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(capacityBytes: number) {
    this.capacityBytes = Math.max(0, capacityBytes);
  }

  /** The cached page, counting PageCacheHits / PageCacheMisses in `profile`. */
  get(key: string, profile?: ProfileSink): Vector | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses++;
      profile?.add('PageCacheMisses', 1);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    profile?.add('PageCacheHits', 1);
    return entry.vec;
  }

  /** Cache a decoded page; a page larger than an eighth of the capacity is not kept. */
  put(key: string, vec: Vector, bytes = vectorBytes(vec)): void {
    if (bytes > this.capacityBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.used -= old.bytes;
    }
    this.entries.set(key, { vec, bytes });
    this.used += bytes;
    this.evictTo(this.capacityBytes);
  }

  private evictTo(limit: number): void {
    for (const [key, entry] of this.entries) {
      if (this.used <= limit) break;
      this.entries.delete(key);
      this.used -= entry.bytes;
      this.evictions++;
    }
  }

  /** Change the capacity at run time (evicting down to it). */
  resize(capacityBytes: number): void {
    this.capacityBytes = Math.max(0, capacityBytes);
    this.evictTo(this.capacityBytes);
  }

  /** Drop every page of one file (deleted segment). */
  invalidateFile(fileKey: string): void {
    const prefix = fileKey + ':';
    for (const [key, entry] of this.entries) {
      if (key.startsWith(prefix)) {
        this.entries.delete(key);
        this.used -= entry.bytes;
      }
    }
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  stats(): PageCacheStats {
    return { capacityBytes: this.capacityBytes, usedBytes: this.used, entries: this.entries.size, hits: this.hits, misses: this.misses, evictions: this.evictions };
  }
}

/**
 * `storage_page_cache_limit`: a byte count ('1073741824', '1g') or a percentage of physical memory
 * ('20%'). Bad values: INVALID_PROPERTY naming the setting.
 */
export function parsePageCacheLimit(text: string, totalMemory = os.totalmem(), setting = 'storage_page_cache_limit'): number {
  const trimmed = text.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(trimmed);
  if (percent) {
    const value = Number(percent[1]);
    if (value > 100) throw new GaleneError('INVALID_PROPERTY', [setting, `${text} (a percentage must be 0..100)`]);
    return Math.floor((totalMemory * value) / 100);
  }
  const bytes = /^(\d+)\s*([kmgt]?)b?$/i.exec(trimmed);
  if (!bytes) throw new GaleneError('INVALID_PROPERTY', [setting, `${text} (expected bytes like 1073741824 or 1g, or a percentage like 20%)`]);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[bytes[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Number(bytes[1]) * unit;
}
