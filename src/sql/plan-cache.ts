/**
 * The plan cache: optimized physical plans shared by every session, so that a prepared statement is
 * parsed, bound and optimized once and each EXECUTE only binds parameter values into the kept plan.
 *
 * Key: current database + normalized statement text (whitespace collapsed outside quotes; a prepared
 * text already has `?` where values go) + the SQL types of the parameters (the binder types `?` by the
 * value it is given, so `k = ?` with an integer and with a string are different plans).
 *
 * An entry stays valid while everything it was planned against is unchanged: every table it read
 * (database, name, table id, TableSchema.schemaVersion — so ALTER TABLE and DROP + CREATE under the same
 * name both invalidate) and every session or user variable the planner read (the optimizer reads
 * `disable_nereids_rules`, a query may read `@x`). `currentPlan` checks that on each use; a stale entry
 * is dropped and the caller plans again. A plan in which constant folding read a session fact (the
 * connection id, the statement's NOW()...) is never cached: those values belong to one statement.
 *
 * Value-shaped plans are still reused. Two things in a plan depend on parameter values rather than types:
 * - LIMIT/OFFSET `?`: the binder reads the value while planning. The cache plans with a sentinel per such
 *   parameter (2^32, 2^38, 2^44) so every limit, offset and pushed scan limit in the plan is a known
 *   linear combination of them (limit pushdown adds limit + offset); `bindPlan` decodes it with the values
 *   of this execution.
 * - Scan pruning: `col = ?` stays a BoundParam in the predicate over the scan (a Filter's, or the filter an
 *   aggregate fused in; read at run time), so it was not turned into a ScanPredicate. `bindPlan`
 *   substitutes the values into those conjuncts and adds the ScanPredicates they amount to, so a point
 *   lookup by key still uses the short-key index.
 * Called by the FE's prepared statements (src/fe/prepared-statements.ts).
 */
import type { RawValue } from '../common/column';
import { GaleneError } from '../common/errors';
import { typeToSql, type DataType } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import type { ParamValue, PlanningContext } from '../exec/context';
import { castRaw } from '../exec/expr/cast';
import { anyExpr, collectColumns, literal, splitConjuncts, transformExpr } from '../exec/plan/bound-expr-utils';
import { SUBQUERY_SLOT_BASE, type PhysicalNode, type PhysicalPlan, type TableScanNode } from '../exec/plan/physical-plan';
import type { ScanPredicate } from '../common/scan-predicate';
import type { QueryExpr } from './ast';
import type { LogicalScan } from './logical-plan';
import { planQuery } from './query';
import { toScanPredicate } from './rules/scan-predicate-extract';

export type { ParamValue };

/** A table a plan was built against. */
export interface TableDependency {
  readonly database: string;
  readonly name: string;
  readonly tableId: number;
  readonly schemaVersion: number;
}

/** A variable the planner read, with the value it saw. */
interface VariableDependency {
  readonly system: boolean;
  readonly name: string;
  readonly scope: 'session' | 'global' | null;
  readonly valueKey: string;
}

export interface CachedPlan {
  readonly key: string;
  readonly plan: PhysicalPlan;
  readonly tables: readonly TableDependency[];
  readonly variables: readonly VariableDependency[];
  /** Parameters whose values shape the plan (LIMIT/OFFSET), in sentinel digit order. */
  readonly valueParams: readonly number[];
  /** Whether bindPlan has work to do (value parameters, or parameter conjuncts above a scan). */
  readonly needsBinding: boolean;
  /** Milliseconds the planning took (what each reuse saves). */
  readonly planMs: number;
}

/** Counters for SHOW-style introspection and the benchmark. */
export interface PlanCacheStats {
  hits: number;
  misses: number;
  invalidations: number;
  evictions: number;
}

/** Sentinel weight of value-parameter digit d: 2^(32 + 6d); a plan may hold up to 63 of each. */
const SENTINEL_BASE = 2 ** 32;
const SENTINEL_DIGIT_BITS = 6;
const MAX_VALUE_PARAMS = 3;

function sentinelWeight(digit: number): number {
  return SENTINEL_BASE * 2 ** (SENTINEL_DIGIT_BITS * digit);
}

/** A bounded LRU of plans, shared by all sessions of one FE. */
export class PlanCache {
  private readonly entries = new Map<string, CachedPlan>();
  readonly stats: PlanCacheStats = { hits: 0, misses: 0, invalidations: 0, evictions: 0 };

  constructor(readonly capacity = 4096) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry for `key` if it is still current for `ctx`; a stale entry is removed. */
  lookup(key: string, ctx: PlanningContext): CachedPlan | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.stats.misses++;
      return undefined;
    }
    if (!isPlanCurrent(entry, ctx)) {
      this.entries.delete(key);
      this.stats.invalidations++;
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    return entry;
  }

  store(entry: CachedPlan): void {
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.stats.evictions++;
    }
  }

  /** Drop an entry found stale by a holder that bypassed lookup (a statement's own reference). */
  invalidate(entry: CachedPlan): void {
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    this.stats.invalidations++;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Collapse whitespace outside quotes and drop a trailing `;`, so texts that differ only in layout share a
 * plan. Quoted strings and identifiers are copied as they are.
 */
export function normalizeSql(sql: string): string {
  let out = '';
  let pendingSpace = false;
  const length = sql.length;
  for (let pos = 0; pos < length; pos++) {
    const ch = sql.charCodeAt(pos);
    if (ch === 32 || ch === 9 || ch === 10 || ch === 13) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) {
      out += ' ';
      pendingSpace = false;
    }
    if (ch === 39 || ch === 34 || ch === 96) {
      // ' " `: copy through the closing quote (doubled quotes and backslash escapes stay inside).
      let end = pos + 1;
      while (end < length) {
        const inner = sql.charCodeAt(end);
        if (inner === 92 && ch !== 96) end += 2;
        else if (inner === ch) {
          if (sql.charCodeAt(end + 1) === ch) end += 2;
          else break;
        } else end++;
      }
      out += sql.slice(pos, end + 1);
      pos = end;
      continue;
    }
    out += sql[pos];
  }
  while (out.endsWith(';')) out = out.slice(0, -1).trimEnd();
  return out;
}

/** The cache key of a statement text planned in `database` with parameters of `types`. */
export function planCacheKey(database: string | null, normalizedSql: string, types: readonly DataType[]): string {
  let signature = '';
  for (let paramIdx = 0; paramIdx < types.length; paramIdx++) signature += (paramIdx ? ',' : '') + typeToSql(types[paramIdx]);
  return `${database ?? ''}\u0001${normalizedSql}\u0001${signature}`;
}

function valueKey(value: RawValue): string {
  return typeof value === 'bigint' ? `${value}n` : typeof value === 'string' ? `s${value}` : String(value);
}

/**
 * Plan `query` for reuse: bind, optimize and physically plan it once against `ctx` with parameter types
 * (values only where they shape the plan), recording what the plan depends on. `reusable` is false when
 * the plan cannot be shared (more value-shaped parameters than sentinels, or a folded session fact); it is
 * still right for `params` and this statement.
 */
export function buildCachedPlan(key: string, query: QueryExpr, ctx: PlanningContext, sql: string, params: readonly ParamValue[]): { entry: CachedPlan; reusable: boolean } {
  const tables = new Map<string, TableDependency>();
  const variables = new Map<string, VariableDependency>();
  const valueParams: number[] = [];
  let reusable = true;
  const parameters = params.map((param, paramIdx) => ({
    type: param.type,
    get value(): RawValue {
      let digit = valueParams.indexOf(paramIdx);
      if (digit < 0) {
        digit = valueParams.length;
        valueParams.push(paramIdx);
      }
      if (digit >= MAX_VALUE_PARAMS) {
        reusable = false;
        return param.value;
      }
      return sentinelWeight(digit);
    },
  }));
  const planCtx: PlanningContext = {
    ...ctx,
    parameters,
    // A plan that folded a session fact (CONNECTION_ID(), NOW(), DATABASE()...) holds this statement's
    // value of it: right for this execution, never to be shared.
    sessionInfo: new Proxy(ctx.sessionInfo, {
      get(facts, prop, receiver) {
        reusable = false;
        return Reflect.get(facts, prop, receiver) as unknown;
      },
    }),
    getTable(database, name) {
      const schema = ctx.getTable(database, name);
      tables.set(`${schema.databaseName}.${schema.name}`, { database: schema.databaseName, name: schema.name, tableId: schema.id, schemaVersion: schema.schemaVersion });
      return schema;
    },
    getSystemVariable(name, scope) {
      const result = ctx.getSystemVariable(name, scope);
      variables.set(`@@${scope ?? ''}.${name}`, { system: true, name, scope, valueKey: valueKey(result.value) });
      return result;
    },
    getUserVariable(name) {
      const result = ctx.getUserVariable(name);
      variables.set(`@${name}`, { system: false, name, scope: null, valueKey: valueKey(result.value) });
      return result;
    },
  };
  const start = performance.now();
  const plan = planQuery(query, planCtx, { sql });
  const planMs = performance.now() - start;
  const needsBinding = valueParams.length > 0 || hasScanParamConjuncts(plan);
  const entry: CachedPlan = { key, plan, tables: [...tables.values()], variables: [...variables.values()], valueParams, needsBinding, planMs };
  return { entry, reusable };
}

/** Whether every table and variable the plan was built against is unchanged. */
export function isPlanCurrent(entry: CachedPlan, ctx: PlanningContext): boolean {
  for (const dep of entry.tables) {
    let schema;
    try {
      schema = ctx.getTable(dep.database, dep.name);
    } catch {
      return false;
    }
    if (schema.id !== dep.tableId || schema.schemaVersion !== dep.schemaVersion) return false;
  }
  for (const dep of entry.variables) {
    let value: RawValue;
    try {
      value = dep.system ? ctx.getSystemVariable(dep.name, dep.scope).value : ctx.getUserVariable(dep.name).value;
    } catch {
      return false;
    }
    if (valueKey(value) !== dep.valueKey) return false;
  }
  return true;
}

function isUserParam(expr: BoundExpr): boolean {
  return expr.kind === 'param' && expr.index < SUBQUERY_SLOT_BASE;
}

function hasUserParam(expr: BoundExpr): boolean {
  return anyExpr(expr, isUserParam);
}

/**
 * A node's TableScan child, or the scan under its virtual-columns Project child (exec/plan/virtual-columns.ts),
 * whose first columns are the scan's: the node's predicate indexes both alike.
 */
function scanUnder(node: PhysicalNode): TableScanNode | null {
  const child = node.children.length === 1 ? node.children[0] : null;
  if (child?.kind === 'TableScan') return child;
  if (child?.kind === 'Project' && child.virtual === true && child.children[0].kind === 'TableScan') return child.children[0];
  return null;
}

/** `node` with `scan` in place of the one scanUnder found. */
function withScan(node: PhysicalNode, scan: TableScanNode): PhysicalNode {
  const child = node.children[0];
  const children = [child.kind === 'TableScan' ? scan : { ...child, children: [scan] }];
  return { ...node, children } as PhysicalNode;
}

/**
 * The predicate a node applies to the rows of its TableScan child: a Filter's `predicate`, or the
 * `filter` an operator fused the Filter into (HashAggregate). Both are over the scan's output columns.
 */
function predicateOverScan(node: PhysicalNode): BoundExpr | null {
  if (scanUnder(node) === null) return null;
  const fields = node as unknown as { predicate?: BoundExpr; filter?: BoundExpr };
  return node.kind === 'Filter' ? fields.predicate ?? null : fields.filter ?? null;
}

function nodeHasScanParamConjuncts(node: PhysicalNode): boolean {
  const predicate = predicateOverScan(node);
  if (predicate !== null && hasUserParam(predicate)) return true;
  return node.children.some(nodeHasScanParamConjuncts);
}

function hasScanParamConjuncts(plan: PhysicalPlan): boolean {
  return nodeHasScanParamConjuncts(plan.root) || plan.subqueries.some((sub) => hasScanParamConjuncts(sub.plan));
}

/** A limit/offset of the plan with this execution's values in place of the sentinels. */
function resolveShaped(value: number, entry: CachedPlan, params: readonly ParamValue[]): number {
  if (value < SENTINEL_BASE) return value;
  let rest = value;
  let resolved = 0;
  for (let digit = Math.min(entry.valueParams.length, MAX_VALUE_PARAMS) - 1; digit >= 0; digit--) {
    const weight = sentinelWeight(digit);
    const count = Math.floor(rest / weight);
    rest -= count * weight;
    if (count > 0) resolved += count * limitParamValue(params[entry.valueParams[digit]]?.value ?? null);
  }
  return resolved + rest;
}

/** A LIMIT/OFFSET parameter as the binder accepts it (a non-negative integer). */
function limitParamValue(value: RawValue): number {
  const num = Number(value);
  if (value === null || !Number.isInteger(num) || num < 0) throw new GaleneError('SYNTAX_ERROR', [`invalid LIMIT value ${String(value)}`]);
  return num;
}

/** `expr` with `?` parameters replaced by this execution's values and casts of literals folded. */
function substituteParams(expr: BoundExpr, params: readonly ParamValue[]): BoundExpr {
  return transformExpr(expr, (node) => {
    if (node.kind === 'param' && node.index < SUBQUERY_SLOT_BASE) {
      const param = params[node.index];
      if (param === undefined) return node;
      return literal(node.type, castRaw(param.value, param.type, node.type));
    }
    if (node.kind === 'cast' && node.operand.kind === 'literal') return literal(node.type, castRaw(node.operand.value, node.operand.type, node.type));
    return node;
  });
}

/** ScanPredicates the parameter conjuncts of `filter` amount to for these values. */
function parameterScanPredicates(predicate: BoundExpr, scanColumns: readonly string[], params: readonly ParamValue[]): ScanPredicate[] {
  const out: ScanPredicate[] = [];
  const scanLike = { columns: scanColumns } as unknown as LogicalScan;
  for (const conjunct of splitConjuncts(predicate)) {
    if (!hasUserParam(conjunct)) continue;
    // A conjunct over a virtual column (exec/plan/virtual-columns.ts) reads no stored column.
    if ([...collectColumns(conjunct)].some((index) => index >= scanColumns.length)) continue;
    const scanPred = toScanPredicate(substituteParams(conjunct, params), scanLike);
    if (scanPred !== null) out.push(scanPred);
  }
  return out;
}

function bindNode(node: PhysicalNode, entry: CachedPlan, params: readonly ParamValue[]): PhysicalNode {
  let children = node.children;
  let changed = false;
  if (children.length > 0) {
    const bound = children.map((child) => bindNode(child, entry, params));
    if (bound.some((child, childIdx) => child !== children[childIdx])) {
      children = bound;
      changed = true;
    }
  }
  let out: PhysicalNode = changed ? ({ ...node, children } as PhysicalNode) : node;
  switch (out.kind) {
    case 'Limit': {
      const limit = out.limit === null ? null : resolveShaped(out.limit, entry, params);
      const offset = resolveShaped(out.offset, entry, params);
      if (limit !== out.limit || offset !== out.offset) out = { ...out, limit, offset };
      break;
    }
    case 'TopN': {
      const limit = resolveShaped(out.limit, entry, params);
      const offset = resolveShaped(out.offset, entry, params);
      if (limit !== out.limit || offset !== out.offset) out = { ...out, limit, offset };
      break;
    }
    case 'TableScan': {
      const limit = out.limit === null ? null : resolveShaped(out.limit, entry, params);
      if (limit !== out.limit) out = { ...out, limit };
      // An ANN TopN's per-segment k is LIMIT + OFFSET (rules/ann-index-pushdown.ts).
      const ann = out.ann;
      const annLimit = ann === undefined || ann.limit === null ? null : resolveShaped(ann.limit, entry, params);
      if (ann !== undefined && annLimit !== ann.limit) out = { ...out, ann: { ...ann, limit: annLimit } };
      break;
    }
    default:
      break;
  }
  const predicate = predicateOverScan(out);
  const scan = scanUnder(out);
  if (predicate !== null && scan !== null && hasUserParam(predicate)) {
    const extra = parameterScanPredicates(predicate, scan.columns, params);
    if (extra.length > 0) out = withScan(out, { ...scan, predicates: [...scan.predicates, ...extra] });
  }
  return out;
}

/**
 * The plan to run for one execution: the cached plan itself when nothing depends on values, else a copy
 * of the changed path with this execution's limits and scan predicates. Never runs the optimizer.
 */
export function bindPlan(entry: CachedPlan, params: readonly ParamValue[]): PhysicalPlan {
  if (!entry.needsBinding) return entry.plan;
  return bindPhysicalPlan(entry.plan, entry, params);
}

function bindPhysicalPlan(plan: PhysicalPlan, entry: CachedPlan, params: readonly ParamValue[]): PhysicalPlan {
  const root = bindNode(plan.root, entry, params);
  const subqueries = plan.subqueries.length === 0 ? plan.subqueries : plan.subqueries.map((sub) => ({ ...sub, plan: bindPhysicalPlan(sub.plan, entry, params) }));
  return { ...plan, root, subqueries };
}
