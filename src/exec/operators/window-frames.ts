/**
 * The row geometry window functions work on, over the Window operator's input after it is sorted by
 * partition keys then order keys: per row, its partition and its peer group (rows equal on the ORDER BY
 * keys) as [start, end) positions, and per frame the [start, end) rows the frame covers. All typed
 * arrays; every frame start and end is non-decreasing within a partition (the sliding kernels rely on it).
 */
import type { Batch, Vector } from '../../common/column';
import type { FrameBound, SortKey, WindowFrame } from '../plan/physical-plan';
import { keyComparator } from './sort-permutation';

export interface PartitionLayout {
  readonly rowCount: number;
  /** Number of partitions; `partitionId[row]` counts from 0 in row order. */
  readonly partitionCount: number;
  readonly partitionId: Int32Array;
  readonly partStart: Int32Array;
  readonly partEnd: Int32Array;
  readonly peerStart: Int32Array;
  readonly peerEnd: Int32Array;
}

/** Rows [start, end) of each row's frame (empty when start >= end). */
export interface FrameRows {
  readonly start: Int32Array;
  readonly end: Int32Array;
}

type KeyCompiler = readonly ((b: Batch) => Vector)[];

/** Rows compared between event-loop checkpoints while finding partition and peer boundaries. */
const LAYOUT_STEP_ROWS = 65_536;

/** Bytes per row a PartitionLayout holds (five Int32Arrays), for exec_mem_limit. */
export const LAYOUT_BYTES_PER_ROW = 20;

/**
 * Partitions and peer groups of a sorted batch. Without ORDER BY keys every row of a partition is a peer.
 * Calls `checkpoint` every LAYOUT_STEP_ROWS rows (the key comparisons are the costly part).
 */
export async function partitionLayout(
  batch: Batch,
  partitionKeys: readonly SortKey[],
  partitionCompiled: KeyCompiler,
  orderKeys: readonly SortKey[],
  orderCompiled: KeyCompiler,
  checkpoint: () => Promise<void> | undefined,
): Promise<PartitionLayout> {
  const rowCount = batch.length;
  const samePartition = partitionKeys.length > 0 ? keyComparator(batch, partitionKeys, partitionCompiled) : null;
  const samePeers = orderKeys.length > 0 ? keyComparator(batch, orderKeys, orderCompiled) : null;
  const partitionId = new Int32Array(rowCount);
  const partStart = new Int32Array(rowCount);
  const partEnd = new Int32Array(rowCount);
  const peerStart = new Int32Array(rowCount);
  const peerEnd = new Int32Array(rowCount);
  let partition = 0;
  let currentPart = 0;
  let currentPeer = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (rowIdx % LAYOUT_STEP_ROWS === LAYOUT_STEP_ROWS - 1) {
      const pause = checkpoint();
      if (pause !== undefined) await pause;
    }
    if (rowIdx > 0) {
      if (samePartition !== null && samePartition(rowIdx - 1, rowIdx) !== 0) {
        partition++;
        currentPart = rowIdx;
        currentPeer = rowIdx;
      } else if (samePeers !== null && samePeers(rowIdx - 1, rowIdx) !== 0) {
        currentPeer = rowIdx;
      }
    }
    partitionId[rowIdx] = partition;
    partStart[rowIdx] = currentPart;
    peerStart[rowIdx] = currentPeer;
  }
  // Ends, walking back: a row's end is the next row's end unless the next row starts a new group.
  for (let rowIdx = rowCount - 1; rowIdx >= 0; rowIdx--) {
    const last = rowIdx === rowCount - 1;
    partEnd[rowIdx] = last || partStart[rowIdx + 1] !== partStart[rowIdx] ? rowIdx + 1 : partEnd[rowIdx + 1];
    peerEnd[rowIdx] = last || peerStart[rowIdx + 1] !== peerStart[rowIdx] ? rowIdx + 1 : peerEnd[rowIdx + 1];
  }
  return { rowCount, partitionCount: rowCount === 0 ? 0 : partition + 1, partitionId, partStart, partEnd, peerStart, peerEnd };
}

/** The rows of each row's frame, clamped to its partition. */
export function frameRows(frame: WindowFrame, layout: PartitionLayout): FrameRows {
  const { rowCount, partStart, partEnd, peerStart, peerEnd } = layout;
  const start = new Int32Array(rowCount);
  const end = new Int32Array(rowCount);
  const { start: lower, end: upper } = frame;
  const range = frame.units === 'range';
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const first = partStart[rowIdx];
    const stop = partEnd[rowIdx];
    let from: number;
    switch (lower.kind) {
      case 'unbounded_preceding':
        from = first;
        break;
      case 'preceding':
        from = Math.max(first, rowIdx - lower.offset);
        break;
      case 'current_row':
        from = range ? peerStart[rowIdx] : rowIdx;
        break;
      case 'following':
        from = Math.min(stop, rowIdx + lower.offset);
        break;
      case 'unbounded_following':
        from = stop;
        break;
    }
    let to: number;
    switch (upper.kind) {
      case 'unbounded_preceding':
        to = first;
        break;
      case 'preceding':
        to = Math.max(first, rowIdx - upper.offset + 1);
        break;
      case 'current_row':
        to = range ? peerEnd[rowIdx] : rowIdx + 1;
        break;
      case 'following':
        to = Math.min(stop, rowIdx + upper.offset + 1);
        break;
      case 'unbounded_following':
        to = stop;
        break;
    }
    start[rowIdx] = from;
    end[rowIdx] = to < from ? from : to;
  }
  return { start, end };
}

/** True when every row's frame is its whole partition (one aggregate per partition answers it). */
export function coversPartitions(frame: FrameRows, layout: PartitionLayout): boolean {
  for (let rowIdx = 0; rowIdx < layout.rowCount; rowIdx++) {
    if (frame.start[rowIdx] !== layout.partStart[rowIdx] || frame.end[rowIdx] !== layout.partEnd[rowIdx]) return false;
  }
  return true;
}

/** True when every frame starts at its partition's first row (a running frame: nothing ever leaves it). */
export function startsAtPartition(frame: FrameRows, layout: PartitionLayout): boolean {
  for (let rowIdx = 0; rowIdx < layout.rowCount; rowIdx++) if (frame.start[rowIdx] !== layout.partStart[rowIdx]) return false;
  return true;
}

function boundToString(bound: FrameBound): string {
  switch (bound.kind) {
    case 'unbounded_preceding':
      return 'UNBOUNDED PRECEDING';
    case 'unbounded_following':
      return 'UNBOUNDED FOLLOWING';
    case 'current_row':
      return 'CURRENT ROW';
    case 'preceding':
      return `${bound.offset} PRECEDING`;
    case 'following':
      return `${bound.offset} FOLLOWING`;
  }
}

/** `ROWS BETWEEN 1 PRECEDING AND CURRENT ROW`. */
export function windowFrameToString(frame: WindowFrame): string {
  return `${frame.units.toUpperCase()} BETWEEN ${boundToString(frame.start)} AND ${boundToString(frame.end)}`;
}
