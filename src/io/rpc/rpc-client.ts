/**
 * Calls to one endpoint (`host:port`) over one gRPC channel, and the cache of those clients a process
 * keeps (one per endpoint, for every service there). Every call has a deadline (the caller's timeout or
 * the client's default) and may be cancelled with an AbortSignal; cancelling or timing out cancels the
 * call on the server too, whose handler sees its own signal fire. Failures come back as GaleneErrors
 * (rpc-errors.ts). Reconnection backs off for at most a second, so a restarted server is reachable at
 * once.
 */
import * as grpc from '@grpc/grpc-js';
import { GaleneError } from '../../common/errors';
import { fromRpcError } from './rpc-errors';
import { DEFAULT_MAX_MESSAGE_BYTES } from './rpc-server';
import type { RpcService } from './rpc-service';

/** The deadline of a call whose caller gives none. */
export const DEFAULT_RPC_TIMEOUT_MS = 30_000;

export interface RpcCallOptions {
  /** Milliseconds until the call fails with RPC_TIMEOUT (and is cancelled on the server). */
  readonly timeoutMs?: number;
  /** Aborting it cancels the call: RPC_CANCELLED here, the handler's signal there. */
  readonly signal?: AbortSignal;
  readonly metadata?: Readonly<Record<string, string>>;
}

export interface RpcClientOptions {
  readonly maxMessageBytes?: number;
  readonly defaultTimeoutMs?: number;
}

export class RpcClient {
  private readonly client: grpc.Client;
  private readonly defaultTimeoutMs: number;

  constructor(
    readonly endpoint: string,
    options: RpcClientOptions = {},
  ) {
    const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    this.client = new grpc.Client(endpoint, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': maxBytes,
      'grpc.max_send_message_length': maxBytes,
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 1000,
    });
  }

  /** One request, one response. */
  async unary<Res>(service: RpcService, method: string, request: object, options: RpcCallOptions = {}): Promise<Res> {
    const definition = methodOf(service, method, this.endpoint, false);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const name = `${service.name}/${method}`;
    if (options.signal?.aborted) throw new GaleneError('RPC_CANCELLED', [name, this.endpoint]);
    return new Promise<Res>((resolve, reject) => {
      const call = this.client.makeUnaryRequest(definition.path, definition.requestSerialize, definition.responseDeserialize, request, metadataOf(options), { deadline: Date.now() + timeoutMs }, (err, response) => {
        options.signal?.removeEventListener('abort', onAbort);
        if (err) reject(fromRpcError(err, name, this.endpoint, timeoutMs));
        else resolve(response as Res);
      });
      const onAbort = (): void => call.cancel();
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** One request, a stream of responses; leaving the loop early cancels the call. */
  async *serverStream<Res>(service: RpcService, method: string, request: object, options: RpcCallOptions = {}): AsyncGenerator<Res, void, undefined> {
    const definition = methodOf(service, method, this.endpoint, true);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const name = `${service.name}/${method}`;
    if (options.signal?.aborted) throw new GaleneError('RPC_CANCELLED', [name, this.endpoint]);
    const call = this.client.makeServerStreamRequest(definition.path, definition.requestSerialize, definition.responseDeserialize, request, metadataOf(options), { deadline: Date.now() + timeoutMs });
    // The cancel that ends an abandoned stream emits 'error' after the loop stopped listening.
    call.on('error', () => undefined);
    const onAbort = (): void => call.cancel();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const message of call) yield message as Res;
    } catch (err) {
      throw fromRpcError(err, name, this.endpoint, timeoutMs);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      call.cancel();
    }
  }

  close(): void {
    this.client.close();
  }
}

function methodOf(service: RpcService, method: string, endpoint: string, streaming: boolean): grpc.MethodDefinition<object, unknown> {
  const definition = service.definition[method] as grpc.MethodDefinition<object, unknown> | undefined;
  if (definition === undefined || definition.requestStream || definition.responseStream !== streaming) throw new GaleneError('RPC_UNIMPLEMENTED', [`${service.name}/${method}`, endpoint]);
  return definition;
}

function metadataOf(options: RpcCallOptions): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries(options.metadata ?? {})) metadata.set(key, value);
  return metadata;
}

/** One RpcClient per endpoint, made on first use; `close()` closes them all (server stop). */
export class RpcClientCache {
  private readonly clients = new Map<string, RpcClient>();

  constructor(private readonly options: RpcClientOptions = {}) {}

  get(endpoint: string): RpcClient {
    let client = this.clients.get(endpoint);
    if (client === undefined) {
      client = new RpcClient(endpoint, this.options);
      this.clients.set(endpoint, client);
    }
    return client;
  }

  /** Forget an endpoint (a dropped BE): its channel is closed. */
  evict(endpoint: string): void {
    this.clients.get(endpoint)?.close();
    this.clients.delete(endpoint);
  }

  close(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
