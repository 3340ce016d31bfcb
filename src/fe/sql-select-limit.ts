/**
 * sql_select_limit, as MySQL: a top-level SELECT without a LIMIT of its own returns at most that many
 * rows (https://dev.mysql.com/doc/refman/8.0/en/server-system-variables.html#sysvar_sql_select_limit).
 * JDBC's Statement.setMaxRows sets it. Applied to the result stream, so text and prepared SELECTs share
 * it and the cached plan of a prepared statement stays independent of the session's value; the stream
 * stops pulling (and so stops the query) once the cap is reached.
 */
import type { Batch } from '../common/column';
import type { RowsResult } from '../common/result';
import { sliceBatch } from '../exec/operators/limit';
import type { QueryExpr } from '../sql/ast';

/** The cap for this query, or null when none applies (the query has a LIMIT, or the limit is the default). */
export function selectLimitFor(query: QueryExpr, sessionValue: string | number | boolean): number | null {
  if (query.kind !== 'values' && query.limit !== null) return null;
  if (typeof sessionValue !== 'number') return null; // beyond 2^53: no result is that long
  return sessionValue;
}

/** The result with at most `cap` rows. */
export function capRows(result: RowsResult, cap: number | null): RowsResult {
  if (cap === null) return result;
  const source = result.batches;
  if (Array.isArray(source)) {
    const kept: Batch[] = [];
    let remaining = cap;
    for (const batch of source as readonly Batch[]) {
      if (remaining <= 0) break;
      const take = Math.min(remaining, batch.length);
      kept.push(sliceBatch(batch, 0, take));
      remaining -= take;
    }
    return { ...result, batches: kept };
  }
  async function* capped(): AsyncIterable<Batch> {
    let remaining = cap!;
    for await (const batch of source as AsyncIterable<Batch>) {
      // Leaving the loop closes the source, so the query stops (also at once for a cap of 0).
      if (remaining <= 0) return;
      const take = Math.min(remaining, batch.length);
      yield sliceBatch(batch, 0, take);
      remaining -= take;
      if (remaining <= 0) return;
    }
  }
  return { ...result, batches: capped() };
}
