/**
 * The SQL parser's public entry points and the statement layer (dispatch, DML, SHOW, SET, users,
 * transactions, prepared statements, KILL).
 *
 * The grammar is MySQL's with Doris's extensions, split over parse-*.ts layers (data types ->
 * expressions -> queries -> DDL -> statements here). Every node carries `pos`/`end` offsets into the text
 * given to the entry point. The only error ever thrown is GaleneError: SYNTAX_ERROR (MySQL errno 1064,
 * naming the offending text and its line/column), UNSUPPORTED for recognised but unimplemented syntax,
 * INVALID_TABLE_DEFINITION for out-of-range type parameters. Called by the FE session (statements),
 * the catalog (DEFAULT values, types) and Stream Load (`where`/`columns` headers).
 */
import { GaleneError } from '../common/errors';
import type { DataType } from '../common/types';
import type {
  DeleteStatement, DescribeStatement, Expr, ExplainStatement, InsertStatement, LimitClause, QueryExpr,
  SetAssignment, SetStatement, ShowStatement, Statement, UpdateStatement, UserIdentity,
} from './ast';
import { syntaxErrorAt, Token, TokenKind } from './lexer';
import type { ParseOptions } from './parse-base';
import { AlterSystemParser } from './parse-alter-system';

/** How a SHOW form takes its arguments. */
interface ShowSpec {
  /** Words after SHOW (upper case) that select this form; synonyms map to one `what`. */
  readonly words: readonly string[];
  readonly what: string;
  /** 'from': FROM|IN [db.]t required; 'fromOptional': optional FROM [db.]t; 'name': [db.]name right after; 'dbName': a database name right after. */
  readonly target?: 'from' | 'fromOptional' | 'name' | 'dbName';
  /** Accepts [FROM|IN db]. */
  readonly database?: boolean;
  readonly like?: boolean;
  readonly where?: boolean;
  readonly limit?: boolean;
  /** A string argument: 'optional' or 'required'. */
  readonly path?: 'optional' | 'required';
  /** Accepts ORDER BY col [ASC|DESC], ... (before LIMIT). */
  readonly orderBy?: boolean;
  /** Accepts PARTITION (p, ...) / PARTITIONS (...) / PARTITION p after the target. */
  readonly partitions?: boolean;
}

/** Longest phrases first so `TABLE STATUS` wins over `TABLES`. */
const SHOW_SPECS: readonly ShowSpec[] = [
  { words: ['CREATE', 'TABLE'], what: 'create table', target: 'name' },
  { words: ['CREATE', 'VIEW'], what: 'create view', target: 'name' },
  { words: ['CREATE', 'DATABASE'], what: 'create database', target: 'dbName' },
  { words: ['CREATE', 'SCHEMA'], what: 'create database', target: 'dbName' },
  { words: ['QUERY', 'PROFILE'], what: 'query profile', path: 'optional', limit: true },
  { words: ['TABLE', 'STATUS'], what: 'table status', database: true, like: true, where: true },
  { words: ['COMPUTE', 'GROUPS'], what: 'compute groups', like: true },
  { words: ['CHARACTER', 'SET'], what: 'charset', like: true, where: true },
  { words: ['DATABASES'], what: 'databases', like: true, where: true },
  { words: ['SCHEMAS'], what: 'databases', like: true, where: true },
  { words: ['TABLES'], what: 'tables', database: true, like: true, where: true },
  { words: ['COLUMNS'], what: 'columns', target: 'from', database: true, like: true, where: true },
  { words: ['FIELDS'], what: 'columns', target: 'from', database: true, like: true, where: true },
  { words: ['VARIABLES'], what: 'variables', like: true, where: true },
  { words: ['STATUS'], what: 'status', like: true, where: true },
  { words: ['STREAM', 'LOAD'], what: 'stream load', database: true, where: true, orderBy: true, limit: true },
  { words: ['FRONTEND', 'CONFIG'], what: 'frontend config', like: true },
  { words: ['BACKEND', 'CONFIG'], what: 'backend config', like: true },
  { words: ['LOAD'], what: 'load', database: true, where: true, orderBy: true, limit: true },
  { words: ['TRANSACTION'], what: 'transaction', database: true, where: true },
  { words: ['PROCESSLIST'], what: 'processlist' },
  { words: ['WARNINGS'], what: 'warnings', limit: true },
  { words: ['ERRORS'], what: 'errors', limit: true },
  { words: ['BUILD', 'INDEX'], what: 'build index', database: true, where: true, orderBy: true, limit: true },
  { words: ['INDEX'], what: 'index', target: 'from', database: true },
  { words: ['INDEXES'], what: 'index', target: 'from', database: true },
  { words: ['KEYS'], what: 'index', target: 'from', database: true },
  { words: ['FUNCTIONS'], what: 'functions', database: true, like: true },
  { words: ['TABLETS'], what: 'tablets', target: 'from', partitions: true, where: true, limit: true },
  { words: ['BACKENDS'], what: 'backends' },
  { words: ['FRONTENDS'], what: 'frontends' },
  { words: ['GRANTS'], what: 'grants' },
  { words: ['ENGINES'], what: 'engines' },
  { words: ['CHARSET'], what: 'charset', like: true, where: true },
  { words: ['COLLATION'], what: 'collation', like: true, where: true },
  { words: ['PROC'], what: 'proc', path: 'required' },
  { words: ['DATA'], what: 'data', target: 'fromOptional', orderBy: true },
  { words: ['PARTITIONS'], what: 'partitions', target: 'from', where: true, limit: true },
  { words: ['PROPERTY'], what: 'property', like: true },
  { words: ['PLUGINS'], what: 'plugins' },
  { words: ['TRIGGERS'], what: 'triggers', database: true, like: true, where: true },
  { words: ['EVENTS'], what: 'events', database: true, like: true, where: true },
  { words: ['PRIVILEGES'], what: 'privileges' },
  { words: ['ROLES'], what: 'roles' },
  { words: ['CATALOGS'], what: 'catalogs' },
  { words: ['STORAGE', 'VAULTS'], what: 'storage vaults' },
  { words: ['STORAGE', 'VAULT'], what: 'storage vaults' },
];

/** Transaction isolation levels as `transaction_isolation` values. */
const ISOLATION_LEVELS: readonly [readonly string[], string][] = [
  [['READ', 'UNCOMMITTED'], 'READ-UNCOMMITTED'],
  [['READ', 'COMMITTED'], 'READ-COMMITTED'],
  [['REPEATABLE', 'READ'], 'REPEATABLE-READ'],
  [['SERIALIZABLE'], 'SERIALIZABLE'],
];

class StatementParser extends AlterSystemParser {
  /** Every statement up to the end of input; empty statements between `;` are skipped. */
  parseAll(): Statement[] {
    const statements: Statement[] = [];
    while (true) {
      while (this.acceptOp(';'));
      if (this.atEnd()) return statements;
      statements.push(this.parseOne());
      if (!this.atEnd() && !this.isOp(';')) throw this.error();
    }
  }

  /** One statement (with an optional trailing `;`) and nothing else. */
  parseSingle(): Statement {
    while (this.acceptOp(';'));
    if (this.atEnd()) throw this.error();
    const statement = this.parseOne();
    while (this.acceptOp(';'));
    if (!this.atEnd()) throw this.error();
    return statement;
  }

  parseStandaloneExpr(): Expr {
    const expr = this.parseExpr();
    if (!this.atEnd()) throw this.error();
    return expr;
  }

  parseStandaloneType(): DataType {
    const type = this.parseDataTypeSyntax(false);
    if (!this.atEnd()) throw this.error();
    return type;
  }

  private parseOne(): Statement {
    this.paramCount = 0;
    this.derivedCount = 0;
    this.depth = 0;
    return this.parseStatementBody();
  }

  private parseStatementBody(): Statement {
    const start = this.tok;
    if (start.kind === TokenKind.Op && start.text === '(') return this.parseQueryStatement();
    if (start.kind !== TokenKind.Word) throw this.error();
    switch (start.upper) {
      case 'SELECT':
      case 'VALUES':
      case 'WITH':
        return this.parseQueryStatement();
      case 'INSERT':
        return this.parseInsert();
      case 'DELETE':
        return this.parseDelete();
      case 'UPDATE':
        return this.parseUpdate();
      case 'CREATE': {
        this.advance();
        if (this.isStorageVault()) return this.parseCreateStorageVault(start);
        if (this.isView()) return this.parseCreateOrAlterView(start);
        const ddl = this.parseCreateDdl(start);
        if (ddl) return ddl;
        const account = this.parseCreateAccount(start);
        if (account) return account;
        throw this.error();
      }
      case 'DROP': {
        this.advance();
        if (this.isStorageVault()) this.refuseDropStorageVault();
        if (this.isView()) return this.parseDropView(start);
        if (this.isWord('STATS')) return this.parseDropStats(start);
        const ddl = this.parseDropDdl(start);
        if (ddl) return ddl;
        const account = this.parseDropAccount(start);
        if (account) return account;
        if (this.acceptWord('PREPARE')) return { kind: 'deallocate', name: this.parseIdent(), pos: start.pos, end: this.lastEnd };
        throw this.error();
      }
      case 'ALTER':
        this.advance();
        if (this.isWord('USER')) return this.parseAlterUser(start);
        if (this.isWord('SYSTEM')) return this.parseAlterSystem(start);
        if (this.isStorageVault()) return this.parseAlterStorageVault(start);
        if (this.isView()) return this.parseCreateOrAlterView(start);
        return this.parseAlterTable(start);
      case 'GRANT':
      case 'REVOKE':
        return this.parseGrant();
      case 'TRUNCATE':
        this.advance();
        return this.parseTruncate(start);
      case 'USE':
        return this.parseUse();
      case 'SHOW':
        if (this.isWordAt(1, 'COLUMN') || (this.isWordAt(1, 'TABLE') && this.isWordAt(2, 'STATS'))) {
          this.advance();
          if (this.isShowStats()) return this.parseShowStats(start);
          throw this.error();
        }
        return this.parseShow();
      case 'ANALYZE':
        return this.parseAnalyze(start);
      case 'DESC':
      case 'DESCRIBE':
      case 'EXPLAIN':
        return this.parseDescribeOrExplain();
      case 'SET':
        if (this.isSetProperty()) return this.parseSetProperty();
        return this.isSetDefaultStorageVault() ? this.parseSetDefaultStorageVault() : this.parseSet();
      case 'UNSET':
        return this.parseUnsetDefaultStorageVault();
      case 'BEGIN':
      case 'START':
      case 'COMMIT':
      case 'ROLLBACK':
        return this.parseTransaction();
      case 'PREPARE': {
        this.advance();
        const name = this.parseIdent();
        this.expectWord('FROM');
        const sourceToken = this.tok;
        let source: Expr;
        if (sourceToken.kind === TokenKind.String) {
          const value = this.parseStringLiteral();
          source = { kind: 'literal', literalType: 'string', value, pos: sourceToken.pos, end: this.lastEnd };
        } else if (sourceToken.kind === TokenKind.UserVar) {
          this.advance();
          source = { kind: 'variable', system: false, scope: null, name: sourceToken.text, pos: sourceToken.pos, end: sourceToken.end };
        } else {
          throw this.error('expected a string or @variable');
        }
        return { kind: 'prepare', name, source, pos: start.pos, end: this.lastEnd };
      }
      case 'EXECUTE': {
        this.advance();
        const name = this.parseIdent();
        const using = this.acceptWord('USING') ? this.parseExprList() : [];
        return { kind: 'execute', name, using, pos: start.pos, end: this.lastEnd };
      }
      case 'DEALLOCATE': {
        this.advance();
        this.expectWord('PREPARE');
        return { kind: 'deallocate', name: this.parseIdent(), pos: start.pos, end: this.lastEnd };
      }
      case 'SYNC':
        this.advance();
        return { kind: 'sync', pos: start.pos, end: this.lastEnd };
      case 'LOCK':
      case 'UNLOCK':
        return this.parseLockTables(start);
      case 'ADMIN':
        this.advance();
        return this.parseAdmin(start, () => this.parseShow());
      case 'CANCEL':
        this.advance();
        return this.isWord('BUILD') ? this.parseCancelBuildIndex(start) : this.parseCancel(start);
      case 'BUILD':
        this.advance();
        return this.parseBuildIndex(start);
      case 'HELP':
        this.advance();
        return this.parseHelp(start);
      case 'KILL': {
        this.advance();
        let target: 'CONNECTION' | 'QUERY' = 'CONNECTION';
        if (this.acceptWord('QUERY')) target = 'QUERY';
        else this.acceptWord('CONNECTION');
        const id = this.parseUnsignedInt();
        return { kind: 'kill', target, id, pos: start.pos, end: this.lastEnd };
      }
      default:
        throw this.error();
    }
  }

  private parseQueryStatement(): Statement {
    const query = this.parseQueryExpr();
    return { kind: 'query', query, pos: query.pos, end: query.end };
  }

  // ------------------------------------------------------------ DML

  /** INSERT INTO|OVERWRITE TABLE [db.]t [PARTITION ...] [WITH LABEL l] [(cols)] VALUES ... | query. */
  private parseInsert(): InsertStatement {
    const start = this.advance();
    let overwrite = false;
    if (this.acceptWord('OVERWRITE')) {
      overwrite = true;
      this.expectWord('TABLE');
    } else {
      if (this.isWord('IGNORE')) throw this.unsupported('INSERT IGNORE');
      this.expectWord('INTO');
      this.acceptWord('TABLE');
    }
    const { database, name } = this.parseQualifiedName();
    let partitions: readonly string[] | '*' | undefined;
    if (this.isWord('TEMPORARY') && this.isWordAt(1, 'PARTITION')) throw this.unsupported('INSERT ... TEMPORARY PARTITION');
    if (this.acceptWord('PARTITION') || this.acceptWord('PARTITIONS')) {
      if (this.isOp('(') && this.isOpAt(1, '*')) {
        this.advance();
        this.advance();
        this.expectOp(')');
        if (!overwrite) throw this.unsupported('INSERT INTO ... PARTITION (*)');
        partitions = '*';
      } else {
        partitions = this.isOp('(') ? this.parseIdentList() : [this.parseIdent()];
      }
    }
    let label: string | null = null;
    if (this.acceptWords('WITH', 'LABEL')) label = this.parseIdentOrString();
    let columns: string[] | null = null;
    if (this.isOp('(') && !this.isQueryKeyword(this.peek()) && !this.isOpAt(1, '(')) {
      columns = this.parseIdentList();
      if (label === null && this.acceptWords('WITH', 'LABEL')) label = this.parseIdentOrString();
    }
    let source: QueryExpr;
    if (this.isWord('VALUES') || this.isWord('VALUE')) source = this.parseValuesQuery(true);
    else source = this.parseQueryExpr();
    if (this.isWord('ON') && this.isWordAt(1, 'DUPLICATE')) throw this.unsupported('INSERT ... ON DUPLICATE KEY UPDATE');
    return { kind: 'insert', database, table: name, columns, source, label, overwrite, ...(partitions !== undefined ? { partitions } : {}), pos: start.pos, end: this.lastEnd };
  }

  private parseDelete(): DeleteStatement {
    const start = this.advance();
    this.expectWord('FROM');
    const { database, name } = this.parseQualifiedName();
    if (this.acceptWord('PARTITION')) {
      if (this.isOp('(')) this.parseIdentList();
      else this.parseIdent();
    }
    if (this.isWord('USING')) throw this.unsupported('DELETE ... USING');
    const where = this.acceptWord('WHERE') ? this.parseExpr() : null;
    if (this.isWord('ORDER') || this.isWord('LIMIT')) throw this.unsupported(`DELETE ... ${this.tok.upper}`);
    return { kind: 'delete', database, table: name, where, pos: start.pos, end: this.lastEnd };
  }

  private parseUpdate(): UpdateStatement {
    const start = this.advance();
    const { database, name } = this.parseQualifiedName();
    if (this.isIdent() && !this.isWord('SET')) this.advance(); // table alias (`UPDATE t x SET x.a = 1`)
    this.expectWord('SET');
    const assignments: { column: string; value: Expr }[] = [];
    do {
      let column = this.parseIdent();
      while (this.acceptOp('.')) column = this.parseAnyName();
      this.expectOp('=');
      assignments.push({ column, value: this.parseExpr() });
    } while (this.acceptOp(','));
    if (this.isWord('FROM')) throw this.unsupported('UPDATE ... FROM');
    const where = this.acceptWord('WHERE') ? this.parseExpr() : null;
    if (this.isWord('ORDER') || this.isWord('LIMIT')) throw this.unsupported(`UPDATE ... ${this.tok.upper}`);
    return { kind: 'update', database, table: name, assignments, where, pos: start.pos, end: this.lastEnd };
  }

  // ------------------------------------------------------------ USE / SHOW / DESCRIBE / EXPLAIN

  /** USE db | USE db@cg | USE @cg (compute group). */
  private parseUse(): Statement {
    const start = this.advance();
    let database: string | null = null;
    let computeGroup: string | null = null;
    if (this.tok.kind === TokenKind.UserVar) {
      computeGroup = this.advance().text;
    } else {
      database = this.parseIdent();
      const after = this.peek(0);
      if (after.kind === TokenKind.UserVar && after.pos === this.lastEnd) computeGroup = this.advance().text;
    }
    return { kind: 'use', database, computeGroup, pos: start.pos, end: this.lastEnd };
  }

  private parseShow(): ShowStatement {
    const start = this.advance();
    let full = false;
    let global = false;
    let all = false;
    while (true) {
      if (this.acceptWord('FULL')) full = true;
      else if (this.acceptWord('GLOBAL')) global = true;
      else if (this.isWord('SESSION') || this.isWord('LOCAL')) this.advance();
      else if (this.isWord('BUILTIN') && this.isWordAt(1, 'FUNCTIONS')) this.advance();
      else if (this.isWord('ALL') && (this.isWordAt(1, 'GRANTS') || this.isWordAt(1, 'PROPERTIES'))) all = this.advance() !== null;
      else break;
    }
    let spec: ShowSpec | undefined;
    for (const candidate of SHOW_SPECS) {
      let matches = true;
      for (let wordIdx = 0; wordIdx < candidate.words.length; wordIdx++) {
        if (this.peek(wordIdx).upper !== candidate.words[wordIdx]) {
          matches = false;
          break;
        }
      }
      if (matches) {
        spec = candidate;
        break;
      }
    }
    if (!spec) throw this.error('unknown SHOW statement');
    for (let wordIdx = 0; wordIdx < spec.words.length; wordIdx++) this.advance();

    let target: ShowStatement['target'] = null;
    let database: string | null = null;
    let like: string | null = null;
    let where: Expr | null = null;
    let path: string | null = null;
    let limit: LimitClause | null = null;

    if (spec.path !== undefined) {
      if (this.tok.kind === TokenKind.String) path = this.parseStringLiteral();
      else if (spec.path === 'required') throw this.error('expected a path string');
    }
    if (spec.target === 'name') {
      target = this.parseQualifiedName();
    } else if (spec.target === 'dbName') {
      const name = this.parseIdent();
      target = { database: null, name };
      database = name;
    } else if (spec.target === 'from' || spec.target === 'fromOptional') {
      if (this.acceptWord('FROM') || this.acceptWord('IN')) target = this.parseQualifiedName();
      else if (spec.target === 'from') throw this.error('expected FROM');
    }
    let partitions: string[] | undefined;
    if (spec.partitions && (this.acceptWord('PARTITION') || this.acceptWord('PARTITIONS'))) partitions = this.isOp('(') ? this.parseIdentList() : [this.parseIdent()];
    if (spec.database && (this.acceptWord('FROM') || this.acceptWord('IN'))) {
      database = this.parseIdent();
      if (target !== null && target.database === null) target = { database, name: target.name };
    }
    // SHOW PROPERTY FOR 'user' [LIKE 'key'] (Doris): the user is the target.
    if (spec.what === 'property' && this.acceptWord('FOR')) target = { database: null, name: this.parseIdentOrString() };
    if (spec.like && this.acceptWord('LIKE')) like = this.parseStringLiteral();
    else if (spec.where && this.acceptWord('WHERE')) where = this.parseExpr();
    let orderBy: ShowStatement['orderBy'];
    if (spec.orderBy && this.isWord('ORDER') && this.isWordAt(1, 'BY')) {
      this.advance();
      this.advance();
      orderBy = this.parseOrderByList();
    }
    if (spec.limit && this.isWord('LIMIT')) limit = this.parseLimit();
    // SHOW ALL GRANTS; SHOW GRANTS FOR 'u'@'h'.
    const forUser = spec.what === 'grants' && !all && this.acceptWord('FOR') ? this.parseUserIdentity() : null;
    const what = spec.what === 'grants' && all ? 'all grants' : spec.what;
    return { kind: 'show', what, full, global, target, database, like, where, path, limit, forUser, orderBy, ...(partitions ? { partitions } : {}), pos: start.pos, end: this.lastEnd };
  }

  /** DESC t [ALL] | EXPLAIN [VERBOSE|ANALYZE] stmt | DESC SELECT ... (an EXPLAIN). */
  private parseDescribeOrExplain(): Statement {
    const start = this.advance();
    let level: ExplainStatement['level'] = 'NORMAL';
    if (this.acceptWord('VERBOSE')) level = 'VERBOSE';
    else if (this.acceptWord('ANALYZE')) level = 'ANALYZE';
    else if (this.isWord('GRAPH') || this.isWord('PLAN') || this.isWord('FORMAT') || this.isWord('MEMO')) throw this.unsupported(`EXPLAIN ${this.tok.upper}`);
    const explainable = this.isWord('SELECT') || this.isWord('VALUES') || this.isWord('WITH') || this.isOp('(') ||
      this.isWord('INSERT') || this.isWord('UPDATE') || this.isWord('DELETE');
    if (level !== 'NORMAL' || explainable) {
      if (!explainable) throw this.error('expected a statement to explain');
      const statement = this.parseStatementBody();
      return { kind: 'explain', level, statement, pos: start.pos, end: this.lastEnd };
    }
    if (this.isWord('FUNCTION') && this.peek(2).text === '(') {
      this.advance();
      const callStart = this.tok.pos;
      const { name } = this.parseQualifiedName();
      this.expectOp('(');
      if (!this.acceptOp(')')) {
        do this.parseExpr();
        while (this.acceptOp(','));
        this.expectOp(')');
      }
      return { kind: 'describe', database: null, table: name, all: false, functionSql: this.sql.slice(callStart, this.lastEnd), pos: start.pos, end: this.lastEnd };
    }
    const { database, name } = this.parseQualifiedName();
    const all = this.acceptWord('ALL');
    const stmt: DescribeStatement = { kind: 'describe', database, table: name, all, pos: start.pos, end: this.lastEnd };
    return stmt;
  }

  // ------------------------------------------------------------ SET

  private parseSet(): Statement {
    const start = this.advance();
    if (this.isWord('PASSWORD') && (this.isOpAt(1, '=') || this.isWordAt(1, 'FOR'))) return this.parseSetPassword(start);
    const assignments: SetAssignment[] = [];
    do {
      this.parseSetItem(assignments);
    } while (this.acceptOp(','));
    const stmt: SetStatement = { kind: 'set', assignments, pos: start.pos, end: this.lastEnd };
    return stmt;
  }

  private parseSetItem(out: SetAssignment[]): void {
    const token = this.tok;
    if (token.upper === 'NAMES') {
      this.advance();
      if (this.acceptWord('DEFAULT')) {
        out.push({ scope: 'names', name: 'names', value: null });
        return;
      }
      out.push({ scope: 'names', name: 'names', value: this.parseNameValue() });
      if (this.acceptWord('COLLATE')) out.push({ scope: 'session', name: 'collation_connection', value: this.parseNameValue() });
      return;
    }
    if ((token.upper === 'CHARACTER' && this.isWordAt(1, 'SET')) || token.upper === 'CHARSET') {
      this.advance();
      if (token.upper === 'CHARACTER') this.advance();
      out.push({ scope: 'charset', name: 'character_set', value: this.acceptWord('DEFAULT') ? null : this.parseNameValue() });
      return;
    }
    if (token.kind === TokenKind.UserVar) {
      this.advance();
      this.expectAssign();
      out.push({ scope: 'user', name: token.text, value: this.parseExpr() });
      return;
    }
    let scope: 'session' | 'global' = 'session';
    let name: string;
    if (token.kind === TokenKind.SysVar) {
      this.advance();
      scope = token.scope ?? 'session';
      name = token.text;
    } else {
      if (this.acceptWord('GLOBAL')) scope = 'global';
      else if (!this.acceptWord('SESSION')) this.acceptWord('LOCAL');
      if (this.isWord('TRANSACTION')) {
        this.parseSetTransaction(scope, out);
        return;
      }
      name = this.parseIdent();
      while (this.acceptOp('.')) name += '.' + this.parseAnyName();
    }
    this.expectAssign();
    out.push({ scope, name, value: this.parseSetValue() });
  }

  private expectAssign(): void {
    if (!this.acceptOp('=') && !this.acceptOp(':=')) throw this.error("expected '='");
  }

  /** A charset/collation name: identifier or string, as a string literal. */
  private parseNameValue(): Expr {
    const token = this.tok;
    const value = this.parseIdentOrString();
    return { kind: 'literal', literalType: 'string', value, pos: token.pos, end: this.lastEnd };
  }

  /**
   * The value of `SET var = value`: a lone word (`async_mode`, `ON`, `OFF`) is the string it spells, as in
   * MySQL; DEFAULT is a DefaultExpr (reset to the default); anything else is an expression.
   */
  private parseSetValue(): Expr {
    const token = this.tok;
    const following = this.peek();
    const alone = following.kind === TokenKind.EOF || (following.kind === TokenKind.Op && (following.text === ',' || following.text === ';'));
    if (alone && token.kind === TokenKind.Word) {
      if (token.upper === 'DEFAULT') {
        this.advance();
        return { kind: 'default', pos: token.pos, end: token.end };
      }
      if (token.upper !== 'TRUE' && token.upper !== 'FALSE' && token.upper !== 'NULL') {
        this.advance();
        return { kind: 'literal', literalType: 'string', value: token.text, pos: token.pos, end: token.end };
      }
    }
    if (alone && token.kind === TokenKind.QuotedIdent) {
      this.advance();
      return { kind: 'literal', literalType: 'string', value: token.text, pos: token.pos, end: token.end };
    }
    return this.parseExpr();
  }

  /** SET [scope] TRANSACTION ISOLATION LEVEL ... | READ ONLY | READ WRITE, as variable assignments. */
  private parseSetTransaction(scope: 'session' | 'global', out: SetAssignment[]): void {
    this.advance();
    do {
      const token = this.tok;
      if (this.acceptWords('ISOLATION', 'LEVEL')) {
        const levelToken = this.tok;
        const level = ISOLATION_LEVELS.find(([words]) => this.acceptWords(...words));
        if (!level) throw this.error('expected an isolation level');
        out.push({ scope, name: 'transaction_isolation', value: { kind: 'literal', literalType: 'string', value: level[1], pos: levelToken.pos, end: this.lastEnd } });
      } else if (this.acceptWords('READ', 'ONLY') || this.acceptWords('READ', 'WRITE')) {
        const readOnly = this.peek(-1).upper === 'ONLY';
        out.push({ scope, name: 'transaction_read_only', value: { kind: 'literal', literalType: 'string', value: readOnly ? 'ON' : 'OFF', pos: token.pos, end: this.lastEnd } });
      } else {
        throw this.error('expected ISOLATION LEVEL or READ ONLY/WRITE');
      }
    } while (this.acceptOp(','));
  }

  private parseSetPassword(start: Token): Statement {
    this.advance();
    let user: UserIdentity | null = null;
    if (this.acceptWord('FOR')) user = this.parseUserIdentity();
    this.expectOp('=');
    let password: string;
    // Doris: PASSWORD('clear') or the stored form '*<40 hex digits>' (what SHOW GRANTS / mysqldump give).
    const hashed = !(this.isWord('PASSWORD') && this.isOpAt(1, '('));
    if (!hashed) {
      this.advance();
      this.advance();
      password = this.parseStringLiteral();
      this.expectOp(')');
    } else {
      password = this.parseStringLiteral();
    }
    return { kind: 'setPassword', user, password, hashed, pos: start.pos, end: this.lastEnd };
  }

  // ------------------------------------------------------------ users, transactions

  /** BEGIN [WORK] [WITH LABEL l] | START TRANSACTION [...] | COMMIT [WORK] | ROLLBACK [WORK]. */
  private parseTransaction(): Statement {
    const start = this.advance();
    let action: 'BEGIN' | 'COMMIT' | 'ROLLBACK';
    let label: string | null = null;
    if (start.upper === 'BEGIN' || start.upper === 'START') {
      action = 'BEGIN';
      if (start.upper === 'START') {
        this.expectWord('TRANSACTION');
        while (true) {
          if (this.acceptWords('WITH', 'CONSISTENT', 'SNAPSHOT') || this.acceptWords('READ', 'WRITE')) {
            this.acceptOp(',');
          } else if (this.isWord('READ') && this.isWordAt(1, 'ONLY')) {
            throw this.unsupported('START TRANSACTION READ ONLY');
          } else {
            break;
          }
        }
      } else {
        this.acceptWord('WORK');
      }
      if (this.acceptWords('WITH', 'LABEL')) label = this.parseIdentOrString();
    } else {
      action = start.upper === 'COMMIT' ? 'COMMIT' : 'ROLLBACK';
      this.acceptWord('WORK');
    }
    return { kind: 'transaction', action, label, pos: start.pos, end: this.lastEnd };
  }
}

// ---------------------------------------------------------------- entry points

/** Runs a parse, turning a JS stack overflow (which the depth guard should prevent) into a syntax error. */
function guarded<T>(sql: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof GaleneError) throw err;
    if (err instanceof RangeError) throw syntaxErrorAt(sql, 0, sql.length, 'statement nested too deeply');
    throw new GaleneError('INTERNAL', [`parser failure: ${err instanceof Error ? err.message : String(err)}`], { cause: err });
  }
}

/**
 * Parses one or more statements separated by `;` (empty statements and a trailing `;` are fine).
 * Node offsets are into `sql`. Parameter (`?`) indexes restart at 0 in each statement.
 */
export function parseStatements(sql: string, options?: ParseOptions): Statement[] {
  return guarded(sql, () => new StatementParser(sql, options).parseAll());
}

/** Parses exactly one statement (a trailing `;` is allowed); anything more is a syntax error. */
export function parseStatement(sql: string): Statement {
  return guarded(sql, () => new StatementParser(sql).parseSingle());
}

/** Parses a standalone expression (DEFAULT values, Stream Load `where` / `columns` headers). */
export function parseExpression(sql: string): Expr {
  return guarded(sql, () => new StatementParser(sql).parseStandaloneExpr());
}

/** Parses a data type such as `DECIMAL(10, 2)` or `VARCHAR(20)` (table definitions, CAST targets in metadata). */
export function parseDataType(sql: string): DataType {
  return guarded(sql, () => new StatementParser(sql).parseStandaloneType());
}
