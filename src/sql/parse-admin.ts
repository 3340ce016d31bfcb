/**
 * Administration grammar (Doris): `ADMIN SET FRONTEND|BACKEND CONFIG ("k" = "v") [ALL]`,
 * `ADMIN SHOW FRONTEND|BACKEND CONFIG [LIKE 'p']` (as the SHOW form of the same name), `CANCEL LOAD
 * [FROM db] WHERE ...` and MySQL's `HELP 'topic'`. The statement layer (parser.ts) dispatches ADMIN,
 * CANCEL and HELP here.
 */
import type { AdminSetConfigStatement, CancelLoadStatement, HelpStatement, Statement } from './ast';
import { Token, TokenKind } from './lexer';
import { ToolStatementParser } from './parse-tool-statements';

export abstract class AdminParser extends ToolStatementParser {
  /** After ADMIN: SET ... CONFIG, or SHOW ... CONFIG (handed to `show`, which parses a SHOW from its words). */
  protected parseAdmin(start: Token, show: () => Statement): Statement {
    if (this.isWord('SHOW')) return show();
    this.expectWord('SET');
    let node: AdminSetConfigStatement['node'];
    if (this.acceptWord('FRONTEND')) node = 'FRONTEND';
    else if (this.acceptWord('BACKEND')) node = 'BACKEND';
    else throw this.error('expected FRONTEND or BACKEND');
    this.expectWord('CONFIG');
    const configs = this.isOp('(') ? this.parseProperties() : {};
    // Doris: ALL applies a frontend setting on every FE; this server has one FE.
    this.acceptWord('ALL');
    return { kind: 'adminSetConfig', node, configs, pos: start.pos, end: this.lastEnd };
  }

  /** After CANCEL: LOAD [FROM|IN db] WHERE ... */
  protected parseCancel(start: Token): CancelLoadStatement {
    if (!this.isWord('LOAD')) throw this.unsupported(`CANCEL ${this.tok.upper || this.tok.text}`);
    this.advance();
    let database: string | null = null;
    if (this.acceptWord('FROM') || this.acceptWord('IN')) database = this.parseIdent();
    this.expectWord('WHERE');
    const where = this.parseExpr();
    return { kind: 'cancelLoad', database, where, pos: start.pos, end: this.lastEnd };
  }

  /** After HELP: a quoted topic, or bare words up to the end of the statement (as the mysql client sends them). */
  protected parseHelp(start: Token): HelpStatement {
    let topic: string;
    if (this.tok.kind === TokenKind.String) {
      topic = this.parseStringLiteral();
    } else {
      const from = this.tok.pos;
      while (!this.atStatementEnd()) this.advance();
      topic = this.sql.slice(from, this.lastEnd).trim();
    }
    return { kind: 'help', topic, pos: start.pos, end: this.lastEnd };
  }
}
