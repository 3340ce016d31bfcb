/**
 * SELECT and EXPLAIN.
 */
import { GaleneError } from '../../common/errors';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import type { ExplainStatement, QueryStatement } from '../../sql/ast';
import { executePlan, explainAnalyzed, explainPlan, planQuery, streamQuery } from '../../sql/query';
import type { StatementSession } from './statement-session';
import { rowsResult } from './result-rows';
import { selectLimitFor } from '../sql-select-limit';

export async function runQueryStatement(session: StatementSession, statement: QueryStatement, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  return streamQuery(statement.query, session.statementContext(profile), sqlText, selectLimitFor(statement.query, session.getVariable('sql_select_limit')));
}

export async function runExplain(session: StatementSession, statement: ExplainStatement, sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  const inner = statement.statement;
  const query = inner.kind === 'query' ? inner.query : inner.kind === 'insert' ? inner.source : null;
  if (!query) throw new GaleneError('UNSUPPORTED', [`EXPLAIN ${inner.kind}`]);
  const ctx = session.statementContext(profile);
  const plan = planQuery(query, ctx, { sql: sqlText });
  if (statement.level !== 'ANALYZE') return rowsResult([['Explain String']], explainPlan(plan).map((line) => [line]));
  // Run it, then show each operator with its rows and time, and the scan counters.
  await profile.timeAsync('ExecTimeMs', async () => {
    for await (const batch of executePlan(plan, ctx)) profile.add('RowsReturned', batch.length);
  });
  const lines = explainAnalyzed(plan, ctx);
  lines.push('', 'Counters:');
  for (const [name, value] of profile.counters) lines.push(`  ${name}: ${Math.round(value * 1000) / 1000}`);
  return rowsResult([['Explain String']], lines.map((line) => [line]));
}
