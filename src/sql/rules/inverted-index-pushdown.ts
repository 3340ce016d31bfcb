/**
 * Inverted index pushdown: every WHERE conjunct over an OLAP table scan that inverted indexes answer
 * exactly moves into the scan (LogicalScan.inverted), which asks each segment's index files for the rows
 * it holds for before reading any column (src/be/inverted-segment-filter.ts):
 *   - `col MATCH_ANY|MATCH_ALL|MATCH_PHRASE|MATCH_PHRASE_PREFIX|MATCH_REGEXP|MATCH_PHRASE_EDGE 'text'` on a
 *     column with an inverted index (any parser);
 *   - on an index without a parser (the whole value one term): `=`, `!=`, `<`, `<=`, `>`, `>=` (BETWEEN
 *     arrives as two comparisons), IN, NOT IN, and `array_contains(col, v)` on ARRAY columns;
 *   - `col IS [NOT] NULL` on any inverted index (its null bitmap);
 *   - AND / OR / NOT of those, when every leaf is one (row sets intersected, united, complemented).
 * The other operand is a constant or a `?` parameter (bound when the scan starts). The Filter keeps the
 * rest; a segment without the index file evaluates the moved conjuncts exactly on the column's values, so
 * the answer never depends on which segments have files. Projection pruning then runs again: a column
 * only the moved conjuncts read is no longer read at all where a segment has its file (the seed's Sql6:
 * `comment MATCH_ANY 'olap'` reads no comment bytes; COUNT(*) reads no column).
 *
 * Declines: `enable_inverted_index_query` off (the conjuncts stay in the Filter, evaluated row by row),
 * merge-on-read tables (UNIQUE without merge-on-write, AGGREGATE: stored rows are not result rows), an
 * ANN search already in the scan, a NULL or inexact constant (`int_col = 1.5`), FLOAT/DOUBLE columns, and
 * NOT over array_contains or over a MATCH on an ARRAY column (NULL elements make FALSE and NULL differ).
 * `inverted_index_skip_threshold` is accepted and does not change the plan: answering from the index is
 * exact and never reads more than the row-by-row filter would.
 *
 * Runs after projection pruning and before the ANN pushdown, so a hybrid search (the seed's Sql6,
 * Sql8-Sql11) gets the text predicate in the scan and the ANN rule builds its search over that scan: the
 * index row set becomes part of the ANN allowed-row filter.
 */
import type { RawValue } from '../../common/column';
import { isIntegerType, isStringType, type DataType } from '../../common/types';
import type { BoundExpr } from '../../exec/bound-expr';
import type { PlanningContext } from '../../exec/context';
import { fragmentSafeExpr } from '../../exec/parallel/run-fragment';
import { collectColumns, combineConjuncts, literal, remapColumns, splitConjuncts } from '../../exec/plan/bound-expr-utils';
import type { InvertedLeaf, InvertedLeafOp, InvertedPredicate, InvertedScanSpec } from '../../exec/plan/physical-plan';
import { booleanVariable, variableValue } from '../../exec/plan/planning-variables';
import { isMergeOnWrite } from '../../meta/delete-bitmap';
import type { IndexSchema } from '../../meta/schema';
import type { LogicalPlan, LogicalScan } from '../logical-plan';
import { planInputs, withInputs } from '../logical-plan';
import type { OptimizerRule } from './optimizer-rule';
import { projectionPruning } from './projection-pruning';
import { literalForColumn } from './scan-predicate-extract';

/** Name by which EXPLAIN tests and `disable_nereids_rules` skip the rule. */
export const INVERTED_INDEX_PUSHDOWN = 'inverted_index_pushdown';

/** The MATCH functions (src/sql/parse-expression.ts turns `c MATCH_ANY 'x'` into `match_any(c, 'x')`). */
export const MATCH_FUNCTIONS: ReadonlySet<string> = new Set(['match_any', 'match_all', 'match_phrase', 'match_phrase_prefix', 'match_regexp', 'match_phrase_edge']);

const COMPARISONS: Readonly<Record<string, InvertedLeafOp>> = { eq: '=', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=' };
const FLIPPED: Readonly<Record<string, InvertedLeafOp>> = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** Whether the session lets inverted indexes answer predicates (Doris's `enable_inverted_index_query`, default true). */
function indexQueryEnabled(ctx: PlanningContext): boolean {
  return variableValue(ctx, 'enable_inverted_index_query') === undefined || booleanVariable(ctx, 'enable_inverted_index_query');
}

/** A PROPERTIES value by its key, matched case-insensitively. */
/** `inverted_index_max_expansions` (Doris's default 50 when the registry lacks it, as in unit tests). */
function maxExpansions(ctx: PlanningContext): number {
  const value = Number(variableValue(ctx, 'inverted_index_max_expansions') ?? 50);
  return Number.isFinite(value) && value >= 1 ? Math.floor(value) : 50;
}

function propertyValue(properties: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(properties)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** Whether an inverted index has no parser: each value (each element of an array) is one term. */
function exactMatchIndex(index: IndexSchema): boolean {
  const parser = propertyValue(index.properties, 'parser');
  return parser === undefined || parser.toLowerCase() === 'none';
}

/** Column types whose values an index without a parser orders and compares exactly as SQL does. */
function comparableType(type: DataType): boolean {
  return isStringType(type) || isIntegerType(type) || type.name === 'DATE' || type.name === 'DATETIME' || type.name === 'DECIMAL' || type.name === 'BOOLEAN';
}

/** What a leaf reads: the scan column (directly or under a widening cast) and its inverted index. */
interface Target {
  readonly column: string;
  readonly type: DataType;
  readonly index: IndexSchema;
}

/** The stored column an operand reads (directly, or under a cast that keeps the value: widening, string to string). */
function columnOf(expr: BoundExpr, scan: LogicalScan): Target | null {
  let inner = expr;
  if (inner.kind === 'cast') {
    const from = inner.operand.type;
    const to = inner.type;
    const keeps =
      (isIntegerType(from) && from.name !== 'LARGEINT' && (isIntegerType(to) || to.name === 'DOUBLE')) ||
      (from.name === 'DATE' && to.name === 'DATETIME') ||
      (isStringType(from) && isStringType(to)) ||
      (from.name === 'ARRAY' && to.name === 'ARRAY' && from.element !== undefined && to.element !== undefined && isStringType(from.element) && isStringType(to.element));
    if (!keeps) return null;
    inner = inner.operand;
  }
  if (inner.kind !== 'column') return null;
  const column = scan.columns[inner.index];
  if (column === undefined) return null;
  const index = scan.table.indexes.find((candidate) => candidate.indexType.toUpperCase() === 'INVERTED' && candidate.columns.length === 1 && candidate.columns[0].toLowerCase() === column.toLowerCase());
  return index === undefined ? null : { column, type: inner.type, index };
}

/**
 * A constant operand in the column's type: a literal converted exactly, or a `?` parameter of a type the
 * scan converts when it is bound (strings for string columns, numbers for integer columns); null otherwise.
 */
function operandFor(expr: BoundExpr, columnType: DataType): BoundExpr | null {
  if (expr.kind === 'cast' && expr.operand.kind === 'param') return operandFor(expr.operand, columnType);
  if (expr.kind === 'param') {
    if (isStringType(columnType) && isStringType(expr.type)) return expr;
    if (isIntegerType(columnType) && (isIntegerType(expr.type) || expr.type.name === 'DOUBLE' || expr.type.name === 'DECIMAL')) return expr;
    return null;
  }
  if (expr.kind !== 'literal' || expr.value === null) return null;
  const value: RawValue | undefined = literalForColumn(expr.value, expr.type, columnType);
  return value === undefined ? null : literal(columnType, value);
}

/** The match text: a string literal or a `?` parameter (the reader tokenizes it with the index's analyzer). */
function matchText(expr: BoundExpr): BoundExpr | null {
  const inner = expr.kind === 'cast' && (expr.operand.kind === 'param' || expr.operand.kind === 'literal') ? expr.operand : expr;
  if (inner.kind === 'param') return inner;
  if (inner.kind === 'literal' && typeof inner.value === 'string') return inner;
  return null;
}

function leaf(target: Target, op: InvertedLeafOp, operands: readonly BoundExpr[]): InvertedLeaf {
  return { kind: 'leaf', indexName: target.index.name, column: target.column, op, operands };
}

/** The leaf a predicate amounts to, or null. `negated`: the leaf sits under an odd number of NOTs. */
function leafOf(expr: BoundExpr, scan: LogicalScan, negated: boolean): InvertedLeaf | null {
  if (expr.kind === 'isnull') {
    const target = expr.operand.kind === 'column' ? columnOf(expr.operand, scan) : null;
    return target === null ? null : leaf(target, expr.negated ? 'is_not_null' : 'is_null', []);
  }
  if (expr.kind === 'in') {
    const target = columnOf(expr.operand, scan);
    if (target === null || !exactMatchIndex(target.index) || !comparableType(target.type)) return null;
    const operands: BoundExpr[] = [];
    for (const item of expr.list) {
      const operand = operandFor(item, target.type);
      if (operand === null) return null; // NULL in the list: `x NOT IN (1, NULL)` is never TRUE
      operands.push(operand);
    }
    return leaf(target, expr.negated ? 'not_in' : 'in', operands);
  }
  if (expr.kind !== 'call') return null;
  const name = expr.name.toLowerCase();
  if (MATCH_FUNCTIONS.has(name)) {
    if (expr.args.length < 2 || !expr.args.slice(2).every((arg) => collectColumns(arg).size === 0)) return null;
    const target = columnOf(expr.args[0], scan);
    const text = matchText(expr.args[1]);
    if (target === null || text === null || (negated && target.type.name === 'ARRAY')) return null;
    return leaf(target, name as InvertedLeafOp, [text]);
  }
  if (name === 'array_contains' && expr.args.length === 2 && !negated) {
    const target = columnOf(expr.args[0], scan);
    const element = target?.type.name === 'ARRAY' ? target.type.element : undefined;
    if (target === null || element === undefined || !exactMatchIndex(target.index) || !comparableType(element)) return null;
    const operand = operandFor(expr.args[1], element);
    return operand === null ? null : leaf(target, 'array_contains', [operand]);
  }
  const op = COMPARISONS[name];
  if (op === undefined || expr.args.length !== 2) return null;
  for (const [colSide, valueSide, leafOp] of [
    [expr.args[0], expr.args[1], op],
    [expr.args[1], expr.args[0], FLIPPED[op]],
  ] as const) {
    const target = columnOf(colSide, scan);
    if (target === null || !exactMatchIndex(target.index) || !comparableType(target.type)) continue;
    const operand = operandFor(valueSide, target.type);
    if (operand !== null) return leaf(target, leafOp, [operand]);
  }
  return null;
}

/** The index predicate a conjunct amounts to (AND / OR / NOT of leaves), or null. */
function predicateOf(expr: BoundExpr, scan: LogicalScan, negated = false): InvertedPredicate | null {
  if (expr.kind === 'and' || expr.kind === 'or') {
    const args: InvertedPredicate[] = [];
    for (const arg of expr.args) {
      const converted = predicateOf(arg, scan, negated);
      if (converted === null) return null;
      args.push(converted);
    }
    return { kind: expr.kind, args };
  }
  if (expr.kind === 'not') {
    const arg = predicateOf(expr.args[0], scan, !negated);
    return arg === null ? null : { kind: 'not', arg };
  }
  return leafOf(expr, scan, negated);
}

function scanAllowsIndex(scan: LogicalScan): boolean {
  if (scan.ann !== undefined || scan.inverted !== undefined || scan.limit !== null) return false;
  if (!scan.table.indexes.some((index) => index.indexType.toUpperCase() === 'INVERTED')) return false;
  const keys = scan.table.keysType;
  return keys === 'DUPLICATE' || (keys === 'UNIQUE' && isMergeOnWrite(scan.table));
}

/** Filter over scan with the indexable conjuncts moved into the scan, or null when none is. */
function pushDown(predicate: BoundExpr, scan: LogicalScan, ctx: PlanningContext): LogicalPlan | null {
  if (!scanAllowsIndex(scan)) return null;
  const pushed: BoundExpr[] = [];
  const trees: InvertedPredicate[] = [];
  const kept: BoundExpr[] = [];
  for (const conjunct of splitConjuncts(predicate)) {
    const tree = fragmentSafeExpr(conjunct) ? predicateOf(conjunct, scan) : null;
    if (tree === null) kept.push(conjunct);
    else {
      trees.push(tree);
      pushed.push(conjunct);
    }
  }
  if (trees.length === 0) return null;
  // The exact form, over the columns it reads (in scan order).
  const filterIdxs = [...new Set(pushed.flatMap((conjunct) => [...collectColumns(conjunct)]))].sort((a, b) => a - b);
  const filterPos = new Map(filterIdxs.map((scanIdx, pos) => [scanIdx, pos]));
  const inverted: InvertedScanSpec = {
    predicate: trees.length === 1 ? trees[0] : { kind: 'and', args: trees },
    filterColumns: filterIdxs.map((idx) => scan.columns[idx]),
    filter: combineConjuncts(pushed.map((conjunct) => remapColumns(conjunct, (index) => filterPos.get(index)!)))!,
    maxExpansions: maxExpansions(ctx),
  };
  const indexed: LogicalScan = { ...scan, inverted };
  const rest = combineConjuncts(kept);
  return rest === null ? indexed : { kind: 'filter', input: indexed, predicate: rest, schema: indexed.schema };
}

function rewrite(node: LogicalPlan, ctx: PlanningContext, state: { changed: boolean }): LogicalPlan {
  if (node.kind === 'filter' && node.input.kind === 'scan') {
    const pushed = pushDown(node.predicate, node.input, ctx);
    if (pushed !== null) {
      state.changed = true;
      return pushed;
    }
    return node;
  }
  const inputs = planInputs(node);
  const next = inputs.map((input) => rewrite(input, ctx, state));
  return next.some((input, idx) => input !== inputs[idx]) ? withInputs(node, next) : node;
}

export const invertedIndexPushdown: OptimizerRule = {
  name: INVERTED_INDEX_PUSHDOWN,
  rewrite(plan, rctx) {
    if (!indexQueryEnabled(rctx.ctx)) return { plan, changed: false };
    const state = { changed: false };
    const out = rewrite(plan, rctx.ctx, state);
    if (!state.changed) return { plan, changed: false };
    // A column only the moved conjuncts read is dropped from the scan (index-only).
    return { plan: projectionPruning.rewrite(out, rctx).plan, changed: true };
  },
};
