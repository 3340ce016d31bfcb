/**
 * What every SHOW handler shares (show.ts, show-admin.ts): the handler type, and SHOW ... LIKE and
 * SHOW ... WHERE over a SHOW result's rows.
 */
import type { RawValue } from '../../common/column';
import { formatValue } from '../../common/convert';
import { GaleneError } from '../../common/errors';
import { Types } from '../../common/types';
import { matchLike } from '../../exec/expr';
import type { Expr, ShowStatement } from '../../sql/ast';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import type { ColumnSpec } from './result-rows';
import type { StatementSession } from './statement-session';

export type ShowHandler = (session: StatementSession, statement: ShowStatement, profile: QueryProfile) => StatementResult;

/** Apply SHOW ... LIKE 'pattern' to the first column, or a simple WHERE over named columns. */
export function filterRows(statement: ShowStatement, columns: readonly ColumnSpec[], rows: RawValue[][]): RawValue[][] {
  let out = rows;
  if (statement.like !== null) {
    const pattern = statement.like;
    out = out.filter((row) => matchLike(String(row[0]), pattern, { caseInsensitive: true }));
  }
  if (statement.where) {
    const where = statement.where;
    out = out.filter((row) => whereMatches(where, columns, row) === true);
  }
  return out;
}

/** A small evaluator for SHOW ... WHERE: column = / != / LIKE / IN literals, AND, OR, NOT. */
export function whereMatches(expr: Expr, columns: readonly ColumnSpec[], row: RawValue[]): boolean | null {
  const valueOf = (operand: Expr): string | null => {
    if (operand.kind === 'literal') return operand.value === null ? null : String(operand.value);
    if (operand.kind === 'column') {
      const colIdx = columns.findIndex(([name]) => name.toLowerCase() === operand.name.toLowerCase());
      if (colIdx < 0) throw new GaleneError('UNKNOWN_COLUMN', [operand.name, 'where clause']);
      const raw = row[colIdx];
      return raw === null ? null : formatValue(columns[colIdx][1] ?? Types.STRING, raw);
    }
    throw new GaleneError('UNSUPPORTED', ['this expression in SHOW ... WHERE']);
  };
  switch (expr.kind) {
    case 'binary': {
      if (expr.op === 'AND') return whereMatches(expr.left, columns, row) === true && whereMatches(expr.right, columns, row) === true;
      if (expr.op === 'OR') return whereMatches(expr.left, columns, row) === true || whereMatches(expr.right, columns, row) === true;
      const left = valueOf(expr.left);
      const right = valueOf(expr.right);
      if (left === null || right === null) return null;
      if (expr.op === '=') return left.toLowerCase() === right.toLowerCase();
      if (expr.op === '!=') return left.toLowerCase() !== right.toLowerCase();
      throw new GaleneError('UNSUPPORTED', [`operator ${expr.op} in SHOW ... WHERE`]);
    }
    case 'like': {
      const left = valueOf(expr.operand);
      const pattern = valueOf(expr.pattern);
      if (left === null || pattern === null) return null;
      return matchLike(left, pattern, { caseInsensitive: true }) !== expr.negated;
    }
    case 'in': {
      const left = valueOf(expr.operand);
      if (left === null) return null;
      return expr.list.some((item) => valueOf(item)?.toLowerCase() === left.toLowerCase()) !== expr.negated;
    }
    case 'unary':
      if (expr.op === 'NOT') {
        const inner = whereMatches(expr.operand, columns, row);
        return inner === null ? null : !inner;
      }
      break;
    default:
      break;
  }
  throw new GaleneError('UNSUPPORTED', ['this expression in SHOW ... WHERE']);
}

