/**
 * io/peer/: Peer Read (Doris 4.2, seed 000) — BEs read the blocks they miss from each other's file caches,
 * raced against object storage. The requester is a RangeSource under the cached reader
 * (peer-range-source.ts), the server answers from its own cache (peer-fetch-service.ts), the candidate
 * table remembers whom to ask (peer-candidates.ts), and the RPC is `proto/peer.proto` (peer-protocol.ts).
 */
export { endpointOf, PeerCandidateTable, type PeerCandidate, type PeerCandidateLimits, type PeerCandidateSource, type PeerEndpoint, type TabletPeersView } from './peer-candidates';
export { peerCacheApi, type PeerCacheApiAnswer } from './peer-cache-api';
export { PeerFetchServer, type PeerServerCounters, type PeerServerMetric } from './peer-fetch-service';
export { peerCandidateLimits, type PeerSettingsReader } from './peer-settings';
export { blockRangesOf, blocksOfResponse, GrpcPeerClient, MAX_BLOCKS_PER_REQUEST, peerService, requestProblem, type PeerClient, type PeerFetchRequest, type PeerFetchResponse, type PeerFetchStatus } from './peer-protocol';
export { PeerRangeSource, tabletIdOfKey, type PeerCandidateLookup, type PeerRangeSourceOptions, type PeerRequesterCounters, type PeerRequesterMetric } from './peer-range-source';
export { SlotGate } from './slot-gate';
export { PEER_READ_METRICS, PeerReadCounts, type PeerReadMetric } from './peer-read-counts';
