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
 */
import { GaleneError } from '../common/errors';
import { LocalObjectStore } from '../io/local-object-store';
import type { Catalog, TableState } from '../meta/catalog';
import { isMergeOnWrite } from '../meta/delete-bitmap';
import type { RowsetRecord } from '../meta/meta-store';
import type { Backend } from './backend';
import { mergeTabletRowsets } from './compaction-merge';
import { CompactionWorkerClient } from './compaction-worker-client';

export interface CompactionPolicy {
  /** Cumulative compaction starts when a tablet has this many rowsets smaller than `smallRowsetBytes`. */
  readonly cumulativeMinRowsets: number;
  readonly smallRowsetBytes: number;
  /** Base compaction (all rowsets) when a tablet has more rowsets than this. */
  readonly baseMaxRowsets: number;
  /** Old segment files are deleted this long after they were retired (queries may still read them). */
  readonly retiredFileGraceMs: number;
}

export const DEFAULT_COMPACTION_POLICY: CompactionPolicy = {
  cumulativeMinRowsets: 5,
  smallRowsetBytes: 64 * 1024 * 1024,
  baseMaxRowsets: 50,
  retiredFileGraceMs: 5 * 60 * 1000,
};

export interface CompactionStats {
  cumulativeRuns: number;
  baseRuns: number;
  rowsetsMerged: number;
  failures: number;
  lastError: string;
}

/** Choose the rowsets of one tablet to merge now, oldest first; [] when nothing is worth doing. */
/** Size tier of a rowset: each tier is 4x the one below, from 64 KiB up. */
function sizeTier(rowset: RowsetRecord): number {
  return Math.floor(Math.log(Math.max(1, rowset.dataSize / 65536)) / Math.log(4));
}

/**
 * Choose the rowsets of one tablet to merge now (consecutive in version order), or null.
 * Cumulative compaction is size-tiered: it merges a run of at least `cumulativeMinRowsets` consecutive
 * small rowsets of the same size tier, so the output lands in a higher tier and each row is rewritten
 * O(log n) times over a long load — never the whole growing rowset on every few loads.
 */
export function pickRowsets(rowsets: readonly RowsetRecord[], policy: CompactionPolicy): { kind: 'base' | 'cumulative'; rowsets: RowsetRecord[] } | null {
  if (rowsets.length > policy.baseMaxRowsets) return { kind: 'base', rowsets: [...rowsets] };
  let run: RowsetRecord[] = [];
  let best: RowsetRecord[] = [];
  for (const rowset of rowsets) {
    const small = rowset.dataSize < policy.smallRowsetBytes;
    if (small && run.length > 0 && sizeTier(run[0]) === sizeTier(rowset)) run.push(rowset);
    else run = small ? [rowset] : [];
    if (run.length >= policy.cumulativeMinRowsets && run.length >= best.length) best = [...run];
  }
  return best.length >= policy.cumulativeMinRowsets ? { kind: 'cumulative', rowsets: best } : null;
}

export class CompactionScheduler {
  readonly stats: CompactionStats = { cumulativeRuns: 0, baseRuns: 0, rowsetsMerged: 0, failures: 0, lastError: '' };
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly retiredTimers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly catalog: Catalog,
    private readonly backend: Backend,
    private readonly policy: CompactionPolicy = DEFAULT_COMPACTION_POLICY,
  ) {
    const root = backend.store instanceof LocalObjectStore ? backend.store.root : null;
    this.worker = root !== null ? new CompactionWorkerClient(root) : null;
  }

  private readonly worker: CompactionWorkerClient | null;

  /** Check every tablet periodically. */
  start(intervalMs = 2000): void {
    this.timer = setInterval(() => void this.runOnce(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    void this.worker?.close();
    if (this.timer) clearInterval(this.timer);
    for (const timer of this.retiredTimers) clearTimeout(timer);
  }

  /** One pass over every table; compactions run one at a time. Returns how many tablets were compacted. */
  async runOnce(): Promise<number> {
    if (this.running || this.stopped) return 0;
    this.running = true;
    let compacted = 0;
    try {
      for (const db of this.catalog.listDatabases()) {
        for (const table of this.catalog.listTables(db.name)) {
          if (table.schema.properties['disable_auto_compaction'] === 'true') continue;
          for (const tablet of table.tablets) {
            if (this.stopped) return compacted;
            const current = this.catalog.getTableById(table.schema.id);
            if (!current) break;
            const choice = pickRowsets(current.rowsets.filter((rowset) => rowset.tabletId === tablet.id), this.policy);
            if (!choice) continue;
            try {
              await this.compactTablet(current, tablet.id, choice.rowsets);
              if (choice.kind === 'base') this.stats.baseRuns++;
              else this.stats.cumulativeRuns++;
              this.stats.rowsetsMerged += choice.rowsets.length;
              compacted++;
            } catch (err) {
              this.stats.failures++;
              this.stats.lastError = err instanceof Error ? err.message : String(err);
            }
          }
        }
      }
    } finally {
      this.running = false;
    }
    return compacted;
  }

  /** Merge `inputs` (rowsets of one tablet, consecutive in version order) into one rowset. */
  async compactTablet(table: TableState, tabletId: number, inputs: readonly RowsetRecord[]): Promise<void> {
    if (!isMergeOnWrite(table.schema)) return this.mergeRowsets(table, tabletId, inputs);
    // Merge-on-write: hold the table's publish lock for the whole compaction, so no publish adds delete
    // bitmap entries against the input rowsets meanwhile (they would be lost with the inputs); the merged
    // rowset is written from the inputs' visible rows at the current bitmap, whose entries for the inputs
    // are dropped with them. Loads into the table wait for the compaction of one tablet at most.
    const tableId = table.schema.id;
    await this.catalog.withTableLock([tableId], async () => {
      const current = this.catalog.getTableById(tableId);
      if (!current) throw new GaleneError('INTERNAL', [`table ${table.schema.name} was dropped during compaction`]);
      const live = new Set(current.rowsets.map((rowset) => rowset.id));
      if (!inputs.every((rowset) => live.has(rowset.id))) throw new GaleneError('INTERNAL', [`compaction inputs of tablet ${tabletId} changed`]);
      await this.mergeRowsets(current, tabletId, inputs);
    });
  }

  private async mergeRowsets(table: TableState, tabletId: number, inputs: readonly RowsetRecord[]): Promise<void> {
    const tablet = table.tablets.find((candidate) => candidate.id === tabletId);
    if (!tablet) throw new GaleneError('INTERNAL', [`tablet ${tabletId} not in table ${table.schema.name}`]);
    const slice: TableState = { ...table, tablets: [tablet], rowsets: inputs };
    // A compaction writes under a transaction id of its own so its segment keys never collide with a load's.
    const txnId = this.catalog.meta.nextId('txn');
    // The merge itself (decode, model merge, encode, write) runs in the compaction worker thread when the
    // object store is a local directory, so loads and queries keep the event loop.
    const written = this.worker ? await this.worker.merge(slice, txnId) : await mergeTabletRowsets(slice, this.backend.fileCache, this.backend.store, txnId);
    const version = Math.max(...inputs.map((rowset) => rowset.version));
    const output = written.rowsets[0] ?? { tabletId, tableId: table.schema.id, segments: [], numRows: 0, dataSize: 0 };
    try {
      this.catalog.applyCompaction(table.schema.id, inputs.map((rowset) => rowset.id), output, version, txnId);
    } catch (err) {
      await this.backend.deleteObjects(written.objectKeys);
      throw err;
    }
    const retired = inputs.flatMap((rowset) => rowset.segments.map((segment) => segment.key));
    const timer = setTimeout(() => {
      this.retiredTimers.delete(timer);
      void this.backend.deleteObjects(retired);
    }, this.policy.retiredFileGraceMs);
    timer.unref();
    this.retiredTimers.add(timer);
  }
}
