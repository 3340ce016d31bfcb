/**
 * The remote scan path inside one process (setting `debug_remote_scan_backends`): a router that presents
 * this process's BE as n backends and a FragmentTransport that serves every call with the BE's fragment
 * executor — each call and each streamed item written to bytes and read back with the wire codec, as
 * between two processes, so the whole FE side of a cluster scan (per-tablet calls, order, global row id
 * mapping, profiles, failover, cancellation) runs with every SQL test. `debug_remote_scan_unreachable_backend`
 * makes one backend id fail as an unreachable one would, before it sends anything.
 */
import type { Vector } from '../common/column';
import type { Config } from '../common/config';
import { GaleneError } from '../common/errors';
import { QueryProfile } from '../common/profile';
import { fromWire, toWire, vectorsFromWire, vectorsToWire } from '../exec/parallel/fragment-wire';
import type { Backend } from '../be/backend';
import { executeFetch, executeScan, profileCounters, scanItemFromWire, scanItemToWire, type FetchCall, type ScanCall } from '../be/fragment-executor';
import type { BackendEndpoint, BackendProfile, BackendRouter, CallOptions, FragmentTransport, ScanReply } from './remote-table-source';

/**
 * Backends 1..n on this host; tablet t is owned by backend 1 + (t mod n) while it is reachable. `portOf`
 * gives each backend's port when asked (over gRPC: the in-process FragmentService, or a dead port for the
 * unreachable one); by default 0 (the loopback transport ignores it).
 */
export class LoopbackRouter implements BackendRouter {
  private readonly ids: number[];

  constructor(
    count: number,
    private readonly portOf: (backendId: number) => number = () => 0,
  ) {
    this.ids = Array.from({ length: count }, (_, idx) => idx + 1);
  }

  ownerOf(_computeGroup: string, tabletId: number): BackendEndpoint | null {
    return this.ids.length === 0 ? null : this.endpoint(this.ids[tabletId % this.ids.length]);
  }

  liveBackends(): readonly BackendEndpoint[] {
    return this.ids.map((id) => this.endpoint(id));
  }

  private endpoint(id: number): BackendEndpoint {
    return { id, host: '127.0.0.1', port: this.portOf(id) };
  }
}

export class LoopbackFragmentTransport implements FragmentTransport {
  constructor(
    private readonly backend: Backend,
    private readonly config: Config,
  ) {}

  private check(endpoint: BackendEndpoint, options: CallOptions): void {
    if (endpoint.id === this.config.getInt('debug_remote_scan_unreachable_backend')) throw new GaleneError('BACKEND_UNREACHABLE', [`${endpoint.id} (loopback)`, 'debug_remote_scan_unreachable_backend']);
    if (options.signal.aborted) throw options.signal.reason instanceof GaleneError ? options.signal.reason : new GaleneError('QUERY_CANCELLED', ['the FE']);
  }

  async *executeScan(endpoint: BackendEndpoint, call: ScanCall, options: CallOptions): AsyncIterable<ScanReply> {
    this.check(endpoint, options);
    const received = fromWire(toWire(call), 'scan call') as ScanCall;
    const profile = new QueryProfile(call.queryId, '', '', '');
    for await (const item of executeScan(this.backend, received, profile, options.signal)) {
      if (Date.now() > options.deadline) throw new GaleneError('QUERY_TIMEOUT', [Math.round((options.deadline - profile.startTime) / 1000)]);
      yield scanItemFromWire(scanItemToWire(item));
    }
    yield { kind: 'end', profile: fromWire(toWire(profileCounters(profile)), 'scan profile') as BackendProfile };
  }

  async fetchRows(endpoint: BackendEndpoint, call: FetchCall, options: CallOptions): Promise<{ vectors: Vector[]; profile: BackendProfile }> {
    this.check(endpoint, options);
    const profile = new QueryProfile(call.queryId, '', '', '');
    const vectors = await executeFetch(this.backend, fromWire(toWire(call), 'fetch call') as FetchCall, profile);
    return { vectors: vectorsFromWire(vectorsToWire(vectors)), profile: profileCounters(profile) };
  }
}
