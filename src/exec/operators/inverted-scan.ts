/**
 * The inverted-index predicates of a TableScan (TableScanNode.inverted, planned by
 * src/sql/rules/inverted-index-pushdown.ts): when the scan starts, every leaf's operands are bound (`?`
 * parameters and subquery results substituted) into the reader's queries (InvertedFilter), which the
 * table source applies to each segment before reading columns (src/be/inverted-segment-filter.ts). Also
 * their EXPLAIN lines.
 */
import type { Batch, RawValue } from '../../common/column';
import { getRaw } from '../../common/column';
import { GaleneError } from '../../common/errors';
import { isIntegerType, physicalKind, type DataType } from '../../common/types';
import { findColumn, type TableSchema } from '../../meta/schema';
import type { InvertedQuery } from '../../storage/inverted/inverted-query';
import type { BoundExpr } from '../bound-expr';
import { bindFragmentParams } from '../parallel/run-fragment';
import { exprToString } from '../plan/bound-expr-utils';
import type { InvertedFilter, InvertedFilterNode } from '../plan/fragment-spec';
import type { OperatorRuntime } from '../plan/operator-runtime';
import type { InvertedLeaf, InvertedPredicate, InvertedScanSpec, TableScanNode } from '../plan/physical-plan';

const ONE_ROW: Batch = { length: 1, columns: [] };

/** An operand's value for this run in the column's type, or undefined when it has no exact one (`int = 1.5`). */
export function operandValue(expr: BoundExpr, columnType: DataType, rt: OperatorRuntime): RawValue | undefined {
  const bound = bindFragmentParams(rt.resolve(expr), rt.ctx.parameters);
  if (bound === null) throw new GaleneError('INTERNAL', [`inverted index scan: parameter of ${exprToString(expr)} is unbound`]);
  const value = getRaw(rt.compile(bound)(ONE_ROW, rt.ctx), 0);
  if (value === null || expr.kind !== 'param' || !isIntegerType(columnType)) return value ?? undefined;
  // A numeric parameter for an integer column: exact integers only.
  const num = typeof value === 'bigint' ? value : Number(value);
  if (typeof num === 'number' && !Number.isInteger(num)) return undefined;
  const kind = physicalKind(columnType);
  return kind === 'i64' || kind === 'bigint' ? BigInt(num) : Number(num);
}

/** The type a leaf's operands have: the column's, or its element type for array_contains. */
function operandType(table: TableSchema, leaf: InvertedLeaf): DataType {
  const type = findColumn(table, leaf.column)!.type;
  return leaf.op === 'array_contains' ? type.element! : type;
}

/** A leaf's reader query for this run, or null when an operand has no exact value (then every segment filters exactly). */
function bindLeaf(table: TableSchema, leaf: InvertedLeaf, rt: OperatorRuntime): InvertedQuery | null {
  const type = operandType(table, leaf);
  const values: RawValue[] = [];
  for (const operand of leaf.operands) {
    const value = operandValue(operand, type, rt);
    if (value === undefined || value === null) return null;
    values.push(value);
  }
  switch (leaf.op) {
    case 'is_null':
    case 'is_not_null':
      return { op: leaf.op };
    case 'in':
    case 'not_in':
      return { op: leaf.op, values };
    case 'match_any':
    case 'match_all':
    case 'match_phrase':
    case 'match_phrase_prefix':
    case 'match_regexp':
    case 'match_phrase_edge':
      return { op: leaf.op, text: String(values[0]) };
    default:
      return { op: leaf.op, value: values[0] };
  }
}

function bindPredicate(table: TableSchema, node: InvertedPredicate, rt: OperatorRuntime, state: { exact: boolean }): InvertedFilterNode {
  switch (node.kind) {
    case 'leaf': {
      const query = bindLeaf(table, node, rt);
      if (query === null) state.exact = false;
      return { kind: 'leaf', indexName: node.indexName, column: node.column, query: query ?? { op: 'is_null' } };
    }
    case 'not':
      return { kind: 'not', arg: bindPredicate(table, node.arg, rt, state) };
    default:
      return { kind: node.kind, args: node.args.map((arg) => bindPredicate(table, arg, rt, state)) };
  }
}

/** The index predicates of a scan, bound for this run. */
export function bindInvertedFilter(table: TableSchema, spec: InvertedScanSpec, rt: OperatorRuntime): InvertedFilter {
  const state = { exact: true };
  const predicate = bindPredicate(table, spec.predicate, rt, state);
  const filter = bindFragmentParams(rt.resolve(spec.filter), rt.ctx.parameters);
  if (filter === null) throw new GaleneError('INTERNAL', [`inverted index scan: parameter of ${exprToString(spec.filter)} is unbound`]);
  return { predicate, filterColumns: spec.filterColumns.map((name) => findColumn(table, name)!), filter, exactOnly: !state.exact, maxExpansions: spec.maxExpansions };
}

/** `{ inverted }` of a scan request for a scan with index predicates (nothing for one without). */
export function invertedField(node: TableScanNode, rt: OperatorRuntime): { inverted?: InvertedFilter } {
  return node.inverted === undefined ? {} : { inverted: bindInvertedFilter(node.table, node.inverted, rt) };
}

const OP_TEXT: Readonly<Record<string, string>> = { not_in: 'NOT IN', in: 'IN', is_null: 'IS NULL', is_not_null: 'IS NOT NULL' };

function leafToString(leaf: InvertedLeaf): string {
  const operands = leaf.operands.map(exprToString);
  if (leaf.op === 'array_contains') return `array_contains(${leaf.column}, ${operands[0]})`;
  if (leaf.op === 'in' || leaf.op === 'not_in') return `${leaf.column} ${OP_TEXT[leaf.op]} (${operands.join(', ')})`;
  if (leaf.op === 'is_null' || leaf.op === 'is_not_null') return `${leaf.column} ${OP_TEXT[leaf.op]}`;
  return `${leaf.column} ${leaf.op.toUpperCase()} ${operands[0]}`;
}

/** One-line text of an index predicate, e.g. `(comment MATCH_ANY 'olap' OR tag = 'x')`. */
export function invertedPredicateToString(node: InvertedPredicate): string {
  switch (node.kind) {
    case 'leaf':
      return leafToString(node);
    case 'not':
      return `NOT ${invertedPredicateToString(node.arg)}`;
    default:
      return `(${node.args.map(invertedPredicateToString).join(` ${node.kind.toUpperCase()} `)})`;
  }
}

function indexNames(node: InvertedPredicate, into: Set<string>): Set<string> {
  if (node.kind === 'leaf') into.add(node.indexName);
  else if (node.kind === 'not') indexNames(node.arg, into);
  else for (const arg of node.args) indexNames(arg, into);
  return into;
}

/** EXPLAIN lines of a scan's index predicates (Doris prints them in the OlapScanNode). */
export function explainInvertedScan(spec: InvertedScanSpec): string[] {
  const text = spec.predicate.kind === 'and' ? spec.predicate.args.map(invertedPredicateToString).join(' AND ') : invertedPredicateToString(spec.predicate);
  return [`inverted index predicates: ${text}`, `inverted indexes: [${[...indexNames(spec.predicate, new Set())].join(', ')}], exact fallback reads: [${spec.filterColumns.join(', ')}]`];
}
