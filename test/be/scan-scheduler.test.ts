/**
 * The scan scheduler (src/be/scan-scheduler.ts): task shapes for ordinary and index-driven scans (per
 * segment vs Doris's row-based grouping), the window answering a fake pressure source, results in row
 * order whatever order tasks finish in, failures and early stops ending submissions, and scanParallel
 * (src/be/olap-table-source.ts) planning through it over a table of many small segments.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OlapTableSource } from '../../src/be/olap-table-source';
import { DORIS_ROWS_PER_SCAN_TASK, planScanTasks, runScanTasks, scanTaskPolicy, windowUnderPressure, type ScanPressure, type SegmentToScan } from '../../src/be/scan-scheduler';
import type { ScanTask, ScanTaskRunner } from '../../src/be/scan-worker-pool';
import { QueryProfile } from '../../src/common/profile';
import type { FragmentResult } from '../../src/exec/plan/fragment-spec';
import type { TableState } from '../../src/meta/catalog';
import type { RowsetRecord, SegmentRecord } from '../../src/meta/meta-store';
import type { TableSchema } from '../../src/meta/schema';

const NONE = new Int32Array(0);
const segment = (name: string, numRows: number): SegmentRecord => ({ key: `data/1/${name}.dat`, numRows, size: numRows * 8 });
const scanOf = (seg: SegmentRecord, excluded: number[] = []): SegmentToScan => ({ segment: seg, excludedRows: Int32Array.from(excluded) });
const shape = (tasks: ReturnType<typeof planScanTasks>): string[][] => tasks.map((task) => task.map((item) => `${item.segment.key.slice(7, -4)}[${item.rowStart},${item.rowEnd})`));
const newProfile = (): QueryProfile => new QueryProfile('q', '', '', '');

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('ordinary scans: every segment cut into row ranges, deleted rows split with them, all-deleted segments skipped', () => {
  const tasks = planScanTasks([scanOf(segment('a', 70_000), [5, 40_000, 69_999]), scanOf(segment('b', 3), [0, 1, 2]), scanOf(segment('c', 10))], scanTaskPolicy(undefined, 32_768));
  assert.deepEqual(shape(tasks), [['a[0,32768)'], ['a[32768,65536)'], ['a[65536,70000)'], ['c[0,10)']]);
  assert.deepEqual(tasks.map((task) => (task[0].excludedRows === undefined ? null : [...task[0].excludedRows])), [[5], [40_000], [69_999], null]);
});

test('index-driven scans: one task per segment with optimize_index_scan_parallelism, else segments grouped by 2,097,152 rows', () => {
  const small = Array.from({ length: 6 }, (_v, idx) => scanOf(segment(`s${idx}`, 500_000)));
  const perSegment = planScanTasks(small, scanTaskPolicy({ perSegment: true }, 32_768));
  assert.deepEqual(shape(perSegment), small.map((scan) => [`${scan.segment.key.slice(7, -4)}[0,500000)`]), 'exactly one whole-segment task per segment, however small');
  const grouped = planScanTasks(small, scanTaskPolicy({ perSegment: false }, 32_768));
  assert.deepEqual(shape(grouped), [['s0[0,500000)', 's1[0,500000)', 's2[0,500000)', 's3[0,500000)'], ['s4[0,500000)', 's5[0,500000)']]);
  assert.equal(DORIS_ROWS_PER_SCAN_TASK, 2_097_152);
  // A segment above the limit is a task of its own, never cut; groups count live rows.
  const mixed = planScanTasks([scanOf(segment('x', 100)), scanOf(segment('big', 3_000_000)), scanOf(segment('y', 2_097_152), [0, 1]), scanOf(segment('z', 2))], scanTaskPolicy({ perSegment: false }, 32_768));
  assert.deepEqual(shape(mixed), [['x[0,100)'], ['big[0,3000000)'], ['y[0,2097152)', 'z[0,2)']]);
  assert.deepEqual([...mixed[2][0].excludedRows!], [0, 1]);
});

test('the window: idle up to the maximum, shrinking with other queries\' tasks, never below one', () => {
  const at = (queued: number, running: number): ScanPressure => ({ workers: 2, queued, running });
  assert.equal(windowUnderPressure(at(0, 0), 0, 4), 4);
  assert.equal(windowUnderPressure(at(0, 2), 2, 4), 4, 'its own tasks are no pressure');
  assert.equal(windowUnderPressure(at(0, 2), 0, 4), 2);
  assert.equal(windowUnderPressure(at(1, 2), 1, 4), 2);
  assert.equal(windowUnderPressure(at(60, 2), 1, 4), 1);
});

/** A fake pool: every run() waits for the test to settle it; pressure is whatever the test says. */
function fakeRunner() {
  const started: { piece: number; done: Deferred<string> }[] = [];
  let pressure: ScanPressure = { workers: 2, queued: 0, running: 0 };
  return {
    started,
    setPressure(value: ScanPressure): void {
      pressure = value;
    },
    source: { pressure: () => pressure },
    run(piece: number): Promise<string> {
      const done = deferred<string>();
      started.push({ piece, done });
      return done.promise;
    },
  };
}

test('runScanTasks: the window follows the pressure before each round; results stay in order', async () => {
  const fake = fakeRunner();
  const profile = newProfile();
  const tasks = Array.from({ length: 8 }, (_v, idx) => [idx]);
  const results = runScanTasks(tasks, (piece) => fake.run(piece), { maxWindow: 4, pressure: fake.source, profile })[Symbol.asyncIterator]();
  const first = results.next();
  await tick();
  assert.deepEqual(fake.started.map((entry) => entry.piece), [0, 1, 2, 3], 'idle: the full window');
  // Finish out of order: task 1 before task 0; nothing comes out before task 0.
  fake.started[1].done.resolve('r1');
  await tick();
  assert.equal(fake.started.length, 4);
  // Another query now has 7 tasks queued: the next round may keep only one in flight.
  fake.setPressure({ workers: 2, queued: 7, running: 2 });
  fake.started[0].done.resolve('r0');
  assert.deepEqual(await first, { value: 'r0', done: false });
  assert.equal(fake.started.length, 4, 'under pressure no new task starts while three are in flight');
  assert.deepEqual(await results.next(), { value: 'r1', done: false });
  assert.equal(fake.started.length, 4);
  fake.started[2].done.resolve('r2');
  fake.started[3].done.resolve('r3');
  assert.deepEqual(await results.next(), { value: 'r2', done: false });
  assert.deepEqual(await results.next(), { value: 'r3', done: false });
  assert.deepEqual(fake.started.map((entry) => entry.piece), [0, 1, 2, 3, 4], 'one task in flight under pressure');
  // Pressure gone: the window opens again.
  fake.setPressure({ workers: 2, queued: 0, running: 1 });
  fake.started[4].done.resolve('r4');
  assert.deepEqual(await results.next(), { value: 'r4', done: false });
  assert.deepEqual(fake.started.map((entry) => entry.piece), [0, 1, 2, 3, 4, 5, 6, 7]);
  for (const entry of fake.started.slice(5)) entry.done.resolve(`r${entry.piece}`);
  const rest: string[] = [];
  for (let next = await results.next(); !next.done; next = await results.next()) rest.push(next.value);
  assert.deepEqual(rest, ['r5', 'r6', 'r7']);
  assert.equal(profile.get('ScanTasksMaxInFlight'), 4);
  assert.ok(profile.get('ScanPressureLimitedRounds') >= 3, `pressure-limited rounds: ${profile.get('ScanPressureLimitedRounds')}`);
});

test('runScanTasks under pressure starts the next task when one settles, without waiting for the consumer, within maxWindow results held', async () => {
  const fake = fakeRunner();
  fake.setPressure({ workers: 2, queued: 6, running: 2 });
  const profile = newProfile();
  const results = runScanTasks([[0], [1], [2], [3]], (piece) => fake.run(piece), { maxWindow: 2, pressure: fake.source, profile })[Symbol.asyncIterator]();
  const first = results.next();
  await tick();
  assert.deepEqual(fake.started.map((entry) => entry.piece), [0], 'pressure: one task at a time');
  fake.started[0].done.resolve('r0');
  assert.deepEqual(await first, { value: 'r0', done: false });
  await tick();
  assert.deepEqual(fake.started.map((entry) => entry.piece), [0, 1]);
  // The consumer does not ask for more: a settled task still makes room for the next one...
  fake.started[1].done.resolve('r1');
  await tick();
  assert.deepEqual(fake.started.map((entry) => entry.piece), [0, 1, 2], 'the next starts when one settles');
  // ... until maxWindow (2) results wait for the consumer.
  fake.started[2].done.resolve('r2');
  await tick();
  assert.deepEqual(fake.started.map((entry) => entry.piece), [0, 1, 2], 'two results held: no fourth task until the consumer takes one');
  assert.deepEqual(await results.next(), { value: 'r1', done: false });
  await tick();
  assert.deepEqual(fake.started.map((entry) => entry.piece), [0, 1, 2, 3]);
  fake.started[3].done.resolve('r3');
  const rest: string[] = [];
  for (let next = await results.next(); !next.done; next = await results.next()) rest.push(next.value);
  assert.deepEqual(rest, ['r2', 'r3']);
  assert.equal(profile.get('ScanTasksMaxInFlight'), 1);
  assert.ok(profile.get('ScanPressureLimitedRounds') >= 1);
});

test('runScanTasks without a pressure source keeps a fixed window and never counts a limited round', async () => {
  let running = 0;
  let most = 0;
  const profile = newProfile();
  const run = async (piece: number): Promise<number> => {
    most = Math.max(most, ++running);
    await tick();
    running--;
    return piece;
  };
  const out: number[] = [];
  for await (const value of runScanTasks(Array.from({ length: 20 }, (_v, idx) => [idx]), run, { maxWindow: 4, profile })) out.push(value);
  assert.deepEqual(out, Array.from({ length: 20 }, (_v, idx) => idx));
  assert.equal(most, 4);
  assert.equal(profile.get('ScanTasksMaxInFlight'), 4);
  assert.equal(profile.get('ScanPressureLimitedRounds'), 0);
});

test('runScanTasks: pieces of one task run one after another; a failure rejects in turn and stops submissions', async () => {
  const active = new Set<number>();
  const order: number[] = [];
  const run = async (piece: number): Promise<number> => {
    const task = Math.floor(piece / 10);
    assert.ok(!active.has(task), 'two pieces of one task at once');
    active.add(task);
    order.push(piece);
    await tick();
    active.delete(task);
    if (piece === 21) throw new Error('piece 21 failed');
    return piece;
  };
  const tasks = [[0, 1, 2], [10, 11], [20, 21, 22], [30], [40], [50], [60], [70]];
  const out: number[] = [];
  await assert.rejects(
    (async () => {
      for await (const value of runScanTasks(tasks, run, { maxWindow: 2, profile: newProfile() })) out.push(value);
    })(),
    /piece 21 failed/,
  );
  assert.deepEqual(out, [0, 1, 2, 10, 11], 'results before the failure, in order');
  assert.ok(!order.includes(22), 'the failed task stops');
  await tick();
  await tick();
  assert.ok(!order.includes(60) && !order.includes(70), `no submissions after the failure: ${order.join(',')}`);
});

test('runScanTasks: a consumer that stops early stops submissions and the rest of a group', async () => {
  const order: number[] = [];
  const run = async (piece: number): Promise<number> => {
    order.push(piece);
    await tick();
    return piece;
  };
  const tasks = [[0], [10, 11, 12, 13, 14, 15], [20], [30], [40]];
  for await (const value of runScanTasks(tasks, run, { maxWindow: 2, profile: newProfile() })) {
    assert.equal(value, 0);
    break;
  }
  for (let turn = 0; turn < 10; turn++) await tick();
  assert.ok(!order.includes(30) && !order.includes(40), `no task started after the stop: ${order.join(',')}`);
  assert.ok(order.filter((piece) => piece >= 10 && piece < 20).length < 6, `the group stopped: ${order.join(',')}`);
});

/** A table of `segments` one-segment rowsets on one tablet, DUPLICATE KEY, without deletes. */
function tableOf(segmentRows: readonly number[]): TableState {
  const rowsets: RowsetRecord[] = segmentRows.map((numRows, idx) => ({ id: idx + 1, tabletId: 7, tableId: 1, txnId: idx + 1, version: idx + 2, segments: [segment(`r${idx}`, numRows)], numRows, dataSize: numRows * 8, createTime: 0 }));
  return { schema: { keysType: 'DUPLICATE' } as TableSchema, dbId: 1, tablets: [{ id: 7, tableId: 1, bucket: 0 }], rowsets, visibleVersion: segmentRows.length + 1 };
}

async function scanTasksOf(table: TableState, indexScan: { perSegment: boolean } | undefined, dynamic = true): Promise<{ tasks: ScanTask[]; profile: QueryProfile }> {
  const tasks: ScanTask[] = [];
  const pool: ScanTaskRunner = {
    size: 2,
    pressure: () => ({ workers: 2, queued: 0, running: 0 }),
    run: async (task): Promise<FragmentResult> => {
      tasks.push(task);
      return { kind: 'batches', batches: [] };
    },
  };
  const source = new OlapTableSource(table, { openSegment: () => Promise.reject(new Error('not read here')), scanPool: () => pool, parallelScanMinRows: 1, scanDynamicParallelism: dynamic });
  const profile = newProfile();
  const fragment = { columns: [], predicates: [], filter: null, aggregate: null };
  const results = source.scanParallel({ columns: [], predicates: [], limit: null, profile, ...(indexScan === undefined ? {} : { indexScan }) }, fragment);
  assert.ok(results !== null);
  for await (const result of results) assert.equal(result.kind, 'batches');
  return { tasks, profile };
}

test('scanParallel: many small segments are one task each for an index scan with the variable on, one grouped task with it off', async () => {
  const table = tableOf(Array.from({ length: 12 }, () => 5_000));
  const on = await scanTasksOf(table, { perSegment: true });
  assert.equal(on.profile.get('ParallelScanTasks'), 12);
  assert.deepEqual(on.tasks.map((task) => [task.segmentKey, task.rowStart, task.rowEnd]), table.rowsets.map((rowset) => [rowset.segments[0].key, 0, 5_000]));
  assert.equal(on.profile.get('ScanTasksMaxInFlight'), 4);
  const off = await scanTasksOf(table, { perSegment: false });
  assert.equal(off.profile.get('ParallelScanTasks'), 1, 'Doris\'s row split: 60,000 rows are one task');
  assert.equal(off.tasks.length, 12, 'its segments searched one after another');
  assert.equal(off.profile.get('ScanTasksMaxInFlight'), 1);
  // An ordinary scan keeps the row-range split: 32,768 rows per task.
  const ordinary = await scanTasksOf(tableOf([70_000, 5_000]), undefined, false);
  assert.deepEqual(ordinary.tasks.map((task) => [task.rowStart, task.rowEnd]), [[0, 32_768], [32_768, 65_536], [65_536, 70_000], [0, 5_000]]);
  assert.equal(ordinary.profile.get('ParallelScanTasks'), 4);
});
