/**
 * View grammar (Doris): `CREATE [OR REPLACE] VIEW [IF NOT EXISTS] [db.]v [(col [COMMENT 'c'], ...)]
 * [COMMENT 'c'] AS query`, `ALTER VIEW [db.]v [(col, ...)] [COMMENT 'c'] AS query`, `DROP VIEW [IF EXISTS]
 * [db.]v`. `SHOW CREATE VIEW` is a SHOW_SPECS entry (parser.ts). The query is kept as parsed and as the
 * text it was written as (the view's stored definition). parser.ts dispatches here after the first word.
 */
import type { ViewColumnDef, ViewStatement } from './ast';
import type { Token } from './lexer';
import { StorageVaultParser } from './parse-storage-vault';

export abstract class ViewParser extends StorageVaultParser {
  /** At VIEW (or OR REPLACE VIEW) after CREATE / ALTER / DROP. */
  protected isView(): boolean {
    return this.isWord('VIEW') || (this.isWord('OR') && this.isWordAt(1, 'REPLACE') && this.isWordAt(2, 'VIEW'));
  }

  /** After CREATE or ALTER (`start` is that word). */
  protected parseCreateOrAlterView(start: Token): ViewStatement {
    const alter = start.upper === 'ALTER';
    const orReplace = !alter && this.acceptWords('OR', 'REPLACE');
    this.expectWord('VIEW');
    const ifNotExists = !alter && this.acceptWords('IF', 'NOT', 'EXISTS');
    const { database, name } = this.parseQualifiedName();
    let columns: ViewColumnDef[] | null = null;
    if (this.acceptOp('(')) {
      columns = [];
      do {
        const column = this.parseIdent();
        const comment = this.acceptWord('COMMENT') ? this.parseStringLiteral() : '';
        columns.push({ name: column, comment });
      } while (this.acceptOp(','));
      this.expectOp(')');
    }
    const comment = this.acceptWord('COMMENT') ? this.parseStringLiteral() : null;
    this.expectWord('AS');
    const query = this.parseQueryExpr();
    const definition = this.sql.slice(query.pos, query.end);
    return { kind: 'view', action: alter ? 'alter' : 'create', database, name, orReplace, ifNotExists, ifExists: false, columns, comment, query, definition, pos: start.pos, end: this.lastEnd };
  }

  /** After DROP: VIEW [IF EXISTS] [db.]v. */
  protected parseDropView(start: Token): ViewStatement {
    this.expectWord('VIEW');
    const ifExists = this.acceptWords('IF', 'EXISTS');
    const { database, name } = this.parseQualifiedName();
    return { kind: 'view', action: 'drop', database, name, orReplace: false, ifNotExists: false, ifExists, columns: null, comment: null, query: null, definition: null, pos: start.pos, end: this.lastEnd };
  }
}
