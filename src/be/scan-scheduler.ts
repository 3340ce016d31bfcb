/**
 * Scan scheduling: how a parallel scan is cut into tasks, and how many of them one query keeps in flight.
 * Every scan that runs tasks over segments (scan fragments today, per-segment index searches next) plans
 * and runs them here, so that the cut and the window follow one policy.
 *
 * Planning (planScanTasks): a task is a list of pieces (rows [rowStart, rowEnd) of one segment, with the
 * deleted rows among them) run one after another. Three shapes:
 * - 'row-ranges' (ordinary scans): every segment cut into ranges of `taskRows`; one piece per task.
 * - 'per-segment' (index-driven scans with optimize_index_scan_parallelism on): one task per segment,
 *   however small — Doris's "strictly one scan task per segment", which raises the parallelism of the
 *   index phase when segments are small (high-dimensional vectors make segments of few rows).
 * - 'segment-groups' (index-driven scans, the variable off): Doris's row-based split, at most
 *   DORIS_ROWS_PER_SCAN_TASK (2,097,152) live rows per task, so consecutive small segments share a task and
 *   are searched serially (a bigger segment is a task of its own, never cut: its index covers it whole).
 *
 * Running (runScanTasks): tasks start in order; results come out in order (pieces of a task in piece
 * order), so merging them in turn equals one sequential pass. Before each round of submissions the
 * window — how many tasks this query may have in flight — is decided from the scan pool's pressure
 * (Doris 4.0's dynamic parallelism): idle, up to `maxWindow` (two per worker); with other queries' tasks
 * queued or running, only what is left of that capacity, and at least one, so that under many concurrent
 * scans each keeps one task in the pool instead of all flooding its queue. A failed piece rejects when its
 * turn comes and stops further submissions; a consumer that stops early (LIMIT, error above) stops them
 * too, leaving tasks in flight to settle unobserved.
 *
 * Profile counters: ParallelScanTasks (tasks planned), ScanPoolQueuedAtStart (tasks of all queries waiting
 * in the pool when the scan started: what its first task queues behind), ScanTasksMaxInFlight (the most
 * this query had running at once), ScanPressureLimitedRounds (rounds whose window pressure held below
 * maxWindow while tasks were waiting).
 */
import type { QueryProfile } from '../common/profile';
import type { SegmentRecord } from '../meta/meta-store';

/** Doris's row-based split: one scan task per this many rows (`parallel_scan_min_rows_per_scanner`'s default there). */
export const DORIS_ROWS_PER_SCAN_TASK = 2_097_152;

/** A segment a scan reads, with its rows not visible at the scan's version (ascending; may be empty). */
export interface SegmentToScan {
  readonly segment: SegmentRecord;
  readonly excludedRows: Int32Array;
}

/** Rows [rowStart, rowEnd) of one segment; `excludedRows`: the deleted ones among them (absent: none). */
export interface ScanPiece {
  readonly segment: SegmentRecord;
  readonly rowStart: number;
  readonly rowEnd: number;
  readonly excludedRows?: Int32Array;
}

/** A task: pieces run one after another in one slot of the window. */
export type PlannedScanTask = readonly ScanPiece[];

export type ScanTaskPolicy =
  | { readonly kind: 'row-ranges'; readonly taskRows: number }
  | { readonly kind: 'per-segment' }
  | { readonly kind: 'segment-groups'; readonly taskRows: number };

/** What the scan pool is doing now, over every query: tasks waiting for a worker and tasks running. */
export interface ScanPressure {
  readonly workers: number;
  readonly queued: number;
  readonly running: number;
}

export interface ScanPressureSource {
  pressure(): ScanPressure;
}

/**
 * The task shape for a scan: ordinary scans cut rows into ranges; index-driven scans take whole segments,
 * one per task when `perSegment` (optimize_index_scan_parallelism), else grouped by Doris's row split.
 */
export function scanTaskPolicy(indexScan: { readonly perSegment: boolean } | undefined, taskRows: number): ScanTaskPolicy {
  if (indexScan === undefined) return { kind: 'row-ranges', taskRows };
  return indexScan.perSegment ? { kind: 'per-segment' } : { kind: 'segment-groups', taskRows: DORIS_ROWS_PER_SCAN_TASK };
}

/** The ids of ascending `rowIds` within [start, end). */
function rowIdsBetween(rowIds: Int32Array, start: number, end: number): Int32Array {
  let lo = 0;
  while (lo < rowIds.length && rowIds[lo] < start) lo++;
  let hi = lo;
  while (hi < rowIds.length && rowIds[hi] < end) hi++;
  return rowIds.slice(lo, hi);
}

function piece(scan: SegmentToScan, rowStart: number, rowEnd: number): ScanPiece {
  const { segment, excludedRows } = scan;
  if (excludedRows.length === 0) return { segment, rowStart, rowEnd };
  return { segment, rowStart, rowEnd, excludedRows: rowStart === 0 && rowEnd >= segment.numRows ? excludedRows : rowIdsBetween(excludedRows, rowStart, rowEnd) };
}

/** Tasks over `segments` (in scan order) by `policy`; segments whose every row is deleted get none. */
export function planScanTasks(segments: readonly SegmentToScan[], policy: ScanTaskPolicy): PlannedScanTask[] {
  const tasks: PlannedScanTask[] = [];
  let group: ScanPiece[] = [];
  let groupRows = 0;
  for (const scan of segments) {
    const numRows = scan.segment.numRows;
    const liveRows = numRows - scan.excludedRows.length;
    if (liveRows <= 0) continue;
    switch (policy.kind) {
      case 'row-ranges':
        for (let rowStart = 0; rowStart < numRows; rowStart += policy.taskRows) tasks.push([piece(scan, rowStart, Math.min(numRows, rowStart + policy.taskRows))]);
        break;
      case 'per-segment':
        tasks.push([piece(scan, 0, numRows)]);
        break;
      case 'segment-groups':
        // A segment joins the open group unless it would take it past taskRows; a bigger one is a task alone.
        if (group.length > 0 && groupRows + liveRows > policy.taskRows) {
          tasks.push(group);
          group = [];
          groupRows = 0;
        }
        group.push(piece(scan, 0, numRows));
        groupRows += liveRows;
        break;
    }
  }
  if (group.length > 0) tasks.push(group);
  return tasks;
}

/**
 * Tasks this query may have in flight now: `maxWindow` less the pool's tasks that are not this query's
 * (`mine`: its tasks queued or running), at least one.
 */
export function windowUnderPressure(pressure: ScanPressure, mine: number, maxWindow: number): number {
  const others = Math.max(0, pressure.queued + pressure.running - mine);
  return Math.max(1, Math.min(maxWindow, maxWindow - others));
}

export interface RunScanTasksOptions {
  /** The most tasks in flight (today two per worker). */
  readonly maxWindow: number;
  /** The pool's pressure; absent: a fixed window of maxWindow (the behaviour before dynamic parallelism). */
  readonly pressure?: ScanPressureSource;
  readonly profile: QueryProfile;
}

/** Raise a profile counter to `value` if it is lower (a query may run several scans). */
function raiseCounter(profile: QueryProfile, name: string, value: number): void {
  const current = profile.get(name);
  if (value > current) profile.add(name, value - current);
}

/**
 * `run(piece)` for every piece of every task, tasks in order, pieces of one task one after another;
 * yields each piece's result in order. Two bounds: at most `maxWindow` tasks submitted and not yet taken
 * by the consumer (results wait in memory only that long), and — with a pressure source — at most the
 * window the pool's pressure allows still running. With a pressure source a round also runs as soon as a
 * task settles, not only when the consumer takes a result: a query held to one task does not leave the
 * pool without its next task while its consumer waits for an event-loop turn.
 */
export async function* runScanTasks<P, R>(tasks: readonly (readonly P[])[], run: (piece: P) => Promise<R>, options: RunScanTasksOptions): AsyncIterable<R> {
  const { maxWindow, pressure, profile } = options;
  const inFlight: Promise<R[]>[] = [];
  let next = 0;
  /** This query's tasks not yet settled (in the pool, or between two pieces of a group). */
  let unsettled = 0;
  let stopped = false;
  const runTask = async (task: readonly P[]): Promise<R[]> => {
    const results: R[] = [];
    try {
      for (const item of task) {
        if (stopped) break;
        results.push(await run(item));
      }
      return results;
    } catch (err) {
      stopped = true; // it rejects when its turn comes; nothing after it is worth starting
      throw err;
    } finally {
      unsettled--;
      if (pressure !== undefined) round();
    }
  };
  function round(): void {
    if (stopped || next >= tasks.length) return;
    const window = pressure === undefined ? maxWindow : windowUnderPressure(pressure.pressure(), unsettled, maxWindow);
    while (next < tasks.length && inFlight.length < maxWindow && unsettled < window) {
      unsettled++;
      const promise = runTask(tasks[next++]);
      promise.catch(() => undefined); // awaited in order below; a failure meanwhile is not unhandled
      inFlight.push(promise);
    }
    if (next < tasks.length && inFlight.length < maxWindow && window < maxWindow) profile.add('ScanPressureLimitedRounds', 1);
    raiseCounter(profile, 'ScanTasksMaxInFlight', unsettled);
  }
  try {
    round();
    while (inFlight.length > 0) {
      const results = await inFlight[0]; // still counted against maxWindow while awaited
      inFlight.shift();
      round();
      yield* results;
    }
  } finally {
    stopped = true;
  }
}
