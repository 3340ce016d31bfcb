/**
 * The two contexts a statement sees, as leaf interfaces, so that exec/ and sql/ depend on no concrete
 * session, catalog or storage class (DataFusion's split between the planner's ContextProvider and the
 * TaskContext a running plan gets):
 *
 * - PlanningContext: what the binder, the optimizer rules and the physical planner may ask while planning
 *   one statement — table schemas by name, row estimates (never a reader), system and user variables, the
 *   `?` values, the session facts — and the profile planning times go to.
 * - TaskContext: what a running fragment may touch — its profile, the `?` values, the session facts, its
 *   task control block and a factory of table readers. Its data is plain (it can be rebuilt on another
 *   process from a serialized plan and the facts); it never reaches back to the session or the catalog.
 *
 * The FE builds both for each statement from one SessionFacts (src/fe/session.ts); code under
 * src/exec/operators and src/exec/expr takes a TaskContext only.
 */
import type { Batch, RawValue, Vector } from '../common/column';
import type { QueryProfile } from '../common/profile';
import type { DataType } from '../common/types';
import type { TableSchema } from '../meta/schema';
import type { TableStatsRecord } from '../meta/table-stats';
import type { ViewRecord } from '../meta/views';
import type { ScanPredicate } from '../common/scan-predicate';
import type { AnnScanRequest, FragmentResult, FragmentSpec, InvertedFilter } from './plan/fragment-spec';
import type { QueryTask } from './query-task';

export type { ScanPredicate };

export interface ScanRequest {
  /** Stored column names to return, in this order (may be empty: then batches carry only a length). */
  readonly columns: readonly string[];
  readonly predicates: readonly ScanPredicate[];
  /** A row count after which the scan may stop (LIMIT without ORDER BY); null = all rows. */
  readonly limit: number | null;
  readonly profile: QueryProfile;
  /**
   * Set by an index-driven scan (ANN TopN / range search: the per-segment work is an index search that
   * returns few rows): scanParallel then plans whole-segment tasks — exactly one per segment when
   * `perSegment` (session variable optimize_index_scan_parallelism, read at planning with
   * indexScanPerSegment()), else consecutive segments grouped by Doris's 2,097,152 rows per task and
   * searched one after another. Absent: an ordinary scan, cut into row ranges.
   */
  readonly indexScan?: { readonly perSegment: boolean };
  /**
   * Append one more column after `columns`: each row's global row id (BIGINT), which fetchRows takes back.
   * Phase one of a lazily materialized TopN (plan/lazy-materialization.ts).
   */
  readonly globalRowId?: boolean;
  /** Index predicates (TableScanNode.inverted, bound): only the rows they hold for are returned. */
  readonly inverted?: InvertedFilter;
}

/** Rows to read again by global row id (phase two of a lazily materialized TopN). */
export interface FetchRequest {
  /** Stored column names, in this order. */
  readonly columns: readonly string[];
  /** Global row ids this source's scan returned in this statement, in the order the rows are wanted. */
  readonly rowIds: BigInt64Array;
  readonly profile: QueryProfile;
}

/** One aggregate a source may answer from its metadata: COUNT(*) (column null), COUNT(column), MIN / MAX(column). */
export interface MetadataAggregateCall {
  readonly fn: 'count' | 'min' | 'max';
  /** A stored column name; null for COUNT(*). */
  readonly column: string | null;
}

/** Rows of one table at the version the statement reads, with the table model's merge applied. */
export interface TableSource {
  readonly schema: TableSchema;
  scan(request: ScanRequest): AsyncIterable<Batch>;
  /**
   * Runs `fragment` (filter, optional partial aggregate) over the scan's rows in worker threads, results
   * in row order; null when this source scans in-thread for this request after all (re-checked when the
   * fragment starts: the table may have shrunk or lost its workers since planning, or the scan has a LIMIT).
   */
  scanParallel?(request: ScanRequest, fragment: FragmentSpec): AsyncIterable<FragmentResult> | null;
  /**
   * The `columns` of the rows with these global row ids (from a `globalRowId` scan of this same source:
   * the ids are only meaningful for the version set it reads), one vector per column, rows in request
   * order. Sources whose rows have a single address implement it (DUPLICATE and merge-on-write UNIQUE
   * OLAP tables, memory tables); a merge-on-read row has none.
   */
  fetchRows?(request: FetchRequest): Promise<Vector[]>;
  /**
   * An ANN index search per segment (TableScanNode.ann): the found rows' `request.columns`, then their
   * distance when `ann.distance`, then their global row id when `request.globalRowId` (as `scan` does),
   * segment by segment (rows of one segment in row order). Sources without ANN indexes lack it.
   */
  scanAnn?(request: ScanRequest, ann: AnnScanRequest): AsyncIterable<Batch>;
  /**
   * BM25 scores of rows this source's scan returned in this statement, by global row id, for the MATCH
   * predicates of a score() (TableScanNode.score, texts bound), from the inverted index files' statistics
   * summed over the table's segments (src/be/score-rows.ts). Sources without inverted indexes lack it.
   */
  scoreRows?(request: ScoreRowsRequest): Promise<Float32Array>;
  /**
   * The answers to these aggregates over all of the table's rows (no WHERE), one value each, from row
   * counts, delete bitmaps and zone maps without reading a data page; null when metadata cannot give the
   * exact answer (a merging model, DELETE predicates, deleted rows under a MIN / MAX, a string column...).
   */
  metadataAggregates?(calls: readonly MetadataAggregateCall[], profile: QueryProfile): Promise<RawValue[] | null>;
}

/** One bound MATCH predicate of a score(): `column op text` on the inverted index `indexName`. */
export interface BoundScoreMatch {
  readonly indexName: string;
  readonly column: string;
  readonly op: 'match_any' | 'match_all' | 'match_phrase' | 'match_phrase_prefix';
  readonly text: string;
}

export interface ScoreRowsRequest {
  readonly rowIds: BigInt64Array;
  readonly matches: readonly BoundScoreMatch[];
  readonly profile: QueryProfile;
}

/** A value bound to a `?` parameter (prepared statements), by index. */
export interface ParamValue {
  readonly type: DataType;
  readonly value: RawValue;
}

/**
 * Facts about the session and the statement that functions read at run time (DATABASE(), USER(),
 * CONNECTION_ID(), VERSION(), NOW()...). Plain data, fixed for the statement: every fragment of one
 * statement sees the same values, wherever it runs.
 */
export interface SessionFacts {
  /** The user name (without host). */
  readonly user: string;
  /** The client's host. */
  readonly host: string;
  /** The host pattern of the account the session matched (CURRENT_USER()); '%' when absent. */
  readonly accountHost?: string;
  readonly connectionId: number;
  readonly version: string;
  /** The session's current database at the statement's start, or null. */
  readonly database: string | null;
  /** UTC milliseconds when the statement started: NOW() and its kin are constant within a statement. */
  readonly statementStartMillis: number;
  /** The session's `time_zone` (validated by SET); absent outside a session (loads): the server's zone. */
  readonly timeZone?: string;
  /** The query id of the session's previous statement (last_query_id()); absent or null when there is none. */
  readonly lastQueryId?: string | null;
}

/** What planning one statement may ask (the binder, the optimizer rules, the physical planner). */
export interface PlanningContext {
  /** Where PlanTimeMs, the rules' times and the plan text go. */
  readonly profile: QueryProfile;
  /** The `?` values: the binder types each `?` by its value and reads LIMIT / OFFSET `?` values. */
  readonly parameters: readonly ParamValue[];
  /** Constant folding evaluates statement-level functions (DATABASE(), NOW()...) with these. */
  readonly sessionInfo: SessionFacts;
  /**
   * Table schema by name (database null = the current one); throws UNKNOWN_DATABASE / UNKNOWN_TABLE /
   * NO_DATABASE_SELECTED. `inView`: named inside a view's definition, where the view's SELECT privilege
   * covers it (Doris checks the view, not its tables).
   */
  getTable(database: string | null, name: string, inView?: boolean): TableSchema;
  /**
   * The view of that name (database null = the current one), null when there is none; checks SELECT on
   * the view unless `inView` (a view named inside another view).
   */
  getView?(database: string | null, name: string, inView: boolean): ViewRecord | null;
  /**
   * The schema of a table-valued function's rows (`FROM binlog("db.tbl", 2)`), its arguments evaluated to
   * constants; the schema carries what `openTable` needs to read them. Throws for an unknown function.
   */
  getTableFunction?(name: string, args: readonly RawValue[], properties: Readonly<Record<string, string>>): TableSchema;
  /** Row count estimate of a table at the version the statement reads (join sides, parallelism), from metadata. */
  estimatedRowCount(schema: TableSchema): number;
  /** Column statistics of a table (ANALYZE TABLE), null when none were collected: filter selectivity for join order. */
  columnStats?(schema: TableSchema): TableStatsRecord | null;
  /**
   * How many fragment tasks may run at once over this table (the plan-fragments pass shows it as the SCAN
   * FRAGMENT's degree); 0 when it scans in-thread (small, merge-on-read, no workers).
   */
  scanDegree(schema: TableSchema): number;
  /** @@name (system variable), resolved by scope; throws UNKNOWN_SYSTEM_VARIABLE. */
  getSystemVariable(name: string, scope: 'session' | 'global' | null): { type: DataType; value: RawValue };
  /** @name (user variable); NULL when unset. */
  getUserVariable(name: string): { type: DataType; value: RawValue };
}

/** What a running fragment may touch: plain data, its control block and a factory of table readers. */
export interface TaskContext {
  readonly profile: QueryProfile;
  /** Values bound to `?` parameters, by index. */
  readonly parameters: readonly ParamValue[];
  /** The running statement's control block: cancellation, deadline, memory budget, event-loop slice. */
  readonly task: QueryTask;
  readonly sessionInfo: SessionFacts;
  /** A reader of the table's rows for this statement (a consistent version set). */
  openTable(schema: TableSchema): TableSource;
}

/**
 * What the FE hands a statement it plans and runs in this process: both contexts in one object, built
 * from the same facts. Planning entry points take it as a PlanningContext, execution as a TaskContext.
 */
export type StatementContext = PlanningContext & TaskContext;
