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
import type { BinlogOp } from '../../meta/row-binlog';
import { opVector, rowBinlogSide, seqVector, sharedBinlogBytes, type RowBinlogSide } from '../row-binlog-writer';

/** The rows of one memtable of a tablet (the data one, or the row binlog's) and the segments it flushed. */
class MemtableRows {
  private chunks: Vector[][];
  rows = 0;
  bytes = 0;
  /** Segments per submitted memtable, in submission order (a rowset lists them in write order). */
  readonly slots: SegmentRecord[][] = [];
  nextSegmentIdx = 0;

  constructor(private readonly columnCount: number) {
    this.chunks = this.emptyChunks();
  }

  private emptyChunks(): Vector[][] {
    return Array.from({ length: this.columnCount }, () => []);
  }

  append(columns: readonly Vector[], rows: number, bytes: number): void {
    columns.forEach((column, colIdx) => this.chunks[colIdx].push(column));
    this.rows += rows;
    this.bytes += bytes;
  }

  /** The rows appended so far; the memtable starts empty again. */
  take(): { chunks: Vector[][]; rows: number; bytes: number } {
    const taken = { chunks: this.chunks, rows: this.rows, bytes: this.bytes };
    this.chunks = this.emptyChunks();
    this.rows = 0;
    this.bytes = 0;
    return taken;
  }
}

class TabletMemtable implements LimitedMemtable {
  readonly data: MemtableRows;
  /** The row binlog's memtable (change-log rows: `__seq`, `__op`, the columns), null without one. */
  readonly binlog: MemtableRows | null;
  /** Flush tasks of this tablet submitted and not yet flushed and uploaded (the flush-running count). */
  running = 0;

  constructor(
    readonly tabletId: number,
    columnCount: number,
    withBinlog: boolean,
    private readonly writer: LoadWriter,
  ) {
    this.data = new MemtableRows(columnCount);
    this.binlog = withBinlog ? new MemtableRows(columnCount + 2) : null;
  }

  get activeBytes(): number {
    return this.data.bytes + (this.binlog?.bytes ?? 0);
  }

  get empty(): boolean {
    return this.data.rows === 0 && (this.binlog === null || this.binlog.rows === 0);
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
  /** The row binlog's write side (null: the table has none). */
  private readonly binlog: RowBinlogSide | null;
  /** Memtables one logical flush writes: 2 for a row-binlog table (data + change log). */
  readonly memtablesPerFlush: number;
  /** Rows this load logged so far: the next row's `__seq`. */
  private loggedRows = 0;

  /**
   * `loadMemLimit`: bytes this load's memtables may hold before its largest is flushed (Doris's load channel
   * limit, exec_mem_limit). `memtablesPerFlush`: memtables one logical flush writes (2 when a second,
   * row-binlog memtable goes with each).
   */
  constructor(
    private readonly pipeline: WritePipeline,
    private readonly store: ObjectStore,
    private table: TableState,
    private readonly txnId: number,
    options: TableWriteOptions = {},
    private readonly loadMemLimit = Number.POSITIVE_INFINITY,
    memtablesPerFlush = 1,
  ) {
    this.ctx = tableSegmentContext(table.schema, options);
    this.binlog = rowBinlogSide(table, options);
    // A row-binlog table flushes a data and a change-log memtable per request (Doris's GROUP request).
    this.memtablesPerFlush = this.binlog === null ? memtablesPerFlush : Math.max(2, memtablesPerFlush);
    this.remote = storeKindOf(store, segmentKey(table.schema, table.tablets[0]?.id ?? 0, txnId, 0)) === 'remote';
  }

  /**
   * Write the next batches with `table`: the same table with partitions added since (AUTO PARTITION).
   * Memtables are per tablet id, so those of the tablets written so far carry on.
   */
  useTable(table: TableState): void {
    this.table = table;
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure.error;
  }

  private memtable(tabletId: number): TabletMemtable {
    let memtable = this.memtables.get(tabletId);
    if (memtable === undefined) {
      memtable = new TabletMemtable(tabletId, this.table.schema.columns.length, this.binlog !== null, this);
      this.memtables.set(tabletId, memtable);
      this.pipeline.memory.register(memtable);
    }
    return memtable;
  }

  /** Append a batch (table columns in schema order): `checkpoint` runs between tablets. */
  async add(batch: Batch, checkpoint?: () => Promise<void> | undefined): Promise<void> {
    this.throwIfFailed();
    if (batch.length === 0) return;
    await this.write(batch, checkpoint, this.binlog?.op ?? null, true);
  }

  /**
   * Log rows the load deletes (full rows, table columns) in the row binlog as DELETE; a no-op for a
   * table without one (the data side of a delete is the commit's delete bitmap, not a memtable).
   */
  async addDeletes(batch: Batch): Promise<void> {
    this.throwIfFailed();
    if (batch.length === 0 || this.binlog === null) return;
    await this.write(batch, undefined, 'DELETE', false);
  }

  /** `op`: the change-log operation of the rows (null: no row binlog); `data`: the rows go to the data memtables too. */
  private async write(batch: Batch, checkpoint: (() => Promise<void> | undefined) | undefined, op: BinlogOp | null, data: boolean): Promise<void> {
    const groups = batchRowsByTablet(this.table, batch, this.txnId);
    const seqBase = this.loggedRows;
    if (op !== null) this.loggedRows += batch.length;
    for (let bucket = 0; bucket < groups.length; bucket++) {
      const rowIds = groups[bucket];
      if (rowIds.length === 0) continue;
      const pause = checkpoint?.();
      if (pause !== undefined) await pause;
      const memtable = this.memtable(this.table.tablets[bucket].id);
      const columns = tabletColumns(batch, rowIds);
      const rows = rowIds.length;
      const bytes = batchBytes({ length: rows, columns });
      const logged = op === null ? null : [seqVector(seqBase, rowIds.length === batch.length ? null : rowIds, rows), opVector(op, rows), ...columns];
      // A memtable takes what fits in write_buffer_size; the rest of the tablet's rows go to the next one
      // (Doris writes a block at a time), each piece after its own backpressure check.
      for (let start = 0; start < rows; ) {
        await this.waitForBackpressure(memtable);
        const room = Math.max(1, Math.ceil(((this.pipeline.settings.writeBufferSize - memtable.activeBytes) * rows) / bytes));
        const end = Math.min(rows, start + room);
        const whole = start === 0 && end === rows;
        const piece = (vectors: Vector[]): Vector[] => (whole ? vectors : vectors.map((column) => sliceVector(column, start, end)));
        const pieceBytes = whole ? bytes : Math.ceil((bytes * (end - start)) / rows);
        let reserved = 0;
        if (data) {
          memtable.data.append(piece(columns), end - start, pieceBytes);
          reserved += pieceBytes;
        }
        if (logged !== null && memtable.binlog !== null) {
          const logBytes = data ? sharedBinlogBytes(end - start) : pieceBytes;
          memtable.binlog.append(piece(logged), end - start, logBytes);
          reserved += logBytes;
        }
        this.pipeline.memory.reserve(reserved);
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

  /**
   * Hand the memtable's rows to the flush pool (no-op when it is empty or the load failed). For a
   * row-binlog table this is one GROUP request of two physical flush tasks, the data memtable and the
   * change-log memtable, each counted in the tablet's flush-running count (as Doris's
   * flush_running_count() counts them), hence the doubled limit of memtablesPerFlush.
   */
  submit(memtable: TabletMemtable): void {
    if (memtable.empty || this.failure !== null) return;
    this.memtableFlushes++;
    this.submitRows(memtable, memtable.data, this.ctx);
    if (memtable.binlog !== null && this.binlog !== null) this.submitRows(memtable, memtable.binlog, this.binlog.ctx);
  }

  private submitRows(memtable: TabletMemtable, rowsOf: MemtableRows, ctx: TableSegmentContext): void {
    if (rowsOf.rows === 0) return;
    const { chunks, rows, bytes } = rowsOf.take();
    const slot: SegmentRecord[] = [];
    rowsOf.slots.push(slot);
    // Segment indexes are reserved now (at most one segment per SEGMENT_MAX_ROWS rows), so flushes of one
    // tablet may run at once and still never share a key.
    const firstSegmentIdx = rowsOf.nextSegmentIdx;
    rowsOf.nextSegmentIdx += Math.ceil(rows / SEGMENT_MAX_ROWS);
    memtable.running++;
    const columns = chunks.map((parts, colIdx) => (parts.length === 1 ? parts[0] : concatVectors(ctx.schema.columns[colIdx].type, parts)));
    const job: Promise<void> = this.flushAndUpload(ctx, memtable.tabletId, columns, rows, bytes, firstSegmentIdx, slot)
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

  private async flushAndUpload(ctx: TableSegmentContext, tabletId: number, columns: Vector[], rows: number, bytes: number, firstSegmentIdx: number, slot: SegmentRecord[]): Promise<void> {
    const segments = await this.pipeline.flushPool.flush(columns, rows, { schema: ctx.schema, segmentColumns: ctx.segmentColumns, writeOptions: ctx.segmentOptions, segmentMaxRows: SEGMENT_MAX_ROWS }, bytes);
    if (this.failure !== null) return; // the load failed meanwhile: write nothing more
    const uploads: Promise<void>[] = [];
    const put = (key: string, parts: readonly Uint8Array[]): Promise<void> => this.pipeline.uploadPool.put(this.store, key, parts);
    let failure: { error: unknown } | null = null;
    try {
      for (let segIdx = 0; segIdx < segments.length; segIdx++) {
        const segment = segments[segIdx];
        const { record, upload } = await storeSegment(ctx, this.store, segmentKey(ctx.schema, tabletId, this.txnId, firstSegmentIdx + segIdx), segment.parts, segment.columns, segment.numRows, this.objectKeys, put);
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
    const binlog: NewRowset[] = [];
    const rowsetOf = (tabletId: number, rowsOf: MemtableRows): NewRowset | null => {
      const segments = rowsOf.slots.flat();
      if (segments.length === 0) return null;
      return { tabletId, tableId: this.table.schema.id, segments, numRows: segments.reduce((sum, segment) => sum + segment.numRows, 0), dataSize: segments.reduce((sum, segment) => sum + segment.size, 0) };
    };
    for (const memtable of this.memtables.values()) {
      const data = rowsetOf(memtable.tabletId, memtable.data);
      if (data !== null) rowsets.push(data);
      const log = memtable.binlog === null ? null : rowsetOf(memtable.tabletId, memtable.binlog);
      if (log !== null) binlog.push({ ...log, rowBinlog: true });
    }
    // The change-log rowsets last: a publish's bitmap deltas name data rowsets by their index.
    return [...rowsets, ...binlog];
  }

  /** Give back the memory of rows never flushed and leave the limiter (after finish or abort). */
  close(): void {
    for (const memtable of this.memtables.values()) {
      this.pipeline.memory.release(memtable.data.take().bytes + (memtable.binlog?.take().bytes ?? 0));
      this.pipeline.memory.unregister(memtable);
    }
  }
}
