/**
 * Cluster membership grammar (Doris): `ALTER SYSTEM ADD BACKEND 'host:port' [, 'host:port' ...]
 * [PROPERTIES ("tag.compute_group_name" = "g")]`, `ALTER SYSTEM DROP BACKEND 'host:port' [, ...]`,
 * `ALTER SYSTEM DECOMMISSION BACKEND 'host:port' [, ...]`, `ALTER SYSTEM RENAME COMPUTE GROUP old new`.
 * Also `SET PROPERTY [FOR 'user'] 'key' = 'value' [, ...]` (a user's default_compute_group).
 * The endpoints stay text here: the handler checks them (Doris's "Invalid host port" words).
 */
import type { AlterSystemStatement, SetPropertyStatement } from './ast';
import { TokenKind, type Token } from './lexer';
import { StatsParser } from './parse-stats';

const BACKEND_OPS = { ADD: 'addBackend', DROP: 'dropBackend', DECOMMISSION: 'decommissionBackend' } as const;

export abstract class AlterSystemParser extends StatsParser {
  /** After ALTER, at SYSTEM. */
  protected parseAlterSystem(start: Token): AlterSystemStatement {
    this.expectWord('SYSTEM');
    if (this.acceptWord('RENAME')) {
      this.expectWord('COMPUTE');
      this.expectWord('GROUP');
      const oldName = this.parseIdentOrString();
      const newName = this.parseIdentOrString();
      return { kind: 'alterSystem', action: { op: 'renameComputeGroup', oldName, newName }, pos: start.pos, end: this.lastEnd };
    }
    const word = (Object.keys(BACKEND_OPS) as (keyof typeof BACKEND_OPS)[]).find((name) => this.isWord(name));
    if (word === undefined) throw this.unsupported(`ALTER SYSTEM ${this.tok.text.toUpperCase()}`);
    this.advance();
    this.expectWord('BACKEND');
    const endpoints = [this.parseStringLiteral()];
    while (this.acceptOp(',')) endpoints.push(this.parseStringLiteral());
    const properties = word === 'ADD' && this.acceptWord('PROPERTIES') ? this.parseProperties() : {};
    return { kind: 'alterSystem', action: { op: BACKEND_OPS[word], endpoints, properties }, pos: start.pos, end: this.lastEnd };
  }

  /** At SET: whether this is SET PROPERTY. */
  protected isSetProperty(): boolean {
    return this.isWordAt(1, 'PROPERTY') && (this.peek(2).kind === TokenKind.String || this.isWordAt(2, 'FOR'));
  }

  /** At SET: SET PROPERTY [FOR 'user'] 'key' = 'value' [, ...]. */
  protected parseSetProperty(): SetPropertyStatement {
    const start = this.advance();
    this.expectWord('PROPERTY');
    // One string token: the key that follows is a string too (adjacent literals would concatenate).
    const user = this.acceptWord('FOR') ? (this.tok.kind === TokenKind.String ? this.advance().text : this.parseIdent()) : null;
    const properties: [string, string][] = [];
    do {
      const key = this.parseStringLiteral();
      this.expectOp('=');
      properties.push([key, this.parseStringLiteral()]);
    } while (this.acceptOp(','));
    return { kind: 'setProperty', user, properties, pos: start.pos, end: this.lastEnd };
  }
}
