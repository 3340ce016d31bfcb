/**
 * `BUILD INDEX idx ON t`, `SHOW BUILD INDEX` and `CANCEL BUILD INDEX ON t` (Doris's index build jobs),
 * and the index-file side of DROP INDEX.
 *
 * CREATE INDEX on a table with data changes metadata only: segments written from then on get the index.
 * BUILD INDEX builds the missing ANN or INVERTED files of the existing segments as an asynchronous job
 * (one machinery for both kinds, BuildTarget): the statement returns at once, the job reads each
 * segment's indexed column and builds its file off the event loop (the index kind's builder worker,
 * storage/ann or storage/inverted), then attaches every new record to its segment in one meta-store
 * transaction (Catalog.rewriteSegmentIndexes). A segment compacted away meanwhile is skipped and its new
 * file removed; for ANN a segment with fewer rows than `ann_index_build_min_segment_rows` gets no file
 * (searched exactly), while every segment gets an inverted file. A crash before the attach leaves only
 * unreferenced files, which the start-up sweep removes.
 *
 * Jobs live in this FE's memory (serially, in the order submitted) and are listed by SHOW BUILD INDEX
 * with Doris's columns and states WAITING / RUNNING / FINISHED / CANCELLED; after a restart the list is
 * empty and a new BUILD INDEX finishes what is missing.
 */
import type { RawValue, Vector } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { StatementResult } from '../../common/result';
import type { Catalog } from '../../meta/catalog';
import { segmentIndexRecord, type SegmentIndexRecord, type SegmentRecord } from '../../meta/meta-store';
import type { BuildIndexStatement, CancelBuildIndexStatement, ShowStatement } from '../../sql/ast';
import { buildSegmentAnnIndexes, tableAnnIndexes } from '../../storage/ann/segment-ann-indexes';
import { buildSegmentInvertedIndexes, tableInvertedIndexes } from '../../storage/inverted/segment-inverted-indexes';
import { DEFAULT_MIN_SEGMENT_ROWS } from '../../storage/ann';
import type { ServerServices } from '../server-services';
import { timeText } from '../cluster-facts';
import { okResult } from './result-rows';
import type { ColumnSpec } from './result-rows';
import { shaped } from './show-admin';
import type { ShowHandler } from './show-filter';
import type { StatementSession } from './statement-session';

export type BuildIndexState = 'WAITING' | 'RUNNING' | 'FINISHED' | 'CANCELLED';

interface BuildIndexJob {
  readonly jobId: number;
  readonly dbId: number;
  readonly tableId: number;
  readonly tableName: string;
  readonly indexName: string;
  /** The index as Doris prints it in AlterInvertedIndexes. */
  readonly definition: string;
  readonly createTime: number;
  finishTime: number;
  state: BuildIndexState;
  msg: string;
  /** Segments built so far / to build (Progress). */
  done: number;
  total: number;
  cancelRequested: boolean;
}

const NO_PROFILE = { add: (): void => undefined };
/** A job re-checks for segments still missing (written by a compaction that began before the index) this often. */
const MAX_ROUNDS = 3;

/** The build jobs of one FE, run one at a time. */
class BuildIndexJobs {
  readonly jobs: BuildIndexJob[] = [];
  private tail: Promise<void> = Promise.resolve();
  /** Settles when every job submitted so far has ended (tests, shutdown). */
  idle(): Promise<void> {
    return this.tail;
  }

  constructor(private readonly fe: ServerServices) {}

  submit(job: BuildIndexJob): void {
    this.jobs.push(job);
    this.tail = this.tail.then(() => this.run(job)).catch((err: unknown) => {
      job.state = 'CANCELLED';
      job.msg = err instanceof Error ? err.message : String(err);
      job.finishTime = Date.now();
      this.fe.serverLog.log('WARN', 'build-index', `BUILD INDEX ${job.indexName} ON ${job.tableName} (job ${job.jobId}) failed: ${job.msg}`);
    });
  }

  private async run(job: BuildIndexJob): Promise<void> {
    if (job.cancelRequested) return this.finish(job, 'CANCELLED', 'user cancelled');
    job.state = 'RUNNING';
    const { catalog, backend } = this.fe;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const index = buildTarget(this.fe, job);
      if (index === null) return this.finish(job, 'CANCELLED', `index ${job.indexName} or table ${job.tableName} was dropped`);
      const table = catalog.getTableById(job.tableId)!;
      const missing = table.rowsets.flatMap((rowset) => rowset.segments).filter((segment) => segment.numRows >= index.minRows && segmentIndexRecord(segment, index.name) === undefined);
      if (missing.length === 0) break;
      job.total = job.done + missing.length;
      const built = new Map<string, SegmentIndexRecord>();
      const written: string[] = [];
      try {
        for (const segment of missing) {
          if (job.cancelRequested) break;
          const record = await buildOne(this.fe, table.schema.columns[index.columnIdx].name, index, segment, written);
          if (record !== null) built.set(segment.key, record);
          job.done++;
        }
      } catch (err) {
        await backend.deleteObjects(written);
        throw err;
      }
      if (job.cancelRequested || buildTarget(this.fe, job) === null) {
        await backend.deleteObjects(written);
        return this.finish(job, 'CANCELLED', job.cancelRequested ? 'user cancelled' : `index ${job.indexName} was dropped`);
      }
      const attached = attachRecords(catalog, job.tableId, built);
      // Files of segments compacted away during the build: nothing refers to them.
      await backend.deleteObjects(written.filter((key) => !attached.has(key)));
    }
    this.finish(job, 'FINISHED', '');
  }

  private finish(job: BuildIndexJob, state: BuildIndexState, msg: string): void {
    job.state = state;
    job.msg = msg;
    job.finishTime = Date.now();
  }
}

/** The index a job builds, as the table has it now: which segments need a file and how one is built. */
interface BuildTarget {
  readonly name: string;
  /** Position of the indexed column in the table's columns. */
  readonly columnIdx: number;
  /** Segments with fewer rows get no file (ANN: ann_index_build_min_segment_rows; inverted: none). */
  readonly minRows: number;
  /** Build the segment's file from its columns `data` (only the indexed one is set); null: no file. */
  build(data: readonly Vector[], segment: SegmentRecord, written: string[]): Promise<SegmentIndexRecord | null>;
}

/** The job's index as the table has it now (null: the table or the index is gone). */
function buildTarget(fe: ServerServices, job: BuildIndexJob): BuildTarget | null {
  const table = fe.catalog.getTableById(job.tableId);
  if (!table) return null;
  const columnNames = table.schema.columns.map((column) => column.name);
  const store = fe.backend.store;
  const ann = tableAnnIndexes(table.schema.indexes, columnNames).find((index) => index.name === job.indexName);
  if (ann) {
    const minRows = fe.backend.writeOptions.annMinSegmentRows ?? DEFAULT_MIN_SEGMENT_ROWS;
    return { name: ann.name, columnIdx: ann.columnIdx, minRows, build: async (data, segment, written) => (await buildSegmentAnnIndexes(store, [ann], data, segment.numRows, segment.key, written, minRows))[0] ?? null };
  }
  const inverted = tableInvertedIndexes(table.schema.indexes, table.schema.columns).find((index) => index.name === job.indexName);
  if (inverted) return { name: inverted.name, columnIdx: inverted.columnIdx, minRows: 0, build: async (data, segment, written) => (await buildSegmentInvertedIndexes(store, [inverted], data, segment.key, written))[0] ?? null };
  return null;
}

/** Build the index file of one segment from its own column (the build itself runs in the index's builder worker). */
async function buildOne(fe: ServerServices, columnName: string, index: BuildTarget, segment: SegmentRecord, written: string[]): Promise<SegmentIndexRecord | null> {
  const reader = await fe.backend.openSegment(segment, NO_PROFILE);
  const column = await reader.readColumn(columnName, null, NO_PROFILE);
  const data: Vector[] = [];
  data[index.columnIdx] = column;
  return index.build(data, segment, written);
}

/**
 * Attach `built` (segment key -> record) to the segments that still exist, in one meta-store transaction;
 * returns the object keys of the attached files.
 */
function attachRecords(catalog: Catalog, tableId: number, built: ReadonlyMap<string, SegmentIndexRecord>): Set<string> {
  const attached = new Set<string>();
  if (built.size === 0) return attached;
  catalog.rewriteSegmentIndexes(tableId, (rowset) => {
    if (!rowset.segments.some((segment) => built.has(segment.key))) return null;
    return rowset.segments.map((segment) => {
      const record = built.get(segment.key);
      if (!record) return segment;
      attached.add(record.key);
      return { ...segment, indexes: [...(segment.indexes ?? []).filter((existing) => existing.name !== record.name), record] };
    });
  });
  return attached;
}

/**
 * Remove the records of indexes `names` from every segment of the table (DROP INDEX, and a re-created
 * name whose old files a racing load attached), in one meta-store transaction; returns their object keys
 * for the caller to delete.
 */
export function purgeIndexRecords(catalog: Catalog, tableId: number, names: readonly string[]): string[] {
  const keys: string[] = [];
  if (names.length === 0) return keys;
  const drop = new Set(names);
  catalog.rewriteSegmentIndexes(tableId, (rowset) => {
    if (!rowset.segments.some((segment) => (segment.indexes ?? []).some((record) => drop.has(record.name)))) return null;
    return rowset.segments.map((segment) => {
      const indexes = segment.indexes ?? [];
      if (!indexes.some((record) => drop.has(record.name))) return segment;
      for (const record of indexes) if (drop.has(record.name)) keys.push(record.key);
      const kept = indexes.filter((record) => !drop.has(record.name));
      const { indexes: _old, ...plain } = segment;
      return kept.length === 0 ? plain : { ...plain, indexes: kept };
    });
  });
  return keys;
}

const registries = new WeakMap<Catalog, BuildIndexJobs>();

function jobsOf(fe: ServerServices): BuildIndexJobs {
  let jobs = registries.get(fe.catalog);
  if (!jobs) {
    jobs = new BuildIndexJobs(fe);
    registries.set(fe.catalog, jobs);
  }
  return jobs;
}

/** Settles when the build jobs submitted so far have ended (tests; shutdown). */
export function buildJobsIdle(fe: ServerServices): Promise<void> {
  return jobsOf(fe).idle();
}

/** DROP INDEX: the table's waiting or running builds of the dropped indexes stop (their files are removed). */
export function cancelBuildJobsFor(fe: ServerServices, tableId: number, names: readonly string[]): void {
  for (const job of jobsOf(fe).jobs) {
    if (job.tableId === tableId && names.includes(job.indexName) && (job.state === 'WAITING' || job.state === 'RUNNING')) job.cancelRequested = true;
  }
}

function indexDefinitionText(name: string, columns: readonly string[], indexType: string, properties: Readonly<Record<string, string>>): string {
  const props = Object.entries(properties).map(([key, value]) => `"${key}" = "${value}"`).join(', ');
  return `[ADD INDEX ${name} (${columns.map((column) => `\`${column}\``).join(',')}) USING ${indexType}${props ? ` PROPERTIES(${props})` : ''}], `;
}

export async function buildIndex(session: StatementSession, statement: BuildIndexStatement): Promise<StatementResult> {
  const database = session.requireDatabase(statement.database);
  const catalog = session.fe.catalog;
  const table = catalog.getTable(database, statement.table);
  const index = table.schema.indexes.find((candidate) => candidate.name.toLowerCase() === statement.index.toLowerCase());
  if (!index) throw new GaleneError('INVALID_TABLE_DEFINITION', [`index ${statement.index} does not exist`]);
  if (index.indexType !== 'ANN' && index.indexType !== 'INVERTED') throw new GaleneError('UNSUPPORTED', [`BUILD INDEX for ${index.indexType} indexes`]);
  const jobs = jobsOf(session.fe);
  if (jobs.jobs.some((job) => job.tableId === table.schema.id && job.indexName === index.name && (job.state === 'WAITING' || job.state === 'RUNNING'))) {
    throw new GaleneError('INVALID_TABLE_DEFINITION', [`there is already a build index job running on index ${index.name} of table ${table.schema.name}`]);
  }
  jobs.submit({
    jobId: catalog.newObjectId(),
    dbId: table.dbId,
    tableId: table.schema.id,
    tableName: table.schema.name,
    indexName: index.name,
    definition: indexDefinitionText(index.name, index.columns, index.indexType, index.properties),
    createTime: Date.now(),
    finishTime: 0,
    state: 'WAITING',
    msg: '',
    done: 0,
    total: 0,
    cancelRequested: false,
  });
  return okResult();
}

export async function cancelBuildIndex(session: StatementSession, statement: CancelBuildIndexStatement): Promise<StatementResult> {
  const database = session.requireDatabase(statement.database);
  const table = session.fe.catalog.getTable(database, statement.table);
  const running = jobsOf(session.fe).jobs.filter((job) => job.tableId === table.schema.id && (job.state === 'WAITING' || job.state === 'RUNNING'));
  if (running.length === 0) throw new GaleneError('INVALID_TABLE_DEFINITION', [`No job to cancel for Table[${table.schema.name}]`]);
  for (const job of running) {
    job.cancelRequested = true;
    if (job.state === 'WAITING') {
      job.state = 'CANCELLED';
      job.msg = 'user cancelled';
      job.finishTime = Date.now();
    }
  }
  return okResult();
}

/** Doris's SHOW BUILD INDEX columns. */
const BUILD_INDEX_COLUMNS: readonly ColumnSpec[] = [['JobId'], ['TableName'], ['PartitionName'], ['AlterInvertedIndexes'], ['CreateTime'], ['FinishTime'], ['TransactionId'], ['State'], ['Msg'], ['Progress']];

function showBuildIndex(session: StatementSession, statement: ShowStatement): StatementResult {
  const db = session.fe.catalog.getDatabase(session.requireDatabase(statement.database));
  const rows: RawValue[][] = jobsOf(session.fe)
    .jobs.filter((job) => job.dbId === db.id)
    .map((job) => [
      String(job.jobId),
      job.tableName,
      job.tableName,
      job.definition,
      timeText(job.createTime),
      timeText(job.finishTime),
      '0',
      job.state,
      job.msg,
      job.state === 'FINISHED' ? null : `${job.done}/${job.total}`,
    ]);
  return shaped(statement, BUILD_INDEX_COLUMNS, rows);
}

export const BUILD_INDEX_SHOW_HANDLERS: Record<string, ShowHandler> = {
  'build index': showBuildIndex,
};
