/**
 * Column statistics of a table (ANALYZE TABLE, Doris's column_statistics): per column the row count, ndv
 * (HyperLogLog estimate, as approx_count_distinct), null count, data size, min and max; and the table's
 * row count and visible version when they were collected. Kept in the meta store (table `table_stats`,
 * one JSON record per table), read by SHOW COLUMN STATS / SHOW TABLE STATS and the optimizer's cost
 * model. The current row count is never read from here: it comes from rowset metadata.
 */

export interface ColumnStatsRecord {
  readonly name: string;
  readonly count: number;
  readonly ndv: number;
  readonly numNulls: number;
  /** Bytes of the column's values (fixed width for numbers and dates; string bytes for strings). */
  readonly dataSize: number;
  /** Min and max as Doris prints them (strings and dates in single quotes); null for an all-NULL column. */
  readonly min: string | null;
  readonly max: string | null;
  /** Min and max as numbers (numbers; dates and datetimes as their stored number), for selectivity; null otherwise. */
  readonly minNumber: number | null;
  readonly maxNumber: number | null;
  readonly updatedTime: number;
  /** The table's row count and version when this column was analyzed. */
  readonly analyzedRows: number;
  readonly analyzedVersion: number;
  readonly trigger: 'MANUAL' | 'SYSTEM';
}

export interface TableStatsRecord {
  readonly tableId: number;
  readonly columns: readonly ColumnStatsRecord[];
  /** Last ANALYZE (manual or automatic) of any column: time, table rows and version then. */
  readonly analyzeTime: number;
  readonly analyzedRows: number;
  readonly analyzedVersion: number;
  readonly trigger: 'MANUAL' | 'SYSTEM';
}

/**
 * Fraction of a table's rows that may change before automatic collection refreshes its column statistics
 * (Doris: table_stats_health_threshold 90, i.e. re-analyze when less than 90% of the rows are unchanged).
 */
export const AUTO_ANALYZE_CHANGE_FRACTION = 0.1;

/** Whether column stats taken at `analyzedRows` are stale for a table now holding `currentRows` rows. */
export function statsAreStale(analyzedRows: number, currentRows: number): boolean {
  const changed = Math.abs(currentRows - analyzedRows);
  return changed > AUTO_ANALYZE_CHANGE_FRACTION * Math.max(analyzedRows, 1);
}
