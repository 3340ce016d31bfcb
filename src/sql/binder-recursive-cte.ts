/**
 * WITH RECURSIVE for the binder, with MySQL's rules (Doris's newest branch follows them): the CTE's query
 * is a UNION [ALL] whose first blocks do not name the CTE (the anchor) and whose other blocks (the
 * recursive part) name it once each, outside subqueries, aggregates, window functions and the
 * NULL-supplying side of outer joins. The CTE's column types are the anchor's, widened so a counter or an
 * accumulating value fits (integers to BIGINT, FLOAT to DOUBLE, DECIMAL to 38 digits; strings keep no
 * length); the recursive part's values are cast to them. The plan is a LogicalRecursiveCte.
 */
import { GaleneError } from '../common/errors';
import { isIntegerType, Types, type DataType } from '../common/types';
import type { QueryExpr } from './ast';
import { countTableReferences } from './binder-cte';
import { planInputs, type LogicalPlan } from './logical-plan';

/** Whether `node` (any part of a query's AST) names the table `name` without a database. */
export function referencesTable(node: unknown, name: string): boolean {
  return countTableReferences(node, name) > 0;
}

/** The blocks of a top-level UNION chain of one kind (all UNION ALL or all UNION), or null when `query` is not one. */
export function unionBlocks(query: QueryExpr): { blocks: QueryExpr[]; all: boolean } | null {
  if (query.kind !== 'setop' || query.op !== 'UNION' || query.orderBy.length > 0 || query.limit !== null) return null;
  const blocks: QueryExpr[] = [];
  const collect = (node: QueryExpr): void => {
    if (node.kind === 'setop' && node.op === 'UNION' && node.all === query.all && node.orderBy.length === 0 && node.limit === null) {
      collect(node.left);
      collect(node.right);
    } else {
      blocks.push(node);
    }
  };
  collect(query);
  return { blocks, all: query.all };
}

/** The anchor blocks and the recursive blocks of a recursive CTE's query, checked in MySQL's order. */
export function splitRecursiveBlocks(name: string, query: QueryExpr): { anchor: QueryExpr[]; recursive: QueryExpr[]; all: boolean } {
  const union = unionBlocks(query);
  if (union === null) throw new GaleneError('CTE_RECURSIVE_REQUIRES_UNION', [name]);
  const named = union.blocks.map((block) => referencesTable(block, name));
  const first = named.indexOf(true);
  if (first <= 0 || named.slice(first).includes(false)) throw new GaleneError('CTE_RECURSIVE_NONRECURSIVE_FIRST', [name]);
  return { anchor: union.blocks.slice(0, first), recursive: union.blocks.slice(first), all: union.all };
}

/** A recursive CTE column's type from its anchor's. */
export function recursiveColumnType(type: DataType): DataType {
  if (isIntegerType(type)) return type.name === 'LARGEINT' ? type : Types.BIGINT;
  if (type.name === 'FLOAT') return Types.DOUBLE;
  if (type.name === 'DECIMAL') return Types.decimal(38, type.scale ?? 0);
  if (type.name === 'CHAR' || type.name === 'VARCHAR') return Types.STRING;
  return type;
}

/** Whether `plan` reads the work table `id`. */
function readsWorkTable(plan: LogicalPlan, id: number): boolean {
  return (plan.kind === 'workTable' && plan.workTableId === id) || planInputs(plan).some((input) => readsWorkTable(input, id));
}

/** MySQL's checks on a bound recursive block: no aggregate or window over the rounds, no NULL-supplied work table. */
export function checkRecursiveBlock(plan: LogicalPlan, id: number, name: string): void {
  if (!readsWorkTable(plan, id)) return;
  if (plan.kind === 'aggregate' || plan.kind === 'window') throw new GaleneError('CTE_RECURSIVE_FORBIDS_AGGREGATION', [name]);
  if (plan.kind === 'join') {
    const type = plan.joinType;
    const leftNullable = type === 'right' || type === 'full' || type === 'right_semi' || type === 'right_anti';
    const rightNullable = type === 'left' || type === 'full' || type === 'left_semi' || type === 'left_anti' || type === 'null_aware_left_anti' || type === 'left_mark';
    if ((leftNullable && readsWorkTable(plan.left, id)) || (rightNullable && readsWorkTable(plan.right, id))) throw new GaleneError('CTE_RECURSIVE_FORBIDDEN_JOIN_ORDER', [name]);
  }
  for (const input of planInputs(plan)) checkRecursiveBlock(input, id, name);
}
