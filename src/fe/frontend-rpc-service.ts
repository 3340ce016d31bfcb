/**
 * The FE's gRPC FrontendService (rpc_port): RegisterBackend, called by a BE started with `--fe`, and
 * GetTabletPeers, asked by a BE's Peer Read (io/peer) for a tablet's owners in every compute group. A
 * registration is checked field by field before membership changes (a peer's bad message gets
 * BAD_BACKEND_REGISTRATION and changes nothing); the BE's host is the one it names, which must be an
 * address this FE can reach it at.
 */
import { GaleneError } from '../common/errors';
import type { RpcServiceBinding } from '../io/rpc';
import { FRONTEND_SERVICE } from '../be/be-rpc-services';
import { checkComputeGroupName, DEFAULT_COMPUTE_GROUP, type BackendRecord, type ClusterMembership } from '../meta/cluster-membership';
import type { TabletPlacement } from '../meta/tablet-placement';

interface RegisterBackendRequest {
  readonly host: string;
  readonly heartbeat_port: number;
  readonly http_port: number;
  readonly brpc_port: number;
  readonly be_port: number;
  readonly compute_group: string;
  readonly start_time: number;
  readonly version: string;
  readonly unique_id: string;
}

const refuse = (why: string): GaleneError => new GaleneError('BAD_BACKEND_REGISTRATION', [why]);

function checkPort(name: string, value: number, allowNone: boolean): void {
  if (!Number.isInteger(value) || value > 65535 || value < (allowNone ? -1 : 1)) throw refuse(`${name} ${value} is not a port`);
}

function checkRequest(request: RegisterBackendRequest): void {
  if (!/^[a-zA-Z0-9._:-]{1,253}$/.test(request.host)) throw refuse(`bad host '${request.host}'`);
  checkPort('heartbeat_port', request.heartbeat_port, false);
  checkPort('http_port', request.http_port, false);
  checkPort('brpc_port', request.brpc_port, false);
  checkPort('be_port', request.be_port, true);
  if (!/^[0-9a-f]{32}$/.test(request.unique_id)) throw refuse(`bad unique_id '${request.unique_id.slice(0, 64)}'`);
  if (!Number.isSafeInteger(request.start_time) || request.start_time <= 0) throw refuse(`bad start_time ${request.start_time}`);
  if (request.version.length > 256) throw refuse('version too long');
  if (request.compute_group !== '') checkComputeGroupName(request.compute_group);
}

interface TabletPeersRequest {
  readonly tablet_id: number;
  readonly backend_id: number;
}

interface TabletPeer {
  readonly host: string;
  readonly brpc_port: number;
  readonly compute_group_id: string;
  readonly rebalance_hint: boolean;
}

/**
 * The live BE processes that own a tablet in each compute group (placement's owner), other than the asker;
 * in the asker's own group also the previous owner, as the rebalance hint. The FE's own in-process BE
 * serves no PeerService, so it is never named.
 */
export function tabletPeers(membership: ClusterMembership, placement: TabletPlacement, request: TabletPeersRequest): { peers: TabletPeer[]; compute_group_id: string } {
  if (!Number.isSafeInteger(request.tablet_id) || request.tablet_id <= 0) throw new GaleneError('RPC_INVALID_REQUEST', ['GetTabletPeers', 'FE', `bad tablet_id ${request.tablet_id}`]);
  const asker = membership.get(request.backend_id);
  const usable = (id: number | null): BackendRecord | null => {
    const backend = id === null || id === request.backend_id ? undefined : membership.get(id);
    return backend !== undefined && backend.alive && !backend.local && backend.brpcPort > 0 ? backend : null;
  };
  const peers: TabletPeer[] = [];
  const named = new Set<number>();
  const add = (backend: BackendRecord | null, rebalanceHint: boolean): void => {
    if (backend === null || named.has(backend.id)) return;
    named.add(backend.id);
    peers.push({ host: backend.host, brpc_port: backend.brpcPort, compute_group_id: backend.computeGroupId, rebalance_hint: rebalanceHint });
  };
  if (asker !== undefined) add(usable(placement.previousOwnerOf(asker.computeGroup, request.tablet_id)), true);
  for (const group of membership.groups()) add(usable(placement.ownerOf(group.name, request.tablet_id)), false);
  return { peers, compute_group_id: asker?.computeGroupId ?? '' };
}

export function frontendRpcService(membership: ClusterMembership, heartbeatIntervalMs: () => number, feStartTime: number, placement: TabletPlacement): RpcServiceBinding {
  return {
    service: FRONTEND_SERVICE,
    handlers: {
      RegisterBackend: (request: RegisterBackendRequest) => {
        checkRequest(request);
        const backend = membership.register(
          request.unique_id,
          { host: request.host, heartbeatPort: request.heartbeat_port, bePort: request.be_port, httpPort: request.http_port, brpcPort: request.brpc_port, startTime: request.start_time, version: request.version },
          request.compute_group || DEFAULT_COMPUTE_GROUP,
        );
        return { backend_id: backend.id, compute_group: backend.computeGroup, heartbeat_interval_ms: heartbeatIntervalMs(), fe_start_time: feStartTime };
      },
      GetTabletPeers: (request: TabletPeersRequest) => tabletPeers(membership, placement, request),
    },
  };
}
