/**
 * ANN index pushdown: a query block over an OLAP table with an ANN index on `col` whose distance is
 * `l2_distance_approximate(col, Q)` / `inner_product_approximate(col, Q)` (the function's metric must be
 * the index's; Q a constant or a `?` parameter) is answered by the index inside the scan
 * (TableScanNode.ann, run by src/be/ann-segment-scan.ts):
 *   - TopN: `ORDER BY dist [ASC] LIMIT n [OFFSET m]` (`DESC` for inner_product): each segment returns its
 *     local n + m nearest rows; the TopN above stays and merges them.
 *   - Range: one WHERE conjunct `dist op r` (op <, <=, >, >=; r constant, either side) becomes the
 *     search's radius; with TopN too, both apply.
 *   - Every other WHERE conjunct becomes the allowed-row filter, evaluated on each segment's rows before
 *     the search (the filter node disappears): the search then never returns rows the filter drops, so
 *     LIMIT rows come back whenever that many match.
 *   - An aggregate directly over the search (`SELECT count(*) ... WHERE dist < r`) is its consumer like a
 *     select list: it reads the distance column and only the columns it aggregates.
 *   - Index-only: every use of the distance above the scan reads the scan's distance column (the index's
 *     distance; computed from the vectors only for a far range, `>`, whose rows the index returns without
 *     distances), and the vector column is dropped from the scan when nothing else reads it.
 * The rule declines — the distance is then computed exactly, row by row — when another conjunct uses the
 * distance (`abs(dist + 10) > 10`: the search cannot honour it before ranking; the seed's Sql9/Sql10), the
 * table merges on read (UNIQUE without merge-on-write, AGGREGATE: index rows are not result rows), the
 * ORDER BY has other keys or the wrong direction, or a conjunct cannot run in a scan worker.
 *
 * Runs last, after projection pruning (it prunes the scan's vector column itself), so the scan it builds
 * is final; late materialization and the physical passes see an ordinary TableScan with an `ann` field.
 */
import { Types } from '../../common/types';
import type { BoundExpr } from '../../exec/bound-expr';
import type { PlanningContext } from '../../exec/context';
import { fragmentSafeExpr } from '../../exec/parallel/run-fragment';
import { anyExpr, collectColumns, combineConjuncts, exprKey, remapColumns, splitConjuncts, transformExpr } from '../../exec/plan/bound-expr-utils';
import type { AnnRangeOp, AnnScanSpec } from '../../exec/plan/physical-plan';
import { indexScanPerSegment } from '../../exec/plan/planning-variables';
import { isMergeOnWrite } from '../../meta/delete-bitmap';
import type { LogicalAggregate, LogicalPlan, LogicalProject, LogicalScan, LogicalTopN } from '../logical-plan';
import { planInputs, withInputs } from '../logical-plan';
import type { OptimizerRule } from './optimizer-rule';

/** Name by which EXPLAIN tests and `disable_nereids_rules` skip the rule. */
export const ANN_INDEX_PUSHDOWN = 'ann_index_pushdown';

/** The approximate distance functions and the index metric each one is answered by. */
export const ANN_FUNCTIONS: Readonly<Record<string, 'l2_distance' | 'inner_product'>> = {
  l2_distance_approximate: 'l2_distance',
  inner_product_approximate: 'inner_product',
};

/** Name of the scan's distance column (EXPLAIN shows it where the plan reads it). */
export const ANN_DISTANCE_COLUMN = '__ann_distance';

const COMPARISONS: Readonly<Record<string, AnnRangeOp>> = { lt: '<', le: '<=', gt: '>', ge: '>=' };
const FLIPPED: Readonly<Record<AnnRangeOp, AnnRangeOp>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** hnsw_ef_search (Doris's default 32 when the registry lacks it, as in unit tests). */
function efSearch(ctx: PlanningContext): number {
  try {
    const value = Number(ctx.getSystemVariable('hnsw_ef_search', null).value);
    return Number.isFinite(value) && value >= 1 ? Math.floor(value) : 32;
  } catch {
    return 32;
  }
}

/** A PROPERTIES value by its key, matched case-insensitively (as Doris lower-cases property names). */
function propertyValue(properties: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(properties)) if (key.toLowerCase() === name) return value;
  return undefined;
}

const stripCasts = (expr: BoundExpr): BoundExpr => (expr.kind === 'cast' ? stripCasts(expr.operand) : expr);

/** An approximate-distance call `fn(column, Q)` answerable by an ANN index of `scan`, with the index it uses. */
interface Target {
  readonly call: BoundExpr & { kind: 'call' };
  readonly key: string;
  readonly indexName: string;
  readonly metric: 'l2_distance' | 'inner_product';
  readonly columnIdx: number;
}

function asTarget(expr: BoundExpr, scan: LogicalScan): Target | null {
  const call = stripCasts(expr);
  if (call.kind !== 'call' || call.args.length !== 2) return null;
  const metric = ANN_FUNCTIONS[call.name.toLowerCase()];
  if (metric === undefined) return null;
  const column = stripCasts(call.args[0]);
  if (column.kind !== 'column' || collectColumns(call.args[1]).size > 0) return null;
  const columnName = scan.columns[column.index]?.toLowerCase();
  const index = scan.table.indexes.find(
    (candidate) =>
      candidate.indexType.toUpperCase() === 'ANN' &&
      candidate.columns.length === 1 &&
      candidate.columns[0].toLowerCase() === columnName &&
      propertyValue(candidate.properties, 'metric_type')?.toLowerCase() === metric,
  );
  if (index === undefined) return null;
  return { call, key: exprKey(call), indexName: index.name, metric, columnIdx: column.index };
}

/** `dist op r` (either side) over the target's call, normalized to the distance on the left. */
function asRange(conjunct: BoundExpr, target: Target): { op: AnnRangeOp; value: BoundExpr } | null {
  if (conjunct.kind !== 'call' || conjunct.args.length !== 2) return null;
  const op = COMPARISONS[conjunct.name];
  if (op === undefined) return null;
  const [left, right] = conjunct.args;
  const isTarget = (expr: BoundExpr): boolean => exprKey(stripCasts(expr)) === target.key;
  const constant = (expr: BoundExpr): boolean => collectColumns(expr).size === 0;
  if (isTarget(left) && constant(right)) return { op, value: right };
  if (isTarget(right) && constant(left)) return { op: FLIPPED[op], value: left };
  return null;
}

const usesTarget = (expr: BoundExpr, target: Target): boolean => anyExpr(expr, (node) => node.kind === 'call' && exprKey(node) === target.key);

/**
 * The block's pieces: TopN (optional) over its consumer — the Project computing the select list, or an
 * aggregate (`SELECT count(*) ... WHERE dist < r`) — over Filter (optional) over the scan.
 */
interface Block {
  readonly topn: LogicalTopN | null;
  readonly project: LogicalProject | LogicalAggregate | null;
  readonly filter: BoundExpr | null;
  readonly scan: LogicalScan;
}

function scanAllowsAnn(scan: LogicalScan): boolean {
  if (scan.ann !== undefined || scan.limit !== null) return false;
  const keys = scan.table.keysType;
  return keys === 'DUPLICATE' || (keys === 'UNIQUE' && isMergeOnWrite(scan.table));
}

/** The block rewritten to search the index, or null when the rule does not apply. */
function pushDown(block: Block, ctx: PlanningContext): LogicalPlan | null {
  const { topn, project, scan } = block;
  if (!scanAllowsAnn(scan)) return null;
  const conjuncts = block.filter === null ? [] : splitConjuncts(block.filter);
  // The target: the ORDER BY key, else the first range conjunct's distance.
  let target: Target | null = null;
  let limit: number | null = null;
  if (topn !== null && project !== null && project.kind === 'project' && topn.keys.length === 1) {
    const key = topn.keys[0];
    const ref = key.expr.kind === 'column' ? project.exprs[key.expr.index] : undefined;
    const candidate = ref === undefined ? null : asTarget(ref, scan);
    if (candidate !== null && key.descending === (candidate.metric === 'inner_product')) {
      target = candidate;
      limit = topn.limit + topn.offset;
    }
  }
  if (target === null) {
    for (const conjunct of conjuncts) {
      if (conjunct.kind !== 'call' || conjunct.args.length !== 2 || COMPARISONS[conjunct.name] === undefined) continue;
      for (const side of conjunct.args) {
        const candidate = asTarget(side, scan);
        if (candidate !== null && asRange(conjunct, candidate) !== null) target = candidate;
        if (target !== null) break;
      }
      if (target !== null) break;
    }
  }
  if (target === null) return null;
  let range: AnnScanSpec['range'] = null;
  const allowed: BoundExpr[] = [];
  for (const conjunct of conjuncts) {
    const asRadius: AnnScanSpec['range'] = range === null ? asRange(conjunct, target) : null;
    if (asRadius !== null) range = asRadius;
    else if (usesTarget(conjunct, target)) return null; // only an exact evaluation can honour it
    else allowed.push(conjunct);
  }
  if (limit === null && range === null) return null;
  if (!allowed.every(fragmentSafeExpr) || !fragmentSafeExpr(target.call.args[1]) || (range !== null && !fragmentSafeExpr(range.value))) return null;

  // The allowed-row filter over the columns it reads (in scan order).
  const filterIdxs = [...new Set(allowed.flatMap((conjunct) => [...collectColumns(conjunct)]))].sort((a, b) => a - b);
  const filterPos = new Map(filterIdxs.map((scanIdx, pos) => [scanIdx, pos]));
  const filter = combineConjuncts(allowed.map((conjunct) => remapColumns(conjunct, (index) => filterPos.get(index)!)));

  // The block's consumer reads the distance column instead of recomputing it.
  const width = scan.columns.length;
  const distanceRef: BoundExpr = { kind: 'column', index: width, type: Types.FLOAT, name: ANN_DISTANCE_COLUMN };
  const replace = (expr: BoundExpr): BoundExpr => transformExpr(expr, (node) => (node.kind === 'call' && exprKey(node) === target!.key ? distanceRef : node));
  const consumerExprs = project === null ? null : consumerOf(project).map(replace);
  // Without a project the consumer reads every scan column.
  const used = consumerExprs === null ? new Set(Array.from({ length: width }, (_v, idx) => idx)) : new Set(consumerExprs.flatMap((expr) => [...collectColumns(expr)]));
  const distance = consumerExprs === null ? false : used.has(width);
  const keep = Array.from({ length: width }, (_v, idx) => idx).filter((idx) => used.has(idx));
  const newPos = new Map(keep.map((oldIdx, pos) => [oldIdx, pos]));
  newPos.set(width, keep.length);
  const ann: AnnScanSpec = {
    indexName: target.indexName,
    functionName: target.call.name.toLowerCase(),
    metric: target.metric,
    column: scan.columns[target.columnIdx],
    query: target.call.args[1],
    limit,
    range,
    filterColumns: filterIdxs.map((idx) => scan.columns[idx]),
    filter,
    distance,
    efSearch: efSearch(ctx),
    perSegment: indexScanPerSegment(ctx),
  };
  const annScan: LogicalScan = {
    ...scan,
    columns: keep.map((idx) => scan.columns[idx]),
    schema: [...keep.map((idx) => scan.schema[idx]), ...(distance ? [{ name: ANN_DISTANCE_COLUMN, type: Types.FLOAT, nullable: false }] : [])],
    ann,
  };
  if (project === null || consumerExprs === null) return annScan;
  const newConsumer = withConsumer(project, consumerExprs.map((expr) => remapColumns(expr, (index) => newPos.get(index)!)), annScan);
  return topn === null ? newConsumer : { ...topn, input: newConsumer };
}

/** The expressions a consumer evaluates over its input. */
function consumerOf(node: LogicalProject | LogicalAggregate): BoundExpr[] {
  return node.kind === 'project' ? [...node.exprs] : [...node.groupKeys, ...node.aggregates.flatMap((agg) => agg.args)];
}

/** The consumer over a new input with its expressions (in consumerOf order) replaced. */
function withConsumer(node: LogicalProject | LogicalAggregate, exprs: readonly BoundExpr[], input: LogicalPlan): LogicalPlan {
  if (node.kind === 'project') return { ...node, input, exprs };
  let pos = node.groupKeys.length;
  const aggregates = node.aggregates.map((agg) => {
    const args = exprs.slice(pos, pos + agg.args.length);
    pos += agg.args.length;
    return { ...agg, args };
  });
  return { ...node, input, groupKeys: exprs.slice(0, node.groupKeys.length), aggregates };
}

/** The block rooted at `node` (TopN / Project / Filter over a scan), or null. */
function blockAt(node: LogicalPlan): Block | null {
  let topn: LogicalTopN | null = null;
  let current = node;
  if (current.kind === 'topn') {
    topn = current;
    current = current.input;
  }
  let project: LogicalProject | LogicalAggregate | null = null;
  if (current.kind === 'project' || (topn === null && current.kind === 'aggregate')) {
    project = current;
    current = current.input;
  }
  let filter: BoundExpr | null = null;
  if (current.kind === 'filter') {
    filter = current.predicate;
    current = current.input;
  }
  if (current.kind !== 'scan') return null;
  // A TopN needs the project that computes its key; a bare scan with nothing above has nothing to push.
  if (topn !== null && project === null) return null;
  if (project === null && filter === null) return null;
  return { topn, project, filter, scan: current };
}

function rewrite(node: LogicalPlan, ctx: PlanningContext, state: { changed: boolean }): LogicalPlan {
  const block = blockAt(node);
  if (block !== null) {
    const pushed = pushDown(block, ctx) ?? (block.topn !== null ? pushDown({ ...block, topn: null }, ctx) : null);
    if (pushed !== null) {
      state.changed = true;
      // A TopN whose key is not the distance stays above the range search (Sql2).
      return pushed.kind !== 'topn' && block.topn !== null ? { ...block.topn, input: pushed } : pushed;
    }
  }
  const inputs = planInputs(node);
  const next = inputs.map((input) => rewrite(input, ctx, state));
  return withInputs(node, next);
}

export const annIndexPushdown: OptimizerRule = {
  name: ANN_INDEX_PUSHDOWN,
  rewrite(plan, rctx) {
    const state = { changed: false };
    const out = rewrite(plan, rctx.ctx, state);
    return { plan: out, changed: state.changed };
  },
};
