/**
 * Expression grammar with MySQL operator precedence, by precedence climbing (few stack frames per
 * nesting level, so deep expressions hit the depth guard long before the JS stack limit).
 *
 * Precedence, loosest first (https://dev.mysql.com/doc/refman/8.0/en/operator-precedence.html):
 * OR/|| < XOR < AND/&& < NOT < comparison, IS, BETWEEN, IN, LIKE, REGEXP, MATCH_* < | < & < << >> < + - <
 * * / DIV % MOD < ^ < unary - + ~ ! < INTERVAL/primary.
 * Mappings where the AST has no node of its own: `||` is OR and `&&` AND (MySQL default sql_mode);
 * `x IS [NOT] TRUE|FALSE` is `[NOT] (x <=> TRUE|FALSE)`; IS [NOT] UNKNOWN is IS [NOT] NULL; `<<`/`>>` are
 * calls bit_shift_left/bit_shift_right; `[a, b]` is a call array(a, b); `c MATCH_ANY 'x'` is a call
 * match_any(c, 'x'); EXTRACT(unit FROM x) is extract('UNIT', x); POSITION(a IN b) is locate(a, b);
 * TRIM(LEADING r FROM s) is ltrim(s, r), TRAILING rtrim, BOTH/none trim; SUBSTRING(s FROM p FOR n) is
 * substring(s, p, n); a minus sign directly before a number literal is folded into the literal ('-5').
 */
import type {
  CaseExpr, Expr, FrameBoundAst, FunctionCallExpr, LiteralExpr, OrderByItem, QueryExpr, StarExpr, WindowFrameAst, WindowSpecAst,
  LambdaExpr,
} from './ast';
import { GaleneError } from '../common/errors';
import { INTERVAL_UNITS, isReservedWord, MATCH_OPERATORS, NILADIC_FUNCTIONS } from './keywords';
import { Token, TokenKind } from './lexer';
import { DataTypeParser } from './parse-data-type';

/**
 * Deepest expression tree a statement may have. Doris rejects trees deeper than its FE config
 * `expr_depth_limit` (3000) with "Exceeded the maximum depth of an expression tree (3000)."; the binder,
 * optimizer and expression compiler walk trees recursively on the JS stack, which holds about 1,500
 * levels, so Galene's limit is 1000 (the same as the parser's nesting guard).
 */
export const EXPR_DEPTH_LIMIT = 1000;

/**
 * AND / OR chains longer than this are built as balanced trees (both are associative, also in SQL's
 * three-valued logic), so `a = 1 OR a = 2 OR ...` with thousands of terms stays shallow.
 */
const BALANCE_MIN_TERMS = 64;

/** AST kinds that are expressions (the depth walk does not descend into subqueries' query blocks). */
const EXPR_KINDS: ReadonlySet<string> = new Set([
  'literal', 'column', 'star', 'param', 'variable', 'unary', 'binary', 'call', 'cast', 'case', 'in', 'between',
  'like', 'isnull', 'interval', 'subquery', 'exists', 'insubquery',
]);

const PREC_OR = 1;
const PREC_XOR = 2;
const PREC_AND = 3;
const PREC_NOT = 4;
const PREC_CMP = 5;
const PREC_BITOR = 6;
const PREC_BITAND = 7;
const PREC_SHIFT = 8;
const PREC_ADD = 9;
const PREC_MUL = 10;
const PREC_BITXOR = 11;

/** Reserved words that are still callable as functions when followed by `(`. */
const RESERVED_FUNCTION_NAMES: ReadonlySet<string> = new Set([
  'IF', 'LEFT', 'RIGHT', 'REPLACE', 'INSERT', 'CHAR', 'DATABASE', 'SCHEMA', 'CURRENT_USER', 'CURRENT_DATE',
  'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'LOCALTIME', 'LOCALTIMESTAMP', 'UTC_DATE', 'UTC_TIME', 'UTC_TIMESTAMP',
  'VALUES', 'MOD', 'DEFAULT', 'CONVERT', 'INTERVAL',
]);

/** Operator-position tokens: precedence and AST operator. */
const OP_PRECEDENCE: Record<string, number> = {
  '||': PREC_OR, '&&': PREC_AND,
  '=': PREC_CMP, '<=>': PREC_CMP, '!=': PREC_CMP, '<>': PREC_CMP, '<': PREC_CMP, '<=': PREC_CMP, '>': PREC_CMP, '>=': PREC_CMP,
  '|': PREC_BITOR, '&': PREC_BITAND, '<<': PREC_SHIFT, '>>': PREC_SHIFT,
  '+': PREC_ADD, '-': PREC_ADD, '*': PREC_MUL, '/': PREC_MUL, '%': PREC_MUL, '^': PREC_BITXOR,
};

const WORD_PRECEDENCE: Record<string, number> = {
  OR: PREC_OR, XOR: PREC_XOR, AND: PREC_AND, DIV: PREC_MUL, MOD: PREC_MUL,
  IS: PREC_CMP, LIKE: PREC_CMP, REGEXP: PREC_CMP, RLIKE: PREC_CMP, IN: PREC_CMP, BETWEEN: PREC_CMP,
};

type SimpleBinaryOp = '+' | '-' | '*' | '/' | '%' | 'DIV' | '=' | '<=>' | '!=' | '<' | '<=' | '>' | '>=' | 'AND' | 'OR' | 'XOR' | '&' | '|' | '^';

const BINARY_OPS: Record<string, SimpleBinaryOp> = {
  '||': 'OR', '&&': 'AND', '=': '=', '<=>': '<=>', '!=': '!=', '<>': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=',
  '|': '|', '&': '&', '+': '+', '-': '-', '*': '*', '/': '/', '%': '%', '^': '^',
  OR: 'OR', XOR: 'XOR', AND: 'AND', DIV: 'DIV', MOD: '%',
};

export abstract class ExpressionParser extends DataTypeParser {
  /** Implemented by the query layer: a full query expression (SELECT / set operation / VALUES). */
  protected abstract parseQueryExpr(): QueryExpr;

  /** True when the current token starts a query (SELECT, VALUES, WITH). */
  protected isQueryKeyword(token: Token = this.tok): boolean {
    return token.upper === 'SELECT' || token.upper === 'VALUES' || token.upper === 'WITH';
  }

  /** Tree depth per expression node built so far (children first, so each depth is computed once). */
  private readonly exprDepths = new WeakMap<object, number>();

  /** Enters one expression nesting level, with Doris's depth error instead of the generic guard. */
  private enterExpr(): void {
    if (this.depth + 1 > EXPR_DEPTH_LIMIT) throw this.tooDeep(this.tok.pos, this.tok.end);
    this.enter();
  }

  private tooDeep(pos: number, end: number): GaleneError {
    return new GaleneError('EXPR_TOO_DEEP', [EXPR_DEPTH_LIMIT], { span: { offset: pos, length: Math.max(0, end - pos) } });
  }

  /** Depth of the deepest expression inside `value` (an Expr, an array, or a plain holder such as a CASE arm). */
  private childDepth(value: unknown): number {
    if (value === null || typeof value !== 'object') return 0;
    if (Array.isArray(value)) {
      let deepest = 0;
      for (const item of value) deepest = Math.max(deepest, this.childDepth(item));
      return deepest;
    }
    const kind = (value as { kind?: unknown }).kind;
    if (typeof kind === 'string') return EXPR_KINDS.has(kind) ? this.treeDepth(value as Expr) : 0;
    let deepest = 0;
    for (const field of Object.values(value)) deepest = Math.max(deepest, this.childDepth(field));
    return deepest;
  }

  /** Depth of an expression tree (a leaf is 1), memoized per node. */
  private treeDepth(expr: Expr): number {
    const known = this.exprDepths.get(expr);
    if (known !== undefined) return known;
    let deepest = 0;
    for (const field of Object.values(expr)) deepest = Math.max(deepest, this.childDepth(field));
    const depth = deepest + 1;
    this.exprDepths.set(expr, depth);
    return depth;
  }

  /** Rejects a tree deeper than EXPR_DEPTH_LIMIT (pointing at it); returns it unchanged otherwise. */
  private checkDepth(expr: Expr): Expr {
    if (this.treeDepth(expr) > EXPR_DEPTH_LIMIT) throw this.tooDeep(expr.pos, expr.end);
    return expr;
  }

  /** `terms` joined by AND / OR: left-deep as written, or balanced when the chain is long. */
  private joinChain(op: 'AND' | 'OR', terms: readonly Expr[]): Expr {
    if (terms.length <= BALANCE_MIN_TERMS) {
      let joined = terms[0];
      for (let termIdx = 1; termIdx < terms.length; termIdx++) {
        const right = terms[termIdx];
        joined = this.checkDepth({ kind: 'binary', op, left: joined, right, pos: joined.pos, end: right.end });
      }
      return joined;
    }
    const build = (from: number, to: number): Expr => {
      if (to - from === 1) return terms[from];
      const mid = (from + to) >>> 1;
      const left = build(from, mid);
      const right = build(mid, to);
      return { kind: 'binary', op, left, right, pos: left.pos, end: right.end };
    };
    return this.checkDepth(build(0, terms.length));
  }

  /** An expression whose operators bind at least as tightly as `minPrec`. */
  protected parseExpr(minPrec = PREC_OR): Expr {
    this.enterExpr();
    let left = this.parseUnary();
    // A run of the same AND / OR operator, joined when the run ends (see joinChain).
    let chain: Expr[] | null = null;
    let chainOp: 'AND' | 'OR' = 'AND';
    const endChain = (): void => {
      if (chain !== null) left = this.joinChain(chainOp, chain);
      chain = null;
    };
    while (true) {
      const token = this.tok;
      let prec: number;
      if (token.kind === TokenKind.Op) {
        prec = OP_PRECEDENCE[token.text] ?? 0;
      } else if (token.kind === TokenKind.Word) {
        prec = WORD_PRECEDENCE[token.upper] ?? 0;
        if (prec === 0) {
          if (token.upper === 'NOT') {
            const following = this.peek().upper;
            if (following === 'IN' || following === 'LIKE' || following === 'BETWEEN' || following === 'REGEXP' || following === 'RLIKE') prec = PREC_CMP;
          } else if (MATCH_OPERATORS.has(token.upper)) {
            prec = PREC_CMP;
          }
        }
      } else {
        prec = 0;
      }
      if (prec === 0 || prec < minPrec) break;
      if (prec === PREC_CMP && token.kind === TokenKind.Word) {
        endChain();
        left = this.checkDepth(this.parsePredicateTail(left));
        continue;
      }
      this.advance();
      const right = this.parseExpr(prec + 1);
      const op = BINARY_OPS[token.kind === TokenKind.Word ? token.upper : token.text];
      if ((op === 'AND' || op === 'OR') && token.text !== '<<' && token.text !== '>>') {
        if (chain === null || chainOp !== op) {
          endChain();
          chain = [left];
          chainOp = op;
        }
        chain.push(right);
        continue;
      }
      endChain();
      if (token.text === '<<' || token.text === '>>') {
        left = this.makeCall(token.text === '<<' ? 'bit_shift_left' : 'bit_shift_right', [left, right], left.pos, right.end);
      } else {
        left = { kind: 'binary', op, left, right, pos: left.pos, end: right.end };
      }
      this.checkDepth(left);
    }
    endChain();
    this.depth--;
    return this.checkDepth(left);
  }

  /** IS / [NOT] IN / [NOT] LIKE / [NOT] BETWEEN / [NOT] REGEXP / MATCH_* after `left`. */
  private parsePredicateTail(left: Expr): Expr {
    const opToken = this.advance();
    if (opToken.upper === 'IS') {
      const negated = this.acceptWord('NOT');
      const valueToken = this.tok;
      if (this.acceptWord('NULL') || this.acceptWord('UNKNOWN')) {
        return { kind: 'isnull', operand: left, negated, pos: left.pos, end: this.lastEnd };
      }
      if (valueToken.upper === 'TRUE' || valueToken.upper === 'FALSE') {
        this.advance();
        const literal: LiteralExpr = { kind: 'literal', literalType: 'boolean', value: valueToken.upper === 'TRUE', pos: valueToken.pos, end: valueToken.end };
        const test: Expr = { kind: 'binary', op: '<=>', left, right: literal, pos: left.pos, end: valueToken.end };
        return negated ? { kind: 'unary', op: 'NOT', operand: test, pos: left.pos, end: valueToken.end } : test;
      }
      throw this.error('expected NULL, TRUE or FALSE');
    }
    if (MATCH_OPERATORS.has(opToken.upper)) {
      const right = this.parseExpr(PREC_CMP + 1);
      return this.makeCall(opToken.text, [left, right], left.pos, right.end);
    }
    let negated = false;
    let keyword = opToken.upper;
    if (keyword === 'NOT') {
      negated = true;
      keyword = this.advance().upper;
    }
    switch (keyword) {
      case 'IN': {
        this.expectOp('(');
        if (this.isQueryKeyword()) {
          const query = this.parseQueryExpr();
          this.expectOp(')');
          return { kind: 'insubquery', operand: left, query, negated, pos: left.pos, end: this.lastEnd };
        }
        const list = this.parseExprList();
        this.expectOp(')');
        return { kind: 'in', operand: left, list, negated, pos: left.pos, end: this.lastEnd };
      }
      case 'BETWEEN': {
        const low = this.parseExpr(PREC_CMP + 1);
        this.expectWord('AND');
        const high = this.parseExpr(PREC_CMP + 1);
        return { kind: 'between', operand: left, low, high, negated, pos: left.pos, end: high.end };
      }
      case 'LIKE':
      case 'REGEXP':
      case 'RLIKE': {
        const pattern = this.parseExpr(PREC_CMP + 1);
        if (keyword === 'LIKE' && this.isWord('ESCAPE')) {
          const escapeToken = this.advance();
          if (this.tok.kind !== TokenKind.String || this.tok.text !== '\\') throw this.unsupported('LIKE ... ESCAPE with a character other than \\', escapeToken);
          this.advance();
        }
        return { kind: 'like', operand: left, pattern, negated, regexp: keyword !== 'LIKE', pos: left.pos, end: this.lastEnd };
      }
      default:
        throw this.error(undefined, this.peek(-1));
    }
  }

  /** Prefix operators (- + ~ ! NOT) and then a primary. */
  protected parseUnary(): Expr {
    const token = this.tok;
    if (token.kind === TokenKind.Op) {
      const text = token.text;
      if (text === '-' || text === '+' || text === '~' || text === '!') {
        this.advance();
        if (text === '-' && this.tok.kind === TokenKind.Number) {
          const numberToken = this.advance();
          return this.finishPostfix({ kind: 'literal', literalType: numberToken.numberType ?? 'integer', value: '-' + numberToken.text, pos: token.pos, end: numberToken.end });
        }
        this.enterExpr();
        const operand = this.parseUnary();
        this.depth--;
        const op = text === '!' ? 'NOT' : (text as '-' | '+' | '~');
        return { kind: 'unary', op, operand, pos: token.pos, end: operand.end };
      }
    } else if (token.upper === 'NOT') {
      this.advance();
      const operandPos = this.tok.pos;
      const operand = this.parseExpr(PREC_NOT);
      if (operand.kind === 'exists' && !operand.negated && operand.pos === operandPos) {
        return { ...operand, negated: true, pos: token.pos };
      }
      return { kind: 'unary', op: 'NOT', operand, pos: token.pos, end: operand.end };
    }
    return this.finishPostfix(this.parsePrimary());
  }

  /** `expr COLLATE name` is accepted and ignored (all strings compare as UTF-8 bytes). */
  private finishPostfix(expr: Expr): Expr {
    // `arr[i]` is element_at(arr, i) (Doris); subscripts chain: `m[1][2]`.
    while (this.isOp('[')) {
      this.advance();
      const index = this.parseExpr();
      this.expectOp(']');
      expr = this.makeCall('element_at', [expr, index], expr.pos, this.lastEnd);
    }
    while (this.tok.upper === 'COLLATE') {
      this.advance();
      this.parseIdentOrString();
    }
    return expr;
  }

  protected parsePrimary(): Expr {
    const token = this.tok;
    switch (token.kind) {
      case TokenKind.Number:
        this.advance();
        return { kind: 'literal', literalType: token.numberType ?? 'integer', value: token.text, pos: token.pos, end: token.end };
      case TokenKind.String: {
        const value = this.parseStringLiteral();
        return { kind: 'literal', literalType: 'string', value, pos: token.pos, end: this.lastEnd };
      }
      case TokenKind.HexNumber:
        this.advance();
        return { kind: 'literal', literalType: 'integer', value: BigInt('0x' + token.text).toString(), pos: token.pos, end: token.end };
      case TokenKind.HexString:
        this.advance();
        return { kind: 'literal', literalType: 'string', value: Buffer.from(token.text, 'hex').toString('utf8'), pos: token.pos, end: token.end };
      case TokenKind.Param:
        this.advance();
        return { kind: 'param', index: this.paramCount++, pos: token.pos, end: token.end };
      case TokenKind.UserVar:
        this.advance();
        return { kind: 'variable', system: false, scope: null, name: token.text, pos: token.pos, end: token.end };
      case TokenKind.SysVar:
        this.advance();
        return { kind: 'variable', system: true, scope: token.scope, name: token.text, pos: token.pos, end: token.end };
      case TokenKind.QuotedIdent:
        return this.parseColumnRef();
      case TokenKind.Word:
        return this.parseWordPrimary();
      case TokenKind.Op:
        if (token.text === '(') return this.parseParenthesized();
        if (token.text === '[') {
          this.advance();
          const items = this.isOp(']') ? [] : this.parseExprList();
          this.expectOp(']');
          return this.makeCall('array', items, token.pos, this.lastEnd);
        }
        throw this.error();
      default:
        throw this.error();
    }
  }

  private parseParenthesized(): Expr {
    const open = this.advance();
    if (this.isQueryKeyword()) {
      const query = this.parseQueryExpr();
      this.expectOp(')');
      return { kind: 'subquery', query, pos: open.pos, end: this.lastEnd };
    }
    const inner = this.parseExpr();
    if (this.isOp(',')) throw this.unsupported('row constructors ( a, b, ... )', open);
    this.expectOp(')');
    return inner;
  }

  private parseWordPrimary(): Expr {
    const token = this.tok;
    const upper = token.upper;
    const nextIsParen = this.isOpAt(1, '(');
    switch (upper) {
      case 'NULL':
        this.advance();
        return { kind: 'literal', literalType: 'null', value: null, pos: token.pos, end: token.end };
      case 'TRUE':
      case 'FALSE':
        this.advance();
        return { kind: 'literal', literalType: 'boolean', value: upper === 'TRUE', pos: token.pos, end: token.end };
      case 'CASE':
        return this.parseCase();
      case 'EXISTS': {
        this.advance();
        this.expectOp('(');
        const query = this.parseQueryExpr();
        this.expectOp(')');
        return { kind: 'exists', query, negated: false, pos: token.pos, end: this.lastEnd };
      }
      case 'INTERVAL': {
        if (nextIsParen && this.intervalIsFunctionCall()) return this.parseFunctionCall();
        this.advance();
        const value = this.parseExpr();
        const unitToken = this.tok;
        if (unitToken.kind !== TokenKind.Word) throw this.error('expected an interval unit');
        if (!INTERVAL_UNITS.has(unitToken.upper)) {
          if (/^[A-Z]+_[A-Z]+$/.test(unitToken.upper)) throw this.unsupported(`INTERVAL unit ${unitToken.upper}`, unitToken);
          throw this.error('expected an interval unit');
        }
        this.advance();
        return { kind: 'interval', value, unit: unitToken.upper as 'DAY', pos: token.pos, end: unitToken.end };
      }
      case 'DATE':
      case 'TIMESTAMP':
      case 'DATETIME':
        if (this.peek().kind === TokenKind.String) {
          this.advance();
          const value = this.parseStringLiteral();
          return { kind: 'literal', literalType: upper === 'DATE' ? 'date' : 'datetime', value, pos: token.pos, end: this.lastEnd };
        }
        break;
      case 'BINARY':
        if (!nextIsParen && this.startsOperand(this.peek())) {
          this.advance(); // BINARY x: byte-wise comparison is already the default
          return this.parseUnary();
        }
        break;
      case 'DEFAULT':
        if (!nextIsParen) throw this.error('DEFAULT is only allowed in INSERT ... VALUES');
        break;
      default:
        break;
    }
    if (nextIsParen) {
      if ((upper === 'ANY' || upper === 'SOME' || upper === 'ALL') && this.isQueryKeyword(this.peek(2))) {
        throw this.unsupported(`comparison with ${upper} (subquery)`);
      }
      if (isReservedWord(upper) && !RESERVED_FUNCTION_NAMES.has(upper)) throw this.error();
      return this.parseFunctionCall();
    }
    if (NILADIC_FUNCTIONS.has(upper)) {
      this.advance();
      return this.makeCall(token.text, [], token.pos, token.end);
    }
    if (isReservedWord(upper)) throw this.error();
    return this.parseColumnRef();
  }

  /** True if `token` can begin an operand (used to tell the BINARY operator from a column named binary). */
  private startsOperand(token: Token): boolean {
    switch (token.kind) {
      case TokenKind.Word:
        return !isReservedWord(token.upper) || token.upper === 'NULL' || token.upper === 'TRUE' || token.upper === 'FALSE' || token.upper === 'CASE';
      case TokenKind.Op:
        return token.text === '(' || token.text === '-' || token.text === '+' || token.text === '~' || token.text === '!';
      case TokenKind.EOF:
        return false;
      default:
        return true;
    }
  }

  /** `a`, `t.a`, `db.t.a`, `t.*`, `db.t.*`. */
  protected parseColumnRef(): Expr {
    const first = this.tok;
    const parts: string[] = [this.parseIdent()];
    while (this.isOp('.')) {
      this.advance();
      if (this.isOp('*')) {
        const star = this.advance();
        const result: StarExpr = { kind: 'star', qualifier: parts, pos: first.pos, end: star.end };
        return result;
      }
      parts.push(this.parseAnyName());
      if (parts.length > 3) throw this.error(undefined, this.peek(-1));
    }
    const name = parts.pop() as string;
    return { kind: 'column', qualifier: parts, name, pos: first.pos, end: this.lastEnd };
  }

  private parseCase(): CaseExpr {
    const start = this.advance();
    const operand = this.isWord('WHEN') ? null : this.parseExpr();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.acceptWord('WHEN')) {
      const when = this.parseExpr();
      this.expectWord('THEN');
      whens.push({ when, then: this.parseExpr() });
    }
    if (whens.length === 0) throw this.error('expected WHEN');
    const elseExpr = this.acceptWord('ELSE') ? this.parseExpr() : null;
    this.expectWord('END');
    return { kind: 'case', operand, whens, elseExpr, pos: start.pos, end: this.lastEnd };
  }

  /** A call `name(...)`, including the special argument syntaxes of CAST, EXTRACT, TRIM, GROUP_CONCAT... */
  private parseFunctionCall(): Expr {
    const nameToken = this.advance();
    const upper = nameToken.upper;
    this.expectOp('(');
    switch (upper) {
      case 'CAST': {
        const operand = this.parseExpr();
        this.expectWord('AS');
        const targetType = this.parseDataTypeSyntax(true);
        this.expectOp(')');
        return { kind: 'cast', operand, targetType, pos: nameToken.pos, end: this.lastEnd };
      }
      case 'CONVERT': {
        const operand = this.parseExpr();
        if (this.acceptWord('USING')) {
          this.parseIdentOrString(); // character set conversion: all text is UTF-8 already
          this.expectOp(')');
          return operand;
        }
        this.expectOp(',');
        const targetType = this.parseDataTypeSyntax(true);
        this.expectOp(')');
        return { kind: 'cast', operand, targetType, pos: nameToken.pos, end: this.lastEnd };
      }
      case 'EXTRACT': {
        const unitToken = this.tok;
        if (unitToken.kind !== TokenKind.Word) throw this.error('expected a date unit');
        this.advance();
        const unit: LiteralExpr = { kind: 'literal', literalType: 'string', value: unitToken.upper, pos: unitToken.pos, end: unitToken.end };
        this.expectWord('FROM');
        const source = this.parseExpr();
        this.expectOp(')');
        return this.makeCall(nameToken.text, [unit, source], nameToken.pos, this.lastEnd);
      }
      case 'POSITION': {
        const needle = this.parseExpr(PREC_CMP + 1);
        if (this.acceptWord('IN')) {
          const haystack = this.parseExpr();
          this.expectOp(')');
          return this.makeCall('locate', [needle, haystack], nameToken.pos, this.lastEnd);
        }
        return this.finishCallArgs(nameToken, [needle], false);
      }
      case 'TRIM':
        return this.parseTrim(nameToken);
      case 'SUBSTRING':
      case 'SUBSTR': {
        if (this.isOp(')')) break;
        const source = this.parseExpr();
        if (this.acceptWord('FROM')) {
          const args = [source, this.parseExpr()];
          if (this.acceptWord('FOR')) args.push(this.parseExpr());
          this.expectOp(')');
          return this.makeCall(nameToken.text, args, nameToken.pos, this.lastEnd);
        }
        return this.finishCallArgs(nameToken, [source], false);
      }
      case 'TIMESTAMPADD':
      case 'TIMESTAMPDIFF': {
        const unitToken = this.tok;
        if (unitToken.kind === TokenKind.Word && this.isOpAt(1, ',')) {
          this.advance();
          const unit: LiteralExpr = { kind: 'literal', literalType: 'string', value: unitToken.upper, pos: unitToken.pos, end: unitToken.end };
          this.advance();
          return this.finishCallArgs(nameToken, [unit, this.parseExpr()], false);
        }
        break;
      }
      default:
        break;
    }
    // generic call
    if (this.acceptOp(')')) return this.finishCall(nameToken, [], false);
    let distinct = false;
    if (this.acceptWord('DISTINCT') || this.acceptWord('DISTINCTROW')) distinct = true;
    else if (this.isWord('ALL') && !this.isOpAt(1, ')') && !this.isOpAt(1, ',')) this.advance();
    if (this.isOp('*') && this.isOpAt(1, ')')) {
      const star = this.advance();
      const starExpr: StarExpr = { kind: 'star', qualifier: [], pos: star.pos, end: star.end };
      return this.finishCallArgs(nameToken, [starExpr], distinct);
    }
    return this.finishCallArgs(nameToken, [this.startsLambda() ? this.parseLambda() : this.parseExpr()], distinct);
  }

  /** A lambda argument (`x -> ...`, `(x, y) -> ...`); callers test startsLambda() inline, so plain arguments add no stack frame. */
  private parseLambda(): Expr {
    const start = this.tok;
    const params: string[] = [];
    if (this.acceptOp('(')) {
      do params.push(this.parseIdent());
      while (this.acceptOp(','));
      this.expectOp(')');
    } else {
      params.push(this.parseIdent());
    }
    this.expectOp('-');
    this.expectOp('>');
    const body = this.parseExpr();
    const lambda: LambdaExpr = { kind: 'lambda', params, body, pos: start.pos, end: this.lastEnd };
    return lambda;
  }

  /**
   * `INTERVAL (` starts the function interval(N, N1, ...) rather than an interval literal when the
   * parentheses hold a top-level comma or no unit follows them (`INTERVAL (1 + 1) DAY` stays a literal).
   */
  private intervalIsFunctionCall(): boolean {
    let depth = 0;
    for (let ahead = 1; ; ahead++) {
      const token = this.peek(ahead);
      if (token.kind === TokenKind.EOF) return false;
      if (token.kind !== TokenKind.Op) continue;
      if (token.text === '(') depth++;
      else if (token.text === ',' && depth === 1) return true;
      else if (token.text === ')' && --depth === 0) {
        const after = this.peek(ahead + 1);
        return after.kind !== TokenKind.Word || !INTERVAL_UNITS.has(after.upper);
      }
    }
  }

  /** `x -> ...` or `(x, y) -> ...` next (Doris's lambda arguments of array_map, array_filter ...). */
  private startsLambda(): boolean {
    let ahead = 0;
    if (this.isOp('(')) {
      ahead = 1;
      while (this.isIdent(this.peek(ahead)) && this.isOpAt(ahead + 1, ',')) ahead += 2;
      if (!this.isIdent(this.peek(ahead)) || !this.isOpAt(ahead + 1, ')')) return false;
      ahead += 2;
    } else if (this.isIdent()) {
      ahead = 1;
    } else {
      return false;
    }
    return this.isOpAt(ahead, '-') && this.isOpAt(ahead + 1, '>') && this.peek(ahead).end === this.peek(ahead + 1).pos;
  }

  /** Remaining `, arg ...` [ORDER BY ...] [SEPARATOR 's'] `)` of a call whose first arguments are parsed. */
  private finishCallArgs(nameToken: Token, args: Expr[], distinct: boolean): Expr {
    while (this.acceptOp(',')) args.push(this.startsLambda() ? this.parseLambda() : this.parseExpr());
    let orderBy: OrderByItem[] | undefined;
    let separator: string | undefined;
    if (nameToken.upper === 'GROUP_CONCAT') {
      if (this.isWord('ORDER') && this.isWordAt(1, 'BY')) {
        this.advance();
        this.advance();
        orderBy = this.parseOrderByList();
      }
      if (this.acceptWord('SEPARATOR')) separator = this.parseStringLiteral();
    }
    this.expectOp(')');
    const call = this.finishCall(nameToken, args, distinct) as { -readonly [K in keyof FunctionCallExpr]: FunctionCallExpr[K] };
    if (orderBy) call.orderBy = orderBy;
    if (separator !== undefined) call.separator = separator;
    return call;
  }

  private finishCall(nameToken: Token, args: Expr[], distinct: boolean): Expr {
    if (this.isWord('OVER')) {
      const over = this.parseWindowSpec();
      return { kind: 'call', name: nameToken.text, args, distinct, over, pos: nameToken.pos, end: this.lastEnd };
    }
    return { kind: 'call', name: nameToken.text, args, distinct, pos: nameToken.pos, end: this.lastEnd };
  }

  /** `OVER ([PARTITION BY e, ...] [ORDER BY ...] [ROWS|RANGE frame])`; named windows (`OVER w`) are not Doris syntax. */
  private parseWindowSpec(): WindowSpecAst {
    const overToken = this.advance();
    if (!this.isOp('(')) throw this.error('expected ( after OVER');
    this.advance();
    let partitionBy: Expr[] = [];
    if (this.isWord('PARTITION') && this.isWordAt(1, 'BY')) {
      this.advance();
      this.advance();
      partitionBy = this.parseExprList();
    }
    let orderBy: OrderByItem[] = [];
    if (this.isWord('ORDER') && this.isWordAt(1, 'BY')) {
      this.advance();
      this.advance();
      orderBy = this.parseOrderByList();
    }
    let frame: WindowFrameAst | null = null;
    if (this.isWord('ROWS') || this.isWord('RANGE')) {
      const unitsToken = this.advance();
      const units = unitsToken.upper as 'ROWS' | 'RANGE';
      if (this.acceptWord('BETWEEN')) {
        const start = this.parseFrameBound();
        this.expectWord('AND');
        const end = this.parseFrameBound();
        frame = { units, start, end, pos: unitsToken.pos };
      } else {
        frame = { units, start: this.parseFrameBound(), end: null, pos: unitsToken.pos };
      }
    }
    this.expectOp(')');
    return { partitionBy, orderBy, frame, pos: overToken.pos, end: this.lastEnd };
  }

  /** UNBOUNDED PRECEDING | UNBOUNDED FOLLOWING | CURRENT ROW | expr PRECEDING | expr FOLLOWING. */
  private parseFrameBound(): FrameBoundAst {
    const pos = this.tok.pos;
    if (this.acceptWord('UNBOUNDED')) {
      if (this.acceptWord('PRECEDING')) return { kind: 'UNBOUNDED_PRECEDING', offset: null, pos, end: this.lastEnd };
      if (this.acceptWord('FOLLOWING')) return { kind: 'UNBOUNDED_FOLLOWING', offset: null, pos, end: this.lastEnd };
      throw this.error('expected PRECEDING or FOLLOWING');
    }
    if (this.isWord('CURRENT') && this.isWordAt(1, 'ROW')) {
      this.advance();
      this.advance();
      return { kind: 'CURRENT_ROW', offset: null, pos, end: this.lastEnd };
    }
    const offset = this.parseExpr();
    if (this.acceptWord('PRECEDING')) return { kind: 'PRECEDING', offset, pos, end: this.lastEnd };
    if (this.acceptWord('FOLLOWING')) return { kind: 'FOLLOWING', offset, pos, end: this.lastEnd };
    throw this.error('expected PRECEDING or FOLLOWING');
  }

  /** TRIM([BOTH|LEADING|TRAILING] [remstr] FROM str) | TRIM(str[, remstr]). */
  private parseTrim(nameToken: Token): Expr {
    let fn = 'trim';
    let explicitSide = false;
    if (this.isWord('BOTH') || this.isWord('LEADING') || this.isWord('TRAILING')) {
      const side = this.advance().upper;
      fn = side === 'LEADING' ? 'ltrim' : side === 'TRAILING' ? 'rtrim' : 'trim';
      explicitSide = true;
    }
    if (explicitSide && this.acceptWord('FROM')) {
      const source = this.parseExpr();
      this.expectOp(')');
      return this.makeCall(fn, [source], nameToken.pos, this.lastEnd);
    }
    const first = this.parseExpr();
    if (this.acceptWord('FROM')) {
      const source = this.parseExpr();
      this.expectOp(')');
      return this.makeCall(fn, [source, first], nameToken.pos, this.lastEnd);
    }
    if (explicitSide) throw this.error('expected FROM');
    return this.finishCallArgs(nameToken, [first], false);
  }

  protected makeCall(name: string, args: Expr[], pos: number, end: number): FunctionCallExpr {
    return { kind: 'call', name, args, distinct: false, pos, end };
  }

  /** One or more comma-separated expressions. */
  protected parseExprList(): Expr[] {
    const list: Expr[] = [this.parseExpr()];
    while (this.acceptOp(',')) list.push(this.parseExpr());
    return list;
  }

  /** Items after ORDER BY: expr [ASC|DESC] [NULLS FIRST|LAST], ... */
  protected parseOrderByList(): OrderByItem[] {
    const items: OrderByItem[] = [];
    do {
      const expr = this.parseExpr();
      let direction: 'ASC' | 'DESC' = 'ASC';
      if (this.acceptWord('DESC')) direction = 'DESC';
      else this.acceptWord('ASC');
      let nulls: 'FIRST' | 'LAST' | null = null;
      if (this.acceptWord('NULLS')) {
        if (this.acceptWord('FIRST')) nulls = 'FIRST';
        else if (this.acceptWord('LAST')) nulls = 'LAST';
        else throw this.error('expected FIRST or LAST');
      }
      items.push({ expr, direction, nulls, pos: expr.pos, end: this.lastEnd });
    } while (this.acceptOp(','));
    return items;
  }
}
