/**
 * ANALYZE TABLE, SHOW COLUMN STATS, SHOW TABLE STATS and DROP STATS against a real server over mysql2:
 * the collected values (checked by hand against the rows loaded), Doris's result columns, persistence
 * across a restart, and the errors for bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRecords } from '../helpers/mysql-client';

const COLUMN_STATS_NAMES = [
  'column_name', 'index_name', 'count', 'ndv', 'num_null', 'data_size', 'avg_size_byte', 'min', 'max', 'method', 'type', 'trigger',
  'query_times', 'updated_time', 'update_rows', 'last_analyze_row_count', 'last_analyze_version',
];

describe('column statistics', () => {
  let server: GaleneProcess;
  let conn: Connection;

  before(async () => {
    server = await startGalene();
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE st');
    await conn.query('USE st');
    await conn.query('CREATE TABLE t (k INT, s VARCHAR(10), d DATE, v DOUBLE, a ARRAY<INT>) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query("INSERT INTO t VALUES (1, 'a', '2024-01-01', 1.5, [1]), (2, 'bb', '2024-02-01', NULL, NULL), (3, NULL, '2024-03-01', 2.5, []), (3, 'ccc', NULL, 4, [2])");
  });

  after(async () => {
    await conn?.end();
    await server?.stop();
  });

  test('SHOW TABLE STATS before ANALYZE: the row count from rowset metadata, nothing analyzed', async () => {
    const [row] = await queryRecords(conn, 'SHOW TABLE STATS t');
    assert.equal(row.row_count, '4');
    assert.equal(row.updated_rows, '4');
    assert.equal(row.columns, '[]');
    assert.equal(row.last_analyze_time, 'N/A');
    assert.deepEqual(await queryRecords(conn, 'SHOW COLUMN STATS t'), []);
  });

  test('ANALYZE TABLE ... WITH SYNC collects count, ndv, nulls, sizes, min and max of every scalar column', async () => {
    await conn.query('ANALYZE TABLE t WITH SYNC');
    const rows = await queryRecords(conn, 'SHOW COLUMN STATS t');
    assert.deepEqual(Object.keys(rows[0]), COLUMN_STATS_NAMES);
    const pick = (row: Record<string, string | null>) => [row.column_name, row.index_name, row.count, row.ndv, row.num_null, row.data_size, row.avg_size_byte, row.min, row.max, row.method, row.type, row.trigger];
    // The ARRAY column is skipped, as Doris skips complex types.
    assert.deepEqual(rows.map(pick), [
      ['k', 't', '4.0', '3.0', '0.0', '16.0', '4.0', '1', '3', 'FULL', 'FUNDAMENTALS', 'MANUAL'],
      ['s', 't', '4.0', '3.0', '1.0', '6.0', '1.5', "'a'", "'ccc'", 'FULL', 'FUNDAMENTALS', 'MANUAL'],
      ['d', 't', '4.0', '3.0', '1.0', '12.0', '3.0', "'2024-01-01'", "'2024-03-01'", 'FULL', 'FUNDAMENTALS', 'MANUAL'],
      ['v', 't', '4.0', '3.0', '1.0', '24.0', '6.0', '1.5', '4', 'FULL', 'FUNDAMENTALS', 'MANUAL'],
    ]);
    assert.equal(rows[0].last_analyze_row_count, '4');
    assert.match(rows[0].updated_time ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const [table] = await queryRecords(conn, 'SHOW TABLE STATS t');
    assert.equal(table.columns, '[t:k, t:s, t:d, t:v]');
    assert.equal(table.updated_rows, '0');
    assert.equal(table.trigger, 'MANUAL');
  });

  test('ANALYZE without WITH SYNC answers the job row; named columns only', async () => {
    const [job] = await queryRecords(conn, 'ANALYZE TABLE t (k, s)');
    assert.deepEqual([job.Catalog_Name, job.DB_Name, job.Table_Name, job.Columns], ['internal', 'st', 't', '[k,s]']);
    assert.match(String(job.Job_Id), /^\d+$/);
    const rows = await queryRecords(conn, 'SHOW COLUMN STATS t (s)');
    assert.deepEqual(rows.map((row) => row.column_name), ['s']);
  });

  test('a load after ANALYZE shows as updated rows', async () => {
    await conn.query("INSERT INTO t VALUES (9, 'z', '2025-01-01', 9, NULL)");
    const [table] = await queryRecords(conn, 'SHOW TABLE STATS t');
    assert.equal(table.row_count, '5');
    assert.equal(table.updated_rows, '1');
    const [k] = await queryRecords(conn, 'SHOW COLUMN STATS t (k)');
    assert.equal(k.update_rows, '1');
    assert.equal(k.max, '3');
  });

  test('statistics survive a restart', async () => {
    await conn.end();
    await server.stop();
    server = await startGalene({ dataDir: server.dataDir });
    conn = await connect(server.ports.query_port, { database: 'st' });
    const rows = await queryRecords(conn, 'SHOW COLUMN STATS t');
    assert.deepEqual(rows.map((row) => [row.column_name, row.ndv]), [['k', '3.0'], ['s', '3.0'], ['d', '3.0'], ['v', '3.0']]);
  });

  test('DROP STATS of some columns, then of the table', async () => {
    await conn.query('DROP STATS t (k)');
    assert.deepEqual((await queryRecords(conn, 'SHOW COLUMN STATS t')).map((row) => row.column_name), ['s', 'd', 'v']);
    await conn.query('DROP STATS t');
    assert.deepEqual(await queryRecords(conn, 'SHOW COLUMN STATS t'), []);
  });

  test('bad input gets clear errors and changes nothing', async () => {
    await assert.rejects(conn.query('ANALYZE TABLE nope'), { errno: 1146 });
    await assert.rejects(conn.query('ANALYZE TABLE t (nope)'), { errno: 1054, message: "Unknown column 'nope' in 't'" });
    await assert.rejects(conn.query('ANALYZE TABLE t (a)'), /not supported to analyze/);
    await assert.rejects(conn.query('ANALYZE TABLE t WITH SAMPLE PERCENT 10'), { errno: 1235 });
    await assert.rejects(conn.query('SHOW COLUMN STATS t (nope)'), { errno: 1054 });
    await assert.rejects(conn.query('DROP STATS nope'), { errno: 1146 });
    assert.deepEqual(await queryRecords(conn, 'SHOW COLUMN STATS t'), []);
  });
});
