/**
 * Doris's short-circuit point query (`enable_short_circuit_query`, default true; Doris's "high-concurrency
 * point query" page): a prepared `SELECT cols FROM t WHERE k1 = ? [AND k2 = ? ...]` whose WHERE is exactly
 * one equality per key column of a merge-on-write UNIQUE KEY table skips planning, binding and fragment
 * setup on EXECUTE. PREPARE recognises the shape once (a ShortCircuitShape, from the AST only); each
 * EXECUTE binds the parameters straight into the key, asks the table for those keys (bucket pruning to the
 * one tablet the key hashes to, then the segments' primary-key indexes: bloom -> one key page -> row id,
 * the delete bitmap applied, the columns read by row id) and returns the row. The profile counts
 * `ShortCircuitQueries`.
 *
 * Doris takes the path only with `store_row_column` too (a row store: one read per row); Galene reads the
 * requested columns by row id instead (each one ranged read when cold), so any merge-on-write table
 * qualifies. Anything else — another shape, a parameter of another type family than its key column, a
 * table that changed shape since PREPARE — answers null and the statement runs the normal way, so results
 * never differ from the planned path.
 */
import { getRaw, type Batch, type RawValue, takeRows, type Vector } from '../common/column';
import { compareRawValues } from '../common/row-order';
import type { QueryProfile } from '../common/profile';
import type { ResultColumn, RowsResult } from '../common/result';
import type { ScanPredicate } from '../common/scan-predicate';
import { isIntegerType, isStringType, typesEqual, type DataType } from '../common/types';
import type { ParamValue, StatementContext } from '../exec/context';
import { literalValue } from '../exec/expr';
import { isMergeOnWrite } from '../meta/delete-bitmap';
import { findColumn, type TableSchema } from '../meta/schema';
import type { Expr, Statement } from '../sql/ast';

/** Where a key column's value comes from: a `?` (by index) or a literal in the text. */
type KeySource = { readonly param: number } | { readonly value: ParamValue };

/** A prepared statement that can take the short-circuit path, as recognised from its AST. */
export interface ShortCircuitShape {
  readonly database: string | null;
  readonly table: string;
  /** The qualifier a column reference may carry (the alias, else the table name), lower case. */
  readonly qualifier: string;
  /** Column name -> the value it is compared with (every conjunct of WHERE is `column = value`). */
  readonly equalities: ReadonlyMap<string, KeySource>;
  /** Stored column per output column; null for `SELECT *`. */
  readonly columns: readonly string[] | null;
}

const INT_RANGES: Partial<Record<DataType['name'], readonly [bigint, bigint]>> = {
  TINYINT: [-128n, 127n],
  SMALLINT: [-32768n, 32767n],
  INT: [-2147483648n, 2147483647n],
  BIGINT: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** The short-circuit shape of a statement, or null when it is not a single-table key-equality SELECT. */
export function shortCircuitShape(statement: Statement): ShortCircuitShape | null {
  if (statement.kind !== 'query' || statement.query.kind !== 'select') return null;
  const query = statement.query;
  if (query.distinct || query.groupBy.length > 0 || query.having !== null || query.orderBy.length > 0 || query.limit !== null) return null;
  const from = query.from;
  if (from === null || from.kind !== 'table' || query.where === null) return null;
  const qualifier = (from.alias ?? from.name).toLowerCase();
  const qualifies = (parts: readonly string[]): boolean => parts.length === 0 || (parts.length === 1 && parts[0].toLowerCase() === qualifier);
  let columns: string[] | null = [];
  for (const item of query.items) {
    if (item.expr.kind === 'star' && query.items.length === 1 && qualifies(item.expr.qualifier)) columns = null;
    else if (item.expr.kind === 'column' && qualifies(item.expr.qualifier) && columns !== null) columns.push(item.expr.name);
    else return null;
  }
  const equalities = new Map<string, KeySource>();
  const conjuncts: Expr[] = [];
  const flatten = (expr: Expr): void => {
    if (expr.kind === 'binary' && expr.op === 'AND') {
      flatten(expr.left);
      flatten(expr.right);
    } else conjuncts.push(expr);
  };
  flatten(query.where);
  for (const conjunct of conjuncts) {
    if (conjunct.kind !== 'binary' || conjunct.op !== '=') return null;
    const [column, other] = conjunct.left.kind === 'column' ? [conjunct.left, conjunct.right] : [conjunct.right, conjunct.left];
    if (column.kind !== 'column' || !qualifies(column.qualifier)) return null;
    const name = column.name.toLowerCase();
    if (equalities.has(name)) return null;
    if (other.kind === 'param') equalities.set(name, { param: other.index });
    else if (other.kind === 'literal' && (other.literalType === 'integer' || other.literalType === 'string')) equalities.set(name, { value: literalValue(other) });
    else return null;
  }
  return { database: from.database, table: from.name, qualifier, equalities, columns };
}

/** A key value in its column's type, or undefined when the value's type is of another family (the normal path decides). */
function keyValue(column: DataType, param: ParamValue): RawValue | undefined {
  const { type, value } = param;
  if (value === null) return null;
  const range = INT_RANGES[column.name];
  if (range !== undefined) {
    // mysql2 sends a JS number as a DOUBLE: an integral one compares equal to the integer key.
    const numeric = (isIntegerType(type) && type.name !== 'BOOLEAN') || type.name === 'DOUBLE' || type.name === 'FLOAT';
    if (!numeric) return undefined;
    const big = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : null;
    if (big === null || big < range[0] || big > range[1]) return undefined;
    return column.name === 'BIGINT' ? big : Number(big);
  }
  if (isStringType(column) && isStringType(type) && typeof value === 'string') return value;
  return typesEqual(column, type) ? value : undefined;
}

/**
 * Run a short-circuit point query; null when this execution must take the normal path (see the header).
 * `resultColumns` are the columns PREPARE planned; `rowLimit` is sql_select_limit (null: none).
 */
export async function runShortCircuit(shape: ShortCircuitShape, ctx: StatementContext, params: readonly ParamValue[], resultColumns: readonly ResultColumn[], rowLimit: number | null, profile: QueryProfile): Promise<RowsResult | null> {
  const schema: TableSchema = ctx.getTable(shape.database, shape.table);
  if (!isMergeOnWrite(schema) || shape.equalities.size !== schema.keyColumns.length) return null;
  const predicates: ScanPredicate[] = [];
  const keyColumns: string[] = [];
  let nullKey = false;
  for (const name of schema.keyColumns) {
    const source = shape.equalities.get(name.toLowerCase());
    const column = findColumn(schema, name);
    if (source === undefined || column === undefined) return null;
    const param = 'param' in source ? params[source.param] : source.value;
    if (param === undefined) return null;
    const value = keyValue(column.type, param);
    if (value === undefined) return null;
    if (value === null) nullKey = true; // `k = NULL` is never true
    predicates.push({ column: column.name, op: '=', value });
    keyColumns.push(column.name);
  }
  const output = shape.columns === null ? schema.columns.map((column) => column.name) : shape.columns.map((name) => findColumn(schema, name)?.name);
  if (output.length !== resultColumns.length) return null;
  for (let colIdx = 0; colIdx < output.length; colIdx++) {
    const name = output[colIdx];
    const column = name === undefined ? undefined : findColumn(schema, name);
    if (column === undefined || !typesEqual(column.type, resultColumns[colIdx].type)) return null; // changed since PREPARE: re-plan
  }
  const read = [...new Set([...keyColumns, ...(output as string[])])];
  profile.add('ShortCircuitQueries', 1);
  if (nullKey) return { kind: 'rows', columns: resultColumns, batches: [] };
  const source = ctx.openTable(schema);
  const batches: Batch[] = [];
  for await (const batch of source.scan({ columns: read, predicates, limit: null, profile })) {
    // Storage prunes; segments without a primary-key index may return neighbours: keep exact matches.
    const keep: number[] = [];
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
      let matches = true;
      for (let keyIdx = 0; keyIdx < keyColumns.length && matches; keyIdx++) matches = sameKey(getRaw(batch.columns[keyIdx], rowIdx), predicates[keyIdx]);
      if (matches) keep.push(rowIdx);
    }
    if (keep.length === 0) continue;
    const columns: Vector[] = output.map((name) => batch.columns[read.indexOf(name as string)]);
    batches.push(keep.length === batch.length ? { length: batch.length, columns } : { length: keep.length, columns: columns.map((vec) => takeRows(vec, keep)) });
  }
  if (rowLimit !== null) return { kind: 'rows', columns: resultColumns, batches: limitRows(batches, rowLimit) };
  return { kind: 'rows', columns: resultColumns, batches };
}

function sameKey(stored: RawValue, predicate: ScanPredicate): boolean {
  if (predicate.op !== '=' || stored === null) return false;
  const wanted = predicate.value;
  if (typeof stored === 'string' || typeof wanted === 'string') return typeof stored === typeof wanted && stored === wanted;
  return compareRawValues(stored, wanted) === 0;
}

function limitRows(batches: readonly Batch[], limit: number): Batch[] {
  const out: Batch[] = [];
  let left = limit;
  for (const batch of batches) {
    if (left <= 0) break;
    if (batch.length <= left) out.push(batch);
    else out.push({ length: left, columns: batch.columns.map((vec) => takeRows(vec, Array.from({ length: left }, (_, rowIdx) => rowIdx))) });
    left -= Math.min(left, batch.length);
  }
  return out;
}
