/**
 * The plan-fragments pass (src/exec/plan/plan-fragments.ts) and the SCAN FRAGMENT operator, over a table
 * source that runs fragments "remotely" in-thread: each task gets a structured clone of the FragmentSpec
 * (so the spec must be plain data) and runs it with runFragment over a few of the table's batches, the
 * way a scan worker does. EXPLAIN shows the fragment with its degree; the results equal the plan without
 * the pass and the fragment's own in-thread fallback.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getRaw, type Batch, type RawValue } from '../../src/common/column';
import { mulberry32 } from '../../src/common/prng';
import { Types, type DataType } from '../../src/common/types';
import type { StatementContext, TableSource } from '../../src/exec/context';
import { runFragment } from '../../src/exec/parallel/run-fragment';
import { nodeProperties } from '../../src/exec/plan/node-properties';
import type { PhysicalNode } from '../../src/exec/plan/physical-plan';
import type { FragmentResult, FragmentSpec } from '../../src/exec/plan/fragment-spec';
import { executePlan, explainAnalyzed, explainPlan, planQuery } from '../../src/sql/query';
import { makeDb, parseQuery, sorted } from './helpers';

const random = mulberry32(21);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const maybe = <T>(value: T): T | null => (random() < 0.1 ? null : value);
const rows: RawValue[][] = [];
for (let rowIdx = 0; rowIdx < 4000; rowIdx++) rows.push([rowIdx, maybe(pick(['a', 'b', 'c'])), maybe(Math.floor(random() * 100)), maybe(Math.floor(random() * 2000) - 1000), maybe(pick(['x', 'yy', 'zzz']))]);
const db = makeDb({
  t: {
    columns: (['id', 'g', 'k', 'x', 's'] as const).map((name) => ({ name, type: name === 'g' || name === 's' ? Types.varchar(8) : Types.INT })),
    rows,
    batchSize: 500,
  },
  small: { columns: [{ name: 'k', type: Types.INT }], rows: [[1], [2]] },
});

const DEGREE = 3;
/** Batches per fragment task. */
const TASK_BATCHES = 2;

interface FragmentDb {
  ctx(params?: { type: DataType; value: RawValue }[]): StatementContext;
  /** Fragment runs started by the source (a fallback run starts none). */
  runs: number;
}

/** `t` can run fragments (degree 3) unless `shipping` is false at run time; `small` cannot. */
function fragmentDb(shipping: boolean): FragmentDb {
  const out: FragmentDb = {
    runs: 0,
    ctx(params) {
      const ctx = db.ctx(params);
      return {
        ...ctx,
        scanDegree: (schema) => (schema.name === 't' ? DEGREE : 0),
        openTable(schema): TableSource {
          const inner = ctx.openTable(schema);
          if (schema.name !== 't') return inner;
          return {
            ...inner,
            scanParallel(request, fragment): AsyncIterable<FragmentResult> | null {
              if (!shipping) return null;
              out.runs++;
              const shipped = structuredClone(fragment) as FragmentSpec;
              return (async function* () {
                let task: Batch[] = [];
                for await (const batch of inner.scan(request)) {
                  task.push(batch);
                  if (task.length === TASK_BATCHES) {
                    yield runFragment(shipped, task);
                    task = [];
                  }
                }
                if (task.length > 0) yield runFragment(shipped, task);
              })();
            },
          };
        },
      };
    },
  };
  return out;
}

async function runWith(target: FragmentDb, sql: string, options: { disabledRules?: string[]; params?: { type: DataType; value: RawValue }[] } = {}): Promise<{ rows: RawValue[][]; plan: string; analyzed: string }> {
  const ctx = target.ctx(options.params);
  const plan = planQuery(parseQuery(sql), ctx, { sql, disabledRules: options.disabledRules });
  const out: RawValue[][] = [];
  for await (const batch of executePlan(plan, ctx)) {
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) out.push(batch.columns.map((vec) => getRaw(vec, rowIdx)));
  }
  return { rows: out, plan: explainPlan(plan).join('\n'), analyzed: explainAnalyzed(plan, ctx).join('\n') };
}

/** The query with fragments, without the pass, and with the fragment falling back in-thread. */
async function threeWays(sql: string, params?: { type: DataType; value: RawValue }[]): Promise<{ shipped: Awaited<ReturnType<typeof runWith>>; runs: number }> {
  const target = fragmentDb(true);
  const shipped = await runWith(target, sql, { params });
  const unplanned = await runWith(fragmentDb(true), sql, { params, disabledRules: ['plan_fragments'] });
  const fallback = await runWith(fragmentDb(false), sql, { params });
  assert.doesNotMatch(unplanned.plan, /SCAN FRAGMENT/);
  assert.equal(fallback.plan, shipped.plan, 'the fallback is decided at run time, the plan is the same');
  assert.deepEqual(sorted(shipped.rows), sorted(unplanned.rows), sql);
  assert.deepEqual(sorted(fallback.rows), sorted(unplanned.rows), sql);
  return { shipped, runs: target.runs };
}

test('an aggregate over a large scan: final HASH AGGREGATE over a SCAN FRAGMENT with its degree', async () => {
  const { shipped, runs } = await threeWays('SELECT g, count(*), sum(x), min(s), max(k) FROM t WHERE k > 9 GROUP BY g');
  assert.equal(runs, 1);
  assert.match(shipped.plan, /HASH AGGREGATE #\d+\n\s+mode: final \(merges partial states\)\n\s+group by: g/);
  assert.match(shipped.plan, /-> SCAN FRAGMENT #\d+\n\s+degree: 3\n\s+filter: \(k > 9\)\n\s+partial group by: g\n\s+partial aggregates: count\(\*\), sum\(x\), min\(s\), max\(k\)/);
  assert.match(shipped.plan, /SCAN FRAGMENT[\s\S]*-> TABLE SCAN #\d+\n\s+table: test\.t/);
  assert.doesNotMatch(shipped.plan, /filter \(fused\)/, 'the filter moved into the fragment');
  // EXPLAIN ANALYZE: the fragment's partial states (groups) reach the final aggregate.
  assert.match(shipped.analyzed, /SCAN FRAGMENT #\d+[\s\S]*?actual: rows in \d+, rows out [1-9]\d*/);
});

test('an aggregate without GROUP BY and one with DISTINCT keys only', async () => {
  const global = await threeWays('SELECT count(*), count(x), sum(x), avg(x), min(x), max(x) FROM t');
  assert.match(global.shipped.plan, /SCAN FRAGMENT/);
  assert.equal(global.shipped.rows.length, 1);
  const none = await threeWays('SELECT count(*), sum(x) FROM t WHERE k > 1000');
  assert.deepEqual(none.shipped.rows, [[0n, null]]);
  const distinct = await threeWays('SELECT DISTINCT s FROM t WHERE k < 50');
  assert.match(distinct.shipped.plan, /SCAN FRAGMENT/);
});

test('a filter over a large scan becomes the fragment and keeps the scan order', async () => {
  const sql = 'SELECT id, g, k FROM t WHERE k > 90 AND x IS NOT NULL';
  const { shipped } = await threeWays(sql);
  assert.doesNotMatch(shipped.plan, /FILTER/);
  assert.match(shipped.plan, /-> SCAN FRAGMENT #\d+\n\s+degree: 3\n\s+filter: \(\(k > 90\) AND x IS NOT NULL\)\n\s+output: \[id, g, k, x\]/);
  const unplanned = await runWith(fragmentDb(true), sql, { disabledRules: ['plan_fragments'] });
  assert.deepEqual(shipped.rows, unplanned.rows, 'same rows in the same order');
});

test('`?` parameters are bound when the fragment starts', async () => {
  const { shipped, runs } = await threeWays('SELECT g, count(*), sum(x) FROM t WHERE k > ? GROUP BY g', [{ type: Types.INT, value: 50 }]);
  assert.equal(runs, 1);
  assert.match(shipped.plan, /SCAN FRAGMENT/);
  const literal = await runWith(fragmentDb(true), 'SELECT g, count(*), sum(x) FROM t WHERE k > 50 GROUP BY g');
  assert.deepEqual(sorted(shipped.rows), sorted(literal.rows));
});

test('no fragment for session or row functions, aggregates without a partial form, small tables', async () => {
  const volatile = await threeWays('SELECT count(*) FROM t WHERE x > rand() * 0');
  assert.doesNotMatch(volatile.shipped.plan, /SCAN FRAGMENT/);
  assert.equal(volatile.runs, 0);
  const noPartial = await threeWays('SELECT g, group_concat(s) FROM t WHERE k > 9 GROUP BY g');
  assert.doesNotMatch(noPartial.shipped.plan, /SCAN FRAGMENT|mode: final/);
  const small = await threeWays('SELECT count(*) FROM small WHERE k > 1');
  assert.doesNotMatch(small.shipped.plan, /SCAN FRAGMENT/);
});

test('node properties: ordering and partitioning per node', () => {
  const plan = planQuery(parseQuery('SELECT g, count(*) FROM t GROUP BY g ORDER BY g'), fragmentDb(true).ctx(), {});
  const kinds: [string, ReturnType<typeof nodeProperties>][] = [];
  const walk = (node: PhysicalNode): void => {
    kinds.push([node.kind, nodeProperties(node)]);
    node.children.forEach(walk);
  };
  walk(plan.root);
  const byKind = new Map(kinds);
  assert.equal(byKind.get('Sort')?.ordering.kind, 'sorted');
  assert.equal(byKind.get('HashAggregate')?.ordering.kind, 'none');
  assert.deepEqual(byKind.get('ScanFragment')?.partitioning, { kind: 'fragments', degree: DEGREE });
  assert.equal(byKind.get('ScanFragment')?.output, 'partials');
  assert.deepEqual(byKind.get('TableScan'), { output: 'batches', ordering: { kind: 'input' }, partitioning: { kind: 'single' } });
});
