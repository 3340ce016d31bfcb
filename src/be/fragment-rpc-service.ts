/**
 * The BE's FragmentService (proto/fragment.proto): ExecuteScan and FetchRows over this BE's fragment
 * executor, for the FE's remote scans. Requests and replies carry the fragment wire codec's bytes (one
 * ScanItem per stream message, the BE's profile counters last). Flow control is the RPC server's: each
 * message is written only after the stream drained the one before, and the executor yields one item at a
 * time, so a slow FE holds the scan back instead of filling the BE's memory. Cancellation is the call's
 * signal (the FE cancelled, its deadline passed, the server is closing): the executor stops at its next
 * batch and the scan's readers are closed when the generator returns. A request that does not decode is
 * INVALID_ARGUMENT for that call only.
 */
import { GaleneError } from '../common/errors';
import { QueryProfile } from '../common/profile';
import { fromWire, toWire, vectorsToWire } from '../exec/parallel/fragment-wire';
import { loadRpcService, type RpcCallContext, type RpcServiceBinding } from '../io/rpc';
import type { Backend } from './backend';
import { executeFetch, executeScan, profileCounters, scanItemToWire, type FetchCall, type ScanCall } from './fragment-executor';

export const FRAGMENT_SERVICE_NAME = 'galene.rpc.FragmentService';

/** The request of both methods as proto-loader gives it (proto3 defaults: never undefined). */
export interface FragmentRpcRequest {
  readonly query_id: string;
  readonly timeout_ms: number;
  readonly call: Buffer;
}

/** What this BE's fragment service did, for metrics and for tests that watch a scan stop. */
export class FragmentServiceStats {
  /** ExecuteScan calls started. */
  scans = 0;
  /** ExecuteScan calls running now. */
  scansRunning = 0;
  /** Calls whose signal fired before they finished (cancelled by the FE, past their deadline, server closing). */
  cancelled = 0;
  /** FetchRows calls served. */
  fetches = 0;
  /** Scan items (batches, fragment results) written to scan streams. */
  itemsSent = 0;
  /** Requests refused as undecodable. */
  invalidRequests = 0;
}

/** Decode a request's `call` bytes, checking the shape the executor relies on. */
function decodeCall<T>(request: FragmentRpcRequest, method: string, fields: readonly string[], stats: FragmentServiceStats): T {
  const refuse = (detail: string): GaleneError => {
    stats.invalidRequests++;
    return new GaleneError('RPC_INVALID_REQUEST', [`${FRAGMENT_SERVICE_NAME}/${method}`, 'this backend', detail]);
  };
  if (!Buffer.isBuffer(request.call) || request.call.length === 0) throw refuse('the request carries no call');
  let value: unknown;
  try {
    value = fromWire(request.call, `${method} call`);
  } catch (err) {
    throw refuse((err as Error).message);
  }
  if (value === null || typeof value !== 'object') throw refuse('the call is not an object');
  for (const field of fields) if ((value as Record<string, unknown>)[field] === undefined) throw refuse(`the call has no ${field}`);
  const table = (value as { table: unknown }).table as Record<string, unknown> | null;
  if (table === null || typeof table !== 'object' || !Array.isArray(table.tablets) || !Array.isArray(table.rowsets) || typeof table.schema !== 'object') throw refuse('the call\'s read descriptor is malformed');
  return value as T;
}

/** Counts the call as cancelled when its signal fires before `finish()`. */
function watchCancel(ctx: RpcCallContext, stats: FragmentServiceStats): () => void {
  const onAbort = (): void => void stats.cancelled++;
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  return () => ctx.signal.removeEventListener('abort', onAbort);
}

/**
 * The FragmentService of `backend` with its handlers, ready for RpcServer.start({ services: [...] });
 * `stats` (optional) collects what it served.
 */
export function fragmentRpcService(backend: Backend, stats = new FragmentServiceStats()): RpcServiceBinding & { readonly stats: FragmentServiceStats } {
  const service = loadRpcService('fragment.proto', FRAGMENT_SERVICE_NAME);

  async function* ExecuteScan(request: FragmentRpcRequest, ctx: RpcCallContext): AsyncGenerator<{ item: Buffer } | { profile: Buffer }> {
    const call = decodeCall<ScanCall>(request, 'ExecuteScan', ['queryId', 'table', 'request', 'fragment'], stats);
    stats.scans++;
    stats.scansRunning++;
    const finish = watchCancel(ctx, stats);
    try {
      const profile = new QueryProfile(call.queryId, '', '', '');
      for await (const item of executeScan(backend, call, profile, ctx.signal)) {
        stats.itemsSent++;
        yield { item: scanItemToWire(item) };
      }
      yield { profile: toWire(profileCounters(profile)) };
    } finally {
      finish();
      stats.scansRunning--;
    }
  }

  async function FetchRows(request: FragmentRpcRequest, ctx: RpcCallContext): Promise<{ vectors: Buffer; profile: Buffer }> {
    const call = decodeCall<FetchCall>(request, 'FetchRows', ['queryId', 'table', 'columns', 'rowIds'], stats);
    if (!(call.rowIds instanceof BigInt64Array) || !Array.isArray(call.columns)) throw new GaleneError('RPC_INVALID_REQUEST', [`${FRAGMENT_SERVICE_NAME}/FetchRows`, 'this backend', 'row ids or columns malformed']);
    stats.fetches++;
    const finish = watchCancel(ctx, stats);
    try {
      const profile = new QueryProfile(call.queryId, '', '', '');
      const vectors = await executeFetch(backend, call, profile);
      return { vectors: vectorsToWire(vectors), profile: toWire(profileCounters(profile)) };
    } finally {
      finish();
    }
  }

  return { service, handlers: { ExecuteScan: ExecuteScan as never, FetchRows: FetchRows as never }, stats };
}
