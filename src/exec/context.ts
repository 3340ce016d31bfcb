/**
 * What the planner and operators need from the server around them, as interfaces, so that exec/ depends
 * on no concrete catalog or storage class. The FE provides an ExecContext per statement.
 */
import type { Batch, RawValue } from '../common/column';
import type { QueryProfile } from '../common/profile';
import type { DataType } from '../common/types';
import type { TableSchema } from '../meta/schema';
import type { ScanPredicate } from '../common/scan-predicate';
import type { FragmentResult, FragmentSpec } from './plan/fragment-spec';
import type { QueryTask } from './query-task';

export type { ScanPredicate };

export interface ScanRequest {
  /** Stored column names to return, in this order (may be empty: then batches carry only a length). */
  readonly columns: readonly string[];
  readonly predicates: readonly ScanPredicate[];
  /** A row count after which the scan may stop (LIMIT without ORDER BY); null = all rows. */
  readonly limit: number | null;
  readonly profile: QueryProfile;
}

/** Rows of one table at the version the statement reads, with the table model's merge applied. */
export interface TableSource {
  readonly schema: TableSchema;
  scan(request: ScanRequest): AsyncIterable<Batch>;
  /** Row count estimate for planning (join sides, parallelism). */
  estimatedRowCount(): number;
  /**
   * Planning: how many fragment tasks may run at once over this table (the plan-fragments pass shows it as
   * the SCAN FRAGMENT's degree); 0 when it scans in-thread (small, merge-on-read, no workers). Absent: 0.
   */
  scanDegree?(): number;
  /**
   * Runs `fragment` (filter, optional partial aggregate) over the scan's rows in worker threads, results
   * in row order; null when this source scans in-thread for this request after all (re-checked when the
   * fragment starts: the table may have shrunk or lost its workers since planning, or the scan has a LIMIT).
   */
  scanParallel?(request: ScanRequest, fragment: FragmentSpec): AsyncIterable<FragmentResult> | null;
}

export interface ExecContext {
  readonly profile: QueryProfile;
  /** The session's current database, or null. */
  readonly currentDatabase: string | null;
  /** Table schema by name; throws UNKNOWN_DATABASE / UNKNOWN_TABLE / NO_DATABASE_SELECTED. */
  getTable(database: string | null, name: string): TableSchema;
  /** A reader of the table's rows for this statement (a consistent version set). */
  openTable(schema: TableSchema): TableSource;
  /** @@name (system variable), resolved by scope; throws UNKNOWN_SYSTEM_VARIABLE. */
  getSystemVariable(name: string, scope: 'session' | 'global' | null): { type: DataType; value: RawValue };
  /** @name (user variable); NULL when unset. */
  getUserVariable(name: string): { type: DataType; value: RawValue };
  /** Values bound to `?` parameters (prepared statements), by index. */
  readonly parameters: readonly { type: DataType; value: RawValue }[];
  /** The running statement's control block: cancellation, deadline, memory budget, event-loop slice. */
  readonly task: QueryTask;
  /** Functions that read session state: DATABASE(), USER(), CONNECTION_ID(), LAST_INSERT_ID()... */
  readonly sessionInfo: { user: string; host: string; connectionId: number; version: string };
}
