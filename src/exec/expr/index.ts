/**
 * The vectorized expression engine: scalar functions and operators, casts, aggregates, and the compiler
 * that turns bound expressions into batch evaluators. Implements the contract in ../expr-api.ts for the
 * binder (src/sql) and the operators (src/exec/operators).
 *
 * Layering: imports only common/, the exec contracts (bound-expr, context, expr-api) and the AST's type
 * declarations; nothing here knows about storage, the catalog or the protocol.
 *
 * Registry names the binder uses for operators and special forms:
 * - operators: operatorFunctionName() ('+' add, '-' subtract, '*' multiply, '/' divide, '%' mod,
 *   DIV int_divide, '=' eq, '!=' ne, '<' lt, '<=' le, '>' gt, '>=' ge, '<=>' eq_null_safe, XOR xor,
 *   '&' bitand, '|' bitor, '^' bitxor, '~' bitnot, unary '-' negative; AND/OR/NOT are BoundLogical);
 * - `d +/- INTERVAL n UNIT`: intervalFunctionName(unit, subtract) -> years_add ... microseconds_sub;
 * - EXTRACT(unit FROM d): year/quarter/month/week/day/hour/minute/second/microsecond(d);
 * - TRIM([BOTH|LEADING|TRAILING] [x] FROM s): trim/ltrim/rtrim(s[, x]);
 * - POSITION(a IN b): locate(a, b); LIKE: like / not_like; REGEXP: regexp / not_regexp;
 * - TIMESTAMPDIFF(unit, a, b): timestampdiff('UNIT', a, b).
 */
import type { RawValue } from '../../common/column';
import { DataType } from '../../common/types';
import type { ResolvedFunction } from '../expr-api';
import { listAggregateFunctions } from './aggregates/aggregate-registry';
import { listScalarFunctions, resolveFunction as registryResolve } from './function-registry';
import { ensureFunctionsRegistered } from './functions/all-functions';
import { GROUPING_FUNCTIONS, WINDOW_FUNCTIONS } from './window-function-list';
import { listTableFunctions } from './table-functions/all-table-functions';

export { isAggregateFunctionName, resolveAggregate } from './aggregates/aggregate-registry';
export { castVector } from './cast';
export { compileExpr, evaluateConstant, evaluateConstantVector, selectTrue } from './compile-expr';
export { operatorFunctionName } from './function-registry';
export { intervalFunctionName, isIntervalUnit } from './functions/datetime-functions';
export { matchLike } from './functions/like-functions';
export type { IntervalUnit } from './functions/datetime-functions';
export { commonSuperType, literalValue } from './type-rules';
export { lookupTableFunction } from './table-functions/all-table-functions';
export type { TableFunctionDef } from './table-functions/table-function-registry';

/**
 * Resolve a scalar function or operator by registry name (case-insensitive, aliases allowed) for these
 * argument types; the binder casts each argument to the returned argTypes. Throws UNKNOWN_FUNCTION,
 * WRONG_ARG_COUNT or TYPE_MISMATCH.
 */
export function resolveFunction(name: string, argTypes: readonly DataType[], literals?: readonly (RawValue | undefined)[]): ResolvedFunction {
  ensureFunctionsRegistered();
  return registryResolve(name, argTypes, literals);
}

/** One row of SHOW FUNCTIONS / the generated function reference. */
export interface FunctionInfo {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly kind: 'scalar' | 'aggregate' | 'window' | 'grouping' | 'table';
  readonly family: string;
  readonly signature: string;
  readonly description: string;
  readonly example: string;
}

/** Every scalar, aggregate, window-only, grouping and table function, sorted by name (SHOW FUNCTIONS, docs). */
export function listFunctions(): FunctionInfo[] {
  ensureFunctionsRegistered();
  const out: FunctionInfo[] = [];
  for (const def of listScalarFunctions()) {
    out.push({ name: def.name, aliases: def.aliases ?? [], kind: 'scalar', family: def.family, signature: def.signature, description: def.description, example: def.example });
  }
  for (const def of listAggregateFunctions()) {
    out.push({ name: def.name, aliases: def.aliases ?? [], kind: 'aggregate', family: 'aggregate', signature: def.signature, description: def.description, example: def.example });
  }
  for (const def of WINDOW_FUNCTIONS) out.push({ ...def, aliases: [], kind: 'window', family: 'window' });
  for (const def of GROUPING_FUNCTIONS) out.push({ ...def, aliases: [], kind: 'grouping', family: 'grouping' });
  for (const def of listTableFunctions()) {
    out.push({ name: def.name, aliases: def.aliases ?? [], kind: 'table', family: 'table', signature: def.signature, description: def.description, example: def.example });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
