/**
 * The table source of a cluster FE: reads an OLAP table through the BEs of the session's compute group
 * instead of this process's storage engine. Each tablet the scan reads (after the same bucket and
 * partition pruning the local source does) is one "execute scan" call to the BE that owns it
 * (BackendRouter, the FE's tablet placement), carrying a read descriptor of that tablet
 * (be/read-descriptor.ts), the scan request and, for a SCAN FRAGMENT, its spec; the BE streams back
 * batches or FragmentResults (partial aggregate states) and ends with its profile counters.
 *
 * Order: tablets are consumed one after another in the table's tablet order, with a window of calls
 * open ahead of the consumer (the BEs work while the FE consumes; a call that is not read stops at its
 * transport's flow-control window), so rows and partials arrive in exactly the order OlapTableSource
 * yields them and merging them in turn equals the embedded run. Global row ids (lazily materialized
 * TopN) are numbered per call from 0 by the BE and mapped here to the table's segment ordinals, so
 * fetchRows sends each id back to the tablet that made it.
 *
 * Failures: a call that fails before it delivered anything is retried on another live BE of the group
 * (the tablet is read from the shared object store, so any BE can read it); a BE that fails after it had
 * sent rows fails the query with BACKEND_SCAN_FAILED (the rows already passed up cannot be taken back).
 * Every call carries the statement's deadline and its abort signal (KILL QUERY, a closed connection),
 * and the calls still open when the consumer stops are cancelled, so the BEs stop scanning.
 */
import { concatVectors, sliceVector, takeRows, type Batch, type FixedVector, type Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ProfileSink, QueryProfile } from '../common/profile';
import type { FetchRequest, ScanRequest, TableSource } from '../exec/context';
import type { FragmentResult, FragmentSpec } from '../exec/plan/fragment-spec';
import type { QueryTask } from '../exec/query-task';
import type { TableState } from '../meta/catalog';
import { isMergeOnWrite } from '../meta/delete-bitmap';
import type { TabletRecord } from '../meta/meta-store';
import { findColumn } from '../meta/schema';
import type { StorageVault } from '../meta/storage-vaults';
import type { FetchCall, ScanCall, ScanItem } from '../be/fragment-executor';
import { decodeGlobalRowIds } from '../be/global-row-id';
import { tabletsToRead, visibleRowCount } from '../be/olap-table-source';
import { readDescriptorOf } from '../be/read-descriptor';

/** A BE as the FE's placement names it: its id and the address of its fragment service. */
export interface BackendEndpoint {
  readonly id: number;
  readonly host: string;
  /** The BE's internal RPC port (brpc_port). */
  readonly port: number;
}

/** Where tablets are read: the FE's tablet placement per compute group (h-cluster's placement implements it). */
export interface BackendRouter {
  /** The live BE of the group that owns the tablet now; null when the group has no live BE. */
  ownerOf(computeGroup: string, tabletId: number): BackendEndpoint | null;
  /** Every live BE of the group, in a stable order (where a failed tablet is retried). */
  liveBackends(computeGroup: string): readonly BackendEndpoint[];
}

/** The counters one BE added to the statement's profile during one call, sent when its stream ends. */
export interface BackendProfile {
  readonly counters: readonly [string, number][];
  readonly columnReads: readonly [string, number, number][];
}

export type ScanReply = ScanItem | { readonly kind: 'end'; readonly profile: BackendProfile };

export interface CallOptions {
  /** Epoch milliseconds the call must end by (Infinity: no limit). */
  readonly deadline: number;
  /** Aborting cancels the call on the BE. */
  readonly signal: AbortSignal;
}

/**
 * How the FE reaches a BE's fragment service (gRPC in a cluster: fe/grpc-fragment-transport.ts). A call that
 * cannot reach the BE, or loses it, fails with BACKEND_UNREACHABLE (retried elsewhere when nothing was
 * delivered); an error the BE raised comes back as that GaleneError; a call past its deadline fails with
 * QUERY_TIMEOUT.
 */
export interface FragmentTransport {
  executeScan(backend: BackendEndpoint, call: ScanCall, options: CallOptions): AsyncIterable<ScanReply>;
  fetchRows(backend: BackendEndpoint, call: FetchCall, options: CallOptions): Promise<{ vectors: Vector[]; profile: BackendProfile }>;
}

/** How a cluster FE reaches the BEs that read its tables (the placement and the fragment transport). */
export interface RemoteScanRoute {
  readonly router: BackendRouter;
  readonly transport: FragmentTransport;
}

export interface RemoteSourceOptions extends RemoteScanRoute {
  /** The session's compute group: its BEs read the tablets. */
  readonly computeGroup: string;
  /** The statement's control block: its deadline and abort signal go with every call. */
  readonly task: QueryTask;
  /** The table's storage vault, when it has one (its properties travel in the read descriptor). */
  readonly vault?: StorageVault;
}

/** Counters the FE keeps itself: every call's BE sees the whole tablet list and would count it again. */
const FE_COUNTED = new Set(['TabletsScanned', 'TabletsPruned']);

/** Calls open ahead of the consumer, per live BE of the group. */
const CALLS_AHEAD_PER_BACKEND = 2;

export class RemoteTableSource implements TableSource {
  readonly schema: TableState['schema'];
  private readonly merging: boolean;
  /** Each tablet's first segment ordinal in the table's snapshot (global-row-id.ts), built on first use. */
  private segmentBases: Map<number, number> | null = null;

  constructor(
    private readonly table: TableState,
    private readonly options: RemoteSourceOptions,
  ) {
    this.schema = table.schema;
    this.merging = table.schema.keysType !== 'DUPLICATE' && !isMergeOnWrite(table.schema);
  }

  estimatedRowCount(): number {
    return visibleRowCount(this.table);
  }

  /** Fragments run on the BEs: one per live BE of the group (0, in-thread, for merge-on-read models). */
  scanDegree(): number {
    return this.merging ? 0 : this.options.router.liveBackends(this.options.computeGroup).length;
  }

  scan(request: ScanRequest): AsyncIterable<Batch> {
    const source = this;
    const tablets = this.tabletsFor(request);
    return (async function* () {
      let remaining = request.limit ?? Infinity;
      if (remaining <= 0) return;
      for await (const { tablet, item } of source.ordered(tablets, request, null)) {
        if (item.kind !== 'batch') continue;
        const batch = source.withGlobalRowIds(item.batch, tablet, request);
        if (batch.length >= remaining) {
          yield batch.length === remaining ? batch : { length: remaining, columns: batch.columns.map((vec) => sliceVector(vec, 0, remaining)) };
          return;
        }
        remaining -= batch.length;
        yield batch;
      }
    })();
  }

  scanParallel(request: ScanRequest, fragment: FragmentSpec): AsyncIterable<FragmentResult> | null {
    if (request.limit !== null || this.scanDegree() === 0) return null;
    const source = this;
    const tablets = this.tabletsFor(request);
    return (async function* () {
      for await (const { tablet, item } of source.ordered(tablets, request, fragment)) {
        if (item.kind !== 'result') continue;
        const result = item.result;
        yield result.kind === 'batches' ? { kind: 'batches', batches: result.batches.map((batch) => source.withGlobalRowIds(batch, tablet, request)) } : result;
      }
    })();
  }

  /** Phase two of a lazily materialized TopN: each id's columns from the BE owning its tablet, in request order. */
  async fetchRows(request: FetchRequest): Promise<Vector[]> {
    const { segments, rows } = decodeGlobalRowIds(request.rowIds);
    const bases = this.bases();
    const ordered = [...bases].sort((left, right) => left[1] - right[1]);
    const byTablet = new Map<number, number[]>();
    const tabletOf = (ordinal: number): number => {
      let lo = 0;
      let hi = ordered.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (ordered[mid][1] <= ordinal) lo = mid;
        else hi = mid - 1;
      }
      return ordered[lo][0];
    };
    for (let idx = 0; idx < segments.length; idx++) {
      const tabletId = tabletOf(segments[idx]);
      let list = byTablet.get(tabletId);
      if (list === undefined) byTablet.set(tabletId, (list = []));
      list.push(idx);
    }
    const groups = [...byTablet];
    const fetched = await Promise.all(
      groups.map(async ([tabletId, positions]) => {
        const base = bases.get(tabletId)!;
        const local = new BigInt64Array(positions.length);
        const words = new Uint32Array(local.buffer);
        positions.forEach((pos, idx) => {
          words[2 * idx] = rows[pos];
          words[2 * idx + 1] = segments[pos] - base;
        });
        const call: FetchCall = { queryId: request.profile.queryId, table: this.descriptor(tabletId), columns: request.columns, rowIds: local };
        return this.withFailover(tabletId, request.profile, async (backend, options) => {
          const answer = await this.options.transport.fetchRows(backend, call, options);
          this.addProfile(request.profile, backend, answer.profile);
          return answer.vectors;
        });
      }),
    );
    // Put the rows back in request order: position `pos` is row `order[pos]` of the concatenated groups.
    const order = new Int32Array(segments.length);
    let offset = 0;
    for (const [, positions] of groups) {
      positions.forEach((pos, idx) => (order[pos] = offset + idx));
      offset += positions.length;
    }
    return request.columns.map((name, colIdx) => {
      const type = findColumn(this.schema, name)!.type;
      return takeRows(concatVectors(type, fetched.map((vectors) => vectors[colIdx])), order);
    });
  }

  /** The tablets a request reads, counted in its profile as the local source counts them. */
  private tabletsFor(request: ScanRequest): readonly TabletRecord[] {
    // Under a merging model a value column's stored rows may be superseded: prune on key columns only.
    const predicates = this.merging ? request.predicates.filter((predicate) => findColumn(this.schema, predicate.column)?.isKey) : request.predicates;
    const tablets = tabletsToRead(this.table, predicates);
    request.profile.add('TabletsScanned', tablets.length);
    if (tablets.length < this.table.tablets.length) request.profile.add('TabletsPruned', this.table.tablets.length - tablets.length);
    return tablets;
  }

  private descriptor(tabletId: number): ScanCall['table'] {
    return readDescriptorOf(this.table, [tabletId], this.options.vault);
  }

  /**
   * Every item of every tablet's call, tablets in order, with calls opened ahead of the consumer (one,
   * then doubling up to the window: a LIMIT that stops early opens few). The calls still open when the
   * consumer stops or fails are cancelled.
   */
  private async *ordered(tablets: readonly TabletRecord[], request: ScanRequest, fragment: FragmentSpec | null): AsyncIterable<{ tablet: TabletRecord; item: ScanItem }> {
    const task = this.options.task;
    const stop = new AbortController();
    const onAbort = (): void => stop.abort(task.signal.reason);
    if (task.signal.aborted) onAbort();
    else task.signal.addEventListener('abort', onAbort, { once: true });
    const { columns, predicates, limit, globalRowId, indexScan, inverted } = request;
    const plainRequest = { columns, predicates, limit, ...(globalRowId === undefined ? {} : { globalRowId }), ...(indexScan === undefined ? {} : { indexScan }), ...(inverted === undefined ? {} : { inverted }) };
    const maxAhead = Math.max(1, CALLS_AHEAD_PER_BACKEND * this.options.router.liveBackends(this.options.computeGroup).length);
    const open: { tablet: TabletRecord; replies: AsyncIterator<ScanItem>; first: Promise<IteratorResult<ScanItem>> }[] = [];
    let next = 0;
    let ahead = 1;
    let current: AsyncIterator<ScanItem> | null = null;
    const fill = (): void => {
      while (next < tablets.length && open.length < ahead) {
        const tablet = tablets[next++];
        const call: ScanCall = { queryId: request.profile.queryId, table: this.descriptor(tablet.id), request: plainRequest, fragment };
        const replies = this.tabletReplies(tablet, call, request.profile, stop.signal)[Symbol.asyncIterator]();
        const first = replies.next();
        first.catch(() => undefined); // awaited in order below; not unhandled meanwhile
        open.push({ tablet, replies, first });
      }
    };
    try {
      fill();
      while (open.length > 0) {
        const head = open.shift()!;
        current = head.replies;
        ahead = Math.min(maxAhead, ahead * 2);
        fill();
        for (let step = await head.first; !step.done; step = await head.replies.next()) yield { tablet: head.tablet, item: step.value };
        current = null;
      }
    } finally {
      task.signal.removeEventListener('abort', onAbort);
      stop.abort(new GaleneError('QUERY_CANCELLED', ['the FE: the scan stopped reading']));
      void current?.return?.();
    }
  }

  /** One tablet's items from its owner, retried on another live BE when the call fails before delivering any. */
  private async *tabletReplies(tablet: TabletRecord, call: ScanCall, profile: QueryProfile, signal: AbortSignal): AsyncIterable<ScanItem> {
    const tried = new Set<number>();
    let backend = this.ownerOf(tablet.id);
    for (;;) {
      let delivered = false;
      tried.add(backend.id);
      try {
        profile.add(`Backend[${backend.id}].ScanCalls`, 1);
        for await (const reply of this.options.transport.executeScan(backend, call, { deadline: this.options.task.deadline, signal })) {
          if (reply.kind === 'end') {
            this.addProfile(profile, backend, reply.profile);
            continue;
          }
          delivered = true;
          yield reply;
        }
        return;
      } catch (err) {
        this.options.task.throwIfStopped();
        const retryable = err instanceof GaleneError && err.code === 'BACKEND_UNREACHABLE';
        if (!retryable) throw err;
        if (delivered) throw new GaleneError('BACKEND_SCAN_FAILED', [endpointName(backend), tablet.id, (err as Error).message], { cause: err });
        const other = this.options.router.liveBackends(this.options.computeGroup).find((candidate) => !tried.has(candidate.id));
        if (other === undefined) throw err;
        profile.add('RemoteScanRetries', 1);
        backend = other;
      }
    }
  }

  /** `run` on the tablet's owner, then on each other live BE while it fails with BACKEND_UNREACHABLE (a fetch is idempotent). */
  private async withFailover<T>(tabletId: number, profile: ProfileSink, run: (backend: BackendEndpoint, options: CallOptions) => Promise<T>): Promise<T> {
    const tried = new Set<number>();
    let backend = this.ownerOf(tabletId);
    for (;;) {
      tried.add(backend.id);
      try {
        return await run(backend, { deadline: this.options.task.deadline, signal: this.options.task.signal });
      } catch (err) {
        this.options.task.throwIfStopped();
        if (!(err instanceof GaleneError && err.code === 'BACKEND_UNREACHABLE')) throw err;
        const other = this.options.router.liveBackends(this.options.computeGroup).find((candidate) => !tried.has(candidate.id));
        if (other === undefined) throw err;
        profile.add('RemoteScanRetries', 1);
        backend = other;
      }
    }
  }

  private ownerOf(tabletId: number): BackendEndpoint {
    const owner = this.options.router.ownerOf(this.options.computeGroup, tabletId);
    if (owner === null) throw new GaleneError('NO_BACKEND_AVAILABLE', [`no alive backend in compute group ${this.options.computeGroup}`]);
    return owner;
  }

  /** A BE's counters into the statement's totals, and its scan counters under its id (which BE read what). */
  private addProfile(profile: ProfileSink, backend: BackendEndpoint, remote: BackendProfile): void {
    for (const [name, value] of remote.counters) {
      if (FE_COUNTED.has(name)) continue;
      profile.add(name, value);
      if (name === 'RowsRead' || name === 'SegmentsRead' || name === 'BytesRead' || name === 'ParallelScanTasks') profile.add(`Backend[${backend.id}].${name}`, value);
    }
    const query = profile as Partial<QueryProfile>;
    if (query.columnStats !== undefined) {
      for (const [column, rows, bytes] of remote.columnReads) {
        const stats = query.columnStats.get(column);
        if (stats === undefined) query.columnStats.set(column, { rows, bytes });
        else {
          stats.rows += rows;
          stats.bytes += bytes;
        }
      }
    }
  }

  /** The batch with its global row id column mapped from the call's numbering to the table's. */
  private withGlobalRowIds(batch: Batch, tablet: TabletRecord, request: ScanRequest): Batch {
    if (request.globalRowId !== true) return batch;
    const colIdx = request.columns.length;
    const base = this.bases().get(tablet.id)!;
    if (base === 0) return batch;
    const ids = batch.columns[colIdx] as FixedVector;
    const values = new BigInt64Array(ids.length);
    values.set((ids.values as BigInt64Array).subarray(0, ids.length));
    const words = new Uint32Array(values.buffer);
    for (let rowIdx = 0; rowIdx < ids.length; rowIdx++) words[2 * rowIdx + 1] += base;
    const columns = batch.columns.slice();
    columns[colIdx] = { ...ids, values };
    return { length: batch.length, columns };
  }

  private bases(): Map<number, number> {
    if (this.segmentBases !== null) return this.segmentBases;
    const counts = new Map<number, number>();
    for (const rowset of this.table.rowsets) counts.set(rowset.tabletId, (counts.get(rowset.tabletId) ?? 0) + rowset.segments.length);
    const bases = new Map<number, number>();
    let ordinal = 0;
    for (const tablet of this.table.tablets) {
      bases.set(tablet.id, ordinal);
      ordinal += counts.get(tablet.id) ?? 0;
    }
    return (this.segmentBases = bases);
  }
}

function endpointName(backend: BackendEndpoint): string {
  return `${backend.id} (${backend.host}:${backend.port})`;
}

