/**
 * Where window functions may not appear, in Doris's words (Nereids' CheckAnalysis and its regression
 * tests: "LOGICAL_FILTER can not contains WindowExpression expression", "GROUP BY expression must not
 * contain window functions: ..."), and the window-only functions that need an OVER clause. Kept apart
 * from bind-window.ts so the expression binder can refuse them without importing the window binder.
 */
import { GaleneError } from '../common/errors';
import { WINDOW_FUNCTIONS } from '../exec/expr/window-function-list';
import type { FunctionCallExpr } from './ast';
import type { Clause } from './binder-scope';

/** Functions that exist only as window functions (aggregates are window functions too, with OVER). */
export const WINDOW_ONLY_FUNCTIONS: ReadonlySet<string> = new Set(WINDOW_FUNCTIONS.map((fn) => fn.name));

export function isWindowOnlyFunction(name: string): boolean {
  return WINDOW_ONLY_FUNCTIONS.has(name.toLowerCase());
}

/** The error for a window function call met where the binder does not take one. */
export function windowNotAllowed(ast: FunctionCallExpr, clause: Clause, text: string | null): GaleneError {
  const shown = text ?? `${ast.name}(...)`;
  if (ast.over === undefined) return new GaleneError('WINDOW_ERROR', [`${ast.name.toLowerCase()}() is a window function and requires an OVER clause: ${shown}`]);
  return windowInClause(clause, shown);
}

/** The error for a window function (source text `shown`) in `clause`. */
export function windowInClause(clause: Clause, shown: string): GaleneError {
  switch (clause) {
    case 'where clause':
      return new GaleneError('WINDOW_ERROR', [`LOGICAL_FILTER can not contains WindowExpression expression: ${shown}`]);
    case 'having clause':
      return new GaleneError('WINDOW_ERROR', [`LOGICAL_HAVING can not contains WindowExpression expression: ${shown}`]);
    case 'group statement':
      return new GaleneError('WINDOW_ERROR', [`GROUP BY expression must not contain window functions: ${shown}`]);
    case 'on clause':
      return new GaleneError('WINDOW_ERROR', [`LOGICAL_JOIN can not contains WindowExpression expression: ${shown}`]);
    default:
      return new GaleneError('WINDOW_ERROR', [`window functions cannot be nested inside aggregate or window functions: ${shown}`]);
  }
}

/** A frame or argument Doris's WindowFunctionChecker refuses (its message as is). */
export function windowError(message: string): GaleneError {
  return new GaleneError('WINDOW_ERROR', [message]);
}
