/**
 * The two contexts of src/exec/context.ts: a physical plan runs with a bare TaskContext (profile,
 * parameters, task, session facts, table readers) after a structured clone, as a fragment rebuilt from a
 * serialized plan on another process would; and a plan that folded a session fact is never shared by the
 * plan cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getRaw, type Batch, type RawValue } from '../../src/common/column';
import { QueryProfile } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import type { ParamValue, TaskContext } from '../../src/exec/context';
import { QueryTask } from '../../src/exec/query-task';
import { buildCachedPlan } from '../../src/sql/plan-cache';
import { executePlan, planQuery } from '../../src/sql/query';
import { makeDb, norm, parseQuery } from './helpers';

const db = makeDb({
  t: {
    columns: [
      { name: 'id', type: Types.INT },
      { name: 'g', type: Types.varchar(10) },
      { name: 'v', type: Types.DOUBLE },
    ],
    rows: [
      [1, 'a', 1.5],
      [2, 'b', null],
      [3, 'a', 3],
      [4, 'c', -1],
      [5, 'b', 2.5],
    ],
    batchSize: 2,
  },
  u: {
    columns: [
      { name: 'id', type: Types.INT },
      { name: 'name', type: Types.varchar(10) },
    ],
    rows: [
      [1, 'one'],
      [3, 'three'],
      [5, 'five'],
    ],
  },
});

const TASK_FIELDS: ReadonlySet<string | symbol> = new Set(['profile', 'parameters', 'task', 'sessionInfo', 'openTable']);

/** A task context with nothing but TaskContext's fields; reading anything else fails the test. */
function bareTaskContext(parameters: readonly ParamValue[]): TaskContext {
  const readers = db.ctx();
  const ctx: TaskContext = {
    profile: new QueryProfile('fragment', '', 'root', 'test'),
    parameters,
    task: QueryTask.unlimited(),
    sessionInfo: { user: 'remote', host: 'be1', connectionId: 7, version: '5.7.99', database: 'elsewhere', statementStartMillis: Date.UTC(2024, 0, 2, 3, 4, 5) },
    openTable: (schema) => readers.openTable(schema),
  };
  return new Proxy(ctx, {
    get(target, prop, receiver) {
      if (!TASK_FIELDS.has(prop)) throw new Error(`a running plan read ${String(prop)} outside the task context`);
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

async function rowsOf(batches: AsyncIterable<Batch>): Promise<RawValue[][]> {
  const rows: RawValue[][] = [];
  for await (const batch of batches) {
    for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) rows.push(batch.columns.map((vec) => getRaw(vec, rowIdx)));
  }
  return rows;
}

test('a cloned plan runs with a bare task context and gives the same rows', async () => {
  const queries: { sql: string; params?: ParamValue[] }[] = [
    { sql: 'SELECT g, count(*), sum(v) FROM t WHERE id > 1 GROUP BY g ORDER BY g' },
    { sql: 'SELECT t.id, u.name FROM t JOIN u ON t.id = u.id ORDER BY t.id' },
    { sql: 'SELECT id FROM t WHERE v > (SELECT min(v) FROM t) AND id IN (SELECT id FROM u) ORDER BY id' },
    { sql: 'SELECT id, g FROM t WHERE id >= ? ORDER BY id LIMIT 2', params: [{ type: Types.INT, value: 2 }] },
    { sql: 'SELECT upper(g), v * 2 FROM t ORDER BY id DESC LIMIT 3' },
  ];
  for (const { sql, params = [] } of queries) {
    const planning = db.ctx(params);
    const plan = planQuery(parseQuery(sql), planning, { sql });
    const expected = await rowsOf(executePlan(plan, planning));
    const cloned = structuredClone(plan);
    assert.deepEqual(norm(await rowsOf(executePlan(cloned, bareTaskContext(params)))), norm(expected), sql);
  }
});

test('statement-level functions read the session facts of the task context', async () => {
  // Without constant folding they are evaluated while the plan runs, from the task context's facts.
  const sql = "SELECT database(), connection_id(), date_format(now(), '%Y-%m-%d %H') FROM t WHERE id = 1";
  const plan = planQuery(parseQuery(sql), db.ctx(), { sql, disabledRules: ['constant_folding'] });
  const rows = await rowsOf(executePlan(structuredClone(plan), bareTaskContext([])));
  const local = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
  const hour = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')} ${String(local.getHours()).padStart(2, '0')}`;
  assert.deepEqual(norm(rows), [['elsewhere', 7, hour]]);
});

test('a plan that folded a session fact is not shared by the plan cache', () => {
  const build = (sql: string, params: ParamValue[] = []): boolean => buildCachedPlan('k', parseQuery(sql), db.ctx(params), sql, params).reusable;
  assert.equal(build('SELECT connection_id()'), false, 'CONNECTION_ID() is the connection that planned it');
  assert.equal(build('SELECT id FROM t WHERE id > unix_timestamp(now()) - 100'), false, 'NOW() is the statement that planned it');
  assert.equal(build('SELECT id FROM t WHERE id = ?', [{ type: Types.INT, value: 1 }]), true);
  assert.equal(build('SELECT id + 1 FROM t WHERE g = upper(?)', [{ type: Types.STRING, value: 'a' }]), true);
});
