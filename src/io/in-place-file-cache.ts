/**
 * The in-place tier of the file cache: a local-directory store's files read where they are, through a
 * bounded descriptor cache (no second copy on disk). Scan and compaction workers open one of their own
 * over the same directory.
 */
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import { FdCache } from './fd-cache';
import type { FileCache, FileCacheStats, RandomAccessFile } from './file-cache';
import type { ObjectStore } from './object-store';

/**
 * Reads a local store's files where they are. Counts each read as a local I/O
 * (NumLocalIOTotal, BytesScannedFromCache: for a local store the store itself is the cache tier).
 */
export class InPlaceFileCache implements FileCache {
  readonly kind = 'in-place' as const;
  private readonly store: ObjectStore;
  private readonly fds: FdCache;
  private reads = 0;
  private bytes = 0;

  constructor(store: ObjectStore, maxOpenFiles = 512) {
    if (store.kind !== 'local') throw new GaleneError('INTERNAL', ['InPlaceFileCache needs a local object store']);
    this.store = store;
    this.fds = new FdCache(maxOpenFiles);
  }

  private pathOf(key: string): string {
    const file = this.store.localPath(key);
    if (file === null) throw new GaleneError('INTERNAL', [`local store gave no path for ${key}`]);
    return file;
  }

  async open(key: string, _profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile> {
    const file = this.pathOf(key);
    const size = await this.fds.with(file, async (_handle, fileSize) => fileSize).catch((err: unknown) => {
      throw this.ioError(key, err);
    });
    if (knownSize !== undefined && knownSize !== size) {
      throw new GaleneError('CORRUPTION', [`${key}: size ${size} differs from the recorded ${knownSize}`]);
    }
    return { key, size, read: (offset, length, profile) => this.read(key, file, size, offset, length, profile) };
  }

  private ioError(key: string, err: unknown): GaleneError {
    if (err instanceof GaleneError) return err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new GaleneError('IO_ERROR', [`object not found: ${key}`], { cause: err });
    return new GaleneError('IO_ERROR', [`read ${key}: ${(err as Error).message}`], { cause: err });
  }

  private async read(key: string, file: string, size: number, offset: number, length: number, profile: ProfileSink): Promise<Buffer> {
    if (offset < 0 || length < 0 || offset + length > size) {
      throw new GaleneError('IO_ERROR', [`read ${key}: range [${offset}, ${offset + length}) outside object of ${size} bytes`]);
    }
    const out = Buffer.allocUnsafeSlow(length);
    try {
      await this.fds.with(file, async (handle) => {
        let done = 0;
        while (done < length) {
          const { bytesRead } = await handle.read(out, done, length - done, offset + done);
          if (bytesRead === 0) throw new GaleneError('IO_ERROR', [`read ${key}: object shorter than expected`]);
          done += bytesRead;
        }
      });
    } catch (err) {
      throw this.ioError(key, err);
    }
    this.reads++;
    this.bytes += length;
    profile.add('NumLocalIOTotal', 1);
    profile.add('BytesScannedFromCache', length);
    return out;
  }

  async invalidate(key: string): Promise<void> {
    this.fds.invalidate(this.pathOf(key));
  }

  async clear(): Promise<void> {
    this.fds.closeAll();
  }

  async flush(): Promise<void> {
    return undefined;
  }

  stats(): FileCacheStats {
    return {
      kind: 'in-place',
      capacityBytes: 0,
      usedBytes: 0,
      indexBytes: 0,
      normalBytes: 0,
      blocks: 0,
      hits: this.reads,
      misses: 0,
      remoteRequests: 0,
      remoteBytes: 0,
      bytesWritten: 0,
      evictions: 0,
    };
  }

  async close(): Promise<void> {
    this.fds.closeAll();
  }
}
