/**
 * Async Group Commit into a table of an S3 vault through an S3 outage (the fault proxy resets every
 * request): INSERTs and Stream Loads with group_commit=async_mode keep being acknowledged into the WAL
 * while the table's WAL allowance (group_commit_max_wal_num_per_table) holds; past it a load gets
 * Doris's EXCEEDED_LIMIT error. Batch commits that fail keep their WALs, which are replayed with backoff:
 * when S3 returns every acknowledged row becomes visible exactly once. And the same with a SIGKILL during
 * the outage: the restart after S3 returns replays the WALs.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { queryRows } from '../helpers/mysql-client';
import { curlLoad, sleep } from '../stream-load/helpers';
import { insertInfo } from '../group-commit/helpers';
import { eventually, IN_VAULT, startFaultRig, type FaultRig } from './helpers';

const WAL_LIMIT = 4;
const ARGS = [
  '--disable_auto_compaction', 'true',
  '--group_commit_max_wal_num_per_table', String(WAL_LIMIT),
  '--group_commit_replay_wal_retry_interval_seconds', '1',
  '--group_commit_replay_wal_retry_interval_max_seconds', '2',
  '--recycle_interval_seconds', '1',
];
let rig: FaultRig;

before(async () => {
  rig = await startFaultRig({ args: ARGS });
  await rig.conn.query(`CREATE TABLE g (id INT NOT NULL, note VARCHAR(32)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2
    PROPERTIES (${IN_VAULT}, "group_commit_interval_ms" = "100")`);
});

after(async () => {
  await rig?.close();
});

/** Rows visible with ids in [from, to): count and distinct count. */
async function visibleIds(from: number, to: number): Promise<{ rows: number; distinct: number }> {
  const [[rows, distinct]] = await queryRows(rig.conn, `SELECT count(*), count(DISTINCT id) FROM g WHERE id >= ${from} AND id < ${to}`);
  return { rows: Number(rows), distinct: Number(distinct) };
}

/**
 * Async INSERTs of 10 rows each (ids from `start`), one batch each, until one is refused or `max` were
 * acknowledged; returns the ids acknowledged and the refusal.
 */
async function insertUntilRefused(start: number, max: number): Promise<{ ids: number[]; refusal: Error | null }> {
  const ids: number[] = [];
  for (let load = 0; load < max; load++) {
    const first = start + load * 10;
    const rows = Array.from({ length: 10 }, (_, idx) => `(${first + idx}, 'outage ${load}')`).join(', ');
    try {
      const info = await insertInfo(rig.conn, `INSERT INTO g VALUES ${rows}`);
      assert.equal(info.status, 'PREPARE', 'acknowledged from the WAL, not yet visible');
      for (let idx = 0; idx < 10; idx++) ids.push(first + idx);
    } catch (err) {
      return { ids, refusal: err as Error };
    }
    await sleep(250); // the batch (100 ms) closes: the next load opens a new one with a WAL of its own
  }
  return { ids, refusal: null };
}

test('async group commit keeps acknowledging into the WAL through an S3 outage and publishes when S3 returns', async () => {
  await rig.conn.query("SET group_commit = 'async_mode'");
  rig.proxy.outage('reset');
  let acknowledged: number[];
  try {
    // A Stream Load with the group_commit header is acknowledged from the WAL too.
    const file = path.join(rig.dataDir, 'gc.csv');
    fs.writeFileSync(file, Array.from({ length: 50 }, (_, idx) => `${10_000 + idx},stream ${idx}`).join('\n') + '\n');
    const streamed = await curlLoad(`http://127.0.0.1:${rig.server.ports.http_port}/api/fdb/g/_stream_load`, file, ['column_separator:,', 'group_commit:async_mode']);
    assert.equal(streamed.json.Status, 'Success', streamed.body);
    assert.equal(streamed.json.NumberLoadedRows, 50);
    await sleep(250);
    const inserted = await insertUntilRefused(0, 20);
    acknowledged = [...Array.from({ length: 50 }, (_, idx) => 10_000 + idx), ...inserted.ids];
    assert.ok(inserted.ids.length >= 10, `loads were acknowledged during the outage: ${inserted.ids.length / 10}`);
    assert.ok(inserted.refusal !== null, 'past the WAL allowance a load is refused');
    // Doris's words; the last replay failure is named once a batch commit has failed (S3's error).
    assert.match(inserted.refusal.message, /^errCode = 2, detailMessage = \[EXCEEDED_LIMIT\]Too many group commit async WALs for table g(, last WAL replay failure: .*IO error: put data\/.*)?$/);
    assert.deepEqual(await visibleIds(0, 20_000), { rows: 0, distinct: 0 }, 'nothing is visible while S3 is down');
  } finally {
    rig.proxy.outage(null);
  }
  // S3 is back: the WALs are replayed (with backoff) and every acknowledged row shows up exactly once.
  assert.ok(await eventually(async () => (await visibleIds(0, 20_000)).rows >= acknowledged.length, 60_000), `all ${acknowledged.length} acknowledged rows published`);
  assert.deepEqual(await visibleIds(0, 20_000), { rows: acknowledged.length, distinct: acknowledged.length });
  const walDir = path.join(rig.dataDir, 'wal');
  assert.ok(await eventually(async () => listWals(walDir).length === 0, 20_000), `the WALs are gone: ${listWals(walDir).join(' ')}`);
  // The table takes async loads again.
  const info = await insertInfo(rig.conn, "INSERT INTO g VALUES (19999, 'after')");
  assert.equal(info.status, 'PREPARE');
  assert.ok(await eventually(async () => (await visibleIds(19_999, 20_000)).rows === 1, 20_000));
});

test('SIGKILL during an S3 outage with acknowledged async loads: the restart after S3 returns publishes them', async () => {
  assert.ok(await eventually(async () => listWals(path.join(rig.dataDir, 'wal')).length === 0, 60_000), 'no WAL left from before');
  await rig.conn.query("SET group_commit = 'async_mode'");
  rig.proxy.outage('reset');
  let inserted: { ids: number[]; refusal: Error | null };
  try {
    inserted = await insertUntilRefused(30_000, WAL_LIMIT - 1);
    assert.equal(inserted.refusal, null);
    assert.equal(inserted.ids.length, (WAL_LIMIT - 1) * 10);
    await rig.restart('kill', ARGS);
  } finally {
    rig.proxy.outage(null);
  }
  assert.ok(await eventually(async () => (await visibleIds(30_000, 40_000)).rows >= inserted.ids.length, 60_000), 'every acknowledged row is published after the restart');
  assert.deepEqual(await visibleIds(30_000, 40_000), { rows: inserted.ids.length, distinct: inserted.ids.length });
});

function listWals(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && !entry.parentPath.includes('.corrupt')).map((entry) => entry.name);
}
