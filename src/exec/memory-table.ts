/**
 * MemoryTable: a TableSource over batches held in memory. Tests use it as a table; the FE uses it for
 * virtual tables (SHOW results, information_schema) so they can be queried with full SQL. It honours the
 * whole ScanRequest: only the requested columns in the requested order (none: batches carry only a
 * length), predicates applied exactly (a stricter form of the pruning contract), the row limit, and
 * global row ids (a row's position in the table) that fetchRows reads back.
 */
import { BATCH_SIZE, concatVectors, getRaw, takeRows, VectorBuilder, type Batch, type RawValue, type Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import { Types, type DataType } from '../common/types';
import { findColumn, type ColumnSchema, type TableSchema } from '../meta/schema';
import type { ScanPredicate } from '../common/scan-predicate';
import type { FetchRequest, ScanRequest, TableSource } from './context';

/** A TableSchema for an in-memory or virtual table (DUPLICATE model, no keys, no indexes). */
export function makeTableSchema(
  databaseName: string,
  name: string,
  columns: readonly { name: string; type: DataType; nullable?: boolean }[],
  id = 0,
): TableSchema {
  const columnSchemas: ColumnSchema[] = columns.map((column, colIdx) => ({
    name: column.name,
    type: column.type,
    nullable: column.nullable ?? true,
    isKey: false,
    aggregation: null,
    defaultValue: null,
    comment: '',
    uniqueId: colIdx,
  }));
  return {
    id,
    databaseName,
    name,
    columns: columnSchemas,
    keysType: 'DUPLICATE',
    keyColumns: [],
    indexes: [],
    distribution: { type: 'RANDOM', columns: [], buckets: 1 },
    properties: {},
    comment: '',
    schemaVersion: 1,
    createTime: 0,
  };
}

function compareRaw(left: RawValue, right: RawValue): number {
  if (typeof left === typeof right) return (left as number) < (right as number) ? -1 : (left as number) > (right as number) ? 1 : 0;
  const leftNum = Number(left);
  const rightNum = Number(right);
  return leftNum < rightNum ? -1 : leftNum > rightNum ? 1 : 0;
}

function matches(pred: ScanPredicate, value: RawValue): boolean {
  switch (pred.op) {
    case 'isnull':
      return value === null;
    case 'isnotnull':
      return value !== null;
    case 'in':
      return value !== null && pred.values.some((candidate) => candidate !== null && compareRaw(value, candidate) === 0);
    default: {
      if (value === null || pred.value === null) return false;
      const cmp = compareRaw(value, pred.value);
      switch (pred.op) {
        case '=':
          return cmp === 0;
        case '<':
          return cmp < 0;
        case '<=':
          return cmp <= 0;
        case '>':
          return cmp > 0;
        case '>=':
          return cmp >= 0;
      }
    }
  }
}

export class MemoryTable implements TableSource {
  readonly schema: TableSchema;
  private readonly batches: readonly Batch[];

  /** `batches` hold every schema column in schema order. */
  constructor(schema: TableSchema, batches: readonly Batch[]) {
    this.schema = schema;
    this.batches = batches;
  }

  /** Rows of raw values (column.ts) in schema column order, cut into BATCH_SIZE batches. */
  static fromRows(schema: TableSchema, rows: readonly (readonly RawValue[])[], batchSize = BATCH_SIZE): MemoryTable {
    const batches: Batch[] = [];
    for (let start = 0; start < rows.length; start += batchSize) {
      const chunk = rows.slice(start, start + batchSize);
      const columns = schema.columns.map((column, colIdx) => {
        const builder = new VectorBuilder(column.type, chunk.length);
        for (const row of chunk) builder.append(row[colIdx] ?? null);
        return builder.finish();
      });
      batches.push({ length: chunk.length, columns });
    }
    return new MemoryTable(schema, batches);
  }

  estimatedRowCount(): number {
    let rows = 0;
    for (const batch of this.batches) rows += batch.length;
    return rows;
  }

  async *scan(request: ScanRequest): AsyncIterable<Batch> {
    const columnIndex = (name: string): number => {
      const column = findColumn(this.schema, name);
      if (!column) throw new GaleneError('UNKNOWN_COLUMN', [name, this.schema.name]);
      return this.schema.columns.indexOf(column);
    };
    const outIdx = request.columns.map(columnIndex);
    const predIdx = request.predicates.map((pred) => columnIndex(pred.column));
    let remaining = request.limit ?? Number.POSITIVE_INFINITY;
    let firstRow = 0;
    for (const batch of this.batches) {
      if (remaining <= 0) return;
      const batchFirstRow = firstRow;
      firstRow += batch.length;
      let rowIds: Int32Array | null = null;
      let count = batch.length;
      if (request.predicates.length > 0) {
        rowIds = new Int32Array(batch.length);
        count = 0;
        for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
          let keep = true;
          for (let predNo = 0; predNo < request.predicates.length && keep; predNo++) {
            keep = matches(request.predicates[predNo], getRaw(batch.columns[predIdx[predNo]], rowIdx));
          }
          if (keep) rowIds[count++] = rowIdx;
        }
      }
      if (count > remaining) {
        if (rowIds === null) {
          rowIds = new Int32Array(count);
          for (let rowIdx = 0; rowIdx < count; rowIdx++) rowIds[rowIdx] = rowIdx;
        }
        count = remaining;
      }
      remaining -= count;
      if (count === 0) continue;
      const ids = rowIds;
      const columns: Vector[] = outIdx.map((colIdx) => (ids === null ? batch.columns[colIdx] : takeRows(batch.columns[colIdx], ids, count)));
      if (request.globalRowId === true) {
        const values = new BigInt64Array(count);
        for (let rowIdx = 0; rowIdx < count; rowIdx++) values[rowIdx] = BigInt(batchFirstRow + (ids === null ? rowIdx : ids[rowIdx]));
        columns.push({ kind: 'fixed', type: Types.BIGINT, length: count, values, nulls: null });
      }
      yield { length: count, columns };
    }
  }

  /** The columns of the rows at these positions (global row ids of this table's scans). */
  async fetchRows(request: FetchRequest): Promise<Vector[]> {
    const rows = Int32Array.from(request.rowIds, (rowId) => Number(rowId));
    return request.columns.map((name) => {
      const column = findColumn(this.schema, name);
      if (!column) throw new GaleneError('UNKNOWN_COLUMN', [name, this.schema.name]);
      const colIdx = this.schema.columns.indexOf(column);
      return takeRows(concatVectors(column.type, this.batches.map((batch) => batch.columns[colIdx])), rows);
    });
  }
}
