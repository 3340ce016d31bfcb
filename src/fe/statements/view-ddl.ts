/**
 * CREATE [OR REPLACE] VIEW, ALTER VIEW, DROP VIEW (meta/views.ts holds the records). CREATE and ALTER
 * bind the query as the view will be bound — unqualified tables in the view's database — which checks
 * the creator's SELECT privileges and gives the columns: their count must match the labels given, and
 * their names must be distinct. SHOW CREATE VIEW and the views' rows of SHOW TABLES and
 * information_schema are in show.ts and information-schema/.
 */
import { GaleneError } from '../../common/errors';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import type { ViewStatement } from '../../sql/ast';
import { viewDefinitionColumns } from '../../sql/query';
import { okResult } from './result-rows';
import type { StatementSession } from './statement-session';

export async function runViewStatement(session: StatementSession, statement: ViewStatement, _sqlText: string, profile: QueryProfile): Promise<StatementResult> {
  const database = session.requireDatabase(statement.database);
  const catalog = session.fe.catalog;
  catalog.getDatabase(database);
  const existing = catalog.findView(database, statement.name);
  const isTable = catalog.findTable(database, statement.name) !== undefined;
  if (statement.action === 'drop') {
    if (isTable) throw new GaleneError('ANALYSIS_ERROR', [`'${database}.${statement.name}' is not VIEW`]);
    if (!existing) {
      if (statement.ifExists) return okResult();
      throw new GaleneError('BAD_TABLE_DROP', [statement.name]);
    }
    catalog.dropView(database, statement.name);
    return okResult();
  }
  if (statement.action === 'alter') {
    if (isTable) throw new GaleneError('ANALYSIS_ERROR', [`ALTER VIEW not allowed on a table:${database}.${statement.name}`]);
    if (!existing) throw new GaleneError('UNKNOWN_TABLE', [`${database}.${statement.name}`]);
  } else if (existing || isTable) {
    if (statement.ifNotExists) return okResult();
    if (isTable || !statement.orReplace) throw new GaleneError('TABLE_EXISTS', [statement.name]);
  }
  const output = viewDefinitionColumns(statement.query!, session.statementContext(profile), database, statement.definition!);
  const labels = statement.columns;
  if (labels !== null && labels.length !== output.length) {
    throw new GaleneError('ANALYSIS_ERROR', [`The number of column labels (${labels.length}) does not match the number of columns of the view's query (${output.length})`]);
  }
  const names = labels?.map((label) => label.name) ?? output.map((column) => column.name);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name.toLowerCase())) throw new GaleneError('DUPLICATE_COLUMN', [name]);
    seen.add(name.toLowerCase());
  }
  catalog.putView(
    database,
    {
      name: statement.name,
      definition: statement.definition!,
      columns: labels?.map((label) => ({ name: label.name, comment: label.comment })) ?? null,
      comment: statement.comment ?? (statement.action === 'alter' ? existing!.comment : ''),
      definer: `'${session.account.user}'@'${session.account.host}'`,
    },
    true,
  );
  return okResult();
}
