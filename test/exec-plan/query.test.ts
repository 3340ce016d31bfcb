import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Types } from '../../src/common/types';
import { GaleneError } from '../../src/common/errors';
import { explain, makeDb, norm, run, sorted } from './helpers';

const db = makeDb({
  t: {
    columns: [
      { name: 'id', type: Types.INT },
      { name: 'g', type: Types.varchar(10) },
      { name: 'v', type: Types.DOUBLE },
      { name: 'n', type: Types.BIGINT },
    ],
    rows: [
      [1, 'a', 1.5, 10n],
      [2, 'b', null, 20n],
      [3, 'a', 3, null],
      [4, 'c', -1, 40n],
      [5, 'b', 2.5, 50n],
      [6, null, 0, 60n],
    ],
    batchSize: 4,
  },
  u: {
    columns: [
      { name: 'id', type: Types.INT },
      { name: 'name', type: Types.varchar(10) },
    ],
    rows: [
      [1, 'one'],
      [3, 'three'],
      [3, 'three-bis'],
      [null, 'nothing'],
      [9, 'nine'],
    ],
  },
});

test('projection names: alias, column name, expression text', async () => {
  const { names, rows } = await run(db, 'SELECT id, v * 2 AS dbl, id + 1, T.g FROM t WHERE id <= 2');
  assert.deepEqual(names, ['id', 'dbl', 'id + 1', 'g']);
  assert.deepEqual(norm(rows), [
    [1, 3, 2, 'a'],
    [2, null, 3, 'b'],
  ]);
});

test('filters use three-valued logic', async () => {
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t WHERE v > 1')).rows), [[1], [3], [5]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t WHERE NOT (v > 1)')).rows), [[4], [6]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t WHERE v IS NULL OR g IS NULL')).rows), [[2], [6]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t WHERE id BETWEEN 2 AND 4 AND g IN (\'a\', \'b\')')).rows), [[2], [3]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t WHERE g NOT IN (\'a\', NULL)')).rows), []);
});

test('GROUP BY string key with every aggregate', async () => {
  const { rows, names } = await run(db, 'SELECT g, count(*), count(v), sum(n), min(v), max(v), avg(id) FROM t GROUP BY g ORDER BY g');
  assert.equal(names[1], 'count(*)');
  assert.deepEqual(norm(rows), [
    [null, 1, 1, 60, 0, 0, 6],
    ['a', 2, 2, 10, 1.5, 3, 2],
    ['b', 2, 1, 70, 2.5, 2.5, 3.5],
    ['c', 1, 1, 40, -1, -1, 4],
  ]);
});

test('GROUP BY int key, expression key, ordinal and multi-column keys', async () => {
  assert.deepEqual(norm((await run(db, 'SELECT id % 2 AS odd, count(*) FROM t GROUP BY odd ORDER BY 1')).rows), [
    [0, 3],
    [1, 3],
  ]);
  assert.deepEqual(norm((await run(db, 'SELECT n, count(*) c FROM t GROUP BY 1 ORDER BY n DESC LIMIT 2')).rows), [
    [60, 1],
    [50, 1],
  ]);
  const multi = await run(db, 'SELECT g, id > 2, count(*) FROM t GROUP BY g, id > 2');
  assert.deepEqual(sorted(norm(multi.rows) as never), sorted([
    [null, 1, 1],
    ['a', 0, 1],
    ['a', 1, 1],
    ['b', 0, 1],
    ['b', 1, 1],
    ['c', 1, 1],
  ] as never));
  assert.deepEqual(norm((await run(db, 'SELECT count(DISTINCT g), count(*) FROM t')).rows), [[3, 6]]);
});

test('global aggregate over no rows gives one row', async () => {
  assert.deepEqual(norm((await run(db, 'SELECT count(*), sum(v) FROM t WHERE id > 100')).rows), [[0, null]]);
  assert.deepEqual((await run(db, 'SELECT g, count(*) FROM t WHERE id > 100 GROUP BY g')).rows, []);
});

test('HAVING with aggregates and aliases', async () => {
  assert.deepEqual(norm((await run(db, 'SELECT g, sum(n) AS s FROM t GROUP BY g HAVING count(*) > 1 AND s > 20 ORDER BY g')).rows), [['b', 70]]);
});

test('ORDER BY defaults to NULLS FIRST for ASC and NULLS LAST for DESC', async () => {
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t ORDER BY v')).rows), [[2], [4], [6], [1], [5], [3]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t ORDER BY v DESC')).rows), [[3], [5], [1], [6], [4], [2]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t ORDER BY v ASC NULLS LAST')).rows), [[4], [6], [1], [5], [3], [2]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t ORDER BY g DESC, id DESC')).rows), [[4], [5], [2], [3], [1], [6]]);
  // ORDER BY a column not in the select list (hidden column)
  assert.deepEqual(norm((await run(db, 'SELECT g FROM t ORDER BY n DESC, id')).rows), [[null], ['b'], ['c'], ['b'], ['a'], ['a']]);
});

test('LIMIT / OFFSET and TopN', async () => {
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t ORDER BY id LIMIT 2 OFFSET 3')).rows), [[4], [5]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t ORDER BY id DESC LIMIT 1, 2')).rows), [[5], [4]]);
  assert.equal((await run(db, 'SELECT id FROM t LIMIT 0')).rows.length, 0);
  assert.ok(explain(db, 'SELECT id FROM t ORDER BY id LIMIT 2').some((line) => line.includes('TOP-N')));
});

test('INNER JOIN: NULL keys never match, duplicate keys multiply', async () => {
  const { rows } = await run(db, 'SELECT t.id, u.name FROM t JOIN u ON t.id = u.id ORDER BY u.name');
  assert.deepEqual(norm(rows), [
    [1, 'one'],
    [3, 'three'],
    [3, 'three-bis'],
  ]);
  const comma = await run(db, 'SELECT t.id, u.name FROM t, u WHERE t.id = u.id AND u.name <> \'one\' ORDER BY 2');
  assert.deepEqual(norm(comma.rows), [
    [3, 'three'],
    [3, 'three-bis'],
  ]);
  assert.ok(explain(db, 'SELECT t.id FROM t, u WHERE t.id = u.id').some((line) => line.includes('HASH JOIN')));
});

test('LEFT JOIN keeps unmatched rows with NULLs; ON extra condition', async () => {
  const { rows } = await run(db, 'SELECT t.id, u.name FROM t LEFT JOIN u ON t.id = u.id AND u.name <> \'three\' WHERE t.id < 5 ORDER BY t.id, u.name');
  assert.deepEqual(norm(rows), [
    [1, 'one'],
    [2, null],
    [3, 'three-bis'],
    [4, null],
  ]);
  const using = await run(db, 'SELECT id, name FROM u LEFT JOIN t USING (id) WHERE t.id IS NULL ORDER BY name');
  assert.deepEqual(norm(using.rows), [
    [9, 'nine'],
    [null, 'nothing'],
  ]);
});

test('CROSS JOIN and non-equi joins', async () => {
  assert.deepEqual(norm((await run(db, 'SELECT count(*) FROM t CROSS JOIN u')).rows), [[30]]);
  assert.deepEqual(norm((await run(db, 'SELECT t.id, u.id FROM t JOIN u ON t.id > u.id AND u.id > 1 ORDER BY 1, 2')).rows), [
    [4, 3],
    [4, 3],
    [5, 3],
    [5, 3],
    [6, 3],
    [6, 3],
  ]);
});

test('UNION ALL and UNION with type unification', async () => {
  const all = await run(db, 'SELECT id FROM u WHERE id = 3 UNION ALL SELECT 2.5');
  assert.deepEqual(all.text.map((row) => Number(row[0])).sort(), [2.5, 3, 3]);
  const distinct = await run(db, 'SELECT id FROM u WHERE id = 3 UNION SELECT id FROM t WHERE id < 4 ORDER BY id');
  assert.deepEqual(norm(distinct.rows), [[1], [2], [3]]);
});

test('subquery in FROM, scalar subquery, IN subquery', async () => {
  assert.deepEqual(norm((await run(db, 'SELECT s.g, s.c FROM (SELECT g, count(*) c FROM t GROUP BY g) s WHERE s.c > 1 ORDER BY s.g')).rows), [
    ['a', 2],
    ['b', 2],
  ]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t WHERE n = (SELECT max(n) FROM t)')).rows), [[6]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t WHERE id IN (SELECT id FROM u) ORDER BY id')).rows), [[1], [3]]);
  assert.deepEqual(norm((await run(db, 'SELECT id FROM t WHERE id NOT IN (SELECT id FROM u WHERE id > 5) ORDER BY id')).rows), [[1], [2], [3], [4], [5], [6]]);
  assert.deepEqual(norm((await run(db, 'SELECT (SELECT count(*) FROM u) + 1 AS c')).rows), [[6]]);
});

test('SELECT without FROM, VALUES, DISTINCT, variables', async () => {
  const { names, rows } = await run(db, "SELECT 1 + 1, 'x' AS s, @@version_comment");
  assert.deepEqual(names, ['1 + 1', 's', '@@version_comment']);
  assert.deepEqual(norm(rows), [[2, 'x', 'Galene']]);
  assert.deepEqual(norm((await run(db, 'SELECT DISTINCT g FROM t ORDER BY g')).rows), [[null], ['a'], ['b'], ['c']]);
  assert.deepEqual(norm((await run(db, 'SELECT ? + 1', [{ type: Types.INT, value: 41 }])).rows), [[42]]);
});

async function rejects(sql: string, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(run(db, sql), (err: unknown) => {
    assert.ok(err instanceof GaleneError, String(err));
    assert.equal(err.code, code, err.message);
    if (message) assert.match(err.message, message);
    return true;
  });
}

test('binder errors name the clause', async () => {
  await rejects('SELECT nope FROM t', 'UNKNOWN_COLUMN', /Unknown column 'nope' in 'field list'/);
  await rejects('SELECT id FROM t WHERE nope = 1', 'UNKNOWN_COLUMN', /in 'where clause'/);
  await rejects('SELECT id FROM t ORDER BY nope', 'UNKNOWN_COLUMN', /in 'order clause'/);
  await rejects('SELECT count(*) FROM t GROUP BY nope', 'UNKNOWN_COLUMN', /in 'group statement'/);
  await rejects('SELECT g FROM t GROUP BY g HAVING nope > 1', 'UNKNOWN_COLUMN', /in 'having clause'/);
  await rejects('SELECT 1 FROM t JOIN u ON t.nope = u.id', 'UNKNOWN_COLUMN', /in 'on clause'/);
  await rejects('SELECT id FROM t JOIN u ON t.id = u.id', 'AMBIGUOUS_COLUMN', /Column 'id' in field list is ambiguous/);
  await rejects('SELECT g, id FROM t GROUP BY g', 'NOT_GROUP_BY', /'id'/);
  await rejects('SELECT id FROM t WHERE count(*) > 1', 'INVALID_GROUP_FUNC');
  await rejects('SELECT missing.* FROM t', 'BAD_TABLE_DROP');
  await rejects('SELECT * FROM nosuch', 'UNKNOWN_TABLE');
});

test('predicate pushdown fills the ScanRequest; the filter stays exact', async () => {
  db.requests.clear();
  const { rows } = await run(db, "SELECT g FROM t WHERE id >= 2 AND g IN ('a', 'b') AND v IS NOT NULL AND 5 > id AND id + 1 > 0");
  assert.deepEqual(norm(rows), [['a']]);
  const request = db.requests.get('t')![0];
  assert.deepEqual(request.columns, ['id', 'g', 'v']);
  assert.deepEqual(request.predicates, [
    { column: 'id', op: '>=', value: 2 },
    { column: 'g', op: 'in', values: ['a', 'b'] },
    { column: 'v', op: 'isnotnull' },
    { column: 'id', op: '<', value: 5 },
  ]);
  assert.equal(request.limit, null);
});

test('pushdown through a derived table and into join sides', async () => {
  db.requests.clear();
  await run(db, 'SELECT s.id FROM (SELECT id, n FROM t) s JOIN u ON s.id = u.id WHERE s.n > 15 AND u.name = \'three\'');
  // The pushed predicate, then the runtime filters' (the join's build side, u, has the one key 3).
  assert.deepEqual(db.requests.get('t')![0].predicates, [
    { column: 'n', op: '>', value: 15n },
    { column: 'id', op: '>=', value: 3 },
    { column: 'id', op: '<=', value: 3 },
    { column: 'id', op: 'in', values: [3] },
  ]);
  assert.deepEqual(db.requests.get('t')![0].columns, ['id', 'n']);
  assert.deepEqual(db.requests.get('u')![0].predicates, [{ column: 'name', op: '=', value: 'three' }]);
});

test('COUNT(*) reads no columns; LIMIT without ORDER BY reaches the scan', async () => {
  db.requests.clear();
  assert.deepEqual(norm((await run(db, 'SELECT count(*) FROM t')).rows), [[6]]);
  assert.deepEqual(db.requests.get('t')![0].columns, []);
  db.requests.clear();
  const limited = await run(db, 'SELECT id FROM t LIMIT 3');
  assert.equal(limited.rows.length, 3);
  assert.equal(db.requests.get('t')![0].limit, 3);
  assert.equal(limited.ctx.profile.get('RowsReturned'), 3);
  assert.ok(limited.ctx.profile.get('RowsRead') >= 3);
});

test('EXPLAIN shows operators with their parameters', async () => {
  const lines = explain(db, 'SELECT g, count(*) FROM t WHERE id > 1 GROUP BY g ORDER BY g');
  const text = lines.join('\n');
  assert.match(text, /HASH AGGREGATE/);
  assert.match(text, /group by: g/);
  assert.match(text, /TABLE SCAN/);
  assert.match(text, /pushed predicates: id > 1/);
  assert.match(text, /columns: \[id, g\]/);
  assert.match(text, /SORT/);
});

test('date arithmetic with INTERVAL, simple CASE, CAST', async () => {
  const dates = makeDb({ d: { columns: [{ name: 'day', type: Types.DATE }, { name: 'k', type: Types.INT }], rows: [[19723, 1], [19754, 2]] } });
  const { text } = await run(dates, "SELECT day + INTERVAL 1 DAY, date_sub(day, INTERVAL 1 MONTH), CASE k WHEN 1 THEN 'one' ELSE 'other' END, CAST(k AS VARCHAR(3)) FROM d ORDER BY k");
  assert.deepEqual(text, [
    ['2024-01-02', '2023-12-01', 'one', '1'],
    ['2024-02-02', '2024-01-01', 'other', '2'],
  ]);
  assert.deepEqual((await run(dates, "SELECT k FROM d WHERE day >= '2024-01-15'")).text, [['2']]);
  dates.requests.clear();
  await run(dates, "SELECT k FROM d WHERE day >= '2024-01-15'");
  assert.deepEqual(dates.requests.get('d')![0].predicates, [{ column: 'day', op: '>=', value: 19737 }]);
});
