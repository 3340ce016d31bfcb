/**
 * The runtime-filters pass (Doris's RuntimeFilterGenerator): for each hash join whose probe rows without a
 * match are dropped — INNER, RIGHT OUTER, LEFT SEMI, RIGHT SEMI, RIGHT ANTI — and each equi-key whose probe
 * side is a plain column, it traces that column down the probe subtree to the stored column of a table
 * scan, and plans one filter per runtime_filter_type item from the build key to that scan column.
 * EXPLAIN shows `runtime filters: RF000[in_or_bloom] <- key` on the join and `RF000[in_or_bloom] -> col`
 * on the scan. At run time the join builds the filters when its build side is read and the scan applies
 * them when it starts (exec/runtime-filter.ts): the probe subtree is only pulled after the build.
 *
 * Tracing passes through Filter, Sort, column-only Project, a scan fragment without aggregate, the group
 * keys of an aggregate, and both sides of a lower INNER join — never into the null-supplying side of an
 * outer join, nor through LIMIT, TopN, windows, unions or CTEs (which would change which rows exist).
 * A scan with a LIMIT is never a target. Keys and columns must have the same type (no casts).
 *
 * Run by the planner (src/sql/query.ts) after planFragments, unless runtime_filter_mode is OFF; skipped
 * by name ('runtime_filters') like the other physical passes. Returns the same objects where nothing changed.
 */
import { typesEqual, type DataType } from '../../common/types';
import { JOIN_SHAPES } from './join-types';
import { bareScanFragment, type FragmentPlanning } from './plan-fragments';
import type { HashJoinNode, JoinType, PhysicalNode, RuntimeFilterSource, RuntimeFilterTarget, RuntimeFilterType, TableScanNode } from './physical-plan';

/** Name by which `disable_nereids_rules` skips the pass. */
export const RUNTIME_FILTERS = 'runtime_filters';

export interface RuntimeFilterPlanning {
  /** runtime_filter_type, parsed: the filter types planned per key, in order. */
  readonly types: readonly RuntimeFilterType[];
  /** runtime_filters_max_num: most filters per plan. */
  readonly maxNum: number;
  readonly maxInNum: number;
  readonly bloomMaxBytes: number;
  /**
   * enable_runtime_filter_prune: plan no filter from a build side that nothing filters (a whole table, or
   * joins and aggregates of whole tables): its keys are typically every key the probe side references (a
   * foreign key join), so the filter would test every probe row and drop none.
   */
  readonly prune: boolean;
  /** When given, a bare target scan that could run in the scan workers becomes a scan fragment. */
  readonly fragments?: FragmentPlanning;
}

/** Join types whose probe (left) rows without a match never reach the output, when the build is the right. */
const FILTERABLE_PROBE_LEFT: ReadonlySet<JoinType> = new Set<JoinType>(['inner', 'right', 'left_semi', 'right_semi', 'right_anti']);

/** Column types a filter can test (equality on the stored value). */
const FILTERABLE_TYPES = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'LARGEINT', 'BOOLEAN', 'DATE', 'DATETIME', 'DECIMAL', 'FLOAT', 'DOUBLE', 'CHAR', 'VARCHAR', 'STRING', 'IPV4', 'IPV6']);

/**
 * Doris's runtime_filter_type value parsed ("IN_OR_BLOOM_FILTER,MIN_MAX"; also a number, Doris's bit mask:
 * 1 IN, 2 BLOOM_FILTER, 4 MIN_MAX, 8 IN_OR_BLOOM_FILTER); null for a value it does not name.
 */
export function parseRuntimeFilterType(value: string): RuntimeFilterType[] | null {
  const names: Record<string, RuntimeFilterType> = { IN: 'in', BLOOM_FILTER: 'bloom', MIN_MAX: 'min_max', IN_OR_BLOOM_FILTER: 'in_or_bloom' };
  const bits: [number, RuntimeFilterType][] = [[8, 'in_or_bloom'], [1, 'in'], [2, 'bloom'], [4, 'min_max']];
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    const mask = Number(text);
    if (mask >= 32) return null;
    return bits.filter(([bit]) => (mask & bit) !== 0).map(([, type]) => type);
  }
  const out: RuntimeFilterType[] = [];
  for (const item of text.split(',').map((part) => part.trim().toUpperCase()).filter((part) => part !== '')) {
    if (item === 'BITMAP_FILTER') continue; // Doris's bitmap filter is for bitmap joins, which Galene has not
    const type = names[item];
    if (type === undefined) return null;
    if (!out.includes(type)) out.push(type);
  }
  return out;
}

/** Where a probe column comes from: a stored column of a scan. */
interface Traced {
  readonly scan: TableScanNode;
  readonly column: string;
  readonly type: DataType;
}

/** The stored scan column output column `colIdx` of `node` carries unchanged, when every row keeps it. */
function traceColumn(node: PhysicalNode, colIdx: number): Traced | null {
  switch (node.kind) {
    case 'TableScan': {
      if (node.limit !== null || node.ann !== undefined || node.score !== undefined || colIdx >= node.columns.length) return null;
      return { scan: node, column: node.columns[colIdx], type: node.output[colIdx].type };
    }
    case 'ScanFragment':
      return node.aggregate === null ? traceColumn(node.children[0], colIdx) : null;
    case 'Filter':
    case 'Sort':
      return traceColumn(node.children[0], colIdx);
    case 'Project': {
      const expr = node.exprs[colIdx];
      return expr !== undefined && expr.kind === 'column' ? traceColumn(node.children[0], expr.index) : null;
    }
    case 'HashAggregate': {
      const key = node.groupKeys[colIdx];
      if (key === undefined || key.kind !== 'column') return null;
      const child = node.children[0];
      // 'final' over a fragment's partial states: the keys are over the fragment's scan columns.
      if (node.mode === 'final') return child.kind === 'ScanFragment' ? traceColumn(child.children[0], key.index) : null;
      return traceColumn(child, key.index);
    }
    case 'HashJoin':
    case 'NestedLoopJoin': {
      const shape = JOIN_SHAPES[node.joinType];
      const leftWidth = shape.left ? node.children[0].output.length : 0;
      if (shape.left && colIdx < leftWidth) return shape.keepUnmatchedRight ? null : traceColumn(node.children[0], colIdx);
      const rightIdx = colIdx - leftWidth;
      if (shape.right && rightIdx < node.children[1].output.length) return shape.keepUnmatchedLeft ? null : traceColumn(node.children[1], rightIdx);
      return null;
    }
    default:
      return null;
  }
}

interface Assignment {
  readonly sources: Map<number, RuntimeFilterSource[]>;
  readonly targets: Map<number, RuntimeFilterTarget[]>;
  nextId: number;
}

function pushTo<V>(map: Map<number, V[]>, key: number, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * Whether the subtree may output fewer rows than its tables hold (Doris's RuntimeFilterPruner asks the same
 * of a build side): a filter, pushed scan predicates, a LIMIT, constant rows, or such a node below.
 */
export function mayDropRows(node: PhysicalNode): boolean {
  switch (node.kind) {
    case 'Filter':
    case 'Limit':
    case 'TopN':
    case 'Values':
      return true;
    case 'TableScan':
      return node.predicates.length > 0 || node.inverted !== undefined || node.limit !== null || node.ann !== undefined;
    case 'ScanFragment':
      return node.filter !== null || mayDropRows(node.children[0]);
    case 'HashAggregate':
      return node.filter !== undefined || mayDropRows(node.children[0]);
    default:
      return node.children.some(mayDropRows);
  }
}

function assignJoin(join: HashJoinNode, planning: RuntimeFilterPlanning, state: Assignment): void {
  const probeIsLeft = join.buildSide === 'right';
  if (probeIsLeft ? !FILTERABLE_PROBE_LEFT.has(join.joinType) : join.joinType !== 'inner') return;
  if (planning.prune && !mayDropRows(join.children[probeIsLeft ? 1 : 0])) return;
  const probeKeys = probeIsLeft ? join.leftKeys : join.rightKeys;
  const probe = join.children[probeIsLeft ? 0 : 1];
  probeKeys.forEach((key, keyIdx) => {
    if (key.kind !== 'column') return;
    const traced = traceColumn(probe, key.index);
    if (traced === null || !typesEqual(traced.type, key.type) || !FILTERABLE_TYPES.has(key.type.name)) return;
    for (const type of planning.types) {
      if (state.nextId >= planning.maxNum) return;
      const id = state.nextId++;
      pushTo(state.sources, join.id, { id, type, keyIdx, targetScanId: traced.scan.id, targetColumn: traced.column, columnType: traced.type, maxInNum: planning.maxInNum, bloomMaxBytes: planning.bloomMaxBytes });
      pushTo(state.targets, traced.scan.id, { id, type, column: traced.column });
    }
  });
}

function assign(node: PhysicalNode, planning: RuntimeFilterPlanning, state: Assignment): void {
  if (node.kind === 'HashJoin') assignJoin(node, planning, state);
  for (const child of node.children) assign(child, planning, state);
}

function rebuild(node: PhysicalNode, state: Assignment, fragments: FragmentPlanning | undefined): PhysicalNode {
  const children = node.children.map((child) => {
    const rebuilt = rebuild(child, state, fragments);
    // A filtered scan outside a fragment: into the workers, which test the filters before reading the rest.
    if (fragments === undefined || node.kind === 'ScanFragment' || rebuilt.kind !== 'TableScan' || rebuilt.runtimeFilters === undefined) return rebuilt;
    return bareScanFragment(rebuilt, fragments) ?? rebuilt;
  });
  const changed = children.some((child, childIdx) => child !== node.children[childIdx]);
  let current = changed ? ({ ...node, children } as PhysicalNode) : node;
  const sources = state.sources.get(node.id);
  if (current.kind === 'HashJoin' && sources !== undefined) current = { ...current, runtimeFilters: sources };
  const targets = state.targets.get(node.id);
  if (current.kind === 'TableScan' && targets !== undefined) current = { ...current, runtimeFilters: targets };
  return current;
}

/** The plan with its runtime filters assigned (the same objects where none is). */
export function planRuntimeFilters(root: PhysicalNode, planning: RuntimeFilterPlanning): PhysicalNode {
  if (planning.types.length === 0 || planning.maxNum <= 0) return root;
  const state: Assignment = { sources: new Map(), targets: new Map(), nextId: 0 };
  assign(root, planning, state);
  return state.nextId === 0 ? root : rebuild(root, state, planning.fragments);
}
