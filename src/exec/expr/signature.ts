/**
 * Typed signatures: a function declares its arguments once (name, type class, optional, variadic) and
 * its result, and defineFunction() derives what FunctionDef spells out — minArgs / maxArgs, the
 * SHOW FUNCTIONS signature text and, when every argument has a type class and the result is a type, the
 * resolver that casts the arguments. Families with irregular rules (ceil's DECIMAL scale, date_trunc's
 * two argument orders) still give `resolve`; operators whose text is not a call (`a + b`) give `signature`.
 */
import { DataType, isNumericType, isStringType, Types } from '../../common/types';
import type { ArgLiterals, FunctionDef, Resolution } from './function-registry';

/**
 * What an argument is cast to: STRING keeps CHAR/VARCHAR/STRING (else STRING); INT keeps TINYINT,
 * SMALLINT and INT (else INT); BIGINT and DOUBLE cast to that type; NUMERIC keeps numeric types except
 * BOOLEAN (else DOUBLE); TEMPORAL keeps DATE and DATETIME (else DATETIME: strings parse, bad values NULL).
 */
export type ArgClass = 'STRING' | 'INT' | 'BIGINT' | 'DOUBLE' | 'NUMERIC' | 'TEMPORAL';

export interface ArgSpec {
  readonly name: string;
  readonly type?: ArgClass;
  /** May be left out (only trailing arguments, except before a required last one: see log). */
  readonly optional?: boolean;
  /** Repeats: the last argument only; with optional, zero or more times. */
  readonly variadic?: boolean;
}

/** A declaration: FunctionDef without the derived fields. */
export interface FunctionDecl extends Omit<FunctionDef, 'signature' | 'minArgs' | 'maxArgs' | 'resolve' | 'nulls'> {
  readonly args: readonly ArgSpec[];
  /** The result type, or the text after '->' when it depends on the arguments ('type of x'). */
  readonly returns: DataType | string;
  /** Text after the result in the signature, e.g. "(EXTRACT(unit FROM d))". */
  readonly note?: string;
  /** Required when `returns` is text or an argument has no type class. */
  readonly resolve?: (argTypes: readonly DataType[], literals?: ArgLiterals) => Resolution;
  /** The whole signature text, for forms that are not calls (operators, LIKE). */
  readonly signature?: string;
  /** Default 'propagate'. */
  readonly nulls?: 'propagate' | 'custom';
}

/** The cast target of one argument of this class. */
export function castForClass(cls: ArgClass, t: DataType): DataType {
  switch (cls) {
    case 'STRING':
      return isStringType(t) ? t : Types.STRING;
    case 'INT':
      return t.name === 'TINYINT' || t.name === 'SMALLINT' || t.name === 'INT' ? t : Types.INT;
    case 'BIGINT':
      return Types.BIGINT;
    case 'DOUBLE':
      return Types.DOUBLE;
    case 'NUMERIC':
      return isNumericType(t) && t.name !== 'BOOLEAN' ? t : Types.DOUBLE;
    case 'TEMPORAL':
      return t.name === 'DATE' || t.name === 'DATETIME' ? t : Types.DATETIME;
  }
}

/** A type's name in signature text: string types read VARCHAR. */
function typeLabel(t: DataType): string {
  return isStringType(t) ? 'VARCHAR' : t.name;
}

/** `f(a, b[, c])`, `f([seed])`, `f(str, ...)`. */
export function signatureText(name: string, args: readonly ArgSpec[], returns: DataType | string, note?: string): string {
  let list = '';
  args.forEach((arg, argIdx) => {
    const sep = argIdx === 0 ? '' : ', ';
    const text = arg.variadic ? `${arg.name}, ...` : arg.name;
    list += arg.optional && !arg.variadic ? `[${sep}${text}]` : sep + text;
  });
  const result = typeof returns === 'string' ? returns : typeLabel(returns);
  return `${name}(${list}) -> ${result}${note === undefined ? '' : ' ' + note}`;
}

/** Which declared argument the argument at argIdx is (the variadic one repeats). */
function specAt(args: readonly ArgSpec[], argIdx: number): ArgSpec {
  return args[Math.min(argIdx, args.length - 1)];
}

/** The resolver of a declaration whose arguments all have classes and whose result is a type. */
function derivedResolve(decl: FunctionDecl): (argTypes: readonly DataType[]) => Resolution {
  const returnType = decl.returns as DataType;
  const classes = decl.args.map((arg) => arg.type);
  if (classes.some((cls) => cls === undefined)) throw new Error(`function ${decl.name}: an argument without a type needs resolve`);
  return (types) => ({ argTypes: types.map((t, argIdx) => castForClass(specAt(decl.args, argIdx).type!, t)), returnType });
}

/** The FunctionDef of a declaration (arity, signature text and, where it can, the resolver derived). */
export function defineFunction(decl: FunctionDecl): FunctionDef {
  const { args, returns, note, signature, resolve, nulls, ...rest } = decl;
  const variadic = args.length > 0 && args[args.length - 1].variadic === true;
  const minArgs = args.filter((arg) => !arg.optional).length;
  const maxArgs = variadic ? Infinity : args.length;
  if (resolve === undefined && typeof returns === 'string') throw new Error(`function ${decl.name}: a text result needs resolve`);
  return {
    ...rest,
    signature: signature ?? signatureText(decl.name, args, returns, note),
    minArgs,
    maxArgs,
    resolve: resolve ?? derivedResolve(decl),
    nulls: nulls ?? 'propagate',
  };
}

/** Shorthands for argument lists: arg('str', 'STRING'), opt('len', 'INT'), rest('str', 'STRING'). */
export const arg = (name: string, type?: ArgClass): ArgSpec => ({ name, type });
export const opt = (name: string, type?: ArgClass): ArgSpec => ({ name, type, optional: true });
export const rest = (name: string, type?: ArgClass, optional = false): ArgSpec => ({ name, type, variadic: true, optional });
