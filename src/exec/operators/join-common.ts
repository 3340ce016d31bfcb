/**
 * Pieces shared by HashJoin and NestedLoopJoin: materializing the build side with one extra all-NULL row
 * (the row a LEFT JOIN pairs unmatched probe rows with), assembling output batches from row-id pairs, and
 * applying the residual ON condition while tracking which probe rows found a match.
 */
import { batchBytes, constantVector, selectRows, takeRows, BATCH_SIZE, type Batch } from '../../common/column';
import type { QueryTask } from '../query-task';
import type { CompiledExpr } from '../expr-api';
import { selectTrue } from '../expr';
import type { OutputColumn } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { concatBatches } from './sort-permutation';

/** All rows of a stream in one batch, plus a trailing NULL row at index `rowCount`. */
export interface BuildSide {
  readonly rowCount: number;
  readonly batch: Batch;
  readonly withNullRow: Batch;
}

/**
 * Read the build side whole. Its bytes are reserved on `task` (exec_mem_limit) and stay reserved until the
 * caller's `release()`, called when the join ends.
 */
export async function materializeBuild(input: AsyncIterable<Batch>, output: readonly OutputColumn[], task: QueryTask): Promise<BuildSide & { release(): void }> {
  const batches: Batch[] = [];
  let heldBytes = 0;
  const release = (): void => {
    task.release(heldBytes);
    heldBytes = 0;
  };
  try {
    for await (const batch of input) {
      if (batch.length === 0) continue;
      batches.push(batch);
      const bytes = batchBytes(batch);
      heldBytes += bytes;
      task.reserve(bytes);
    }
  } catch (err) {
    release();
    throw err;
  }
  return { ...buildSide(batches, output), release };
}

function buildSide(batches: readonly Batch[], output: readonly OutputColumn[]): BuildSide {
  const nullRow: Batch = { length: 1, columns: output.map((column) => constantVector(column.type, null, 1)) };
  if (batches.length === 0) {
    const empty: Batch = { length: 0, columns: output.map((column) => constantVector(column.type, null, 0)) };
    return { rowCount: 0, batch: empty, withNullRow: nullRow };
  }
  const batch = concatBatches(batches, output.length);
  return { rowCount: batch.length, batch, withNullRow: concatBatches([batch, nullRow], output.length) };
}

/** Growable pair list of (left row, right row). */
export class RowPairs {
  leftIds = new Int32Array(BATCH_SIZE);
  rightIds = new Int32Array(BATCH_SIZE);
  count = 0;

  push(leftId: number, rightId: number): void {
    if (this.count === this.leftIds.length) {
      const leftIds = new Int32Array(this.count * 2);
      leftIds.set(this.leftIds);
      this.leftIds = leftIds;
      const rightIds = new Int32Array(this.count * 2);
      rightIds.set(this.rightIds);
      this.rightIds = rightIds;
    }
    this.leftIds[this.count] = leftId;
    this.rightIds[this.count] = rightId;
    this.count++;
  }

  clear(): void {
    this.count = 0;
  }
}

export function pairBatch(left: Batch, leftIds: Int32Array, right: Batch, rightIds: Int32Array, count: number): Batch {
  return {
    length: count,
    columns: [...left.columns.map((vec) => takeRows(vec, leftIds, count)), ...right.columns.map((vec) => takeRows(vec, rightIds, count))],
  };
}

/**
 * Joined rows of `pairs` that pass `condition` (all when null), as batches of at most BATCH_SIZE rows.
 * `matched[probeRow]` is set for every probe row (left side in `pairs`, or right when probeIsRight) kept.
 */
export function* emitPairs(
  left: Batch,
  right: Batch,
  pairs: RowPairs,
  condition: CompiledExpr | null,
  rt: OperatorRuntime,
  matched: Uint8Array | null,
  probeIsRight = false,
): Iterable<Batch> {
  for (let start = 0; start < pairs.count; start += BATCH_SIZE) {
    const end = Math.min(pairs.count, start + BATCH_SIZE);
    const leftIds = pairs.leftIds.subarray(start, end);
    const rightIds = pairs.rightIds.subarray(start, end);
    let batch = pairBatch(left, leftIds, right, rightIds, end - start);
    if (condition !== null) {
      const { rowIds, count } = selectTrue(condition(batch, rt.ctx));
      if (matched !== null) {
        const probeIds = probeIsRight ? rightIds : leftIds;
        for (let pos = 0; pos < count; pos++) matched[probeIds[rowIds[pos]]] = 1;
      }
      if (count === 0) continue;
      if (count < batch.length) batch = selectRows(batch, rowIds, count);
    } else if (matched !== null) {
      const probeIds = probeIsRight ? rightIds : leftIds;
      for (let pos = 0; pos < probeIds.length; pos++) matched[probeIds[pos]] = 1;
    }
    yield batch;
  }
}
