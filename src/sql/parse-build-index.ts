/**
 * Index build grammar (Doris): `BUILD INDEX idx ON [db.]t` and `CANCEL BUILD INDEX ON [db.]t`.
 * `SHOW BUILD INDEX [FROM db] [WHERE ...] [ORDER BY ...] [LIMIT n]` is a SHOW_SPECS entry (parser.ts).
 * The statement layer dispatches BUILD and CANCEL BUILD here.
 */
import type { BuildIndexStatement, CancelBuildIndexStatement } from './ast';
import type { Token } from './lexer';
import { AdminParser } from './parse-admin';

export abstract class BuildIndexParser extends AdminParser {
  /** After BUILD: INDEX name ON [db.]t. */
  protected parseBuildIndex(start: Token): BuildIndexStatement {
    this.expectWord('INDEX');
    const index = this.parseIdent();
    this.expectWord('ON');
    const { database, name } = this.parseQualifiedName();
    if (this.isWord('PARTITION') || this.isWord('PARTITIONS')) throw this.unsupported('BUILD INDEX ... PARTITION (tables have one partition)');
    return { kind: 'buildIndex', index, database, table: name, pos: start.pos, end: this.lastEnd };
  }

  /** After CANCEL: BUILD INDEX ON [db.]t. */
  protected parseCancelBuildIndex(start: Token): CancelBuildIndexStatement {
    this.expectWord('BUILD');
    this.expectWord('INDEX');
    this.expectWord('ON');
    const { database, name } = this.parseQualifiedName();
    return { kind: 'cancelBuildIndex', database, table: name, pos: start.pos, end: this.lastEnd };
  }
}
