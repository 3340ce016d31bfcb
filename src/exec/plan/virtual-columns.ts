/**
 * The virtual-columns pass: Doris's virtual slots for common subexpressions (session variable
 * `experimental_enable_virtual_slot_for_cse`). A deterministic expression that one query block evaluates
 * in several places — the WHERE filter, the select list (which also computes the ORDER BY keys), GROUP BY
 * keys, aggregate arguments, HAVING — is computed once per batch as a virtual column, and every place
 * reads that column instead. The columns are made by a virtual-columns Project (ProjectNode.virtual):
 * the input passes through and the virtual columns are appended, each able to read the ones before it
 * (`v1 := upper(v0)`). Over a large scan the plan-fragments pass moves them into the SCAN FRAGMENT, so
 * the workers compute them.
 *
 * Where a virtual column is computed, so that no expression runs on rows the original plan would not
 * evaluate it on (an erroring or costly expression must not see extra rows):
 *   - below a Filter only when the filter itself evaluates it on every row of the batch: every position of
 *     a predicate is evaluated on all rows (AND / OR do not short-circuit per row), except a CASE's
 *     THEN / ELSE branches and its WHENs after the first, which see only some batches. Its uses above the
 *     filter (select list, aggregate) then read the column carried through the filter;
 *   - between a Filter and its consumer when only the consumer (select list, GROUP BY keys, aggregate
 *     arguments) repeats it, over the rows that passed the filter — as the original did;
 *   - not for an aggregate that fused its filter (fuse-operators.ts) unless the filter uses it: that
 *     aggregate evaluates its keys and arguments on the passing rows only, inside the operator.
 * A repeat found only in conditional positions (two CASE branches) is left alone. Expressions reading no
 * column (constants, `?`, now()) are constant per batch already and non-deterministic ones (rand()) are
 * never shared. The largest repeated expression is taken first, then the repeats inside it.
 *
 * Run by the planner (src/sql/query.ts) after fuseOperators and before planFragments, when the session
 * variable is on and the pass is not skipped by name ('virtual_columns'). Returns a new plan; operator ids
 * of existing nodes are kept, new nodes take fresh ids.
 */
import type { BoundExpr } from '../bound-expr';
import { collectColumns, exprChildren, exprKey, isDeterministic, withExprChildren } from './bound-expr-utils';
import type { FilterNode, HashAggregateNode, OutputColumn, PhysicalNode, ProjectNode, VirtualColumn } from './physical-plan';

/** Name by which EXPLAIN tests and `disable_nereids_rules` skip the pass. */
export const VIRTUAL_COLUMNS = 'virtual_columns';

/** What the pass needs from the planner. */
export interface VirtualColumnPlanning {
  /** A fresh operator id (the statement's counter). */
  nextId(): number;
}

interface PassState {
  readonly planning: VirtualColumnPlanning;
  /** Virtual columns named so far in this plan (`v0`, `v1`, ...). */
  named: number;
}

/** Expressions that may become virtual columns only where `eligible` (see the module comment). */
interface ExprGroup {
  readonly exprs: readonly BoundExpr[];
  readonly eligible: boolean;
}

interface Candidate {
  readonly expr: BoundExpr;
  readonly size: number;
  count: number;
  /** Seen at least once where every row of the batch evaluates it, in an eligible group. */
  unconditional: boolean;
}

/** Column indices of chosen subexpressions before their final positions are known. */
const PLACEHOLDER_BASE = 1 << 30;

function isCandidate(expr: BoundExpr): boolean {
  if (expr.kind === 'column' || expr.kind === 'literal' || expr.kind === 'param') return false;
  return collectColumns(expr).size > 0 && isDeterministic(expr);
}

function exprSize(expr: BoundExpr): number {
  let size = 1;
  for (const child of exprChildren(expr)) size += exprSize(child);
  return size;
}

function countSubexprs(expr: BoundExpr, unconditional: boolean, eligible: boolean, into: Map<string, Candidate>): void {
  if (isCandidate(expr)) {
    const key = exprKey(expr);
    let candidate = into.get(key);
    if (candidate === undefined) {
      candidate = { expr, size: exprSize(expr), count: 0, unconditional: false };
      into.set(key, candidate);
    }
    candidate.count++;
    if (unconditional && eligible) candidate.unconditional = true;
  }
  if (expr.kind === 'case') {
    // The first WHEN runs on every row; later WHENs and the branches only on batches some row reaches.
    expr.whens.forEach((when, whenIdx) => {
      countSubexprs(when.when, unconditional && whenIdx === 0, eligible, into);
      countSubexprs(when.then, false, eligible, into);
    });
    if (expr.elseExpr !== null) countSubexprs(expr.elseExpr, false, eligible, into);
    return;
  }
  for (const child of exprChildren(expr)) countSubexprs(child, unconditional, eligible, into);
}

/** `expr` with every subtree whose key is `key` replaced by `replacement`. */
function replaceKey(expr: BoundExpr, key: string, replacement: BoundExpr): BoundExpr {
  if (isCandidate(expr) && exprKey(expr) === key) return replacement;
  const children = exprChildren(expr);
  if (children.length === 0) return expr;
  const next = children.map((child) => replaceKey(child, key, replacement));
  return next.some((child, childIdx) => child !== children[childIdx]) ? withExprChildren(expr, next) : expr;
}

function replaceInside(expr: BoundExpr, key: string, replacement: BoundExpr): BoundExpr {
  const children = exprChildren(expr);
  const next = children.map((child) => replaceKey(child, key, replacement));
  return next.some((child, childIdx) => child !== children[childIdx]) ? withExprChildren(expr, next) : expr;
}

function mapColumns(expr: BoundExpr, fn: (column: BoundExpr & { kind: 'column' }) => BoundExpr): BoundExpr {
  if (expr.kind === 'column') return fn(expr);
  const children = exprChildren(expr);
  if (children.length === 0) return expr;
  const next = children.map((child) => mapColumns(child, fn));
  return next.some((child, childIdx) => child !== children[childIdx]) ? withExprChildren(expr, next) : expr;
}

interface Choice {
  /** Definitions in evaluation order; column `width + k` is columns[k]. */
  readonly columns: VirtualColumn[];
  /** The groups' expressions reading the virtual columns. */
  readonly groups: BoundExpr[][];
}

/**
 * The common subexpressions of `groups` over an input of `width` columns: repeatedly the largest
 * expression seen at least twice (counting the definitions chosen so far once each) and at least once
 * unconditionally in an eligible group.
 */
function chooseVirtualColumns(groups: readonly ExprGroup[], width: number, state: PassState): Choice {
  let current = groups.map((group) => [...group.exprs]);
  const definitions: BoundExpr[] = [];
  for (;;) {
    const candidates = new Map<string, Candidate>();
    groups.forEach((group, groupIdx) => {
      for (const expr of current[groupIdx]) countSubexprs(expr, true, group.eligible, candidates);
    });
    // A definition is computed on every row; its own root was replaced everywhere else.
    for (const definition of definitions) for (const child of exprChildren(definition)) countSubexprs(child, true, true, candidates);
    let best: Candidate | null = null;
    for (const candidate of candidates.values()) {
      if (candidate.count >= 2 && candidate.unconditional && (best === null || candidate.size > best.size)) best = candidate;
    }
    if (best === null) break;
    const key = exprKey(best.expr);
    const placeholder: BoundExpr = { kind: 'column', index: PLACEHOLDER_BASE + definitions.length, type: best.expr.type, name: '' };
    current = current.map((exprs) => exprs.map((expr) => replaceKey(expr, key, placeholder)));
    for (let defIdx = 0; defIdx < definitions.length; defIdx++) definitions[defIdx] = replaceInside(definitions[defIdx], key, placeholder);
    definitions.push(best.expr);
  }
  if (definitions.length === 0) return { columns: [], groups: current };

  // Evaluation order: a definition after the ones it reads.
  const order: number[] = [];
  const placed = new Uint8Array(definitions.length);
  const place = (defIdx: number): void => {
    if (placed[defIdx]) return;
    placed[defIdx] = 1;
    for (const index of collectColumns(definitions[defIdx])) if (index >= PLACEHOLDER_BASE) place(index - PLACEHOLDER_BASE);
    order.push(defIdx);
  };
  definitions.forEach((_def, defIdx) => place(defIdx));
  const finalRef: BoundExpr[] = [];
  order.forEach((defIdx, position) => {
    finalRef[defIdx] = { kind: 'column', index: width + position, type: definitions[defIdx].type, name: `v${state.named++}` };
  });
  const settle = (expr: BoundExpr): BoundExpr => mapColumns(expr, (column) => (column.index >= PLACEHOLDER_BASE ? finalRef[column.index - PLACEHOLDER_BASE] : column));
  return {
    columns: order.map((defIdx) => ({ name: (finalRef[defIdx] as { name: string }).name, expr: settle(definitions[defIdx]) })),
    groups: current.map((exprs) => exprs.map(settle)),
  };
}

function passThrough(columns: readonly OutputColumn[]): BoundExpr[] {
  return columns.map((column, index) => ({ kind: 'column', index, type: column.type, name: column.name }));
}

function virtualProject(input: PhysicalNode, columns: readonly VirtualColumn[], state: PassState): ProjectNode {
  return {
    kind: 'Project',
    id: state.planning.nextId(),
    output: [...input.output, ...columns.map((column) => ({ name: column.name, type: column.expr.type, nullable: true }))],
    children: [input],
    exprs: [...passThrough(input.output), ...columns.map((column) => column.expr)],
    virtual: true,
  };
}

type Consumer = ProjectNode | HashAggregateNode;

function consumerExprs(node: Consumer): BoundExpr[] {
  return node.kind === 'Project' ? [...node.exprs] : [...node.groupKeys, ...node.aggregates.flatMap((agg) => agg.args)];
}

function withConsumerExprs<N extends Consumer>(node: N, exprs: readonly BoundExpr[], input: PhysicalNode): N {
  if (node.kind === 'Project') return { ...node, exprs, children: [input] };
  let pos = node.groupKeys.length;
  const aggregates = node.aggregates.map((agg) => {
    const args = exprs.slice(pos, pos + agg.args.length);
    pos += agg.args.length;
    return { ...agg, args };
  });
  return { ...node, groupKeys: exprs.slice(0, node.groupKeys.length), aggregates, children: [input] };
}

/** The filter over its (rewritten) input with the virtual columns it shares, and its consumer's expressions. */
function shareThroughFilter(filter: FilterNode, consumer: readonly BoundExpr[], state: PassState): { filter: FilterNode; consumer: BoundExpr[] } {
  const base = visit(filter.children[0], state);
  const choice = chooseVirtualColumns([{ exprs: [filter.predicate], eligible: true }, { exprs: consumer, eligible: false }], base.output.length, state);
  if (choice.columns.length === 0) return { filter: { ...filter, children: [base] }, consumer: [...consumer] };
  const input = virtualProject(base, choice.columns, state);
  return { filter: { ...filter, predicate: choice.groups[0][0], output: input.output, children: [input] }, consumer: choice.groups[1] };
}

/** A consumer's own repeats, computed over `input` (the rows it evaluates). */
function shareInConsumer<N extends Consumer>(node: N, exprs: readonly BoundExpr[], input: PhysicalNode, state: PassState): N {
  const choice = chooseVirtualColumns([{ exprs, eligible: true }], input.output.length, state);
  if (choice.columns.length === 0) return withConsumerExprs(node, exprs, input);
  return withConsumerExprs(node, choice.groups[0], virtualProject(input, choice.columns, state));
}

function visitConsumer(node: Consumer, state: PassState): PhysicalNode {
  const child = node.children[0];
  if (node.kind === 'HashAggregate' && node.filter !== undefined) {
    // Fused filter: only what the filter evaluates on every row may be computed before it.
    const base = visit(child, state);
    const choice = chooseVirtualColumns([{ exprs: [node.filter], eligible: true }, { exprs: consumerExprs(node), eligible: false }], base.output.length, state);
    if (choice.columns.length === 0) return withConsumerExprs(node, consumerExprs(node), base);
    return { ...withConsumerExprs(node, choice.groups[1], virtualProject(base, choice.columns, state)), filter: choice.groups[0][0] };
  }
  if (child.kind === 'Filter') {
    const shared = shareThroughFilter(child, consumerExprs(node), state);
    return shareInConsumer(node, shared.consumer, shared.filter, state);
  }
  return shareInConsumer(node, consumerExprs(node), visit(child, state), state);
}

function visit(node: PhysicalNode, state: PassState): PhysicalNode {
  if ((node.kind === 'Project' && node.virtual !== true) || (node.kind === 'HashAggregate' && node.mode !== 'final')) return visitConsumer(node, state);
  if (node.kind === 'Filter') {
    // A filter without a consumer in its block: the virtual columns stop at it.
    const shared = shareThroughFilter(node, [], state);
    if (shared.filter.output.length === node.output.length) return shared.filter;
    return { kind: 'Project', id: state.planning.nextId(), output: node.output, children: [shared.filter], exprs: passThrough(node.output) };
  }
  const children = node.children.map((child) => visit(child, state));
  return children.some((child, childIdx) => child !== node.children[childIdx]) ? ({ ...node, children } as PhysicalNode) : node;
}

/** The plan with its common subexpressions computed once per batch as virtual columns. */
export function planVirtualColumns(root: PhysicalNode, planning: VirtualColumnPlanning): PhysicalNode {
  return visit(root, { planning, named: 0 });
}
