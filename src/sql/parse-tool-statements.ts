/**
 * Statements dump and migration tools send that Galene accepts without acting on them: `LOCK TABLES`
 * and `UNLOCK TABLES` (mysqldump / mariadb-dump wrap every table's INSERTs in them). Parsed here so the
 * statement layer (parser.ts) only dispatches; the FE answers them with a Note (SHOW WARNINGS).
 * Grammar as MySQL's: `LOCK TABLE[S] [db.]t [[AS] alias] {READ [LOCAL] | [LOW_PRIORITY] WRITE} [, ...]`.
 */
import type { LockTablesStatement } from './ast';
import type { Token } from './lexer';
import { AccountParser } from './parse-account';

export abstract class ToolStatementParser extends AccountParser {
  /** After LOCK / UNLOCK (the start token, not yet consumed). */
  protected parseLockTables(start: Token): LockTablesStatement {
    this.advance();
    if (!this.acceptWord('TABLES')) this.expectWord('TABLE');
    if (start.upper === 'UNLOCK') return { kind: 'lockTables', action: 'UNLOCK', tables: [], pos: start.pos, end: this.lastEnd };
    const tables: { database: string | null; name: string; mode: 'READ' | 'WRITE' }[] = [];
    do {
      const { database, name } = this.parseQualifiedName();
      if (this.acceptWord('AS') || (this.isIdent() && !this.isWord('READ') && !this.isWord('WRITE') && !this.isWord('LOW_PRIORITY'))) this.parseIdent();
      let mode: 'READ' | 'WRITE';
      if (this.acceptWord('READ')) {
        mode = 'READ';
        this.acceptWord('LOCAL');
      } else {
        this.acceptWord('LOW_PRIORITY');
        this.expectWord('WRITE');
        mode = 'WRITE';
      }
      tables.push({ database, name, mode });
    } while (this.acceptOp(','));
    return { kind: 'lockTables', action: 'LOCK', tables, pos: start.pos, end: this.lastEnd };
  }
}
