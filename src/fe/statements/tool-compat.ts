/**
 * Statements that dump and migration tools (mysqldump, mariadb-dump, ORMs) send and that Galene accepts
 * without acting on them. Nothing accepted is silently ignored: each answers OK with a Note that SHOW
 * WARNINGS lists, saying what Galene does instead.
 */
import type { StatementResult } from '../../common/result';
import type { LockTablesStatement } from '../../sql/ast';
import { note, okWithWarnings } from './result-rows';
import type { StatementSession } from './statement-session';

/**
 * `LOCK TABLES` / `UNLOCK TABLES`: as in Doris (LockTablesStmt, kept for MySQL tools), no lock is taken.
 * The tables must exist; each statement already reads one consistent snapshot of a table's versions.
 */
export async function lockTables(session: StatementSession, statement: LockTablesStatement): Promise<StatementResult> {
  if (statement.action === 'UNLOCK') return okWithWarnings(session, [note('UNLOCK TABLES is accepted for MySQL compatibility; Galene takes no table locks')]);
  for (const table of statement.tables) session.resolveTable(table.database, table.name);
  return okWithWarnings(session, [note('LOCK TABLES is accepted for MySQL compatibility; Galene takes no table locks (every statement reads a consistent snapshot)')]);
}

/** The Note for `ALTER TABLE ... DISABLE KEYS` / `ENABLE KEYS` (mysqldump wraps each table's rows in them). */
export const KEYS_NOTE = note('ALTER TABLE ... DISABLE KEYS / ENABLE KEYS is accepted for MySQL compatibility; Galene keeps its indexes up to date during every load');
