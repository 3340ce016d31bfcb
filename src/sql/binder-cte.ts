/**
 * Common table expressions for the binder: the chain of CTEs visible at a point of a query, and the
 * checks Doris makes on a WITH clause (Nereids AnalyzeCTE). A CTE is inlined: every reference binds its
 * query again, in the CTE environment of its definition, so each use is planned (and optimized) like a
 * derived table — rules push predicates and projections into each copy separately.
 *
 * Visibility follows Doris / SQL: a CTE sees the CTEs written before it in the same WITH (and those of
 * enclosing WITHs); with RECURSIVE it also sees itself. A CTE name hides a table of the same name
 * for unqualified references; `db.name` always means the table.
 */
import { GaleneError } from '../common/errors';
import type { CommonTableExpr, WithQuery } from './ast';
import type { CteProducer, LogicalPlan, PlanColumn } from './logical-plan';

/** One link of the chain: a CTE and the environment its own query is bound in. */
export class CteEnv {
  readonly parent: CteEnv | null;
  readonly def: CommonTableExpr;
  readonly recursive: boolean;
  /** Set while the CTE's own query is bound (shared by nested binders): naming it then is recursion. */
  inProgress = false;
  /** Set while the recursive part of a WITH RECURSIVE CTE is bound: references read its work table. */
  workTable: WorkTableBinding | null = null;
  /** Set while the body of its WITH is bound when the CTE is computed once (binder.ts bindWith). */
  materialized: MaterializedCte | null = null;

  constructor(parent: CteEnv | null, def: CommonTableExpr, recursive: boolean) {
    this.parent = parent;
    this.def = def;
    this.recursive = recursive;
  }

  /** The nearest CTE called `name` (case-insensitive) in `env`'s chain, or null. */
  static find(env: CteEnv | null, name: string): CteEnv | null {
    const lower = name.toLowerCase();
    for (let link = env; link !== null; link = link.parent) if (link.def.name.toLowerCase() === lower) return link;
    return null;
  }

  /** The environment a CTE's query is bound in: itself too when RECURSIVE. */
  get bodyEnv(): CteEnv | null {
    return this.recursive ? this : this.parent;
  }
}

/** The recursive part's view of its CTE while it is bound: the work table's id, columns and references. */
export interface WorkTableBinding {
  readonly id: number;
  readonly schema: readonly PlanColumn[];
  /** The binder of the recursive part: a reference from any other (a subquery's) is refused. */
  readonly owner: object;
  references: number;
}

/** A CTE computed once: its work table id, the binder whose references read it, its plan once bound. */
export interface MaterializedCte {
  readonly id: number;
  readonly owner: object;
  producer: LogicalPlan | null;
  /** The producers of the WITH that defines it, run in this order before its body. */
  readonly anchor: CteProducer[];
}

/** How many times `node` (any part of a query's AST) names the table `name` without a database. */
export function countTableReferences(node: unknown, name: string): number {
  if (node === null || typeof node !== 'object') return 0;
  if (Array.isArray(node)) return node.reduce((sum: number, item) => sum + countTableReferences(item, name), 0);
  const record = node as Record<string, unknown>;
  const self = record.kind === 'table' && record.database === null && typeof record.name === 'string' && record.name.toLowerCase() === name.toLowerCase() ? 1 : 0;
  return Object.values(record).reduce((sum: number, value) => sum + (typeof value === 'object' ? countTableReferences(value, name) : 0), self);
}

/** The chain after a WITH clause's definitions, checking names as Doris does. */
export function extendCteEnv(outer: CteEnv | null, query: WithQuery): CteEnv | null {
  let env = outer;
  for (const def of query.ctes) {
    if (CteEnv.find(env, def.name) !== null) throw new GaleneError('ANALYSIS_ERROR', [`CTE name [${def.name}] cannot be used more than once.`]);
    if (def.columns) {
      const seen = new Set<string>();
      for (const label of def.columns) {
        const lower = label.toLowerCase();
        if (seen.has(lower)) throw new GaleneError('ANALYSIS_ERROR', [`Duplicated CTE column alias: [${lower}] in CTE [${def.name}]`]);
        seen.add(lower);
      }
    }
    env = new CteEnv(env, def, query.recursive);
  }
  return env;
}

/**
 * The output columns of a CTE reference: the query's columns with the CTE's labels on the first ones
 * (Doris allows fewer labels than columns), qualified by the reference's alias.
 */
export function cteColumns(def: CommonTableExpr, output: readonly PlanColumn[], alias: string): PlanColumn[] {
  const labels = def.columns ?? [];
  if (labels.length > output.length) {
    // Doris's wording (AnalyzeCTE.checkColumnAlias), counts as it prints them.
    throw new GaleneError('ANALYSIS_ERROR', [
      `CTE [${def.name}] returns ${labels.length} columns, but ${output.length} labels were specified. The number of column labels must be smaller or equal to the number of returned columns.`,
    ]);
  }
  return output.map((column, colIdx) => ({ name: labels[colIdx] ?? column.name, type: column.type, nullable: column.nullable, table: alias }));
}
