/**
 * Generic helpers over bound expressions (src/exec/bound-expr.ts) shared by the binder, the optimizer
 * rules and the operators: structural keys (GROUP BY / ORDER BY matching, deduplication), tree mapping,
 * column-use analysis, conjunct splitting and the one-line text EXPLAIN prints. Pure functions, no state.
 */
import type { RawArray, RawValue } from '../../common/column';
import { formatValue } from '../../common/convert';
import { Types, typeToSql, type DataType } from '../../common/types';
import type { BoundExpr } from '../bound-expr';

/** Functions whose value changes between calls with the same arguments: never folded, never moved. */
export const NON_DETERMINISTIC_FUNCTIONS: ReadonlySet<string> = new Set(['rand', 'random', 'uuid', 'uuid_numeric', 'sleep', 'sysdate']);

function typeKey(type: DataType): string {
  return typeToSql(type);
}

function rawKey(value: RawValue): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}

/**
 * Text of array values (a 128-float query vector), kept per value: the optimizer fingerprints the plan
 * before and after every rule, and the rules copy the literal nodes but share their (immutable) values,
 * so each array is turned into text once per statement instead of a few dozen times.
 */
const arrayKeys = new WeakMap<RawArray, string>();

function arrayKey(value: RawArray): string {
  let key = arrayKeys.get(value);
  if (key === undefined) {
    key = rawKey(value);
    arrayKeys.set(value, key);
  }
  return key;
}

/** A string equal for structurally equal expressions (same columns, literals, calls and types). */
export function exprKey(expr: BoundExpr): string {
  switch (expr.kind) {
    case 'column':
      return `#${expr.index}`;
    case 'literal':
      return `L(${typeKey(expr.type)}:${Array.isArray(expr.value) ? arrayKey(expr.value) : rawKey(expr.value)})`;
    case 'param':
      return `?${expr.index}`;
    case 'call':
      return `${expr.name}(${expr.args.map(exprKey).join(',')})`;
    case 'cast':
      return `cast(${exprKey(expr.operand)} as ${typeKey(expr.type)})`;
    case 'case':
      return `case(${expr.whens.map((w) => `${exprKey(w.when)}:${exprKey(w.then)}`).join(';')};${expr.elseExpr ? exprKey(expr.elseExpr) : ''})`;
    case 'in':
      return `${expr.negated ? 'notin' : 'in'}(${exprKey(expr.operand)};${expr.list.map(exprKey).join(',')})`;
    case 'and':
    case 'or':
    case 'not':
      return `${expr.kind}(${expr.args.map(exprKey).join(',')})`;
    case 'isnull':
      return `${expr.negated ? 'isnotnull' : 'isnull'}(${exprKey(expr.operand)})`;
    case 'lambda':
      return `lambda(${expr.params.length}:${exprKey(expr.body)};${expr.captures.map(exprKey).join(',')})`;
  }
}

/** The direct sub-expressions of a node. */
export function exprChildren(expr: BoundExpr): BoundExpr[] {
  switch (expr.kind) {
    case 'column':
    case 'literal':
    case 'param':
      return [];
    case 'call':
      return [...expr.args];
    case 'cast':
    case 'isnull':
      return [expr.operand];
    case 'case': {
      const out: BoundExpr[] = [];
      for (const w of expr.whens) out.push(w.when, w.then);
      if (expr.elseExpr) out.push(expr.elseExpr);
      return out;
    }
    case 'in':
      return [expr.operand, ...expr.list];
    case 'and':
    case 'or':
    case 'not':
      return [...expr.args];
    case 'lambda':
      return [...expr.captures];
  }
}

/** Rebuild a node with new children given in exprChildren() order. */
export function withExprChildren(expr: BoundExpr, children: readonly BoundExpr[]): BoundExpr {
  switch (expr.kind) {
    case 'column':
    case 'literal':
    case 'param':
      return expr;
    case 'call':
      return { ...expr, args: children };
    case 'cast':
    case 'isnull':
      return { ...expr, operand: children[0] };
    case 'case': {
      const whens: { when: BoundExpr; then: BoundExpr }[] = [];
      for (let whenIdx = 0; whenIdx < expr.whens.length; whenIdx++) whens.push({ when: children[whenIdx * 2], then: children[whenIdx * 2 + 1] });
      return { ...expr, whens, elseExpr: expr.elseExpr ? children[expr.whens.length * 2] : null };
    }
    case 'in':
      return { ...expr, operand: children[0], list: children.slice(1) };
    case 'and':
    case 'or':
    case 'not':
      return { ...expr, args: children };
    case 'lambda':
      return { ...expr, captures: children };
  }
}

/** Bottom-up rewrite: `fn` sees each node after its children were rewritten. Keeps identity when nothing changes. */
export function transformExpr(expr: BoundExpr, fn: (node: BoundExpr) => BoundExpr): BoundExpr {
  const children = exprChildren(expr);
  let node = expr;
  if (children.length > 0) {
    let changed = false;
    const next = children.map((child) => {
      const out = transformExpr(child, fn);
      if (out !== child) changed = true;
      return out;
    });
    if (changed) node = withExprChildren(expr, next);
  }
  return fn(node);
}

/** True when `pred` holds for some node of the tree. */
export function anyExpr(expr: BoundExpr, pred: (node: BoundExpr) => boolean): boolean {
  if (pred(expr)) return true;
  for (const child of exprChildren(expr)) if (anyExpr(child, pred)) return true;
  return false;
}

/** Input column indices an expression reads. */
export function collectColumns(expr: BoundExpr, into: Set<number> = new Set()): Set<number> {
  if (expr.kind === 'column') into.add(expr.index);
  else for (const child of exprChildren(expr)) collectColumns(child, into);
  return into;
}

/** Replace every column reference by `fn(column)` (index remapping, substitution through projections). */
export function substituteColumns(expr: BoundExpr, fn: (index: number, column: BoundExpr & { kind: 'column' }) => BoundExpr): BoundExpr {
  return transformExpr(expr, (node) => (node.kind === 'column' ? fn(node.index, node) : node));
}

/** Shift or renumber column indices through a mapping old index -> new index. */
export function remapColumns(expr: BoundExpr, mapping: (index: number) => number): BoundExpr {
  return substituteColumns(expr, (index, column) => {
    const next = mapping(index);
    return next === index ? column : { ...column, index: next };
  });
}

export function isDeterministic(expr: BoundExpr): boolean {
  return !anyExpr(expr, (node) => (node.kind === 'call' && NON_DETERMINISTIC_FUNCTIONS.has(node.name)) || (node.kind === 'lambda' && !isDeterministic(node.body)));
}

/** The AND-ed parts of a predicate, flattened. */
export function splitConjuncts(expr: BoundExpr, into: BoundExpr[] = []): BoundExpr[] {
  if (expr.kind === 'and') for (const arg of expr.args) splitConjuncts(arg, into);
  else into.push(expr);
  return into;
}

/** AND of a list of predicates (null for an empty list). */
export function combineConjuncts(parts: readonly BoundExpr[]): BoundExpr | null {
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0];
  return { kind: 'and', args: [...parts], type: Types.BOOLEAN };
}

export function literal(type: DataType, value: RawValue): BoundExpr {
  return { kind: 'literal', type, value };
}

export function isTrueLiteral(expr: BoundExpr): boolean {
  return expr.kind === 'literal' && expr.value !== null && expr.type.name === 'BOOLEAN' && Number(expr.value) === 1;
}

const INFIX: Readonly<Record<string, string>> = {
  add: '+', subtract: '-', multiply: '*', divide: '/', mod: '%', int_divide: 'DIV',
  eq: '=', eq_null_safe: '<=>', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=',
};

/** Readable one-line form for EXPLAIN (column names, Doris-style literals, infix operators). */
export function exprToString(expr: BoundExpr): string {
  switch (expr.kind) {
    case 'column':
      return expr.name;
    case 'literal': {
      if (expr.value === null) return 'NULL';
      const text = formatValue(expr.type, expr.value) ?? 'NULL';
      return typeof expr.value === 'string' || expr.type.name === 'DATE' || expr.type.name === 'DATETIME' ? `'${text}'` : text;
    }
    case 'param':
      return `?${expr.index}`;
    case 'call': {
      const infix = INFIX[expr.name];
      if (infix && expr.args.length === 2) return `(${exprToString(expr.args[0])} ${infix} ${exprToString(expr.args[1])})`;
      return `${expr.name}(${expr.args.map(exprToString).join(', ')})`;
    }
    case 'cast':
      return `CAST(${exprToString(expr.operand)} AS ${typeToSql(expr.type)})`;
    case 'case':
      return `CASE${expr.whens.map((w) => ` WHEN ${exprToString(w.when)} THEN ${exprToString(w.then)}`).join('')}${expr.elseExpr ? ` ELSE ${exprToString(expr.elseExpr)}` : ''} END`;
    case 'in':
      return `${exprToString(expr.operand)} ${expr.negated ? 'NOT IN' : 'IN'} (${expr.list.map(exprToString).join(', ')})`;
    case 'and':
    case 'or':
      return `(${expr.args.map(exprToString).join(` ${expr.kind.toUpperCase()} `)})`;
    case 'not':
      return `NOT ${exprToString(expr.args[0])}`;
    case 'isnull':
      return `${exprToString(expr.operand)} IS ${expr.negated ? 'NOT ' : ''}NULL`;
    case 'lambda':
      return `${expr.params.length === 1 ? expr.params[0] : `(${expr.params.join(', ')})`} -> ${exprToString(expr.body)}`;
  }
}
