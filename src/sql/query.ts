/**
 * Entry points the FE calls to run queries: plan (bind -> logical plan -> optimizer rules -> physical
 * plan), explain, execute, and the one-call runQuery. Also bindScalarExpr for expressions outside queries
 * (SET values, INSERT VALUES cells, DEFAULT values). Planning takes a PlanningContext, running a
 * TaskContext (src/exec/context.ts); the one-call forms take the FE's StatementContext, which is both.
 */
import type { Batch } from '../common/column';
import { GaleneError } from '../common/errors';
import type { MaterializedRows, ResultColumn, RowsResult } from '../common/result';
import type { BoundExpr } from '../exec/bound-expr';
import type { PlanningContext, StatementContext, TaskContext } from '../exec/context';
import { sliceBatch } from '../exec/operators/limit';
import { executePhysicalPlan } from '../exec/plan/execute-plan';
import { explainPhysicalPlan } from '../exec/plan/explain-plan';
import { fuseOperators } from '../exec/plan/fuse-operators';
import { planLazyMaterialization, TOPN_LAZY_MATERIALIZATION } from '../exec/plan/lazy-materialization';
import { PLAN_FRAGMENTS, planFragments, type FragmentPlanning } from '../exec/plan/plan-fragments';
import { planVirtualColumns, VIRTUAL_COLUMNS } from '../exec/plan/virtual-columns';
import { booleanVariable, runtimeFilterPlanning, variableValue } from '../exec/plan/planning-variables';
import { planRuntimeFilters, RUNTIME_FILTERS } from '../exec/plan/runtime-filters';
import type { PhysicalPlan, SubqueryPlan } from '../exec/plan/physical-plan';
import { SUBQUERY_SLOT_BASE } from '../exec/plan/physical-plan';
import type { Expr, QueryExpr } from './ast';
import { QueryBinder, TOP_SCOPE, type BindingScope, type PlanningSession } from './binder';
import type { LogicalPlan } from './logical-plan';
import { toPhysical } from './planner';
import { disabledRuleNames, optimize } from './rules';

export type { PhysicalPlan } from '../exec/plan/physical-plan';

export interface PlanOptions {
  /** The statement text: result column names of expressions are their source text (spans index it). */
  readonly sql?: string;
  /** Optimizer rules to skip, by name (in addition to the `disable_nereids_rules` session variable). */
  readonly disabledRules?: readonly string[];
}

/** Name by which EXPLAIN tests and `disable_nereids_rules` skip operator fusion. */
export const FUSE_OPERATORS = 'fuse_operators';

/** What the plan-fragments pass asks, from the statement's tables. */
function fragmentPlanning(ctx: PlanningContext, nextId: () => number): FragmentPlanning {
  return { scanDegree: (table) => ctx.scanDegree(table), nextId };
}

/**
 * Session variable `experimental_enable_virtual_slot_for_cse` (Doris's default: off): common subexpressions
 * as virtual columns (exec/plan/virtual-columns.ts).
 */
function virtualSlotsForCse(ctx: PlanningContext): boolean {
  return booleanVariable(ctx, 'experimental_enable_virtual_slot_for_cse');
}

/**
 * Session variable `topn_lazy_materialization_threshold` (Doris's default 1024; -1 or 0: off): the largest
 * LIMIT + OFFSET a TopN is lazily materialized at (exec/plan/lazy-materialization.ts).
 */
function lazyMaterializationThreshold(ctx: PlanningContext): number {
  const value = Number(variableValue(ctx, 'topn_lazy_materialization_threshold') ?? 0);
  return Number.isFinite(value) ? value : 0;
}

interface StatementCounters {
  slot: number;
  operatorId: number;
}

function resultColumns(plan: LogicalPlan): ResultColumn[] {
  return plan.schema.map((column) => ({
    name: column.name,
    type: column.type,
    nullable: column.nullable,
    ...(column.orgName !== undefined ? { table: column.table, orgTable: column.orgTable, orgName: column.orgName, database: column.database } : {}),
  }));
}

function planWith(query: QueryExpr, ctx: PlanningContext, options: PlanOptions, counters: StatementCounters, scope: BindingScope = TOP_SCOPE): PhysicalPlan {
  const subqueries: SubqueryPlan[] = [];
  const logical = new QueryBinder(planningSession(ctx, options, counters, subqueries), scope).bindQuery(query);
  return planLogical(logical, subqueries, ctx, options, counters);
}

function planningSession(ctx: PlanningContext, options: PlanOptions, counters: StatementCounters, subqueries: SubqueryPlan[]): PlanningSession {
  return {
    ctx,
    sql: options.sql,
    subqueries,
    allocateSlot: () => counters.slot++,
    planLogical: (nested, nestedSubqueries) => planLogical(nested, nestedSubqueries, ctx, options, counters),
  };
}

/** Optimize and physically plan a bound query whose subqueries to run first are `subqueries`. */
function planLogical(logical: LogicalPlan, subqueries: SubqueryPlan[], ctx: PlanningContext, options: PlanOptions, counters: StatementCounters): PhysicalPlan {
  const optimized = optimize(logical, ctx, options.disabledRules);
  const nextId = (): number => counters.operatorId++;
  const physical = toPhysical(optimized, { ctx, nextId });
  // Operator fusion and fragment cutting are physical passes, skipped by name like the rules.
  const disabled = disabledRuleNames(ctx, options.disabledRules);
  const fused = disabled.has(FUSE_OPERATORS) ? physical : fuseOperators(physical);
  const lazy = disabled.has(TOPN_LAZY_MATERIALIZATION) ? fused : planLazyMaterialization(fused, { threshold: lazyMaterializationThreshold(ctx), nextId });
  const shared = disabled.has(VIRTUAL_COLUMNS) || !virtualSlotsForCse(ctx) ? lazy : planVirtualColumns(lazy, { nextId });
  const cut = disabled.has(PLAN_FRAGMENTS) ? shared : planFragments(shared, fragmentPlanning(ctx, nextId));
  const filters = disabled.has(RUNTIME_FILTERS) ? null : runtimeFilterPlanning(ctx);
  const fragments = disabled.has(PLAN_FRAGMENTS) ? {} : { fragments: fragmentPlanning(ctx, nextId) };
  const root = filters === null ? cut : planRuntimeFilters(cut, { ...filters, ...fragments });
  return { root, columns: resultColumns(optimized), subqueries };
}

/**
 * The result columns of a view definition (CREATE / ALTER VIEW), bound as the view will be: unqualified
 * tables in the view's `database`. The creator needs SELECT on what it reads (`checkPrivileges`; DESCRIBE
 * of an existing view, covered by the view's privilege, does not).
 */
export function viewDefinitionColumns(query: QueryExpr, ctx: PlanningContext, database: string, definition: string, checkPrivileges = true): ResultColumn[] {
  const view = { database, sql: definition, checkPrivileges, expanding: new Set<number>() };
  return resultColumns(planWithScope(query, ctx, definition, { ctes: null, view }));
}

function planWithScope(query: QueryExpr, ctx: PlanningContext, sql: string, scope: BindingScope): LogicalPlan {
  const counters: StatementCounters = { slot: SUBQUERY_SLOT_BASE, operatorId: 0 };
  return new QueryBinder(planningSession(ctx, { sql }, counters, []), scope).bindQuery(query);
}

/** Bind, optimize and physically plan a query; records PlanTimeMs and the plan text in the profile. */
export function planQuery(query: QueryExpr, ctx: PlanningContext, options: PlanOptions = {}): PhysicalPlan {
  return ctx.profile.time('PlanTimeMs', () => {
    const plan = planWith(query, ctx, options, { slot: SUBQUERY_SLOT_BASE, operatorId: 0 });
    // The plan text is read only by SHOW QUERY PROFILE: build it on first read, not for every query.
    let planText: string | null = null;
    Object.defineProperty(ctx.profile, 'planText', {
      configurable: true,
      enumerable: true,
      get: () => (planText ??= explainPlan(plan).join('\n')),
      set: (text: string) => (planText = text),
    });
    return plan;
  });
}

/** EXPLAIN output, one string per row. */
export function explainPlan(plan: PhysicalPlan): string[] {
  return explainPhysicalPlan(plan);
}

/** EXPLAIN ANALYZE output after the plan ran with `ctx`: each operator with its rows and time. */
export function explainAnalyzed(plan: PhysicalPlan, ctx: TaskContext): string[] {
  return explainPhysicalPlan(plan, ctx.profile);
}

/** The result batches of a plan, produced as the consumer pulls them. */
export function executePlan(plan: PhysicalPlan, ctx: TaskContext): AsyncIterable<Batch> {
  return executePhysicalPlan(plan, ctx);
}

/** Result column metadata (names as MySQL shows them). */
export function planColumns(plan: PhysicalPlan): ResultColumn[] {
  return [...plan.columns];
}

/** Plan and run a query, collecting its rows; records ExecTimeMs and RowsReturned. */
export async function runQuery(query: QueryExpr, ctx: StatementContext, sqlText: string): Promise<MaterializedRows> {
  const plan = planQuery(query, ctx, { sql: sqlText });
  const batches: Batch[] = [];
  await ctx.profile.timeAsync('ExecTimeMs', async () => {
    for await (const batch of executePlan(plan, ctx)) {
      if (batch.length === 0) continue;
      batches.push(batch);
      ctx.profile.add('RowsReturned', batch.length);
    }
  });
  return { kind: 'rows', columns: planColumns(plan), batches };
}

/**
 * Plan a query and run it as its consumer pulls: the first batch is computed before this resolves (so
 * an error that comes at once is a clean error, not a broken result set), the rest on demand. Records
 * ExecTimeMs (until the last batch is pulled) and RowsReturned. `maxRows` (the session's
 * sql_select_limit, when it applies) ends the result after that many rows and stops the plan.
 */
export async function streamQuery(query: QueryExpr, ctx: StatementContext, sqlText: string, maxRows: number | null = null): Promise<RowsResult> {
  return streamPlan(planQuery(query, ctx, { sql: sqlText }), ctx, maxRows);
}

/** streamQuery for a plan already made (prepared statements). */
export async function streamPlan(plan: PhysicalPlan, ctx: TaskContext, maxRows: number | null = null): Promise<RowsResult> {
  const started = performance.now();
  const iterator = executePlan(plan, ctx)[Symbol.asyncIterator]();
  const first = await iterator.next();
  const profile = ctx.profile;
  let remaining = maxRows ?? Number.POSITIVE_INFINITY;
  /** The part of a batch still within maxRows. */
  const within = (batch: Batch): Batch => {
    const kept = batch.length <= remaining ? batch : sliceBatch(batch, 0, remaining);
    remaining -= kept.length;
    profile.add('RowsReturned', kept.length);
    return kept;
  };
  async function* rows(): AsyncIterable<Batch> {
    let finished = first.done === true;
    try {
      if (finished || remaining <= 0) return;
      if (first.value.length > 0) yield within(first.value);
      while (remaining > 0) {
        const step = await iterator.next();
        if (step.done) {
          finished = true;
          break;
        }
        if (step.value.length === 0) continue;
        yield within(step.value);
      }
    } finally {
      profile.add('ExecTimeMs', performance.now() - started);
      if (!finished && iterator.return) await iterator.return();
    }
  }
  return { kind: 'rows', columns: planColumns(plan), batches: rows() };
}

/**
 * Bind an expression that has no FROM clause (SET values, INSERT VALUES cells, column DEFAULTs).
 * Subqueries are not allowed here; `?` parameters bind as BoundParam.
 */
export function bindScalarExpr(expr: Expr, ctx: PlanningContext, options: PlanOptions = {}): BoundExpr {
  const session: PlanningSession = {
    ctx,
    sql: options.sql,
    subqueries: [],
    allocateSlot: () => SUBQUERY_SLOT_BASE,
    planLogical: () => {
      throw new GaleneError('UNSUPPORTED', ['subquery in this context']);
    },
  };
  return new QueryBinder(session).bindScalar(expr);
}
