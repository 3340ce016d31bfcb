/**
 * The SQL scanner: turns statement text into tokens carrying `pos`/`end` offsets.
 *
 * Hand-written over char codes (no regular expressions on the hot path) because every prepared-statement
 * execution and point lookup pays for it. Follows MySQL's lexical rules: unquoted identifiers may contain
 * letters, digits, `_`, `$` and any non-ASCII character; backtick identifiers escape a backtick by doubling
 * it; '...' and "..." are both string literals with backslash escapes and doubled quotes; comments are
 * `-- ` (dash dash space), `#` and `/* *\/` (`/*+ hints *\/` are ignored, `/*! code *\/` is scanned as code,
 * as MySQL does). Errors are GaleneError SYNTAX_ERROR pointing at the offending text.
 * Used by the parser and by splitStatements; imports only common/.
 */
import { GaleneError } from '../common/errors';

/** Token kinds; numeric because the parser compares them constantly. */
export enum TokenKind {
  EOF = 0,
  /** Unquoted word: keyword or identifier (`upper` holds the upper-case spelling). */
  Word = 1,
  /** `backtick` identifier; `text` is the unescaped name. */
  QuotedIdent = 2,
  /** '...' or "..." string; `text` is the unescaped value. */
  String = 3,
  /** Decimal number; `text` is the source text, `numberType` says integer/decimal/float. */
  Number = 4,
  /** 0x1F; `text` holds the hex digits. */
  HexNumber = 5,
  /** X'1F'; `text` holds the hex digits. */
  HexString = 6,
  /** Operator or punctuation; `text` is its spelling. */
  Op = 7,
  /** `?` placeholder. */
  Param = 8,
  /** `@name`; `text` is the name. */
  UserVar = 9,
  /** `@@[session.|global.|local.]name`; `text` is the name, `scope` the scope. */
  SysVar = 10,
}

export interface Token {
  readonly kind: TokenKind;
  readonly pos: number;
  readonly end: number;
  readonly text: string;
  /** Upper-case spelling for Word tokens; '' for every other kind (so keywords never match them). */
  readonly upper: string;
  readonly numberType: 'integer' | 'decimal' | 'float' | null;
  /** System variable scope written before the name (`@@global.x`); null when not written. */
  readonly scope: 'session' | 'global' | null;
}

const CH_TAB = 9;
const CH_LF = 10;
const CH_CR = 13;
const CH_SPACE = 32;
const CH_BANG = 33;
const CH_DQUOTE = 34;
const CH_HASH = 35;
const CH_DOLLAR = 36;
const CH_AMP = 38;
const CH_SQUOTE = 39;
const CH_STAR = 42;
const CH_PLUS = 43;
const CH_MINUS = 45;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_0 = 48;
const CH_9 = 57;
const CH_COLON = 58;
const CH_LT = 60;
const CH_EQ = 61;
const CH_GT = 62;
const CH_QUESTION = 63;
const CH_AT = 64;
const CH_BACKSLASH = 92;
const CH_UNDERSCORE = 95;
const CH_BACKTICK = 96;
const CH_PIPE = 124;

function isDigit(code: number): boolean {
  return code >= CH_0 && code <= CH_9;
}

function isHexDigit(code: number): boolean {
  return (code >= CH_0 && code <= CH_9) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** Characters allowed in unquoted identifiers (MySQL: [0-9a-zA-Z$_] and U+0080 .. U+FFFF). */
function isIdentChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= CH_0 && code <= CH_9) ||
    code === CH_UNDERSCORE || code === CH_DOLLAR || code >= 0x80
  );
}

function isWhitespace(code: number): boolean {
  return code === CH_SPACE || code === CH_LF || code === CH_TAB || code === CH_CR || code === 11 || code === 12;
}

/** 1-based line and column of an offset, for error messages. */
export function lineColumnOf(sql: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const limit = Math.min(offset, sql.length);
  for (let charIdx = 0; charIdx < limit; charIdx++) {
    if (sql.charCodeAt(charIdx) === CH_LF) {
      line++;
      lineStart = charIdx + 1;
    }
  }
  return { line, column: limit - lineStart + 1 };
}

/**
 * The MySQL-style SYNTAX_ERROR for text starting at `offset`: "... near '<up to 40 chars>' at line L,
 * column C". At the end of input the near text is empty and the message says so.
 */
export function syntaxErrorAt(sql: string, offset: number, length: number, detail?: string): GaleneError {
  const { line, column } = lineColumnOf(sql, offset);
  const near = sql.slice(offset, offset + 40);
  let message = `check the manual that corresponds to your MySQL server version for the right syntax to use near '${near}' at line ${line}, column ${column}`;
  if (offset >= sql.length) message += ' (unexpected end of input)';
  else if (detail) message += ` (${detail})`;
  return new GaleneError('SYNTAX_ERROR', [message], { span: { offset, length: Math.max(0, length) } });
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n', t: '\t', r: '\r', b: '\b', '0': '\0', Z: '\x1a', '\\': '\\', "'": "'", '"': '"',
};

function makeToken(
  kind: TokenKind, pos: number, end: number, text: string, upper = '',
  numberType: Token['numberType'] = null, scope: Token['scope'] = null,
): Token {
  return { kind, pos, end, text, upper, numberType, scope };
}

/**
 * Scans the whole text into tokens (the last one is EOF at `sql.length`). Throws SYNTAX_ERROR for an
 * unterminated string, identifier or comment.
 */
export function tokenize(sql: string): Token[] {
  const lexer = new Lexer(sql);
  const tokens: Token[] = [];
  while (true) {
    const token = lexer.next();
    tokens.push(token);
    if (token.kind === TokenKind.EOF) return tokens;
  }
}

/**
 * The scanner as a cursor: `next()` returns one token at a time, so the parser scans only as far as it
 * reads (MySQL's lexer is driven by its parser the same way) and can skip a stretch it scanned by other
 * means (the INSERT VALUES fast path) with `resetTo`.
 */
export class Lexer {
  readonly sql: string;
  private offset = 0;
  /** Inside a `/*! ... *\/` versioned comment: its closing `*\/` is skipped like whitespace. */
  private inVersionComment = false;

  constructor(sql: string) {
    this.sql = sql;
  }

  /** True inside a `/*! ... *\/` comment, where a raw-text scan must not take over. */
  get insideVersionComment(): boolean {
    return this.inVersionComment;
  }

  /** Continue scanning at `offset` (which must be outside any string, comment or token). */
  resetTo(offset: number): void {
    this.offset = offset;
  }

  /** The next token; EOF (repeatedly) at the end of the text. */
  next(): Token {
    const sql = this.sql;
    const len = sql.length;
    let offset = this.offset;
    // skip whitespace and comments
    while (offset < len) {
      const code = sql.charCodeAt(offset);
      if (isWhitespace(code)) {
        offset++;
      } else if (code === CH_HASH) {
        while (offset < len && sql.charCodeAt(offset) !== CH_LF) offset++;
      } else if (code === CH_MINUS && sql.charCodeAt(offset + 1) === CH_MINUS &&
        (offset + 2 >= len || sql.charCodeAt(offset + 2) <= CH_SPACE)) {
        while (offset < len && sql.charCodeAt(offset) !== CH_LF) offset++;
      } else if (code === CH_SLASH && sql.charCodeAt(offset + 1) === CH_STAR) {
        if (sql.charCodeAt(offset + 2) === CH_BANG) {
          // MySQL executable comment: /*!40101 code */ -> scan `code`.
          offset += 3;
          while (offset < len && isDigit(sql.charCodeAt(offset))) offset++;
          this.inVersionComment = true;
          continue;
        }
        const close = sql.indexOf('*/', offset + 2);
        if (close < 0) throw syntaxErrorAt(sql, offset, len - offset, 'unterminated comment');
        offset = close + 2;
      } else if (this.inVersionComment && code === CH_STAR && sql.charCodeAt(offset + 1) === CH_SLASH) {
        this.inVersionComment = false;
        offset += 2;
      } else {
        break;
      }
    }
    this.offset = offset;
    if (offset >= len) return makeToken(TokenKind.EOF, len, len, '');
    const token = this.scanToken(offset);
    this.offset = token.end;
    return token;
  }

  /** One token starting at `offset` (not whitespace or a comment). */
  private scanToken(offset: number): Token {
    const sql = this.sql;
    const len = sql.length;
    const start = offset;
    const code = sql.charCodeAt(offset);
    const next = offset + 1 < len ? sql.charCodeAt(offset + 1) : -1;

    // hex literals X'..' and 0x..
    if ((code === 88 || code === 120) && next === CH_SQUOTE) {
      const close = sql.indexOf("'", offset + 2);
      if (close < 0) throw syntaxErrorAt(sql, start, len - start, 'unterminated hex literal');
      const digits = sql.slice(offset + 2, close);
      for (let charIdx = 0; charIdx < digits.length; charIdx++) {
        if (!isHexDigit(digits.charCodeAt(charIdx))) throw syntaxErrorAt(sql, start, close + 1 - start, 'bad hex literal');
      }
      if (digits.length % 2 !== 0) throw syntaxErrorAt(sql, start, close + 1 - start, 'hex literal needs an even number of digits');
      return makeToken(TokenKind.HexString, start, close + 1, digits);
    }
    if (code === CH_0 && (next === 120) && isHexDigit(sql.charCodeAt(offset + 2))) {
      let scan = offset + 2;
      while (scan < len && isHexDigit(sql.charCodeAt(scan))) scan++;
      if (scan >= len || !isIdentChar(sql.charCodeAt(scan))) return makeToken(TokenKind.HexNumber, start, scan, sql.slice(start + 2, scan));
      // 0x12g is an identifier in MySQL: fall through to the word scanner below
    }

    // numbers: 12, 1.5, .5, 1e3, 1.5E-3 (a digit run followed by letters is an identifier, as in MySQL)
    if (isDigit(code) || (code === CH_DOT && isDigit(next))) {
      const scanned = scanNumber(sql, offset);
      if (scanned >= 0) {
        const scan = Math.floor(scanned / 4);
        return makeToken(TokenKind.Number, start, scan, sql.slice(start, scan), '', NUMBER_TYPES[scanned % 4]);
      }
    }

    if (isIdentChar(code)) {
      let scan = offset + 1;
      while (scan < len && isIdentChar(sql.charCodeAt(scan))) scan++;
      const text = sql.slice(start, scan);
      return makeToken(TokenKind.Word, start, scan, text, text.toUpperCase());
    }

    switch (code) {
      case CH_SQUOTE:
      case CH_DQUOTE: {
        const [value, endOffset] = scanString(sql, offset, code);
        return makeToken(TokenKind.String, start, endOffset, value);
      }
      case CH_BACKTICK: {
        const [name, endOffset] = scanQuotedName(sql, offset);
        return makeToken(TokenKind.QuotedIdent, start, endOffset, name);
      }
      case CH_QUESTION:
        return makeToken(TokenKind.Param, start, offset + 1, '?');
      case CH_AT: {
        if (next === CH_AT) {
          offset += 2;
          let scope: Token['scope'] = null;
          let name = scanVariableName(sql, offset);
          if (name !== null) {
            offset += name.length;
            const lower = name.toLowerCase();
            if ((lower === 'session' || lower === 'global' || lower === 'local') && sql.charCodeAt(offset) === CH_DOT) {
              scope = lower === 'global' ? 'global' : 'session';
              offset++;
              name = scanVariableName(sql, offset);
              if (name === null) throw syntaxErrorAt(sql, start, offset - start, 'bad system variable name');
              offset += name.length;
            }
          } else {
            throw syntaxErrorAt(sql, start, 2, 'bad system variable name');
          }
          return makeToken(TokenKind.SysVar, start, offset, name, '', null, scope);
        }
        if (next === CH_SQUOTE || next === CH_DQUOTE) {
          const [value, endOffset] = scanString(sql, offset + 1, next);
          return makeToken(TokenKind.UserVar, start, endOffset, value);
        }
        if (next === CH_BACKTICK) {
          const [value, endOffset] = scanQuotedName(sql, offset + 1);
          return makeToken(TokenKind.UserVar, start, endOffset, value);
        }
        const name = scanVariableName(sql, offset + 1);
        if (name !== null) return makeToken(TokenKind.UserVar, start, offset + 1 + name.length, name);
        offset++;
        return makeToken(TokenKind.Op, start, offset, '@');
      }
      case CH_LT:
        if (next === CH_EQ && sql.charCodeAt(offset + 2) === CH_GT) offset += 3;
        else if (next === CH_EQ || next === CH_GT || next === CH_LT) offset += 2;
        else offset++;
        break;
      case CH_GT:
        offset += next === CH_EQ || next === CH_GT ? 2 : 1;
        break;
      case CH_BANG:
        offset += next === CH_EQ ? 2 : 1;
        break;
      case CH_PIPE:
        offset += next === CH_PIPE ? 2 : 1;
        break;
      case CH_AMP:
        offset += next === CH_AMP ? 2 : 1;
        break;
      case CH_COLON:
        offset += next === CH_EQ ? 2 : 1;
        break;
      default: {
        // one code point of punctuation (or anything the grammar will reject with a pointed error)
        offset += code >= 0xd800 && code <= 0xdbff && offset + 1 < len ? 2 : 1;
        break;
      }
    }
    return makeToken(TokenKind.Op, start, offset, sql.slice(start, offset));
  }
}

const NUMBER_TYPES: readonly ('integer' | 'decimal' | 'float')[] = ['integer', 'decimal', 'float'];

/** Number kinds returned by `scanNumber` in its low two bits. */
export const enum NumberKind {
  Integer = 0,
  Decimal = 1,
  Float = 2,
}

/**
 * Scans a number starting at `offset` (a digit, or `.` then a digit): `12`, `1.5`, `.5`, `1.`, `1e3`,
 * `1.5E-3`. Returns `end * 4 + NumberKind`, or -1 when MySQL reads the text as an identifier instead
 * (a digit run followed by letters, such as `1abc` or `1e`). Shared by the lexer and the VALUES fast path
 * so both read numbers identically.
 */
export function scanNumber(sql: string, offset: number): number {
  const len = sql.length;
  let scan = offset;
  while (scan < len && isDigit(sql.charCodeAt(scan))) scan++;
  let kind = NumberKind.Integer;
  if (scan < len && sql.charCodeAt(scan) === CH_DOT) {
    kind = NumberKind.Decimal;
    scan++;
    while (scan < len && isDigit(sql.charCodeAt(scan))) scan++;
  }
  const expCode = scan < len ? sql.charCodeAt(scan) : -1;
  if (expCode === 101 || expCode === 69) {
    let expScan = scan + 1;
    const sign = expScan < len ? sql.charCodeAt(expScan) : -1;
    if (sign === CH_PLUS || sign === CH_MINUS) expScan++;
    if (expScan < len && isDigit(sql.charCodeAt(expScan))) {
      while (expScan < len && isDigit(sql.charCodeAt(expScan))) expScan++;
      scan = expScan;
      kind = NumberKind.Float;
    } else if (kind === NumberKind.Integer) {
      return -1;
    }
  }
  if (kind === NumberKind.Integer && scan < len && isIdentChar(sql.charCodeAt(scan))) return -1;
  return scan * 4 + kind;
}

/** Name after `@` / `@@`: identifier characters and `.` is not included; null when there is none. */
function scanVariableName(sql: string, offset: number): string | null {
  let scan = offset;
  while (scan < sql.length) {
    const code = sql.charCodeAt(scan);
    if (!isIdentChar(code)) break;
    scan++;
  }
  return scan > offset ? sql.slice(offset, scan) : null;
}

/** Scans a quoted string starting at the opening quote; returns [value, offset after closing quote]. */
export function scanString(sql: string, offset: number, quote: number): [string, number] {
  const start = offset;
  const len = sql.length;
  let scan = offset + 1;
  let chunkStart = scan;
  let value = '';
  while (true) {
    if (scan >= len) throw syntaxErrorAt(sql, start, len - start, 'unterminated string literal');
    const code = sql.charCodeAt(scan);
    if (code === quote) {
      if (sql.charCodeAt(scan + 1) === quote) {
        value += sql.slice(chunkStart, scan + 1);
        scan += 2;
        chunkStart = scan;
        continue;
      }
      value += sql.slice(chunkStart, scan);
      return [value, scan + 1];
    }
    if (code === CH_BACKSLASH) {
      if (scan + 1 >= len) throw syntaxErrorAt(sql, start, len - start, 'unterminated string literal');
      value += sql.slice(chunkStart, scan);
      const escaped = sql[scan + 1];
      const simple = SIMPLE_ESCAPES[escaped];
      if (simple !== undefined) value += simple;
      else if (escaped === '%' || escaped === '_') value += '\\' + escaped; // MySQL keeps \% and \_ for LIKE
      else value += escaped;
      scan += 2;
      chunkStart = scan;
      continue;
    }
    scan++;
  }
}

/** Scans a backtick identifier starting at the backtick; returns [name, offset after it]. */
function scanQuotedName(sql: string, offset: number): [string, number] {
  const start = offset;
  let scan = offset + 1;
  let name = '';
  let chunkStart = scan;
  while (true) {
    const close = sql.indexOf('`', scan);
    if (close < 0) throw syntaxErrorAt(sql, start, sql.length - start, 'unterminated quoted identifier');
    if (sql.charCodeAt(close + 1) === CH_BACKTICK) {
      name += sql.slice(chunkStart, close + 1);
      scan = close + 2;
      chunkStart = scan;
      continue;
    }
    name += sql.slice(chunkStart, close);
    return [name, close + 1];
  }
}
