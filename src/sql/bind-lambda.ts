/**
 * Binding of lambdas and the array higher-order functions, as Doris's FE does it: every function that
 * takes a lambda is rewritten into one over `array_map(lambda, arrays...)`, so only array_map (and
 * array_sort's comparator) ever evaluates a lambda (exec/expr/lambda-kernels.ts):
 *
 *   array_filter(f, a, ...)      -> array_filter(a, array_map(f, a, ...))
 *   array_exists / array_count / array_first_index / array_last_index / array_match_all / array_match_any
 *                  (f, a, ...)   -> fn(array_map(f, a, ...))
 *   array_sortby / array_split / array_reverse_split (f, a, ...) -> fn(a, array_map(f, a, ...))
 *   array_first(f, a, ...)       -> element_at(array_filter(a, array_map(f, a, ...)), 1)   (array_last: -1)
 *
 * The lambda's parameters are typed from the arrays' element types; a name the parameters do not have
 * resolves in the query around it and becomes a capture (BoundLambda.captures).
 */
import { GaleneError } from '../common/errors';
import { elementType, Types, type DataType } from '../common/types';
import type { BoundExpr, BoundLambda } from '../exec/bound-expr';
import { exprKey } from '../exec/plan/bound-expr-utils';
import type { ColumnRefExpr, Expr, FunctionCallExpr, LambdaExpr, Span } from './ast';
import { Scope, type Clause } from './binder-scope';

interface LambdaBindEnv {
  readonly scope: Scope;
  readonly clause: Clause;
}

/** What binding a lambda needs of the expression binder (binder-expr.ts implements it). */
export interface LambdaBinder {
  bind(ast: Expr, env: LambdaBindEnv): BoundExpr;
  call(name: string, args: readonly BoundExpr[]): BoundExpr;
  sourceText(node: Span): string | null;
  /** The same binder, resolving names its scope lacks through `outer`. */
  withOuter(outer: (ref: ColumnRefExpr, clause: Clause) => BoundExpr | null): LambdaBinder;
}

/** Functions that take a lambda as their first argument. */
const LAMBDA_FUNCTIONS: ReadonlySet<string> = new Set([
  'array_map', 'array_filter', 'array_exists', 'array_count', 'array_first', 'array_last', 'array_first_index', 'array_last_index',
  'array_match_all', 'array_match_any', 'array_sortby', 'array_split', 'array_reverse_split', 'array_sort',
]);

/** fn(array_map(...)) */
const OVER_MAPPED: ReadonlySet<string> = new Set(['array_exists', 'array_count', 'array_first_index', 'array_last_index', 'array_match_all', 'array_match_any']);
/** fn(first array, array_map(...)) */
const FIRST_AND_MAPPED: ReadonlySet<string> = new Set(['array_filter', 'array_sortby', 'array_split', 'array_reverse_split']);

export function hasLambdaArgument(ast: FunctionCallExpr): boolean {
  return ast.args.some((arg) => arg.kind === 'lambda');
}

/** Doris's error for a lambda anywhere but the first argument of a higher-order function. */
export function misplacedLambda(where: string): GaleneError {
  return new GaleneError('ANALYSIS_ERROR', [`lambda expression is only allowed as the first argument of an array higher-order function (array_map, array_filter, ...), not in ${where}`]);
}

/** An array argument: ARRAY, or NULL read as ARRAY<TINYINT>. */
function arrayArgument(name: string, arg: BoundExpr): BoundExpr {
  if (arg.type.name === 'NULL') return { kind: 'literal', type: Types.array(Types.TINYINT), value: null };
  if (arg.type.name !== 'ARRAY') throw new GaleneError('TYPE_MISMATCH', [`lambda argument of ${name} must be an array, got ${arg.type.name}`]);
  return arg;
}

/** A lambda over `paramTypes`, its free names captured from `env`. */
function bindLambda(binder: LambdaBinder, lambda: LambdaExpr, paramTypes: readonly DataType[], env: LambdaBindEnv): BoundLambda {
  const params = lambda.params;
  if (params.length !== paramTypes.length) {
    throw new GaleneError('ANALYSIS_ERROR', [`lambda ${binder.sourceText(lambda) ?? ''} arguments' size is not equal parameters' size`]);
  }
  const lower = params.map((name) => name.toLowerCase());
  if (new Set(lower).size !== lower.length) throw new GaleneError('ANALYSIS_ERROR', [`lambda ${binder.sourceText(lambda) ?? ''} has duplicate parameter names`]);
  const paramScope = new Scope(
    params.map((name, index) => ({ name, qualifier: null, database: null, index, type: paramTypes[index], hiddenUnqualified: false, origin: { name, type: paramTypes[index], nullable: true } })),
  );
  const captures: BoundExpr[] = [];
  const captureIndex = new Map<string, number>();
  const capture = (ref: ColumnRefExpr): BoundExpr => {
    const outer = binder.bind(ref, env);
    const key = exprKey(outer);
    let slot = captureIndex.get(key);
    if (slot === undefined) {
      slot = captures.length;
      captures.push(outer);
      captureIndex.set(key, slot);
    }
    return { kind: 'column', index: params.length + slot, type: outer.type, name: ref.name };
  };
  const body = binder.withOuter(capture).bind(lambda.body, { scope: paramScope, clause: env.clause });
  const type = body.type.name === 'NULL' ? Types.TINYINT : body.type;
  return { kind: 'lambda', params, paramTypes, captures, body: body.type.name === 'NULL' ? { kind: 'literal', type, value: null } : body, type };
}

/** A call with a lambda argument, rewritten as the module comment says. */
export function bindHigherOrderCall(binder: LambdaBinder, ast: FunctionCallExpr, env: LambdaBindEnv): BoundExpr {
  const name = ast.name.toLowerCase();
  if (!LAMBDA_FUNCTIONS.has(name)) throw misplacedLambda(`${ast.name}()`);
  const [first, ...rest] = ast.args;
  if (first.kind !== 'lambda' || rest.some((arg) => arg.kind === 'lambda')) throw misplacedLambda(`argument ${ast.args.findIndex((arg, idx) => arg.kind === 'lambda' && idx > 0) + 1} of ${ast.name}()`);
  if (rest.length === 0) throw new GaleneError('ANALYSIS_ERROR', [`The ${name} function must have at least two params`]);
  const arrays = rest.map((arg) => arrayArgument(name, binder.bind(arg, env)));
  const elementTypes = arrays.map((array) => {
    const element = elementType(array.type);
    return element.name === 'NULL' ? Types.TINYINT : element;
  });
  if (name === 'array_sort') {
    if (arrays.length !== 1) throw new GaleneError('WRONG_ARG_COUNT', ['array_sort']);
    const comparator = bindLambda(binder, first, [elementTypes[0], elementTypes[0]], env);
    return { kind: 'call', name: 'array_sort', args: [comparator, arrays[0]], type: arrays[0].type };
  }
  const lambda = bindLambda(binder, first, elementTypes, env);
  const mapped: BoundExpr = { kind: 'call', name: 'array_map', args: [lambda, ...arrays], type: Types.array(lambda.type) };
  if (name === 'array_map') return mapped;
  if (OVER_MAPPED.has(name)) return binder.call(name, [mapped]);
  if (FIRST_AND_MAPPED.has(name)) return binder.call(name, [arrays[0], mapped]);
  // array_first / array_last
  const filtered = binder.call('array_filter', [arrays[0], mapped]);
  return binder.call('element_at', [filtered, { kind: 'literal', type: Types.TINYINT, value: name === 'array_first' ? 1 : -1 }]);
}
