/**
 * Materialize (EXPLAIN: MATERIALIZE): phase two of a lazily materialized TopN (plan/lazy-materialization.ts).
 * Its input is the TopN's final rows — sort keys, the columns phase one had to read, and each row's global
 * row id. It takes them all (at most topn_lazy_materialization_threshold rows), asks the table source for
 * the deferred columns of just those rows (TableSource.fetchRows: grouped by segment, only the pages that
 * hold them) and emits the input columns followed by the fetched ones, in the TopN's order.
 */
import { BATCH_SIZE, type Batch } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { MaterializeNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { sliceBatch } from './limit';
import { concatBatches } from './sort-permutation';

export async function* openMaterialize(node: MaterializeNode, inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  const batches: Batch[] = [];
  for await (const batch of inputs[0]) if (batch.length > 0) batches.push(batch);
  if (batches.length === 0) return;
  const input = concatBatches(batches, node.children[0].output.length);
  const source = rt.ctx.openTable(node.table);
  if (source.fetchRows === undefined) throw new GaleneError('INTERNAL', [`${node.table.name} cannot fetch rows by global row id`]);
  const rowIdVector = input.columns[node.rowIdColumn];
  if (rowIdVector.kind !== 'fixed' || !(rowIdVector.values instanceof BigInt64Array)) throw new GaleneError('INTERNAL', ['the global row id column is not BIGINT']);
  const fetched = await source.fetchRows({ columns: node.columns, rowIds: rowIdVector.values.subarray(0, input.length), profile: rt.ctx.profile });
  const all: Batch = { length: input.length, columns: [...input.columns, ...fetched] };
  for (let start = 0; start < all.length; start += BATCH_SIZE) yield sliceBatch(all, start, Math.min(all.length, start + BATCH_SIZE));
}

export function explainMaterialize(node: MaterializeNode): string[] {
  return [
    `table: ${node.table.databaseName}.${node.table.name}${node.alias.toLowerCase() !== node.table.name.toLowerCase() ? ` AS ${node.alias}` : ''}`,
    `lazy materialization: [${node.columns.join(', ')}]`,
    `row id: ${node.children[0].output[node.rowIdColumn].name}`,
  ];
}
