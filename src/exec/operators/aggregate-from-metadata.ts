/**
 * A HashAggregate without GROUP BY or filter whose aggregates are all COUNT(*) / COUNT(col) / MIN(col) /
 * MAX(col) over a plain TableScan (no predicates, LIMIT or index search; directly or through a ScanFragment
 * that only aggregates) asks the table source for the answers from metadata (TableSource.metadataAggregates)
 * before scanning: Doris answers `SELECT COUNT(*) FROM t` from tablet row counts the same way. The source
 * says null when its metadata is not exact, and the aggregate then scans as usual.
 */
import { type Batch, vectorFromRaw } from '../../common/column';
import type { MetadataAggregateCall } from '../context';
import type { HashAggregateNode, PhysicalNode, TableScanNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';

/** The plain scan under the aggregate, or null when the aggregate reads something else. */
function plainScan(node: HashAggregateNode): TableScanNode | null {
  let input: PhysicalNode = node.children[0];
  if (input.kind === 'ScanFragment') {
    const fragment = input;
    if (fragment.filter !== null || (fragment.virtualColumns?.length ?? 0) > 0 || fragment.aggregate === null || fragment.aggregate.groupKeys.length > 0) return null;
    input = fragment.children[0];
  } else if (node.mode === 'final') {
    return null;
  }
  if (input.kind !== 'TableScan') return null;
  const scan = input;
  const plain = scan.predicates.length === 0 && scan.limit === null && scan.ann === undefined && scan.inverted === undefined && scan.score === undefined && scan.globalRowId !== true;
  return plain ? scan : null;
}

/** The metadata calls for the aggregates, or null when one is not COUNT / MIN / MAX of a scanned column. */
function metadataCalls(node: HashAggregateNode, scan: TableScanNode): MetadataAggregateCall[] | null {
  const calls: MetadataAggregateCall[] = [];
  for (const agg of node.aggregates) {
    if (agg.distinct || (agg.order?.length ?? 0) > 0) return null;
    const fn = agg.name.toLowerCase();
    if (fn === 'count' && agg.args.length === 0) {
      calls.push({ fn: 'count', column: null });
      continue;
    }
    if ((fn !== 'count' && fn !== 'min' && fn !== 'max') || agg.args.length !== 1) return null;
    const arg = agg.args[0];
    if (arg.kind !== 'column' || arg.index >= scan.columns.length) return null;
    // MIN / MAX return the column's own type; anything else (an implicit cast) is computed by scanning.
    if (fn !== 'count' && arg.type.name !== agg.type.name) return null;
    calls.push({ fn, column: scan.columns[arg.index] });
  }
  return calls;
}

/** The aggregate's one output row from metadata, or null: scan. */
export async function aggregateFromMetadata(node: HashAggregateNode, rt: OperatorRuntime): Promise<Batch | null> {
  if (node.groupKeys.length > 0 || node.filter !== undefined || node.aggregates.length === 0) return null;
  const scan = plainScan(node);
  const calls = scan === null ? null : metadataCalls(node, scan);
  // information_schema's sources build their rows when opened, and have no metadata to answer from.
  if (scan === null || calls === null || scan.table.databaseName.toLowerCase() === 'information_schema') return null;
  const source = rt.ctx.openTable(scan.table);
  if (source.metadataAggregates === undefined) return null;
  const values = await source.metadataAggregates(calls, rt.ctx.profile);
  if (values === null) return null;
  return { length: 1, columns: node.aggregates.map((agg, aggIdx) => vectorFromRaw(agg.type, [typeof values[aggIdx] === 'number' && agg.type.name === 'BIGINT' ? BigInt(values[aggIdx] as number) : values[aggIdx]])) };
}
