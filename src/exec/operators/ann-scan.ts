/**
 * The ANN form of TableScan (TableScanNode.ann, planned by src/sql/rules/ann-index-pushdown.ts): when the
 * scan starts, the query vector, the radius and the allowed-row filter are bound (`?` parameters and
 * subquery results substituted) and the table source searches every segment (TableSource.scanAnn:
 * src/be/olap-table-source.ts, per segment src/be/ann-segment-scan.ts). hnsw_ef_search is clamped to at
 * least the per-segment k (apache/doris #64226: an ef below LIMIT silently returned fewer rows).
 */
import type { Batch, Vector } from '../../common/column';
import { getRaw } from '../../common/column';
import { GaleneError, galeneError } from '../../common/errors';
import { Types } from '../../common/types';
import type { BoundExpr } from '../bound-expr';
import { bindFragmentParams } from '../parallel/run-fragment';
import { exprToString } from '../plan/bound-expr-utils';
import type { AnnScanRequest } from '../plan/fragment-spec';
import type { OperatorRuntime } from '../plan/operator-runtime';
import type { AnnScanSpec, TableScanNode } from '../plan/physical-plan';
import { invertedField } from './inverted-scan';

const FLOAT_ARRAY = Types.array(Types.FLOAT);
const ONE_ROW: Batch = { length: 1, columns: [] };

/** A constant expression's value for this run. */
function constantValue(expr: BoundExpr, rt: OperatorRuntime): Vector {
  const bound = bindFragmentParams(rt.resolve(expr), rt.ctx.parameters);
  if (bound === null) throw new GaleneError('INTERNAL', [`ann scan: parameter of ${exprToString(expr)} is unbound`]);
  return rt.compile(bound)(ONE_ROW, rt.ctx);
}

function queryVector(ann: AnnScanSpec, rt: OperatorRuntime): Float32Array {
  const expr: BoundExpr = ann.query.type.name === 'ARRAY' && ann.query.type.element?.name === 'FLOAT' ? ann.query : { kind: 'cast', operand: ann.query, type: FLOAT_ARRAY };
  const vec = constantValue(expr, rt);
  if (vec.kind !== 'array' || (vec.nulls !== null && vec.nulls[0] === 1)) throw galeneError('INVALID_ARGUMENT', `Second argument for function ${ann.functionName} cannot be null`);
  const child = vec.child;
  if (child.kind !== 'fixed' || !(child.values instanceof Float32Array)) throw new GaleneError('INTERNAL', [`ann scan: query vector child is ${child.kind}`]);
  const start = vec.offsets[0];
  const end = vec.offsets[1];
  if (child.nulls !== null) for (let pos = start; pos < end; pos++) if (child.nulls[pos] === 1) throw galeneError('INVALID_ARGUMENT', `Second argument for function ${ann.functionName} cannot have null`);
  return child.values.slice(start, end);
}

/** The search this run asks of the source. */
export function bindAnnRequest(ann: AnnScanSpec, rt: OperatorRuntime): AnnScanRequest {
  let radius: AnnScanRequest['radius'] = null;
  if (ann.range !== null) {
    const raw = getRaw(constantValue({ kind: 'cast', operand: ann.range.value, type: Types.DOUBLE }, rt), 0);
    // `dist < NULL` holds for no row.
    radius = { op: ann.range.op, value: raw === null ? NaN : Number(raw) };
  }
  let filter: BoundExpr | null = null;
  if (ann.filter !== null) {
    filter = bindFragmentParams(rt.resolve(ann.filter), rt.ctx.parameters);
    if (filter === null) throw new GaleneError('INTERNAL', [`ann scan: parameter of ${exprToString(ann.filter)} is unbound`]);
  }
  const k = ann.limit;
  return { indexName: ann.indexName, query: queryVector(ann, rt), k, radius, ef: Math.max(ann.efSearch, k ?? 0), filterColumns: ann.filterColumns, filter, distance: ann.distance };
}

export async function* openAnnScan(node: TableScanNode & { ann: AnnScanSpec }, rt: OperatorRuntime): AsyncIterable<Batch> {
  const source = rt.ctx.openTable(node.table);
  if (source.scanAnn === undefined) throw new GaleneError('INTERNAL', [`table ${node.table.name} cannot answer an ANN search`]);
  const request = bindAnnRequest(node.ann, rt);
  const profile = rt.ctx.profile;
  // A radius no row can satisfy (NULL, NaN): nothing to search.
  if (request.radius !== null && Number.isNaN(request.radius.value)) return;
  if (request.k === 0) return;
  // Phase one of a lazily materialized TopN (plan/lazy-materialization.ts): the row ids come last.
  const rowIds = node.globalRowId === true ? { globalRowId: true } : {};
  for await (const batch of source.scanAnn({ columns: node.columns, predicates: node.predicates, limit: null, profile, indexScan: { perSegment: node.ann.perSegment }, ...rowIds, ...invertedField(node, rt) }, request)) {
    if (batch.length > 0) yield batch;
  }
}

/** EXPLAIN lines of an ANN scan. */
export function explainAnnScan(node: TableScanNode & { ann: AnnScanSpec }): string[] {
  const ann = node.ann;
  const lines = [`ann index: ${ann.indexName} (${ann.metric}) on ${ann.column}, query: ${exprToString(ann.query)}, hnsw_ef_search: ${ann.efSearch}`];
  if (ann.limit !== null) lines.push(`ann top-n: k=${ann.limit} ${ann.metric === 'inner_product' ? 'DESC' : 'ASC'} per segment`);
  if (ann.range !== null) lines.push(`ann range: ${ann.functionName} ${ann.range.op} ${exprToString(ann.range.value)}${farRange(ann) ? ' (rows from the index complement, no distances)' : ''}`);
  if (ann.filter !== null) lines.push(`ann allowed-row filter: ${exprToString(ann.filter)}`);
  const readsVector = node.columns.some((name) => name.toLowerCase() === ann.column.toLowerCase()) || ann.filterColumns.some((name) => name.toLowerCase() === ann.column.toLowerCase());
  const distanceFromVectors = ann.distance && ann.limit === null && farRange(ann);
  lines.push(`index-only: ${!readsVector && !distanceFromVectors}${ann.distance ? `, distance column: ${ann.limit === null && farRange(ann) ? 'computed from the vectors' : 'from the index'}` : ''}`);
  return lines;
}

/** Whether the range keeps the far side (the index returns those rows without distances). */
function farRange(ann: AnnScanSpec): boolean {
  if (ann.range === null) return false;
  const lessThan = ann.range.op === '<' || ann.range.op === '<=';
  return ann.metric === 'l2_distance' ? !lessThan : lessThan;
}
