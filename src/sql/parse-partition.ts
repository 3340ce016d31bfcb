/**
 * Partition grammar (Doris): `[AUTO] PARTITION BY RANGE|LIST (cols) (items)` in CREATE TABLE, the item
 * forms `PARTITION [IF NOT EXISTS] p VALUES LESS THAN (v, ...) | MAXVALUE`, `VALUES [(v, ...), (v, ...))`,
 * `FROM (v) TO (v) INTERVAL n [unit]` and `VALUES IN ((v, ...), ...)`; `AUTO PARTITION BY RANGE
 * (date_trunc(col, 'unit')) ()`; ALTER TABLE's ADD / DROP PARTITION use the item parser.
 */
import type { PartitionDesc, PartitionItemDef, PartitionValueDef } from './ast';
import { TokenKind } from './lexer';
import { QueryParser } from './parse-query';

export abstract class PartitionParser extends QueryParser {
  /** At `[AUTO] PARTITION BY`: the clause parsed, and its source text. */
  protected parsePartitionDesc(): { desc: PartitionDesc; text: string } {
    const startPos = this.tok.pos;
    const auto = this.acceptWord('AUTO');
    this.expectWord('PARTITION');
    this.expectWord('BY');
    let type: 'RANGE' | 'LIST';
    if (this.acceptWord('RANGE')) type = 'RANGE';
    else if (this.acceptWord('LIST')) type = 'LIST';
    else throw this.error('expected RANGE or LIST');
    let autoUnit: string | null = null;
    const columns: string[] = [];
    this.expectOp('(');
    do {
      if (this.isIdent() && this.isOpAt(1, '(')) {
        // AUTO PARTITION BY RANGE (date_trunc(col, 'unit')): the only partition function Doris takes.
        const fn = this.tok;
        if (this.parseIdent().toLowerCase() !== 'date_trunc') throw this.unsupported(`partition function ${fn.text}`, fn);
        this.expectOp('(');
        columns.push(this.parseIdent());
        this.expectOp(',');
        autoUnit = this.parseStringLiteral().toLowerCase();
        this.expectOp(')');
      } else {
        columns.push(this.parseIdent());
      }
    } while (this.acceptOp(','));
    this.expectOp(')');
    const items: PartitionItemDef[] = [];
    this.expectOp('(');
    if (!this.isOp(')')) {
      do items.push(this.parsePartitionItem().item);
      while (this.acceptOp(','));
    }
    this.expectOp(')');
    return { desc: { type, auto, columns, autoUnit, items }, text: this.sql.slice(startPos, this.lastEnd) };
  }

  /** One partition item; `ifNotExists` for ALTER TABLE ADD PARTITION IF NOT EXISTS. */
  protected parsePartitionItem(): { item: PartitionItemDef; ifNotExists: boolean } {
    if (this.acceptWord('FROM')) {
      const from = this.parsePartitionTuple();
      this.expectWord('TO');
      const to = this.parsePartitionTuple();
      this.expectWord('INTERVAL');
      const interval = this.parseUnsignedInt();
      const unit = this.isIdent() && !this.isOp(',') ? this.parseIdent().toUpperCase() : null;
      return { item: { kind: 'batch', from, to, interval, unit }, ifNotExists: false };
    }
    this.expectWord('PARTITION');
    const ifNotExists = this.acceptWords('IF', 'NOT', 'EXISTS');
    const name = this.parseIdent();
    this.expectWord('VALUES');
    let item: PartitionItemDef;
    if (this.acceptWord('LESS')) {
      this.expectWord('THAN');
      item = this.acceptWord('MAXVALUE') ? { kind: 'lessThan', name, upper: [{ kind: 'max' }] } : { kind: 'lessThan', name, upper: this.parsePartitionTuple() };
    } else if (this.acceptOp('[')) {
      const lower = this.parsePartitionTuple();
      this.expectOp(',');
      const upper = this.parsePartitionTuple();
      this.expectOp(')');
      item = { kind: 'fixedRange', name, lower, upper };
    } else if (this.acceptWord('IN')) {
      this.expectOp('(');
      const values: PartitionValueDef[][] = [];
      do {
        if (this.isOp('(')) values.push(this.parsePartitionTuple());
        else values.push([this.parsePartitionValue()]);
      } while (this.acceptOp(','));
      this.expectOp(')');
      item = { kind: 'in', name, values };
    } else {
      throw this.error('expected LESS THAN, [ or IN');
    }
    if (this.isOp('(')) throw this.unsupported('partition properties');
    return { item, ifNotExists };
  }

  /** `(v, ...)`. */
  private parsePartitionTuple(): PartitionValueDef[] {
    this.expectOp('(');
    const values: PartitionValueDef[] = [];
    do values.push(this.parsePartitionValue());
    while (this.acceptOp(','));
    this.expectOp(')');
    return values;
  }

  /** A string or number literal (its text), NULL, MAXVALUE or MINVALUE. */
  private parsePartitionValue(): PartitionValueDef {
    if (this.tok.kind === TokenKind.String) return { kind: 'value', text: this.parseStringLiteral() };
    if (this.acceptWord('MAXVALUE')) return { kind: 'max' };
    if (this.acceptWord('MINVALUE')) return { kind: 'min' };
    if (this.acceptWord('NULL')) return { kind: 'null' };
    const negative = this.acceptOp('-');
    if (this.tok.kind === TokenKind.Number) return { kind: 'value', text: (negative ? '-' : '') + this.advance().text };
    throw this.error('expected a partition value');
  }
}
