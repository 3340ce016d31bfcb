/**
 * The FragmentService over real gRPC on loopback sockets: a BE (be/fragment-rpc-service.ts over a real
 * Backend and segment files) and the FE's GrpcFragmentTransport. A scan streams the same rows as the
 * executor run in place; a consumer that pauses holds the BE back (flow control); a consumer that stops,
 * a KILL and a passed deadline cancel the BE's stream (its handler's signal fires) with Doris's errors,
 * also through RemoteTableSource for a statement's task;
 * garbled requests fail with INVALID_ARGUMENT and the server keeps serving; a port nothing listens on is
 * BACKEND_UNREACHABLE (what RemoteTableSource fails over on).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { Backend } from '../../src/be/backend';
import { executeScan, type ScanCall } from '../../src/be/fragment-executor';
import { FRAGMENT_SERVICE_NAME, fragmentRpcService, type FragmentServiceStats } from '../../src/be/fragment-rpc-service';
import { readDescriptorOf } from '../../src/be/read-descriptor';
import { getRaw, vectorFromRaw, type Batch } from '../../src/common/column';
import { Config } from '../../src/common/config';
import { GaleneError } from '../../src/common/errors';
import { QueryProfile } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import { toWire } from '../../src/exec/parallel/fragment-wire';
import { makeTableSchema } from '../../src/exec/memory-table';
import { GrpcFragmentTransport } from '../../src/fe/grpc-fragment-transport';
import { RemoteTableSource, type BackendEndpoint, type ScanReply } from '../../src/fe/remote-table-source';
import { QueryTask } from '../../src/exec/query-task';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { loadRpcService, RpcClient, RpcServer } from '../../src/io/rpc';
import type { TableState } from '../../src/meta/catalog';
import { writeSegment } from '../../src/storage/segment-writer';
import { BARE_CATALOG } from '../helpers/bare-catalog';

const ROWS = 300_000;
const TABLET = 7;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `condition` holds (the test's timeout fails a condition that never does). */
async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

function sumOf(batches: readonly Batch[]): bigint {
  let sum = 0n;
  for (const batch of batches) for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) sum += BigInt(getRaw(batch.columns[0], rowIdx) as number) * 3n + BigInt(String(getRaw(batch.columns[1], rowIdx)).length);
  return sum;
}

describe('FragmentService over gRPC', () => {
  let root: string;
  let backend: Backend;
  let server: RpcServer;
  let stats: FragmentServiceStats;
  let endpoint: BackendEndpoint;
  let transport: GrpcFragmentTransport;
  let table: TableState;

  const scanCall = (queryId: string): ScanCall => ({ queryId, table: readDescriptorOf(table, [TABLET]), request: { columns: ['k', 's'], predicates: [], limit: null }, fragment: null });
  const noLimit = (signal = new AbortController().signal): { deadline: number; signal: AbortSignal } => ({ deadline: Infinity, signal });

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-grpc-fragment-'));
    const store = new LocalObjectStore(path.join(root, 'objects'));
    const schema = { ...makeTableSchema('db', 't', [{ name: 'k', type: Types.INT }, { name: 's', type: Types.varchar(40) }]), keyColumns: ['k'] };
    const keys = Array.from({ length: ROWS }, (_v, rowIdx) => rowIdx);
    const columns = schema.columns.map((column) => ({ name: column.name, type: column.type, uniqueId: column.uniqueId }));
    const parts = await writeSegment(columns, [vectorFromRaw(Types.INT, keys), vectorFromRaw(Types.varchar(40), keys.map((key) => `row-${key}-${'x'.repeat(key % 17)}`))], { compression: 'LZ4', numShortKeyColumns: 1, pageRowLimit: 1024 });
    const key = `data/${TABLET}/1_0.dat`;
    await store.put(key, parts);
    const size = parts.reduce((sum, part) => sum + part.length, 0);
    table = {
      schema,
      dbId: 1,
      tablets: [{ id: TABLET, tableId: schema.id, bucket: 0 }],
      rowsets: [{ id: 1, tabletId: TABLET, tableId: schema.id, txnId: 1, version: 2, segments: [{ key, numRows: ROWS, size }], numRows: ROWS, dataSize: size, createTime: 0 }],
      visibleVersion: 2,
    };
    backend = await Backend.open(new Config({ data_dir: root, scan_thread_num: 0 }), BARE_CATALOG, store);
    const binding = fragmentRpcService(backend);
    stats = binding.stats;
    server = await RpcServer.start({ host: '127.0.0.1', port: 0, services: [binding] });
    endpoint = { id: 1, host: '127.0.0.1', port: server.port };
    transport = new GrpcFragmentTransport();
  });

  after(async () => {
    transport.close();
    await server.close();
    await backend.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('streams the rows the executor reads in place, then the BE profile', async () => {
    const local: Batch[] = [];
    for await (const item of executeScan(backend, scanCall('q-local'), new QueryProfile('q-local', '', '', ''))) if (item.kind === 'batch') local.push(item.batch);
    const remote: Batch[] = [];
    const replies: ScanReply[] = [];
    for await (const reply of transport.executeScan(endpoint, scanCall('q-remote'), noLimit())) {
      replies.push(reply);
      if (reply.kind === 'batch') remote.push(reply.batch);
    }
    assert.ok(local.length > 20, `the tablet is many batches (${local.length})`);
    assert.equal(remote.reduce((rows, batch) => rows + batch.length, 0), ROWS);
    assert.equal(sumOf(remote), sumOf(local));
    const last = replies[replies.length - 1];
    assert.equal(last.kind, 'end', 'the profile comes last');
    assert.ok(last.kind === 'end' && last.profile.counters.some(([name, value]) => name === 'RowsRead' && value === ROWS), 'the BE counted the rows it read');
  });

  it('a paused consumer holds the BE back, and leaving early cancels its stream', async () => {
    const cancelledBefore = stats.cancelled;
    const sentBefore = stats.itemsSent;
    const replies = transport.executeScan(endpoint, scanCall('q-pause'), noLimit())[Symbol.asyncIterator]();
    const first = await replies.next();
    assert.equal(first.value?.kind, 'batch');
    await sleep(500); // the BE would finish the whole tablet meanwhile without flow control
    const total = Math.ceil(ROWS / first.value!.batch.length);
    assert.ok(stats.itemsSent - sentBefore < total / 2, `the BE sent ${stats.itemsSent - sentBefore} of ${total} batches to a consumer that read one`);
    assert.equal(stats.scansRunning, 1, 'the BE stream waits');
    await replies.return!();
    await eventually(() => stats.cancelled > cancelledBefore && stats.scansRunning === 0);
  });

  it('a KILL cancels the BE stream and fails the call with the KILL\'s error', async () => {
    const cancelledBefore = stats.cancelled;
    const kill = new AbortController();
    const replies = transport.executeScan(endpoint, scanCall('q-kill'), noLimit(kill.signal))[Symbol.asyncIterator]();
    await replies.next();
    kill.abort(new GaleneError('QUERY_CANCELLED', ['127.0.0.1']));
    await assert.rejects(async () => {
      for (let step = await replies.next(); !step.done; step = await replies.next());
    }, (err: unknown) => err instanceof GaleneError && err.code === 'QUERY_CANCELLED' && /cancel query by user from 127\.0\.0\.1/.test(err.message));
    await eventually(() => stats.cancelled > cancelledBefore && stats.scansRunning === 0);
  });

  it('a passed deadline is Doris\'s query timeout, and the BE stops', async () => {
    const cancelledBefore = stats.cancelled;
    const replies = transport.executeScan(endpoint, scanCall('q-deadline'), { deadline: Date.now() + 1000, signal: new AbortController().signal })[Symbol.asyncIterator]();
    await replies.next();
    await sleep(1500);
    await assert.rejects(async () => {
      for (let step = await replies.next(); !step.done; step = await replies.next());
    }, (err: unknown) => err instanceof GaleneError && err.code === 'QUERY_TIMEOUT' && /Timeout: the statement ran longer than query_timeout/.test(err.message));
    await eventually(() => stats.cancelled > cancelledBefore && stats.scansRunning === 0);
  });

  /** RemoteTableSource over this BE through the transport, for the statement `task`. */
  const remoteSource = (task: QueryTask): RemoteTableSource => new RemoteTableSource(table, { router: { ownerOf: () => endpoint, liveBackends: () => [endpoint] }, transport, computeGroup: 'g', task });
  const drain = async (batches: AsyncIterator<Batch>): Promise<void> => {
    for (let step = await batches.next(); !step.done; step = await batches.next());
  };

  it('KILL of a statement reading through RemoteTableSource cancels the BE stream', async () => {
    const cancelledBefore = stats.cancelled;
    const task = new QueryTask({ timeoutSeconds: 0, memLimitBytes: 0, queryId: 'q-kill-sql' });
    const batches = remoteSource(task).scan({ columns: ['k', 's'], predicates: [], limit: null, profile: new QueryProfile('q-kill-sql', '', '', '') })[Symbol.asyncIterator]();
    assert.equal((await batches.next()).done, false);
    task.cancel(new GaleneError('QUERY_CANCELLED', ['10.0.0.9']));
    await assert.rejects(drain(batches), (err: unknown) => err instanceof GaleneError && err.code === 'QUERY_CANCELLED' && /by user from 10\.0\.0\.9/.test(err.message));
    await eventually(() => stats.cancelled > cancelledBefore && stats.scansRunning === 0);
  });

  it('a statement past query_timeout gets Doris\'s timeout with its query_timeout, and the BE stops', async () => {
    const cancelledBefore = stats.cancelled;
    const task = new QueryTask({ timeoutSeconds: 1, memLimitBytes: 0, queryId: 'q-timeout-sql' });
    const batches = remoteSource(task).scan({ columns: ['k', 's'], predicates: [], limit: null, profile: new QueryProfile('q-timeout-sql', '', '', '') })[Symbol.asyncIterator]();
    assert.equal((await batches.next()).done, false);
    await sleep(1500);
    await assert.rejects(drain(batches), (err: unknown) => err instanceof GaleneError && err.code === 'QUERY_TIMEOUT' && /longer than query_timeout \(1 s\)/.test(err.message));
    await eventually(() => stats.cancelled > cancelledBefore && stats.scansRunning === 0);
  });

  it('an error the BE raises reaches the FE as the same error, in the same words', async () => {
    const missing: TableState = { ...table, rowsets: table.rowsets.map((rowset) => ({ ...rowset, segments: rowset.segments.map((segment) => ({ ...segment, key: `data/${TABLET}/missing.dat` })) })) };
    const call: ScanCall = { ...scanCall('q-missing'), table: readDescriptorOf(missing, [TABLET]) };
    let inPlace: unknown = null;
    try {
      for await (const _item of executeScan(backend, call, new QueryProfile('q-missing', '', '', '')));
    } catch (err) {
      inPlace = err;
    }
    assert.ok(inPlace instanceof GaleneError, `the BE fails on a missing segment: ${String(inPlace)}`);
    await assert.rejects(async () => {
      for await (const _reply of transport.executeScan(endpoint, call, noLimit()));
    }, (err: unknown) => err instanceof GaleneError && err.code === inPlace.code && err.message === inPlace.message);
  });

  it('garbled requests fail that call with INVALID_ARGUMENT; the server keeps serving', async () => {
    const service = loadRpcService('fragment.proto', FRAGMENT_SERVICE_NAME);
    const client = new RpcClient(`127.0.0.1:${server.port}`);
    try {
      const refused = async (method: string, call: Buffer): Promise<void> => {
        const run = method === 'FetchRows' ? () => client.unary(service, method, { query_id: 'q', timeout_ms: 1000, call }) : async () => {
          for await (const _message of client.serverStream(service, method, { query_id: 'q', timeout_ms: 1000, call }));
        };
        await assert.rejects(run, (err: unknown) => err instanceof GaleneError && err.code === 'RPC_INVALID_REQUEST' && /\[INVALID_ARGUMENT\]/.test(err.message), `${method} ${call.toString('hex').slice(0, 16)}`);
      };
      await refused('ExecuteScan', Buffer.from('not a wire value at all'));
      await refused('ExecuteScan', Buffer.alloc(0));
      await refused('ExecuteScan', toWire(42));
      await refused('ExecuteScan', toWire({ queryId: 'q', table: { tablets: 'nope' }, request: {}, fragment: null }));
      await refused('FetchRows', toWire({ queryId: 'q', table: readDescriptorOf(table, [TABLET]), columns: ['k'], rowIds: [1, 2] }));
      // Bytes that are not even a protobuf message, straight on the channel.
      const raw = new grpc.Client(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
      const status = await new Promise<grpc.ServiceError | null>((resolve) => {
        raw.makeUnaryRequest(`/${FRAGMENT_SERVICE_NAME}/FetchRows`, () => Buffer.from([0xff, 0xff, 0xff, 0x0f, 0x01]), (bytes: Buffer) => bytes, {}, (err) => resolve(err));
      });
      raw.close();
      assert.ok(status !== null && [grpc.status.INTERNAL, grpc.status.INVALID_ARGUMENT].includes(status.code), `a junk message is a gRPC error: ${status?.code} ${status?.details}`);
    } finally {
      client.close();
    }
    let rows = 0;
    for await (const reply of transport.executeScan(endpoint, scanCall('q-after'), noLimit())) if (reply.kind === 'batch') rows += reply.batch.length;
    assert.equal(rows, ROWS, 'the server still serves scans');
  });

  it('a port nothing listens on is BACKEND_UNREACHABLE', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const dead = { id: 9, host: '127.0.0.1', port };
    await assert.rejects(async () => {
      for await (const _reply of transport.executeScan(dead, scanCall('q-dead'), noLimit()));
    }, (err: unknown) => err instanceof GaleneError && err.code === 'BACKEND_UNREACHABLE' && /failed to reach backend 9/.test(err.message));
    await assert.rejects(transport.fetchRows(dead, { queryId: 'q-dead', table: readDescriptorOf(table, [TABLET]), columns: ['k'], rowIds: new BigInt64Array(1) }, noLimit()), (err: unknown) => err instanceof GaleneError && err.code === 'BACKEND_UNREACHABLE');
  });
});
