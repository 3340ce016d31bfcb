/**
 * How a cluster FE (`galene fe`) reaches the BE processes that read its OLAP tables: a BackendRouter over
 * the membership and the tablet placement (a tablet's owner is its rendezvous owner among the group's
 * live, non-decommissioned BEs; the group's other such BEs are the failover candidates), and the gRPC
 * FragmentTransport to each BE's brpc_port. Which group a statement reads through: the session's choice
 * (USE @cg, the user's default_compute_group), else `default_compute_group` when it has a live BE, else
 * the first group (by name) that has one. Embedded `galene start` never routes here.
 */
import { GaleneError } from '../common/errors';
import { DEFAULT_COMPUTE_GROUP, type ClusterMembership } from '../meta/cluster-membership';
import type { TabletPlacement } from '../meta/tablet-placement';
import { GrpcFragmentTransport } from './grpc-fragment-transport';
import type { BackendEndpoint, BackendRouter, RemoteScanRoute } from './remote-table-source';

export class ClusterBackendRouter implements BackendRouter {
  constructor(
    private readonly membership: ClusterMembership,
    private readonly placement: TabletPlacement,
  ) {}

  ownerOf(computeGroup: string, tabletId: number): BackendEndpoint | null {
    const id = this.placement.ownerOf(computeGroup, tabletId);
    return id === null ? null : this.endpoint(id);
  }

  liveBackends(computeGroup: string): readonly BackendEndpoint[] {
    return this.placement.eligibleBackends(computeGroup).flatMap((id) => this.endpoint(id) ?? []);
  }

  private endpoint(id: number): BackendEndpoint | null {
    const record = this.membership.get(id);
    return record === undefined ? null : { id, host: record.host, port: record.brpcPort };
  }
}

/** The route of a cluster FE, with the transport's channels to close at stop. */
export interface ClusterScanRoute extends RemoteScanRoute {
  /**
   * The group a statement reads through: `chosen` (the session's explicit group) when given, else the
   * default group or the first with a live BE. Null when the cluster has no BE process at all (a bare
   * `galene fe`: the FE's own BE reads). NO_BACKEND_AVAILABLE when the group has no live BE.
   */
  groupFor(chosen: string | null, access?: ComputeGroupAccess): string | null;
  close(): void;
}

/** Which compute groups the statement's account may read through (USAGE_PRIV ON COMPUTE GROUP). */
export interface ComputeGroupAccess {
  mayUse(group: string): boolean;
  /** The error for a group it may not use. */
  denied(group: string): GaleneError;
}

const ANY_GROUP: ComputeGroupAccess = { mayUse: () => true, denied: (group) => new GaleneError('INTERNAL', [`compute group ${group} refused`]) };

export function clusterScanRoute(membership: ClusterMembership, placement: TabletPlacement): ClusterScanRoute {
  const transport = new GrpcFragmentTransport();
  const router = new ClusterBackendRouter(membership, placement);
  return {
    router,
    transport,
    groupFor(chosen, access = ANY_GROUP) {
      const members = membership.list().filter((backend) => !backend.local);
      if (members.length === 0) return null;
      const live = (group: string): boolean => placement.eligibleBackends(group).length > 0;
      let group = chosen;
      if (group === null) {
        // Doris's automatic choice: a group with a live BE that the account may use.
        const names = [...new Set(members.map((backend) => backend.computeGroup))].sort().filter((name) => access.mayUse(name));
        if (names.length === 0) throw access.denied(DEFAULT_COMPUTE_GROUP);
        group = live(DEFAULT_COMPUTE_GROUP) && names.includes(DEFAULT_COMPUTE_GROUP) ? DEFAULT_COMPUTE_GROUP : (names.find(live) ?? (names.includes(DEFAULT_COMPUTE_GROUP) ? DEFAULT_COMPUTE_GROUP : names[0]!));
      } else if (!access.mayUse(group)) {
        throw access.denied(group);
      }
      if (!live(group)) throw new GaleneError('NO_BACKEND_AVAILABLE', [`no alive backend in compute group ${group}`]);
      return group;
    },
    close: () => transport.close(),
  };
}
