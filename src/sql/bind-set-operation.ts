/**
 * INTERSECT and EXCEPT (MINUS) with DISTINCT semantics, planned on the existing operators: both inputs
 * (already cast to the unified column types) get a tag column — 1 on the left, 2 on the right — and
 * are put together by a UNION ALL; a hash aggregate groups on all the columns and keeps a group when
 * min(tag) = 1 and max(tag) = 2 (INTERSECT: it occurs on both sides) or max(tag) = 1 (EXCEPT: it occurs
 * only on the left). GROUP BY compares NULLs as equal, which is what set operations do. The classic
 * rewrite of Calcite's and Spark's planners; Doris runs a dedicated hash operator, the result is the
 * same.
 *
 * INTERSECT ALL / EXCEPT ALL keep multiplicities: each side first numbers the copies of each row
 * (row_number() over all its columns), then the DISTINCT operation runs on (row, copy number) — the k-th
 * copy of a row is in both sides exactly when both have at least k copies, so INTERSECT ALL keeps
 * min(m, n) copies and EXCEPT ALL keeps max(m - n, 0).
 */
import { Types } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import { resolveAggregate } from '../exec/expr';
import type { AggregateSpec } from '../exec/plan/physical-plan';
import { ROW_NUMBER_SPEC } from './bind-window';
import type { LogicalPlan, PlanColumn } from './logical-plan';
import { makeAggregate, makeColumnProject, makeFilter, makeProject } from './logical-plan-build';

function columnRef(schema: readonly PlanColumn[], index: number): BoundExpr {
  return { kind: 'column', index, type: schema[index].type, name: schema[index].name };
}

function tagged(input: LogicalPlan, tag: number, schema: readonly PlanColumn[]): LogicalPlan {
  const exprs: BoundExpr[] = [...input.schema.map((_column, index) => columnRef(input.schema, index)), { kind: 'literal', type: Types.TINYINT, value: tag }];
  return makeProject(input, exprs, [...schema, { name: '__set_tag', type: Types.TINYINT, nullable: false }]);
}

function tagAggregate(name: 'min' | 'max', tagIndex: number): AggregateSpec {
  const arg: BoundExpr = { kind: 'column', index: tagIndex, type: Types.TINYINT, name: '__set_tag' };
  const resolved = resolveAggregate(name, [Types.TINYINT], false);
  return { name: resolved.name, args: [arg], argTypes: [Types.TINYINT], distinct: false, type: resolved.returnType };
}

function equals(index: number, type: PlanColumn['type'], value: number): BoundExpr {
  return { kind: 'call', name: 'eq', args: [{ kind: 'column', index, type, name: `tag#${index}` }, { kind: 'literal', type, value }], type: Types.BOOLEAN };
}

/** `input` with a last column numbering the copies of each row (1, 2, ... among equal rows). */
function numberCopies(input: LogicalPlan): LogicalPlan {
  const copy: PlanColumn = { name: '__set_copy', type: Types.BIGINT, nullable: false };
  const partitionBy = input.schema.map((_column, index) => columnRef(input.schema, index));
  return { kind: 'window', input, partitionBy, orderBy: [], functions: [ROW_NUMBER_SPEC], schema: [...input.schema, copy] };
}

/** `left INTERSECT ALL right` or `left EXCEPT ALL right`: the DISTINCT operation over numbered copies. */
export function planIntersectExceptAll(op: 'INTERSECT' | 'EXCEPT', left: LogicalPlan, right: LogicalPlan, schema: readonly PlanColumn[]): LogicalPlan {
  const numbered = [...schema, { name: '__set_copy', type: Types.BIGINT, nullable: false }];
  const distinct = planIntersectExcept(op, numberCopies(left), numberCopies(right), numbered);
  const kept = makeColumnProject(distinct, Array.from({ length: schema.length }, (_v, index) => index));
  return { ...kept, schema } as LogicalPlan;
}

/** `left INTERSECT right` or `left EXCEPT right` (DISTINCT); both inputs have `schema`'s column types. */
export function planIntersectExcept(op: 'INTERSECT' | 'EXCEPT', left: LogicalPlan, right: LogicalPlan, schema: readonly PlanColumn[]): LogicalPlan {
  const width = schema.length;
  const union: LogicalPlan = { kind: 'union', inputs: [tagged(left, 1, schema), tagged(right, 2, schema)], schema: [...schema, { name: '__set_tag', type: Types.TINYINT, nullable: false }] };
  const keys = schema.map((_column, index) => columnRef(union.schema, index));
  const aggregates = op === 'INTERSECT' ? [tagAggregate('min', width), tagAggregate('max', width)] : [tagAggregate('max', width)];
  const grouped = makeAggregate(union, keys, aggregates, schema.map((column) => column.name));
  const predicate: BoundExpr =
    op === 'INTERSECT'
      ? { kind: 'and', args: [equals(width, aggregates[0].type, 1), equals(width + 1, aggregates[1].type, 2)], type: Types.BOOLEAN }
      : equals(width, aggregates[0].type, 1);
  const kept = makeColumnProject(makeFilter(grouped, predicate), Array.from({ length: width }, (_v, index) => index));
  return { ...kept, schema } as LogicalPlan;
}
