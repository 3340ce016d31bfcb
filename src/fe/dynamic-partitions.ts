/**
 * Dynamic partitions (Doris's DynamicPartitionScheduler): a RANGE-partitioned table on one DATE /
 * DATETIME column with `dynamic_partition.enable` = true keeps partitions for the time units from `start`
 * (negative; older ones are dropped) to `end` (ahead of now), created when the table is created or the
 * properties change, and then every `dynamic_partition_check_interval_seconds` (FE setting, Doris's name
 * and default 600; `dynamic_partition_enable` = false stops the scheduler).
 *
 * Partition names are `prefix` + the unit's lower bound: yyyyMMddHH (HOUR), yyyyMMdd (DAY), yyyy_ww
 * (WEEK, ISO week), yyyyMM (MONTH), yyyy (YEAR), each [lower, lower + 1 unit), in the server's time zone.
 */
import { daysFromCivil, formatDatetime, MICROS_PER_DAY } from '../common/datetime';
import { formatValue } from '../common/convert';
import { GaleneError } from '../common/errors';
import type { Config } from '../common/config';
import type { Catalog, TableState } from '../meta/catalog';
import { partitionInfoOf, type PartitionRecord, type TableSchema } from '../meta/schema';
import { addTimeUnits, truncTime } from '../common/datetime';
import { compareKeys, parseBoundValue, partitionColumnTypes, type KeyValue } from '../storage/partitions';

const bad = (message: string): GaleneError => new GaleneError('INVALID_TABLE_DEFINITION', [message]);

const TIME_UNITS = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
/** Doris's default `dynamic_partition.start`: no partition is ever dropped. */
const NO_START = -2147483648;
/** The keys Galene acts on; the other dynamic_partition.* keys are accepted with a Note (table-properties.ts). */
const DYNAMIC_KEYS = ['enable', 'time_unit', 'start', 'end', 'prefix', 'buckets', 'create_history_partition'].map((key) => `dynamic_partition.${key}`);

export interface DynamicPartitionSpec {
  readonly enable: boolean;
  readonly timeUnit: (typeof TIME_UNITS)[number];
  readonly start: number;
  readonly end: number;
  readonly prefix: string;
  readonly buckets: number;
  readonly createHistoryPartition: boolean;
}

const intProperty = (properties: Readonly<Record<string, string>>, key: string, fallback: number, what: string): number => {
  const text = properties[key];
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text.trim())) throw bad(`Invalid properties: ${key}. ${what} must be an integer: ${text}`);
  return Number(text.trim());
};

const boolProperty = (properties: Readonly<Record<string, string>>, key: string, fallback: boolean): boolean => {
  const text = properties[key];
  if (text === undefined) return fallback;
  const lower = text.trim().toLowerCase();
  if (lower !== 'true' && lower !== 'false') throw bad(`Invalid ${key} value: ${text}. It should be true or false`);
  return lower === 'true';
};

/**
 * The table's dynamic partition settings, checked with Doris's messages (DynamicPartitionUtil); null when
 * it sets none. Called on CREATE TABLE and ALTER TABLE ... SET, so a bad value changes nothing.
 */
export function dynamicPartitionSpec(schema: TableSchema): DynamicPartitionSpec | null {
  const properties = schema.properties;
  if (!DYNAMIC_KEYS.some((key) => properties[key] !== undefined)) return null;
  const info = partitionInfoOf(schema);
  if (info === null || info.type !== 'RANGE') throw bad('Only support dynamic partition properties on range partition table');
  if (info.columns.length !== 1) throw bad('Dynamic partition only support single-column range partition');
  if (info.auto !== null) throw bad('Can not use dynamic partition with auto partition');
  const type = partitionColumnTypes(schema, info)[0];
  if (type.name !== 'DATE' && type.name !== 'DATETIME' && !['INT', 'BIGINT'].includes(type.name)) throw bad(`Dynamic partition only support DATE, DATETIME and INT/BIGINT (yyyyMMdd) partition column: ${type.name}`);
  if (type.name !== 'DATE' && type.name !== 'DATETIME') throw new GaleneError('UNSUPPORTED', ['dynamic partitions on an integer partition column']);
  const unitText = properties['dynamic_partition.time_unit'];
  if (unitText === undefined) throw bad('Must assign dynamic_partition.time_unit properties');
  const timeUnit = unitText.trim().toUpperCase() as DynamicPartitionSpec['timeUnit'];
  if (!TIME_UNITS.includes(timeUnit)) throw bad(`Unsupported time unit ${unitText}. Expect HOUR/DAY/WEEK/MONTH/YEAR.`);
  if (timeUnit === 'HOUR' && type.name === 'DATE') throw bad('Date type partition does not support dynamic partitioning granularity of hour');
  if (properties['dynamic_partition.end'] === undefined) throw bad('Must assign dynamic_partition.end properties');
  const start = intProperty(properties, 'dynamic_partition.start', NO_START, 'Dynamic partition start');
  const end = intProperty(properties, 'dynamic_partition.end', 0, 'Dynamic partition end');
  if (start >= 0) throw bad('Dynamic partition start must less than 0');
  if (end <= 0) throw bad('Dynamic partition end must greater than 0');
  if (end > 500) throw bad(`Too many dynamic partitions: ${end}. Limit: 500`);
  const prefix = properties['dynamic_partition.prefix'] ?? 'p';
  if (!/^[a-zA-Z][a-zA-Z0-9_]*$/.test(prefix)) throw bad(`Invalid dynamic partition prefix: ${prefix}`);
  const buckets = intProperty(properties, 'dynamic_partition.buckets', schema.distribution.buckets, 'Dynamic partition buckets');
  if (buckets <= 0 || buckets > 1024) throw bad(`Dynamic partition buckets must greater than 0: ${buckets}`);
  const createHistoryPartition = boolProperty(properties, 'dynamic_partition.create_history_partition', false);
  if (createHistoryPartition && start < -500) throw bad('Too many dynamic history partitions: set dynamic_partition.start to -500 or more');
  return { enable: boolProperty(properties, 'dynamic_partition.enable', true), timeUnit, start, end, prefix, buckets, createHistoryPartition };
}

/** Now in the server's time zone as a DATETIME raw value (civil micros). */
function localNowMicros(now: Date): number {
  return daysFromCivil(now.getFullYear(), now.getMonth() + 1, now.getDate()) * MICROS_PER_DAY + ((now.getHours() * 60 + now.getMinutes()) * 60 + now.getSeconds()) * 1_000_000;
}

/** ISO week-numbering year and week of a day (days since 1970-01-01). */
function isoWeek(days: number): [number, number] {
  const thursday = days - ((((days + 3) % 7) + 7) % 7) + 3; // the Thursday of its (Monday-based) week
  const year = Number(formatValue({ name: 'DATE' } as never, thursday)!.slice(0, 4));
  return [year, Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1];
}

/** The partition name of the unit starting at `lower` (DATETIME micros). */
function partitionName(spec: DynamicPartitionSpec, lower: number): string {
  const digits = formatDatetime(lower).replace(/[^0-9]/g, '');
  switch (spec.timeUnit) {
    case 'HOUR':
      return spec.prefix + digits.slice(0, 10);
    case 'DAY':
      return spec.prefix + digits.slice(0, 8);
    case 'WEEK': {
      const [year, week] = isoWeek(Math.floor(lower / MICROS_PER_DAY));
      return `${spec.prefix}${year}_${String(week).padStart(2, '0')}`;
    }
    case 'MONTH':
      return spec.prefix + digits.slice(0, 6);
    default:
      return spec.prefix + digits.slice(0, 4);
  }
}

/**
 * Bring one table's partitions in line with its dynamic partition settings at `now`: add the missing
 * partitions of offsets [start or 0, end] (a range overlapping an existing partition is skipped, as in
 * Doris), drop those ending at or before the `start` offset. Returns the object keys of dropped data.
 */
export function applyDynamicPartitions(catalog: Catalog, table: TableState, now: Date): string[] {
  const spec = dynamicPartitionSpec(table.schema);
  if (spec === null || !spec.enable) return [];
  const schema = table.schema;
  const info = partitionInfoOf(schema)!;
  const type = partitionColumnTypes(schema, info)[0];
  const unit = spec.timeUnit.toLowerCase();
  const DATETIME = { name: 'DATETIME' } as never;
  const base = truncTime(DATETIME, localNowMicros(now), unit);
  const bound = (micros: number): string => (type.name === 'DATE' ? formatValue(type, Math.floor(micros / MICROS_PER_DAY))! : formatDatetime(micros));
  const key = (text: string): KeyValue[] => [parseBoundValue(type, text)];
  const keyOf = (bound: PartitionRecord['upper']): KeyValue[] => (bound ?? []).map((value) => parseBoundValue(type, value));
  const partitions: PartitionRecord[] = [...info.partitions];
  const added: PartitionRecord[] = [];
  const from = spec.createHistoryPartition && spec.start !== NO_START ? spec.start : 0;
  for (let offset = from; offset <= spec.end; offset++) {
    const lower = addTimeUnits(DATETIME, base, unit, offset);
    const upper = addTimeUnits(DATETIME, lower, unit, 1);
    const name = partitionName(spec, lower);
    const lowerKey = key(bound(lower));
    const upperKey = key(bound(upper));
    if (partitions.some((partition) => partition.name.toLowerCase() === name.toLowerCase())) continue;
    const overlaps = partitions.some((partition) => compareKeys(lowerKey, keyOf(partition.upper)) < 0 && compareKeys(keyOf(partition.lower), upperKey) < 0);
    if (overlaps) continue;
    const record: PartitionRecord = { id: catalog.newObjectId(), name, buckets: spec.buckets, lower: [bound(lower)], upper: [bound(upper)] };
    partitions.push(record);
    added.push(record);
  }
  const dropped: number[] = [];
  if (spec.start !== NO_START) {
    const dropBefore = key(bound(addTimeUnits(DATETIME, base, unit, spec.start)));
    for (const partition of info.partitions) {
      if (compareKeys(keyOf(partition.upper), dropBefore) <= 0) dropped.push(partition.id);
    }
  }
  if (added.length === 0 && dropped.length === 0) return [];
  const kept = partitions.filter((partition) => !dropped.includes(partition.id));
  return catalog.changePartitions(schema.id, (current) => ({ ...current, partitionInfo: { ...partitionInfoOf(current)!, partitions: kept } }), added, dropped).keys;
}

/** What the scheduler needs: the catalog and a way to delete dropped partitions' objects. */
export interface DynamicPartitionHost {
  readonly catalog: Catalog;
  deleteObjects(keys: readonly string[]): Promise<void>;
  /** Run a change of table `tableId` once its open Group Commit batches committed (ALTER TABLE's way). */
  drainTable<T>(tableId: number, change: () => Promise<T>): Promise<T>;
  /** fe.log: a table whose change failed. */
  warn(message: string): void;
}

/** Runs applyDynamicPartitions over every table every dynamic_partition_check_interval_seconds. */
export class DynamicPartitionScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: DynamicPartitionHost,
    private readonly config: Config,
  ) {
    config.onChange('dynamic_partition_check_interval_seconds', () => this.timer !== null && this.schedule());
    config.onChange('dynamic_partition_enable', () => this.timer !== null && this.schedule());
  }

  start(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (!this.config.get<boolean>('dynamic_partition_enable')) return;
      this.running = this.running.then(() => this.runOnce());
    }, this.config.getInt('dynamic_partition_check_interval_seconds') * 1000);
    this.timer.unref();
  }

  /** One pass over every table; a table whose change fails is logged and left for the next pass. */
  async runOnce(now = new Date()): Promise<void> {
    const catalog = this.host.catalog;
    for (const db of catalog.listDatabases()) {
      for (const table of catalog.listTables(db.name)) {
        try {
          // An open Group Commit batch must not lose the tablets of a partition dropped under it.
          const keys = dynamicPartitionSpec(table.schema)?.enable ? await this.host.drainTable(table.schema.id, async () => applyDynamicPartitions(catalog, table, now)) : [];
          if (keys.length > 0) await this.host.deleteObjects(keys);
        } catch (err) {
          this.host.warn(`dynamic partition of ${db.name}.${table.schema.name} failed: ${(err as Error).message}`);
        }
      }
    }
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
