/**
 * One merge for the table models: rows of one key give the same answer whether they were loaded together
 * (merged on flush, in the memtable), in separate loads (merged on read) or compacted (merged by the
 * compaction, then read). Strings compare as UTF-8 bytes in every path — '\uFF61' (EF BD A1) sorts before
 * '\u{1F600}' (F0 9F 98 80) although its UTF-16 code unit is larger than the emoji's surrogates —, a
 * NULL key is not the string 'null', and a merge-on-read UNIQUE KEY table keeps the row with the largest
 * sequence value even when it was loaded first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { startGalene, updateBackendConfig } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const HALFWIDTH = '\uFF61';
const EMOJI = '\u{1F600}';

async function versionCount(conn: Connection, table: string): Promise<number> {
  const rows = await queryRows(conn, `SHOW TABLETS FROM ${table}`);
  return rows.reduce((sum, row) => sum + Number(row[2]), 0);
}

const EXPECTED = {
  agg: [
    ['1', HALFWIDTH, EMOJI, 'a'],
    ['2', HALFWIDTH, EMOJI, 'a'],
  ],
  nk: [
    [null, '1'],
    ['null', '2'],
  ],
  seq: [['1', '5', 'kept']],
};

async function check(conn: Connection, when: string): Promise<void> {
  assert.deepEqual(await queryRows(conn, 'SELECT k, mn, mx, lo FROM agg ORDER BY k'), EXPECTED.agg, `string MIN/MAX ${when}`);
  assert.deepEqual(await queryRows(conn, 'SELECT k, s FROM nk ORDER BY k'), EXPECTED.nk, `NULL and 'null' keys ${when}`);
  assert.deepEqual(await queryRows(conn, 'SELECT k, seq, v FROM seq ORDER BY k'), EXPECTED.seq, `sequence column ${when}`);
}

test('AGGREGATE and merge-on-read UNIQUE merges agree on flush, on read and after compaction', async () => {
  // Compaction starts after the last load: a merge of the first five loads alone would leave too few
  // rowsets of one size tier for the rest ever to be merged into one.
  const server = await startGalene({ args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn = await connect(server.ports.query_port, { charset: 'utf8mb4' });
    await conn.query('CREATE DATABASE mm');
    await conn.query('USE mm');
    await conn.query('CREATE TABLE agg (k INT, mn VARCHAR(8) MIN, mx VARCHAR(8) MAX, lo VARCHAR(8) MIN) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await conn.query('CREATE TABLE nk (k VARCHAR(8) NULL, s BIGINT SUM) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await conn.query(
      `CREATE TABLE seq (k INT, seq INT, v VARCHAR(8)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "false", "function_column.sequence_col" = "seq")`,
    );
    // Key 1: both strings in one load (merged on flush). Key 2: one per load (merged on read).
    await conn.query('INSERT INTO agg VALUES (1, ?, ?, ?), (1, ?, ?, ?)', [EMOJI, HALFWIDTH, 'a', HALFWIDTH, EMOJI, 'b']);
    await conn.query('INSERT INTO agg VALUES (2, ?, ?, ?)', [EMOJI, HALFWIDTH, 'b']);
    await conn.query('INSERT INTO agg VALUES (2, ?, ?, ?)', [HALFWIDTH, EMOJI, 'a']);
    await conn.query('INSERT INTO nk VALUES (NULL, 1)');
    await conn.query("INSERT INTO nk VALUES ('null', 2)");
    await conn.query("INSERT INTO seq VALUES (1, 5, 'kept')");
    await conn.query("INSERT INTO seq VALUES (1, 3, 'older')");
    await check(conn, 'before compaction');
    // Enough further loads (that change no answer) for the background compaction to merge each tablet.
    for (let load = 0; load < 4; load++) {
      await conn.query("INSERT INTO agg VALUES (2, ?, '', 'z')", [EMOJI]);
      await conn.query('INSERT INTO nk VALUES (NULL, 0)');
      await conn.query("INSERT INTO seq VALUES (1, 1, 'older')");
    }
    await check(conn, 'before compaction, more loads');
    await updateBackendConfig(server.ports.webserver_port, 'disable_auto_compaction=false');
    const deadline = Date.now() + 60_000;
    while ((await versionCount(conn, 'agg')) > 1 || (await versionCount(conn, 'nk')) > 1 || (await versionCount(conn, 'seq')) > 1) {
      assert.ok(Date.now() < deadline, 'compaction merged every tablet within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await check(conn, 'after compaction');
    await conn.end();
  } finally {
    await server.stop();
  }
});
