/**
 * io/rpc on real loopback sockets: round trips, deadlines, cancellation reaching the server handler,
 * streaming with flow control, GaleneErrors across the wire, size limits, and hostile input (garbage
 * requests, junk bytes on the socket, a peer that forges error codes) that fails one call, never the server.
 */
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { GaleneError } from '../../../src/common/errors';
import { ERROR_CODE_KEY, loadRpcService, RpcClient, RpcClientCache, RpcServer, type RpcCallContext } from '../../../src/io/rpc';
import { PROJECT_ROOT } from '../../helpers/galene-process';

const ECHO = loadRpcService('echo.proto', 'galene.test.EchoService', path.join(PROJECT_ROOT, 'test', 'io', 'rpc'));

interface EchoRequest { text: string; number: number; payload: Buffer; count: number; delay_ms: number }
interface EchoReply { text: string; number: number; payload: Buffer; index: number }

/** Resolves when the most recent slow handler saw its signal fire (with the reason). */
let slowAborted: Promise<unknown> = Promise.resolve();
let streamProduced = 0;
let streamAborted: Promise<unknown> = Promise.resolve();

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

function echoHandlers(): Record<string, never> {
  return {
    Echo: (async (request: EchoRequest): Promise<EchoReply> => {
      if (request.text === 'galene-error') throw new GaleneError('UNKNOWN_DATABASE', ['nope']);
      if (request.text === 'plain-error') throw new Error('boom');
      return { text: request.text.toUpperCase(), number: request.number + 1, payload: request.payload, index: 0 };
    }) as never,
    Slow: (async (request: EchoRequest, ctx: RpcCallContext): Promise<EchoReply> => {
      slowAborted = new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason), { once: true }));
      await sleep(request.delay_ms, ctx.signal);
      return { text: 'done', number: 0, payload: Buffer.alloc(0), index: 0 };
    }) as never,
    Count: (async function* (request: EchoRequest, ctx: RpcCallContext): AsyncGenerator<EchoReply> {
      streamProduced = 0;
      streamAborted = new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason), { once: true }));
      for (let index = 0; index < request.count; index++) {
        streamProduced++;
        yield { text: 'n', number: index, payload: request.payload, index };
        if (request.delay_ms > 0) await sleep(request.delay_ms, ctx.signal);
      }
    }) as never,
  };
}

describe('io/rpc', () => {
  let server: RpcServer;
  let client: RpcClient;
  let endpoint: string;
  const handlerErrors: string[] = [];

  before(async () => {
    server = await RpcServer.start({ host: '127.0.0.1', port: 0, services: [{ service: ECHO, handlers: echoHandlers() }], maxMessageBytes: 4 * 1024 * 1024, onHandlerError: (method, err) => handlerErrors.push(`${method}: ${(err as Error).message}`) });
    endpoint = `127.0.0.1:${server.port}`;
    client = new RpcClient(endpoint, { maxMessageBytes: 8 * 1024 * 1024 });
  });
  after(async () => {
    client.close();
    await server.close();
  });

  it('round-trips a unary call: strings, int64 as numbers, bytes as Buffers, proto3 defaults', async () => {
    const reply = await client.unary<EchoReply>(ECHO, 'Echo', { text: 'hello', number: 2 ** 40, payload: Buffer.from([1, 2, 3]) });
    assert.equal(reply.text, 'HELLO');
    assert.equal(reply.number, 2 ** 40 + 1);
    assert.deepEqual([...reply.payload], [1, 2, 3]);
    const empty = await client.unary<EchoReply>(ECHO, 'Echo', {});
    assert.equal(empty.text, '');
    assert.equal(empty.number, 1);
  });

  it('a GaleneError thrown by a handler arrives as the same error (code, errno, Doris words)', async () => {
    const err = await client.unary(ECHO, 'Echo', { text: 'galene-error' }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof GaleneError);
    assert.equal(err.code, 'UNKNOWN_DATABASE');
    assert.equal(err.errno, 1049);
    assert.equal(err.message, "Unknown database 'nope'");
    const plain = await client.unary(ECHO, 'Echo', { text: 'plain-error' }).then(() => null, (e: unknown) => e);
    assert.ok(plain instanceof GaleneError);
    assert.equal(plain.code, 'INTERNAL');
    assert.match(plain.message, /internal error: boom/);
    assert.ok(handlerErrors.some((line) => line.includes('boom')), 'internal failures reach onHandlerError');
    assert.ok(!handlerErrors.some((line) => line.includes('nope')), 'user errors are not reported as failures');
  });

  it('a deadline fails the call with [TIMEOUT] and aborts the server handler', async () => {
    const started = Date.now();
    const err = await client.unary(ECHO, 'Slow', { delay_ms: 10_000 }, { timeoutMs: 200 }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof GaleneError);
    assert.equal(err.code, 'RPC_TIMEOUT');
    assert.match(err.message, /\[TIMEOUT\]rpc galene\.test\.EchoService\/Slow to 127\.0\.0\.1:\d+ timed out after 200 ms/);
    assert.ok(Date.now() - started < 5000);
    const reason = await slowAborted;
    assert.ok(reason instanceof GaleneError && (reason.code === 'RPC_TIMEOUT' || reason.code === 'RPC_CANCELLED'), String(reason));
  });

  it('aborting the caller\'s signal cancels the call here and the handler there', async () => {
    const controller = new AbortController();
    const call = client.unary(ECHO, 'Slow', { delay_ms: 10_000 }, { signal: controller.signal });
    await sleep(100);
    controller.abort();
    const err = await call.then(() => null, (e: unknown) => e);
    assert.ok(err instanceof GaleneError);
    assert.equal(err.code, 'RPC_CANCELLED');
    const reason = await slowAborted;
    assert.ok(reason instanceof GaleneError && reason.code === 'RPC_CANCELLED');
    // An already aborted signal never sends the call.
    await assert.rejects(client.unary(ECHO, 'Echo', {}, { signal: AbortSignal.abort() }), (e: unknown) => e instanceof GaleneError && e.code === 'RPC_CANCELLED');
  });

  it('streams every message in order', async () => {
    const indexes: number[] = [];
    for await (const reply of client.serverStream<EchoReply>(ECHO, 'Count', { count: 500 })) indexes.push(reply.index);
    assert.deepEqual(indexes, Array.from({ length: 500 }, (_v, idx) => idx));
  });

  it('a slow reader holds the producer back (flow control), and leaving the loop stops the handler', async () => {
    const payload = Buffer.alloc(1024 * 1024, 7);
    let read = 0;
    for await (const reply of client.serverStream<EchoReply>(ECHO, 'Count', { count: 10_000, payload })) {
      assert.equal(reply.payload.length, payload.length);
      read++;
      await sleep(20);
      if (read === 5) break;
    }
    assert.ok(streamProduced < 100, `the producer ran ${streamProduced} messages ahead of a reader at 5`);
    const reason = await streamAborted;
    assert.ok(reason instanceof GaleneError && reason.code === 'RPC_CANCELLED');
  });

  it('a stream past its deadline fails with [TIMEOUT]', async () => {
    const err = await (async () => {
      for await (const _reply of client.serverStream<EchoReply>(ECHO, 'Count', { count: 1000, delay_ms: 50 }, { timeoutMs: 300 })) void _reply;
    })().then(() => null, (e: unknown) => e);
    assert.ok(err instanceof GaleneError && err.code === 'RPC_TIMEOUT', String(err));
  });

  it('a message over the limit fails that call only', async () => {
    const err = await client.unary(ECHO, 'Echo', { payload: Buffer.alloc(6 * 1024 * 1024) }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof GaleneError);
    assert.equal(err.code, 'RPC_MESSAGE_TOO_LARGE');
    assert.match(err.message, /\[EXCEEDED_LIMIT\]/);
    assert.equal((await client.unary<EchoReply>(ECHO, 'Echo', { text: 'still' })).text, 'STILL');
  });

  it('garbage request bytes and junk on the socket fail without hurting the server', async () => {
    const raw = new grpc.Client(endpoint, grpc.credentials.createInsecure());
    const garbage = await new Promise<grpc.ServiceError | null>((resolve) => {
      raw.makeUnaryRequest('/galene.test.EchoService/Echo', (b: Buffer) => b, (b: Buffer) => b, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x12]), new grpc.Metadata(), { deadline: Date.now() + 5000 }, (err) => resolve(err));
    });
    assert.ok(garbage !== null && garbage.code !== grpc.status.OK);
    const unknown = await new Promise<grpc.ServiceError | null>((resolve) => {
      raw.makeUnaryRequest('/galene.test.EchoService/Nope', (b: Buffer) => b, (b: Buffer) => b, Buffer.alloc(0), new grpc.Metadata(), { deadline: Date.now() + 5000 }, (err) => resolve(err));
    });
    assert.equal(unknown?.code, grpc.status.UNIMPLEMENTED);
    raw.close();
    await new Promise<void>((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1', () => socket.end(Buffer.from('GET / HTTP/1.1\r\n\r\n\x00\x01\x02 junk junk')));
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
      socket.resume();
    });
    assert.equal((await client.unary<EchoReply>(ECHO, 'Echo', { text: 'alive' })).text, 'ALIVE');
  });

  it('a peer cannot forge an error code we do not have', async () => {
    const forger = new grpc.Server();
    forger.addService(ECHO.definition, {
      Echo: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => {
        const metadata = new grpc.Metadata();
        metadata.set(ERROR_CODE_KEY, '__proto__');
        callback({ code: grpc.status.INTERNAL, details: 'forged', metadata } as grpc.ServiceError, null);
      },
      Slow: () => undefined,
      Count: () => undefined,
    });
    const port = await new Promise<number>((resolve, reject) => forger.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))));
    const forged = new RpcClient(`127.0.0.1:${port}`);
    const err = await forged.unary(ECHO, 'Echo', {}).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof GaleneError);
    assert.equal(err.code, 'RPC_FAILED');
    forged.close();
    forger.forceShutdown();
  });

  it('a call to an endpoint nobody listens on fails fast with [NETWORK_ERROR]', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const nobody = new RpcClient(`127.0.0.1:${port}`);
    const started = Date.now();
    const err = await nobody.unary(ECHO, 'Echo', {}, { timeoutMs: 5000 }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof GaleneError);
    assert.equal(err.code, 'RPC_UNAVAILABLE');
    assert.match(err.message, /\[NETWORK_ERROR\]failed to send brpc/);
    assert.ok(Date.now() - started < 4000);
    nobody.close();
  });

  it('a method the service does not have is refused before anything is sent', async () => {
    await assert.rejects(client.unary(ECHO, 'Missing', {}), (e: unknown) => e instanceof GaleneError && e.code === 'RPC_UNIMPLEMENTED');
    await assert.rejects(client.unary(ECHO, 'Count', {}), (e: unknown) => e instanceof GaleneError && e.code === 'RPC_UNIMPLEMENTED');
  });

  it('the client cache keeps one client per endpoint', () => {
    const cache = new RpcClientCache();
    assert.equal(cache.get(endpoint), cache.get(endpoint));
    assert.notEqual(cache.get(endpoint), cache.get('127.0.0.1:1'));
    cache.close();
  });

  it('closing the server aborts the handlers still running', async () => {
    const other = await RpcServer.start({ host: '127.0.0.1', port: 0, services: [{ service: ECHO, handlers: echoHandlers() }] });
    const otherClient = new RpcClient(`127.0.0.1:${other.port}`);
    const call = otherClient.unary(ECHO, 'Slow', { delay_ms: 10_000 }).then(() => null, (e: unknown) => e);
    await sleep(100);
    await other.close(500);
    const reason = await slowAborted;
    assert.ok(reason instanceof GaleneError && reason.code === 'RPC_CANCELLED');
    assert.ok((await call) instanceof GaleneError);
    otherClient.close();
  });
});
