/**
 * The lazy-materialization pass: Doris's global TopN late materialization (session variable
 * `topn_lazy_materialization_threshold`, default 1024; -1 or 0 turns it off). For
 *
 *   TopN(keys, limit n, offset m) -> [Project] -> [Filter] -> TableScan(columns)
 *
 * with n + m <= threshold over a table whose rows have a single address (DUPLICATE, merge-on-write
 * UNIQUE: the source implements TableSource.fetchRows), phase one scans only the columns the filter and
 * the sort keys need plus each row's global row id, and the TopN runs on those; MATERIALIZE then reads the
 * other projected columns of just the final rows by row id, and a Project on top computes the select-list
 * expressions that read them — so a wide or string column is read for n + m rows, not for every row:
 *
 *   Project(original exprs) -> Materialize(lazy columns) -> TopN(keys) -> Project(early exprs, row id)
 *     -> [Filter] -> TableScan(early columns, global row id)
 *
 * A select-list expression that reads only phase-one columns is still computed below the TopN (as
 * before); one that reads a deferred column is computed over the final rows only. The rewritten TopN keeps
 * its keys, input order and tie order (same rows, same order in), so results equal the eager plan's.
 *
 * An ANN TopN scan (TableScanNode.ann with a per-segment k, sql/rules/ann-index-pushdown.ts) is the
 * seed's case: phase one is the index search alone — each segment returns its k distances and row ids
 * (and only the stored columns the sort keys need; the allowed-row filter reads its own columns inside the
 * search, as before) — the TopN merges them, and MATERIALIZE reads the select list's columns of the final
 * rows. Output columns past the stored ones (the distance) always stay in phase one.
 *
 * Left alone: merge-on-read UNIQUE and AGGREGATE KEY tables (a merged row has no single address),
 * information_schema (its rows are computed per read), a scan with a LIMIT or with a field this pass does
 * not know, a range-only ANN search (no k: its rows are not bounded by the limit), a TopN whose keys need
 * every column, and a TopN above the threshold. In a prepared statement's cached plan, `LIMIT ?` is
 * planned before its value is known (sql/plan-cache.ts) and therefore stays eager.
 *
 * Run by the planner (src/sql/query.ts) after fuseOperators, before the virtual-columns and plan-fragments
 * passes (a Filter over the phase-one scan becomes a SCAN FRAGMENT whose workers return the row ids);
 * skipped by name ('topn_lazy_materialization'). Existing nodes keep their ids; new nodes take fresh ids.
 */
import { Types } from '../../common/types';
import { INFORMATION_SCHEMA } from '../../meta/catalog';
import { isMergeOnWrite } from '../../meta/delete-bitmap';
import type { TableSchema } from '../../meta/schema';
import type { BoundExpr } from '../bound-expr';
import { collectColumns, remapColumns } from './bound-expr-utils';
import type { FilterNode, MaterializeNode, OutputColumn, PhysicalNode, ProjectNode, TableScanNode, TopNNode } from './physical-plan';

/** Name by which EXPLAIN tests and `disable_nereids_rules` skip the pass. */
export const TOPN_LAZY_MATERIALIZATION = 'topn_lazy_materialization';

/** What the pass needs from the planner. */
export interface LazyMaterializationPlanning {
  /** topn_lazy_materialization_threshold: the largest limit + offset that qualifies (<= 0: none). */
  readonly threshold: number;
  /** A fresh operator id (the statement's counter). */
  nextId(): number;
}

/** Doris's name of the hidden row id column (`__DORIS_GLOBAL_ROWID_COL__<table>`). */
export function globalRowIdColumnName(table: TableSchema): string {
  return `__DORIS_GLOBAL_ROWID_COL__${table.name}`;
}

/** TableScanNode fields this pass knows; a scan carrying any other is left alone. */
const KNOWN_SCAN_FIELDS = new Set(['kind', 'id', 'output', 'children', 'table', 'alias', 'columns', 'predicates', 'limit', 'globalRowId', 'ann']);

/** Whether each row of `table` has one address a second read can find (TableSource.fetchRows). */
function rowsAddressable(table: TableSchema): boolean {
  if (table.databaseName.toLowerCase() === INFORMATION_SCHEMA) return false;
  return table.keysType === 'DUPLICATE' || isMergeOnWrite(table);
}

function column(index: number, out: OutputColumn): BoundExpr {
  return { kind: 'column', index, type: out.type, name: out.name };
}

/** The TopN's input chain, when it has the shape this pass rewrites. */
function matchChain(topN: TopNNode): { project: ProjectNode | null; filter: FilterNode | null; scan: TableScanNode } | null {
  let node = topN.children[0];
  let project: ProjectNode | null = null;
  if (node.kind === 'Project' && node.virtual !== true) {
    project = node;
    node = node.children[0];
  }
  let filter: FilterNode | null = null;
  if (node.kind === 'Filter') {
    filter = node;
    node = node.children[0];
  }
  if (node.kind !== 'TableScan') return null;
  const scan = node;
  if (scan.limit !== null || scan.globalRowId === true || Object.keys(scan).some((field) => !KNOWN_SCAN_FIELDS.has(field))) return null;
  // An ANN scan qualifies with its TopN pushed in (each segment's k nearest); a range-only search stays eager.
  if (scan.ann !== undefined && scan.ann.limit === null) return null;
  if (!rowsAddressable(scan.table)) return null;
  return { project, filter, scan };
}

/** The lazily materialized form of `topN`, or null when it does not qualify. */
function rewriteTopN(topN: TopNNode, planning: LazyMaterializationPlanning): PhysicalNode | null {
  if (topN.limit <= 0 || topN.limit + topN.offset > planning.threshold) return null;
  const chain = matchChain(topN);
  if (chain === null) return null;
  const { project, filter, scan } = chain;
  // The select list over the scan's columns (identity when there is no Project).
  const exprs: readonly BoundExpr[] = project?.exprs ?? scan.output.map((out, colIdx) => column(colIdx, out));
  // Output columns past the stored ones (an ANN scan's distance) come from phase one's search itself.
  const early = new Set<number>(scan.output.map((_out, outIdx) => outIdx).filter((outIdx) => outIdx >= scan.columns.length));
  if (filter !== null) collectColumns(filter.predicate, early);
  for (const key of topN.keys) for (const exprIdx of collectColumns(key.expr)) collectColumns(exprs[exprIdx], early);
  const lazy = scan.columns.map((_name, colIdx) => colIdx).filter((colIdx) => !early.has(colIdx));
  if (lazy.length === 0) return null;

  // Phase one: the early stored columns in scan order, the computed ones (ANN distance), then the row id.
  const earlyCols = scan.columns.map((_name, colIdx) => colIdx).filter((colIdx) => early.has(colIdx));
  const keptOut = [...earlyCols, ...scan.output.map((_out, outIdx) => outIdx).slice(scan.columns.length)];
  const scanMap = new Int32Array(scan.output.length).fill(-1);
  keptOut.forEach((outIdx, newIdx) => (scanMap[outIdx] = newIdx));
  const rowIdOut: OutputColumn = { name: globalRowIdColumnName(scan.table), type: Types.BIGINT, nullable: false };
  const scanOut = [...keptOut.map((outIdx) => scan.output[outIdx]), rowIdOut];
  const phaseScan: TableScanNode = { ...scan, columns: earlyCols.map((colIdx) => scan.columns[colIdx]), output: scanOut, globalRowId: true };
  const toPhaseOne = (expr: BoundExpr): BoundExpr => remapColumns(expr, (index) => scanMap[index]);
  const phaseInput: PhysicalNode = filter === null ? phaseScan : { ...filter, output: scanOut, children: [phaseScan], predicate: toPhaseOne(filter.predicate) };

  // Below the TopN: the select-list expressions that read only early columns, the early columns the
  // other expressions read, then the row id.
  const isEarly = (expr: BoundExpr): boolean => [...collectColumns(expr)].every((index) => early.has(index));
  const topOut = topN.output;
  const belowExprs: BoundExpr[] = [];
  const belowOut: OutputColumn[] = [];
  const exprPos = new Int32Array(exprs.length).fill(-1);
  exprs.forEach((expr, exprIdx) => {
    if (!isEarly(expr)) return;
    exprPos[exprIdx] = belowExprs.length;
    belowExprs.push(toPhaseOne(expr));
    belowOut.push(topOut[exprIdx]);
  });
  const carriedPos = new Map<number, number>();
  for (const expr of exprs) {
    if (isEarly(expr)) continue;
    for (const index of collectColumns(expr)) {
      if (!early.has(index) || carriedPos.has(index)) continue;
      carriedPos.set(index, belowExprs.length);
      belowExprs.push(column(scanMap[index], scan.output[index]));
      belowOut.push(scan.output[index]);
    }
  }
  const rowIdColumn = belowExprs.length;
  belowExprs.push(column(keptOut.length, rowIdOut));
  belowOut.push(rowIdOut);
  const below: ProjectNode = { kind: 'Project', id: project?.id ?? planning.nextId(), output: belowOut, children: [phaseInput], exprs: belowExprs };
  const sorted: TopNNode = { ...topN, output: belowOut, children: [below], keys: topN.keys.map((key) => ({ ...key, expr: remapColumns(key.expr, (index) => exprPos[index]) })) };

  // Phase two: fetch the lazy columns, then compute the select list as the original TopN output.
  const lazyOut = lazy.map((colIdx) => scan.output[colIdx]);
  const materialize: MaterializeNode = {
    kind: 'Materialize',
    id: planning.nextId(),
    output: [...belowOut, ...lazyOut],
    children: [sorted],
    table: scan.table,
    alias: scan.alias,
    rowIdColumn,
    columns: lazy.map((colIdx) => scan.columns[colIdx]),
  };
  const lazyPos = new Map(lazy.map((colIdx, lazyIdx) => [colIdx, belowOut.length + lazyIdx]));
  const finalExprs = exprs.map((expr, exprIdx) =>
    exprPos[exprIdx] >= 0 ? column(exprPos[exprIdx], topOut[exprIdx]) : remapColumns(expr, (index) => carriedPos.get(index) ?? lazyPos.get(index)!),
  );
  return { kind: 'Project', id: planning.nextId(), output: topOut, children: [materialize], exprs: finalExprs };
}

/** The plan with every qualifying TopN lazily materialized (the same objects where nothing changed). */
export function planLazyMaterialization(node: PhysicalNode, planning: LazyMaterializationPlanning): PhysicalNode {
  if (planning.threshold <= 0) return node;
  const children = node.children.map((child) => planLazyMaterialization(child, planning));
  const changed = children.some((child, childIdx) => child !== node.children[childIdx]);
  const current = changed ? ({ ...node, children } as PhysicalNode) : node;
  if (current.kind !== 'TopN') return current;
  return rewriteTopN(current, planning) ?? current;
}
