/**
 * The requester side of Peer Read (Doris 4.2, seed 000; doris-facts A.3): the RangeSource the file
 * cache's misses go to when `enable_cache_read_from_peer` is on. It wraps the object-store source, so the
 * cached reader (cached-reader.ts) back-fills whatever this returns, from a peer or from storage alike.
 *
 * A miss of a tablet's file (keys `.../data/<tablet>/...`; other objects go straight to storage):
 *   - no candidates: storage now, and the FE is asked in the background for the tablet's owners in every
 *     compute group (`PeerLazyFetch`); later reads of the same query can use them;
 *   - race (`enable_peer_s3_race`, while fewer than `max_concurrent_peer_races` run): the peers are asked,
 *     and if none answered within `peer_race_hedge_delay_ms` storage is read too; the first complete
 *     answer wins (`PeerRaceWin` / `S3RaceWin`), the peer call is cancelled when storage wins;
 *   - sequential: the candidates one by one, then storage.
 * Only the missing blocks are asked for (the cached reader reads block-aligned runs of misses). A peer that
 * is unreachable, slow, busy, lacks a block, or answers with the wrong ranges or length never fails the
 * read: storage answers. Candidate bookkeeping (rotation, eviction, cooldown) is peer-candidates.ts.
 */
import type { ProfileSink } from '../../common/profile';
import type { RangeSource } from '../range-source';
import { endpointOf, type PeerCandidate, type PeerCandidateTable, type PeerEndpoint } from './peer-candidates';
import { blockRangesOf, blocksOfResponse, PEER_FILL_RPC_TIMEOUT_MS, PEER_RPC_TIMEOUT_MS, type PeerClient, type PeerFetchRequest } from './peer-protocol';
import type { PeerSettingsReader } from './peer-settings';
import { SlotGate } from './slot-gate';

/** Where the requester counts what it did (Doris's BE metric names). */
export interface PeerRequesterCounters {
  inc(name: PeerRequesterMetric, delta?: number): void;
}

export type PeerRequesterMetric =
  | 'cached_remote_reader_peer_read'
  | 'cached_remote_reader_s3_read'
  | 'peer_race_peer_win'
  | 'peer_race_s3_win'
  | 'peer_same_compute_group_read'
  | 'peer_cross_compute_group_read'
  | 'peer_lazy_fetch_triggered'
  /** Microseconds spent in successful peer reads (Doris keeps a latency recorder; its sum is this). */
  | 'peer_cache_reader_peer_latency';

/** Asks the FE where a tablet is served, in every compute group. */
export type PeerCandidateLookup = (tabletId: number) => Promise<readonly PeerEndpoint[]>;

export interface PeerRangeSourceOptions {
  /** The object store (the source when no peer answers). */
  readonly storage: RangeSource;
  readonly settings: PeerSettingsReader;
  readonly candidates: PeerCandidateTable;
  readonly client: PeerClient;
  /** This BE (its ports and group are known once it listens and registers): never its own candidate; its compute group tells same-group from cross-group reads. */
  readonly self: () => PeerEndpoint;
  /** The file cache's block size (peer requests are block-aligned). */
  readonly blockSize: number;
  readonly lookup?: PeerCandidateLookup;
  readonly counters?: PeerRequesterCounters;
}

const TABLET_OF_KEY = /(?:^|\/)data\/(\d+)\//;

/** The tablet whose file an object key names (segment and index keys: `[vault/<id>/]data/<tablet>/...`); null for other objects. */
export function tabletIdOfKey(key: string): number | null {
  const match = TABLET_OF_KEY.exec(key);
  return match === null ? null : Number(match[1]);
}

type HeadStart = { readonly answered: true; readonly data: Buffer | null } | { readonly answered: false };

export class PeerRangeSource implements RangeSource {
  readonly name = 'peer-or-object-store';
  private readonly races: SlotGate;
  private readonly counters: PeerRequesterCounters;

  constructor(private readonly options: PeerRangeSourceOptions) {
    this.races = new SlotGate(() => options.settings.get<number>('max_concurrent_peer_races'));
    this.counters = options.counters ?? { inc: () => undefined };
  }

  size(key: string, profile: ProfileSink): Promise<number | null> {
    return this.options.storage.size(key, profile);
  }

  async read(key: string, offset: number, length: number, profile: ProfileSink, fileSize?: number): Promise<Buffer> {
    const { settings, candidates } = this.options;
    const tabletId = tabletIdOfKey(key);
    if (!settings.get<boolean>('enable_cache_read_from_peer') || profile.skipPeer || fileSize === undefined || tabletId === null || length <= 0 || candidates.coolingDown(tabletId)) {
      return this.readStorage(key, offset, length, profile, fileSize);
    }
    const self = endpointOf(this.options.self());
    const peers = candidates.candidatesFor(tabletId).filter((peer) => endpointOf(peer) !== self);
    if (peers.length === 0) {
      this.lookUpLazily(tabletId, profile);
      return this.readStorage(key, offset, length, profile, fileSize);
    }
    const request: PeerFetchRequest = { path: key, file_size: fileSize, cache_req: blockRangesOf(offset, length, fileSize, this.options.blockSize), tablet_id: tabletId, request_cache_fill: false };
    const skip = offset - request.cache_req[0]!.block_offset;
    const cut = (blocks: Buffer): Buffer => blocks.subarray(skip, skip + length);
    if (settings.get<boolean>('enable_peer_s3_race') && this.races.tryAcquire()) {
      try {
        return await this.race(tabletId, peers, request, cut, key, offset, length, profile, fileSize);
      } finally {
        this.races.release();
      }
    }
    const fromPeer = await this.askPeers(tabletId, peers, request, profile);
    return fromPeer !== null ? cut(fromPeer) : this.readStorage(key, offset, length, profile, fileSize);
  }

  /** The peers get the hedge delay's head start; then storage too, and the first complete answer wins. */
  private async race(tabletId: number, peers: readonly PeerCandidate[], request: PeerFetchRequest, cut: (blocks: Buffer) => Buffer, key: string, offset: number, length: number, profile: ProfileSink, fileSize: number): Promise<Buffer> {
    const cancelPeer = new AbortController();
    const fromPeer = this.askPeers(tabletId, peers, request, profile, cancelPeer.signal);
    const early = await headStart(fromPeer, this.options.settings.get<number>('peer_race_hedge_delay_ms'));
    if (early.answered) {
      if (early.data === null) return this.readStorage(key, offset, length, profile, fileSize);
      this.countRaceWin('peer', profile);
      return cut(early.data);
    }
    const fromStorage = this.readStorage(key, offset, length, profile, fileSize);
    return new Promise<Buffer>((resolve, reject) => {
      let settled = false;
      let storageError: unknown = null;
      let peerDone = false;
      let storageDone = false;
      const win = (winner: 'peer' | 'storage', data: Buffer): void => {
        if (settled) return;
        settled = true;
        if (winner === 'storage') cancelPeer.abort();
        this.countRaceWin(winner, profile);
        resolve(data);
      };
      const lose = (): void => {
        if (!settled && peerDone && storageDone) {
          settled = true;
          reject(storageError);
        }
      };
      fromPeer.then((data) => {
        peerDone = true;
        if (data !== null) win('peer', cut(data));
        else lose();
      });
      fromStorage.then(
        (data) => {
          storageDone = true;
          win('storage', data);
        },
        (err: unknown) => {
          storageDone = true;
          storageError = err;
          lose();
        },
      );
    });
  }

  /** Ask the candidates in order; the blocks of the first that has them all, or null (never rejects). */
  private async askPeers(tabletId: number, peers: readonly PeerCandidate[], request: PeerFetchRequest, profile: ProfileSink, signal?: AbortSignal): Promise<Buffer | null> {
    const { candidates, client, settings } = this.options;
    const fillGroup = settings.get<string>('peer_cache_fill_compute_group_id');
    for (const peer of peers) {
      if (signal?.aborted) return null;
      const fill = fillGroup !== '' && peer.computeGroupId === fillGroup;
      const asked = fill ? { ...request, request_cache_fill: true } : request;
      const started = process.hrtime.bigint();
      try {
        const response = await client.fetch(peer, asked, { timeoutMs: fill ? PEER_FILL_RPC_TIMEOUT_MS : PEER_RPC_TIMEOUT_MS, ...(signal === undefined ? {} : { signal }) });
        if (response.status === 'OK') {
          const data = blocksOfResponse(asked, response, endpointOf(peer));
          this.countPeerRead(peer, data.length, Number(process.hrtime.bigint() - started), profile);
          candidates.recordHit(tabletId, peer);
          return data;
        }
        candidates.recordMiss(tabletId, peer);
      } catch {
        // A call this read cancelled (storage won the race) is not the peer's failure.
        if (signal?.aborted) return null;
        candidates.recordFailure(tabletId, peer);
      }
    }
    candidates.recordAllMiss(tabletId);
    return null;
  }

  private readStorage(key: string, offset: number, length: number, profile: ProfileSink, fileSize?: number): Promise<Buffer> {
    this.counters.inc('cached_remote_reader_s3_read');
    return this.options.storage.read(key, offset, length, profile, fileSize);
  }

  /** No candidates yet: ask the FE in the background (one lookup per tablet at a time); this read does not wait. */
  private lookUpLazily(tabletId: number, profile: ProfileSink): void {
    const { lookup, candidates } = this.options;
    if (lookup === undefined || !candidates.beginFeLookup(tabletId)) return;
    profile.add('PeerLazyFetch', 1);
    this.counters.inc('peer_lazy_fetch_triggered');
    const started = process.hrtime.bigint();
    const self = endpointOf(this.options.self());
    lookup(tabletId)
      .then(
        (peers) => candidates.setFromFe(tabletId, peers.filter((peer) => endpointOf(peer) !== self)),
        () => undefined,
      )
      .finally(() => {
        candidates.endFeLookup(tabletId);
        profile.add('PeerLazyFetchTime', Number(process.hrtime.bigint() - started));
      });
  }

  private countPeerRead(peer: PeerEndpoint, bytes: number, nanos: number, profile: ProfileSink): void {
    const sameGroup = peer.computeGroupId === this.options.self().computeGroupId;
    const prefix = sameGroup ? 'SameCGPeer' : 'CrossCGPeer';
    profile.add('NumPeerIOTotal', 1);
    profile.add('PeerIOUseTimer', nanos);
    profile.add(`${prefix}IOTotal`, 1);
    profile.add(`${prefix}BytesRead`, bytes);
    profile.add(`${prefix}IOTime`, nanos);
    this.counters.inc('cached_remote_reader_peer_read');
    this.counters.inc(sameGroup ? 'peer_same_compute_group_read' : 'peer_cross_compute_group_read');
    this.counters.inc('peer_cache_reader_peer_latency', Math.round(nanos / 1000));
  }

  private countRaceWin(winner: 'peer' | 'storage', profile: ProfileSink): void {
    profile.add(winner === 'peer' ? 'PeerRaceWin' : 'S3RaceWin', 1);
    this.counters.inc(winner === 'peer' ? 'peer_race_peer_win' : 'peer_race_s3_win');
  }
}

/** The peer's answer if it comes within `delayMs`; the timer goes as soon as it does. */
function headStart(fromPeer: Promise<Buffer | null>, delayMs: number): Promise<HeadStart> {
  if (delayMs <= 0) return Promise.resolve({ answered: false });
  return new Promise<HeadStart>((resolve) => {
    const timer = setTimeout(() => resolve({ answered: false }), delayMs);
    void fromPeer.then((data) => {
      clearTimeout(timer);
      resolve({ answered: true, data });
    });
  });
}
