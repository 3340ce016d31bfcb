/**
 * Virtual columns for common subexpressions (exec/plan/virtual-columns.ts, session variable
 * experimental_enable_virtual_slot_for_cse): the same results with the variable on and off over varied
 * query shapes with NULLs, EXPLAIN showing the virtual columns, and a counting test function proving that
 * a repeated expression runs once per batch — and never on rows the original plan would not evaluate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getRaw, type RawValue } from '../../src/common/column';
import { mulberry32 } from '../../src/common/prng';
import { Types } from '../../src/common/types';
import type { StatementContext } from '../../src/exec/context';
import { lookupFunction, registerFunctions } from '../../src/exec/expr/function-registry';
import { ensureFunctionsRegistered } from '../../src/exec/expr/functions/all-functions';
import { executePlan, explainPlan, planQuery } from '../../src/sql/query';
import { makeDb, parseQuery, sorted } from './helpers';

// cse_probe(x) is abs(x) that counts its kernel calls and the rows it computed.
const probe = { calls: 0, rows: 0 };
ensureFunctionsRegistered();
const abs = lookupFunction('abs')!;
registerFunctions([
  {
    ...abs,
    name: 'cse_probe',
    aliases: [],
    kernel: (args, rowCount, site, ctx) => {
      probe.calls++;
      probe.rows += rowCount;
      return abs.kernel(args, rowCount, site, ctx);
    },
  },
]);

const random = mulberry32(11);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
const maybe = <T>(value: T): T | null => (random() < 0.1 ? null : value);
const ROWS = 5000;
const BATCH = 1000;
const rows: RawValue[][] = [];
for (let rowIdx = 0; rowIdx < ROWS; rowIdx++) {
  const host = pick(['google.com', 'GOOGLE.ru', 'yandex.ru', 'mail.google.de', 'example.org', '']);
  rows.push([
    rowIdx,
    maybe(Math.floor(random() * 200) - 100),
    maybe(pick(['a', 'b', 'c'])),
    maybe(pick(['https://', 'http://', 'ftp://']) + host + pick(['/', '/search?q=1', ''])),
    maybe(Math.round(random() * 1e5) / 64),
  ]);
}
const db = makeDb({
  t: {
    columns: [
      { name: 'id', type: Types.INT },
      { name: 'x', type: Types.INT },
      { name: 'g', type: Types.varchar(4) },
      { name: 'referer', type: Types.varchar(64) },
      { name: 'f', type: Types.DOUBLE },
    ],
    rows,
    batchSize: BATCH,
  },
});

function context(cse: boolean): StatementContext {
  const base = db.ctx();
  return {
    ...base,
    getSystemVariable(name, scope) {
      if (name === 'experimental_enable_virtual_slot_for_cse') return { type: Types.BOOLEAN, value: cse ? 1 : 0 };
      return base.getSystemVariable(name, scope);
    },
  };
}

async function runWith(sql: string, cse: boolean): Promise<RawValue[][]> {
  const ctx = context(cse);
  const out: RawValue[][] = [];
  for await (const batch of executePlan(planQuery(parseQuery(sql), ctx, { sql }), ctx)) {
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) out.push(batch.columns.map((vec) => getRaw(vec, rowIdx)));
  }
  return out;
}

function explainWith(sql: string, cse: boolean): string {
  return explainPlan(planQuery(parseQuery(sql), context(cse), { sql })).join('\n');
}

const HOST = "regexp_extract(referer, '^https?://([^/]+)', 1)";
const QUERIES: { sql: string; ordered: boolean; virtual: boolean }[] = [
  // The seed's ClickBench shape: six repeats in WHERE, GROUP BY, HAVING, ORDER BY.
  {
    sql: `SELECT g, COUNT(*) AS hits, COUNT(DISTINCT x) AS xs FROM t
          WHERE (UPPER(${HOST}) = 'GOOGLE.COM' OR UPPER(${HOST}) = 'GOOGLE.RU' OR UPPER(${HOST}) LIKE '%GOOGLE%')
            AND (LENGTH(${HOST}) > 3 OR ${HOST} != '' OR ${HOST} IS NOT NULL) AND id >= 10
          GROUP BY g HAVING hits > 1 ORDER BY hits DESC, g LIMIT 20`,
    ordered: true,
    virtual: true,
  },
  { sql: `SELECT id, ${HOST} AS h, UPPER(${HOST}) FROM t WHERE ${HOST} LIKE '%google%' ORDER BY ${HOST}, id`, ordered: true, virtual: true },
  { sql: `SELECT ${HOST} AS h, COUNT(*), SUM(LENGTH(${HOST})) FROM t GROUP BY ${HOST}`, ordered: false, virtual: true },
  { sql: 'SELECT id, x * 2 + 1, (x * 2 + 1) * (x * 2 + 1) FROM t WHERE x * 2 + 1 > 3 AND x * 2 + 1 < 90', ordered: false, virtual: true },
  { sql: 'SELECT id FROM t WHERE abs(x) > 10 AND abs(x) < 50 ORDER BY abs(x) DESC, id LIMIT 30', ordered: true, virtual: true },
  // Nested repeats: abs(x) inside abs(x) + 1, both repeated.
  { sql: 'SELECT abs(x) + 1, (abs(x) + 1) * 2, abs(x) - 3, f FROM t WHERE abs(x) + 1 > 5', ordered: false, virtual: true },
  // CASE: the repeat in the first WHEN is unconditional; the branches read the shared column.
  { sql: "SELECT id, CASE WHEN abs(x) > 50 THEN abs(x) * 10 WHEN abs(x) > 20 THEN abs(x) ELSE -abs(x) END FROM t WHERE g = 'a'", ordered: false, virtual: true },
  // Repeats only in CASE branches stay as they are.
  { sql: 'SELECT id, CASE WHEN x > 0 THEN abs(f - 1) WHEN x < 0 THEN abs(f - 1) + 1 END FROM t', ordered: false, virtual: false },
  // NULLs: IS NULL / COALESCE over a shared expression, HAVING over aggregates.
  { sql: 'SELECT g, SUM(x + 1), SUM(x + 1) / COUNT(x + 1) FROM t WHERE (x + 1) IS NULL OR coalesce(x + 1, 0) > 5 GROUP BY g HAVING SUM(x + 1) / COUNT(x + 1) > 0', ordered: false, virtual: true },
  { sql: 'SELECT g, COUNT(*) FROM t WHERE length(referer) > 10 AND length(referer) < 40 GROUP BY g', ordered: false, virtual: true },
  // A filter pushed below a join (no consumer in its block: a plain Project drops the virtual column), a
  // derived table and a UNION ALL.
  { sql: 'SELECT a.id, b.g FROM t a JOIN t b ON a.id = b.id WHERE abs(a.x) > 10 AND abs(a.x) < 50 AND b.id < 3000', ordered: false, virtual: true },
  { sql: 'SELECT h, n FROM (SELECT lower(g) AS h, length(lower(g)) AS n FROM t WHERE lower(g) IS NOT NULL) d WHERE n > 0', ordered: false, virtual: true },
  { sql: 'SELECT x + 1 FROM t WHERE x + 1 > 50 UNION ALL SELECT f * 2 FROM t WHERE f * 2 < 10', ordered: false, virtual: true },
  // rand() is never shared; an expression without columns is constant per batch already.
  { sql: "SELECT id FROM t WHERE rand() >= 0 AND rand() >= 0 AND upper('x') IS NOT NULL AND upper('x') IS NOT NULL", ordered: false, virtual: false },
];

test('results are identical with experimental_enable_virtual_slot_for_cse on and off', async () => {
  for (const { sql, ordered, virtual } of QUERIES) {
    const off = await runWith(sql, false);
    const on = await runWith(sql, true);
    assert.deepEqual(ordered ? on : sorted(on), ordered ? off : sorted(off), sql);
    assert.equal(/virtual columns: \[v0 := /.test(explainWith(sql, true)), virtual, `${sql}\n${explainWith(sql, true)}`);
    assert.doesNotMatch(explainWith(sql, false), /virtual columns/);
  }
  // Most queries return rows, so the comparison is not vacuous.
  assert.ok((await runWith(QUERIES[1].sql, true)).length > 100);
});

test('EXPLAIN names each virtual column once, nested ones reading the others', () => {
  const plan = explainWith(QUERIES[0].sql, true);
  assert.match(plan, /virtual columns: \[v0 := regexp_extract\(referer, '\^https\?:\/\/\(\[\^\/\]\+\)', 1\), v1 := upper\(v0\)\]/);
  assert.match(plan, /\(v1 = 'GOOGLE\.COM'\)/);
  assert.match(plan, /length\(v0\)/);
});

test('a repeated expression runs once per batch, over the rows the filter sees', async () => {
  const sql = 'SELECT cse_probe(x) + 1, cse_probe(x) * 2 FROM t WHERE cse_probe(x) > 10 AND cse_probe(x) < 90';
  const passing = rows.filter((row) => row[1] !== null && Math.abs(row[1] as number) > 10 && Math.abs(row[1] as number) < 90).length;
  probe.calls = 0;
  probe.rows = 0;
  const off = await runWith(sql, false);
  assert.equal(off.length, passing);
  assert.equal(probe.calls, (ROWS / BATCH) * 4);
  assert.equal(probe.rows, ROWS * 2 + passing * 2);
  probe.calls = 0;
  probe.rows = 0;
  const on = await runWith(sql, true);
  assert.deepEqual(sorted(on), sorted(off));
  assert.equal(probe.calls, ROWS / BATCH);
  assert.equal(probe.rows, ROWS);
});

test('a repeat only in the select list is computed after the filter, on the passing rows only', async () => {
  const sql = 'SELECT cse_probe(x) + 1, cse_probe(x) * 2 FROM t WHERE id < 1500';
  probe.calls = 0;
  probe.rows = 0;
  const on = await runWith(sql, true);
  assert.equal(on.length, 1500);
  assert.equal(probe.rows, 1500);
  assert.equal(probe.calls, 2);
  assert.match(explainWith(sql, true), /virtual columns: \[v0 := cse_probe\(x\)\][\s\S]*FILTER/);
});

test('prepared parameters: the plan with a ? inside a virtual column runs with each value', async () => {
  const sql = 'SELECT id, abs(x - ?) FROM t WHERE abs(x - ?) < 3 AND abs(x - ?) >= 0 ORDER BY id';
  for (const value of [5, -40]) {
    const params = [0, 1, 2].map(() => ({ type: Types.INT, value }));
    const results: RawValue[][][] = [];
    for (const cse of [false, true]) {
      const ctx = { ...context(cse), parameters: params };
      const out: RawValue[][] = [];
      for await (const batch of executePlan(planQuery(parseQuery(sql), ctx, { sql }), ctx)) {
        for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) out.push(batch.columns.map((vec) => getRaw(vec, rowIdx)));
      }
      results.push(out);
    }
    assert.ok(results[0].length > 0);
    assert.deepEqual(results[1], results[0]);
  }
});
