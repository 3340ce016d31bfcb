/**
 * A remote-shaped wrapper over any object store: kind 'remote', no local paths, a latency per request,
 * and public request / byte counters. It stands in for S3 until the S3 store exists, so the block file
 * cache is built and tested against a store that behaves like one (every read is a counted round trip).
 */
import type { ObjectStore } from './object-store';
import { objectParts } from './object-store';

export interface RemoteLikeOptions {
  /** Added before every request, in milliseconds (default 0). */
  readonly latencyMs?: number;
}

export class RemoteLikeObjectStore implements ObjectStore {
  readonly kind = 'remote' as const;
  readonly inner: ObjectStore;
  latencyMs: number;
  /** Requests of every kind (get, put, head, list, delete). */
  requests = 0;
  getRequests = 0;
  putRequests = 0;
  headRequests = 0;
  /** Bytes returned by get. */
  bytesRead = 0;
  /** Bytes sent by put. */
  bytesWritten = 0;

  constructor(inner: ObjectStore, options: RemoteLikeOptions = {}) {
    this.inner = inner;
    this.latencyMs = options.latencyMs ?? 0;
  }

  /** Close the wrapped store's descriptors. */
  close(): void {
    this.inner.close?.();
  }

  private async delay(): Promise<void> {
    this.requests++;
    if (this.latencyMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, this.latencyMs));
  }

  async put(key: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    await this.delay();
    this.putRequests++;
    for (const part of objectParts(data)) this.bytesWritten += part.length;
    await this.inner.put(key, data);
  }

  async get(key: string, range?: { offset: number; length: number }): Promise<Buffer> {
    await this.delay();
    this.getRequests++;
    const data = await this.inner.get(key, range);
    this.bytesRead += data.length;
    return data;
  }

  async head(key: string): Promise<{ size: number } | null> {
    await this.delay();
    this.headRequests++;
    return this.inner.head(key);
  }

  async list(prefix: string): Promise<string[]> {
    await this.delay();
    return this.inner.list(prefix);
  }

  async delete(key: string): Promise<void> {
    await this.delay();
    return this.inner.delete(key);
  }

  localPath(): null {
    return null;
  }

  /** Zero the counters (tests measure one phase at a time). */
  resetCounters(): void {
    this.requests = this.getRequests = this.putRequests = this.headRequests = 0;
    this.bytesRead = this.bytesWritten = 0;
  }
}
