/**
 * The INSERT ... VALUES fast path of the parser: a bulk load sends thousands of rows of plain literals
 * per statement, and building a token and an Expr node per cell costs more than the rest of the write
 * path. `scanLiteralRows` reads such a list straight from the text into typed arrays (`LiteralRows`), and
 * `materializeRows` turns them into exactly the Expr rows the general parser would have built, for the
 * rare reader that wants them.
 *
 * The scan accepts only what it reads the way the lexer and parser do: numbers (optionally with a `-`
 * right before them), quoted strings (escapes decoded by the lexer's own scanString), NULL, TRUE, FALSE,
 * DEFAULT, separated by `,` in `( )` with plain whitespace between. Anything else — an expression, a
 * comment, adjacent strings, rows of different widths, a syntax error — returns null and the general
 * parser reads the list, with its usual errors. Imports only the lexer and the AST.
 */
import { DefaultExpr, Expr, LiteralCellKind, LiteralExpr, LiteralRows } from './ast';
import { scanNumber, scanString } from './lexer';

const CH_TAB = 9;
const CH_LF = 10;
const CH_CR = 13;
const CH_SPACE = 32;
const CH_DQUOTE = 34;
const CH_HASH = 35;
const CH_DOLLAR = 36;
const CH_SQUOTE = 39;
const CH_LPAREN = 40;
const CH_RPAREN = 41;
const CH_COMMA = 44;
const CH_MINUS = 45;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_STAR = 42;
const CH_0 = 48;
const CH_9 = 57;
const CH_BACKSLASH = 92;
const CH_UNDERSCORE = 95;

const NUMBER_CELL: readonly LiteralCellKind[] = [LiteralCellKind.Integer, LiteralCellKind.Decimal, LiteralCellKind.Float];

function skipWhitespace(sql: string, offset: number, len: number): number {
  while (offset < len) {
    const code = sql.charCodeAt(offset);
    if (code === CH_SPACE || code === CH_LF || code === CH_TAB || code === CH_CR || code === 11 || code === 12) offset++;
    else break;
  }
  return offset;
}

function isDigitAt(sql: string, offset: number): boolean {
  const code = sql.charCodeAt(offset);
  return code >= CH_0 && code <= CH_9;
}

/** Same set as the lexer's identifier characters. */
function isIdentChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= CH_0 && code <= CH_9) || code === CH_UNDERSCORE || code === CH_DOLLAR || code >= 0x80;
}

/** NULL / TRUE / FALSE / DEFAULT at `offset` as a whole word, or -1. */
function keywordCell(sql: string, offset: number, len: number): { kind: LiteralCellKind; end: number } | null {
  let end = offset;
  while (end < len && isIdentChar(sql.charCodeAt(end))) end++;
  const length = end - offset;
  if (length < 4 || length > 7) return null;
  const upper = sql.slice(offset, end).toUpperCase();
  if (upper === 'NULL') return { kind: LiteralCellKind.Null, end };
  if (upper === 'TRUE') return { kind: LiteralCellKind.True, end };
  if (upper === 'FALSE') return { kind: LiteralCellKind.False, end };
  if (upper === 'DEFAULT') return { kind: LiteralCellKind.Default, end };
  return null;
}

/** Growable cell arrays. */
class CellBuffer {
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  count = 0;

  constructor(capacity: number) {
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  push(kind: LiteralCellKind, start: number, end: number): void {
    if (this.count === this.kinds.length) {
      const capacity = this.kinds.length * 2;
      const kinds = new Uint8Array(capacity);
      kinds.set(this.kinds);
      const starts = new Int32Array(capacity);
      starts.set(this.starts);
      const ends = new Int32Array(capacity);
      ends.set(this.ends);
      this.kinds = kinds;
      this.starts = starts;
      this.ends = ends;
    }
    const cellIdx = this.count++;
    this.kinds[cellIdx] = kind;
    this.starts[cellIdx] = start;
    this.ends[cellIdx] = end;
  }
}

/**
 * Scans `(...), (...), ...` starting at the `(` at `offset`. Returns the rows and the offset just after
 * the last `)`, or null when the list is not made of plain literals only (the caller then parses it the
 * general way). `allowDefault` admits DEFAULT cells (INSERT only).
 */
export function scanLiteralRows(sql: string, offset: number, allowDefault: boolean): { rows: LiteralRows; end: number } | null {
  const len = sql.length;
  if (sql.charCodeAt(offset) !== CH_LPAREN) return null;
  const cells = new CellBuffer(Math.max(64, Math.min(1 << 22, len >> 3)));
  const unescaped = new Map<number, string>();
  let width = -1;
  let rowCount = 0;
  let scan = offset;
  while (true) {
    // at a row's `(`
    scan++;
    let rowWidth = 0;
    while (true) {
      scan = skipWhitespace(sql, scan, len);
      if (scan >= len) return null;
      const code = sql.charCodeAt(scan);
      const start = scan;
      if ((code >= CH_0 && code <= CH_9) || (code === CH_DOT && isDigitAt(sql, scan + 1))) {
        const scanned = scanNumber(sql, scan);
        if (scanned < 0) return null;
        scan = Math.floor(scanned / 4);
        cells.push(NUMBER_CELL[scanned % 4], start, scan);
      } else if (code === CH_MINUS) {
        const digitAt = scan + 1;
        if (!(isDigitAt(sql, digitAt) || (sql.charCodeAt(digitAt) === CH_DOT && isDigitAt(sql, digitAt + 1)))) return null;
        const scanned = scanNumber(sql, digitAt);
        if (scanned < 0) return null;
        scan = Math.floor(scanned / 4);
        cells.push(NUMBER_CELL[scanned % 4], start, scan);
      } else if (code === CH_SQUOTE || code === CH_DQUOTE) {
        let probe = scan + 1;
        let escaped = false;
        while (true) {
          if (probe >= len) return null;
          const inner = sql.charCodeAt(probe);
          if (inner === code) {
            if (sql.charCodeAt(probe + 1) === code) {
              escaped = true;
              probe += 2;
              continue;
            }
            break;
          }
          if (inner === CH_BACKSLASH) {
            escaped = true;
            probe += 2;
            continue;
          }
          probe++;
        }
        if (escaped) {
          const [value, endOffset] = scanString(sql, scan, code);
          unescaped.set(cells.count, value);
          scan = endOffset;
          cells.push(LiteralCellKind.EscapedString, start, scan);
        } else {
          scan = probe + 1;
          cells.push(LiteralCellKind.String, start, scan);
        }
      } else {
        const keyword = keywordCell(sql, scan, len);
        if (keyword === null || (keyword.kind === LiteralCellKind.Default && !allowDefault)) return null;
        scan = keyword.end;
        cells.push(keyword.kind, start, scan);
      }
      rowWidth++;
      scan = skipWhitespace(sql, scan, len);
      const separator = sql.charCodeAt(scan);
      if (separator === CH_COMMA) {
        scan++;
        continue;
      }
      if (separator !== CH_RPAREN) return null;
      scan++;
      break;
    }
    if (width < 0) width = rowWidth;
    else if (rowWidth !== width) return null;
    rowCount++;
    const rowEnd = scan;
    scan = skipWhitespace(sql, scan, len);
    const after = sql.charCodeAt(scan);
    if (after !== CH_COMMA) {
      // A comment here may hide a `,` and more rows: leave the whole list to the general parser.
      if (after === CH_HASH || ((after === CH_SLASH || after === CH_MINUS) && (sql.charCodeAt(scan + 1) === CH_STAR || sql.charCodeAt(scan + 1) === CH_MINUS))) return null;
      const rows: LiteralRows = { sql, rowCount, width, kinds: cells.kinds.subarray(0, cells.count), starts: cells.starts.subarray(0, cells.count), ends: cells.ends.subarray(0, cells.count), unescaped };
      return { rows, end: rowEnd };
    }
    scan = skipWhitespace(sql, scan + 1, len);
    if (sql.charCodeAt(scan) !== CH_LPAREN) return null;
  }
}

/** The Expr the general parser builds for one cell. */
export function literalCellExpr(rows: LiteralRows, cellIdx: number): Expr {
  const pos = rows.starts[cellIdx];
  const end = rows.ends[cellIdx];
  switch (rows.kinds[cellIdx] as LiteralCellKind) {
    case LiteralCellKind.Null:
      return { kind: 'literal', literalType: 'null', value: null, pos, end } satisfies LiteralExpr;
    case LiteralCellKind.Default:
      return { kind: 'default', pos, end } satisfies DefaultExpr;
    case LiteralCellKind.True:
      return { kind: 'literal', literalType: 'boolean', value: true, pos, end };
    case LiteralCellKind.False:
      return { kind: 'literal', literalType: 'boolean', value: false, pos, end };
    case LiteralCellKind.Integer:
      return { kind: 'literal', literalType: 'integer', value: rows.sql.slice(pos, end), pos, end };
    case LiteralCellKind.Decimal:
      return { kind: 'literal', literalType: 'decimal', value: rows.sql.slice(pos, end), pos, end };
    case LiteralCellKind.Float:
      return { kind: 'literal', literalType: 'float', value: rows.sql.slice(pos, end), pos, end };
    case LiteralCellKind.String:
      return { kind: 'literal', literalType: 'string', value: rows.sql.slice(pos + 1, end - 1), pos, end };
    case LiteralCellKind.EscapedString:
      return { kind: 'literal', literalType: 'string', value: rows.unescaped.get(cellIdx)!, pos, end };
  }
}

/** All rows as the general parser's Expr rows. */
export function materializeRows(rows: LiteralRows): Expr[][] {
  const out: Expr[][] = [];
  for (let rowIdx = 0; rowIdx < rows.rowCount; rowIdx++) {
    const row: Expr[] = [];
    for (let colIdx = 0; colIdx < rows.width; colIdx++) row.push(literalCellExpr(rows, rowIdx * rows.width + colIdx));
    out.push(row);
  }
  return out;
}

/** The `value` text of a number or string cell (what the general parser puts in LiteralExpr.value). */
export function literalCellText(rows: LiteralRows, cellIdx: number): string {
  const kind = rows.kinds[cellIdx] as LiteralCellKind;
  if (kind === LiteralCellKind.String) return rows.sql.slice(rows.starts[cellIdx] + 1, rows.ends[cellIdx] - 1);
  if (kind === LiteralCellKind.EscapedString) return rows.unescaped.get(cellIdx)!;
  return rows.sql.slice(rows.starts[cellIdx], rows.ends[cellIdx]);
}
