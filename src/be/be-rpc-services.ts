/**
 * The gRPC services a BE process serves, in one list (be-process.ts serves exactly what
 * `backendRpcServices` returns): the HeartbeatService, and the FragmentService of remote scans over the
 * process's Backend (fragment-rpc-service.ts). The heartbeat handler answers the FE's HeartbeatService calls: it learns its backend id
 * and compute group from them, and tells the process when the FE restarted (a new fe_start_time), so the
 * BE registers again.
 */
import { GaleneError } from '../common/errors';
import { loadRpcService, type RpcServiceBinding } from '../io/rpc';
import type { Backend } from './backend';
import { fragmentRpcService, type FragmentServiceStats } from './fragment-rpc-service';

export const HEARTBEAT_SERVICE = loadRpcService('heartbeat.proto', 'galene.rpc.HeartbeatService');
export const FRONTEND_SERVICE = loadRpcService('heartbeat.proto', 'galene.rpc.FrontendService');

export interface HeartbeatRequest {
  readonly fe_host: string;
  readonly fe_rpc_port: number;
  readonly fe_start_time: number;
  readonly backend_id: number;
  readonly compute_group: string;
  readonly decommissioned: boolean;
}

export interface HeartbeatResponse {
  readonly heartbeat_port: number;
  readonly be_port: number;
  readonly http_port: number;
  readonly brpc_port: number;
  readonly start_time: number;
  readonly version: string;
  readonly compute_group: string;
  readonly data_used_bytes: number;
  readonly unique_id: string;
}

/** What the BE process knows of itself and hears from its FE (mutable: heartbeats update it). */
export interface BackendIdentity {
  readonly uniqueId: string;
  readonly startTime: number;
  readonly version: string;
  readonly ports: { heartbeatPort: number; httpPort: number; brpcPort: number };
  backendId: number;
  computeGroup: string;
  decommissioned: boolean;
  /** The start time of the FE this BE registered with (or, without --fe, of the last heartbeat; 0: none yet). */
  feStartTime: number;
  lastHeartbeat: number;
}

export interface BackendRpcHooks {
  /** A heartbeat came from an FE that started after the one this BE last heard from (or first heard of). */
  readonly onNewFrontend: (feStartTime: number) => void;
}

function heartbeatHandler(identity: BackendIdentity, hooks: BackendRpcHooks) {
  return (request: HeartbeatRequest): HeartbeatResponse => {
    if (!Number.isSafeInteger(request.backend_id) || request.backend_id < 0) throw new GaleneError('RPC_INVALID_REQUEST', ['Heartbeat', 'this backend', `bad backend_id ${String(request.backend_id)}`]);
    if (request.backend_id > 0) identity.backendId = request.backend_id;
    if (request.compute_group !== '') identity.computeGroup = request.compute_group;
    identity.decommissioned = request.decommissioned;
    identity.lastHeartbeat = Date.now();
    if (request.fe_start_time !== identity.feStartTime) {
      const previous = identity.feStartTime;
      identity.feStartTime = request.fe_start_time;
      if (previous !== 0) hooks.onNewFrontend(request.fe_start_time);
    }
    return {
      heartbeat_port: identity.ports.heartbeatPort, be_port: -1, http_port: identity.ports.httpPort, brpc_port: identity.ports.brpcPort, start_time: identity.startTime,
      version: identity.version, compute_group: identity.computeGroup, data_used_bytes: 0, unique_id: identity.uniqueId,
    };
  };
}

/** Every service of a BE process, with its handlers: the one list. `stats` collects what the FragmentService served. */
export function backendRpcServices(identity: BackendIdentity, hooks: BackendRpcHooks, backend: Backend, stats?: FragmentServiceStats): RpcServiceBinding[] {
  return [{ service: HEARTBEAT_SERVICE, handlers: { Heartbeat: heartbeatHandler(identity, hooks) } }, fragmentRpcService(backend, stats)];
}
