/**
 * Test fixtures for the planner and operators: a StatementContext over MemoryTables, a TableSource wrapper
 * that records every ScanRequest, and a `run` helper returning rows as arrays of raw values.
 */
import { QueryTask } from '../../src/exec/query-task';
import { getRaw, type RawValue } from '../../src/common/column';
import { formatValue } from '../../src/common/convert';
import { GaleneError } from '../../src/common/errors';
import { QueryProfile } from '../../src/common/profile';
import { Types, type DataType } from '../../src/common/types';
import type { ScanRequest, StatementContext, TableSource } from '../../src/exec/context';
import { makeTableSchema, MemoryTable } from '../../src/exec/memory-table';
import type { PhysicalNode, TableScanNode } from '../../src/exec/plan/physical-plan';
import type { IndexSchema, TableSchema } from '../../src/meta/schema';
import { parseStatement } from '../../src/sql/parser';
import type { QueryExpr } from '../../src/sql/ast';
import { explainPlan, planQuery, runQuery } from '../../src/sql/query';

export interface TestTable {
  readonly columns: readonly { name: string; type: DataType; nullable?: boolean }[];
  readonly rows: readonly (readonly RawValue[])[];
  /** Rows per stored batch (small values exercise multi-batch paths). */
  readonly batchSize?: number;
}

export interface TestDb {
  readonly requests: Map<string, ScanRequest[]>;
  ctx(params?: { type: DataType; value: RawValue }[]): StatementContext;
}

export function makeDb(tables: Record<string, TestTable>, userVariables: Record<string, { type: DataType; value: RawValue }> = {}): TestDb {
  const schemas = new Map<string, TableSchema>();
  const sources = new Map<string, MemoryTable>();
  let tableId = 1;
  for (const [name, def] of Object.entries(tables)) {
    const schema = makeTableSchema('test', name, def.columns, tableId++);
    schemas.set(name.toLowerCase(), schema);
    sources.set(name.toLowerCase(), MemoryTable.fromRows(schema, def.rows, def.batchSize));
  }
  const requests = new Map<string, ScanRequest[]>();
  return {
    requests,
    ctx(params = []) {
      return {
        profile: new QueryProfile('q1', '', 'root', 'test'),
        getTable(database, name) {
          if (database !== null && database.toLowerCase() !== 'test') throw new GaleneError('UNKNOWN_DATABASE', [database]);
          const schema = schemas.get(name.toLowerCase());
          if (!schema) throw new GaleneError('UNKNOWN_TABLE', [`test.${name}`]);
          return schema;
        },
        estimatedRowCount(schema) {
          return sources.get(schema.name.toLowerCase())!.estimatedRowCount();
        },
        scanDegree: () => 0,
        openTable(schema): TableSource {
          const inner = sources.get(schema.name.toLowerCase())!;
          return {
            schema,
            scan(request) {
              const list = requests.get(schema.name) ?? [];
              list.push(request);
              requests.set(schema.name, list);
              return inner.scan(request);
            },
          };
        },
        getSystemVariable(name) {
          if (name.toLowerCase() === 'version_comment') return { type: Types.varchar(20), value: 'Galene' };
          if (name.toLowerCase() === 'max_allowed_packet') return { type: Types.BIGINT, value: 16777216n };
          throw new GaleneError('UNKNOWN_SYSTEM_VARIABLE', [name]);
        },
        getUserVariable(name) {
          return userVariables[name.toLowerCase()] ?? { type: Types.NULL, value: null };
        },
        parameters: params,
        task: QueryTask.unlimited(),
        sessionInfo: { user: 'root', host: 'localhost', connectionId: 1, version: '5.7.99', database: 'test', statementStartMillis: Date.now() },
      };
    },
  };
}

export function parseQuery(sql: string): QueryExpr {
  const stmt = parseStatement(sql);
  if (stmt.kind !== 'query') throw new Error(`not a query: ${sql}`);
  return stmt.query;
}

export interface RunResult {
  readonly names: string[];
  /** Rows as the text protocol would print them. */
  readonly text: (string | null)[][];
  readonly rows: RawValue[][];
  readonly ctx: StatementContext;
}

export async function run(db: TestDb, sql: string, params?: { type: DataType; value: RawValue }[]): Promise<RunResult> {
  const ctx = db.ctx(params);
  const result = await runQuery(parseQuery(sql), ctx, sql);
  const rows: RawValue[][] = [];
  for (const batch of result.batches) {
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) rows.push(batch.columns.map((vec) => getRaw(vec, rowIdx)));
  }
  const text = rows.map((row) => row.map((value, colIdx) => formatValue(result.columns[colIdx].type, value)));
  return { names: result.columns.map((column) => column.name), rows, text, ctx };
}

export function explain(db: TestDb, sql: string): string[] {
  return explainPlan(planQuery(parseQuery(sql), db.ctx(), { sql }));
}

/** Rows sorted by their JSON text, for order-insensitive comparisons. */
export function sorted(rows: RawValue[][]): RawValue[][] {
  const key = (row: RawValue[]): string => JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  return [...rows].sort((left, right) => (key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0));
}

/** Numbers and bigints compared loosely: 3n and 3 are equal. */
export function norm(rows: RawValue[][]): (string | number | null)[][] {
  return rows.map((row) => row.map((value) => (typeof value === 'bigint' ? Number(value) : (value as string | number | null))));
}

/** What planWithIndexes gives every table: its indexes, table model and extra table properties. */
export interface IndexedTableOptions {
  readonly indexes: readonly IndexSchema[];
  readonly keysType?: TableSchema['keysType'];
  readonly properties?: Record<string, string>;
  readonly disabled?: string[];
}

/** The physical plan of `sql` (and its EXPLAIN text) over tables given indexes, a table model and properties. */
export function planWithIndexes(db: TestDb, sql: string, options: IndexedTableOptions): { root: PhysicalNode; text: string } {
  const ctx = db.ctx();
  const getTable = ctx.getTable.bind(ctx);
  ctx.getTable = (database, name) => {
    const schema = getTable(database, name);
    return { ...schema, keysType: options.keysType ?? 'DUPLICATE', properties: { ...schema.properties, ...(options.properties ?? {}) }, indexes: [...options.indexes] };
  };
  const statement = parseStatement(sql) as unknown as { query?: QueryExpr };
  const physical = planQuery((statement.query ?? statement) as QueryExpr, ctx, { sql, disabledRules: options.disabled });
  return { root: physical.root, text: explainPlan(physical).join('\n') };
}

/** The (first) table scan under a plan node. */
export function scanOf(node: PhysicalNode): TableScanNode {
  if (node.kind === 'TableScan') return node;
  for (const child of node.children) {
    try {
      return scanOf(child);
    } catch {
      // not under this child
    }
  }
  throw new Error('no scan');
}
