/**
 * The peer candidates of each tablet on a requesting BE (Doris 4.2 Peer Read, doris-facts A.3): which
 * other BEs may hold a tablet's blocks in their file caches, in the order to ask them, and what asking
 * them taught.
 *
 * Sources, in priority order: the previous owner the FE named when the tablet moved to this BE
 * (`rebalance_hint`), the tablet's owners in every compute group as the FE answered (`fe`), and entries
 * an operator set over `/api/peer_cache?op=set` (`manual`). Among equals, the compute group that last
 * served the tablet goes first. A candidate that lacked a block moves to the end of the list; one whose
 * RPC failed `peer_rpc_failure_eviction_threshold` times in a row is dropped; after
 * `peer_all_miss_cooldown_threshold` reads on which every candidate missed, the tablet reads storage
 * directly for `peer_all_miss_cooldown_duration_s`. Entries unused for `peer_candidate_expiry_s` go.
 * The table is plain state: callers decide when to read (peer-range-source.ts) and serve it over HTTP
 * (peer-cache-api.ts).
 */

export type PeerCandidateSource = 'rebalance_hint' | 'fe' | 'manual';

/** A BE to ask: its host, its RPC port and its compute group's id. */
export interface PeerEndpoint {
  readonly host: string;
  readonly brpcPort: number;
  readonly computeGroupId: string;
}

export interface PeerCandidate extends PeerEndpoint {
  readonly source: PeerCandidateSource;
  lastAccessTimeMs: number;
  consecutiveRpcFailures: number;
}

interface TabletPeers {
  candidates: PeerCandidate[];
  lastSuccessfulComputeGroupId: string;
  fetchingFromFe: boolean;
  consecutiveAllMiss: number;
  cooldownUntilMs: number;
  lastUsedMs: number;
}

/** The limits the table applies, read at each use so that `/api/update_config` changes them at once. */
export interface PeerCandidateLimits {
  readonly failureEvictionThreshold: number;
  readonly allMissCooldownThreshold: number;
  readonly allMissCooldownMs: number;
  readonly expiryMs: number;
}

/** One tablet's entry as `/api/peer_cache?op=show` prints it (Doris's field names). */
export interface TabletPeersView {
  readonly tablet_id: number;
  readonly candidates: { host: string; brpc_port: number; compute_group_id: string; source: PeerCandidateSource; last_access_time_ms: number; consecutive_rpc_failures: number }[];
  readonly last_successful_compute_group_id: string;
  readonly fetching_from_fe: boolean;
  readonly consecutive_all_miss: number;
  readonly cooldown_until_ms: number;
}

const SOURCE_RANK: Readonly<Record<PeerCandidateSource, number>> = { rebalance_hint: 0, fe: 1, manual: 2 };

export const endpointOf = (peer: Pick<PeerEndpoint, 'host' | 'brpcPort'>): string => `${peer.host}:${peer.brpcPort}`;

export class PeerCandidateTable {
  private readonly tablets = new Map<number, TabletPeers>();

  constructor(
    private readonly limits: () => PeerCandidateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the tablet is cooling down (every candidate missed too often): read storage directly. */
  coolingDown(tabletId: number): boolean {
    const entry = this.tablets.get(tabletId);
    return entry !== undefined && entry.cooldownUntilMs > this.now();
  }

  /** The candidates to ask for a read of the tablet, in order (a copy); empty when none or cooling down. */
  candidatesFor(tabletId: number): PeerCandidate[] {
    const entry = this.tablets.get(tabletId);
    if (entry === undefined || entry.cooldownUntilMs > this.now()) return [];
    entry.lastUsedMs = this.now();
    const preferred = entry.lastSuccessfulComputeGroupId;
    // A stable sort keeps the list's own order (moved-to-end misses) inside each rank.
    return entry.candidates
      .map((candidate, position) => ({ candidate, position }))
      .sort((a, b) => {
        const rank = SOURCE_RANK[a.candidate.source] - SOURCE_RANK[b.candidate.source];
        if (rank !== 0) return rank;
        const group = Number(b.candidate.computeGroupId === preferred) - Number(a.candidate.computeGroupId === preferred);
        return group !== 0 ? group : a.position - b.position;
      })
      .map(({ candidate }) => candidate);
  }

  /** The FE's hint: the BE that owned the tablet before it moved here (asked first). */
  addRebalanceHint(tabletId: number, peer: PeerEndpoint): void {
    this.merge(tabletId, [peer], 'rebalance_hint');
  }

  /** The tablet's owners in every compute group, as the FE answered: they replace the previous answer. */
  setFromFe(tabletId: number, peers: readonly PeerEndpoint[]): void {
    const entry = this.entry(tabletId);
    entry.candidates = entry.candidates.filter((candidate) => candidate.source !== 'fe');
    this.merge(tabletId, peers, 'fe');
  }

  /** An operator's entries (`/api/peer_cache?op=set`): they replace the tablet's manual entries. */
  setManual(tabletId: number, peers: readonly PeerEndpoint[]): void {
    const entry = this.entry(tabletId);
    entry.candidates = entry.candidates.filter((candidate) => candidate.source !== 'manual');
    this.merge(tabletId, peers, 'manual');
  }

  /** Forget a tablet's entry; false when there was none. */
  remove(tabletId: number): boolean {
    return this.tablets.delete(tabletId);
  }

  /** End a tablet's cooldown (and its all-miss count); false when there was no entry. */
  resetCooldown(tabletId: number): boolean {
    const entry = this.tablets.get(tabletId);
    if (entry === undefined) return false;
    entry.cooldownUntilMs = 0;
    entry.consecutiveAllMiss = 0;
    return true;
  }

  /** The candidate served the read: its group goes first next time, its failures and the all-miss count reset. */
  recordHit(tabletId: number, peer: PeerEndpoint): void {
    const entry = this.tablets.get(tabletId);
    if (entry === undefined) return;
    const candidate = this.find(entry, peer);
    if (candidate !== undefined) {
      candidate.consecutiveRpcFailures = 0;
      candidate.lastAccessTimeMs = this.now();
    }
    entry.lastSuccessfulComputeGroupId = peer.computeGroupId;
    entry.consecutiveAllMiss = 0;
  }

  /** The candidate answered but lacked a block (a soft miss): it moves to the end, nothing is counted against it. */
  recordMiss(tabletId: number, peer: PeerEndpoint): void {
    const entry = this.tablets.get(tabletId);
    const candidate = entry === undefined ? undefined : this.find(entry, peer);
    if (entry === undefined || candidate === undefined) return;
    candidate.consecutiveRpcFailures = 0;
    candidate.lastAccessTimeMs = this.now();
    entry.candidates = [...entry.candidates.filter((other) => other !== candidate), candidate];
  }

  /** The RPC to the candidate failed (unreachable, timed out, a bad answer): dropped at the threshold. */
  recordFailure(tabletId: number, peer: PeerEndpoint): void {
    const entry = this.tablets.get(tabletId);
    const candidate = entry === undefined ? undefined : this.find(entry, peer);
    if (entry === undefined || candidate === undefined) return;
    candidate.consecutiveRpcFailures++;
    candidate.lastAccessTimeMs = this.now();
    if (candidate.consecutiveRpcFailures >= this.limits().failureEvictionThreshold) {
      entry.candidates = entry.candidates.filter((other) => other !== candidate);
    } else {
      entry.candidates = [...entry.candidates.filter((other) => other !== candidate), candidate];
    }
  }

  /** Every candidate missed this read: at the threshold the tablet cools down. */
  recordAllMiss(tabletId: number): void {
    const entry = this.tablets.get(tabletId);
    if (entry === undefined) return;
    entry.consecutiveAllMiss++;
    const limits = this.limits();
    if (entry.consecutiveAllMiss >= limits.allMissCooldownThreshold) {
      entry.cooldownUntilMs = this.now() + limits.allMissCooldownMs;
      entry.consecutiveAllMiss = 0;
    }
  }

  /** Mark the tablet's FE lookup as running; false when one already is (one lookup per tablet at a time). */
  beginFeLookup(tabletId: number): boolean {
    const entry = this.entry(tabletId);
    if (entry.fetchingFromFe) return false;
    entry.fetchingFromFe = true;
    return true;
  }

  endFeLookup(tabletId: number): void {
    const entry = this.tablets.get(tabletId);
    if (entry !== undefined) entry.fetchingFromFe = false;
  }

  /** Drop candidates unused for the expiry, and tablets left with nothing to remember; returns how many candidates went. */
  cleanup(): number {
    const now = this.now();
    const { expiryMs } = this.limits();
    let dropped = 0;
    for (const [tabletId, entry] of this.tablets) {
      const kept = entry.candidates.filter((candidate) => now - candidate.lastAccessTimeMs < expiryMs);
      dropped += entry.candidates.length - kept.length;
      entry.candidates = kept;
      if (kept.length === 0 && !entry.fetchingFromFe && entry.cooldownUntilMs <= now && now - entry.lastUsedMs >= expiryMs) this.tablets.delete(tabletId);
    }
    return dropped;
  }

  show(tabletId: number): TabletPeersView | null {
    const entry = this.tablets.get(tabletId);
    return entry === undefined ? null : viewOf(tabletId, entry);
  }

  showAll(limit: number): TabletPeersView[] {
    const views: TabletPeersView[] = [];
    for (const [tabletId, entry] of this.tablets) {
      if (views.length >= limit) break;
      views.push(viewOf(tabletId, entry));
    }
    return views;
  }

  get size(): number {
    return this.tablets.size;
  }

  private entry(tabletId: number): TabletPeers {
    let entry = this.tablets.get(tabletId);
    if (entry === undefined) {
      entry = { candidates: [], lastSuccessfulComputeGroupId: '', fetchingFromFe: false, consecutiveAllMiss: 0, cooldownUntilMs: 0, lastUsedMs: this.now() };
      this.tablets.set(tabletId, entry);
    }
    return entry;
  }

  private find(entry: TabletPeers, peer: Pick<PeerEndpoint, 'host' | 'brpcPort'>): PeerCandidate | undefined {
    return entry.candidates.find((candidate) => candidate.host === peer.host && candidate.brpcPort === peer.brpcPort);
  }

  /** Add peers from a source; a peer already listed keeps its place but takes the better-ranked source. */
  private merge(tabletId: number, peers: readonly PeerEndpoint[], source: PeerCandidateSource): void {
    const entry = this.entry(tabletId);
    const now = this.now();
    for (const peer of peers) {
      const known = this.find(entry, peer);
      if (known !== undefined && SOURCE_RANK[known.source] <= SOURCE_RANK[source]) continue;
      const candidate: PeerCandidate = { host: peer.host, brpcPort: peer.brpcPort, computeGroupId: peer.computeGroupId, source, lastAccessTimeMs: now, consecutiveRpcFailures: 0 };
      entry.candidates = known === undefined ? [...entry.candidates, candidate] : entry.candidates.map((other) => (other === known ? candidate : other));
    }
  }
}

function viewOf(tabletId: number, entry: TabletPeers): TabletPeersView {
  return {
    tablet_id: tabletId,
    candidates: entry.candidates.map((candidate) => ({ host: candidate.host, brpc_port: candidate.brpcPort, compute_group_id: candidate.computeGroupId, source: candidate.source, last_access_time_ms: candidate.lastAccessTimeMs, consecutive_rpc_failures: candidate.consecutiveRpcFailures })),
    last_successful_compute_group_id: entry.lastSuccessfulComputeGroupId,
    fetching_from_fe: entry.fetchingFromFe,
    consecutive_all_miss: entry.consecutiveAllMiss,
    cooldown_until_ms: entry.cooldownUntilMs,
  };
}
