/**
 * The CREATE TABLE / ALTER TABLE ... SET PROPERTIES keys Galene accepts, one registry entry each: those it
 * honours, and Doris's keys it accepts for compatibility without acting on them. Nothing is silently
 * ignored: a key Galene does not act on answers a Note (SHOW WARNINGS) unless its value asks for what
 * Galene does anyway (the entry's `inert` values, e.g. replication_num = 1: Galene keeps one copy of the
 * data, in the object store). A key that is in no Doris version is error 1105 "Unknown table property"
 * (Doris's PropertyAnalyzer), and a few keys are refused with their reason.
 */
import { GaleneError } from '../../common/errors';
import type { ColumnSchema, KeysType, TableSchema } from '../../meta/schema';
import { tableCompression } from '../../load/table-writer';
import { binlogPropertyError } from '../../meta/row-binlog';
import { rowStoreSpec } from '../../storage/row-store';
import type { SessionWarning } from './statement-session';
import { note } from './result-rows';

export interface TablePropertyDef {
  /** The key, or a prefix ending in '.' (dynamic_partition.enable, binlog.ttl_seconds ...). */
  readonly name: string;
  /** Galene acts on the value (the walker test shows each effect). */
  readonly honoured: boolean;
  /** Values (lower case) of a key Galene does not act on that ask for what Galene does anyway: no Note. */
  readonly inert?: readonly string[];
  /** What the key does in Doris, and what Galene does with it. */
  readonly description: string;
}

const honoured = (name: string, description: string): TablePropertyDef => ({ name, honoured: true, description });
const accepted = (name: string, inert: readonly string[], description: string): TablePropertyDef => ({ name, honoured: false, inert, description });

export const TABLE_PROPERTIES: readonly TablePropertyDef[] = [
  honoured('compression', 'Page codec of the segment files: LZ4 (default), LZ4F, ZSTD, SNAPPY, ZLIB, NONE.'),
  honoured('enable_unique_key_merge_on_write', 'UNIQUE KEY model: merge-on-write (true, the default) or merge-on-read (false).'),
  honoured('function_column.sequence_col', 'UNIQUE KEY sequence column: a row replaces an older one only when its sequence value is not smaller.'),
  honoured('group_commit_mode', 'Group Commit mode of loads into the table that set none: off_mode, sync_mode, async_mode.'),
  honoured('group_commit_interval_ms', 'A Group Commit batch commits this many milliseconds after it opened.'),
  honoured('group_commit_data_bytes', 'A Group Commit batch commits when it holds this many bytes.'),
  honoured('disable_auto_compaction', 'true: background compaction leaves the table alone.'),
  honoured('light_schema_change', 'false: Group Commit loads are refused for the table, as in Doris (schema changes are always light in Galene).'),
  honoured('storage_vault_name', 'The storage vault (CREATE STORAGE VAULT) the table\'s data lives in; default: the default vault, else the local directory. Fixed at CREATE TABLE.'),
  honoured('storage_vault_id', 'The table\'s storage vault by id, as SHOW CREATE TABLE prints it (Galene sets it from storage_vault_name).'),
  honoured('file_cache_ttl_seconds', 'Seconds after a load during which the file cache keeps its blocks in the TTL queue (never evicted by other queries before they expire); 0: none. Tables in S3 vaults (the local directory is read in place).'),
  honoured('function_column.sequence_type', 'Refused: a hidden sequence column is not supported (use function_column.sequence_col).'),
  accepted('replication_num', ['1'], 'Replicas per tablet. Galene keeps one copy, in the object store.'),
  accepted('replication_allocation', ['tag.location.default: 1', 'tag.location.default:1'], 'Replicas per resource tag. Galene keeps one copy, in the object store.'),
  accepted('min_load_replica_num', ['-1', '1'], 'Replicas a load must write. Galene writes one copy.'),
  accepted('storage_format', ['v2', 'default'], 'Segment format version; Galene has one format.'),
  accepted('storage_medium', ['hdd'], 'HDD or SSD placement of tablets; Galene stores data in its object store.'),
  accepted('storage_policy', [], 'Cooldown of cold data to remote storage; not supported.'),
  accepted('bloom_filter_columns', [''], 'Bloom filter indexes; Galene builds none (zone maps and the short-key index prune instead).'),
  accepted('bloom_filter_fpp', [], 'False-positive rate of bloom filter indexes; Galene builds none.'),
  accepted('in_memory', ['false'], 'Deprecated in Doris; no effect there either.'),
  accepted('colocate_with', [], 'Colocation group: Doris places the same buckets of the group\'s tables on the same BEs so joins on the bucket key need no shuffle; Galene runs every tablet on one node.'),
  accepted('is_being_synced', ['false'], 'Set by CCR sync jobs; Galene has none.'),
  accepted('enable_single_replica_compaction', ['false'], 'Compact one replica and copy it; Galene has one copy.'),
  honoured('store_row_column', 'true: each segment also stores every row whole in one hidden column, so a point lookup reads one page instead of one per column.'),
  honoured('row_store_columns', 'Comma-separated columns the row store keeps (setting it turns the row store on); default: all columns.'),
  honoured('row_store_page_size', 'Bytes per page of the row-store column (default 16384).'),
  accepted('compaction_policy', ['size_based'], 'size_based or time_series compaction; Galene compacts by size.'),
  accepted('time_series_compaction_goal_size_mbytes', ['1024'], 'time_series compaction only.'),
  accepted('time_series_compaction_file_count_threshold', ['2000'], 'time_series compaction only.'),
  accepted('time_series_compaction_time_threshold_seconds', ['3600'], 'time_series compaction only.'),
  accepted('time_series_compaction_empty_rowsets_threshold', ['5'], 'time_series compaction only.'),
  accepted('time_series_compaction_level_threshold', ['1'], 'time_series compaction only.'),
  accepted('estimate_partition_size', [], 'Sizing hint of BUCKETS AUTO; Galene uses default_bucket_num.'),
  accepted('skip_write_index_on_load', ['false'], 'Build inverted indexes at compaction only.'),
  accepted('enable_mow_light_delete', ['false'], 'DELETE on merge-on-write tables as a delete predicate.'),
  accepted('enable_duplicate_without_keys_by_default', ['false'], 'DUPLICATE tables without sort keys; Galene picks the leading columns.'),
  accepted('inverted_index_storage_format', ['default', 'v2'], 'File format of inverted indexes; Galene has one.'),
  accepted('variant_enable_flatten_nested', ['false'], 'VARIANT columns; not supported.'),
  honoured('dynamic_partition.enable', 'true (the default once any dynamic_partition key is set): the dynamic partition scheduler keeps the RANGE partitions from start to end time units around now (docs/partitions.md).'),
  honoured('dynamic_partition.time_unit', 'HOUR, DAY, WEEK, MONTH or YEAR: the span of each dynamic partition (required).'),
  honoured('dynamic_partition.start', 'Negative offset in time units: older partitions are dropped (default: none dropped).'),
  honoured('dynamic_partition.end', 'Positive offset in time units: partitions up to it are created ahead (required).'),
  honoured('dynamic_partition.prefix', 'Name prefix of the dynamic partitions (default p).'),
  honoured('dynamic_partition.buckets', 'Buckets of each dynamic partition (default: the table\'s).'),
  honoured('dynamic_partition.create_history_partition', 'true: also create the partitions from start to now (default false: from now).'),
  accepted('dynamic_partition.', [], 'Other dynamic partition settings (time_zone, start_day_of_week, start_day_of_month, history_partition_num, hot_partition_num, reserved_history_periods, replication_num): Galene uses the server time zone, ISO weeks and months from the 1st.'),
  honoured('binlog.enable', 'true (with binlog.format ROW, the default): every load also writes its rows, with operation, version and sequence, to a change-log rowset per tablet, read with binlog() (docs/row-binlog.md).'),
  honoured('binlog.format', 'Format of the binlog: ROW (the default; the only one Galene writes).'),
  honoured('binlog.ttl_seconds', 'Change-log rowsets older than this many seconds are dropped when their tablet is compacted (default 86400).'),
  honoured('binlog.max_history_nums', 'Change-log rowsets a tablet keeps at most; older ones are dropped when it is compacted (default: no limit).'),
  honoured('binlog.need_historical_value', 'false only: the row binlog logs each row as written, without the before-image of the row it replaces.'),
  accepted('binlog.max_bytes', [], 'Bytes of binlog a table keeps at most; Galene keeps by binlog.ttl_seconds and binlog.max_history_nums.'),
];

const BY_NAME = new Map(TABLE_PROPERTIES.filter((def) => !def.name.endsWith('.')).map((def) => [def.name, def]));
const PREFIXES = TABLE_PROPERTIES.filter((def) => def.name.endsWith('.'));

/** The registry entry of a key; throws UNKNOWN_PROPERTY for a key no Doris version has. */
export function findTableProperty(key: string): TablePropertyDef {
  const def = BY_NAME.get(key) ?? PREFIXES.find((prefix) => key.startsWith(prefix.name));
  if (!def) throw new GaleneError('UNKNOWN_PROPERTY', [key]);
  return def;
}

const bad = (message: string): GaleneError => new GaleneError('INVALID_TABLE_DEFINITION', [message]);

/** Check every key and value (Doris's messages); `forSchema` for the checks that need the columns. */
export function validateTableProperties(properties: Readonly<Record<string, string>>, forSchema?: { keysType: KeysType; columns: readonly ColumnSchema[] }): void {
  for (const [key, value] of Object.entries(properties)) {
    findTableProperty(key);
    if ((key === 'replication_num' || key === 'file_cache_ttl_seconds' || key === 'group_commit_interval_ms' || key === 'group_commit_data_bytes') && !/^\d+$/.test(value.trim())) {
      throw new GaleneError('INVALID_PROPERTY', [key, value]);
    }
    if (key === 'group_commit_mode' && !['off_mode', 'sync_mode', 'async_mode'].includes(value.toLowerCase())) {
      throw new GaleneError('INVALID_PROPERTY', [key, `${value} (group_commit can only be [async_mode, sync_mode, off_mode])`]);
    }
    if ((key === 'enable_unique_key_merge_on_write' || key === 'disable_auto_compaction' || key === 'light_schema_change') && !['true', 'false'].includes(value.toLowerCase())) throw new GaleneError('INVALID_PROPERTY', [key, `${value} (expected true or false)`]);
    const binlogError = key.startsWith('binlog.') ? binlogPropertyError(key, value) : null;
    if (binlogError !== null) throw new GaleneError('INVALID_TABLE_DEFINITION', [binlogError]);
    if (key === 'function_column.sequence_type') throw new GaleneError('UNSUPPORTED', ['function_column.sequence_type (a hidden sequence column); use function_column.sequence_col']);
    if (key === 'function_column.sequence_col' && forSchema) {
      if (forSchema.keysType !== 'UNIQUE') throw bad('sequence column only support UNIQUE_KEYS');
      if (!forSchema.columns.some((column) => column.name.toLowerCase() === value.toLowerCase())) throw bad(`The sequence_col[${value}] does not exist`);
    }
  }
  tableCompression({ properties } as TableSchema);
  if (properties['store_row_column'] !== undefined && !['true', 'false'].includes(properties['store_row_column'].toLowerCase())) throw new GaleneError('INVALID_PROPERTY', ['store_row_column', `${properties['store_row_column']} (expected true or false)`]);
  if (forSchema) rowStoreSpec({ properties, columns: forSchema.columns });
}

/** The Notes for the keys in `properties` Galene does not act on (validated already). */
export function tablePropertyNotes(properties: Readonly<Record<string, string>>): SessionWarning[] {
  const notes: SessionWarning[] = [];
  for (const [key, value] of Object.entries(properties)) {
    const def = findTableProperty(key);
    if (def.honoured || (def.inert ?? []).includes(value.trim().toLowerCase())) continue;
    notes.push(note(`Table property '${key}' is accepted for Doris compatibility; it changes nothing in Galene (${def.description})`));
  }
  return notes;
}
