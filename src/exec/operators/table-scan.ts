/**
 * TableScan: reads a table through its TableSource with the columns, pruning predicates and row limit the
 * optimizer pushed down. The predicates only let storage skip data; a Filter above re-checks every row.
 * Counts RowsRead in the query profile.
 */
import { prunedBuckets } from '../../storage/bucket-pruning';
import type { Batch } from '../../common/column';
import { formatValue } from '../../common/convert';
import type { TableSchema } from '../../meta/schema';
import type { ScanPredicate } from '../../common/scan-predicate';
import { findColumn, partitionInfoOf, type PartitionInfo } from '../../meta/schema';
import { prunedPartitions } from '../../storage/partitions';
import type { TableScanNode } from '../plan/physical-plan';
import type { OperatorRuntime } from '../plan/operator-runtime';
import { explainAnnScan, openAnnScan } from './ann-scan';
import { explainInvertedScan, invertedField } from './inverted-scan';
import { explainScoreScan, openScoreScan } from './score-scan';
import { filterBatch, runtimeFilterName, runtimeFilterPredicates, type RuntimeFilterValue } from '../runtime-filter';

export async function* openTableScan(node: TableScanNode, _inputs: readonly AsyncIterable<Batch>[], rt: OperatorRuntime): AsyncIterable<Batch> {
  if (node.ann !== undefined) {
    yield* openAnnScan({ ...node, ann: node.ann }, rt);
    return;
  }
  if (node.score !== undefined) {
    yield* openScoreScan({ ...node, score: node.score }, rt);
    return;
  }
  const source = rt.ctx.openTable(node.table);
  const profile = rt.ctx.profile;
  const filters = runtimeFiltersOf(node, rt);
  const filterColumns = filters.map((filter) => node.columns.indexOf(filter.column));
  const predicates = withRuntimeFilterPredicates(node.predicates, filters);
  const tally = { tested: 0, dropped: 0 };
  for await (const batch of source.scan({ columns: node.columns, predicates, limit: node.limit, profile, ...globalRowIdField(node), ...invertedField(node, rt) })) {
    profile.add('RowsRead', batch.length);
    const kept = filterBatch(batch, filters, filterColumns, node.id, profile, tally);
    if (kept.length > 0) yield kept;
  }
}

/**
 * The runtime filters of this scan that the joins above built in this run (exec/runtime-filter.ts), in
 * plan order. A filter whose join has not built it (none should: the join pulls its probe side only after
 * its build) is skipped: filters only ever drop rows that cannot match.
 */
export function runtimeFiltersOf(node: TableScanNode, rt: OperatorRuntime): RuntimeFilterValue[] {
  const out: RuntimeFilterValue[] = [];
  for (const target of node.runtimeFilters ?? []) {
    const value = rt.runtimeFilters.get(target.id);
    if (value !== undefined && node.columns.includes(value.column)) out.push(value);
  }
  return out;
}

/** The scan's pushed predicates and the filters' min/max (and short IN) predicates, which zone maps prune by. */
export function withRuntimeFilterPredicates(predicates: readonly ScanPredicate[], filters: readonly RuntimeFilterValue[]): readonly ScanPredicate[] {
  if (filters.length === 0) return predicates;
  // An in_or_bloom and a min_max filter on one key give the same bounds: push each bound once.
  const seen = new Set<string>();
  const added = filters.flatMap(runtimeFilterPredicates).filter((pred) => {
    if (!('value' in pred)) return true;
    const key = `${pred.column}\0${pred.op}\0${typeof pred.value}\0${String(pred.value)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...predicates, ...added];
}

/** `{ globalRowId: true }` for a scan that returns global row ids (a lazily materialized TopN's phase one). */
export function globalRowIdField(node: TableScanNode): { globalRowId?: true } {
  return node.globalRowId === true ? { globalRowId: true } : {};
}

/**
 * Whether the scan's pushed predicates look up the leading key column (`=` or IN): the short-key index
 * then prunes it to a few rows, which a worker round trip would only slow down.
 */
export function leadingKeyLookup(node: TableScanNode): boolean {
  const leading = node.table.keyColumns[0]?.toLowerCase();
  return node.predicates.some((pred) => (pred.op === '=' || pred.op === 'in') && pred.column.toLowerCase() === leading);
}

/** Text of one pushed predicate, e.g. `k >= 10`, `s IN ('a', 'b')`, `v IS NULL`. */
export function scanPredicateToString(table: TableSchema, pred: ScanPredicate): string {
  const column = findColumn(table, pred.column);
  const show = (value: (typeof pred & { op: '=' })['value']): string => {
    if (value === null) return 'NULL';
    const text = column ? formatValue(column.type, value) : String(value);
    return typeof value === 'string' || column?.type.name === 'DATE' || column?.type.name === 'DATETIME' ? `'${text}'` : String(text);
  };
  switch (pred.op) {
    case 'isnull':
      return `${pred.column} IS NULL`;
    case 'isnotnull':
      return `${pred.column} IS NOT NULL`;
    case 'in':
      return `${pred.column} IN (${pred.values.map(show).join(', ')})`;
    default:
      return `${pred.column} ${pred.op} ${show(pred.value)}`;
  }
}

export function explainTableScan(node: TableScanNode): string[] {
  const lines = [`table: ${node.table.databaseName}.${node.table.name}${node.alias.toLowerCase() !== node.table.name.toLowerCase() ? ` AS ${node.alias}` : ''}`];
  lines.push(`columns: [${node.columns.join(', ')}]`);
  if (node.predicates.length > 0) lines.push(`pushed predicates: ${node.predicates.map((pred) => scanPredicateToString(node.table, pred)).join(' AND ')}`);
  const info = partitionInfoOf(node.table);
  if (info !== null) {
    lines.push(...explainPartitions(node.table, info, node.predicates));
  } else {
    const bucketCount = (node.table.distribution as TableSchema['distribution'] | undefined)?.buckets ?? 1;
    const buckets = prunedBuckets(node.table, bucketCount, node.predicates);
    if (buckets !== null && buckets.length < bucketCount) lines.push(`tablets=${buckets.length}/${bucketCount}`); // Doris's OlapScanNode line
  }
  if (node.inverted !== undefined) lines.push(...explainInvertedScan(node.inverted));
  if (node.score !== undefined) lines.push(...explainScoreScan(node.score));
  if (node.limit !== null) lines.push(`limit: ${node.limit}`);
  if (node.globalRowId === true) lines.push(`global row id: ${node.output[node.output.length - 1].name}`);
  if (node.ann !== undefined) lines.push(...explainAnnScan({ ...node, ann: node.ann }));
  const filters = node.runtimeFilters ?? [];
  if (filters.length > 0) lines.push(`runtime filters: ${filters.map((rf) => `${runtimeFilterName(rf.id)}[${rf.type}] -> ${rf.column}`).join(', ')}`);
  return lines;
}

/**
 * Doris's OlapScanNode lines for a partitioned table: `partitions=k/n (p1,p2)` (the partitions pruning
 * keeps), then `tablets=k/n` over the kept partitions' tablets when bucket pruning drops some.
 */
function explainPartitions(table: TableSchema, info: PartitionInfo, predicates: readonly ScanPredicate[]): string[] {
  const kept = prunedPartitions(table, predicates) ?? info.partitions.map((_, idx) => idx);
  const lines = [`partitions=${kept.length}/${info.partitions.length} (${kept.map((idx) => info.partitions[idx].name).join(',')})`];
  let tablets = 0;
  let total = 0;
  for (const idx of kept) {
    const bucketCount = info.partitions[idx].buckets;
    total += bucketCount;
    tablets += prunedBuckets(table, bucketCount, predicates)?.length ?? bucketCount;
  }
  if (tablets < total) lines.push(`tablets=${tablets}/${total}`);
  return lines;
}
