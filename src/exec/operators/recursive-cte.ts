/**
 * WITH RECURSIVE at run time: RecursiveCte yields the anchor's rows, then runs its recursive part again and
 * again, each run reading (through WorkTableScan) the rows the previous round added, until a round adds
 * none. With UNION (distinct) a row already produced is dropped before it can feed a round, which is what
 * makes a walk over a cyclic graph end. Rounds past cte_max_recursion_depth fail with MySQL's error; the
 * rows a round hands to the next count against exec_mem_limit.
 */
import { batchBytes, takeRows, type Batch } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { RecursiveCteNode, WorkTableScanNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { createGroupKeyTable, type GroupKeyTable } from './group-key-table';

/** The rows of `batch` not seen before (by `seen`), or the batch itself when every row is new. */
function unseenRows(seen: GroupKeyTable, batch: Batch, groupIds: Int32Array): Batch {
  const before = seen.groupCount;
  seen.assign(batch.columns, batch.length, groupIds);
  // Group ids are dense and handed out in row order, so a row is new exactly when it takes the next new id.
  let nextNew = before;
  const keep = new Int32Array(batch.length);
  let kept = 0;
  for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
    if (groupIds[rowIdx] === nextNew) {
      keep[kept++] = rowIdx;
      nextNew++;
    }
  }
  if (kept === batch.length) return batch;
  const rows = keep.subarray(0, kept);
  return { length: kept, columns: batch.columns.map((column) => takeRows(column, rows)) };
}

export async function* openRecursiveCte(node: RecursiveCteNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const seen = node.distinct ? createGroupKeyTable(node.output.map((column) => column.type)) : null;
  let groupIds = new Int32Array(0);
  const fresh = (batch: Batch): Batch => {
    if (seen === null) return batch;
    if (groupIds.length < batch.length) groupIds = new Int32Array(batch.length);
    return unseenRows(seen, batch, groupIds);
  };
  // The previous round's rows are held for the next one: counted against the statement's exec_mem_limit.
  let added: Batch[] = [];
  let addedBytes = 0;
  let nextBytes = 0;
  const keep = (rows: Batch, into: Batch[]): void => {
    const bytes = batchBytes(rows);
    rt.ctx.task.reserve(bytes);
    nextBytes += bytes;
    into.push(rows);
  };
  try {
    for await (const batch of inputs[0]) {
      const rows = fresh(batch);
      if (rows.length === 0) continue;
      keep(rows, added);
      yield rows;
    }
    for (let round = 1; added.length > 0; round++) {
      [addedBytes, nextBytes] = [addedBytes + nextBytes, 0];
      if (round > node.maxRounds) throw new GaleneError('CTE_MAX_RECURSION_DEPTH', [round]);
      rt.workTables.set(node.workTableId, added);
      const next: Batch[] = [];
      for await (const batch of rt.openSubtree(node.children[1])) {
        const rows = fresh(batch);
        if (rows.length === 0) continue;
        keep(rows, next);
        yield rows;
      }
      rt.ctx.task.release(addedBytes);
      addedBytes = 0;
      added = next;
    }
  } finally {
    rt.workTables.delete(node.workTableId);
    rt.ctx.task.release(addedBytes + nextBytes);
  }
}

export async function* openWorkTableScan(node: WorkTableScanNode, _inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const rows = rt.workTables.get(node.workTableId);
  if (rows === undefined) throw new GaleneError('INTERNAL', [`work table of CTE ${node.name} read before its producer ran`]);
  yield* rows;
}

export function explainRecursiveCte(node: RecursiveCteNode): string[] {
  return [`cte: ${node.name}`, `union: ${node.distinct ? 'DISTINCT' : 'ALL'}`, `work table: ${node.workTableId}`, `max rounds: ${node.maxRounds}`];
}

export function explainWorkTableScan(node: WorkTableScanNode): string[] {
  return [`cte: ${node.name}`, `work table: ${node.workTableId}`];
}
