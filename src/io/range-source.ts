/**
 * Where the cached reader (cached-reader.ts) gets the bytes its block store does not have: an object's
 * size and ranged reads of it: the object store (object-store-range-source.ts), or Peer Read's source
 * (peer/peer-range-source.ts: another BE's cache raced against the object store), a RangeSource
 * the reader never tells apart (Doris's CachedRemoteFileReader over its remote reader).
 *
 * A source adds its own counters to the profile it is given (ObjectStoreRequests / ObjectStoreBytes for
 * the object store; a peer source its peer counters); the reader adds the cache's (FileCacheMisses,
 * NumRemoteIOTotal, BytesScannedFromRemote).
 */
import type { ProfileSink } from '../common/profile';

export interface RangeSource {
  /** Short name, for errors and logs ('object-store', 'peer', ...). */
  readonly name: string;
  /** Size of an object in bytes, or null when it does not exist. */
  size(key: string, profile: ProfileSink): Promise<number | null>;
  /**
   * `length` bytes at `offset` of an object; a missing object or a range past its end rejects. `fileSize`,
   * when the caller knows it, lets a peer source name whole blocks of the file.
   */
  read(key: string, offset: number, length: number, profile: ProfileSink, fileSize?: number): Promise<Buffer>;
}
