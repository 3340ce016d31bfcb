/**
 * BM25 score() pushdown (later Doris versions' PushDownScoreTopNIntoOlapScan + CheckScoreUsage): in
 *
 *   SELECT ..., score() [AS s] FROM t WHERE <MATCH predicates and others> ORDER BY score() | s [DESC] LIMIT n
 *
 * the scan computes the score as one more FLOAT column (LogicalScan.score, run by
 * src/exec/operators/score-scan.ts from the inverted index files' statistics: never from the text), and
 * the select item reads that column. The score sums, for every MATCH_ANY / MATCH_ALL / MATCH_PHRASE /
 * MATCH_PHRASE_PREFIX predicate of the WHERE clause on a column with a tokenizing inverted index (not
 * under NOT), the row's BM25 for the predicate's query terms (src/storage/inverted/bm25.ts).
 *
 * Doris's checks, in its order and with its messages: the WHERE clause must hold a MATCH; score() may not
 * appear in the WHERE clause; the TopN has exactly one key; that key is the score() select item. A score()
 * left anywhere else in the plan (no WHERE, no ORDER BY, no LIMIT, inside an expression or an aggregate)
 * fails the statement with CheckScoreUsage's message.
 *
 * Runs last, after the inverted-index pushdown: the MATCH predicates are then either in the scan
 * (LogicalScan.inverted leaves) or, where that rule declined (enable_inverted_index_query off), still in the
 * Filter; both count. The Filter and the TopN stay: the scan adds a column and drops nothing.
 */
import { GaleneError } from '../../common/errors';
import { Types } from '../../common/types';
import type { BoundExpr } from '../../exec/bound-expr';
import { SCORE_USAGE_MESSAGE } from '../../exec/expr/functions/search-functions';
import { anyExpr, splitConjuncts, transformExpr } from '../../exec/plan/bound-expr-utils';
import type { InvertedPredicate, ScoreMatch } from '../../exec/plan/physical-plan';
import { isMergeOnWrite } from '../../meta/delete-bitmap';
import type { LogicalFilter, LogicalPlan, LogicalProject, LogicalScan, LogicalTopN } from '../logical-plan';
import { planInputs, withInputs } from '../logical-plan';
import { MATCH_FUNCTIONS } from './inverted-index-pushdown';
import type { OptimizerRule } from './optimizer-rule';

/** Name by which EXPLAIN tests and `disable_nereids_rules` skip the rule. */
export const SCORE_TOPN_PUSHDOWN = 'score_topn_pushdown';

/** Name of the scan's score column (EXPLAIN shows it where the plan reads it). */
export const SCORE_COLUMN = '__score';

/** The MATCH operators that contribute to a score (Doris: IndexReaderHelper::is_need_similarity_score). */
const SCORED_OPS: ReadonlySet<string> = new Set(['match_any', 'match_all', 'match_phrase', 'match_phrase_prefix']);

const isScoreCall = (expr: BoundExpr): boolean => expr.kind === 'call' && expr.name.toLowerCase() === 'score' && expr.args.length === 0;
const hasScore = (expr: BoundExpr): boolean => anyExpr(expr, isScoreCall);
const isMatchCall = (expr: BoundExpr): boolean => expr.kind === 'call' && MATCH_FUNCTIONS.has(expr.name.toLowerCase());

const fail = (message: string): never => {
  throw new GaleneError('SCORE_USAGE', [message]);
};

const stripCasts = (expr: BoundExpr): BoundExpr => (expr.kind === 'cast' ? stripCasts(expr.operand) : expr);

/** A PROPERTIES value by its key, matched case-insensitively. */
function propertyValue(properties: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(properties)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** The tokenizing inverted index of `column` (a parser other than none): only it has BM25 statistics. */
function textIndexOf(scan: LogicalScan, column: string): string | undefined {
  const index = scan.table.indexes.find((candidate) => {
    if (candidate.indexType.toUpperCase() !== 'INVERTED' || candidate.columns.length !== 1 || candidate.columns[0].toLowerCase() !== column.toLowerCase()) return false;
    const parser = propertyValue(candidate.properties, 'parser')?.toLowerCase();
    return parser !== undefined && parser !== 'none';
  });
  return index?.name;
}

/** MATCH leaves of the scan's index predicate that are not under a NOT. */
function invertedMatches(predicate: InvertedPredicate, scan: LogicalScan, out: ScoreMatch[]): void {
  switch (predicate.kind) {
    case 'not':
      return;
    case 'and':
    case 'or':
      for (const arg of predicate.args) invertedMatches(arg, scan, out);
      return;
    case 'leaf':
      if (SCORED_OPS.has(predicate.op) && predicate.operands.length === 1 && textIndexOf(scan, predicate.column) !== undefined) {
        out.push({ indexName: predicate.indexName, column: predicate.column, op: predicate.op as ScoreMatch['op'], text: predicate.operands[0] });
      }
  }
}

/** MATCH calls of the Filter's conjuncts on scan columns with a text index (not under NOT). */
function filterMatches(expr: BoundExpr, scan: LogicalScan, out: ScoreMatch[]): void {
  if (expr.kind === 'not') return;
  if (expr.kind === 'and' || expr.kind === 'or') {
    for (const arg of expr.args) filterMatches(arg, scan, out);
    return;
  }
  if (!isMatchCall(expr) || expr.kind !== 'call' || !SCORED_OPS.has(expr.name.toLowerCase()) || expr.args.length < 2) return;
  const column = stripCasts(expr.args[0]);
  const text = expr.args[1];
  if (column.kind !== 'column' || (text.kind !== 'literal' && text.kind !== 'param')) return;
  const name = scan.columns[column.index];
  const indexName = name === undefined ? undefined : textIndexOf(scan, name);
  if (indexName !== undefined) out.push({ indexName, column: name, op: expr.name.toLowerCase() as ScoreMatch['op'], text });
}

/** Whether the scan's index predicate holds any MATCH leaf. */
function anyInvertedMatch(predicate: InvertedPredicate): boolean {
  switch (predicate.kind) {
    case 'not':
      return anyInvertedMatch(predicate.arg);
    case 'and':
    case 'or':
      return predicate.args.some(anyInvertedMatch);
    case 'leaf':
      return MATCH_FUNCTIONS.has(predicate.op);
  }
}

/** TopN over Project over [Filter over] Scan, where the project selects score() directly. */
interface Block {
  readonly topn: LogicalTopN;
  readonly project: LogicalProject;
  readonly filter: LogicalFilter | null;
  readonly scan: LogicalScan;
}

function blockAt(node: LogicalPlan): Block | null {
  if (node.kind !== 'topn' || node.input.kind !== 'project') return null;
  const project = node.input;
  if (!project.exprs.some(isScoreCall)) return null;
  let current = project.input;
  let filter: LogicalFilter | null = null;
  if (current.kind === 'filter') {
    filter = current;
    current = current.input;
  }
  return current.kind === 'scan' ? { topn: node, project, filter, scan: current } : null;
}

function pushDown(block: Block): LogicalPlan {
  const { topn, project, filter, scan } = block;
  const conjuncts = filter === null ? [] : splitConjuncts(filter.predicate);
  if (!conjuncts.some((conjunct) => anyExpr(conjunct, isMatchCall)) && !(scan.inverted !== undefined && anyInvertedMatch(scan.inverted.predicate))) {
    fail('WHERE clause must contain at least one MATCH function for score() push down optimization');
  }
  if (conjuncts.some(hasScore)) fail('score() function can only be used in SELECT clause, not in WHERE clause');
  if (topn.keys.length !== 1) fail('TopN must have exactly one ordering expression for score() push down optimization');
  const key = topn.keys[0].expr;
  if (key.kind !== 'column' || !isScoreCall(project.exprs[key.index])) fail('ORDER BY expression must reference a score() function from SELECT clause for push down optimization');
  const matches: ScoreMatch[] = [];
  if (scan.inverted !== undefined) invertedMatches(scan.inverted.predicate, scan, matches);
  for (const conjunct of conjuncts) filterMatches(conjunct, scan, matches);
  if (matches.length === 0) fail('score() needs a MATCH predicate on a column with an inverted index that has a parser');
  // Global row ids (how the score finds each row's index entry) exist only where stored rows are result rows.
  const keys = scan.table.keysType;
  if (scan.ann !== undefined || scan.score !== undefined || !(keys === 'DUPLICATE' || (keys === 'UNIQUE' && isMergeOnWrite(scan.table)))) fail(SCORE_USAGE_MESSAGE);

  const scoreRef: BoundExpr = { kind: 'column', index: scan.schema.length, type: Types.FLOAT, name: SCORE_COLUMN };
  const scored: LogicalScan = { ...scan, score: { matches }, schema: [...scan.schema, { name: SCORE_COLUMN, type: Types.FLOAT, nullable: false }] };
  const input: LogicalPlan = filter === null ? scored : { ...filter, input: scored, schema: scored.schema };
  const exprs = project.exprs.map((expr) => transformExpr(expr, (node) => (isScoreCall(node) ? scoreRef : node)));
  return { ...topn, input: { ...project, input, exprs } };
}

/** CheckScoreUsage: a score() the pushdown did not take. */
function checkNoScore(node: LogicalPlan): void {
  if (node.kind === 'aggregate' && node.aggregates.some((agg) => agg.args.some(hasScore))) {
    fail(`score() function cannot be used in aggregate functions. ${SCORE_USAGE_MESSAGE.replace('score() function requires', 'score() requires')}`);
  }
  const exprs: BoundExpr[] = [];
  switch (node.kind) {
    case 'filter':
      exprs.push(node.predicate);
      break;
    case 'project':
      exprs.push(...node.exprs);
      break;
    case 'aggregate':
      exprs.push(...node.groupKeys);
      break;
    case 'sort':
    case 'topn':
      exprs.push(...node.keys.map((key) => key.expr));
      break;
    case 'join':
      exprs.push(...node.leftKeys, ...node.rightKeys, ...(node.condition ? [node.condition] : []));
      break;
    default:
      break;
  }
  if (exprs.some(hasScore)) fail(SCORE_USAGE_MESSAGE);
  for (const input of planInputs(node)) checkNoScore(input);
}

function rewrite(node: LogicalPlan, state: { changed: boolean }): LogicalPlan {
  const block = blockAt(node);
  if (block !== null) {
    state.changed = true;
    return pushDown(block);
  }
  return withInputs(
    node,
    planInputs(node).map((input) => rewrite(input, state)),
  );
}

export const scoreTopnPushdown: OptimizerRule = {
  name: SCORE_TOPN_PUSHDOWN,
  rewrite(plan) {
    const state = { changed: false };
    const out = rewrite(plan, state);
    checkNoScore(out);
    return { plan: out, changed: state.changed };
  },
};
