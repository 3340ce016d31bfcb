/**
 * Functions the binder computes from the query's shape rather than the registry: the window-only
 * functions the window operator computes (exec/operators/window-functions.ts), declared
 * once for the binder (which refuses them without OVER), SHOW FUNCTIONS and docs/functions.md. Aggregates
 * are window functions too (every one, over any frame) and are listed with the aggregates.
 */

/** A window-only function: its name, signature text, what it computes and an example that runs. */
export interface WindowFunctionInfo {
  readonly name: string;
  readonly signature: string;
  readonly description: string;
  readonly example: string;
}

const over = (call: string): string => `SELECT ${call} OVER (ORDER BY x) FROM (SELECT 1 AS x) t`;

export const WINDOW_FUNCTIONS: readonly WindowFunctionInfo[] = [
  { name: 'row_number', signature: 'row_number() OVER (...) -> BIGINT', description: 'The 1-based position of the row in its partition.', example: over('row_number()') },
  { name: 'rank', signature: 'rank() OVER (...) -> BIGINT', description: 'The 1-based rank of the row in its partition, with gaps after peers.', example: over('rank()') },
  { name: 'dense_rank', signature: 'dense_rank() OVER (...) -> BIGINT', description: 'The 1-based rank of the row in its partition, without gaps.', example: over('dense_rank()') },
  { name: 'percent_rank', signature: 'percent_rank() OVER (...) -> DOUBLE', description: '(rank - 1) / (partition rows - 1); 0 in a one-row partition.', example: over('percent_rank()') },
  { name: 'cume_dist', signature: 'cume_dist() OVER (...) -> DOUBLE', description: 'The fraction of the partition ordered at or before the row (peers included).', example: over('cume_dist()') },
  { name: 'ntile', signature: 'ntile(n) OVER (...) -> BIGINT', description: 'The bucket (1..n) of the row when the partition is split into n nearly equal buckets.', example: over('ntile(2)') },
  { name: 'lag', signature: 'lag(expr[, offset[, default]]) OVER (...) -> type of expr', description: 'expr of the row offset (default 1) rows before, else default (NULL).', example: over('lag(x, 1, 0)') },
  { name: 'lead', signature: 'lead(expr[, offset[, default]]) OVER (...) -> type of expr', description: 'expr of the row offset (default 1) rows after, else default (NULL).', example: over('lead(x)') },
  { name: 'first_value', signature: 'first_value(expr[, ignore_nulls]) OVER (...) -> type of expr', description: 'expr of the first row of the frame.', example: over('first_value(x)') },
  { name: 'last_value', signature: 'last_value(expr[, ignore_nulls]) OVER (...) -> type of expr', description: 'expr of the last row of the frame.', example: over('last_value(x)') },
  { name: 'nth_value', signature: 'nth_value(expr, n) OVER (...) -> type of expr', description: 'expr of the n-th row of the frame, NULL when the frame is shorter.', example: over('nth_value(x, 1)') },
];

/** GROUPING / GROUPING_ID: which GROUP BY columns a GROUPING SETS / ROLLUP / CUBE row rolled up (sql/bind-grouping-sets.ts). */
export const GROUPING_FUNCTIONS: readonly WindowFunctionInfo[] = [
  { name: 'grouping', signature: 'grouping(col) -> BIGINT', description: '1 when the row of a GROUPING SETS / ROLLUP / CUBE aggregate rolled col up, else 0.', example: 'SELECT max(g) FROM (SELECT grouping(x) AS g FROM (SELECT 1 AS x) t GROUP BY ROLLUP(x)) s' },
  { name: 'grouping_id', signature: 'grouping_id(col, ...) -> BIGINT', description: 'The grouping() bits of the columns as one number, the first column the most significant bit.', example: 'SELECT max(g) FROM (SELECT grouping_id(x) AS g FROM (SELECT 1 AS x) t GROUP BY CUBE(x)) s' },
];
