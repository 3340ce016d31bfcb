/**
 * The query binder: turns a QueryExpr (SELECT, UNION, VALUES) into a logical plan whose output schema
 * carries the result column names MySQL shows (alias, else column name, else the expression's source
 * text). Resolves tables through the PlanningContext catalog, names through scopes (binder-scope.ts) and
 * expressions through ExprBinder (binder-expr.ts).
 *
 * SELECT plan shape: FROM (scans, joins, derived tables) -> Filter(WHERE) -> [Aggregate -> Filter(HAVING)]
 * -> Project(select list + hidden ORDER BY columns) -> [Aggregate(DISTINCT)] -> Sort -> Limit
 * -> [Project dropping hidden columns].
 *
 * Doris rules enforced here: select-list columns outside GROUP BY and aggregates are rejected (1055),
 * aggregates in WHERE / GROUP BY / ON are error 1111, unknown / ambiguous columns are 1054 / 1052 with the
 * clause name. Uncorrelated subqueries in expressions are planned as separate plans run before the query.
 */
import { refuseJsonKey } from './refuse-json-key';
import type { RawValue } from '../common/column';
import { GaleneError } from '../common/errors';
import { Types, type DataType } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import type { PlanningContext } from '../exec/context';
import { commonSuperType, literalValue, lookupTableFunction } from '../exec/expr';
import { collectColumns, exprKey, exprToString } from '../exec/plan/bound-expr-utils';
import { JOIN_SHAPES } from '../exec/plan/join-types';
import type { AggregateSpec, JoinType, OutputColumn, PhysicalPlan, SortKey, SubqueryPlan } from '../exec/plan/physical-plan';
import type { Expr, FunctionCallExpr, JoinKeyword, LimitClause, OrderByItem, QueryExpr, SelectQuery, SetOperationQuery, TableRef, ValuesQuery, WithQuery } from './ast';
import { countTableReferences, cteColumns, CteEnv, extendCteEnv, type WorkTableBinding } from './binder-cte';
import { partitionListFilter } from './bind-partition-filter';
import { booleanVariable, variableValue } from '../exec/plan/planning-variables';
import { checkRecursiveBlock, recursiveColumnType, referencesTable, splitRecursiveBlocks } from './binder-recursive-cte';
import type { ViewRecord } from '../meta/views';
import { parseStatement } from './parser';
import { planIntersectExcept, planIntersectExceptAll } from './bind-set-operation';
import { containsGroupingCall, groupingPlaceholder, isGroupingCall, planGroupingSets } from './bind-grouping-sets';
import { MAX_GROUPING_SETS, tooManyGroupingSets } from './grouping-sets-limit';
import { castTo, containsAggregate, containsSubquery, containsWindow, ExprBinder, isAggregateCall, isWindowCall, toBoolean, type BindEnv, type OuterColumnResolver, type SubqueryPlanner } from './binder-expr';
import { ApplyStage, bindSubqueryExpr, type SubqueryAst, type SubqueryHost } from './binder-subquery';
import { placeWindows, readsWindow, sortKeyFor, WindowCollector } from './bind-window';
import { windowInClause } from './window-errors';
import { Scope, type Clause, type ScopeColumn } from './binder-scope';
import { collatesCaseInsensitively } from './information-schema-collation';
import type { CteProducer, LogicalPlan, PlanColumn } from './logical-plan';
import { makeAggregate, makeColumnProject, makeFilter, makeJoin, makeLimit, makeProject, makeSort } from './logical-plan-build';

/** State shared by the binding of one statement and its nested queries. */
export interface PlanningSession {
  readonly ctx: PlanningContext;
  readonly sql: string | undefined;
  /** Subqueries of the query being bound (each nested query plan keeps its own list). */
  readonly subqueries: SubqueryPlan[];
  /** A placeholder slot number unique within the statement. */
  allocateSlot(): number;
  /** Optimizes and physically plans a bound nested query whose own subqueries are `subqueries`. */
  planLogical(plan: LogicalPlan, subqueries: SubqueryPlan[]): PhysicalPlan;
}

/** Where a query is bound: the CTEs visible, and inside a view's definition, that view. */
export interface BindingScope {
  readonly ctes: CteEnv | null;
  readonly view: ViewBinding | null;
}

/** Binding inside a view's definition (or the definition of CREATE / ALTER VIEW). */
export interface ViewBinding {
  /** The view's database: unqualified table names resolve there. */
  readonly database: string;
  /** The definition's text, which the query's spans index. */
  readonly sql: string;
  /** False when expanding a stored view: its SELECT privilege covers the tables it reads. */
  readonly checkPrivileges: boolean;
  /** Views being expanded around this point: naming one again is a cycle. */
  readonly expanding: ReadonlySet<number>;
}

export const TOP_SCOPE: BindingScope = { ctes: null, view: null };

/** Parsed view definitions, per record (records are replaced, never changed, by ALTER / CREATE OR REPLACE). */
const parsedViews = new WeakMap<ViewRecord, QueryExpr>();

/** A view's stored definition, parsed (once per record). */
export function viewQuery(view: ViewRecord): QueryExpr {
  let query = parsedViews.get(view);
  if (query === undefined) {
    const statement = parseStatement(view.definition);
    if (statement.kind !== 'query') throw new GaleneError('INTERNAL', [`view ${view.databaseName}.${view.name} does not hold a query`]);
    query = statement.query;
    parsedViews.set(view, query);
  }
  return query;
}

export interface BoundRelation {
  readonly plan: LogicalPlan;
  readonly scope: Scope;
}

/** One select-list entry after `*` expansion. */
interface SelectEntry {
  readonly ast: Expr | null;
  /** Set for `*` expansions: the input column. */
  readonly column: number | null;
  readonly alias: string | null;
  readonly name: string;
}

function oneRowSource(): LogicalPlan {
  return { kind: 'values', rows: [[]], schema: [] };
}

function isOrdinal(expr: Expr): expr is Expr & { kind: 'literal' } {
  return expr.kind === 'literal' && expr.literalType === 'integer';
}

/**
 * The column order `SELECT *` expands over a USING join, as MySQL defines it
 * (https://dev.mysql.com/doc/refman/8.0/en/join.html, "Join Processing Changes in MySQL 5.0.12"): first
 * the merged USING columns in the order they have in the first table, then the first table's other
 * columns, then the second table's; the hidden copies last (they are never expanded by `*`). A RIGHT JOIN
 * is a LEFT JOIN with the roles reversed, so its first table is the right one and its merged columns come
 * from there. `columns` are in written order, the left side's `leftCount` columns first.
 */
export function usingStarOrder(columns: readonly ScopeColumn[], leftCount: number, merged: ReadonlySet<number>, rightJoin: boolean): ScopeColumn[] {
  const leftSide = columns.filter((column) => column.index < leftCount);
  const rightSide = columns.filter((column) => column.index >= leftCount);
  const [first, second] = rightJoin ? [rightSide, leftSide] : [leftSide, rightSide];
  const visible = (column: ScopeColumn): boolean => !column.hiddenUnqualified;
  return [
    ...first.filter((column) => merged.has(column.index)),
    ...first.filter((column) => visible(column) && !merged.has(column.index)),
    ...second.filter((column) => visible(column) && !merged.has(column.index)),
    ...columns.filter((column) => !visible(column)),
  ];
}

export class QueryBinder implements SubqueryPlanner {
  private readonly session: PlanningSession;
  private readonly exprs: ExprBinder;
  /** The CTEs visible where binding is (binder-cte.ts). */
  private ctes: CteEnv | null;
  private readonly view: ViewBinding | null;

  /** The clause being bound whose correlated subqueries become applies (binder-subquery.ts). */
  private stage: ApplyStage | null = null;

  constructor(session: PlanningSession, scope: BindingScope = TOP_SCOPE, outer: OuterColumnResolver | null = null) {
    this.session = session;
    this.exprs = new ExprBinder(session.ctx, this, scope.view?.sql ?? session.sql, outer);
    this.ctes = scope.ctes;
    this.view = scope.view;
  }

  bindSubquery(ast: SubqueryAst, operand: BoundExpr | null, env: BindEnv): BoundExpr {
    const session = this.session;
    const scope: BindingScope = { ctes: this.ctes, view: this.view };
    const host: SubqueryHost = {
      exprs: this.exprs,
      subqueries: session.subqueries,
      allocateSlot: () => session.allocateSlot(),
      stage: this.stage,
      bindChild: (query, outer, subqueries) => new QueryBinder({ ...session, subqueries }, scope, outer).bindQuery(query),
      planUncorrelated: (plan, subqueries) => session.planLogical(plan, subqueries),
    };
    return bindSubqueryExpr(host, ast, operand, env);
  }

  bindQuery(query: QueryExpr): LogicalPlan {
    switch (query.kind) {
      case 'select':
        return this.bindSelect(query);
      case 'setop':
        return this.bindSetOp(query);
      case 'values':
        return this.bindValues(query);
      case 'with':
        return this.bindWith(query);
    }
  }

  private bindWith(query: WithQuery): LogicalPlan {
    const outer = this.ctes;
    this.ctes = extendCteEnv(outer, query);
    try {
      // Each CTE is bound once here even when unused, so its errors surface as in Doris; the plans are
      // dropped (with any subqueries they planned) and every reference binds its own copy.
      const subqueryCount = this.session.subqueries.length;
      const links: CteEnv[] = [];
      // The CTEs computed once, in the order their plans were bound (a CTE's producer before any that reads it).
      const producers: CteProducer[] = [];
      for (let link = this.ctes; link !== outer && link !== null; link = link.parent) {
        cteColumns(link.def, this.bindCteQuery(link).schema, link.def.name);
        links.unshift(link);
      }
      this.session.subqueries.length = subqueryCount;
      // A CTE referenced more than inline_cte_referenced_threshold times (by the body and the later CTEs)
      // is computed once, as Doris does with enable_cte_materialize: its references read its rows.
      const threshold = Number(variableValue(this.session.ctx, 'inline_cte_referenced_threshold') ?? 1);
      const materialize = booleanVariable(this.session.ctx, 'enable_cte_materialize');
      links.forEach((link, linkIdx) => {
        if (!materialize || link.recursive) return;
        const references = countTableReferences(query.body, link.def.name) + links.slice(linkIdx + 1).reduce((sum, later) => sum + countTableReferences(later.def.query, link.def.name), 0);
        if (references > threshold) link.materialized = { id: this.session.allocateSlot(), owner: this, producer: null, anchor: producers };
      });
      const body = this.bindQuery(query.body);
      if (producers.length === 0) return body;
      return { kind: 'cteAnchor', producers, body, schema: body.schema };
    } finally {
      this.ctes = outer;
    }
  }

  /** The plan of a CTE's query, bound in the environment of its definition. */
  private bindCteQuery(cte: CteEnv): LogicalPlan {
    // Named inside its own query but not from a recursive block (those read the work table).
    if (cte.inProgress) throw new GaleneError('CTE_RECURSIVE_REQUIRES_UNION', [cte.def.name]);
    const saved = this.ctes;
    this.ctes = cte.bodyEnv;
    cte.inProgress = true;
    try {
      return cte.recursive && referencesTable(cte.def.query, cte.def.name) ? this.bindRecursiveCte(cte) : this.bindQuery(cte.def.query);
    } finally {
      cte.inProgress = false;
      this.ctes = saved;
    }
  }

  /** WITH RECURSIVE (binder-recursive-cte.ts): the anchor blocks, then the recursive ones over the work table. */
  private bindRecursiveCte(cte: CteEnv): LogicalPlan {
    const name = cte.def.name;
    const { anchor: anchorBlocks, recursive: recursiveBlocks, all } = splitRecursiveBlocks(name, cte.def.query);
    const unified = this.unify(anchorBlocks.map((block) => this.bindQuery(block)), 'UNION');
    const types = unified.types.map(recursiveColumnType);
    const schema: PlanColumn[] = unified.inputs[0].schema.map((column, colIdx) => ({ name: column.name, type: types[colIdx], nullable: true }));
    const castAll = (plan: LogicalPlan): LogicalPlan => {
      if (plan.schema.length !== schema.length) throw new GaleneError('WRONG_VALUE_COUNT');
      const exprs = plan.schema.map((column, index) => castTo({ kind: 'column', index, type: column.type, name: column.name }, types[index]));
      return makeProject(plan, exprs, schema);
    };
    const anchors = unified.inputs.map(castAll);
    const workTable: WorkTableBinding = { id: this.session.allocateSlot(), schema, owner: this, references: 0 };
    cte.workTable = workTable;
    let recursives: LogicalPlan[];
    try {
      recursives = recursiveBlocks.map((block) => {
        workTable.references = 0;
        const plan = this.bindQuery(block);
        if (workTable.references !== 1) throw new GaleneError('CTE_RECURSIVE_SINGLE_REFERENCE', [name]);
        checkRecursiveBlock(plan, workTable.id, name);
        return castAll(plan);
      });
    } finally {
      cte.workTable = null;
    }
    const union = (inputs: LogicalPlan[]): LogicalPlan => (inputs.length === 1 ? inputs[0] : { kind: 'union', inputs, schema });
    return { kind: 'recursiveCte', name, anchor: union(anchors), recursive: union(recursives), distinct: !all, workTableId: workTable.id, schema };
  }

  /** A reference to a recursive CTE from its recursive part: the rows the previous round added. */
  private bindWorkTableRef(cte: CteEnv, workTable: WorkTableBinding, alias: string | null): BoundRelation {
    if (workTable.owner !== this) throw new GaleneError('CTE_RECURSIVE_SINGLE_REFERENCE', [cte.def.name]);
    workTable.references++;
    const name = alias ?? cte.def.name;
    const schema = cteColumns(cte.def, workTable.schema, name);
    return { plan: { kind: 'workTable', name: cte.def.name, workTableId: workTable.id, schema }, scope: Scope.of(schema, name, null) };
  }

  /**
   * A FROM reference to a view: its definition bound again here (in the view's database, its tables
   * covered by the view's privilege), as a derived table named by the alias or the view.
   */
  private bindViewRef(view: ViewRecord, alias: string | null): BoundRelation {
    const expanding = this.view?.expanding ?? new Set<number>();
    if (expanding.has(view.id)) throw new GaleneError('ANALYSIS_ERROR', [`View ${view.databaseName}.${view.name} refers to itself`]);
    const binding: ViewBinding = { database: view.databaseName, sql: view.definition, checkPrivileges: false, expanding: new Set([...expanding, view.id]) };
    const plan = new QueryBinder(this.session, { ctes: null, view: binding }).bindQuery(viewQuery(view));
    if (view.columns !== null && view.columns.length !== plan.schema.length) {
      throw new GaleneError('ANALYSIS_ERROR', [`View ${view.databaseName}.${view.name} has ${view.columns.length} column labels but its query now returns ${plan.schema.length} columns`]);
    }
    const name = alias ?? view.name;
    const schema: PlanColumn[] = plan.schema.map((column, colIdx) => ({ name: view.columns?.[colIdx].name ?? column.name, type: column.type, nullable: column.nullable, table: name }));
    return { plan: { ...plan, schema } as LogicalPlan, scope: Scope.of(schema, name, alias ? null : view.databaseName) };
  }

  /** A FROM reference to a CTE: its query inlined, as a derived table named by the alias or the CTE. */
  private bindCteRef(cte: CteEnv, alias: string | null): BoundRelation {
    const name = alias ?? cte.def.name;
    const materialized = cte.materialized;
    // Computed once: bound the first time, then every reference of this query reads its rows. A subquery
    // (planned and run apart from this plan) inlines its own copy instead.
    if (materialized !== null && materialized.owner === this) {
      if (materialized.producer === null) {
        materialized.producer = this.bindCteQuery(cte);
        materialized.anchor.push({ id: materialized.id, name: cte.def.name, plan: materialized.producer });
      }
      const schema = cteColumns(cte.def, materialized.producer.schema, name);
      return { plan: { kind: 'workTable', name: cte.def.name, workTableId: materialized.id, schema }, scope: Scope.of(schema, name, null) };
    }
    const plan = this.bindCteQuery(cte);
    const schema = cteColumns(cte.def, plan.schema, name);
    return { plan: { ...plan, schema } as LogicalPlan, scope: Scope.of(schema, name, null) };
  }

  /** Expressions without FROM (SET values, INSERT VALUES cells, DEFAULT values). */
  bindScalar(expr: Expr): BoundExpr {
    return this.exprs.bind(expr, { scope: Scope.EMPTY, clause: 'field list' });
  }

  // ------------------------------------------------------------------ FROM

  bindFrom(ref: TableRef): BoundRelation {
    switch (ref.kind) {
      case 'table': {
        const cte = ref.database === null ? CteEnv.find(this.ctes, ref.name) : null;
        if (cte !== null && ref.partitions) throw new GaleneError('ANALYSIS_ERROR', [`${ref.name} is not an OLAP table: PARTITION does not apply`]);
        if (cte !== null) return cte.workTable !== null ? this.bindWorkTableRef(cte, cte.workTable, ref.alias) : this.bindCteRef(cte, ref.alias);
        const database = ref.database ?? this.view?.database ?? null;
        const inView = this.view !== null && !this.view.checkPrivileges;
        const view = this.session.ctx.getView?.(database, ref.name, inView) ?? null;
        if (view !== null && ref.partitions) throw new GaleneError('ANALYSIS_ERROR', [`${ref.name} is not an OLAP table: PARTITION does not apply`]);
        if (view !== null) return this.bindViewRef(view, ref.alias);
        const table = this.session.ctx.getTable(database, ref.name, inView);
        const alias = ref.alias ?? table.name;
        const schema: PlanColumn[] = table.columns.map((column) => ({
          name: column.name,
          type: column.type,
          nullable: column.nullable,
          table: alias,
          orgTable: table.name,
          orgName: column.name,
          database: table.databaseName,
        }));
        const scan: LogicalPlan = { kind: 'scan', table, alias, columns: table.columns.map((column) => column.name), predicates: [], limit: null, schema };
        const partitionFilter = ref.partitions ? partitionListFilter(table, ref.partitions) : null;
        const plan = partitionFilter === null ? scan : makeFilter(scan, partitionFilter);
        return { plan, scope: Scope.of(schema, alias, ref.alias ? null : table.databaseName) };
      }
      case 'subqueryTable': {
        const plan = this.bindQuery(ref.query);
        const schema = plan.schema.map((column) => ({ name: column.name, type: column.type, nullable: column.nullable, table: ref.alias }));
        return { plan, scope: Scope.of(schema, ref.alias, null) };
      }
      case 'join':
        return this.bindJoin(ref);
      case 'tableFunction':
        return this.bindTableFunction(ref);
      case 'lateralView':
        return this.bindLateralView(ref);
    }
  }

  /** `input LATERAL VIEW fn(args) alias AS cols`: a generate node over the input, its columns after the input's. */
  private bindLateralView(ref: TableRef & { kind: 'lateralView' }): BoundRelation {
    const input = this.bindFrom(ref.input);
    const def = lookupTableFunction(ref.fn.name);
    if (def === undefined) throw new GaleneError('ANALYSIS_ERROR', [`Can not find the table function: ${ref.fn.name}`]);
    const env: BindEnv = { scope: input.scope, clause: 'field list' };
    const args = ref.fn.args.map((arg) => this.exprs.bind(arg, env));
    if (args.length < def.minArgs || args.length > def.maxArgs) throw new GaleneError('WRONG_ARG_COUNT', [def.name]);
    const resolution = def.resolve(args.map((arg) => arg.type));
    if (ref.columns.length !== resolution.columns.length) {
      throw new GaleneError('ANALYSIS_ERROR', [`${def.name} generates ${resolution.columns.length} column(s) but LATERAL VIEW ${ref.alias} names ${ref.columns.length}`]);
    }
    const generated: PlanColumn[] = ref.columns.map((name, colIdx) => ({ name, type: resolution.columns[colIdx], nullable: true, table: ref.alias }));
    const plan: LogicalPlan = {
      kind: 'generate',
      input: input.plan,
      function: def.name,
      args: args.map((arg, argIdx) => castTo(arg, resolution.argTypes[argIdx])),
      columnTypes: resolution.columns,
      schema: [...input.plan.schema, ...generated],
    };
    return { plan, scope: input.scope.concat(Scope.of(generated, ref.alias, null)) };
  }

  /** A table-valued function: constant arguments, then a scan of the rows the context's function names. */
  private bindTableFunction(ref: TableRef & { kind: 'tableFunction' }): BoundRelation {
    const constant = (arg: Expr) => {
      const bound = this.exprs.bind(arg, { scope: Scope.EMPTY, clause: 'field list' });
      if (bound.kind !== 'literal') throw new GaleneError('SYNTAX_ERROR', [`the arguments of table function ${ref.name} must be constants`]);
      return bound.value;
    };
    // Doris's property form, numbers("number" = "10"): a quoted key = a constant value.
    const properties: Record<string, string> = {};
    const args = ref.args.flatMap((arg) => {
      if (arg.kind !== 'binary' || arg.op !== '=' || arg.left.kind !== 'literal' || typeof arg.left.value !== 'string') return [constant(arg)];
      properties[arg.left.value.toLowerCase()] = String(constant(arg.right));
      return [];
    });
    const resolve = this.session.ctx.getTableFunction;
    if (resolve === undefined) throw new GaleneError('UNSUPPORTED', [`table function ${ref.name}`]);
    const table = resolve.call(this.session.ctx, ref.name, args, properties);
    const alias = ref.alias ?? ref.name.toLowerCase();
    const schema: PlanColumn[] = table.columns.map((column) => ({ name: column.name, type: column.type, nullable: column.nullable, table: alias, orgTable: table.name, orgName: column.name, database: table.databaseName }));
    const plan: LogicalPlan = { kind: 'scan', table, alias, columns: table.columns.map((column) => column.name), predicates: [], limit: null, schema };
    return { plan, scope: Scope.of(schema, alias, null) };
  }

  private bindJoin(ref: TableRef & { kind: 'join' }): BoundRelation {
    const left = this.bindFrom(ref.left);
    const right = this.bindFrom(ref.right);
    let scope = left.scope.concat(right.scope);
    const joinType = JOIN_KEYWORD_TYPES[ref.joinType];
    const using = ref.natural ? naturalJoinColumns(left.scope, right.scope) : ref.using;
    const parts: BoundExpr[] = [];
    if (using && using.length > 0) {
      // FULL JOIN USING would merge each pair into COALESCE(left, right): not built yet.
      if (joinType === 'full') throw new GaleneError('UNSUPPORTED', [`FULL OUTER JOIN with ${ref.natural ? 'NATURAL' : 'USING'}`]);
      const hidden = new Set<number>();
      const merged = new Set<number>();
      for (const name of using) {
        const leftCol = left.scope.find({ qualifier: [], name }, 'on clause');
        const rightCol = right.scope.find({ qualifier: [], name }, 'on clause');
        if (!leftCol || !rightCol) throw new GaleneError('UNKNOWN_COLUMN', [name, 'from clause']);
        const shift = left.plan.schema.length;
        parts.push(
          this.exprs.call('eq', [
            { kind: 'column', index: leftCol.index, type: leftCol.type, name: leftCol.name },
            { kind: 'column', index: rightCol.index + shift, type: rightCol.type, name: rightCol.name },
          ]),
        );
        hidden.add(joinType === 'right' ? leftCol.index : rightCol.index + shift);
        merged.add(joinType === 'right' ? rightCol.index + shift : leftCol.index);
      }
      const marked = scope.columns.map((column) => (hidden.has(column.index) ? { ...column, hiddenUnqualified: true } : column));
      scope = new Scope(usingStarOrder(marked, left.plan.schema.length, merged, joinType === 'right'));
    }
    if (ref.on) {
      const env: BindEnv = { scope, clause: 'on clause' };
      parts.push(toBoolean(this.exprs.bind(ref.on, env)));
    }
    const condition = parts.length === 0 ? null : parts.length === 1 ? parts[0] : ({ kind: 'and', args: parts, type: Types.BOOLEAN } as BoundExpr);
    const plan = makeJoin(joinType, left.plan, right.plan, condition);
    // Semi and anti joins output only the kept side: the other side's names are visible in ON only.
    if (!JOIN_SHAPES[joinType].right) return { plan, scope: left.scope };
    if (!JOIN_SHAPES[joinType].left) return { plan, scope: right.scope };
    return { plan, scope };
  }

  // ------------------------------------------------------------------ SELECT

  private expandSelectList(query: SelectQuery, scope: Scope): SelectEntry[] {
    const entries: SelectEntry[] = [];
    for (const item of query.items) {
      if (item.expr.kind === 'star') {
        const qualifier = item.expr.qualifier;
        if (qualifier.length > 0 && !scope.hasQualifier(qualifier[qualifier.length - 1])) throw new GaleneError('BAD_TABLE_DROP', [qualifier.join('.')]);
        const table = qualifier.length > 0 ? qualifier[qualifier.length - 1].toLowerCase() : null;
        // `*` follows the scope's order (USING columns first); `t.*` is the table's own columns in its order.
        const columns = table === null ? scope.columns : [...scope.columns].sort((a, b) => a.index - b.index);
        for (const column of columns) {
          if (table === null ? column.hiddenUnqualified : column.qualifier?.toLowerCase() !== table) continue;
          entries.push({ ast: null, column: column.index, alias: null, name: column.name });
        }
        if (query.from === null) throw new GaleneError('SYNTAX_ERROR', ["'SELECT *' needs a FROM clause"]);
        continue;
      }
      const name = item.alias ?? (item.expr.kind === 'column' ? item.expr.name : this.exprs.sourceText(item.expr) ?? this.exprs.sourceText(item) ?? 'expr');
      entries.push({ ast: item.expr, column: null, alias: item.alias, name });
    }
    return entries;
  }

  private columnRef(scope: Scope, index: number): BoundExpr {
    const column = scope.columns.find((candidate) => candidate.index === index)!;
    return { kind: 'column', index, type: column.type, name: column.name };
  }

  private bindSelect(query: SelectQuery): LogicalPlan {
    const outerStage = this.stage;
    try {
      return this.bindSelectBlock(query);
    } finally {
      this.stage = outerStage;
    }
  }

  private bindSelectBlock(query: SelectQuery): LogicalPlan {
    const from = query.from ? this.bindFrom(query.from) : { plan: oneRowSource(), scope: Scope.EMPTY };
    const scope = from.scope;
    let plan = from.plan;
    if (query.where) {
      // Correlated subqueries of WHERE apply to the FROM result.
      const whereStage = new ApplyStage((env) => env.scope === scope);
      this.stage = whereStage;
      const predicate = toBoolean(this.exprs.bind(query.where, { scope, clause: 'where clause' }));
      const attached = whereStage.attach(plan);
      plan = makeFilter(attached.plan, attached.substitute(predicate));
    }
    // Those of the select list (and HAVING, ORDER BY) apply to the filtered rows, or to the aggregate's
    // output in a grouped query (bound through the post-aggregate override; not inside aggregate arguments).
    const selectStage = new ApplyStage((env) => env.scope === scope && (!aggregating || env.override !== undefined));
    this.stage = selectStage;
    const entries = this.expandSelectList(query, scope);
    const windows = new WindowCollector(this.exprs);
    const aggregating =
      query.groupBy.length > 0 ||
      query.having !== null ||
      entries.some((entry) => entry.ast !== null && (containsAggregate(entry.ast) || containsGroupingCall(entry.ast))) ||
      query.orderBy.some((item) => containsAggregate(item.expr));

    const aliasIndex = (name: string): number => {
      const lower = name.toLowerCase();
      return entries.findIndex((entry) => entry.alias !== null && entry.alias.toLowerCase() === lower);
    };

    let selectExprs: BoundExpr[];
    /** Binds ORDER BY / HAVING expressions in the space the select list was bound in. */
    let bindLate: (ast: Expr, clause: Clause) => BoundExpr;

    if (aggregating) {
      // GROUP BY keys over the input scope.
      const groupKeys: BoundExpr[] = [];
      const keyNames: string[] = [];
      const keyIndex = new Map<string, number>();
      /** Position in query.groupBy -> index into groupKeys (GROUPING SETS name keys by position). */
      const astKey: number[] = [];
      for (const keyAst of query.groupBy) {
        let target: Expr | number = keyAst;
        if (isOrdinal(keyAst)) {
          const ordinal = Number(keyAst.value);
          if (ordinal < 1 || ordinal > entries.length) throw new GaleneError('UNKNOWN_COLUMN', [String(keyAst.value), 'group statement']);
          const entry = entries[ordinal - 1];
          target = entry.column ?? entry.ast!;
        } else if (keyAst.kind === 'column' && keyAst.qualifier.length === 0 && !scope.hasName(keyAst.name) && aliasIndex(keyAst.name) >= 0) {
          const entry = entries[aliasIndex(keyAst.name)];
          target = entry.column ?? entry.ast!;
        }
        if (typeof target !== 'number' && containsAggregate(target)) throw new GaleneError('INVALID_GROUP_FUNC');
        const bound = typeof target === 'number' ? this.columnRef(scope, target) : this.exprs.bind(target, { scope, clause: 'group statement' });
        refuseJsonKey(bound.type);
        const key = exprKey(bound);
        astKey.push(keyIndex.get(key) ?? groupKeys.length);
        if (keyIndex.has(key)) continue;
        keyIndex.set(key, groupKeys.length);
        groupKeys.push(bound);
        keyNames.push(typeof target === 'number' || target.kind !== 'column' ? exprToString(bound) : target.name);
      }
      const groupingSets = query.groupingSets?.map((set) => [...new Set(set.map((position) => astKey[position]))]);
      if (groupingSets && groupingSets.length > MAX_GROUPING_SETS) throw tooManyGroupingSets();
      const aggregates: AggregateSpec[] = [];
      const aggIndex = new Map<string, number>();
      /** GROUPING() placeholders among the aggregates, with the group keys they name. */
      const groupingArgs = new Map<number, number[]>();
      const groupingRef = (ast: FunctionCallExpr, clause: Clause): BoundExpr => {
        const named = ast.args.map((arg) => {
          const bound = this.exprs.bind(arg, { scope, clause });
          const keyIdx = keyIndex.get(exprKey(bound));
          if (keyIdx === undefined) throw new GaleneError('ANALYSIS_ERROR', [`Column in ${ast.name.toUpperCase()} does not exist in GROUP BY clause: ${this.exprs.sourceText(arg) ?? exprToString(bound)}`]);
          return keyIdx;
        });
        const spec = groupingPlaceholder(ast, groupingSets !== undefined, named.map((keyIdx) => groupKeys[keyIdx]));
        const key = `${spec.name}|${named.join(',')}`;
        let aggIdx = aggIndex.get(key);
        if (aggIdx === undefined) {
          aggIdx = aggregates.length;
          aggIndex.set(key, aggIdx);
          aggregates.push(spec);
          groupingArgs.set(aggIdx, named);
        }
        return { kind: 'column', index: groupKeys.length + aggIdx, type: spec.type, name: this.exprs.sourceText(ast) ?? spec.name };
      };
      const aggregateRef = (ast: FunctionCallExpr, clause: Clause): BoundExpr => {
        const spec = this.exprs.bindAggregate(ast, { scope, clause });
        const key = `${spec.name}|${spec.distinct}|${spec.args.map(exprKey).join(',')}|${JSON.stringify(spec.order ?? [])}`;
        let aggIdx = aggIndex.get(key);
        if (aggIdx === undefined) {
          aggIdx = aggregates.length;
          aggIndex.set(key, aggIdx);
          aggregates.push(spec);
        }
        return { kind: 'column', index: groupKeys.length + aggIdx, type: spec.type, name: this.exprs.sourceText(ast) ?? `${spec.name}(...)` };
      };
      let selectBound: BoundExpr[] = [];
      const postAggEnv = (clause: Clause, aliases: boolean, windowed = false): BindEnv => ({
        scope,
        clause,
        override: (ast) => {
          if (windowed && isWindowCall(ast)) return windows.ref(ast, (part) => this.exprs.bind(part, postAggEnv(clause, false)));
          if (isAggregateCall(ast)) return aggregateRef(ast, clause);
          if (isGroupingCall(ast)) return groupingRef(ast, clause);
          if (aliases && ast.kind === 'column' && ast.qualifier.length === 0) {
            const idx = aliasIndex(ast.name);
            if (idx >= 0 && idx < selectBound.length) return selectBound[idx];
          }
          if (containsAggregate(ast) || containsSubquery(ast) || containsWindow(ast) || containsGroupingCall(ast)) return undefined;
          let bound: BoundExpr;
          try {
            bound = this.exprs.bind(ast, { scope, clause });
          } catch (err) {
            // A select alias deeper inside (HAVING s > 1): bind the parts one by one instead.
            if (aliases && err instanceof GaleneError && err.code === 'UNKNOWN_COLUMN' && ast.kind !== 'column') return undefined;
            throw err;
          }
          const keyIdx = keyIndex.get(exprKey(bound));
          if (keyIdx !== undefined) return { kind: 'column', index: keyIdx, type: bound.type, name: keyNames[keyIdx] };
          if (collectColumns(bound).size === 0) return bound;
          if (ast.kind === 'column') throw new GaleneError('NOT_GROUP_BY', [this.exprs.sourceText(ast) ?? [...ast.qualifier, ast.name].join('.')]);
          return undefined;
        },
      });
      const selectEnv = postAggEnv('field list', false, true);
      for (const entry of entries) {
        if (entry.column !== null) {
          const keyIdx = keyIndex.get(exprKey(this.columnRef(scope, entry.column)));
          if (keyIdx === undefined) throw new GaleneError('NOT_GROUP_BY', [entry.name]);
          selectBound.push({ kind: 'column', index: keyIdx, type: groupKeys[keyIdx].type, name: entry.name });
        } else {
          selectBound.push(this.exprs.bind(entry.ast!, selectEnv));
        }
      }
      selectBound = [...selectBound];
      const havingBound = query.having ? toBoolean(this.exprs.bind(query.having, postAggEnv('having clause', true))) : null;
      // A select alias of a window call in HAVING: the window is computed after HAVING (Doris refuses it too).
      if (havingBound !== null && readsWindow(havingBound)) throw windowInClause('having clause', this.exprs.sourceText(query.having!) ?? 'HAVING');
      const orderEnv = postAggEnv('order clause', true, true);
      const lateBound = new Map<OrderByItem, BoundExpr>();
      for (const item of query.orderBy) {
        if (isOrdinal(item.expr)) continue;
        lateBound.set(item, this.exprs.bind(item.expr, orderEnv));
      }
      plan = groupingSets ? planGroupingSets(plan, groupKeys, aggregates, keyNames, groupingSets, groupingArgs) : makeAggregate(plan, groupKeys, aggregates, keyNames);
      const attached = selectStage.attach(plan);
      plan = attached.plan;
      this.stage = null;
      if (havingBound) plan = makeFilter(plan, attached.substitute(havingBound));
      selectExprs = selectBound.map(attached.substitute);
      for (const [item, bound] of lateBound) lateBound.set(item, attached.substitute(bound));
      bindLate = (ast) => {
        const found = query.orderBy.find((item) => item.expr === ast);
        return found && lateBound.has(found) ? lateBound.get(found)! : this.exprs.bind(ast, orderEnv);
      };
    } else {
      const windowOverride = windows.override((part) => this.exprs.bind(part, { scope, clause: 'field list' }));
      selectExprs = entries.map((entry) => (entry.column !== null ? this.columnRef(scope, entry.column) : this.exprs.bind(entry.ast!, { scope, clause: 'field list', override: windowOverride })));
      bindLate = (ast, clause) =>
        this.exprs.bind(ast, {
          scope,
          clause,
          override: (node) => {
            if (node.kind === 'column' && node.qualifier.length === 0) {
              const idx = aliasIndex(node.name);
              if (idx >= 0) return selectExprs[idx];
            }
            return windowOverride(node);
          },
        });
    }

    // Project: the select list, then hidden ORDER BY columns.
    const outputSchema: PlanColumn[] = entries.map((entry, colIdx) => {
      const bound = selectExprs[colIdx];
      const inputColumn = bound.kind === 'column' ? plan.schema[bound.index] : undefined;
      const origin = inputColumn && inputColumn.orgName !== undefined ? inputColumn : undefined;
      return {
        name: entry.name,
        type: bound.type,
        nullable: inputColumn?.nullable ?? true,
        ...(origin ? { table: origin.table, orgTable: origin.orgTable, orgName: origin.orgName, database: origin.database } : {}),
      };
    });
    const projectExprs = [...selectExprs];
    const projectSchema = [...outputSchema];
    const visibleCount = entries.length;
    const sortKeys: SortKey[] = [];
    for (const item of query.orderBy) {
      let index: number;
      if (isOrdinal(item.expr)) {
        index = Number(item.expr.value) - 1;
        if (index < 0 || index >= visibleCount) throw new GaleneError('UNKNOWN_COLUMN', [String(item.expr.value), 'order clause']);
      } else {
        const bound = bindLate(item.expr, 'order clause');
        const key = exprKey(bound);
        index = projectExprs.findIndex((expr) => exprKey(expr) === key);
        if (index < 0) {
          if (query.distinct) throw new GaleneError('NOT_GROUP_BY', [this.exprs.sourceText(item.expr) ?? exprToString(bound)]);
          index = projectExprs.length;
          projectExprs.push(bound);
          const origin = bound.kind === 'column' ? plan.schema[bound.index] : undefined;
          projectSchema.push({ name: `__order_${index}`, type: bound.type, nullable: true, ...(origin?.orgName !== undefined ? { orgName: origin.orgName, database: origin.database } : {}) });
        }
      }
      // information_schema strings sort as they compare: case-insensitively (information-schema-collation.ts).
      if (collatesCaseInsensitively(projectSchema[index])) {
        projectExprs.push(this.exprs.call('lower', [projectExprs[index]]));
        index = projectExprs.length - 1;
        projectSchema.push({ name: `__order_${index}`, type: projectExprs[index].type, nullable: true });
      }
      sortKeys.push(sortKeyFor(item, { kind: 'column', index, type: projectSchema[index].type, name: projectSchema[index].name }));
    }
    if (windows.calls.length > 0) {
      const placed = placeWindows(plan, windows.calls);
      plan = placed.plan;
      for (let colIdx = 0; colIdx < projectExprs.length; colIdx++) projectExprs[colIdx] = placed.remap(projectExprs[colIdx]);
    }
    if (!selectStage.isEmpty) {
      const attached = selectStage.attach(plan);
      plan = attached.plan;
      projectExprs.forEach((expr, exprIdx) => (projectExprs[exprIdx] = attached.substitute(expr)));
    }
    this.stage = null;
    plan = makeProject(plan, projectExprs, projectSchema);
    if (query.distinct) {
      for (const column of projectSchema) refuseJsonKey(column.type);
      plan = makeAggregate(
        plan,
        projectSchema.map((column, index) => ({ kind: 'column', index, type: column.type, name: column.name })),
        [],
        projectSchema.map((column) => column.name),
      );
      plan = { ...plan, schema: projectSchema } as LogicalPlan;
    }
    plan = this.applyOrderLimit(plan, sortKeys, query.limit);
    if (projectExprs.length > visibleCount) plan = makeColumnProject(plan, Array.from({ length: visibleCount }, (_v, idx) => idx));
    return plan;
  }

  private applyOrderLimit(plan: LogicalPlan, sortKeys: readonly SortKey[], limit: LimitClause | null): LogicalPlan {
    let out = plan;
    if (sortKeys.length > 0) out = makeSort(out, sortKeys);
    if (limit) {
      const count = this.limitValue(limit.count);
      const offset = limit.offset ? this.limitValue(limit.offset) : 0;
      out = makeLimit(out, count, offset);
    }
    return out;
  }

  private limitValue(expr: Expr): number {
    let value: RawValue;
    if (expr.kind === 'literal') value = literalValue(expr).value;
    else if (expr.kind === 'param') value = this.session.ctx.parameters[expr.index]?.value ?? null;
    else throw new GaleneError('SYNTAX_ERROR', ['LIMIT takes integer constants']);
    const num = Number(value);
    if (value === null || !Number.isInteger(num) || num < 0) throw new GaleneError('SYNTAX_ERROR', [`invalid LIMIT value ${String(value)}`]);
    return num;
  }

  // ------------------------------------------------------------------ UNION / VALUES

  /** Cast each input's columns to the unified types (a Project where needed). */
  private unify(inputs: readonly LogicalPlan[], context: string): { inputs: LogicalPlan[]; types: DataType[] } {
    const width = inputs[0].schema.length;
    for (const input of inputs) if (input.schema.length !== width) throw new GaleneError('WRONG_VALUE_COUNT');
    const types = Array.from({ length: width }, (_v, colIdx) => {
      const type = commonSuperType(inputs.map((input) => input.schema[colIdx].type), context);
      return type.name === 'NULL' ? Types.BOOLEAN : type;
    });
    const cast = inputs.map((input) => {
      const exprs = input.schema.map((column, index) => castTo({ kind: 'column', index, type: column.type, name: column.name }, types[index]));
      if (exprs.every((expr) => expr.kind === 'column')) return input;
      return makeProject(input, exprs, input.schema.map((column, index) => ({ ...column, type: types[index] })));
    });
    return { inputs: cast, types };
  }

  private bindSetOp(query: SetOperationQuery): LogicalPlan {
    if (query.op !== 'UNION') return this.bindIntersectExcept(query, query.op);
    const collect = (node: QueryExpr, out: LogicalPlan[]): void => {
      if (node.kind === 'setop' && node.op === 'UNION' && node.all === query.all && node.orderBy.length === 0 && node.limit === null) {
        collect(node.left, out);
        collect(node.right, out);
      } else {
        out.push(this.bindQuery(node));
      }
    };
    const parts: LogicalPlan[] = [];
    collect(query.left, parts);
    collect(query.right, parts);
    const { inputs, types } = this.unify(parts, 'UNION');
    const schema: PlanColumn[] = parts[0].schema.map((column, colIdx) => ({ name: column.name, type: types[colIdx], nullable: true }));
    let plan: LogicalPlan = { kind: 'union', inputs, schema };
    if (!query.all) {
      plan = makeAggregate(plan, schema.map((column, index) => ({ kind: 'column', index, type: column.type, name: column.name })), [], schema.map((column) => column.name));
      plan = { ...plan, schema } as LogicalPlan;
    }
    return this.setOpOrderLimit(query, plan, schema);
  }

  /** INTERSECT / EXCEPT (DISTINCT) of two operands (bind-set-operation.ts). */
  private bindIntersectExcept(query: SetOperationQuery, op: 'INTERSECT' | 'EXCEPT'): LogicalPlan {
    const { inputs, types } = this.unify([this.bindQuery(query.left), this.bindQuery(query.right)], op);
    const schema: PlanColumn[] = inputs[0].schema.map((column, colIdx) => ({ name: column.name, type: types[colIdx], nullable: true }));
    const plan = query.all ? planIntersectExceptAll(op, inputs[0], inputs[1], schema) : planIntersectExcept(op, inputs[0], inputs[1], schema);
    return this.setOpOrderLimit(query, plan, schema);
  }

  /** ORDER BY / LIMIT of a whole set operation, over its output columns. */
  private setOpOrderLimit(query: SetOperationQuery, plan: LogicalPlan, schema: readonly PlanColumn[]): LogicalPlan {
    const scope = Scope.of(schema, null, null);
    const sortKeys = query.orderBy.map((item) => {
      if (isOrdinal(item.expr)) {
        const index = Number(item.expr.value) - 1;
        if (index < 0 || index >= schema.length) throw new GaleneError('UNKNOWN_COLUMN', [String(item.expr.value), 'order clause']);
        return sortKeyFor(item, { kind: 'column', index, type: schema[index].type, name: schema[index].name });
      }
      return sortKeyFor(item, this.exprs.bind(item.expr, { scope, clause: 'order clause' }));
    });
    return this.applyOrderLimit(plan, sortKeys, query.limit);
  }

  private bindValues(query: ValuesQuery): LogicalPlan {
    const width = query.rows[0]?.length ?? 0;
    const rows = query.rows.map((row, rowIdx) => {
      if (row.length !== width) throw new GaleneError('COLUMN_COUNT_MISMATCH', [rowIdx + 1]);
      return row.map((cell) => this.bindScalar(cell));
    });
    const types = Array.from({ length: width }, (_v, colIdx) => {
      const type = commonSuperType(rows.map((row) => row[colIdx].type), 'VALUES');
      return type.name === 'NULL' ? Types.BOOLEAN : type;
    });
    const schema: PlanColumn[] = types.map((type, colIdx) => ({ name: `column_${colIdx}`, type, nullable: true }));
    return { kind: 'values', rows: rows.map((row) => row.map((cell, colIdx) => castTo(cell, types[colIdx]))), schema };
  }
}

/** The join type each written join keyword plans as. */
const JOIN_KEYWORD_TYPES: { readonly [K in JoinKeyword]: JoinType } = {
  INNER: 'inner',
  CROSS: 'cross',
  LEFT: 'left',
  RIGHT: 'right',
  FULL: 'full',
  'LEFT SEMI': 'left_semi',
  'RIGHT SEMI': 'right_semi',
  'LEFT ANTI': 'left_anti',
  'RIGHT ANTI': 'right_anti',
};

/** NATURAL JOIN's USING list: the names of the left side's columns the right side also has, in left order (MySQL). */
function naturalJoinColumns(left: Scope, right: Scope): string[] {
  const rightNames = new Set(right.columns.filter((column) => !column.hiddenUnqualified).map((column) => column.name.toLowerCase()));
  const seen = new Set<string>();
  const names: string[] = [];
  for (const column of left.columns) {
    const lower = column.name.toLowerCase();
    if (column.hiddenUnqualified || !rightNames.has(lower) || seen.has(lower)) continue;
    seen.add(lower);
    names.push(column.name);
  }
  return names;
}

export type { OutputColumn };
