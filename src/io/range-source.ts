/**
 * Where the cached reader (cached-reader.ts) gets the bytes its block store does not have: an object's
 * size and ranged reads of it. The object store is the one source today (object-store-range-source.ts);
 * a peer BE's cache and a hedged race of peer and object store plug in here later, each a RangeSource
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
  /** `length` bytes at `offset` of an object; a missing object or a range past its end rejects. */
  read(key: string, offset: number, length: number, profile: ProfileSink): Promise<Buffer>;
}
