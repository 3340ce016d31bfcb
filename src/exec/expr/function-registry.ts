/**
 * The scalar function registry. A function is one declaration (FunctionDef): its name and aliases, how
 * it types its arguments, how it treats NULL, whether it is deterministic, its kernel, a description and
 * an example. resolveFunction() serves the binder; listFunctions() serves SHOW FUNCTIONS and the docs.
 *
 * Each family lives in its own file under functions/ and exports an array of FunctionDef; adding a
 * function is adding one entry there.
 */
import type { RawValue, Vector } from '../../common/column';
import { galeneError } from '../../common/errors';
import { DataType, typeToSql } from '../../common/types';
import type { TaskContext } from '../context';
import type { ResolvedFunction } from '../expr-api';

/** What a kernel knows about the call it evaluates; one per call site, created by compileExpr. */
export interface CallSite {
  readonly name: string;
  readonly argTypes: readonly DataType[];
  readonly returnType: DataType;
  /**
   * Per argument: the value is the same on every row of the batch (a literal, a parameter, a constant
   * sub-expression). Such arguments still arrive as full-length vectors, so kernels may ignore the flag;
   * fast paths read row 0. With nulls 'propagate', a constant argument is never NULL inside a kernel.
   */
  readonly isConst: readonly boolean[];
  /** Per-call-site scratch for kernels (a compiled LIKE pattern, a parsed date format...). */
  readonly cache: Map<string, unknown>;
  /**
   * The caller consumes each result before evaluating the next batch (aggregate arguments, a fused
   * filter's predicate), so a kernel may write its result into a buffer it reuses across batches
   * (outputF64 / outputU8 in vector-ops.ts) instead of allocating one per batch.
   */
  readonly reuseOutput?: boolean;
}

/** Computes a function over whole vectors; returns `rowCount` values of site.returnType. */
export type Kernel = (args: readonly Vector[], rowCount: number, site: CallSite, ctx: TaskContext) => Vector;

/** Per argument: its value when it is a literal (named_struct's names, struct_element's field), else undefined. */
export type ArgLiterals = readonly (RawValue | undefined)[];

export interface Resolution {
  readonly argTypes: readonly DataType[];
  readonly returnType: DataType;
}

export type FunctionFamily = 'operator' | 'comparison' | 'logical' | 'string' | 'math' | 'datetime' | 'conditional' | 'predicate' | 'session' | 'array' | 'search' | 'json' | 'bitmap' | 'hll' | 'quantile' | 'spatial';

export interface FunctionDef {
  /** Canonical name, lower case (Doris's name). */
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly family: FunctionFamily;
  /** Human signature for SHOW FUNCTIONS, e.g. 'substring(str, pos[, len]) -> VARCHAR'. */
  readonly signature: string;
  readonly minArgs: number;
  /** Infinity for variadic functions. */
  readonly maxArgs: number;
  /** Types to cast the arguments to, and the result type; throws TYPE_MISMATCH for unusable types. */
  readonly resolve: (argTypes: readonly DataType[], literals?: ArgLiterals) => Resolution;
  /**
   * 'propagate': NULL in any argument gives NULL; the engine ORs the input null maps, so the kernel
   * computes every row without looking at nulls (values under NULL are don't-care). The kernel may
   * still return its own nulls (division by zero), which the engine keeps.
   * 'custom': the kernel reads the null maps itself (coalesce, if, concat_ws, <=>).
   */
  readonly nulls: 'propagate' | 'custom';
  /**
   * 'pure' (default): same inputs, same output. 'statement': constant within a statement (now(),
   * database()). 'row': differs per row (rand()).
   */
  readonly volatility?: 'pure' | 'statement' | 'row';
  readonly kernel: Kernel;
  readonly description: string;
  readonly example: string;
}

const registry = new Map<string, FunctionDef>();
const canonical: FunctionDef[] = [];

/** Add function declarations (each family file's array); names and aliases must be unique. */
export function registerFunctions(defs: readonly FunctionDef[]): void {
  for (const def of defs) {
    for (const name of [def.name, ...(def.aliases ?? [])]) {
      if (registry.has(name)) throw galeneError('INTERNAL', `function ${name} declared twice`);
      registry.set(name, def);
    }
    canonical.push(def);
  }
}

/** The declaration of a function by name or alias (case-insensitive), or undefined. */
export function lookupFunction(name: string): FunctionDef | undefined {
  return registry.get(name.toLowerCase());
}

/**
 * Resolve a scalar function or operator for the argument types. Throws UNKNOWN_FUNCTION,
 * WRONG_ARG_COUNT, TYPE_MISMATCH. The binder casts each argument to the returned argTypes.
 */
export function resolveFunction(name: string, argTypes: readonly DataType[], literals?: ArgLiterals): ResolvedFunction {
  const def = lookupFunction(name);
  if (def === undefined) throw galeneError('UNKNOWN_FUNCTION', name);
  if (argTypes.length < def.minArgs || argTypes.length > def.maxArgs) throw galeneError('WRONG_ARG_COUNT', name);
  const resolution = def.resolve(argTypes, literals);
  return { name: def.name, returnType: resolution.returnType, argTypes: resolution.argTypes };
}

/** Every scalar function (one entry per canonical name), for SHOW FUNCTIONS and generated docs. */
export function listScalarFunctions(): readonly FunctionDef[] {
  return canonical;
}

/** SQL's binary operators (the parser's BinaryExpr carries one); each runs as the function named below. */
export type BinaryOp =
  | '+' | '-' | '*' | '/' | '%' | 'DIV'
  | '=' | '<=>' | '!=' | '<' | '<=' | '>' | '>='
  | 'AND' | 'OR' | 'XOR'
  | '&' | '|' | '^' | '||';

const OPERATOR_NAMES: Record<BinaryOp | 'neg' | 'bitnot', string> = {
  '+': 'add',
  '-': 'subtract',
  '*': 'multiply',
  '/': 'divide',
  '%': 'mod',
  DIV: 'int_divide',
  '=': 'eq',
  '<=>': 'eq_null_safe',
  '!=': 'ne',
  '<': 'lt',
  '<=': 'le',
  '>': 'gt',
  '>=': 'ge',
  AND: 'and',
  OR: 'or',
  XOR: 'xor',
  '&': 'bitand',
  '|': 'bitor',
  '^': 'bitxor',
  // Doris's default sql_mode has no PIPES_AS_CONCAT: `||` is logical OR.
  '||': 'or',
  neg: 'negative',
  bitnot: 'bitnot',
};

/**
 * Registry name of an operator. AND / OR map to 'and' / 'or', which the binder expresses as BoundLogical
 * nodes (three-valued logic), not as calls.
 */
export function operatorFunctionName(op: BinaryOp | 'neg' | 'bitnot'): string {
  return OPERATOR_NAMES[op];
}

/** The TYPE_MISMATCH error for a function that cannot take these argument types. */
export function badArgs(name: string, argTypes: readonly DataType[]): Error {
  return galeneError('TYPE_MISMATCH', `No matching function with signature: ${name}(${argTypes.map(typeToSql).join(', ')})`);
}
