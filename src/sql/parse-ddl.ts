/**
 * DDL grammar: CREATE/DROP DATABASE, CREATE TABLE (columns, indexes, key model, partitioning (parse-partition.ts),
 * distribution, properties, CTAS, LIKE), DROP/TRUNCATE/ALTER TABLE, CREATE/DROP INDEX (as ALTER actions).
 *
 * Column options follow Doris: `name type [KEY] [agg] [NULL|NOT NULL] [AUTO_INCREMENT[(n)]]
 * [DEFAULT v] [ON UPDATE CURRENT_TIMESTAMP] [COMMENT 'c']`, accepted in any order, each at most once.
 * DISTRIBUTED BY without BUCKETS means BUCKETS AUTO.
 */
import type {
  AlterTableAction, AlterTableStatement, ColumnDef, CreateDatabaseStatement, CreateTableStatement,
  DropDatabaseStatement, DropTableStatement, Expr, IndexDef, PartitionDesc, QueryExpr, Statement, TruncateTableStatement,
} from './ast';
import type { DataType } from '../common/types';
import { AGGREGATION_TYPES } from './keywords';
import { Token, TokenKind } from './lexer';
import { PartitionParser } from './parse-partition';

type Distribution = CreateTableStatement['distribution'];

export abstract class DdlParser extends PartitionParser {
  /** After CREATE: DATABASE/SCHEMA, TABLE, INDEX (USER is handled by the statement layer). */
  protected parseCreateDdl(start: Token): Statement | null {
    if (this.isWord('DATABASE') || this.isWord('SCHEMA')) return this.parseCreateDatabase(start);
    if (this.isWord('TABLE')) return this.parseCreateTable(start);
    if (this.isWord('INDEX')) return this.parseCreateIndex(start);
    return null;
  }

  /** After DROP: DATABASE/SCHEMA, TABLE, INDEX. */
  protected parseDropDdl(start: Token): Statement | null {
    if (this.isWord('DATABASE') || this.isWord('SCHEMA')) {
      this.advance();
      const ifExists = this.acceptWords('IF', 'EXISTS');
      const name = this.parseIdent();
      const force = this.acceptWord('FORCE');
      const stmt: DropDatabaseStatement = { kind: 'dropDatabase', name, ifExists, force, pos: start.pos, end: this.lastEnd };
      return stmt;
    }
    if (this.isWord('TABLE')) {
      this.advance();
      const ifExists = this.acceptWords('IF', 'EXISTS');
      const { database, name } = this.parseQualifiedName();
      if (this.isOp(',')) throw this.unsupported('DROP TABLE with several tables');
      const force = this.acceptWord('FORCE');
      const stmt: DropTableStatement = { kind: 'dropTable', database, name, ifExists, force, pos: start.pos, end: this.lastEnd };
      return stmt;
    }
    if (this.isWord('INDEX')) {
      this.advance();
      const ifExists = this.acceptWords('IF', 'EXISTS');
      if (ifExists) throw this.unsupported('DROP INDEX IF EXISTS');
      const indexName = this.parseIdent();
      this.expectWord('ON');
      const { database, name } = this.parseQualifiedName();
      const stmt: AlterTableStatement = {
        kind: 'alterTable', database, name, actions: [{ kind: 'dropIndex', name: indexName }], pos: start.pos, end: this.lastEnd,
      };
      return stmt;
    }
    return null;
  }

  private parseCreateDatabase(start: Token): CreateDatabaseStatement {
    this.advance();
    const ifNotExists = this.acceptWords('IF', 'NOT', 'EXISTS');
    const name = this.parseIdent();
    const properties = this.acceptWord('PROPERTIES') ? this.parseProperties() : {};
    return { kind: 'createDatabase', name, ifNotExists, properties, pos: start.pos, end: this.lastEnd };
  }

  /** CREATE INDEX name ON t (cols) [USING type] [PROPERTIES(...)] [COMMENT '...'] -> ALTER TABLE ADD INDEX. */
  private parseCreateIndex(start: Token): AlterTableStatement {
    const indexStart = this.advance();
    if (this.acceptWords('IF', 'NOT', 'EXISTS')) throw this.unsupported('CREATE INDEX IF NOT EXISTS');
    const indexName = this.parseIdent();
    this.expectWord('ON');
    const { database, name } = this.parseQualifiedName();
    const index = this.finishIndexDef(indexStart.pos, indexName);
    return { kind: 'alterTable', database, name, actions: [{ kind: 'addIndex', index }], pos: start.pos, end: this.lastEnd };
  }

  private parseCreateTable(start: Token): CreateTableStatement {
    this.advance();
    const ifNotExists = this.acceptWords('IF', 'NOT', 'EXISTS');
    const { database, name } = this.parseQualifiedName();
    if (this.acceptWord('LIKE')) {
      const like = this.parseQualifiedName();
      return this.makeCreateTable(start, database, name, ifNotExists, { like });
    }
    const columns: ColumnDef[] = [];
    const indexes: IndexDef[] = [];
    if (this.isOp('(')) {
      this.advance();
      do {
        if (this.isWord('INDEX')) {
          const indexStart = this.advance();
          indexes.push(this.finishIndexDef(indexStart.pos, this.parseIdent()));
        } else if (this.isWord('PRIMARY') || this.isWord('KEY') || this.isWord('UNIQUE') || this.isWord('CONSTRAINT')) {
          throw this.unsupported(`${this.tok.upper} constraints inside the column list (use DUPLICATE/UNIQUE/AGGREGATE KEY(...) after it)`);
        } else {
          columns.push(this.parseColumnDef());
        }
      } while (this.acceptOp(','));
      this.expectOp(')');
    }
    let engine: string | null = null;
    let keysType: CreateTableStatement['keysType'] = null;
    let keys: string[] = [];
    let comment: string | null = null;
    let partitionBy: string | null = null;
    let partition: PartitionDesc | null = null;
    let distribution: Distribution = null;
    let properties: Record<string, string> = {};
    let asQuery: QueryExpr | null = null;
    // clauses in Doris order; each optional
    if (this.acceptWord('ENGINE')) {
      this.acceptOp('=');
      engine = this.parseIdent();
    }
    if (this.isWord('DUPLICATE') || this.isWord('UNIQUE') || this.isWord('AGGREGATE')) {
      keysType = this.advance().upper as 'DUPLICATE' | 'UNIQUE' | 'AGGREGATE';
      this.expectWord('KEY');
      keys = this.parseIdentList();
    }
    if (this.acceptWord('COMMENT')) {
      this.acceptOp('=');
      comment = this.parseStringLiteral();
    }
    if (this.isWord('PARTITION') || (this.isWord('AUTO') && this.isWordAt(1, 'PARTITION'))) {
      const parsed = this.parsePartitionDesc();
      partitionBy = parsed.text;
      partition = parsed.desc;
    }
    if (this.acceptWord('DISTRIBUTED')) {
      distribution = this.parseDistribution();
    }
    if (this.isWord('ROLLUP')) throw this.unsupported('ROLLUP');
    if (this.acceptWord('PROPERTIES')) properties = this.parseProperties();
    if (this.acceptWord('AS')) {
      asQuery = this.parseQueryExpr();
    } else if (this.isWord('SELECT') || this.isOp('(')) {
      asQuery = this.parseQueryExpr();
    }
    if (columns.length === 0 && asQuery === null) throw this.error('expected a column list');
    return this.makeCreateTable(start, database, name, ifNotExists, {
      columns, indexes, engine, keysType, keys, comment, partitionBy, partition, distribution, properties, asQuery,
    });
  }

  private makeCreateTable(
    start: Token, database: string | null, name: string, ifNotExists: boolean, parts: Partial<CreateTableStatement>,
  ): CreateTableStatement {
    return {
      kind: 'createTable', database, name, ifNotExists,
      columns: parts.columns ?? [], indexes: parts.indexes ?? [], keysType: parts.keysType ?? null, keys: parts.keys ?? [],
      comment: parts.comment ?? null, partitionBy: parts.partitionBy ?? null, partition: parts.partition ?? null, distribution: parts.distribution ?? null,
      properties: parts.properties ?? {}, engine: parts.engine ?? null, asQuery: parts.asQuery ?? null, like: parts.like ?? null,
      pos: start.pos, end: this.lastEnd,
    };
  }

  /** After DISTRIBUTED: BY HASH(cols) | BY RANDOM, then [BUCKETS n|AUTO]. */
  private parseDistribution(): Distribution {
    this.expectWord('BY');
    let type: 'HASH' | 'RANDOM';
    let columns: string[] = [];
    if (this.acceptWord('HASH')) {
      type = 'HASH';
      columns = this.parseIdentList();
    } else if (this.acceptWord('RANDOM')) {
      type = 'RANDOM';
    } else {
      throw this.error('expected HASH or RANDOM');
    }
    let buckets: number | 'AUTO' = 'AUTO';
    if (this.acceptWord('BUCKETS')) {
      if (!this.acceptWord('AUTO')) {
        const countToken = this.tok;
        buckets = this.parseUnsignedInt();
        if (buckets < 1) throw this.error('BUCKETS must be at least 1', countToken);
      }
    }
    return { type, columns, buckets };
  }

  /** Column definition: name type [options]. */
  protected parseColumnDef(): ColumnDef {
    const start = this.tok;
    const name = this.parseIdent();
    const type: DataType = this.parseDataTypeSyntax(false);
    let nullable: boolean | null = null;
    let defaultValue: Expr | undefined;
    let comment: string | null = null;
    let aggregation: string | null = null;
    let autoIncrement: number | null = null;
    let generated: { expr: Expr; text: string } | undefined;
    let onUpdate = false;
    while (true) {
      const token = this.tok;
      const upper = token.upper;
      if (upper === 'NOT' && this.isWordAt(1, 'NULL')) {
        if (nullable !== null) throw this.error('NULL / NOT NULL given twice');
        this.advance();
        this.advance();
        nullable = false;
      } else if (upper === 'NULL') {
        if (nullable !== null) throw this.error('NULL / NOT NULL given twice');
        this.advance();
        nullable = true;
      } else if (upper === 'KEY') {
        this.advance(); // old Doris syntax marking a key column; the key list after the columns decides
      } else if (AGGREGATION_TYPES.has(upper) && aggregation === null && token.kind === TokenKind.Word) {
        this.advance();
        aggregation = upper;
      } else if (upper === 'AUTO_INCREMENT') {
        this.advance();
        autoIncrement = 1;
        if (this.isOp('(')) {
          this.advance();
          autoIncrement = this.parseUnsignedInt();
          this.expectOp(')');
        }
      } else if (upper === 'AS' || (upper === 'GENERATED' && this.isWordAt(1, 'ALWAYS'))) {
        if (generated !== undefined) throw this.error('AS (expression) given twice');
        if (upper === 'GENERATED') {
          this.advance();
          this.advance();
          this.expectWord('AS');
        } else {
          this.advance();
        }
        const open = this.tok;
        this.expectOp('(');
        const expr = this.parseExpr();
        this.expectOp(')');
        generated = { expr, text: this.sql.slice(open.pos + 1, this.lastEnd - 1).trim() };
        if (this.isWord('STORED') || this.isWord('VIRTUAL')) {
          if (this.tok.upper === 'VIRTUAL') throw this.unsupported('VIRTUAL generated columns (Doris stores them)');
          this.advance();
        }
      } else if (upper === 'DEFAULT') {
        if (defaultValue !== undefined) throw this.error('DEFAULT given twice');
        this.advance();
        defaultValue = this.parseUnary();
      } else if (upper === 'ON' && this.isWordAt(1, 'UPDATE')) {
        this.advance();
        this.advance();
        const value = this.parseUnary();
        if (value.kind !== 'call' || value.name.toUpperCase() !== 'CURRENT_TIMESTAMP') throw this.error('expected CURRENT_TIMESTAMP', token);
        onUpdate = true;
      } else if (upper === 'COMMENT') {
        if (comment !== null) throw this.error('COMMENT given twice');
        this.advance();
        comment = this.parseStringLiteral();
      } else if ((upper === 'CHARACTER' && this.isWordAt(1, 'SET')) || upper === 'CHARSET' || upper === 'COLLATE') {
        this.skipCharset();
      } else if (upper === 'PRIMARY' || upper === 'UNIQUE' || upper === 'REFERENCES' || upper === 'CHECK') {
        throw this.unsupported(`${upper} column constraint`);
      } else {
        break;
      }
    }
    const column: ColumnDef = {
      name, type, nullable: nullable ?? true, comment, aggregation, autoIncrement, pos: start.pos, end: this.lastEnd,
    };
    if (defaultValue !== undefined) (column as { defaultValue?: Expr }).defaultValue = defaultValue;
    if (generated !== undefined) (column as { generated?: ColumnDef['generated'] }).generated = generated;
    if (onUpdate) (column as { onUpdateCurrentTimestamp?: boolean }).onUpdateCurrentTimestamp = true;
    return column;
  }

  /** After `INDEX name`: (cols) [USING type] [PROPERTIES(...)] [COMMENT '...']. */
  protected finishIndexDef(pos: number, name: string): IndexDef {
    const columns = this.parseIdentList();
    let indexType = 'INVERTED';
    if (this.acceptWord('USING')) {
      if (this.tok.kind !== TokenKind.Word) throw this.error('expected an index type');
      indexType = this.advance().upper;
    }
    const properties = this.acceptWord('PROPERTIES') ? this.parseProperties() : {};
    const comment = this.acceptWord('COMMENT') ? this.parseStringLiteral() : null;
    return { name, columns, indexType, properties, comment, pos, end: this.lastEnd };
  }

  /** ALTER TABLE [db.]t action [, action ...]. */
  protected parseAlterTable(start: Token): AlterTableStatement {
    this.expectWord('TABLE');
    const { database, name } = this.parseQualifiedName();
    const actions: AlterTableAction[] = [];
    do {
      actions.push(this.parseAlterAction());
    } while (this.acceptOp(','));
    return { kind: 'alterTable', database, name, actions, pos: start.pos, end: this.lastEnd };
  }

  private parseAlterAction(): AlterTableAction {
    const token = this.tok;
    switch (token.upper) {
      case 'SET':
        this.advance();
        return { kind: 'setProperties', properties: this.parseProperties() };
      case 'DISABLE':
      case 'ENABLE':
        this.advance();
        this.expectWord('KEYS');
        return { kind: 'keys', enable: token.upper === 'ENABLE' };
      case 'ADD': {
        this.advance();
        if (this.isWord('INDEX')) {
          const indexStart = this.advance();
          return { kind: 'addIndex', index: this.finishIndexDef(indexStart.pos, this.parseIdent()) };
        }
        if (this.isWord('PARTITION')) {
          const { item, ifNotExists } = this.parsePartitionItem();
          let buckets: number | null = null;
          if (this.acceptWord('DISTRIBUTED')) {
            const distribution = this.parseDistribution();
            if (distribution !== null && distribution.buckets !== 'AUTO') buckets = distribution.buckets;
          }
          return { kind: 'addPartition', item, ifNotExists, buckets };
        }
        this.acceptWord('COLUMN');
        if (this.isOp('(')) throw this.unsupported('ADD COLUMN (several columns)');
        const column = this.parseColumnDef();
        let after: string | null = null;
        if (this.acceptWord('AFTER')) after = this.parseIdent();
        else if (this.isWord('FIRST')) throw this.unsupported('ADD COLUMN ... FIRST');
        if (this.isWord('TO') || this.isWord('IN')) throw this.unsupported('ADD COLUMN ... TO rollup');
        return { kind: 'addColumn', column, after };
      }
      case 'DROP': {
        this.advance();
        if (this.acceptWord('INDEX')) return { kind: 'dropIndex', name: this.parseIdent() };
        if (this.acceptWord('PARTITION')) {
          const ifExists = this.acceptWords('IF', 'EXISTS');
          const name = this.parseIdent();
          this.acceptWord('FORCE');
          return { kind: 'dropPartition', name, ifExists };
        }
        this.acceptWord('COLUMN');
        return { kind: 'dropColumn', name: this.parseIdent() };
      }
      case 'MODIFY': {
        this.advance();
        this.acceptWord('COLUMN');
        const column = this.parseColumnDef();
        if (this.isWord('AFTER') || this.isWord('FIRST')) throw this.unsupported(`MODIFY COLUMN ... ${this.tok.upper}`);
        return { kind: 'modifyColumn', column };
      }
      case 'RENAME': {
        this.advance();
        if (this.isWord('COLUMN') || this.isWord('INDEX') || this.isWord('PARTITION') || this.isWord('ROLLUP')) {
          throw this.unsupported(`RENAME ${this.tok.upper}`);
        }
        if (!this.acceptWord('TO')) this.acceptWord('AS');
        return { kind: 'renameTable', newName: this.parseIdent() };
      }
      default:
        throw this.error('expected SET, ADD, DROP, MODIFY or RENAME');
    }
  }

  /** TRUNCATE [TABLE] [db.]t. */
  protected parseTruncate(start: Token): TruncateTableStatement {
    this.acceptWord('TABLE');
    const { database, name } = this.parseQualifiedName();
    if (this.acceptWord('PARTITION') || this.acceptWord('PARTITIONS')) {
      const partitions = this.isOp('(') ? this.parseIdentList() : [this.parseIdent()];
      return { kind: 'truncateTable', database, name, partitions, pos: start.pos, end: this.lastEnd };
    }
    return { kind: 'truncateTable', database, name, pos: start.pos, end: this.lastEnd };
  }
}
