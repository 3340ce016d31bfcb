/**
 * The token cursor every parser layer builds on: lookahead, keyword and operator matching, identifiers,
 * string properties, the recursion-depth guard and the one way to report a syntax error.
 *
 * The parser is split into layers by subclassing (base -> data types -> expressions -> queries -> DDL ->
 * statements in parser.ts) so each file stays readable; the layers share this state.
 */
import { GaleneError } from '../common/errors';
import { isReservedWord } from './keywords';
import { Lexer, syntaxErrorAt, Token, TokenKind } from './lexer';

/** Nesting deeper than this (parentheses, subqueries, unary chains) is rejected instead of overflowing the stack. */
export const MAX_PARSE_DEPTH = 1000;

export interface ParseOptions {
  /** Default true. False makes the parser read everything token by token (parity tests of the fast paths). */
  readonly fastPaths?: boolean;
}

export class ParserBase {
  protected readonly sql: string;
  /** Scans on demand: the parser reads tokens only as far as it gets (see `fill`). */
  protected readonly lexer: Lexer;
  /** Tokens scanned so far; the last one may be EOF. */
  protected readonly tokens: Token[] = [];
  protected index = 0;
  protected tok: Token;
  protected depth = 0;
  /** Next `?` index in the current statement (reset per statement). */
  protected paramCount = 0;
  /** Counter for generated derived-table aliases in the current statement. */
  protected derivedCount = 0;

  /** Whether specialised scanners may take over (parse-literal-rows.ts); off only to test their parity. */
  protected readonly fastPaths: boolean;

  constructor(sql: string, options: ParseOptions = {}) {
    this.sql = sql;
    this.fastPaths = options.fastPaths ?? true;
    this.lexer = new Lexer(sql);
    this.fill(0);
    this.tok = this.tokens[0];
  }

  // ------------------------------------------------------------ cursor

  /** Scans until token `tokenIdx` exists or EOF was reached. */
  private fill(tokenIdx: number): void {
    const tokens = this.tokens;
    while (tokens.length <= tokenIdx) {
      if (tokens.length > 0 && tokens[tokens.length - 1].kind === TokenKind.EOF) return;
      tokens.push(this.lexer.next());
    }
  }

  protected advance(): Token {
    const current = this.tok;
    if (current.kind !== TokenKind.EOF) {
      this.index++;
      this.fill(this.index);
      this.tok = this.tokens[this.index];
    }
    return current;
  }

  protected peek(ahead = 1): Token {
    const idx = this.index + ahead;
    this.fill(idx);
    return idx < this.tokens.length ? this.tokens[idx] : this.tokens[this.tokens.length - 1];
  }

  /**
   * Replaces the current token and everything after it: `consumed` stands for text scanned by other
   * means (it becomes the last consumed token, so `lastEnd` is its end), and scanning resumes at its end.
   */
  protected skipScanned(consumed: Token): void {
    this.tokens.length = this.index;
    this.tokens.push(consumed);
    this.index++;
    this.lexer.resetTo(consumed.end);
    this.fill(this.index);
    this.tok = this.tokens[this.index];
  }

  /** End offset of the last consumed token (the end of the node being built). */
  protected get lastEnd(): number {
    return this.index > 0 ? this.tokens[this.index - 1].end : 0;
  }

  protected atEnd(): boolean {
    return this.tok.kind === TokenKind.EOF;
  }

  /** True at the end of a statement (`;` or end of input). */
  protected atStatementEnd(): boolean {
    return this.tok.kind === TokenKind.EOF || (this.tok.kind === TokenKind.Op && this.tok.text === ';');
  }

  // ------------------------------------------------------------ keywords and operators

  protected isWord(upper: string): boolean {
    return this.tok.upper === upper;
  }

  protected isWordAt(ahead: number, upper: string): boolean {
    return this.peek(ahead).upper === upper;
  }

  protected acceptWord(upper: string): boolean {
    if (this.tok.upper === upper) {
      this.advance();
      return true;
    }
    return false;
  }

  protected expectWord(upper: string): Token {
    if (this.tok.upper !== upper) throw this.error(`expected ${upper}`);
    return this.advance();
  }

  /** Accepts a sequence of words only if all of them are next. */
  protected acceptWords(...uppers: string[]): boolean {
    for (let wordIdx = 0; wordIdx < uppers.length; wordIdx++) {
      if (this.peek(wordIdx).upper !== uppers[wordIdx]) return false;
    }
    for (let wordIdx = 0; wordIdx < uppers.length; wordIdx++) this.advance();
    return true;
  }

  protected isOp(op: string): boolean {
    return this.tok.kind === TokenKind.Op && this.tok.text === op;
  }

  protected isOpAt(ahead: number, op: string): boolean {
    const token = this.peek(ahead);
    return token.kind === TokenKind.Op && token.text === op;
  }

  protected acceptOp(op: string): boolean {
    if (this.tok.kind === TokenKind.Op && this.tok.text === op) {
      this.advance();
      return true;
    }
    return false;
  }

  protected expectOp(op: string): Token {
    if (this.tok.kind !== TokenKind.Op || this.tok.text !== op) throw this.error(`expected '${op}'`);
    return this.advance();
  }

  // ------------------------------------------------------------ identifiers and literals

  /** True if the current token can be an identifier (non-reserved word or backtick name). */
  protected isIdent(token: Token = this.tok): boolean {
    return token.kind === TokenKind.QuotedIdent || (token.kind === TokenKind.Word && !isReservedWord(token.upper));
  }

  /** An identifier; reserved words need backticks. */
  protected parseIdent(): string {
    if (!this.isIdent()) throw this.error();
    return this.advance().text;
  }

  /** Any word or backtick name (after a `.`, where MySQL accepts reserved words too). */
  protected parseAnyName(): string {
    if (this.tok.kind !== TokenKind.Word && this.tok.kind !== TokenKind.QuotedIdent) throw this.error();
    return this.advance().text;
  }

  /** `name` or `db.name`. */
  protected parseQualifiedName(): { database: string | null; name: string } {
    const first = this.parseIdent();
    if (this.isOp('.')) {
      this.advance();
      return { database: first, name: this.parseAnyName() };
    }
    return { database: null, name: first };
  }

  /** Comma-separated identifiers in parentheses: `(a, b)`. */
  protected parseIdentList(): string[] {
    this.expectOp('(');
    const names: string[] = [this.parseIdent()];
    while (this.acceptOp(',')) names.push(this.parseIdent());
    this.expectOp(')');
    return names;
  }

  protected parseStringLiteral(): string {
    if (this.tok.kind !== TokenKind.String) throw this.error('expected a string literal');
    let value = this.advance().text;
    while (this.tok.kind === TokenKind.String) value += this.advance().text;
    return value;
  }

  /** Identifier or string (labels, charset names, user names). */
  protected parseIdentOrString(): string {
    if (this.tok.kind === TokenKind.String) return this.parseStringLiteral();
    return this.parseIdent();
  }

  /** A non-negative integer literal. */
  protected parseUnsignedInt(): number {
    if (this.tok.kind !== TokenKind.Number || this.tok.numberType !== 'integer') throw this.error('expected an integer');
    const value = Number(this.tok.text);
    if (!Number.isSafeInteger(value)) throw this.error('integer out of range');
    this.advance();
    return value;
  }

  /** `("k" = "v", ...)`: Doris properties, keys and values string literals; keys keep their case. */
  protected parseProperties(): Record<string, string> {
    const properties: Record<string, string> = {};
    this.expectOp('(');
    if (this.acceptOp(')')) return properties;
    do {
      const key = this.parseStringLiteral();
      this.expectOp('=');
      properties[key] = this.parseStringLiteral();
    } while (this.acceptOp(','));
    this.expectOp(')');
    return properties;
  }

  // ------------------------------------------------------------ errors and guards

  /** The syntax error at the current token (or at `token`). */
  protected error(detail?: string, token: Token = this.tok): GaleneError {
    return syntaxErrorAt(this.sql, token.pos, token.end - token.pos, token.kind === TokenKind.EOF ? undefined : detail);
  }

  /** Enters one nesting level; pair with `this.depth--`. */
  protected enter(): void {
    if (++this.depth > MAX_PARSE_DEPTH) {
      throw syntaxErrorAt(this.sql, this.tok.pos, this.tok.end - this.tok.pos, `nesting deeper than ${MAX_PARSE_DEPTH} levels`);
    }
  }

  /** UNSUPPORTED error naming a feature, pointing at the current token. */
  protected unsupported(feature: string, token: Token = this.tok): GaleneError {
    return new GaleneError('UNSUPPORTED', [feature], { span: { offset: token.pos, length: token.end - token.pos } });
  }
}
