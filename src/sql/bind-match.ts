/**
 * Binding of the full-text MATCH predicates (`col MATCH_ANY 'q'`, parsed as match_any(col, 'q')).
 *
 * Doris's checks (nereids CheckMatchExpression, be match.cpp): the left operand is a column (or a CAST of
 * one) of a string or ARRAY<string> type, the right operand a literal. The column's INVERTED index decides
 * how both sides are tokenized, so the binder looks it up in the catalog (through the scope column's
 * origin table) and hands it to the function as a constant third argument (exec matchAnalyzerArgument):
 * the row-by-row kernel tokenizes with it, and an index-scan rule finds the index by the same argument.
 * Without an index the match compares whole values (parser none), unless the session turned
 * enable_match_without_inverted_index off, which is Doris's error.
 */
import { GaleneError } from '../common/errors';
import { typeToSql, Types } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import { isMatchableType, MATCH_FUNCTION_OF, matchAnalyzerArgument } from '../exec/expr/functions/match-functions';
import { booleanVariable, variableValue } from '../exec/plan/planning-variables';
import type { IndexSchema } from '../meta/schema';
import type { PlanningContext } from '../exec/context';
import type { Expr, FunctionCallExpr, Span } from './ast';
import type { Clause, Scope } from './binder-scope';

/** What binding a MATCH needs of the expression binder (binder-expr.ts's ExprBinder and BindEnv). */
interface MatchBindEnv {
  readonly scope: Scope;
  readonly clause: Clause;
}
interface MatchBinder {
  readonly ctx: PlanningContext;
  bind(ast: Expr, env: MatchBindEnv): BoundExpr;
  call(name: string, args: readonly BoundExpr[]): BoundExpr;
  sourceText(node: Span): string | null;
}

/** Whether `name` (lower case) is a MATCH operator's function. */
export function isMatchFunction(name: string): boolean {
  return Object.hasOwn(MATCH_FUNCTION_OF, name);
}

/** The column a MATCH's left operand reads (a column or a CAST of one), else null. */
function matchedColumn(ast: Expr): Extract<Expr, { kind: 'column' }> | null {
  if (ast.kind === 'column') return ast;
  if (ast.kind === 'cast' && ast.operand.kind === 'column') return ast.operand;
  return null;
}

/** The INVERTED index on the table column behind a scope column, if any. */
function invertedIndexOf(binder: MatchBinder, origin: { readonly orgTable?: string; readonly orgName?: string; readonly database?: string }): IndexSchema | undefined {
  if (origin.orgTable === undefined || origin.orgName === undefined) return undefined;
  let indexes: readonly IndexSchema[];
  try {
    indexes = binder.ctx.getTable(origin.database ?? null, origin.orgTable).indexes;
  } catch {
    return undefined;
  }
  const column = origin.orgName.toLowerCase();
  return indexes.find((index) => index.indexType.toUpperCase() === 'INVERTED' && index.columns.some((name) => name.toLowerCase() === column));
}

/** match_*(col, 'q') bound with its analyzer argument; throws Doris's messages for bad operands. */
export function bindMatch(binder: MatchBinder, ast: FunctionCallExpr, env: MatchBindEnv): BoundExpr {
  const op = MATCH_FUNCTION_OF[ast.name.toLowerCase()];
  if (ast.args.length !== 2) throw new GaleneError('WRONG_ARG_COUNT', [ast.name]);
  const [leftAst, rightAst] = ast.args;
  const left = binder.bind(leftAst, env);
  const right = binder.bind(rightAst, env);
  const columnAst = matchedColumn(leftAst);
  const column = columnAst === null ? null : env.scope.find(columnAst, env.clause);
  if (column === null || (right.kind !== 'literal' && right.kind !== 'param')) {
    const text = `(${binder.sourceText(leftAst) ?? '?'} ${op.toUpperCase()} ${binder.sourceText(rightAst) ?? '?'})`;
    throw new GaleneError('TYPE_MISMATCH', [`Only support match left operand is SlotRef, right operand is Literal. But meet expression ${text}`]);
  }
  if (!isMatchableType(left.type)) {
    throw new GaleneError('TYPE_MISMATCH', [`${op} only supports a column of string or array<string> type, but ${column.name} is ${typeToSql(left.type)}`]);
  }
  const index = invertedIndexOf(binder, column.origin);
  const variable = 'enable_match_without_inverted_index';
  if (index === undefined && variableValue(binder.ctx, variable) !== undefined && !booleanVariable(binder.ctx, variable)) {
    throw new GaleneError('INVALID_ARGUMENT', [`[E-6001]${op} not support execute_match`]);
  }
  const spec = matchAnalyzerArgument(op, index);
  return binder.call(op, [left, right, { kind: 'literal', type: Types.varchar(Math.max(1, spec.length)), value: spec }]);
}

