/**
 * EXECUTE of a prepared `INSERT ... VALUES (?, ...), ...` whose every cell is a parameter: the values go
 * into the statement as compact literal rows (LiteralRows, the parser's bulk-load form), so INSERT
 * converts them column by column straight from their text with its span fast paths — no Expr node per
 * cell, no AST copy. Each cell holds the text of the literal paramLiteral would have put in the AST
 * (numbers as number cells, strings, dates and datetimes as string cells), and INSERT converts a cell's
 * text as it converts a literal's, so values and errors are those of the general substitution path.
 */
import { GaleneError } from '../common/errors';
import { LiteralCellKind, type InsertStatement, type LiteralExpr, type LiteralRows, type Statement } from '../sql/ast';
import type { ParamValue } from '../sql/plan-cache';

/** The cell kind of a literal paramLiteral made; null for one LiteralRows cannot hold. */
function cellKindOf(literal: LiteralExpr): LiteralCellKind | null {
  switch (literal.literalType) {
    case 'null':
      return LiteralCellKind.Null;
    case 'integer':
      return LiteralCellKind.Integer;
    case 'decimal':
      return LiteralCellKind.Decimal;
    case 'float':
      return LiteralCellKind.Float;
    case 'string':
    case 'date':
    case 'datetime':
      return LiteralCellKind.String;
    default:
      return null;
  }
}

/**
 * `statement` with its parameters bound as literal rows, or null when it is not an INSERT ... VALUES of
 * parameters only (or a value has no literal-row form): the caller then substitutes literals into the AST.
 * `paramLiteral` is prepared-statements.ts's (passed in, so this module stays below it).
 */
export function bindInsertParams(statement: Statement, params: readonly ParamValue[], paramLiteral: (param: ParamValue, pos: number, end: number) => LiteralExpr | { readonly kind: string }): InsertStatement | null {
  if (statement.kind !== 'insert' || statement.source.kind !== 'values' || statement.source.literals !== undefined) return null;
  const rows = statement.source.rows;
  const rowCount = rows.length;
  if (rowCount === 0) return null;
  const width = rows[0].length;
  const cellCount = rowCount * width;
  const kinds = new Uint8Array(cellCount);
  const starts = new Int32Array(cellCount);
  const ends = new Int32Array(cellCount);
  const texts: string[] = [];
  let length = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const row = rows[rowIdx];
    if (row.length !== width) return null; // the general path reports the column count
    for (let colIdx = 0; colIdx < width; colIdx++) {
      const cell = row[colIdx];
      if (cell.kind !== 'param') return null;
      const param = params[cell.index];
      if (param === undefined) throw new GaleneError('WRONG_ARGUMENTS', ['EXECUTE']);
      const literal = paramLiteral(param, cell.pos, cell.end);
      if (literal.kind !== 'literal') return null;
      const kind = cellKindOf(literal as LiteralExpr);
      if (kind === null) return null;
      const cellIdx = rowIdx * width + colIdx;
      kinds[cellIdx] = kind;
      if (kind === LiteralCellKind.Null) continue;
      // The cells' texts one after the other in `sql`; a string between two quote characters, which
      // only mark its span (a String cell's value is its span without them: nothing is escaped).
      const text = (literal as LiteralExpr).value as string;
      starts[cellIdx] = length;
      if (kind === LiteralCellKind.String) texts.push("'", text, "'");
      else texts.push(text);
      length += kind === LiteralCellKind.String ? text.length + 2 : text.length;
      ends[cellIdx] = length;
    }
  }
  const literals: LiteralRows = { sql: texts.join(''), rowCount, width, kinds, starts, ends, unescaped: new Map() };
  return { ...statement, source: { ...statement.source, literals } };
}
