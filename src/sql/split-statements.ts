/**
 * Splits a multi-statement text (COM_QUERY with CLIENT_MULTI_STATEMENTS, scripts) at top-level `;`
 * without parsing it, so each statement can be parsed, cached and executed on its own.
 *
 * Uses the scanner, so a `;` inside a string, quoted identifier or comment never splits. Empty statements
 * are dropped; each piece runs from its first token to its last (surrounding comments trimmed).
 */
import { TokenKind, tokenize } from './lexer';

export interface StatementText {
  /** The statement's text without the terminating `;`. */
  readonly sql: string;
  /** Offsets of that text in the input. */
  readonly pos: number;
  readonly end: number;
}

/** Throws SYNTAX_ERROR only for what the scanner rejects (unterminated strings or comments). */
export function splitStatements(sql: string): StatementText[] {
  const tokens = tokenize(sql);
  const pieces: StatementText[] = [];
  let firstIdx = -1;
  for (let tokenIdx = 0; tokenIdx < tokens.length; tokenIdx++) {
    const token = tokens[tokenIdx];
    const isSeparator = token.kind === TokenKind.EOF || (token.kind === TokenKind.Op && token.text === ';');
    if (!isSeparator) {
      if (firstIdx < 0) firstIdx = tokenIdx;
      continue;
    }
    if (firstIdx >= 0) {
      const pos = tokens[firstIdx].pos;
      const end = tokens[tokenIdx - 1].end;
      pieces.push({ sql: sql.slice(pos, end), pos, end });
      firstIdx = -1;
    }
  }
  return pieces;
}
