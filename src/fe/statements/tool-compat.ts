/**
 * Statements that dump and migration tools (mysqldump, mariadb-dump, ORMs) send and that Galene accepts
 * without acting on them. Nothing accepted is silently ignored: each answers OK with a Note that SHOW
 * WARNINGS lists, saying what Galene does instead.
 */
import type { StatementResult } from '../../common/result';
import type { LockTablesStatement } from '../../sql/ast';
import type { StatementSession } from './statement-session';

/** OK with one Note (MySQL code 1105) per message, counted in the OK packet's warning count. */
export function okWithNotes(session: StatementSession, messages: readonly string[]): StatementResult {
  for (const message of messages) session.warnings.push({ level: 'Note', code: 1105, message });
  return { kind: 'ok', affectedRows: 0, warnings: messages.length };
}

/**
 * `LOCK TABLES` / `UNLOCK TABLES`: as in Doris (LockTablesStmt, kept for MySQL tools), no lock is taken.
 * The tables must exist; each statement already reads one consistent snapshot of a table's versions.
 */
export async function lockTables(session: StatementSession, statement: LockTablesStatement): Promise<StatementResult> {
  if (statement.action === 'UNLOCK') return okWithNotes(session, ['UNLOCK TABLES is accepted for MySQL compatibility; Galene takes no table locks']);
  for (const table of statement.tables) session.resolveTable(table.database, table.name);
  return okWithNotes(session, ['LOCK TABLES is accepted for MySQL compatibility; Galene takes no table locks (every statement reads a consistent snapshot)']);
}

/** The Note for `ALTER TABLE ... DISABLE KEYS` / `ENABLE KEYS` (mysqldump wraps each table's rows in them). */
export const KEYS_NOTE = 'ALTER TABLE ... DISABLE KEYS / ENABLE KEYS is accepted for MySQL compatibility; Galene keeps its indexes up to date during every load';
