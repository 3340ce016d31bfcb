/**
 * The FE's FragmentTransport over gRPC (proto/fragment.proto, served by be/fragment-rpc-service.ts): one
 * ExecuteScan stream or FetchRows call per tablet call, on the cached client of the BE's endpoint. The
 * call's deadline is the statement's (query_timeout) and its abort signal the statement's (KILL, a closed
 * connection) or the scan's (a LIMIT that stopped reading): either cancels the call, and the BE's handler
 * sees its own signal fire and stops scanning. A BE that cannot be reached (connection refused, lost) is
 * BACKEND_UNREACHABLE, which RemoteTableSource retries on another BE; an error the BE raised comes back as
 * that GaleneError (rpc-errors.ts), so the client reads Doris's words as in one process.
 */
import type { Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import { fromWire, toWire, vectorsFromWire } from '../exec/parallel/fragment-wire';
import { loadRpcService, RpcClientCache, type RpcCallOptions, type RpcService } from '../io/rpc';
import { scanItemFromWire, type FetchCall, type ScanCall } from '../be/fragment-executor';
import type { BackendEndpoint, BackendProfile, CallOptions, FragmentTransport, ScanReply } from './remote-table-source';

/** A call without a statement deadline still ends (the RPC client's longest wait). */
const NO_DEADLINE_TIMEOUT_MS = 24 * 3600 * 1000;

interface ScanStreamMessage {
  readonly payload?: 'item' | 'profile';
  readonly item?: Buffer;
  readonly profile?: Buffer;
}

interface FetchRowsMessage {
  readonly vectors: Buffer;
  readonly profile: Buffer;
}

function profileFromWire(bytes: Buffer): BackendProfile {
  const profile = fromWire(bytes, 'scan profile') as BackendProfile;
  if (profile === null || typeof profile !== 'object' || !Array.isArray(profile.counters) || !Array.isArray(profile.columnReads)) throw new GaleneError('CORRUPTION', ['scan profile: malformed']);
  return profile;
}

export class GrpcFragmentTransport implements FragmentTransport {
  private readonly service: RpcService = loadRpcService('fragment.proto', 'galene.rpc.FragmentService');

  constructor(private readonly clients: RpcClientCache = new RpcClientCache()) {}

  async *executeScan(endpoint: BackendEndpoint, call: ScanCall, options: CallOptions): AsyncIterable<ScanReply> {
    const rpc = this.callOptions(options);
    const request = { query_id: call.queryId, timeout_ms: rpc.timeoutMs, call: toWire(call) };
    try {
      for await (const message of this.clients.get(address(endpoint)).serverStream<ScanStreamMessage>(this.service, 'ExecuteScan', request, rpc)) {
        if (message.payload === 'item' && message.item !== undefined) yield scanItemFromWire(message.item);
        else if (message.payload === 'profile' && message.profile !== undefined) yield { kind: 'end', profile: profileFromWire(message.profile) };
        else throw new GaleneError('CORRUPTION', ['scan stream: a message without payload']);
      }
    } catch (err) {
      throw this.callError(err, endpoint, options, rpc);
    }
  }

  async fetchRows(endpoint: BackendEndpoint, call: FetchCall, options: CallOptions): Promise<{ vectors: Vector[]; profile: BackendProfile }> {
    const rpc = this.callOptions(options);
    const request = { query_id: call.queryId, timeout_ms: rpc.timeoutMs, call: toWire(call) };
    try {
      const reply = await this.clients.get(address(endpoint)).unary<FetchRowsMessage>(this.service, 'FetchRows', request, rpc);
      return { vectors: vectorsFromWire(reply.vectors), profile: profileFromWire(reply.profile) };
    } catch (err) {
      throw this.callError(err, endpoint, options, rpc);
    }
  }

  /** Close every channel (server stop). */
  close(): void {
    this.clients.close();
  }

  private callOptions(options: CallOptions): RpcCallOptions & { timeoutMs: number } {
    const timeoutMs = Number.isFinite(options.deadline) ? Math.max(1, Math.floor(options.deadline - Date.now())) : NO_DEADLINE_TIMEOUT_MS;
    return { timeoutMs, signal: options.signal };
  }

  /** What a failed call means to RemoteTableSource. */
  private callError(err: unknown, endpoint: BackendEndpoint, options: CallOptions, rpc: { timeoutMs: number }): unknown {
    if (!(err instanceof GaleneError)) return err;
    switch (err.code) {
      case 'RPC_UNAVAILABLE':
        return new GaleneError('BACKEND_UNREACHABLE', [`${endpoint.id} (${address(endpoint)})`, err.message], { cause: err });
      case 'RPC_CANCELLED':
        // Our own abort: the statement's reason (KILL, timeout) when it has one.
        return options.signal.aborted && options.signal.reason instanceof GaleneError ? options.signal.reason : new GaleneError('QUERY_CANCELLED', [`the FE (rpc to backend ${endpoint.id})`], { cause: err });
      case 'RPC_TIMEOUT':
        return new GaleneError('QUERY_TIMEOUT', [Math.round(rpc.timeoutMs / 1000)], { cause: err });
      default:
        return err;
    }
  }
}

function address(endpoint: BackendEndpoint): string {
  return `${endpoint.host}:${endpoint.port}`;
}
