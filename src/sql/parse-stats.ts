/**
 * Statistics grammar (Doris): `ANALYZE TABLE [db.]t [(col, ...)] [WITH SYNC]`, `SHOW COLUMN STATS [db.]t
 * [(col, ...)]`, `SHOW TABLE STATS [db.]t`, `DROP STATS [db.]t [(col, ...)]`. Doris's sampling, partition
 * and database forms are recognised and refused with UNSUPPORTED. parser.ts dispatches here after the
 * first word.
 */
import { GaleneError } from '../common/errors';
import type { StatsStatement } from './ast';
import type { Token } from './lexer';
import { ViewParser } from './parse-view';

export abstract class StatsParser extends ViewParser {
  /** At `COLUMN [CACHED] STATS` or `TABLE STATS` after SHOW. */
  protected isShowStats(): boolean {
    return (this.isWord('COLUMN') && (this.isWordAt(1, 'STATS') || (this.isWordAt(1, 'CACHED') && this.isWordAt(2, 'STATS')))) || (this.isWord('TABLE') && this.isWordAt(1, 'STATS'));
  }

  /** After SHOW, at COLUMN / TABLE (isShowStats). */
  protected parseShowStats(start: Token): StatsStatement {
    if (this.acceptWord('TABLE')) {
      this.expectWord('STATS');
      const { database, name } = this.parseQualifiedName();
      return { kind: 'stats', action: 'showTableStats', database, table: name, columns: null, sync: false, pos: start.pos, end: this.lastEnd };
    }
    this.expectWord('COLUMN');
    // CACHED: Doris's FE cache of the persisted statistics; Galene's are read from the meta store either way.
    this.acceptWord('CACHED');
    this.expectWord('STATS');
    const { database, name } = this.parseQualifiedName();
    const columns = this.parseStatsColumns();
    return { kind: 'stats', action: 'showColumnStats', database, table: name, columns, sync: false, pos: start.pos, end: this.lastEnd };
  }

  /** After ANALYZE (the start token, not yet consumed). */
  protected parseAnalyze(start: Token): StatsStatement {
    this.advance();
    if (this.isWord('DATABASE')) throw new GaleneError('UNSUPPORTED', ['ANALYZE DATABASE']);
    this.expectWord('TABLE');
    const { database, name } = this.parseQualifiedName();
    if (this.isWord('PARTITION') || this.isWord('PARTITIONS')) throw new GaleneError('UNSUPPORTED', ['ANALYZE TABLE ... PARTITIONS']);
    const columns = this.parseStatsColumns();
    let sync = false;
    while (this.acceptWord('WITH')) {
      if (this.acceptWord('SYNC')) sync = true;
      else if (this.isWord('SAMPLE')) throw new GaleneError('UNSUPPORTED', ['ANALYZE ... WITH SAMPLE']);
      else if (this.isWord('HISTOGRAM')) throw new GaleneError('UNSUPPORTED', ['ANALYZE ... WITH HISTOGRAM']);
      else throw this.error();
    }
    if (this.isWord('PROPERTIES')) throw new GaleneError('UNSUPPORTED', ['ANALYZE ... PROPERTIES']);
    return { kind: 'stats', action: 'analyze', database, table: name, columns, sync, pos: start.pos, end: this.lastEnd };
  }

  /** After DROP, at STATS. */
  protected parseDropStats(start: Token): StatsStatement {
    this.expectWord('STATS');
    const { database, name } = this.parseQualifiedName();
    const columns = this.parseStatsColumns();
    return { kind: 'stats', action: 'dropStats', database, table: name, columns, sync: false, pos: start.pos, end: this.lastEnd };
  }

  /** An optional `(col, ...)`. */
  private parseStatsColumns(): string[] | null {
    if (!this.acceptOp('(')) return null;
    const columns: string[] = [];
    do columns.push(this.parseIdent());
    while (this.acceptOp(','));
    this.expectOp(')');
    return columns;
  }
}
