/**
 * The write side of one load into one table (Doris's delta writers, one per tablet): rows of each batch go
 * to their tablet's memtable, which accumulates over every batch of the load until it holds
 * `write_buffer_size` bytes (or the memory limiter picks it for an early flush); a full memtable goes to the
 * flush pool, its segment files to the upload pool. Before each write the tablet writer waits while
 * backpressure holds or load memory is at its hard limit (WaitFlushLimitTime). `finish` flushes the rest
 * and resolves when every upload of the load has succeeded; the first failure fails the load (later
 * writes and `finish` throw it), and `settle` waits for whatever is still in flight so that an abort can
 * delete every object written.
 */
import { batchBytes, concatVectors, sliceVector, type Batch, type Vector } from '../../common/column';
import { GaleneError } from '../../common/errors';
import { storeKindOf, type ObjectStore } from '../../io/object-store';
import type { TableState } from '../../meta/catalog';
import type { NewRowset, SegmentRecord } from '../../meta/meta-store';
import { batchRowsByTablet, SEGMENT_MAX_ROWS, segmentKey, storeSegment, tableSegmentContext, tabletColumns, type TableSegmentContext, type TableWriteOptions } from '../table-writer';
import { needBackpressure, waitWhile } from './backpressure';
import type { LimitedMemtable } from './load-memory';
import type { WritePipeline } from './write-pipeline';


class TabletMemtable implements LimitedMemtable {
  private chunks: Vector[][];
  rows = 0;
  activeBytes = 0;
  /** Memtables of this tablet submitted and not yet flushed and uploaded (the flush-running count). */
  running = 0;
  /** Segments per submitted memtable, in submission order (a rowset lists them in write order). */
  readonly slots: SegmentRecord[][] = [];
  nextSegmentIdx = 0;

  constructor(
    readonly tabletId: number,
    private readonly columnCount: number,
    private readonly writer: LoadWriter,
  ) {
    this.chunks = this.emptyChunks();
  }

  private emptyChunks(): Vector[][] {
    return Array.from({ length: this.columnCount }, () => []);
  }

  append(columns: readonly Vector[], rows: number, bytes: number): void {
    columns.forEach((column, colIdx) => this.chunks[colIdx].push(column));
    this.rows += rows;
    this.activeBytes += bytes;
  }

  /** The rows appended so far; the memtable starts empty again. */
  take(): { chunks: Vector[][]; rows: number; bytes: number } {
    const taken = { chunks: this.chunks, rows: this.rows, bytes: this.activeBytes };
    this.chunks = this.emptyChunks();
    this.rows = 0;
    this.activeBytes = 0;
    return taken;
  }

  flushEarly(): void {
    this.writer.submit(this);
  }
}

export class LoadWriter {
  /** Every object key written (or being written), for the clean-up of an abort. */
  readonly objectKeys: string[] = [];
  /** Nanoseconds this load's writers waited for backpressure (WaitFlushLimitTime). */
  waitFlushLimitNs = 0;
  /** Memtables this load submitted for flush. */
  memtableFlushes = 0;
  private readonly ctx: TableSegmentContext;
  private readonly memtables = new Map<number, TabletMemtable>();
  private readonly inFlight = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;
  private readonly remote: boolean;

  /**
   * `loadMemLimit`: bytes this load's memtables may hold before its largest is flushed (Doris's load channel
   * limit, exec_mem_limit). `memtablesPerFlush`: memtables one logical flush writes (2 when a second,
   * row-binlog memtable goes with each).
   */
  constructor(
    private readonly pipeline: WritePipeline,
    private readonly store: ObjectStore,
    private readonly table: TableState,
    private readonly txnId: number,
    options: TableWriteOptions = {},
    private readonly loadMemLimit = Number.POSITIVE_INFINITY,
    private readonly memtablesPerFlush = 1,
  ) {
    this.ctx = tableSegmentContext(table.schema, options);
    this.remote = storeKindOf(store, segmentKey(table.schema, table.tablets[0]?.id ?? 0, txnId, 0)) === 'remote';
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure.error;
  }

  private memtable(tabletId: number): TabletMemtable {
    let memtable = this.memtables.get(tabletId);
    if (memtable === undefined) {
      memtable = new TabletMemtable(tabletId, this.table.schema.columns.length, this);
      this.memtables.set(tabletId, memtable);
      this.pipeline.memory.register(memtable);
    }
    return memtable;
  }

  /** Append a batch (table columns in schema order): `checkpoint` runs between tablets. */
  async add(batch: Batch, checkpoint?: () => Promise<void> | undefined): Promise<void> {
    this.throwIfFailed();
    if (batch.length === 0) return;
    const groups = batchRowsByTablet(this.table, batch, this.txnId);
    for (let bucket = 0; bucket < groups.length; bucket++) {
      const rowIds = groups[bucket];
      if (rowIds.length === 0) continue;
      const pause = checkpoint?.();
      if (pause !== undefined) await pause;
      const memtable = this.memtable(this.table.tablets[bucket].id);
      const columns = tabletColumns(batch, rowIds);
      const rows = rowIds.length;
      const bytes = batchBytes({ length: rows, columns });
      // A memtable takes what fits in write_buffer_size; the rest of the tablet's rows go to the next one
      // (Doris writes a block at a time), each piece after its own backpressure check.
      for (let start = 0; start < rows; ) {
        await this.waitForBackpressure(memtable);
        const room = Math.max(1, Math.ceil(((this.pipeline.settings.writeBufferSize - memtable.activeBytes) * rows) / bytes));
        const end = Math.min(rows, start + room);
        const whole = start === 0 && end === rows;
        const pieceBytes = whole ? bytes : Math.ceil((bytes * (end - start)) / rows);
        memtable.append(whole ? columns : columns.map((column) => sliceVector(column, start, end)), end - start, pieceBytes);
        this.pipeline.memory.reserve(pieceBytes);
        if (memtable.activeBytes >= this.pipeline.settings.writeBufferSize) this.submit(memtable);
        else this.keepUnderLoadLimit();
        start = end;
      }
    }
  }

  /** Over the load's own memory limit: flush its largest memtable. */
  private keepUnderLoadLimit(): void {
    let active = 0;
    let largest: TabletMemtable | null = null;
    for (const memtable of this.memtables.values()) {
      active += memtable.activeBytes;
      if (largest === null || memtable.activeBytes > largest.activeBytes) largest = memtable;
    }
    if (active > this.loadMemLimit && largest !== null) this.submit(largest);
  }

  /** Doris's DeltaWriter::write wait: 10 ms steps while backpressure holds or load memory is at its hard limit. */
  private async waitForBackpressure(memtable: TabletMemtable): Promise<void> {
    const { settings, memory, uploadPool, stats } = this.pipeline;
    memory.relieve();
    const hold = (): boolean => {
      if (memory.overHardLimit) {
        memory.relieve();
        return true;
      }
      return needBackpressure({
        remote: this.remote,
        uploadQueueSize: uploadPool.queueSize,
        uploadQueueBusyThreshold: settings.uploadQueueBusyThreshold,
        useUploadQueue: settings.useUploadQueue,
        flushRunning: memtable.running,
        flushRunningLimit: settings.flushRunningLimit,
        memtablesPerFlush: this.memtablesPerFlush,
      });
    };
    const waited = await waitWhile(hold, () => this.throwIfFailed());
    if (waited > 0) {
      this.waitFlushLimitNs += waited;
      stats.waitFlushLimitNs += waited;
      stats.waitFlushLimitCount++;
    }
  }

  /** Stop the load: waits end, nothing more is flushed or uploaded (then settle, and delete the objects). */
  cancel(reason: string): void {
    this.failure ??= { error: new GaleneError('LOAD_CANCELLED', [reason]) };
  }

  /** Hand the memtable's rows to the flush pool (no-op when it is empty or the load failed). */
  submit(memtable: TabletMemtable): void {
    if (memtable.rows === 0 || this.failure !== null) return;
    const { chunks, rows, bytes } = memtable.take();
    const slot: SegmentRecord[] = [];
    memtable.slots.push(slot);
    // Segment indexes are reserved now (at most one segment per SEGMENT_MAX_ROWS rows), so flushes of one
    // tablet may run at once and still never share a key.
    const firstSegmentIdx = memtable.nextSegmentIdx;
    memtable.nextSegmentIdx += Math.ceil(rows / SEGMENT_MAX_ROWS);
    memtable.running++;
    this.memtableFlushes++;
    const columns = chunks.map((parts, colIdx) => (parts.length === 1 ? parts[0] : concatVectors(this.table.schema.columns[colIdx].type, parts)));
    const job: Promise<void> = this.flushAndUpload(memtable.tabletId, columns, rows, bytes, firstSegmentIdx, slot)
      .catch((error: unknown) => {
        this.failure ??= { error };
      })
      .finally(() => {
        memtable.running--;
        this.pipeline.memory.release(bytes);
        this.inFlight.delete(job);
      });
    this.inFlight.add(job);
  }

  private async flushAndUpload(tabletId: number, columns: Vector[], rows: number, bytes: number, firstSegmentIdx: number, slot: SegmentRecord[]): Promise<void> {
    const segments = await this.pipeline.flushPool.flush(columns, rows, { schema: this.table.schema, segmentColumns: this.ctx.segmentColumns, writeOptions: this.ctx.segmentOptions, segmentMaxRows: SEGMENT_MAX_ROWS }, bytes);
    if (this.failure !== null) return; // the load failed meanwhile: write nothing more
    const uploads: Promise<void>[] = [];
    const put = (key: string, parts: readonly Uint8Array[]): Promise<void> => this.pipeline.uploadPool.put(this.store, key, parts);
    let failure: { error: unknown } | null = null;
    try {
      for (let segIdx = 0; segIdx < segments.length; segIdx++) {
        const segment = segments[segIdx];
        const { record, upload } = await storeSegment(this.ctx, this.store, segmentKey(this.table.schema, tabletId, this.txnId, firstSegmentIdx + segIdx), segment.parts, segment.columns, segment.numRows, this.objectKeys, put);
        uploads.push(upload);
        slot.push(record);
      }
    } catch (error) {
      failure = { error };
    }
    // Every upload settles before the job ends: an abort deletes objects only once nothing writes them.
    const rejected = (await Promise.allSettled(uploads)).find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failure !== null) throw failure.error;
    if (rejected) throw rejected.reason;
  }

  /** Wait until no flush or upload of this load is running (before deleting its objects). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Flush every memtable and wait for every upload; the rowsets to publish (one per tablet written). */
  async finish(): Promise<NewRowset[]> {
    this.throwIfFailed();
    for (const memtable of this.memtables.values()) this.submit(memtable);
    await this.settle();
    this.throwIfFailed();
    const rowsets: NewRowset[] = [];
    for (const memtable of this.memtables.values()) {
      const segments = memtable.slots.flat();
      if (segments.length === 0) continue;
      rowsets.push({ tabletId: memtable.tabletId, tableId: this.table.schema.id, segments, numRows: segments.reduce((sum, segment) => sum + segment.numRows, 0), dataSize: segments.reduce((sum, segment) => sum + segment.size, 0) });
    }
    return rowsets;
  }

  /** Give back the memory of rows never flushed and leave the limiter (after finish or abort). */
  close(): void {
    for (const memtable of this.memtables.values()) {
      this.pipeline.memory.release(memtable.take().bytes);
      this.pipeline.memory.unregister(memtable);
    }
  }
}
