/**
 * What a BE runs for a remote scan (the fragment service's calls, be/fragment-rpc-service.ts): a read
 * descriptor (read-descriptor.ts) becomes an OlapTableSource over this BE's segment readers, page cache
 * and FileCache; the scan request runs on it — a plain scan streaming batches, or a scan fragment
 * (filter, virtual columns, partial aggregate) streaming FragmentResults, in the BE's scan workers when
 * the source runs it in parallel, else in-thread in chunks — and results come out in row order as an
 * async iteration, so the caller writes each one as the transport lets it (flow control: a consumer that
 * stops reading stops the scan; nothing buffers a whole tablet). The statement's profile counters this BE
 * added are read from the profile the caller passes, after the stream ends.
 */
import type { Batch, Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import type { QueryProfile } from '../common/profile';
import type { FetchRequest, ScanRequest } from '../exec/context';
import { batchFromWire, batchToWire, fragmentResultFromWire, fragmentResultToWire } from '../exec/parallel/fragment-wire';
import { runFragment } from '../exec/parallel/run-fragment';
import type { FragmentResult, FragmentSpec } from '../exec/plan/fragment-spec';
import { openS3Vault } from '../io/vault-object-store';
import { OlapTableSource } from './olap-table-source';
import type { Backend } from './backend';
import { tableStateOf, type ReadDescriptor } from './read-descriptor';

/** A ScanRequest as it crosses to a BE: everything but the profile, which the BE makes. */
export type RemoteScanRequest = Omit<ScanRequest, 'profile'>;

/** One "execute scan" call: which rows (descriptor + request) and, for a fragment, what to run over them. */
export interface ScanCall {
  readonly queryId: string;
  readonly table: ReadDescriptor;
  readonly request: RemoteScanRequest;
  readonly fragment: FragmentSpec | null;
}

/** One "fetch rows" call: phase two of a lazily materialized TopN, by row ids of this descriptor's scan. */
export interface FetchCall {
  readonly queryId: string;
  readonly table: ReadDescriptor;
  readonly columns: readonly string[];
  readonly rowIds: BigInt64Array;
}

export type ScanItem = { readonly kind: 'batch'; readonly batch: Batch } | { readonly kind: 'result'; readonly result: FragmentResult };

/** Rows a fragment run in-thread on the BE covers per result (bounded memory, a steady stream). */
const IN_THREAD_CHUNK_ROWS = 65_536;

/** The table source over a descriptor, its vault opened on this BE first when it is new here. */
function openDescriptor(backend: Backend, descriptor: ReadDescriptor): OlapTableSource {
  const vault = descriptor.vault;
  if (vault !== undefined && !backend.store.vaultIds().includes(vault.id)) backend.store.setVault(vault.id, openS3Vault(vault.properties));
  return backend.openTable(tableStateOf(descriptor));
}

function stopIfAborted(signal: AbortSignal | undefined, queryId: string): void {
  if (signal?.aborted === true) throw new GaleneError('QUERY_CANCELLED', [`the FE (query ${queryId})`]);
}

/** Run one scan call; items in row order. Counters go to `profile`. */
export async function* executeScan(backend: Backend, call: ScanCall, profile: QueryProfile, signal?: AbortSignal): AsyncIterable<ScanItem> {
  const source = openDescriptor(backend, call.table);
  const request: ScanRequest = { ...call.request, profile };
  const fragment = call.fragment;
  if (fragment === null) {
    for await (const batch of source.scan(request)) {
      stopIfAborted(signal, call.queryId);
      yield { kind: 'batch', batch };
    }
    return;
  }
  const parallel = source.scanParallel(request, fragment);
  if (parallel !== null) {
    for await (const result of parallel) {
      stopIfAborted(signal, call.queryId);
      yield { kind: 'result', result };
    }
    return;
  }
  yield* inThreadFragment(source, request, fragment, signal, call.queryId);
}

/** The fragment over the scan's batches on this thread, one result per chunk of rows (at least one). */
async function* inThreadFragment(source: OlapTableSource, request: ScanRequest, fragment: FragmentSpec, signal: AbortSignal | undefined, queryId: string): AsyncIterable<ScanItem> {
  let chunk: Batch[] = [];
  let rows = 0;
  let yielded = false;
  for await (const batch of source.scan(request)) {
    stopIfAborted(signal, queryId);
    chunk.push(batch);
    rows += batch.length;
    if (rows >= IN_THREAD_CHUNK_ROWS) {
      yield { kind: 'result', result: runFragment(fragment, chunk) };
      yielded = true;
      chunk = [];
      rows = 0;
    }
  }
  if (chunk.length > 0 || !yielded) yield { kind: 'result', result: runFragment(fragment, chunk) };
}

/** Run one fetch call: the columns of the rows, in request order. */
export function executeFetch(backend: Backend, call: FetchCall, profile: QueryProfile): Promise<Vector[]> {
  const request: FetchRequest = { columns: call.columns, rowIds: call.rowIds, profile };
  return openDescriptor(backend, call.table).fetchRows(request);
}

/** A scan item as bytes (one message of the scan stream): a tag byte, then the batch or the result. */
export function scanItemToWire(item: ScanItem): Buffer {
  const body = item.kind === 'batch' ? batchToWire(item.batch) : fragmentResultToWire(item.result);
  return Buffer.concat([Buffer.of(item.kind === 'batch' ? 0 : 1), body]);
}

/** The item `scanItemToWire` wrote (CORRUPTION when damaged). */
export function scanItemFromWire(bytes: Uint8Array): ScanItem {
  if (bytes.length < 1 || bytes[0] > 1) throw new GaleneError('CORRUPTION', ['scan stream: unknown message tag']);
  const body = bytes.subarray(1);
  return bytes[0] === 0 ? { kind: 'batch', batch: batchFromWire(body) } : { kind: 'result', result: fragmentResultFromWire(body) };
}

/** The counters a BE sends when its stream ends: what the call added to its own profile. */
export function profileCounters(profile: QueryProfile): { counters: [string, number][]; columnReads: [string, number, number][] } {
  return { counters: [...profile.counters], columnReads: [...profile.columnStats].map(([column, stats]): [string, number, number] => [column, stats.rows, stats.bytes]) };
}
