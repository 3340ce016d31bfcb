import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getRaw, type Batch, type Vector } from '../../src/common/column';
import { QueryProfile } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import { makeTableSchema, MemoryTable } from '../../src/exec/memory-table';
import { explainAnalyzed, planQuery, executePlan } from '../../src/sql/query';
import { explain, makeDb, norm, parseQuery, run } from './helpers';

function dictVector(values: (string | null)[], dict: string[]): Vector {
  const codes = new Int32Array(values.length);
  const nulls = new Uint8Array(values.length);
  values.forEach((value, rowIdx) => {
    if (value === null) nulls[rowIdx] = 1;
    else codes[rowIdx] = dict.indexOf(value);
  });
  return { kind: 'dict', type: Types.varchar(8), length: values.length, codes, dict, nulls: values.includes(null) ? nulls : null };
}

test('MemoryTable honours columns, predicates and limit', async () => {
  const schema = makeTableSchema('test', 'm', [
    { name: 'a', type: Types.INT },
    { name: 'b', type: Types.varchar(4) },
  ]);
  const table = MemoryTable.fromRows(schema, [[1, 'x'], [2, 'y'], [3, null], [4, 'x']], 3);
  const out: unknown[][] = [];
  for await (const batch of table.scan({ columns: ['B', 'a'], predicates: [{ column: 'a', op: '>', value: 1 }], limit: 2, profile: new QueryProfile('q', '', '', '') })) {
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) out.push(batch.columns.map((vec) => getRaw(vec, rowIdx)));
  }
  assert.deepEqual(out, [['y', 2], [null, 3]]);
  let rows = 0;
  for await (const batch of table.scan({ columns: [], predicates: [{ column: 'b', op: 'isnull' }], limit: null, profile: new QueryProfile('q', '', '', '') })) {
    assert.equal(batch.columns.length, 0);
    rows += batch.length;
  }
  assert.equal(rows, 1);
});

test('GROUP BY a dictionary-encoded key across batches with different dictionaries', async () => {
  const schema = makeTableSchema('test', 'd', [
    { name: 's', type: Types.varchar(8) },
    { name: 'x', type: Types.INT },
  ]);
  const ints = (values: number[]): Vector => ({ kind: 'fixed', type: Types.INT, length: values.length, values: Int32Array.from(values), nulls: null });
  const batches: Batch[] = [
    { length: 4, columns: [dictVector(['p', 'q', 'p', null], ['p', 'q']), ints([1, 2, 3, 4])] },
    { length: 3, columns: [dictVector(['r', 'p', 'r'], ['r', 'p']), ints([5, 6, 7])] },
  ];
  const source = new MemoryTable(schema, batches);
  const db = makeDb({});
  const base = db.ctx();
  const ctx = { ...base, getTable: () => schema, openTable: () => source };
  const plan = planQuery(parseQuery('SELECT s, count(*), sum(x) FROM d GROUP BY s ORDER BY s'), ctx);
  const rows: unknown[][] = [];
  for await (const batch of executePlan(plan, ctx)) {
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) rows.push(batch.columns.map((vec) => getRaw(vec, rowIdx)));
  }
  assert.deepEqual(norm(rows as never), [
    [null, 1, 4],
    ['p', 3, 10],
    ['q', 1, 2],
    ['r', 2, 12],
  ]);
  const analyzed = explainAnalyzed(plan, ctx).join('\n');
  assert.match(analyzed, /HASH AGGREGATE #\d+[\s\S]*actual: rows in 7, rows out 4/);
});

const bigRows: [number, number, bigint, number][] = [];
for (let rowIdx = 0; rowIdx < 10000; rowIdx++) bigRows.push([(rowIdx * 7919) % 10007, rowIdx % 3, BigInt(rowIdx % 5), 19000 + (rowIdx % 4)]);
const big = makeDb({
  b: {
    columns: [
      { name: 'k', type: Types.INT },
      { name: 'm', type: Types.INT },
      { name: 'w', type: Types.BIGINT },
      { name: 'day', type: Types.DATE },
    ],
    rows: bigRows,
  },
  small: { columns: [{ name: 'k', type: Types.INT }], rows: [[0], [7919], [42], [20000]] },
});

test('TopN over many batches equals a full sort', async () => {
  const expected = bigRows.map((row) => row[0]).sort((left, right) => right - left).slice(3, 8);
  const { rows } = await run(big, 'SELECT k FROM b ORDER BY k DESC LIMIT 3, 5');
  assert.deepEqual(norm(rows).map((row) => row[0]), expected);
  const sortedAll = await run(big, 'SELECT k, m FROM b ORDER BY m, k');
  assert.equal(sortedAll.rows.length, 10000);
  for (let rowIdx = 1; rowIdx < sortedAll.rows.length; rowIdx++) {
    const [prevK, prevM] = sortedAll.rows[rowIdx - 1] as number[];
    const [curK, curM] = sortedAll.rows[rowIdx] as number[];
    assert.ok(prevM < curM || (prevM === curM && prevK <= curK));
  }
});

test('GROUP BY BIGINT, DATE and multi keys over many rows', async () => {
  assert.deepEqual(norm((await run(big, 'SELECT w, count(*) FROM b GROUP BY w ORDER BY w')).rows), [
    [0, 2000],
    [1, 2000],
    [2, 2000],
    [3, 2000],
    [4, 2000],
  ]);
  assert.deepEqual(norm((await run(big, 'SELECT day, count(*) FROM b GROUP BY day ORDER BY day LIMIT 2')).rows), [
    [19000, 2500],
    [19001, 2500],
  ]);
  assert.equal((await run(big, 'SELECT m, w, count(*) FROM b GROUP BY m, w')).rows.length, 15);
});

test('hash join builds the smaller side; results unchanged', async () => {
  const lines = explain(big, 'SELECT b.k FROM small JOIN b ON small.k = b.k');
  assert.ok(lines.some((line) => line.includes('build side: left')), lines.join('\n'));
  const { rows } = await run(big, 'SELECT small.k, b.m FROM small JOIN b ON small.k = b.k ORDER BY 1');
  assert.deepEqual(norm(rows), [
    [0, 0],
    [42, 1],
    [7919, 1],
  ]);
  const right = await run(big, 'SELECT small.k, b.k FROM b RIGHT JOIN small ON small.k = b.k ORDER BY 1');
  assert.deepEqual(norm(right.rows), [
    [0, 0],
    [42, 42],
    [7919, 7919],
    [20000, null],
  ]);
});

test('filters push into every input of a UNION ALL', async () => {
  big.requests.clear();
  const { rows } = await run(big, 'SELECT k FROM (SELECT k FROM b UNION ALL SELECT k FROM small) x WHERE k = 42');
  assert.deepEqual(norm(rows), [[42], [42]]);
  assert.deepEqual(big.requests.get('b')![0].predicates, [{ column: 'k', op: '=', value: 42 }]);
  assert.deepEqual(big.requests.get('small')![0].predicates, [{ column: 'k', op: '=', value: 42 }]);
});
