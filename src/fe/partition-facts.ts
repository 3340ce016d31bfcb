/**
 * A table's partitions as SHOW PARTITIONS, SHOW PROC '/dbs/<db>/<table>/partitions' and
 * information_schema.partitions list them: an unpartitioned table has one partition named after the
 * table (as in Doris); a partitioned table's come from its PartitionInfo, each with its tablets' rows,
 * bytes and newest version.
 */
import type { TableState } from '../meta/catalog';
import { partitionInfoOf, type PartitionRecord } from '../meta/schema';
import { partitionColumnTypes, partitionDisplayOrder } from '../storage/partitions';
import { listText, rangeText } from './statements/partition-ddl';

export interface PartitionFacts {
  readonly id: number;
  readonly name: string;
  /** null: the one partition of an unpartitioned table. */
  readonly record: PartitionRecord | null;
  readonly buckets: number;
  readonly rows: number;
  readonly bytes: number;
  readonly visibleVersion: number;
  /** When a load last changed it (ms), else the table's creation. */
  readonly updateTime: number;
  /** SHOW PARTITIONS' Range: `[types: [INT]; keys: [..]; ..types: ...)` or a LIST's keys; '' unpartitioned. */
  readonly range: string;
}

export function tablePartitions(table: TableState): PartitionFacts[] {
  const schema = table.schema;
  const info = partitionInfoOf(schema);
  const tally = (tabletIds: ReadonlySet<number> | null) => {
    let rows = 0;
    let bytes = 0;
    let version = 1;
    let updateTime = schema.createTime;
    for (const rowset of table.rowsets) {
      if (tabletIds !== null && !tabletIds.has(rowset.tabletId)) continue;
      rows += rowset.numRows;
      bytes += rowset.dataSize;
      version = Math.max(version, rowset.version);
      updateTime = Math.max(updateTime, rowset.createTime);
    }
    return { rows, bytes, visibleVersion: tabletIds === null ? table.visibleVersion : version, updateTime };
  };
  if (info === null) return [{ id: schema.id, name: schema.name, record: null, buckets: table.tablets.length, range: '', ...tally(null) }];
  const types = partitionColumnTypes(schema, info);
  return partitionDisplayOrder(schema, info).map((idx) => {
    const partition = info.partitions[idx];
    const tabletIds = new Set(table.tablets.filter((tablet) => tablet.partitionId === partition.id).map((tablet) => tablet.id));
    return { id: partition.id, name: partition.name, record: partition, buckets: partition.buckets, range: info.type === 'RANGE' ? rangeText(types, partition) : listText(types, partition), ...tally(tabletIds) };
  });
}
