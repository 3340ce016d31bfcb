/**
 * sql_select_limit, as MySQL: a top-level SELECT without a LIMIT of its own returns at most that many
 * rows (https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html#sysvar_sql_select_limit).
 * JDBC's Statement.setMaxRows sets it (MariaDB Connector/J sends `set @@SQL_SELECT_LIMIT=n`). The cap
 * is applied to the result stream (streamPlan's maxRows), so text and prepared SELECTs share it and the
 * cached plan of a prepared statement stays independent of the session's value; the stream stops the
 * plan once the cap is reached.
 */
import type { QueryExpr } from '../sql/ast';

/** The cap for this query, or null when none applies (the query has a LIMIT, or the limit is the default). */
export function selectLimitFor(query: QueryExpr, sessionValue: string | number | boolean): number | null {
  if (query.kind === 'with') return selectLimitFor(query.body, sessionValue);
  if (query.kind !== 'values' && query.limit !== null) return null;
  if (typeof sessionValue !== 'number') return null; // beyond 2^53: no result is that long
  return sessionValue;
}
