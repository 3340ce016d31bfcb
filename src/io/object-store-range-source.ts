/**
 * The object store as a RangeSource: sizes by HEAD, ranges by ranged GET, each request counted
 * (ObjectStoreRequests, and ObjectStoreBytes for the bytes a GET returned).
 */
import type { ProfileSink } from '../common/profile';
import type { ObjectStore } from './object-store';
import type { RangeSource } from './range-source';

export class ObjectStoreRangeSource implements RangeSource {
  readonly name = 'object-store';

  constructor(readonly store: ObjectStore) {}

  async size(key: string, profile: ProfileSink): Promise<number | null> {
    profile.add('ObjectStoreRequests', 1);
    const head = await this.store.head(key);
    return head === null ? null : head.size;
  }

  async read(key: string, offset: number, length: number, profile: ProfileSink): Promise<Buffer> {
    profile.add('ObjectStoreRequests', 1);
    const data = await this.store.get(key, { offset, length });
    profile.add('ObjectStoreBytes', data.length);
    return data;
  }
}
