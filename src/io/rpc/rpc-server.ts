/**
 * A gRPC server on one port serving a list of services (the BE's heartbeat and fragment services, the FE's
 * registration service). Handlers are plain async functions: a unary handler returns the response, a
 * server-streaming one yields its messages (each write waits for the stream to drain, so a slow reader
 * holds the producer back). Every handler gets an AbortSignal that fires when the caller cancels, its
 * deadline passes or the server shuts down, so long work stops with the call. A handler's error travels to
 * the caller as its GaleneError (rpc-errors.ts); a malformed message or a throwing handler fails that call
 * only, never the process.
 */
import * as grpc from '@grpc/grpc-js';
import { GaleneError } from '../../common/errors';
import { toRpcStatus } from './rpc-errors';
import type { RpcService } from './rpc-service';

/** Largest message either way unless told: Doris's brpc_max_body_size is larger, gRPC's ceiling is 2 GiB - 1. */
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** What a handler knows of its call. */
export interface RpcCallContext {
  /** Fires when the call is cancelled, its deadline passes or the server closes; `reason` is a GaleneError. */
  readonly signal: AbortSignal;
  /** When the caller stops waiting (ms since the epoch; Infinity without a deadline). */
  readonly deadline: number;
  /** The caller's address, `ipv4:127.0.0.1:5123`. */
  readonly peer: string;
  readonly metadata: grpc.Metadata;
}

/** Requests are proto-loader objects; each handler declares the interface of its own request (`never` accepts any). */
export type RpcUnaryHandler = (request: never, ctx: RpcCallContext) => unknown;
export type RpcStreamHandler = (request: never, ctx: RpcCallContext) => AsyncIterable<unknown>;

/** A service and the handler of each of its methods (by the method name in the .proto). */
export interface RpcServiceBinding {
  readonly service: RpcService;
  readonly handlers: Readonly<Record<string, RpcUnaryHandler | RpcStreamHandler>>;
}

export interface RpcServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly services: readonly RpcServiceBinding[];
  readonly maxMessageBytes?: number;
  /** Told about handler failures that are not GaleneErrors of the user category (for the server log). */
  readonly onHandlerError?: (method: string, err: unknown) => void;
}

export class RpcServer {
  private constructor(
    private readonly server: grpc.Server,
    readonly port: number,
    /** The calls running now (aborted at close). */
    private readonly live: Set<AbortController>,
  ) {}

  static async start(options: RpcServerOptions): Promise<RpcServer> {
    const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    const server = new grpc.Server({ 'grpc.max_receive_message_length': maxBytes, 'grpc.max_send_message_length': maxBytes });
    const calls = new Set<AbortController>();
    for (const binding of options.services) server.addService(binding.service.definition, implementation(binding, calls, options.onHandlerError));
    const port = await new Promise<number>((resolve, reject) => {
      server.bindAsync(`${options.host}:${options.port}`, grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(new GaleneError('IO_ERROR', [`cannot listen on ${options.host}:${options.port}: ${err.message}`], { cause: err })) : resolve(bound)));
    });
    return new RpcServer(server, port, calls);
  }

  /** Stop accepting calls; running handlers are aborted, and after `graceMs` the remaining calls are cut. */
  async close(graceMs = 2000): Promise<void> {
    for (const call of this.live) call.abort(new GaleneError('RPC_CANCELLED', ['(server shutdown)', `port ${this.port}`]));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, graceMs);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

function implementation(binding: RpcServiceBinding, calls: Set<AbortController>, onHandlerError: RpcServerOptions['onHandlerError']): grpc.UntypedServiceImplementation {
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [method, definition] of Object.entries(binding.service.definition)) {
    const handler = binding.handlers[method];
    if (handler === undefined) throw new Error(`no handler for ${binding.service.name}.${method}`);
    if (definition.requestStream) throw new Error(`${binding.service.name}.${method}: client-streaming methods are not supported`);
    const name = `${binding.service.name}/${method}`;
    const report = (err: unknown): void => {
      if (!(err instanceof GaleneError && err.category === 'user')) onHandlerError?.(name, err);
    };
    impl[method] = definition.responseStream
      ? (call: grpc.ServerWritableStream<unknown, unknown>) => void serveStream(name, handler as RpcStreamHandler, call, calls, report)
      : (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => void serveUnary(name, handler as RpcUnaryHandler, call, callback, calls, report);
  }
  return impl;
}

/** The call's context; `done()` releases its timer and listeners. */
function callContext(name: string, call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>, calls: Set<AbortController>): { ctx: RpcCallContext; done: () => void } {
  const controller = new AbortController();
  calls.add(controller);
  const rawDeadline = call.getDeadline();
  const deadline = rawDeadline instanceof Date ? rawDeadline.getTime() : rawDeadline;
  const onCancel = (): void => controller.abort(new GaleneError('RPC_CANCELLED', [name, call.getPeer()]));
  call.on('cancelled', onCancel);
  let timer: NodeJS.Timeout | null = null;
  if (Number.isFinite(deadline)) {
    const timeoutMs = Math.max(0, deadline - Date.now());
    timer = setTimeout(() => controller.abort(new GaleneError('RPC_TIMEOUT', [name, call.getPeer(), timeoutMs])), timeoutMs);
  }
  const done = (): void => {
    calls.delete(controller);
    if (timer !== null) clearTimeout(timer);
    call.removeListener('cancelled', onCancel);
  };
  return { ctx: { signal: controller.signal, deadline, peer: call.getPeer(), metadata: call.metadata }, done };
}

async function serveUnary(name: string, handler: RpcUnaryHandler, call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>, calls: Set<AbortController>, report: (err: unknown) => void): Promise<void> {
  const { ctx, done } = callContext(name, call, calls);
  try {
    const response = await handler(call.request as never, ctx);
    if (ctx.signal.aborted) throw ctx.signal.reason;
    callback(null, response ?? {});
  } catch (err) {
    report(err);
    callback(toRpcStatus(err) as grpc.ServiceError, null);
  } finally {
    done();
  }
}

async function serveStream(name: string, handler: RpcStreamHandler, call: grpc.ServerWritableStream<unknown, unknown>, calls: Set<AbortController>, report: (err: unknown) => void): Promise<void> {
  const { ctx, done } = callContext(name, call, calls);
  try {
    for await (const message of handler(call.request as never, ctx)) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (!call.write(message)) await drained(call, ctx.signal);
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    call.end();
  } catch (err) {
    report(err);
    if (!call.cancelled) call.emit('error', toRpcStatus(err));
  } finally {
    done();
  }
}

/** Resolves when the stream can take more, rejects when the call is aborted meanwhile. */
function drained(call: grpc.ServerWritableStream<unknown, unknown>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onDrain = (): void => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = (): void => {
      call.removeListener('drain', onDrain);
      reject(signal.reason);
    };
    call.once('drain', onDrain);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
