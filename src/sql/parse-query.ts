/**
 * Query grammar: SELECT, set operations, VALUES, FROM clauses with joins and derived tables.
 *
 * INTERSECT binds tighter than UNION / EXCEPT / MINUS (standard SQL, MySQL 8). ORDER BY / LIMIT after the
 * last operand of a set operation apply to the whole set operation; on a single SELECT they belong to
 * it. A derived table without an alias gets `__subquery_<n>` (n counts from 1 in the statement).
 * WITH (common table expressions) is a `with` node around its body. Named windows (WINDOW) are rejected
 * as UNSUPPORTED.
 */
import type {
  JoinKeyword,
  CommonTableExpr, DefaultExpr, Expr, LimitClause, OrderByItem, QueryExpr, SelectItem, SelectQuery, TableRef, ValuesQuery, WithQuery,
} from './ast';
import { TokenKind } from './lexer';
import { materializeRows, scanLiteralRows } from './parse-literal-rows';
import { MAX_PARSE_DEPTH } from './parse-base';
import { ExpressionParser } from './parse-expression';
import { MAX_GROUPING_SETS, tooManyGroupingSets } from './grouping-sets-limit';

/** SELECT modifiers MySQL clients send that change nothing here. */
const IGNORED_SELECT_MODIFIERS: ReadonlySet<string> = new Set([
  'SQL_NO_CACHE', 'SQL_CACHE', 'SQL_CALC_FOUND_ROWS', 'HIGH_PRIORITY', 'STRAIGHT_JOIN', 'SQL_SMALL_RESULT',
  'SQL_BIG_RESULT', 'SQL_BUFFER_RESULT',
]);

/** ROLLUP(k1, ..., kn): the prefixes, longest first. */
function rollupSets(keys: readonly number[]): number[][] {
  return Array.from({ length: keys.length + 1 }, (_v, drop) => keys.slice(0, keys.length - drop));
}

/** CUBE(k1, ..., kn): every subset, the full set first and the empty set last. */
function cubeSets(keys: readonly number[]): number[][] {
  if (2 ** keys.length > MAX_GROUPING_SETS) throw tooManyGroupingSets();
  const sets: number[][] = [];
  for (let mask = (1 << keys.length) - 1; mask >= 0; mask--) sets.push(keys.filter((_key, keyIdx) => (mask & (1 << (keys.length - 1 - keyIdx))) !== 0));
  return sets;
}

export abstract class QueryParser extends ExpressionParser {
  protected parseQueryExpr(): QueryExpr {
    this.enter();
    const query = this.isWord('WITH') ? this.parseWithQuery() : this.parseTrailingOrderLimit(this.parseUnionLevel());
    this.depth--;
    return query;
  }

  /** WITH [RECURSIVE] name [(col, ...)] AS (query) [, ...] body. */
  private parseWithQuery(): WithQuery {
    const start = this.expectWord('WITH');
    const recursive = this.acceptWord('RECURSIVE');
    const ctes: CommonTableExpr[] = [];
    do {
      const nameToken = this.tok;
      const name = this.parseIdent();
      const columns = this.isOp('(') ? this.parseIdentList() : null;
      this.expectWord('AS');
      this.expectOp('(');
      const query = this.parseQueryExpr();
      this.expectOp(')');
      ctes.push({ name, columns, query, pos: nameToken.pos, end: this.lastEnd });
    } while (this.acceptOp(','));
    const body = this.parseTrailingOrderLimit(this.parseUnionLevel());
    return { kind: 'with', recursive, ctes, body, pos: start.pos, end: this.lastEnd };
  }

  private parseUnionLevel(): QueryExpr {
    let left = this.parseIntersectLevel();
    while (this.isWord('UNION') || this.isWord('EXCEPT') || this.isWord('MINUS')) {
      const opWord = this.advance().upper;
      const all = this.acceptWord('ALL');
      if (!all) this.acceptWord('DISTINCT');
      const right = this.parseIntersectLevel();
      left = {
        kind: 'setop', op: opWord === 'UNION' ? 'UNION' : 'EXCEPT', all, left, right, orderBy: [], limit: null,
        pos: left.pos, end: right.end,
      };
    }
    return left;
  }

  private parseIntersectLevel(): QueryExpr {
    let left = this.parseQueryPrimary();
    while (this.isWord('INTERSECT')) {
      this.advance();
      const all = this.acceptWord('ALL');
      if (!all) this.acceptWord('DISTINCT');
      const right = this.parseQueryPrimary();
      left = { kind: 'setop', op: 'INTERSECT', all, left, right, orderBy: [], limit: null, pos: left.pos, end: right.end };
    }
    return left;
  }

  private parseQueryPrimary(): QueryExpr {
    if (this.isWord('SELECT')) return this.parseSelectCore();
    if (this.isWord('VALUES')) return this.parseValuesQuery(false);
    if (this.isOp('(')) {
      const open = this.advance();
      const inner = this.parseQueryExpr();
      this.expectOp(')');
      return { ...inner, pos: open.pos, end: this.lastEnd };
    }
    throw this.error('expected SELECT');
  }

  /** ORDER BY / LIMIT after a query body, merged into the body's node. */
  private parseTrailingOrderLimit(body: QueryExpr): QueryExpr {
    const hasOrder = this.isWord('ORDER') && this.isWordAt(1, 'BY');
    if (!hasOrder && !this.isWord('LIMIT')) return body;
    const clauseToken = this.tok;
    let orderBy: OrderByItem[] = [];
    if (hasOrder) {
      this.advance();
      this.advance();
      orderBy = this.parseOrderByList();
    }
    const limit = this.isWord('LIMIT') ? this.parseLimit() : null;
    const attach = (target: QueryExpr): QueryExpr => {
      // (WITH c AS (...) SELECT ...) ORDER BY x: the clauses go to the WITH's body.
      if (target.kind === 'with') return { ...target, body: attach(target.body), end: this.lastEnd };
      if (target.kind === 'values') throw this.unsupported('ORDER BY / LIMIT after VALUES', clauseToken);
      if (target.limit !== null) throw this.unsupported('ORDER BY / LIMIT after a parenthesised query that has LIMIT', clauseToken);
      return { ...target, orderBy: orderBy.length > 0 ? orderBy : target.orderBy, limit, end: this.lastEnd };
    };
    return attach(body);
  }

  /** LIMIT n | LIMIT n OFFSET m | LIMIT m, n (values are integer literals or `?`). */
  protected parseLimit(): LimitClause {
    this.expectWord('LIMIT');
    let count = this.parseLimitValue();
    let offset: Expr | null = null;
    if (this.acceptOp(',')) {
      offset = count;
      count = this.parseLimitValue();
    } else if (this.acceptWord('OFFSET')) {
      offset = this.parseLimitValue();
    }
    return { count, offset };
  }

  private parseLimitValue(): Expr {
    const token = this.tok;
    if (token.kind === TokenKind.Param) {
      this.advance();
      return { kind: 'param', index: this.paramCount++, pos: token.pos, end: token.end };
    }
    if (token.kind === TokenKind.Number && token.numberType === 'integer') {
      this.advance();
      return { kind: 'literal', literalType: 'integer', value: token.text, pos: token.pos, end: token.end };
    }
    throw this.error('LIMIT takes an integer or ?');
  }

  /** SELECT ... [FROM] [WHERE] [GROUP BY] [HAVING], without ORDER BY / LIMIT. */
  private parseSelectCore(): SelectQuery {
    const start = this.expectWord('SELECT');
    let distinct = false;
    while (true) {
      if (this.acceptWord('DISTINCT') || this.acceptWord('DISTINCTROW')) distinct = true;
      else if (this.isWord('ALL')) this.advance();
      else if (IGNORED_SELECT_MODIFIERS.has(this.tok.upper)) this.advance();
      else break;
    }
    const items: SelectItem[] = [this.parseSelectItem()];
    while (this.acceptOp(',')) items.push(this.parseSelectItem());
    let from: TableRef | null = null;
    if (this.acceptWord('FROM')) {
      if (!this.acceptWord('DUAL')) from = this.parseTableRefs();
    }
    if (this.isWord('INTO')) throw this.unsupported('SELECT ... INTO');
    const where = this.acceptWord('WHERE') ? this.parseExpr() : null;
    let groupBy: Expr[] = [];
    let groupingSets: number[][] | undefined;
    if (this.isWord('GROUP') && this.isWordAt(1, 'BY')) {
      this.advance();
      this.advance();
      ({ groupBy, groupingSets } = this.parseGroupingElement());
    }
    const having = this.acceptWord('HAVING') ? this.parseExpr() : null;
    if (this.isWord('WINDOW')) throw this.unsupported('named windows (WINDOW clause; not Doris syntax)');
    return {
      kind: 'select', distinct, items, from, where, groupBy, ...(groupingSets ? { groupingSets } : {}), having, orderBy: [], limit: null, pos: start.pos, end: this.lastEnd,
    };
  }

  /**
   * What follows GROUP BY, as Doris's grammar has it: `GROUPING SETS ((a, b), a, ())`, `ROLLUP (a, b)`,
   * `CUBE (a, b)`, or `a, b [WITH ROLLUP]`. ROLLUP(a, b) is the sets (a, b), (a), (); CUBE every subset,
   * larger ones first. The sets are indices into the returned expression list.
   */
  private parseGroupingElement(): { groupBy: Expr[]; groupingSets: number[][] | undefined } {
    const groupBy: Expr[] = [];
    const add = (exprs: readonly Expr[]): number[] => exprs.map((expr) => groupBy.push(expr) - 1);
    const parenthesisedList = (): Expr[] => {
      this.expectOp('(');
      if (this.acceptOp(')')) return [];
      const exprs = this.parseExprList();
      this.expectOp(')');
      return exprs;
    };
    if (this.isWord('GROUPING') && this.isWordAt(1, 'SETS')) {
      this.advance();
      this.advance();
      this.expectOp('(');
      const sets: number[][] = [];
      do {
        if (this.isOp('(')) sets.push(add(parenthesisedList()));
        else sets.push(add([this.parseExpr()]));
      } while (this.acceptOp(','));
      this.expectOp(')');
      return { groupBy, groupingSets: sets };
    }
    if ((this.isWord('ROLLUP') || this.isWord('CUBE')) && this.isOpAt(1, '(')) {
      const cube = this.advance().upper === 'CUBE';
      const keys = add(parenthesisedList());
      return { groupBy, groupingSets: cube ? cubeSets(keys) : rollupSets(keys) };
    }
    const keys = add(this.parseExprList());
    if (this.isWord('WITH') && this.isWordAt(1, 'ROLLUP')) {
      this.advance();
      this.advance();
      return { groupBy, groupingSets: rollupSets(keys) };
    }
    return { groupBy, groupingSets: undefined };
  }

  private parseSelectItem(): SelectItem {
    const token = this.tok;
    if (this.isOp('*')) {
      this.advance();
      return { expr: { kind: 'star', qualifier: [], pos: token.pos, end: token.end }, alias: null, pos: token.pos, end: token.end };
    }
    const expr = this.parseExpr();
    let alias: string | null = null;
    if (expr.kind !== 'star') {
      if (this.acceptWord('AS')) {
        alias = this.tok.kind === TokenKind.String ? this.parseStringLiteral() : this.parseIdent();
      } else if (this.isIdent()) {
        alias = this.advance().text;
      } else if (this.tok.kind === TokenKind.String) {
        alias = this.parseStringLiteral();
      }
    }
    return { expr, alias, pos: token.pos, end: this.lastEnd };
  }

  /** FROM list: comma joins are CROSS joins that bind looser than JOIN (MySQL). */
  protected parseTableRefs(): TableRef {
    let left = this.parseJoinedTable();
    while (this.acceptOp(',')) {
      const right = this.parseJoinedTable();
      left = { kind: 'join', joinType: 'CROSS', left, right, on: null, using: null, pos: left.pos, end: right.end };
    }
    return left;
  }

  /** `LATERAL VIEW` next: not a table alias. */
  private atLateralView(): boolean {
    return this.isWord('LATERAL') && this.isWordAt(1, 'VIEW');
  }

  /** An alias may follow (an identifier that does not start LATERAL VIEW). */
  private atAlias(): boolean {
    return this.isIdent() && !this.atLateralView();
  }

  /** `LATERAL VIEW fn(args) alias AS col[, col ...]` clauses after a table factor, each wrapping the one before. */
  private parseLateralViews(input: TableRef): TableRef {
    let ref = input;
    while (this.atLateralView()) {
      this.advance();
      this.advance();
      const fnStart = this.tok;
      const fn = this.parseExpr();
      if (fn.kind !== 'call' || fn.over !== undefined) throw this.error('expected a table function call after LATERAL VIEW', fnStart);
      const alias = this.parseIdent();
      this.expectWord('AS');
      const columns = [this.parseIdent()];
      while (this.isOp(',') && this.isIdent(this.peek(1)) && !this.isQueryKeyword(this.peek(1))) {
        this.advance();
        columns.push(this.parseIdent());
      }
      ref = { kind: 'lateralView', input: ref, fn, alias, columns, pos: input.pos, end: this.lastEnd };
    }
    return ref;
  }

  private parseJoinedTable(): TableRef {
    let left = this.parseLateralViews(this.parseTableFactor());
    while (true) {
      let joinType: JoinKeyword;
      const token = this.tok;
      const upper = token.upper;
      const natural = upper === 'NATURAL';
      if (natural) this.advance();
      const word = this.tok.upper;
      if (word === 'JOIN' || (word === 'STRAIGHT_JOIN' && !natural)) {
        joinType = 'INNER';
        this.advance();
      } else if (word === 'INNER' || (word === 'CROSS' && !natural)) {
        joinType = word === 'INNER' ? 'INNER' : 'CROSS';
        this.advance();
        this.expectWord('JOIN');
      } else if (word === 'LEFT' || word === 'RIGHT' || word === 'FULL') {
        this.advance();
        const following = this.tok.upper;
        if ((following === 'SEMI' || following === 'ANTI') && word !== 'FULL' && !natural) {
          this.advance();
          joinType = `${word} ${following}`;
        } else {
          joinType = word;
          this.acceptWord('OUTER');
        }
        this.expectWord('JOIN');
      } else if (natural) {
        throw this.error('expected JOIN after NATURAL');
      } else {
        return left;
      }
      const right = this.parseLateralViews(this.parseTableFactor());
      let on: Expr | null = null;
      let using: string[] | null = null;
      if (natural) {
        left = { kind: 'join', joinType, left, right, on, using, natural: true, pos: left.pos, end: this.lastEnd };
        continue;
      }
      if (this.acceptWord('ON')) on = this.parseExpr();
      else if (this.acceptWord('USING')) using = this.parseIdentList();
      if (on === null && using === null) {
        if (joinType !== 'INNER' && joinType !== 'CROSS') throw this.error('expected ON or USING');
        joinType = 'CROSS';
      } else if (joinType === 'CROSS') {
        joinType = 'INNER';
      }
      left = { kind: 'join', joinType, left, right, on, using, pos: left.pos, end: this.lastEnd };
    }
  }

  private parseTableFactor(): TableRef {
    const start = this.tok;
    if (this.isOp('(')) {
      let ahead = 1;
      while (ahead <= MAX_PARSE_DEPTH && this.isOpAt(ahead, '(')) ahead++;
      if (this.isQueryKeyword(this.peek(ahead))) {
        this.advance();
        const query = this.parseQueryExpr();
        this.expectOp(')');
        let alias: string;
        if (this.acceptWord('AS')) alias = this.parseIdent();
        else if (this.atAlias()) alias = this.advance().text;
        else alias = `__subquery_${++this.derivedCount}`;
        return { kind: 'subqueryTable', query, alias, pos: start.pos, end: this.lastEnd };
      }
      this.advance();
      this.enter();
      const inner = this.parseTableRefs();
      this.depth--;
      this.expectOp(')');
      return { ...inner, pos: start.pos, end: this.lastEnd };
    }
    const { database, name } = this.parseQualifiedName();
    if (database === null && this.acceptOp('(')) {
      // A table-valued function: binlog("db.tbl" [, from [, to]]).
      const args: Expr[] = [];
      if (!this.acceptOp(')')) {
        do args.push(this.parseExpr());
        while (this.acceptOp(','));
        this.expectOp(')');
      }
      let fnAlias: string | null = null;
      if (this.acceptWord('AS')) fnAlias = this.parseIdent();
      else if (this.atAlias()) fnAlias = this.advance().text;
      return { kind: 'tableFunction', name, args, alias: fnAlias, pos: start.pos, end: this.lastEnd };
    }
    let partitions: string[] | undefined;
    if (this.isWord('TEMPORARY') && this.isWordAt(1, 'PARTITION')) throw this.unsupported('TEMPORARY PARTITION in FROM');
    if (this.acceptWord('PARTITION') || this.acceptWord('PARTITIONS')) partitions = this.isOp('(') ? this.parseIdentList() : [this.parseIdent()];
    if (this.isWord('TABLET') || this.isWord('TABLESAMPLE')) {
      throw this.unsupported(`${this.tok.upper} in FROM`);
    }
    let alias: string | null = null;
    if (this.acceptWord('AS')) alias = this.parseIdent();
    else if (this.atAlias()) alias = this.advance().text;
    return { kind: 'table', database, name, alias, ...(partitions ? { partitions } : {}), pos: start.pos, end: this.lastEnd };
  }

  /** VALUES (..), (..) | VALUES ROW(..), ...; `allowDefault` admits the DEFAULT keyword (INSERT). */
  protected parseValuesQuery(allowDefault: boolean): ValuesQuery {
    const start = this.advance(); // VALUES or VALUE
    if (allowDefault && this.fastPaths) {
      const fast = this.tryLiteralRows(start.pos);
      if (fast !== null) return fast;
    }
    const rows: Expr[][] = [];
    do {
      this.acceptWord('ROW');
      this.expectOp('(');
      const row: Expr[] = [];
      if (!this.isOp(')')) {
        do {
          if (allowDefault && this.isWord('DEFAULT') && (this.isOpAt(1, ',') || this.isOpAt(1, ')'))) {
            const token = this.advance();
            const defaultExpr: DefaultExpr = { kind: 'default', pos: token.pos, end: token.end };
            row.push(defaultExpr);
          } else {
            row.push(this.parseExpr());
          }
        } while (this.acceptOp(','));
      }
      this.expectOp(')');
      rows.push(row);
    } while (this.acceptOp(','));
    return { kind: 'values', rows, pos: start.pos, end: this.lastEnd };
  }

  /**
   * The bulk-load fast path (parse-literal-rows.ts): at the first `(` of an INSERT's VALUES list made of
   * plain literals only, scan it without tokens and skip the lexer past it. Null when it does not apply.
   */
  private tryLiteralRows(pos: number): ValuesQuery | null {
    const open = this.tok;
    // Only when nothing was scanned past the `(` (the lexer then resumes exactly after the list).
    if (!(open.kind === TokenKind.Op && open.text === '(') || this.tokens.length !== this.index + 1 || this.lexer.insideVersionComment) return null;
    const scanned = scanLiteralRows(this.sql, open.pos, true);
    if (scanned === null) return null;
    this.skipScanned({ kind: TokenKind.Op, pos: scanned.end - 1, end: scanned.end, text: ')', upper: '', numberType: null, scope: null });
    const literals = scanned.rows;
    let rows: Expr[][] | null = null;
    return {
      kind: 'values',
      get rows(): Expr[][] {
        rows ??= materializeRows(literals);
        return rows;
      },
      literals,
      pos,
      end: scanned.end,
    };
  }
}
