/**
 * The lazy-materialization pass (src/exec/plan/lazy-materialization.ts) and the MATERIALIZE operator over
 * memory tables: phase one asks the scan for the filter's and sort keys' columns plus the global row id,
 * phase two fetches the other columns of exactly the final rows; results equal the eager plan over random
 * ORDER BY / LIMIT / OFFSET / WHERE shapes with ties, NULLs and DESC; and the cases the pass leaves alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getRaw, type RawValue } from '../../src/common/column';
import { GaleneError } from '../../src/common/errors';
import { mulberry32 } from '../../src/common/prng';
import { Types } from '../../src/common/types';
import type { FetchRequest, ScanRequest, StatementContext, TableSource } from '../../src/exec/context';
import { makeTableSchema, MemoryTable } from '../../src/exec/memory-table';
import { planLazyMaterialization } from '../../src/exec/plan/lazy-materialization';
import type { PhysicalNode } from '../../src/exec/plan/physical-plan';
import type { TableSchema } from '../../src/meta/schema';
import { explainPlan, planQuery, runQuery } from '../../src/sql/query';
import { makeDb, parseQuery } from './helpers';

const random = mulberry32(77);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const maybe = <T>(value: T): T | null => (random() < 0.15 ? null : value);
const ROWS: RawValue[][] = [];
for (let rowIdx = 0; rowIdx < 3000; rowIdx++) {
  ROWS.push([rowIdx, maybe(Math.floor(random() * 20)), maybe(pick(['a', 'b', 'c', 'dd'])), maybe(Math.floor(random() * 1000) - 500), `wide-${rowIdx}-${'x'.repeat(rowIdx % 50)}`]);
}
const COLUMNS = (['id', 'k', 'g', 'x', 'body'] as const).map((name) => ({ name, type: name === 'g' || name === 'body' ? Types.varchar(80) : Types.INT }));

interface Recorded {
  scans: ScanRequest[];
  fetches: FetchRequest[];
}

/** A context over `t` (a memory table) that records scans and fetches, with the threshold given. */
function lazyCtx(threshold: number | null, recorded: Recorded, schemaOverride?: (schema: TableSchema) => TableSchema): StatementContext {
  const db = makeDb({ t: { columns: COLUMNS, rows: ROWS, batchSize: 700 } });
  const base = db.ctx();
  const schema = (schemaOverride ?? ((plain) => plain))(makeTableSchema('test', 't', COLUMNS, 1));
  const table = MemoryTable.fromRows(schema, ROWS, 700);
  return {
    ...base,
    getTable: () => schema,
    openTable(): TableSource {
      return {
        schema,
        scan(request) {
          recorded.scans.push(request);
          return table.scan(request);
        },
        fetchRows(request) {
          recorded.fetches.push(request);
          return table.fetchRows(request);
        },
      };
    },
    getSystemVariable(name, scope) {
      if (name === 'topn_lazy_materialization_threshold' && threshold !== null) return { type: Types.INT, value: threshold };
      return base.getSystemVariable(name, scope);
    },
  };
}

async function rowsOf(sql: string, ctx: StatementContext): Promise<string[]> {
  const result = await runQuery(parseQuery(sql), ctx, sql);
  const out: string[] = [];
  for (const batch of result.batches) {
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) out.push(JSON.stringify(batch.columns.map((vec) => getRaw(vec, rowIdx)), (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value)));
  }
  return out;
}

function explainWith(sql: string, ctx: StatementContext): string {
  return explainPlan(planQuery(parseQuery(sql), ctx, { sql })).join('\n');
}

test('phase one scans the keys, filter columns and the row id; phase two fetches the other columns of the final rows', async () => {
  const recorded: Recorded = { scans: [], fetches: [] };
  const sql = "SELECT id, body, concat(g, '-', body) AS gb, k + 1 FROM t WHERE x > 0 ORDER BY k DESC, id LIMIT 7 OFFSET 3";
  const plan = explainWith(sql, lazyCtx(1024, recorded));
  assert.match(plan, /MATERIALIZE #\d+\n\s+table: test\.t\n\s+lazy materialization: \[g, body\]\n\s+row id: __DORIS_GLOBAL_ROWID_COL__t\n/);
  assert.match(plan, /TABLE SCAN #\d+\n\s+table: test\.t\n\s+columns: \[id, k, x\]\n\s+pushed predicates: x > 0\n\s+global row id: __DORIS_GLOBAL_ROWID_COL__t\n/);
  const lazyRows = await rowsOf(sql, lazyCtx(1024, recorded));
  assert.deepEqual(recorded.scans.at(-1)!.columns, ['id', 'k', 'x']);
  assert.equal(recorded.scans.at(-1)!.globalRowId, true);
  assert.equal(recorded.fetches.length, 1);
  assert.deepEqual(recorded.fetches[0].columns, ['g', 'body']);
  assert.equal(recorded.fetches[0].rowIds.length, 7, 'the TopN emits the LIMIT rows after the OFFSET; phase two reads only those');
  const eager: Recorded = { scans: [], fetches: [] };
  assert.deepEqual(lazyRows, await rowsOf(sql, lazyCtx(-1, eager)));
  assert.equal(lazyRows.length, 7);
  assert.equal(eager.fetches.length, 0);
  assert.deepEqual(eager.scans[0].columns, ['id', 'k', 'g', 'x', 'body']);
});

test('random ORDER BY / LIMIT / OFFSET / WHERE shapes give the eager answers, ties and NULLs included', async () => {
  const keys = ['k', 'k DESC', 'g', 'g DESC', 'x', 'k, g DESC', 'abs(x) DESC', 'k DESC, x', 'g, k, x DESC', 'length(body)', 'length(body) DESC, id'];
  const filters = ['', 'WHERE k > 5', 'WHERE g IS NULL', "WHERE g IN ('a', 'dd') AND x < 100", 'WHERE x % 3 = 1', 'WHERE k = 7'];
  const lists = ['*', 'id, body', 'body, g', 'upper(body), k', 'id, concat(body, g), x + k', 'g'];
  let materialized = 0;
  for (let round = 0; round < 60; round++) {
    const limit = pick([1, 5, 17, 100, 900]);
    const offset = pick([0, 0, 3, 250]);
    // Ties on the key without a tiebreak: the TopN's order of equal rows must be the same either way.
    const sql = `SELECT ${pick(lists)} FROM t ${pick(filters)} ORDER BY ${pick(keys)} LIMIT ${limit}${offset > 0 ? ` OFFSET ${offset}` : ''}`;
    const recorded: Recorded = { scans: [], fetches: [] };
    const lazyRows = await rowsOf(sql, lazyCtx(1024, recorded));
    if (recorded.fetches.length > 0) materialized++;
    assert.deepEqual(lazyRows, await rowsOf(sql, lazyCtx(-1, { scans: [], fetches: [] })), sql);
  }
  assert.ok(materialized > 30, `most shapes are lazily materialized (${materialized})`);
});

test('the threshold, the table model and the query shape decide; the rest stays eager', () => {
  const none: Recorded = { scans: [], fetches: [] };
  const lazyPlan = (sql: string, threshold = 1024, schema?: (plain: TableSchema) => TableSchema): boolean => /MATERIALIZE/.test(explainWith(sql, lazyCtx(threshold, none, schema)));
  assert.ok(lazyPlan('SELECT * FROM t ORDER BY k LIMIT 1024'));
  assert.ok(!lazyPlan('SELECT * FROM t ORDER BY k LIMIT 1025'), 'above the threshold');
  assert.ok(!lazyPlan('SELECT * FROM t ORDER BY k LIMIT 1000 OFFSET 100'), 'limit + offset counts');
  assert.ok(lazyPlan('SELECT * FROM t ORDER BY k LIMIT 10', 10));
  assert.ok(!lazyPlan('SELECT * FROM t ORDER BY k LIMIT 10', -1), '-1 disables');
  assert.ok(!lazyPlan('SELECT * FROM t ORDER BY k LIMIT 10', 0), '0 disables');
  assert.ok(!lazyPlan('SELECT * FROM t ORDER BY k LIMIT 10', null as unknown as number), 'a context without the variable: off');
  assert.ok(!lazyPlan('SELECT k, id FROM t ORDER BY k, id LIMIT 10'), 'nothing to defer');
  assert.ok(!lazyPlan('SELECT body FROM t WHERE body > id ORDER BY k LIMIT 10'), 'the filter reads every column');
  assert.ok(!lazyPlan('SELECT * FROM t ORDER BY k'), 'no LIMIT: a full sort');
  assert.ok(!lazyPlan('SELECT k, count(*) FROM t GROUP BY k ORDER BY k LIMIT 3'), 'not over a scan');
  const uniqueMor = (plain: TableSchema): TableSchema => ({ ...plain, keysType: 'UNIQUE', keyColumns: ['id'] });
  const uniqueMow = (plain: TableSchema): TableSchema => ({ ...uniqueMor(plain), properties: { enable_unique_key_merge_on_write: 'true' } });
  assert.ok(!lazyPlan('SELECT * FROM t ORDER BY k LIMIT 10', 1024, uniqueMor), 'merge-on-read rows have no single address');
  assert.ok(lazyPlan('SELECT * FROM t ORDER BY k LIMIT 10', 1024, uniqueMow), 'merge-on-write rows do');
  assert.ok(!lazyPlan('SELECT * FROM t ORDER BY k LIMIT 10', 1024, (plain) => ({ ...plain, keysType: 'AGGREGATE' })));
  assert.ok(!lazyPlan('SELECT * FROM t ORDER BY k LIMIT 10', 1024, (plain) => ({ ...plain, databaseName: 'information_schema' })), 'rows computed per read');
  assert.ok(!/MATERIALIZE/.test(explainPlan(planQuery(parseQuery('SELECT * FROM t ORDER BY k LIMIT 10'), lazyCtx(1024, none), { disabledRules: ['topn_lazy_materialization'] })).join('\n')), 'skipped by name');
});

test('a scan carrying a field the pass does not know, or a range-only ANN search, is left alone; an ANN TopN scan is rewritten', () => {
  const schema = makeTableSchema('test', 't', COLUMNS, 1);
  const output = COLUMNS.map((column) => ({ name: column.name, type: column.type, nullable: true }));
  const scan = { kind: 'TableScan', id: 1, output, children: [], table: schema, alias: 't', columns: COLUMNS.map((column) => column.name), predicates: [], limit: null } as const;
  const topN = (child: PhysicalNode): PhysicalNode => ({ kind: 'TopN', id: 0, output, children: [child], keys: [{ expr: { kind: 'column', index: 1, type: Types.INT, name: 'k' }, descending: false, nullsFirst: true }], limit: 5, offset: 0 });
  let nextId = 10;
  const planning = { threshold: 1024, nextId: () => nextId++ };
  assert.equal(planLazyMaterialization(topN(scan), planning).kind, 'Project');
  const withUnknown = topN({ ...scan, someFutureSpec: { k: 5 } } as unknown as PhysicalNode);
  assert.equal(planLazyMaterialization(withUnknown, planning), withUnknown);
  const rangeOnly = topN({ ...scan, ann: { limit: null } } as unknown as PhysicalNode);
  assert.equal(planLazyMaterialization(rangeOnly, planning), rangeOnly, 'no per-segment k: stays eager');
  // An ANN TopN scan with its distance column after the stored ones: the distance stays in phase one.
  const distanceOut = { name: '__ann_distance', type: Types.FLOAT, nullable: false };
  const annScan = { ...scan, output: [...output, distanceOut], ann: { limit: 5 } } as unknown as PhysicalNode;
  const byDistance: PhysicalNode = { ...(topN(annScan) as PhysicalNode & { kind: 'TopN' }), output: [...output, distanceOut], keys: [{ expr: { kind: 'column', index: output.length, type: Types.FLOAT, name: '__ann_distance' }, descending: false, nullsFirst: true }] };
  const lazy = planLazyMaterialization(byDistance, planning);
  assert.equal(lazy.kind, 'Project');
  const materialize = lazy.children[0];
  assert.equal(materialize.kind, 'Materialize');
  assert.deepEqual(materialize.kind === 'Materialize' ? materialize.columns : null, COLUMNS.map((column) => column.name), 'every stored column is fetched after the sort');
  let phaseOne: PhysicalNode = materialize;
  while (phaseOne.children.length > 0) phaseOne = phaseOne.children[0];
  assert.equal(phaseOne.kind, 'TableScan');
  assert.deepEqual(phaseOne.kind === 'TableScan' ? [phaseOne.columns, phaseOne.globalRowId, phaseOne.output.map((out) => out.name)] : null, [[], true, ['__ann_distance', '__DORIS_GLOBAL_ROWID_COL__t']]);
  assert.deepEqual(lazy.output.map((out) => out.name), [...COLUMNS.map((column) => column.name), '__ann_distance'], 'the original output');
});

test('MATERIALIZE over a source without fetchRows is a clean internal error', async () => {
  const ctx = lazyCtx(1024, { scans: [], fetches: [] });
  const broken: StatementContext = { ...ctx, openTable: (schema) => ({ ...ctx.openTable(schema), fetchRows: undefined }) };
  await assert.rejects(rowsOf('SELECT * FROM t ORDER BY k LIMIT 3', broken), (err: unknown) => err instanceof GaleneError && err.code === 'INTERNAL');
});
