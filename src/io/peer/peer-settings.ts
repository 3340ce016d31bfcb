/**
 * How Peer Read reads its settings: the BE's Config (common/config.ts, slice P), read at each use so that
 * `/api/update_config` changes apply to the next read.
 */
import type { PeerCandidateLimits } from './peer-candidates';

export interface PeerSettingsReader {
  get<T extends string | number | boolean>(name: string): T;
}

/** The candidate table's limits, from the settings of the same names. */
export function peerCandidateLimits(settings: PeerSettingsReader): () => PeerCandidateLimits {
  return () => ({
    failureEvictionThreshold: settings.get<number>('peer_rpc_failure_eviction_threshold'),
    allMissCooldownThreshold: settings.get<number>('peer_all_miss_cooldown_threshold'),
    allMissCooldownMs: settings.get<number>('peer_all_miss_cooldown_duration_s') * 1000,
    expiryMs: settings.get<number>('peer_candidate_expiry_s') * 1000,
  });
}
