/**
 * Group Commit for INSERT INTO VALUES over mysql2 (text and prepared, batched) against a real server:
 * batches shared by concurrent loads (same label and txnId), sync_mode visibility, async_mode commit by
 * data size, few versions from many loads, the precedence of the session variable over the table
 * property, the loads that never group-commit, identical validation, and batches per schema version.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { insertInfo, tabletVersions, waitForRows, walFiles } from './helpers';

let server: GaleneProcess;
let conn: Connection;

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE gc');
  await conn.query('USE gc');
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

async function session(setup: string[] = []): Promise<Connection> {
  const other = await connect(server.ports.query_port, { database: 'gc' });
  for (const sql of setup) await other.query(sql);
  return other;
}

const table = (name: string, properties: Record<string, string> = {}, keys = 'DUPLICATE KEY(id)', buckets = 1): string =>
  `CREATE TABLE ${name} (id INT NOT NULL, name VARCHAR(50) NULL, score INT NULL) ${keys} DISTRIBUTED BY HASH(id) BUCKETS ${buckets} PROPERTIES (${Object.entries({ replication_num: '1', ...properties })
    .map(([key, value]) => `"${key}" = "${value}"`)
    .join(', ')})`;

test('async_mode: loads share one batch (label, txnId); rows become visible when the batch reaches group_commit_data_bytes, then its WAL is deleted', async () => {
  await conn.query(table('a1', { group_commit_interval_ms: '600000', group_commit_data_bytes: '4000' }));
  const s = await session(['SET group_commit = async_mode']);
  const first = await insertInfo(s, "INSERT INTO a1 VALUES (1, 'Bob', 90), (2, 'Alice', 99)");
  assert.match(first.label, /^group_commit_[0-9a-f]{16}_[0-9a-f]{16}$/);
  assert.equal(first.status, 'PREPARE');
  assert.equal(first.query_id, undefined, 'async_mode answers without query_id');
  const second = await insertInfo(s, "INSERT INTO a1 (id, name) VALUES (3, 'John')");
  assert.deepEqual([second.label, second.txnId], [first.label, first.txnId], 'the second load joined the same batch');
  assert.deepEqual(await queryRows(conn, 'SELECT * FROM a1'), [], 'not visible before the batch commits');
  assert.equal(walFiles(server.dataDir).length, 1, 'one WAL for the open batch');
  // ~4 KB of rows passes group_commit_data_bytes: the batch commits now, not in ten minutes.
  const values = Array.from({ length: 200 }, (_, idx) => `(${idx + 10}, 'filler-${idx}', ${idx})`).join(', ');
  const third = await insertInfo(s, `INSERT INTO a1 VALUES ${values}`);
  assert.equal(third.label, first.label);
  const rows = await waitForRows(conn, 'SELECT id, name, score FROM a1 WHERE id < 10 ORDER BY id', (got) => got.length === 3);
  assert.deepEqual(rows, [['1', 'Bob', '90'], ['2', 'Alice', '99'], ['3', 'John', null]]);
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM a1'), [['203']]);
  await waitForRows(conn, 'SELECT 1', () => walFiles(server.dataDir).length === 0);
  assert.deepEqual(await tabletVersions(conn, 'a1'), [1], 'one version for the three loads');
  const fourth = await insertInfo(s, "INSERT INTO a1 VALUES (4, 'Next', 1)");
  assert.notEqual(fourth.label, first.label, 'a new batch after the commit');
  await s.end();
});

test('sync_mode: concurrent INSERTs share batches, each returns with its rows visible, and query_id is reported', async () => {
  await conn.query(table('s1', { group_commit_interval_ms: '300' }, 'DUPLICATE KEY(id)', 2));
  // WAL paths name ids, not tables: what exists now belongs to the earlier tests' async loads.
  const walsBefore = new Set(walFiles(server.dataDir));
  const sessions = await Promise.all(Array.from({ length: 12 }, () => session(['SET group_commit = sync_mode'])));
  const infos = await Promise.all(
    sessions.map(async (s, sessionIdx) => {
      const info = await insertInfo(s, `INSERT INTO s1 VALUES (${sessionIdx}, 'n${sessionIdx}', ${sessionIdx * 10})`);
      // Visible as soon as the INSERT returned.
      assert.deepEqual(await queryRows(s, `SELECT name FROM s1 WHERE id = ${sessionIdx}`), [[`n${sessionIdx}`]]);
      return info;
    }),
  );
  for (const info of infos) {
    assert.match(info.label, /^group_commit_/);
    assert.equal(info.status, 'PREPARE');
    assert.ok(info.query_id !== undefined && info.query_id.length > 0, 'sync_mode adds query_id');
  }
  const labels = new Set(infos.map((info) => info.label));
  assert.ok(labels.size < infos.length, `12 concurrent loads shared batches (${labels.size} labels)`);
  for (const label of labels) assert.equal(new Set(infos.filter((info) => info.label === label).map((info) => info.txnId)).size, 1, 'one txnId per label');
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM s1'), [['12']]);
  assert.deepEqual(walFiles(server.dataDir).filter((file) => !walsBefore.has(file)), [], 'sync_mode writes no WAL');
  await Promise.all(sessions.map((s) => s.end()));
});

test('prepared, batched INSERTs (mysql2 execute, 100 rows a statement) in sync_mode and async_mode: every row once, few versions', async () => {
  for (const mode of ['sync_mode', 'async_mode'] as const) {
    const name = `p_${mode.replace('_mode', '')}`;
    await conn.query(table(name, { group_commit_interval_ms: '300' }, 'DUPLICATE KEY(id)', 2));
    const sessions = await Promise.all(Array.from({ length: 8 }, () => session([`SET group_commit = ${mode}`])));
    const placeholders = Array.from({ length: 100 }, () => '(?, ?, ?)').join(', ');
    const statements = 4;
    await Promise.all(
      sessions.map(async (s, sessionIdx) => {
        for (let stmtIdx = 0; stmtIdx < statements; stmtIdx++) {
          const params: unknown[] = [];
          for (let rowIdx = 0; rowIdx < 100; rowIdx++) {
            const id = (sessionIdx * statements + stmtIdx) * 100 + rowIdx;
            params.push(id, `name${id}`, id % 97);
          }
          const info = await insertInfo(s, `INSERT INTO ${name} VALUES ${placeholders}`, params);
          assert.match(info.label, /^group_commit_/);
        }
      }),
    );
    const total = sessions.length * statements * 100;
    const [[count, distinct, sum]] = await waitForRows(conn, `SELECT count(*), count(DISTINCT id), sum(id) FROM ${name}`, (rows) => rows[0][0] === String(total));
    assert.deepEqual([count, distinct, sum], [String(total), String(total), String((total * (total - 1)) / 2)]);
    const versions = await tabletVersions(conn, name);
    const loads = sessions.length * statements;
    assert.ok(versions.every((perTablet) => perTablet < loads / 2), `${loads} loads made ${versions.join('/')} versions per tablet`);
    await Promise.all(sessions.map((s) => s.end()));
  }
});

test('precedence: the session variable group_commit, when set, over the table property group_commit_mode', async () => {
  await conn.query(table('pr', { group_commit_mode: 'sync_mode', group_commit_interval_ms: '100' }));
  const plain = await session();
  const byTable = await insertInfo(plain, "INSERT INTO pr VALUES (1, 'table', 1)");
  assert.match(byTable.label, /^group_commit_/, 'a session that did not SET group_commit follows the table property');
  assert.ok(byTable.query_id !== undefined, 'the table says sync_mode');
  await plain.query('SET group_commit = off_mode');
  const off = await insertInfo(plain, "INSERT INTO pr VALUES (2, 'off', 2)");
  assert.doesNotMatch(off.label, /^group_commit_/, 'SET group_commit = off_mode wins over the table property');
  assert.equal(off.status, 'VISIBLE');
  await plain.query('SET group_commit = async_mode');
  const async = await insertInfo(plain, "INSERT INTO pr VALUES (3, 'async', 3)");
  assert.match(async.label, /^group_commit_/);
  assert.equal(async.query_id, undefined, 'the session says async_mode');
  await conn.query('ALTER TABLE pr SET ("group_commit_mode" = "off_mode")');
  const fresh = await session();
  const afterAlter = await insertInfo(fresh, "INSERT INTO pr VALUES (4, 'none', 4)");
  assert.doesNotMatch(afterAlter.label, /^group_commit_/);
  await assert.rejects(plain.query('SET group_commit = fast_mode'), /group_commit|fast_mode/);
  await waitForRows(conn, 'SELECT count(*) FROM pr', (rows) => rows[0][0] === '4');
  await Promise.all([plain.end(), fresh.end()]);
});

test('loads that never group-commit: WITH LABEL, expressions in VALUES, INSERT ... SELECT, BEGIN ... COMMIT, light_schema_change = false, partial-column updates', async () => {
  await conn.query(table('ex', { group_commit_interval_ms: '100' }));
  await conn.query(table('ex_nolsc', { light_schema_change: 'false', group_commit_interval_ms: '100' }));
  const s = await session(['SET group_commit = async_mode']);
  const labelled = await insertInfo(s, "INSERT INTO ex WITH LABEL my_label_1 VALUES (1, 'a', 1)");
  assert.deepEqual([labelled.label, labelled.status], ['my_label_1', 'VISIBLE']);
  const expression = await insertInfo(s, "INSERT INTO ex VALUES (1 + 100, concat('b', 'c'), 2)");
  assert.equal(expression.status, 'VISIBLE');
  assert.doesNotMatch(expression.label, /^group_commit_/);
  const negative = await insertInfo(s, "INSERT INTO ex VALUES (-5, NULL, DEFAULT)");
  assert.match(negative.label, /^group_commit_/, 'negative numbers, NULL and DEFAULT are still literals');
  const select = await insertInfo(s, 'INSERT INTO ex SELECT 7, name, score FROM ex WHERE id = 1');
  assert.doesNotMatch(select.label, /^group_commit_/);
  await s.query('BEGIN WITH LABEL txn_label_1');
  const inTxn = await insertInfo(s, "INSERT INTO ex VALUES (8, 'txn', 8)");
  await s.query('COMMIT');
  assert.equal(inTxn.label, 'txn_label_1');
  const noLsc = await insertInfo(s, "INSERT INTO ex_nolsc VALUES (9, 'x', 9)");
  assert.doesNotMatch(noLsc.label, /^group_commit_/);
  // Partial-column update of a merge-on-write UNIQUE KEY table.
  await conn.query(table('ex_mow', { enable_unique_key_merge_on_write: 'true', group_commit_interval_ms: '100' }, 'UNIQUE KEY(id)'));
  await s.query("INSERT INTO ex_mow VALUES (1, 'full', 1)");
  await waitForRows(conn, 'SELECT count(*) FROM ex_mow', (rows) => rows[0][0] === '1');
  await s.query('SET enable_unique_key_partial_update = true');
  const partial = await insertInfo(s, 'INSERT INTO ex_mow (id, score) VALUES (1, 50)');
  assert.doesNotMatch(partial.label, /^group_commit_/, 'partial update takes the normal path');
  assert.deepEqual(await queryRows(conn, 'SELECT id, name, score FROM ex_mow'), [['1', 'full', '50']]);
  await s.end();
});

test('validation is the same with and without Group Commit (apache/doris #33453): the same statements fail with the same errors', async () => {
  await conn.query(table('va', { group_commit_interval_ms: '100' }));
  const bad = ["INSERT INTO va VALUES ('abc', 'x', 1)", "INSERT INTO va VALUES (NULL, 'x', 1)", "INSERT INTO va VALUES (1, 'x', 99999999999)", 'INSERT INTO va VALUES (1, 2)'];
  const messages: Record<string, string[]> = {};
  for (const mode of ['off_mode', 'sync_mode', 'async_mode']) {
    const s = await session([`SET group_commit = ${mode}`]);
    messages[mode] = [];
    for (const sql of bad) {
      const err = await s.query(sql).then(
        () => null,
        (error: Error) => error,
      );
      assert.ok(err !== null, `${sql} must fail in ${mode}`);
      messages[mode].push(err.message);
    }
    await s.end();
  }
  assert.deepEqual(messages.sync_mode, messages.off_mode);
  assert.deepEqual(messages.async_mode, messages.off_mode);
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM va'), [['0']]);
});

test('a property change (new schema version) opens a new batch; the old one still commits', async () => {
  await conn.query(table('sv', { group_commit_interval_ms: '1500' }));
  const s = await session(['SET group_commit = async_mode']);
  const before = await insertInfo(s, "INSERT INTO sv VALUES (1, 'v1', 1)");
  await conn.query('ALTER TABLE sv SET ("group_commit_interval_ms" = "200")');
  const afterAlter = await insertInfo(s, "INSERT INTO sv VALUES (2, 'v2', 2)");
  assert.notEqual(afterAlter.label, before.label, 'loads of the new schema version join a new batch');
  await waitForRows(conn, 'SELECT id FROM sv ORDER BY id', (rows) => rows.length === 2);
  await s.end();
});

test('UNIQUE KEY: batches may commit out of load order; a sequence column (function_column.sequence_col) keeps the newest row', async () => {
  const s = await session(['SET group_commit = async_mode']);
  for (const withSequence of [false, true]) {
    const name = withSequence ? 'u_seq' : 'u_plain';
    await conn.query(
      `CREATE TABLE ${name} (id INT NOT NULL, v VARCHAR(20), ver INT) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1", "enable_unique_key_merge_on_write" = "true", "group_commit_interval_ms" = "1500"${withSequence ? ', "function_column.sequence_col" = "ver"' : ''})`,
    );
    // The older update joins a batch that commits in 1.5 s; the newer one, after a property change,
    // joins a new batch that commits in 0.1 s: the newer update becomes visible first.
    await s.query(`INSERT INTO ${name} VALUES (1, 'older', 1)`);
    await conn.query(`ALTER TABLE ${name} SET ("group_commit_interval_ms" = "100")`);
    await s.query(`INSERT INTO ${name} VALUES (1, 'newer', 2)`);
    await waitForRows(conn, `SELECT v FROM ${name}`, (rows) => rows.length === 1 && rows[0][0] === 'newer');
    // Both batches committed: two versions.
    const deadline = Date.now() + 20_000;
    while ((await tabletVersions(conn, name))[0] < 2) {
      assert.ok(Date.now() < deadline, 'the older batch did not commit');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [[value]] = await queryRows(conn, `SELECT v FROM ${name}`);
    assert.equal(value, withSequence ? 'newer' : 'older', withSequence ? 'the sequence column keeps the row with the highest ver' : 'without it the batch committed last wins');
  }
  await s.end();
});

test('a column change drains the open batches first: rows loaded before ADD COLUMN are visible when it returns', async () => {
  await conn.query(table('alter1', { group_commit_interval_ms: '600000' }));
  const s = await session(['SET group_commit = async_mode']);
  const loaded = await insertInfo(s, "INSERT INTO alter1 VALUES (1, 'before', 1), (2, 'before', 2)");
  assert.equal(loaded.status, 'PREPARE');
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM alter1'), [['0']], 'still in the open batch');
  // Loads racing the change either join a batch or get the retryable "blocked on schema change" error.
  const racer = await session(['SET group_commit = async_mode']);
  const racing = Array.from({ length: 10 }, (_, idx) =>
    racer.query(`INSERT INTO alter1 (id, name, score) VALUES (${100 + idx}, 'racing', ${idx})`).then(
      () => 'ok',
      (err: { message: string }) => {
        assert.match(err.message, /blocked on schema change/);
        return 'blocked';
      },
    ),
  );
  await conn.query('ALTER TABLE alter1 ADD COLUMN extra INT DEFAULT "5"');
  assert.deepEqual(await queryRows(conn, "SELECT count(*), sum(extra) FROM alter1 WHERE name = 'before'"), [['2', '10']], 'the old batch committed before ALTER returned');
  const accepted = (await Promise.all(racing)).filter((outcome) => outcome === 'ok').length;
  await s.query("INSERT INTO alter1 VALUES (3, 'after', 3, 30)");
  // Another column change drains the batches opened since (they would otherwise wait 10 minutes).
  await conn.query('ALTER TABLE alter1 ADD COLUMN extra2 INT');
  assert.deepEqual(await queryRows(conn, "SELECT count(*) FROM alter1 WHERE name IN ('racing', 'after')"), [[String(accepted + 1)]], 'every acknowledged load is visible once');
  assert.deepEqual(await queryRows(conn, "SELECT extra FROM alter1 WHERE name = 'after'"), [['30']]);
  await s.end();
  await racer.end();
});
