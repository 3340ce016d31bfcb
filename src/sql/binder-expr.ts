/**
 * Expression binding: AST expressions (ast.ts) -> typed bound expressions (bound-expr.ts). Resolves column
 * names through a Scope, types every node through the expression engine (resolveFunction,
 * commonSuperType, literalValue) and inserts the casts it asks for. Desugars on the way: simple CASE to
 * searched CASE, BETWEEN to >= AND <=, `d +/- INTERVAL n UNIT` and DATE_ADD/DATE_SUB(d, INTERVAL n UNIT)
 * to `<unit>s_add` / `<unit>s_sub`, LIKE/REGEXP negation to NOT. Subqueries are handed to the statement's
 * SubqueryPlanner, which returns the placeholder the executor fills in.
 *
 * The query binder (binder.ts) steers binding with a BindEnv: the scope, the clause (for error messages)
 * and an optional `override` consulted before each node (GROUP BY matching, aggregates, select aliases).
 */
import { refuseJsonKey } from './refuse-json-key';
import { GaleneError } from '../common/errors';
import { isStringType, typesEqual, Types, type DataType } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import { commonSuperType, intervalFunctionName, isAggregateFunctionName, isIntervalUnit, literalValue, lookupTableFunction, operatorFunctionName, resolveAggregate, resolveFunction } from '../exec/expr';
import type { AggregateSpec } from '../exec/plan/physical-plan';
import type { PlanningContext } from '../exec/context';
import type { BinaryOp, ColumnRefExpr, ExistsExpr, Expr, FunctionCallExpr, InSubqueryExpr, IntervalExpr, Span, SubqueryExpr } from './ast';
import { bindMatch, isMatchFunction } from './bind-match';
import { bindHigherOrderCall, hasLambdaArgument, misplacedLambda } from './bind-lambda';
import { isWindowOnlyFunction, windowNotAllowed } from './window-errors';
import { unknownColumn, type Clause, type Scope } from './binder-scope';
import { CASE_INSENSITIVE_COMPARISONS, readsInformationSchema } from './information-schema-collation';

export interface BindEnv {
  readonly scope: Scope;
  readonly clause: Clause;
  /** Consulted before binding each node; a result replaces normal binding of that node. */
  readonly override?: (ast: Expr) => BoundExpr | undefined;
}

/**
 * Binds the subqueries of expressions (binder-subquery.ts): returns what stands for the subquery's value
 * (NOT EXISTS / NOT IN included), a placeholder the executor or the query binder replaces.
 */
export interface SubqueryPlanner {
  bindSubquery(ast: SubqueryExpr | ExistsExpr | InSubqueryExpr, operand: BoundExpr | null, env: BindEnv): BoundExpr;
}

/** Resolves a name the scope does not have in the query around a subquery (a correlated reference). */
export type OuterColumnResolver = (ref: ColumnRefExpr, clause: Clause) => BoundExpr | null;

const BOOLEAN = Types.BOOLEAN;

/** The direct sub-expressions of an AST expression (subquery bodies excluded). */
export function astChildren(expr: Expr): Expr[] {
  switch (expr.kind) {
    case 'literal':
    case 'column':
    case 'star':
    case 'param':
    case 'variable':
    case 'subquery':
    case 'exists':
    case 'default':
      return [];
    case 'unary':
      return [expr.operand];
    case 'binary':
      return [expr.left, expr.right];
    case 'call':
      return [...expr.args, ...(expr.orderBy ?? []).map((item) => item.expr), ...(expr.over ? [...expr.over.partitionBy, ...expr.over.orderBy.map((item) => item.expr)] : [])];
    case 'cast':
      return [expr.operand];
    case 'case': {
      const out: Expr[] = expr.operand ? [expr.operand] : [];
      for (const w of expr.whens) out.push(w.when, w.then);
      if (expr.elseExpr) out.push(expr.elseExpr);
      return out;
    }
    case 'in':
      return [expr.operand, ...expr.list];
    case 'between':
      return [expr.operand, expr.low, expr.high];
    case 'like':
      return [expr.operand, expr.pattern];
    case 'isnull':
      return [expr.operand];
    case 'interval':
      return [expr.value];
    case 'insubquery':
      return [expr.operand];
    case 'lambda':
      // Its body binds in a scope of its own (bind-lambda.ts).
      return [];
  }
}

/** An aggregate call of GROUP BY (`sum(x)`), not an aggregate used as a window function (`sum(x) OVER (...)`). */
export function isAggregateCall(expr: Expr): expr is FunctionCallExpr {
  return expr.kind === 'call' && expr.over === undefined && isAggregateFunctionName(expr.name.toLowerCase());
}

/** A call with an OVER clause. */
export function isWindowCall(expr: Expr): expr is FunctionCallExpr & { over: NonNullable<FunctionCallExpr['over']> } {
  return expr.kind === 'call' && expr.over !== undefined;
}

/** True when a window function call appears in the expression (not counting subqueries). */
export function containsWindow(expr: Expr): boolean {
  if (isWindowCall(expr)) return true;
  return astChildren(expr).some(containsWindow);
}

/** True when an aggregate call appears in the expression (not counting subqueries). */
export function containsAggregate(expr: Expr): boolean {
  if (isAggregateCall(expr)) return true;
  return astChildren(expr).some(containsAggregate);
}

export function containsSubquery(expr: Expr): boolean {
  if (expr.kind === 'subquery' || expr.kind === 'exists' || expr.kind === 'insubquery') return true;
  return astChildren(expr).some(containsSubquery);
}

/** Cast `expr` to `type` unless it already has it (string-to-string casts are no-ops and skipped). */
export function castTo(expr: BoundExpr, type: DataType): BoundExpr {
  if (typesEqual(expr.type, type)) return expr;
  if (isStringType(expr.type) && isStringType(type)) return expr;
  if (expr.kind === 'literal' && expr.value === null) return { kind: 'literal', type, value: null };
  if (type.name === 'NULL') return expr;
  return { kind: 'cast', operand: expr, type };
}

export function toBoolean(expr: BoundExpr): BoundExpr {
  return expr.type.name === 'BOOLEAN' ? expr : castTo(expr, BOOLEAN);
}

export class ExprBinder {
  readonly ctx: PlanningContext;
  private readonly subqueries: SubqueryPlanner | null;
  private readonly sql: string | undefined;
  private readonly outer: OuterColumnResolver | null;

  constructor(ctx: PlanningContext, subqueries: SubqueryPlanner | null, sql: string | undefined, outer: OuterColumnResolver | null = null) {
    this.ctx = ctx;
    this.subqueries = subqueries;
    this.sql = sql;
    this.outer = outer;
  }

  /** Source text of a node when the statement text is known. */
  sourceText(node: Span): string | null {
    if (this.sql === undefined || node.end <= node.pos || node.end > this.sql.length) return null;
    return this.sql.slice(node.pos, node.end);
  }

  /** The same binder, resolving names its scope lacks through `outer` (a lambda's body: bind-lambda.ts). */
  withOuter(outer: OuterColumnResolver): ExprBinder {
    return new ExprBinder(this.ctx, this.subqueries, this.sql, outer);
  }

  /** A scalar function call with casts to the argument types the registry asks for. */
  call(name: string, args: readonly BoundExpr[]): BoundExpr {
    const resolved = resolveFunction(name, args.map((arg) => arg.type), args.map((arg) => (arg.kind === 'literal' ? arg.value : undefined)));
    return {
      kind: 'call',
      name: resolved.name,
      args: args.map((arg, argIdx) => castTo(arg, resolved.argTypes[argIdx] ?? arg.type)),
      type: resolved.returnType,
    };
  }

  private logical(kind: 'and' | 'or', left: BoundExpr, right: BoundExpr): BoundExpr {
    const args: BoundExpr[] = [];
    for (const side of [toBoolean(left), toBoolean(right)]) {
      if (side.kind === kind) args.push(...side.args);
      else args.push(side);
    }
    return { kind, args, type: BOOLEAN };
  }

  private not(expr: BoundExpr): BoundExpr {
    return { kind: 'not', args: [toBoolean(expr)], type: BOOLEAN };
  }

  private intervalCall(date: BoundExpr, interval: IntervalExpr, subtract: boolean, env: BindEnv): BoundExpr {
    const amount = this.bind(interval.value, env);
    return this.call(intervalFunctionName(interval.unit, subtract), [date, amount]);
  }

  private subquery(ast: SubqueryExpr | ExistsExpr | InSubqueryExpr, operand: BoundExpr | null, env: BindEnv): BoundExpr {
    if (this.subqueries === null) throw new GaleneError('UNSUPPORTED', ['subquery in this context']);
    return this.subqueries.bindSubquery(ast, operand, env);
  }

  /** An aggregate call: its arguments bound in `env` (nested aggregates are error 1111). */
  bindAggregate(ast: FunctionCallExpr, env: BindEnv): AggregateSpec {
    const name = ast.name.toLowerCase();
    const orderBy = ast.orderBy ?? [];
    if (orderBy.length > 0 && ast.distinct) throw new GaleneError('UNSUPPORTED', [`DISTINCT with ORDER BY inside ${name}()`]);
    const plainEnv: BindEnv = { scope: env.scope, clause: env.clause };
    const isStar = ast.args.length === 1 && ast.args[0].kind === 'star';
    if (isStar && name !== 'count') throw new GaleneError('SYNTAX_ERROR', [`${ast.name}(*) is not valid`]);
    const args = isStar ? [] : ast.args.map((arg) => this.bind(arg, plainEnv));
    if (ast.separator !== undefined) args.push({ kind: 'literal', type: Types.varchar(Math.max(1, ast.separator.length)), value: ast.separator });
    // ORDER BY keys follow the arguments; Doris's default NULL order: first for ASC, last for DESC.
    for (const item of orderBy) args.push(this.bind(item.expr, plainEnv));
    const order = orderBy.map((item) => ({ descending: item.direction === 'DESC', nullsFirst: item.nulls === null ? item.direction === 'ASC' : item.nulls === 'FIRST' }));
    const resolved = resolveAggregate(name, args.map((arg) => arg.type), ast.distinct, order.length > 0 ? order : undefined);
    const cast = args.map((arg, argIdx) => castTo(arg, resolved.argTypes[argIdx] ?? arg.type));
    if (ast.distinct) for (const argExpr of cast) refuseJsonKey(argExpr.type);
    const spec = { name: resolved.name, args: cast, argTypes: cast.map((arg) => arg.type), distinct: ast.distinct, type: resolved.returnType };
    return order.length > 0 ? { ...spec, order } : spec;
  }

  bind(ast: Expr, env: BindEnv): BoundExpr {
    if (env.override) {
      const replaced = env.override(ast);
      if (replaced !== undefined) return replaced;
    }
    switch (ast.kind) {
      case 'literal': {
        const { type, value } = literalValue(ast);
        return { kind: 'literal', type, value };
      }
      case 'column': {
        const column = env.scope.find(ast, env.clause);
        if (column === null) {
          const outer = this.outer?.(ast, env.clause) ?? null;
          if (outer !== null) return outer;
          throw unknownColumn(ast, env.clause);
        }
        return { kind: 'column', index: column.index, type: column.type, name: column.name };
      }
      case 'star':
        throw new GaleneError('SYNTAX_ERROR', ["'*' is only allowed in the select list and in COUNT(*)"]);
      case 'param': {
        const given = this.ctx.parameters[ast.index];
        return { kind: 'param', index: ast.index, type: given?.type ?? Types.STRING };
      }
      case 'variable': {
        const { type, value } = ast.system ? this.ctx.getSystemVariable(ast.name, ast.scope) : this.ctx.getUserVariable(ast.name);
        return { kind: 'literal', type, value };
      }
      case 'unary': {
        if (ast.op === '+') return this.bind(ast.operand, env);
        const operand = this.bind(ast.operand, env);
        if (ast.op === 'NOT') return this.not(operand);
        return this.call(operatorFunctionName(ast.op === '-' ? 'neg' : 'bitnot'), [operand]);
      }
      case 'binary':
        return this.bindBinary(ast.op, ast.left, ast.right, env);
      case 'call':
        return this.bindCall(ast, env);
      case 'lambda':
        throw misplacedLambda(this.sourceText(ast) ?? 'this expression');
      case 'cast': {
        const operand = this.bind(ast.operand, env);
        if (typesEqual(operand.type, ast.targetType)) return operand;
        return { kind: 'cast', operand, type: ast.targetType };
      }
      case 'case': {
        const operand = ast.operand ? this.bind(ast.operand, env) : null;
        const whens = ast.whens.map((w) => ({
          when: operand ? this.call('eq', [operand, this.bind(w.when, env)]) : toBoolean(this.bind(w.when, env)),
          then: this.bind(w.then, env),
        }));
        const elseExpr = ast.elseExpr ? this.bind(ast.elseExpr, env) : null;
        const type = commonSuperType([...whens.map((w) => w.then.type), ...(elseExpr ? [elseExpr.type] : [])], 'CASE');
        return {
          kind: 'case',
          whens: whens.map((w) => ({ when: w.when, then: castTo(w.then, type) })),
          elseExpr: elseExpr ? castTo(elseExpr, type) : null,
          type,
        };
      }
      case 'in': {
        const operand = this.bind(ast.operand, env);
        const [folded, ...list] = this.collated('eq', [ast.operand], [operand, ...ast.list.map((item) => this.bind(item, env))], env);
        const type = commonSuperType([folded.type, ...list.map((item) => item.type)], 'in');
        return { kind: 'in', operand: castTo(folded, type), list: list.map((item) => castTo(item, type)), negated: ast.negated, type: BOOLEAN };
      }
      case 'between': {
        const operand = this.bind(ast.operand, env);
        const range = this.logical('and', this.call('ge', [operand, this.bind(ast.low, env)]), this.call('le', [operand, this.bind(ast.high, env)]));
        return ast.negated ? this.not(range) : range;
      }
      case 'like': {
        const name = ast.regexp ? 'regexp' : 'like';
        const test = this.call(name, this.collated(name, [ast.operand, ast.pattern], [this.bind(ast.operand, env), this.bind(ast.pattern, env)], env));
        return ast.negated ? this.not(test) : test;
      }
      case 'isnull':
        return { kind: 'isnull', operand: this.bind(ast.operand, env), negated: ast.negated, type: BOOLEAN };
      case 'interval':
        throw new GaleneError('SYNTAX_ERROR', ['INTERVAL is only allowed in date arithmetic']);
      case 'subquery':
      case 'exists':
        return this.subquery(ast, null, env);
      case 'insubquery':
        return this.subquery(ast, this.bind(ast.operand, env), env);
      case 'default':
        throw new GaleneError('SYNTAX_ERROR', ['DEFAULT is only allowed in INSERT ... VALUES']);
    }
  }

  private bindBinary(op: BinaryOp, leftAst: Expr, rightAst: Expr, env: BindEnv): BoundExpr {
    if ((op === '+' || op === '-') && rightAst.kind === 'interval') return this.intervalCall(this.bind(leftAst, env), rightAst, op === '-', env);
    if (op === '+' && leftAst.kind === 'interval') return this.intervalCall(this.bind(rightAst, env), leftAst, false, env);
    const left = this.bind(leftAst, env);
    const right = this.bind(rightAst, env);
    const name = operatorFunctionName(op);
    if (name === 'and' || name === 'or') return this.logical(name, left, right);
    return this.call(name, this.collated(name, [leftAst, rightAst], [left, right], env));
  }

  /** The operands of a comparison, folded to lower case when it reads information_schema strings (its collation is case-insensitive). */
  private collated(name: string, asts: readonly Expr[], operands: BoundExpr[], env: BindEnv): BoundExpr[] {
    if (!CASE_INSENSITIVE_COMPARISONS.has(name) || !operands.every((operand) => isStringType(operand.type))) return operands;
    if (!asts.some((ast) => readsInformationSchema(ast, env.scope, env.clause))) return operands;
    return operands.map((operand) => this.call('lower', [operand]));
  }

  private bindCall(ast: FunctionCallExpr, env: BindEnv): BoundExpr {
    const name = ast.name.toLowerCase();
    if (ast.over !== undefined || isWindowOnlyFunction(name)) throw windowNotAllowed(ast, env.clause, this.sourceText(ast));
    if (isAggregateFunctionName(name)) throw new GaleneError('INVALID_GROUP_FUNC');
    if (ast.distinct) throw new GaleneError('SYNTAX_ERROR', [`DISTINCT is not valid in ${ast.name}()`]);
    if (ast.args.some((arg) => arg.kind === 'star')) throw new GaleneError('SYNTAX_ERROR', [`${ast.name}(*) is not valid`]);
    if (isMatchFunction(name)) return bindMatch(this, ast, env);
    if (hasLambdaArgument(ast)) return bindHigherOrderCall(this, ast, env);
    if (lookupTableFunction(name) !== undefined) throw new GaleneError('ANALYSIS_ERROR', [`table function ${name} can only be used in LATERAL VIEW`]);
    const second = ast.args[1];
    if (ast.args.length === 2 && second.kind === 'interval' && ['date_add', 'adddate', 'date_sub', 'subdate'].includes(name)) {
      return this.intervalCall(this.bind(ast.args[0], env), second, name === 'date_sub' || name === 'subdate', env);
    }
    if (ast.args.length === 2 && second.kind === 'interval' && (name === 'date_floor' || name === 'date_ceil')) {
      // DATE_FLOOR(d, INTERVAL n unit): the unit rides as a string argument of the one registry function.
      const unit: BoundExpr = { kind: 'literal', type: Types.varchar(second.unit.length), value: second.unit };
      return this.call(name, [this.bind(ast.args[0], env), this.bind(second.value, env), unit]);
    }
    const first = ast.args[0];
    if ((name === 'timestampdiff' || name === 'timestampadd') && first?.kind === 'column' && first.qualifier.length === 0 && isIntervalUnit(first.name.toUpperCase())) {
      // TIMESTAMPDIFF(MONTH, a, b): the unit keyword arrives as a bare name; the registry takes it as a string.
      const unit: BoundExpr = { kind: 'literal', type: Types.varchar(first.name.length), value: first.name.toUpperCase() };
      return this.call(name, [unit, ...ast.args.slice(1).map((arg) => this.bind(arg, env))]);
    }
    return this.call(name, ast.args.map((arg) => this.bind(arg, env)));
  }
}
