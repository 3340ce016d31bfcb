/**
 * The physical plan: a tree of constant operator descriptions that the planner (src/sql/planner.ts)
 * builds and the executor (execute-plan.ts) runs. Descriptions hold no run state, so one plan can run
 * many times (prepared statements, plan cache); each run creates fresh per-operator state.
 *
 * Execution model: pull-based. Every operator turns its children's batch streams
 * (`AsyncIterable<Batch>`) into its own stream; a consumer that stops early (LIMIT) returns the
 * iterators, which closes the scans underneath.
 *
 * A leaf types file: every node description (`<Name>Node`: kind, parameters) lives here, beside the
 * PhysicalNode union, and imports only common/, meta/ and the bound-expression types. The operators
 * (src/exec/operators/*.ts: `open` and `explain`), the per-kind tables, the plan passes, the fragment
 * types and sql/ import this file; it imports none of them, so no import cycle closes through the plan.
 *
 * Adding an operator: its node interface here and its kind in OperatorKind and PhysicalNode, a file in
 * src/exec/operators/ with its `open` and `explain` functions, one entry in OPERATORS
 * (operator-registry.ts) and one case in nodeProperties (node-properties.ts) — the Record type and the
 * exhaustive switch make the build fail until every table handles it.
 */
import type { ResultColumn } from '../../common/result';
import type { ScanPredicate } from '../../common/scan-predicate';
import type { DataType } from '../../common/types';
import type { TableSchema } from '../../meta/schema';
import type { AggregateOrder, BoundExpr } from '../bound-expr';

export type OperatorKind =
  | 'TableScan'
  | 'ScanFragment'
  | 'Values'
  | 'Filter'
  | 'Project'
  | 'HashAggregate'
  | 'Sort'
  | 'TopN'
  | 'Limit'
  | 'HashJoin'
  | 'NestedLoopJoin'
  | 'UnionAll'
  | 'Materialize'
  | 'Window'
  | 'Generate'
  | 'RecursiveCte'
  | 'WorkTableScan'
  | 'CteAnchor';

export type PhysicalNode =
  | TableScanNode
  | ScanFragmentNode
  | ValuesNode
  | FilterNode
  | ProjectNode
  | HashAggregateNode
  | SortNode
  | TopNNode
  | LimitNode
  | HashJoinNode
  | NestedLoopJoinNode
  | UnionAllNode
  | MaterializeNode
  | WindowNode
  | GenerateNode
  | RecursiveCteNode
  | WorkTableScanNode
  | CteAnchorNode;

/** One column an operator produces: its display name and type, plus its origin for result metadata. */
export interface OutputColumn {
  readonly name: string;
  readonly type: DataType;
  readonly nullable: boolean;
  /** Table alias, base table, database and column name when the column comes straight from a table. */
  readonly table?: string;
  readonly orgTable?: string;
  readonly orgName?: string;
  readonly database?: string;
}

/** Fields every operator description has. */
export interface PlanNodeBase {
  /** Unique within one plan; names the operator's profile counters. */
  readonly id: number;
  readonly output: readonly OutputColumn[];
  readonly children: readonly PhysicalNode[];
}

/** ORDER BY key: Doris defaults are NULLS FIRST for ASC and NULLS LAST for DESC. */
export interface SortKey {
  readonly expr: BoundExpr;
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}

/** One aggregate function call of a HashAggregate: resolved again at run time to create accumulators. */
export interface AggregateSpec {
  readonly name: string;
  readonly args: readonly BoundExpr[];
  readonly argTypes: readonly DataType[];
  readonly distinct: boolean;
  readonly type: DataType;
  /** ORDER BY inside the call: the last order.length arguments are its keys. */
  readonly order?: readonly AggregateOrder[];
}

/** TableScan (operators/table-scan.ts): a table's rows through its TableSource. */
export interface TableScanNode extends PlanNodeBase {
  readonly kind: 'TableScan';
  readonly table: TableSchema;
  /** Name the query refers to the table by (alias or table name). */
  readonly alias: string;
  /** Stored column names to read, in output order; empty when only the row count matters (COUNT(*)). */
  readonly columns: readonly string[];
  readonly predicates: readonly ScanPredicate[];
  readonly limit: number | null;
  /**
   * Phase one of a lazily materialized TopN (plan/lazy-materialization.ts): the output ends with one more
   * column, the global row id of each row (BIGINT, see TableSource.fetchRows). Absent: no row id.
   */
  readonly globalRowId?: boolean;
  /**
   * An ANN index search pushed into the scan (src/sql/rules/ann-index-pushdown.ts): the scan returns, per
   * segment, only the rows the index search answers, `columns` read by their row ordinals, and (when
   * `ann.distance`) the distance appended as one more FLOAT column. Absent: an ordinary scan.
   */
  readonly ann?: AnnScanSpec;
  /**
   * WHERE conjuncts answered by inverted indexes inside the scan (src/sql/rules/inverted-index-pushdown.ts):
   * per segment the rows the predicate holds for (from the index files, or exactly where a segment has
   * none), before any output column is read. Absent: no index predicate.
   */
  readonly inverted?: InvertedScanSpec;
  /**
   * BM25 `score()` computed by the scan (src/sql/rules/score-topn-pushdown.ts): one more FLOAT column after
   * `columns` (before the global row id, if any), each row's relevance to `score.matches`, from the inverted
   * index files' statistics. Absent: no score column.
   */
  readonly score?: ScoreScanSpec;
  /**
   * Runtime filters this scan applies (plan/runtime-filters.ts): built by a hash join above from its build
   * keys once its build side is read, which is before this scan starts (the join pulls its probe side
   * only then). Absent or empty: none.
   */
  readonly runtimeFilters?: readonly RuntimeFilterTarget[];
}

/** Doris's runtime filter types (runtime_filter_type items), as EXPLAIN prints them in brackets. */
export type RuntimeFilterType = 'in' | 'bloom' | 'min_max' | 'in_or_bloom';

/** A runtime filter a scan applies: its id, type and the stored column it tests. */
export interface RuntimeFilterTarget {
  readonly id: number;
  readonly type: RuntimeFilterType;
  readonly column: string;
}

/** A runtime filter a HashJoin builds from one of its build keys, for one scan on its probe side. */
export interface RuntimeFilterSource {
  readonly id: number;
  readonly type: RuntimeFilterType;
  /** Index of the build key (into leftKeys when the build side is the left, else rightKeys). */
  readonly keyIdx: number;
  /** The TableScan it is for, and the stored column there (of the key's type). */
  readonly targetScanId: number;
  readonly targetColumn: string;
  readonly columnType: DataType;
  /** runtime_filter_max_in_num and runtime_bloom_filter_max_size when planned. */
  readonly maxInNum: number;
  readonly bloomMaxBytes: number;
}

/** One MATCH predicate score() sums: `column op text` on the inverted index `indexName`. */
export interface ScoreMatch {
  readonly indexName: string;
  readonly column: string;
  readonly op: 'match_any' | 'match_all' | 'match_phrase' | 'match_phrase_prefix';
  /** The query text: a string literal or a `?` parameter (bound when the scan starts). */
  readonly text: BoundExpr;
}

/** What a scan's score column sums: BM25 of each row for every MATCH predicate of the WHERE clause. */
export interface ScoreScanSpec {
  readonly matches: readonly ScoreMatch[];
}

/** What one inverted-index leaf asks (the reader's InvertedQuery ops, src/storage/inverted/inverted-query.ts). */
export type InvertedLeafOp =
  | 'match_any'
  | 'match_all'
  | 'match_phrase'
  | 'match_phrase_prefix'
  | 'match_regexp'
  | 'match_phrase_edge'
  | '='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'in'
  | 'not_in'
  | 'is_null'
  | 'is_not_null'
  | 'array_contains';

/** One predicate an inverted index of `column` answers: `column op operands`. */
export interface InvertedLeaf {
  readonly kind: 'leaf';
  readonly indexName: string;
  readonly column: string;
  readonly op: InvertedLeafOp;
  /**
   * The constant operands — the match text, the compared value, the IN list; none for IS [NOT] NULL — as
   * literals already of the column's type (its element type for array_contains), or `?` parameters.
   */
  readonly operands: readonly BoundExpr[];
}

/** AND / OR / NOT combinations of inverted-index leaves (row sets intersected, united, complemented). */
export type InvertedTree<Leaf> = Leaf | { readonly kind: 'and' | 'or'; readonly args: readonly InvertedTree<Leaf>[] } | { readonly kind: 'not'; readonly arg: InvertedTree<Leaf> };

export type InvertedPredicate = InvertedTree<InvertedLeaf>;

/**
 * The index predicates of a scan: the tree each segment with the index files answers, and the same
 * predicate as an expression over `filterColumns` (in that order) that a segment without a file
 * evaluates exactly on those columns' values.
 */
export interface InvertedScanSpec {
  readonly predicate: InvertedPredicate;
  readonly filterColumns: readonly string[];
  readonly filter: BoundExpr;
  /** `inverted_index_max_expansions` when planned (Doris's default 50). */
  readonly maxExpansions: number;
}

/** Comparison of a range search: `distance op value`. */
export type AnnRangeOp = '<' | '<=' | '>' | '>=';

/**
 * What an ANN scan asks each segment (plain plan data; expressions bound when the scan starts):
 *   - `limit` (TopN pushdown): each segment's `limit` nearest rows (LIMIT + OFFSET; the TopN above merges);
 *   - `range` (range pushdown): only rows with `distance op value`;
 *   - `filter` (every other conjunct of the WHERE): the allowed-row filter, evaluated on the segment's rows
 *     (after zone maps, short-key ranges, delete bitmaps, DELETE predicates) before the index search.
 */
export interface AnnScanSpec {
  /** The ANN index (TableSchema.indexes) and the function it answers (`l2_distance_approximate`). */
  readonly indexName: string;
  readonly functionName: string;
  readonly metric: 'l2_distance' | 'inner_product';
  /** The indexed ARRAY<FLOAT> column: read only for exact searches and for distances the index cannot give. */
  readonly column: string;
  /** The query vector: a constant or `?` parameter expression (no column). */
  readonly query: BoundExpr;
  readonly limit: number | null;
  readonly range: { readonly op: AnnRangeOp; readonly value: BoundExpr } | null;
  /** Stored columns the allowed-row filter reads, and the filter over them (in that order). */
  readonly filterColumns: readonly string[];
  readonly filter: BoundExpr | null;
  /** The scan's output ends with the distance column (something above reads it). */
  readonly distance: boolean;
  /** hnsw_ef_search when planned (each segment searches with max(ef, limit)). */
  readonly efSearch: number;
  /**
   * optimize_index_scan_parallelism when planned (planning-variables.ts indexScanPerSegment): one scan
   * task per segment, else segments grouped by Doris's row split (be/scan-scheduler.ts).
   */
  readonly perSegment: boolean;
}

/** The partial aggregate a fragment computes over its filtered rows (merged by a final HashAggregate). */
export interface FragmentAggregate {
  readonly groupKeys: readonly BoundExpr[];
  readonly aggregates: readonly AggregateSpec[];
}

/** ScanFragment (operators/scan-fragment.ts, EXPLAIN: SCAN FRAGMENT): scan, filter, partial aggregate in workers. */
export interface ScanFragmentNode extends PlanNodeBase {
  readonly kind: 'ScanFragment';
  readonly children: readonly [TableScanNode];
  /** Worker tasks that may run at once (the source's scanDegree when planned). */
  readonly degree: number;
  /** Rows where this is not TRUE are dropped (the former Filter's predicate, or the aggregate's fused one). */
  readonly filter: BoundExpr | null;
  /** A partial aggregate over the filtered rows: the node then yields partial states, not batches. */
  readonly aggregate: FragmentAggregate | null;
  /**
   * Virtual columns (common subexpressions, plan/virtual-columns.ts) appended to every scanned batch before
   * the filter and aggregate read it: column `scan width + k` is `virtualColumns[k]`, which may read the
   * scan's columns and the virtual columns before it. Absent or empty: none.
   */
  readonly virtualColumns?: readonly VirtualColumn[];
}

/** A common subexpression computed once per batch: its EXPLAIN name (`v0`) and definition. */
export interface VirtualColumn {
  readonly name: string;
  readonly expr: BoundExpr;
}

/**
 * RecursiveCte (operators/recursive-cte.ts): child 0 (the anchor) once, then child 1 (the recursive part)
 * once per round over the rows the previous round added, which its WorkTableScan leaves read, until a
 * round adds none. `distinct` (UNION) drops rows already produced; more than `maxRounds` rounds is
 * MySQL's cte_max_recursion_depth error.
 */
export interface RecursiveCteNode extends PlanNodeBase {
  readonly kind: 'RecursiveCte';
  readonly name: string;
  readonly workTableId: number;
  readonly distinct: boolean;
  readonly maxRounds: number;
}

/**
 * CteAnchor (operators/cte-anchor.ts): runs children 0..n-2 (the producers of CTEs computed once) to
 * completion, keeping their rows for the WorkTableScan leaves of `ctes[i].id`, then streams the last child.
 */
export interface CteAnchorNode extends PlanNodeBase {
  readonly kind: 'CteAnchor';
  readonly ctes: readonly { readonly id: number; readonly name: string }[];
}

/** WorkTableScan (operators/recursive-cte.ts): the rows the previous round of its RecursiveCte added, or a CteAnchor's producer made. */
export interface WorkTableScanNode extends PlanNodeBase {
  readonly kind: 'WorkTableScan';
  readonly name: string;
  readonly workTableId: number;
}

/** Values (operators/values.ts): constant rows. */
export interface ValuesNode extends PlanNodeBase {
  readonly kind: 'Values';
  /** Cells already cast to the output column types. */
  readonly rows: readonly (readonly BoundExpr[])[];
}

/** Filter (operators/filter.ts): the rows whose predicate is TRUE. */
export interface FilterNode extends PlanNodeBase {
  readonly kind: 'Filter';
  readonly predicate: BoundExpr;
}

/** Project (operators/project.ts): the output columns computed from the input batch. */
export interface ProjectNode extends PlanNodeBase {
  readonly kind: 'Project';
  readonly exprs: readonly BoundExpr[];
  /**
   * A virtual-columns node (plan/virtual-columns.ts): `exprs` passes every input column through, in order,
   * then appends the virtual columns; each of those may also read the output columns before it, so a
   * common subexpression is computed once per batch and shared by the operators above.
   */
  readonly virtual?: boolean;
}

/** HashAggregate (operators/hash-aggregate.ts): GROUP BY keys and aggregate calls. */
export interface HashAggregateNode extends PlanNodeBase {
  readonly kind: 'HashAggregate';
  readonly groupKeys: readonly BoundExpr[];
  readonly aggregates: readonly AggregateSpec[];
  /** A fused predicate over the input (the former Filter child): only rows where it is TRUE count. */
  readonly filter?: BoundExpr;
  /**
   * 'final': the input is a fragment's stream of partial states over the same group keys and aggregates
   * (the fragment applied the filter); absent: the input is rows.
   */
  readonly mode?: 'final';
}

/** Sort (operators/sort.ts): all input rows in key order. */
export interface SortNode extends PlanNodeBase {
  readonly kind: 'Sort';
  readonly keys: readonly SortKey[];
}

/** TopN (operators/top-n.ts): ORDER BY ... LIMIT without sorting everything. */
export interface TopNNode extends PlanNodeBase {
  readonly kind: 'TopN';
  readonly keys: readonly SortKey[];
  readonly limit: number;
  readonly offset: number;
}

/** Limit (operators/limit.ts): skips `offset` rows, then passes at most `limit`. */
export interface LimitNode extends PlanNodeBase {
  readonly kind: 'Limit';
  /** null: no limit (OFFSET alone). */
  readonly limit: number | null;
  readonly offset: number;
}

/**
 * The join types, with Doris's names (EXPLAIN prints them upper-cased, `left_semi` as LEFT SEMI JOIN).
 * Semi and anti joins output only the kept side's columns; `left_mark` outputs the left columns and one
 * BOOLEAN mark: TRUE when some right row passes the condition and the mark condition is TRUE for it, NULL
 * when none is TRUE but one is NULL, else FALSE (the value of `x IN (subquery)` / `EXISTS`);
 * `null_aware_left_anti` keeps the left rows whose mark would be FALSE (`x NOT IN (subquery)`).
 */
export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'cross' | 'left_semi' | 'right_semi' | 'left_anti' | 'right_anti' | 'null_aware_left_anti' | 'left_mark';

/** Fields both join operators share beyond the join type. */
export interface JoinNodeFields {
  /** left_mark / null_aware_left_anti: the three-valued test per passing pair (null: TRUE). */
  readonly markCondition?: BoundExpr | null;
  /**
   * A correlated scalar subquery's left join: a left row matching two right rows fails with Doris's
   * "Expected EQ 1 to be returned by expression ..." carrying this text.
   */
  readonly assertOneMatch?: string;
}

/** HashJoin (operators/hash-join.ts): equi-joins of every join type. */
export interface HashJoinNode extends PlanNodeBase, JoinNodeFields {
  readonly kind: 'HashJoin';
  readonly joinType: Exclude<JoinType, 'cross'>;
  /** Key expressions over the left child's output, pairwise equal-typed with rightKeys. */
  readonly leftKeys: readonly BoundExpr[];
  readonly rightKeys: readonly BoundExpr[];
  /** Residual ON condition over the joined row (left columns then right columns). */
  readonly condition: BoundExpr | null;
  readonly buildSide: 'left' | 'right';
  /** Runtime filters built from the build keys once the build side is read (plan/runtime-filters.ts). */
  readonly runtimeFilters?: readonly RuntimeFilterSource[];
}

/** NestedLoopJoin (operators/nested-loop-join.ts): CROSS JOIN and joins without an equality to hash on. */
export interface NestedLoopJoinNode extends PlanNodeBase, JoinNodeFields {
  readonly kind: 'NestedLoopJoin';
  readonly joinType: JoinType;
  /** Over the joined row (left columns then right columns); null for CROSS JOIN. */
  readonly condition: BoundExpr | null;
}

/** UnionAll (operators/union-all.ts): the inputs' rows one input after another. */
export interface UnionAllNode extends PlanNodeBase {
  readonly kind: 'UnionAll';
}

/**
 * Materialize (operators/materialize.ts): phase two of a lazily materialized TopN
 * (plan/lazy-materialization.ts). Reads the stored `columns` of its input's rows by the global row id in
 * input column `rowIdColumn` (TableSource.fetchRows: only the pages that hold them) and emits the input
 * columns followed by the fetched ones, in input order.
 */
export interface MaterializeNode extends PlanNodeBase {
  readonly kind: 'Materialize';
  readonly table: TableSchema;
  readonly alias: string;
  readonly rowIdColumn: number;
  /** Stored column names fetched, in output order (after the input's columns). */
  readonly columns: readonly string[];
}

/** One bound of a window frame; `offset` is the row count of `n PRECEDING` / `n FOLLOWING` (else 0). */
export interface FrameBound {
  readonly kind: 'unbounded_preceding' | 'preceding' | 'current_row' | 'following' | 'unbounded_following';
  readonly offset: number;
}

/** A window frame after Doris's checks and defaults (sql/bind-window.ts); RANGE bounds have no offsets. */
export interface WindowFrame {
  readonly units: 'rows' | 'range';
  readonly start: FrameBound;
  readonly end: FrameBound;
}

/** One window function call of a Window node. */
export interface WindowFunctionSpec {
  /** Canonical name: row_number, rank, ..., lag, lead, first_value, last_value, nth_value, or an aggregate's. */
  readonly name: string;
  /** Over the Window node's input: the value (lag/lead: then the default), or the aggregate's arguments. */
  readonly args: readonly BoundExpr[];
  readonly argTypes: readonly DataType[];
  /** An aggregate (resolved again at run time like HashAggregate's), not a ranking / value function. */
  readonly aggregate: boolean;
  readonly distinct: boolean;
  readonly frame: WindowFrame;
  readonly type: DataType;
  /** lag/lead offset, ntile bucket count, nth_value position (else 0). */
  readonly param: number;
  /** first_value / last_value(x, true): skip NULLs. */
  readonly ignoreNulls: boolean;
}

/**
 * Window (operators/window.ts, EXPLAIN: ANALYTIC): buffers its input, sorts it once by partition keys then
 * order keys, and appends one column per function (input columns first, then the functions in order).
 */
export interface WindowNode extends PlanNodeBase {
  readonly kind: 'Window';
  readonly partitionBy: readonly BoundExpr[];
  readonly orderBy: readonly SortKey[];
  readonly functions: readonly WindowFunctionSpec[];
  /**
   * The input already arrives ordered by the partition keys then the order keys (a Window or Sort below
   * with the same leading keys, node-properties.ts orderingCovers): the node does not sort again.
   */
  readonly presorted?: boolean;
}

/**
 * Generate (operators/generate.ts, EXPLAIN: TABLE FUNCTION): a LATERAL VIEW. Each input row is repeated
 * once per row its table function generates from `args` (evaluated over the input), with the generated
 * columns appended: the input columns first, then `columnTypes.length` generated ones.
 */
export interface GenerateNode extends PlanNodeBase {
  readonly kind: 'Generate';
  /** Registry name of the table function (exec/expr/table-functions), `_outer` twins included. */
  readonly function: string;
  readonly args: readonly BoundExpr[];
  readonly columnTypes: readonly DataType[];
}

/**
 * An uncorrelated subquery of the statement, run once before the main plan; its result replaces the
 * BoundParam placeholders with index `slot` (>= SUBQUERY_SLOT_BASE, above any `?` index MySQL allows).
 */
export interface SubqueryPlan {
  readonly slot: number;
  readonly mode: 'scalar' | 'in' | 'exists';
  readonly plan: PhysicalPlan;
  /** The subquery as written (error messages). */
  readonly sourceText?: string;
}

export const SUBQUERY_SLOT_BASE = 65536;

/** A planned statement: the operator tree, the result column metadata and subqueries to run first. */
export interface PhysicalPlan {
  readonly root: PhysicalNode;
  readonly columns: readonly ResultColumn[];
  readonly subqueries: readonly SubqueryPlan[];
}

/**
 * Profile counter name of one operator's metric (EXPLAIN ANALYZE reads them). Kept here, in the module of
 * plan types, so operators can name counters without importing the EXPLAIN code and its operator registry.
 */
export function operatorCounter(node: PhysicalNode, metric: 'RowsIn' | 'RowsOut' | 'TimeMs'): string {
  return `${node.kind}#${node.id}.${metric}`;
}
