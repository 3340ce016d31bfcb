/**
 * RemoteTableSource's contract with its transport (fe/remote-table-source.ts), with a scripted transport
 * standing in for the BEs: tablets come back in table order whatever order the BEs answer in; a call that
 * fails before it delivered anything is retried on another live BE; one that fails after delivering rows
 * fails the query with BACKEND_SCAN_FAILED; KILL (the task's cancel) and a consumer that stops early abort
 * every open call at once, so a BE that never answers cannot hang the query.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { vectorFromRaw } from '../../src/common/column';
import { GaleneError } from '../../src/common/errors';
import { QueryProfile } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import type { ScanCall } from '../../src/be/fragment-executor';
import { makeTableSchema } from '../../src/exec/memory-table';
import { QueryTask } from '../../src/exec/query-task';
import type { TableState } from '../../src/meta/catalog';
import { RemoteTableSource, type BackendEndpoint, type BackendRouter, type CallOptions, type FragmentTransport, type ScanReply } from '../../src/fe/remote-table-source';

const BACKENDS: BackendEndpoint[] = [
  { id: 1, host: '127.0.0.1', port: 1 },
  { id: 2, host: '127.0.0.1', port: 2 },
];
const router: BackendRouter = { ownerOf: (_group, tabletId) => BACKENDS[tabletId % 2], liveBackends: () => BACKENDS };
const schema = { ...makeTableSchema('db', 't', [{ name: 'k', type: Types.INT }]), keyColumns: ['k'] };
const TABLETS = 4;
// One (empty) rowset per tablet: a call's descriptor holds only its tablet's rowsets, which names the tablet.
const table: TableState = {
  schema,
  dbId: 1,
  tablets: Array.from({ length: TABLETS }, (_, idx) => ({ id: idx, tableId: schema.id, bucket: idx })),
  rowsets: Array.from({ length: TABLETS }, (_, idx) => ({ id: 100 + idx, tabletId: idx, tableId: schema.id, txnId: 1, version: 2, segments: [], numRows: 0, dataSize: 0, createTime: 0 })),
  visibleVersion: 2,
};
const END: ScanReply = { kind: 'end', profile: { counters: [['RowsRead', 2]], columnReads: [] } };

interface Call {
  readonly backend: number;
  readonly tablet: number;
  readonly signal: AbortSignal;
}
type Script = (backend: BackendEndpoint, tablet: number, options: CallOptions) => AsyncIterable<ScanReply>;

function transportOf(script: Script, calls: Call[]): FragmentTransport {
  return {
    executeScan: (backend: BackendEndpoint, call: ScanCall, options: CallOptions) => {
      const tablet = call.table.rowsets[0].tabletId;
      calls.push({ backend: backend.id, tablet, signal: options.signal });
      return script(backend, tablet, options);
    },
    fetchRows: () => Promise.reject(new Error('not used')),
  };
}

const rowsOf = (tablet: number): ScanReply => ({ kind: 'batch', batch: { length: 2, columns: [vectorFromRaw(Types.INT, [tablet * 10, tablet * 10 + 1])] } });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Rejects when the signal aborts, as a transport's call does. */
function abortedBy(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    const fail = (): void => reject(new GaleneError('QUERY_CANCELLED', ['the transport']));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

async function scanAll(source: RemoteTableSource, limit: number | null = null, profile = new QueryProfile('q', '', '', '')): Promise<number[]> {
  const out: number[] = [];
  for await (const batch of source.scan({ columns: ['k'], predicates: [], limit, profile })) {
    const vec = batch.columns[0];
    if (vec.kind === 'fixed') for (let idx = 0; idx < batch.length; idx++) out.push(Number(vec.values[idx]));
  }
  return out;
}

const ALL_ROWS = [0, 1, 10, 11, 20, 21, 30, 31];

test('tablets come back in table order, whichever BE answers first', async () => {
  const calls: Call[] = [];
  const source = new RemoteTableSource(table, { router, transport: transportOf(async function* (_backend, tablet) {
    await sleep(tablet === 0 ? 40 : 1); // the first tablet answers last
    yield rowsOf(tablet);
    yield END;
  }, calls), computeGroup: 'g', task: QueryTask.unlimited('q') });
  const profile = new QueryProfile('q', '', '', '');
  assert.deepEqual(await scanAll(source, null, profile), ALL_ROWS);
  assert.deepEqual(calls.map((call) => [call.tablet, call.backend]), [[0, 1], [1, 2], [2, 1], [3, 2]], 'each tablet read by its owner');
  assert.equal(profile.get('RowsRead'), 8, 'every BE profile reaches the statement');
  assert.equal(profile.get('Backend[1].ScanCalls'), 2);
});

test('a BE that fails before delivering has its tablet read by another live BE', async () => {
  const calls: Call[] = [];
  const source = new RemoteTableSource(table, { router, transport: transportOf(async function* (backend, tablet) {
    if (backend.id === 2) throw new GaleneError('BACKEND_UNREACHABLE', ['2', 'connection refused']);
    yield rowsOf(tablet);
    yield END;
  }, calls), computeGroup: 'g', task: QueryTask.unlimited('q') });
  const profile = new QueryProfile('q', '', '', '');
  assert.deepEqual(await scanAll(source, null, profile), ALL_ROWS);
  assert.equal(profile.get('RemoteScanRetries'), 2);
  assert.deepEqual(calls.filter((call) => call.tablet === 1).map((call) => call.backend), [2, 1]);
});

test('a BE lost after it sent rows fails the query with a clear error', async () => {
  const source = new RemoteTableSource(table, { router, transport: transportOf(async function* (backend, tablet) {
    yield rowsOf(tablet);
    if (backend.id === 2) throw new GaleneError('BACKEND_UNREACHABLE', ['2', 'connection reset']);
    yield END;
  }, []), computeGroup: 'g', task: QueryTask.unlimited('q') });
  await assert.rejects(scanAll(source), (err: unknown) => err instanceof GaleneError && err.code === 'BACKEND_SCAN_FAILED' && /backend 2 .*tablet 1/.test(err.message));
});

test('an error the BE raised is the query error, not retried', async () => {
  const calls: Call[] = [];
  const source = new RemoteTableSource(table, { router, transport: transportOf(async function* () {
    throw new GaleneError('CORRUPTION', ['segment data/1/2_0.dat: checksum']);
  }, calls), computeGroup: 'g', task: QueryTask.unlimited('q') });
  await assert.rejects(scanAll(source), (err: unknown) => err instanceof GaleneError && err.code === 'CORRUPTION');
  assert.equal(calls.filter((call) => call.tablet === 0).length, 1);
});

test('KILL aborts every open call at once: a BE that never answers cannot hang the query', async () => {
  const calls: Call[] = [];
  const task = QueryTask.unlimited('q');
  const source = new RemoteTableSource(table, { router, transport: transportOf(async function* (_backend, _tablet, options) {
    await abortedBy(options.signal);
  }, calls), computeGroup: 'g', task });
  const started = Date.now();
  setTimeout(() => task.cancel(new GaleneError('QUERY_CANCELLED', ['127.0.0.1'])), 50);
  await assert.rejects(scanAll(source), (err: unknown) => err instanceof GaleneError && err.code === 'QUERY_CANCELLED' && /by user from 127.0.0.1/.test(err.message));
  assert.ok(Date.now() - started < 2000, 'the cancel ended the wait');
  assert.ok(calls.length >= 1 && calls.every((call) => call.signal.aborted), 'every call the scan opened was cancelled');
});

test('a consumer that stops early (LIMIT) cancels the calls still open', async () => {
  const calls: Call[] = [];
  const source = new RemoteTableSource(table, { router, transport: transportOf(async function* (_backend, tablet, options) {
    yield rowsOf(tablet);
    await abortedBy(options.signal);
  }, calls), computeGroup: 'g', task: QueryTask.unlimited('q') });
  assert.deepEqual(await scanAll(source, 1), [0]);
  await sleep(10);
  assert.ok(calls.length >= 1 && calls.every((call) => call.signal.aborted), 'no BE keeps scanning for a finished query');
});
