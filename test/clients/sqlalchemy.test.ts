/**
 * Python clients against a real Galene process: PyMySQL + SQLAlchemy 1.4's MySQL dialect (reflection,
 * Table autoload, Core SELECT) and pandas (read_sql_table, read_sql_query, to_sql creating a table and
 * appending to a UNIQUE KEY table), from Debian's python3-pymysql, python3-sqlalchemy and python3-pandas.
 * test/clients/sqlalchemy_check.py does the calls and prints what it saw as JSON.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect } from '../helpers/mysql-client';

const PYTHON = '/usr/bin/python3';
const hasModules = (): boolean => {
  if (!existsSync(PYTHON)) return false;
  return ['pymysql', 'sqlalchemy', 'pandas'].every((name) => existsSync(`/usr/lib/python3/dist-packages/${name}`));
};
const skip = hasModules() ? false : 'python3-pymysql, python3-sqlalchemy or python3-pandas not installed';
let server: GaleneProcess;
let root: Connection;

before(async () => {
  if (skip) return;
  server = await startGalene();
  root = await connect(server.ports.query_port, { multipleStatements: true });
  await root.query(`CREATE DATABASE py; USE py;
    CREATE TABLE orders (id BIGINT NOT NULL COMMENT 'order id', region VARCHAR(16) NOT NULL, amount DECIMAL(10,2), note STRING, ts DATETIME(3),
      INDEX idx_note (note) USING INVERTED) UNIQUE KEY(id, region) DISTRIBUTED BY HASH(id) BUCKETS 1;
    CREATE TABLE target (id INT NOT NULL, name VARCHAR(20), price DOUBLE, day DATETIME) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1;
    INSERT INTO orders VALUES (1, 'eu', 12.50, 'first', '2024-01-02 03:04:05.123'), (2, 'us', NULL, NULL, NULL), (3, 'eu', 7.25, 'ü "q"', '2024-03-01 00:00:00');`);
});

after(async () => {
  await root?.end();
  await server?.stop();
});

interface Seen {
  tables: string[];
  columns: Record<string, [string, string, boolean, string | null][]>;
  pk: Record<string, string[]>;
  indexes: Record<string, unknown[]>;
  autoload: [string, string, boolean][];
  keyed_pk: string[];
  select: string[][];
  read_sql_table: { dtypes: string[]; rows: string[][] };
  read_sql_query: string[][];
  to_sql_created: { dtypes: string[]; rows: string[][] };
  created_ddl: string;
  to_sql_append: string[][];
}

test('SQLAlchemy reflection and pandas read_sql / to_sql through PyMySQL', { skip, timeout: 120_000 }, async () => {
  const script = path.join(PROJECT_ROOT, 'test', 'clients', 'sqlalchemy_check.py');
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(PYTHON, [script, String(server.ports.query_port)], { timeout: 100_000 }, (err, out, errText) => resolve({ code: err ? 1 : 0, stdout: out, stderr: errText }));
  });
  assert.equal(code, 0, stderr);
  const seen = JSON.parse(stdout) as Seen;
  assert.deepEqual(seen.tables, ['orders', 'target']);
  // Lower-case Doris type names reflect to SQLAlchemy's MySQL types (this failed on upper-case names).
  assert.deepEqual(seen.columns.orders.map(([name, type, nullable]) => [name, type, nullable]), [
    ['id', 'BIGINT()', false],
    ['region', 'VARCHAR(length=16)', false],
    ['amount', 'DECIMAL(precision=10, scale=2)', true],
    ['note', 'TEXT()', true],
    ['ts', 'DATETIME(fsp=3)', true],
  ]);
  assert.deepEqual(seen.columns.target.map(([name, type]) => [name, type]), [['id', 'INTEGER()'], ['name', 'VARCHAR(length=20)'], ['price', 'DOUBLE(asdecimal=True)'], ['day', 'DATETIME()']]);
  // SQLAlchemy's MySQL dialect reads keys only inside the column list; Doris's KEY clause follows it.
  assert.deepEqual(seen.pk, { orders: [], target: [] });
  assert.deepEqual(seen.indexes, { orders: [], target: [] });
  assert.deepEqual(seen.autoload, [['id', 'BIGINT()', false], ['region', 'VARCHAR(length=16)', false], ['amount', 'DECIMAL(precision=10, scale=2)', true], ['note', 'TEXT()', true], ['ts', 'DATETIME(fsp=3)', true]]);
  assert.deepEqual(seen.keyed_pk, ['id', 'region']);
  assert.deepEqual(seen.select, [['1', 'eu', '12.50', 'first', '2024-01-02 03:04:05.123000'], ['3', 'eu', '7.25', 'ü "q"', '2024-03-01 00:00:00']]);
  assert.deepEqual(seen.read_sql_table, {
    dtypes: ['int64', 'object', 'float64', 'object', 'datetime64[ns]'],
    rows: [['1', 'eu', '12.5', 'first', '2024-01-02 03:04:05.123'], ['2', 'us', 'nan', 'None', 'NaT'], ['3', 'eu', '7.25', 'ü "q"', '2024-03-01 00:00:00.000']],
  });
  assert.deepEqual(seen.read_sql_query, [['eu', '19.75', '2'], ['us', 'nan', '1']]);
  assert.deepEqual(seen.to_sql_created, {
    dtypes: ['int64', 'object', 'float64', 'datetime64[ns]'],
    rows: [['1', 'a', '1.5', '2024-01-01 12:30:00'], ['2', "it's", 'nan', '2024-02-03 00:00:00'], ['3', 'None', '3.25', 'NaT']],
  });
  // SQLAlchemy's DDL names FLOAT(53) for a float64 column: MySQL's DOUBLE.
  assert.match(seen.created_ddl, /`price` double NULL/);
  assert.match(seen.created_ddl, /DUPLICATE KEY\(/);
  assert.deepEqual(seen.to_sql_append, [['1', 'a', '1.5', '2024-01-01 12:30:00'], ['2', 'replaced', '9.0', 'NaT'], ['3', 'None', '3.25', 'NaT']]);
});
