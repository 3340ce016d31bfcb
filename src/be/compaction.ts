/**
 * Background compaction: merges a tablet's small rowsets into one (cumulative compaction) and, when a
 * tablet has many rowsets, all of them (base compaction), so the version count of a tablet stays small
 * and reads open few segments. The merge reads through the table model (UNIQUE keeps the newest row per
 * key, AGGREGATE merges values), writes new segments, then swaps the rowsets by metadata only; queries
 * that started before keep reading the old segments, which are deleted after a grace period.
 *
 * Merging a run of consecutive versions is exact for every model: the merged rowset takes the newest
 * version of the run, so it still sorts before every newer rowset and after every older one. Deleted rows
 * (merge-on-write delete bitmaps, DELETE predicates of later versions) are left out of the merged rowset.
 * Loads are never held up by a merge: merge-on-write tablets take the publish lock only for the swap
 * (see compactTablet).
 */
import { concatVectors, Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import { binlogMaxHistoryNums, binlogTtlSeconds } from '../meta/row-binlog';
import { tableVaultId } from '../meta/storage-vaults';
import type { Catalog, TableState } from '../meta/catalog';
import { BitmapDelta, DeleteBitmap, isMergeOnWrite, subtractSortedRowIds } from '../meta/delete-bitmap';
import { segmentObjectKeys, type NewRowset, type RowsetRecord } from '../meta/meta-store';
import { findColumn } from '../meta/schema';
import type { Backend } from './backend';
import { mergeTabletRowsets } from './compaction-merge';
import { CompactionWorkerClient } from './compaction-worker-client';

const NO_PROFILE = { add: (): void => undefined };
/** Id of the merged rowset before the swap gives it one (real ids are positive). */
const OUTPUT_PLACEHOLDER_ID = -1;

export interface CompactionPolicy {
  /** Cumulative compaction starts when a tablet has this many rowsets smaller than `smallRowsetBytes`. */
  readonly cumulativeMinRowsets: number;
  readonly smallRowsetBytes: number;
  /** Base compaction (all rowsets) when a tablet has more rowsets than this. */
  readonly baseMaxRowsets: number;
  /** Old segment files are deleted this long after they were retired (queries may still read them). */
  readonly retiredFileGraceMs: number;
  /**
   * Tables with an ANN index: a query searches every segment's HNSW graph, one native search each, so
   * their rowsets stay small (mergeable) below this many rows whatever their bytes — vectors make a rowset
   * "big" early (64 MiB is 125,000 rows of 128 dims, 21,000 of 768), which left a 1M-row table at 5-8
   * indexed segments, or 20 at 768 dims — and
   */
  readonly annSmallRowsetRows: number;
  /**
   * runs of this many same-tier rowsets merge (4: one tier is 4x the one below, so the output lands
   * exactly one tier up and each row's index is rebuilt about log4(rows / load) times).
   */
  readonly annCumulativeMinRowsets: number;
}

export const DEFAULT_COMPACTION_POLICY: CompactionPolicy = {
  cumulativeMinRowsets: 5,
  smallRowsetBytes: 64 * 1024 * 1024,
  baseMaxRowsets: 50,
  retiredFileGraceMs: 5 * 60 * 1000,
  annSmallRowsetRows: 1 << 18,
  annCumulativeMinRowsets: 4,
};

export interface CompactionStats {
  cumulativeRuns: number;
  baseRuns: number;
  rowsetsMerged: number;
  /** Input rowsets and their bytes per kind (doris_be_compaction_deltas_total / _bytes_total{type}). */
  baseRowsets: number;
  cumulativeRowsets: number;
  baseBytes: number;
  cumulativeBytes: number;
  failures: number;
  lastError: string;
}

/** Size tier of a rowset: each tier is 4x the one below, from 64 KiB up. */
function sizeTier(rowset: RowsetRecord): number {
  return Math.floor(Math.log(Math.max(1, rowset.dataSize / 65536)) / Math.log(4));
}

/**
 * Choose the rowsets of one tablet to merge now (consecutive in version order), or null.
 * Cumulative compaction is size-tiered: it merges a run of at least `cumulativeMinRowsets` consecutive
 * small rowsets of the same size tier, so the output lands in a higher tier and each row is rewritten
 * O(log n) times over a long load — never the whole growing rowset on every few loads. `annTable`: the
 * table has an ANN index (CompactionPolicy.annSmallRowsetRows / annCumulativeMinRowsets).
 */
export function pickRowsets(rowsets: readonly RowsetRecord[], policy: CompactionPolicy, annTable = false): { kind: 'base' | 'cumulative'; rowsets: RowsetRecord[] } | null {
  if (rowsets.length > policy.baseMaxRowsets) return { kind: 'base', rowsets: [...rowsets] };
  const minRowsets = annTable ? policy.annCumulativeMinRowsets : policy.cumulativeMinRowsets;
  const isSmall = (rowset: RowsetRecord): boolean => rowset.dataSize < policy.smallRowsetBytes || (annTable && rowset.numRows < policy.annSmallRowsetRows);
  let run: RowsetRecord[] = [];
  let best: RowsetRecord[] = [];
  for (const rowset of rowsets) {
    const small = isSmall(rowset);
    if (small && run.length > 0 && sizeTier(run[0]) === sizeTier(rowset)) run.push(rowset);
    else run = small ? [rowset] : [];
    if (run.length >= minRowsets && run.length >= best.length) best = [...run];
  }
  return best.length >= minRowsets ? { kind: 'cumulative', rowsets: best } : null;
}

const hasAnnIndex = (table: TableState): boolean => table.schema.indexes.some((index) => index.indexType.toUpperCase() === 'ANN');

export class CompactionScheduler {
  readonly stats: CompactionStats = { cumulativeRuns: 0, baseRuns: 0, rowsetsMerged: 0, baseRowsets: 0, cumulativeRowsets: 0, baseBytes: 0, cumulativeBytes: 0, failures: 0, lastError: '' };
  private running = false;
  /** The pass under way, so stop() can wait for it (its merge writes under data_dir). */
  private pass: Promise<number> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly retiredTimers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly catalog: Catalog,
    private readonly backend: Backend,
    private readonly policy: CompactionPolicy = DEFAULT_COMPACTION_POLICY,
  ) {
    this.worker = backend.localRoot !== null ? new CompactionWorkerClient(backend.localRoot) : null;
  }

  private readonly worker: CompactionWorkerClient | null;

  /** Check every tablet periodically (again after pause()). */
  start(intervalMs = 2000): void {
    if (this.timer !== null || this.stopped) return;
    this.timer = setInterval(() => void this.runOnce(), intervalMs);
    this.timer.unref();
  }

  /** No new checks until start() (`disable_auto_compaction` set at run time); a merge under way finishes. */
  pause(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * No new passes; the merge worker is terminated (its merge fails, its output is swept at the next start)
   * and the pass under way is awaited, so nothing writes under data_dir once this resolves.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const timer of this.retiredTimers) clearTimeout(timer);
    await this.worker?.close();
    await this.pass?.catch(() => undefined);
  }

  /** One pass over every table; compactions run one at a time. Returns how many tablets were compacted. */
  runOnce(): Promise<number> {
    if (this.running || this.stopped) return Promise.resolve(0);
    this.running = true;
    this.pass = this.runPass();
    return this.pass;
  }

  private async runPass(): Promise<number> {
    let compacted = 0;
    try {
      for (const db of this.catalog.listDatabases()) {
        for (const table of this.catalog.listTables(db.name)) {
          if (table.schema.properties['disable_auto_compaction'] === 'true') continue;
          for (const tablet of table.tablets) {
            if (this.stopped) return compacted;
            const current = this.catalog.getTableById(table.schema.id);
            if (!current) break;
            const choice = pickRowsets(current.rowsets.filter((rowset) => rowset.tabletId === tablet.id), this.policy, hasAnnIndex(current));
            if (!choice) continue;
            try {
              await this.compactTablet(current, tablet.id, choice.rowsets);
              const inputBytes = choice.rowsets.reduce((sum, rowset) => sum + rowset.dataSize, 0);
              if (choice.kind === 'base') {
                this.stats.baseRuns++;
                this.stats.baseRowsets += choice.rowsets.length;
                this.stats.baseBytes += inputBytes;
              } else {
                this.stats.cumulativeRuns++;
                this.stats.cumulativeRowsets += choice.rowsets.length;
                this.stats.cumulativeBytes += inputBytes;
              }
              this.stats.rowsetsMerged += choice.rowsets.length;
              compacted++;
            } catch (err) {
              this.stats.failures++;
              this.stats.lastError = err instanceof Error ? err.message : String(err);
              this.backend.serverLog.log('WARN', 'compaction', `${choice.kind} compaction of tablet ${tablet.id} (${table.schema.databaseName}.${table.schema.name}) failed: ${this.stats.lastError}`);
            }
          }
        }
      }
    } finally {
      this.running = false;
    }
    return compacted;
  }

  /**
   * Fault hook for tests: awaited after a merge-on-write compaction has written its output and before it
   * takes the publish lock to swap, so loads can be published "during" the merge deterministically.
   */
  afterMergeHook: (() => Promise<void>) | null = null;

  /** Merge `inputs` (rowsets of one tablet, consecutive in version order) into one rowset. */
  async compactTablet(table: TableState, tabletId: number, inputs: readonly RowsetRecord[]): Promise<void> {
    const tableId = table.schema.id;
    const before = this.catalog.getTableById(tableId) ?? table;
    const live = new Set(before.rowsets.map((rowset) => rowset.id));
    if (!inputs.every((rowset) => live.has(rowset.id))) throw new GaleneError('INTERNAL', [`compaction inputs of tablet ${tabletId} changed`]);
    const merged = await this.mergeRowsets(before, tabletId, inputs);
    // The inputs' objects as the catalog holds them at the swap (synchronous with it): a BUILD INDEX may
    // have attached index files to them since the merge began, and those go with the segments.
    const inputIds = new Set(inputs.map((rowset) => rowset.id));
    let retired: string[] = [];
    const retire = (): void => {
      const live = this.catalog.getTableById(tableId)?.rowsets.filter((rowset) => inputIds.has(rowset.id)) ?? inputs;
      retired = live.flatMap((rowset) => rowset.segments.flatMap(segmentObjectKeys));
    };
    try {
      if (!isMergeOnWrite(table.schema)) {
        retire();
        this.catalog.applyCompaction(tableId, inputs.map((rowset) => rowset.id), merged.output, merged.version, merged.txnId);
      } else {
        // Merge-on-write, as Doris does it: the merge above ran without the publish lock, from the inputs'
        // rows visible at `before`. Loads published meanwhile may have deleted some of those rows (delete
        // bitmap entries against the inputs, which go away with them): under the lock, briefly, the same
        // rows of the output are marked deleted, then the rowsets are swapped.
        await this.afterMergeHook?.();
        await this.catalog.withTableLock([tableId], async () => {
          const current = this.catalog.getTableById(tableId);
          if (!current) throw new GaleneError('INTERNAL', [`table ${table.schema.name} was dropped during compaction`]);
          const liveNow = new Set(current.rowsets.map((rowset) => rowset.id));
          if (!inputs.every((rowset) => liveNow.has(rowset.id))) throw new GaleneError('INTERNAL', [`compaction inputs of tablet ${tabletId} changed`]);
          const deletes = await this.deletesDuringMerge(before, current, tabletId, inputs, merged.output, merged.version);
          retire();
          this.catalog.applyCompaction(tableId, inputs.map((rowset) => rowset.id), merged.output, merged.version, merged.txnId, deletes);
        });
      }
    } catch (err) {
      await this.backend.deleteObjects(merged.objectKeys);
      throw err;
    }
    // Row binlog retention (meta/row-binlog.ts): the tablet's change-log rowsets past binlog.ttl_seconds or
    // beyond binlog.max_history_nums go when its data rowsets are compacted (their files after the grace).
    retired.push(...this.catalog.meta.expireBinlogRowsets(tableId, tabletId, Date.now() - binlogTtlSeconds(table.schema) * 1000, binlogMaxHistoryNums(table.schema)));
    const timer = setTimeout(() => {
      this.retiredTimers.delete(timer);
      void this.backend.deleteObjects(retired);
    }, this.policy.retiredFileGraceMs);
    timer.unref();
    this.retiredTimers.add(timer);
  }

  /** Write the merged rowset of `inputs` (visible rows at `table`'s delete bitmap); commits nothing. */
  private async mergeRowsets(table: TableState, tabletId: number, inputs: readonly RowsetRecord[]): Promise<{ output: NewRowset; version: number; txnId: number; objectKeys: string[] }> {
    const tablet = table.tablets.find((candidate) => candidate.id === tabletId);
    if (!tablet) throw new GaleneError('INTERNAL', [`tablet ${tabletId} not in table ${table.schema.name}`]);
    const slice: TableState = { ...table, tablets: [tablet], rowsets: inputs };
    // A compaction writes under a transaction id of its own so its segment keys never collide with a load's.
    const txnId = this.catalog.meta.nextId('txn');
    // The merge itself (decode, model merge, encode, write) runs in the compaction worker thread when the
    // object store is a local directory, so loads and queries keep the event loop.
    // Tables of a remote storage vault merge in-thread (the worker reads and writes the local directory only).
    const written = this.worker && tableVaultId(table.schema) === null ? await this.worker.merge(slice, txnId, this.backend.writeOptions) : await mergeTabletRowsets(slice, this.backend.fileCache, this.backend.store, txnId, this.backend.writeOptions);
    const version = Math.max(...inputs.map((rowset) => rowset.version));
    const output = written.rowsets[0] ?? { tabletId, tableId: table.schema.id, segments: [], numRows: 0, dataSize: 0 };
    return { output, version, txnId, objectKeys: written.objectKeys };
  }

  /**
   * Rows of the merged `output` to mark deleted: those whose input row was visible at `before` and is
   * deleted at `current` (a load published during the merge replaced its key, or a DELETE removed it).
   * Each key has at most one visible row, so the output row with that key is the one. The caller holds
   * the publish lock.
   */
  private async deletesDuringMerge(before: TableState, current: TableState, tabletId: number, inputs: readonly RowsetRecord[], output: NewRowset, version: number): Promise<Omit<BitmapDelta, 'rowsetId'>[]> {
    const beforeBitmap = before.deleteBitmap ?? DeleteBitmap.EMPTY;
    const currentBitmap = current.deleteBitmap ?? DeleteBitmap.EMPTY;
    const schema = current.schema;
    const keyColumns = schema.keyColumns.map((name) => findColumn(schema, name)!);
    const keyParts: Vector[][] = keyColumns.map(() => []);
    let length = 0;
    for (const rowset of inputs) {
      for (let segmentIdx = 0; segmentIdx < rowset.segments.length; segmentIdx++) {
        const rowIds = subtractSortedRowIds(currentBitmap.get(rowset.id, segmentIdx), beforeBitmap.get(rowset.id, segmentIdx));
        if (rowIds.length === 0) continue;
        const reader = await this.backend.openSegment(rowset.segments[segmentIdx], NO_PROFILE);
        for (let keyIdx = 0; keyIdx < keyColumns.length; keyIdx++) keyParts[keyIdx].push(await reader.readRows(keyColumns[keyIdx].name, rowIds, NO_PROFILE));
        length += rowIds.length;
      }
    }
    const storage = this.catalog.mergeOnWrite;
    if (length === 0 || output.segments.length === 0) return [];
    if (storage === null) throw new GaleneError('INTERNAL', ['merge-on-write compaction without a storage engine']);
    const tablet = current.tablets.find((candidate) => candidate.id === tabletId)!;
    const keys = keyColumns.map((column, keyIdx) => concatVectors(column.type, keyParts[keyIdx]));
    // The output alone, under a placeholder id (it gets its id when swapped in).
    const outputRecord: RowsetRecord = { ...output, id: OUTPUT_PLACEHOLDER_ID, txnId: 0, version, createTime: 0 };
    const outputOnly: TableState = { ...current, tablets: [tablet], rowsets: [outputRecord], deleteBitmap: DeleteBitmap.EMPTY };
    const { bitmaps } = await storage.deleteKeys(outputOnly, keys, length);
    return bitmaps.map(({ segment, rowIds }) => ({ segment, rowIds }));
  }
}
