/**
 * Concurrent partial column updates of the same keys on a merge-on-write UNIQUE KEY table all survive:
 * each load fills its missing columns from the rows visible when it read them, and at publish re-reads
 * the columns of keys written by loads published since (Doris does the same), so no load's column is
 * overwritten with a stale value. Eight Stream Loads (partial_columns: true) over real sockets, then eight
 * INSERTs with enable_unique_key_partial_update on eight connections, each setting a different column of
 * the same keys, for several rounds; afterwards every column holds its newest update, each key has one
 * row, and no segment file is left behind.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad, segmentFiles } from '../stream-load/helpers';

const COLUMNS = 8;
const KEYS = 20;
const ROUNDS = 3;

test('concurrent partial column updates of one key each keep their column', async () => {
  const dataDir = makeDataDir('galene-partial-');
  const files = makeDataDir('galene-partial-files-');
  const server = await startGalene({ dataDir, args: ['--disable_auto_compaction', 'true'] });
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE pu');
    await conn.query('USE pu');
    const valueColumns = Array.from({ length: COLUMNS }, (_unused, colIdx) => `c${colIdx}`);
    await conn.query(`CREATE TABLE t (k INT, ${valueColumns.map((name) => `${name} INT`).join(', ')}) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2 PROPERTIES ("enable_unique_key_merge_on_write" = "true")`);
    const keys = Array.from({ length: KEYS }, (_unused, keyIdx) => keyIdx + 1);
    await conn.query(`INSERT INTO t VALUES ${keys.map((key) => `(${key}, ${valueColumns.map(() => '0').join(', ')})`).join(', ')}`);
    const expected = (value: (colIdx: number) => number): string[][] => keys.map((key) => [String(key), ...valueColumns.map((_name, colIdx) => String(value(colIdx)))]);
    const sessions = await Promise.all(valueColumns.map(() => connect(server.ports.query_port, { database: 'pu' })));
    for (const session of sessions) await session.query('SET enable_unique_key_partial_update = true');
    for (let round = 1; round <= ROUNDS; round++) {
      // Stream Load: load N sets column cN of every key to round * 100 + N.
      const streamValue = (colIdx: number): number => round * 100 + colIdx;
      const results = await Promise.all(
        valueColumns.map((name, colIdx) => {
          const file = path.join(files, `r${round}-${name}.csv`);
          fs.writeFileSync(file, keys.map((key) => `${key},${streamValue(colIdx)}\n`).join(''));
          return curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/pu/t/_stream_load`, file, ['column_separator:,', 'partial_columns:true', `columns:k,${name}`]);
        }),
      );
      for (const result of results) assert.equal(result.json.Status, 'Success', result.body);
      assert.deepEqual(await queryRows(conn, `SELECT k, ${valueColumns.join(', ')} FROM t ORDER BY k`), expected(streamValue), `round ${round}: every Stream Load's column survived`);
      // INSERT: session N sets column cN of every key to -(round * 100 + N).
      const insertValue = (colIdx: number): number => -(round * 100 + colIdx);
      await Promise.all(sessions.map((session, colIdx) => session.query(`INSERT INTO t (k, c${colIdx}) VALUES ${keys.map((key) => `(${key}, ${insertValue(colIdx)})`).join(', ')}`)));
      assert.deepEqual(await queryRows(conn, `SELECT k, ${valueColumns.join(', ')} FROM t ORDER BY k`), expected(insertValue), `round ${round}: every INSERT's column survived`);
    }
    assert.deepEqual(await queryRows(conn, 'SELECT count(*), count(DISTINCT k) FROM t'), [[String(KEYS), String(KEYS)]]);
    const segments = await segmentFiles(conn, dataDir, ['t']);
    assert.equal(segments.onDisk, segments.referenced, 'every segment file on disk belongs to a visible rowset');
    for (const session of sessions) await session.end();
    await conn.end();
  } finally {
    await server.stop();
  }
});
