/**
 * Peer Read's BE metrics (doris-facts A.6), kept as plain counts for `/metrics` to read at scrape time:
 * the requester's and the server's, in Doris's names.
 */
import type { PeerServerCounters, PeerServerMetric } from './peer-fetch-service';
import type { PeerRequesterCounters, PeerRequesterMetric } from './peer-range-source';

export type PeerReadMetric = PeerRequesterMetric | PeerServerMetric;

export const PEER_READ_METRICS: readonly PeerReadMetric[] = [
  'cached_remote_reader_peer_read',
  'cached_remote_reader_s3_read',
  'peer_race_peer_win',
  'peer_race_s3_win',
  'peer_same_compute_group_read',
  'peer_cross_compute_group_read',
  'peer_lazy_fetch_triggered',
  'peer_cache_reader_peer_latency',
  'file_cache_get_by_peer_num',
  'file_cache_get_by_peer_success_num',
  'file_cache_get_by_peer_failed_num',
  'file_cache_get_by_peer_queue_timeout_num',
  'peer_server_fill_requested',
  'peer_server_fill_success',
  'peer_server_fill_timeout',
  'peer_server_fill_rejected',
];

export class PeerReadCounts implements PeerRequesterCounters, PeerServerCounters {
  private readonly counts = new Map<PeerReadMetric, number>();

  inc(name: PeerReadMetric, delta = 1): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + delta);
  }

  get(name: PeerReadMetric): number {
    return this.counts.get(name) ?? 0;
  }
}
