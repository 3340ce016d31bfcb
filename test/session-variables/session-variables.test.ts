/**
 * Session variables over real connections (mysql2, the MariaDB CLI, MariaDB JDBC): every Doris variable
 * is known with Doris's default and settable with SET / SET SESSION / SET GLOBAL; an unknown name stays
 * error 1193; bad values get MySQL's 1231 / 1232; sql_select_limit caps top-level SELECTs (JDBC
 * setMaxRows); SYNC answers OK; USER() and CURRENT_USER() in MySQL's forms.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type * as mysql from 'mysql2/promise';
import { SESSION_VARIABLES } from '../../src/fe/session-variables';
import { auditLines, GaleneProcess, PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const MARIADB = '/usr/bin/mariadb';
const JAVA = '/usr/bin/java';
const JDBC_JAR = '/usr/share/java/mariadb-java-client.jar';
let server: GaleneProcess;
let root: mysql.Connection;

before(async () => {
  server = await startGalene();
  root = await connect(server.ports.query_port);
  await root.query('CREATE DATABASE sv');
  await root.query('CREATE TABLE sv.t (k INT, v VARCHAR(10)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
  const values = Array.from({ length: 20 }, (_, idx) => `(${idx + 1}, 'v${idx + 1}')`).join(', ');
  await root.query(`INSERT INTO sv.t VALUES ${values}`);
});

after(async () => {
  await root?.end();
  await server?.stop();
});

const DORIS_DEFAULTS: [string, string][] = [
  ['enable_nereids_planner', '1'],
  ['enable_fallback_to_original_planner', '0'],
  ['parallel_pipeline_task_num', '0'],
  ['runtime_filter_mode', 'GLOBAL'],
  ['batch_size', '4064'],
  ['exec_mem_limit', '100147483648'],
  ['query_timeout', '900'],
  ['insert_timeout', '14400'],
  ['enable_profile', '0'],
  ['sql_select_limit', '18446744073709551615'],
  ['max_execution_time', '900000'],
  ['auto_broadcast_join_threshold', '0.8'],
];

test('Doris variables are listed by SHOW VARIABLES with Doris defaults, and @@name reads them', async () => {
  const shown = new Map((await queryRows(root, 'SHOW VARIABLES')).map(([name, value]) => [name!, value]));
  assert.ok(shown.size >= 250, `SHOW VARIABLES lists ${shown.size}`);
  assert.equal(shown.size, SESSION_VARIABLES.length);
  for (const [name, value] of DORIS_DEFAULTS) assert.equal(shown.get(name), value, name);
  const [[nereids, limit]] = await queryRows(root, 'SELECT @@enable_nereids_planner, @@sql_select_limit');
  assert.deepEqual([nereids, limit], ['1', '18446744073709551615']);
  const like = await queryRows(root, "SHOW VARIABLES LIKE 'enable_nereids%'");
  assert.ok(like.some(([name]) => name === 'enable_nereids_planner'));
});

test('SET, SET SESSION, SET GLOBAL and DEFAULT on Doris variables; unknown names stay 1193', async () => {
  const conn = await connect(server.ports.query_port);
  try {
    await conn.query('SET enable_nereids_planner = true');
    await conn.query('SET enable_fallback_to_original_planner = false, SESSION runtime_filter_mode = "OFF"');
    await conn.query('SET SESSION batch_size = 1024');
    await conn.query('SET exec_mem_limit = "8589934592"');
    await conn.query('SET parallel_pipeline_task_num = 4');
    assert.deepEqual(await queryRows(conn, 'SELECT @@runtime_filter_mode, @@batch_size, @@exec_mem_limit, @@parallel_pipeline_task_num'), [['OFF', '1024', '8589934592', '4']]);
    await conn.query('SET batch_size = DEFAULT');
    assert.deepEqual(await queryRows(conn, 'SELECT @@batch_size'), [['4064']]);
    await conn.query('SET GLOBAL enable_profile = true');
    assert.deepEqual(await queryRows(conn, 'SELECT @@global.enable_profile'), [['1']]);
    await conn.query('SET GLOBAL enable_profile = DEFAULT');
    await assert.rejects(conn.query('SET default_password_lifetime = 3'), { errno: 1229 });
    await conn.query('SET GLOBAL default_password_lifetime = 0');
    await assert.rejects(conn.query('SET enable_nereids_plannerx = true'), (err: { errno: number; message: string }) => {
      assert.equal(err.errno, 1193);
      assert.match(err.message, /Unknown system variable 'enable_nereids_plannerx'/);
      return true;
    });
  } finally {
    await conn.end();
  }
});

test('SET of a variable Galene does not act on answers a Note that SHOW WARNINGS lists', async () => {
  const conn = await connect(server.ports.query_port);
  try {
    const [header] = await conn.query('SET enable_nereids_planner = false, query_timeout = 100');
    assert.equal((header as mysql.ResultSetHeader).warningStatus, 1);
    assert.deepEqual(await queryRows(conn, 'SHOW WARNINGS'), [['Note', '1105', "Variable 'enable_nereids_planner' is accepted for Doris compatibility; its value changes nothing in Galene"]]);
    assert.equal((await queryRows(conn, 'SHOW WARNINGS')).length, 1, 'SHOW WARNINGS keeps the list');
    await conn.query('SELECT 1');
    assert.deepEqual(await queryRows(conn, 'SHOW WARNINGS'), []);
    // Honoured variables, and Doris defaults written out, answer no warning.
    const [plain] = await conn.query('SET query_timeout = 200, enable_nereids_planner = true, sql_select_limit = 10');
    assert.equal((plain as mysql.ResultSetHeader).warningStatus, 0);
  } finally {
    await conn.end();
  }
});

test("bad values: 1231 Variable 'x' can't be set to the value of 'y', 1232 Incorrect argument type", async () => {
  await assert.rejects(root.query("SET enable_profile = 'maybe'"), (err: { errno: number; message: string }) => {
    assert.equal(err.errno, 1231);
    assert.equal(err.message, "Variable 'enable_profile' can't be set to the value of 'maybe'");
    return true;
  });
  await assert.rejects(root.query("SET query_timeout = 'abc'"), (err: { errno: number; message: string }) => {
    assert.equal(err.errno, 1232);
    assert.equal(err.message, "Incorrect argument type to variable 'query_timeout'");
    return true;
  });
  await assert.rejects(root.query('SET batch_size = 1.5'), { errno: 1232 });
  await assert.rejects(root.query("SET group_commit = 'fast_mode'"), { errno: 1231 });
  await assert.rejects(root.query('SET sql_select_limit = -1'), { errno: 1231 });
  // A bad assignment changes nothing, not even the good ones before it.
  await assert.rejects(root.query("SET batch_size = 7, query_timeout = 'x'"), { errno: 1232 });
  assert.deepEqual(await queryRows(root, 'SELECT @@batch_size'), [['4064']]);
});

test('sql_select_limit caps a top-level SELECT without its own LIMIT (text and prepared); DEFAULT resets', async () => {
  const conn = await connect(server.ports.query_port, { database: 'sv' });
  try {
    await conn.query('SET sql_select_limit = 3');
    assert.equal((await queryRows(conn, 'SELECT k FROM t ORDER BY k')).length, 3);
    assert.deepEqual(await queryRows(conn, 'SELECT k FROM t ORDER BY k'), [['1'], ['2'], ['3']]);
    // The statement's own LIMIT wins, larger or smaller.
    assert.equal((await queryRows(conn, 'SELECT k FROM t ORDER BY k LIMIT 10')).length, 10);
    assert.equal((await queryRows(conn, 'SELECT k FROM t ORDER BY k LIMIT 2')).length, 2);
    // Not applied inside a subquery or to the rows an aggregate reads.
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM (SELECT k FROM t) s'), [['20']]);
    assert.deepEqual(await queryRows(conn, 'SELECT k FROM t UNION ALL SELECT k FROM t ORDER BY k').then((rows) => rows.length), 3);
    const binary = await connect(server.ports.query_port, { database: 'sv', typeCast: true });
    try {
      await binary.query('SET sql_select_limit = 3');
      const [prepared] = await binary.execute({ sql: 'SELECT k FROM t WHERE k > ? ORDER BY k', rowsAsArray: true }, [5]);
      assert.deepEqual(prepared, [[6], [7], [8]]);
    } finally {
      await binary.end();
    }
    await conn.query('SET sql_select_limit = 0');
    assert.deepEqual(await queryRows(conn, 'SELECT k FROM t'), []);
    await conn.query('SET sql_select_limit = DEFAULT');
    assert.equal((await queryRows(conn, 'SELECT k FROM t')).length, 20);
  } finally {
    await conn.end();
  }
});

test('the /*+ SET_VAR(...) */ hint sets variables for one SELECT only', async () => {
  const conn = await connect(server.ports.query_port, { database: 'sv' });
  try {
    assert.deepEqual(await queryRows(conn, "SELECT /*+ SET_VAR(batch_size = 99, enable_profile = true, runtime_filter_mode = 'OFF') */ @@batch_size, @@enable_profile, @@runtime_filter_mode"), [['99', '1', 'OFF']]);
    assert.deepEqual(await queryRows(conn, 'SELECT @@batch_size, @@enable_profile, @@runtime_filter_mode'), [['4064', '0', 'GLOBAL']]);
    assert.deepEqual(await queryRows(conn, 'SELECT /*+ SET_VAR(sql_select_limit=2) */ k FROM t ORDER BY k'), [['1'], ['2']]);
    assert.equal((await queryRows(conn, 'SELECT k FROM t')).length, 20);
    await assert.rejects(conn.query('SELECT /*+ SET_VAR(no_such_variable = 1) */ 1'), { errno: 1193 });
    await assert.rejects(conn.query("SELECT /*+ SET_VAR(batch_size = 'x') */ 1"), { errno: 1232 });
    assert.deepEqual(await queryRows(conn, 'SELECT @@batch_size'), [['4064']]);
  } finally {
    await conn.end();
  }
});

test('SET_VAR hints hold in prepared statements too: COM_STMT_EXECUTE (mysql2 execute) and SQL EXECUTE', async () => {
  // mysql2's own decoding of binary rows (the helper's text typeCast is for the text protocol).
  const conn = await connect(server.ports.query_port, { database: 'sv', typeCast: true });
  try {
    const hinted = 'SELECT /*+ SET_VAR(sql_select_limit = 3, batch_size = 77) */ k, @@batch_size FROM t WHERE k > ? ORDER BY k';
    for (let run = 0; run < 2; run++) {
      const [rows] = await conn.execute({ sql: hinted, rowsAsArray: true }, [5]);
      assert.deepEqual((rows as unknown[][]).map((row) => row.map(String)), [['6', '77'], ['7', '77'], ['8', '77']], `execution ${run + 1}`);
    }
    const text = async (sql: string): Promise<string[][]> => (await queryRows(conn, sql)).map((row) => row.map(String));
    assert.deepEqual(await text('SELECT @@sql_select_limit, @@batch_size'), [['18446744073709551615', '4064']], 'the hint ended with the execution');
    await conn.query(`PREPARE hinted FROM 'SELECT /*+ SET_VAR(sql_select_limit = 2) */ k FROM t ORDER BY k'`);
    assert.deepEqual(await text('EXECUTE hinted'), [['1'], ['2']]);
    assert.equal((await queryRows(conn, 'SELECT k FROM t')).length, 20);
    // A bad hint fails the execution, as it fails the same text sent as a query.
    await assert.rejects(conn.execute('SELECT /*+ SET_VAR(no_such_variable = 1) */ k FROM t WHERE k = ?', [1]), { errno: 1193 });
  } finally {
    await conn.end();
  }
});

test('SYNC answers OK; USER() is user@client-host and CURRENT_USER() user@account-host, as MySQL', async () => {
  const [ok] = await root.query('SYNC');
  assert.equal((ok as mysql.ResultSetHeader).affectedRows, 0);
  assert.deepEqual(await queryRows(root, 'SELECT user(), current_user(), session_user()'), [['root@127.0.0.1', 'root@%', 'root@127.0.0.1']]);
  await root.query("CREATE USER 'bob'@'127.0.0.1' IDENTIFIED BY 'pw'");
  const bob = await connect(server.ports.query_port, { user: 'bob', password: 'pw' });
  try {
    assert.deepEqual(await queryRows(bob, 'SELECT user(), current_user()'), [['bob@127.0.0.1', 'bob@127.0.0.1']]);
  } finally {
    await bob.end();
  }
});

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

test('a Doris script runs through the mariadb client: SET of Doris variables, SYNC', { skip: existsSync(MARIADB) ? false : 'mariadb client not installed' }, async () => {
  const script = `SET enable_nereids_planner = true; SET enable_fallback_to_original_planner = false;
    SET parallel_pipeline_task_num = 8; SET GLOBAL insert_timeout = 3600; SYNC;
    SELECT @@insert_timeout, user(), current_user();
    SET GLOBAL insert_timeout = DEFAULT;`;
  const result = await run(MARIADB, ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '-Dsv', '--batch', '--skip-column-names', '-e', script]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, '3600\troot@127.0.0.1\troot@%\n');
});


test("the mariadb client's \\s (status) shows the character-set variables; SET NAMES sets them, UTF-8 only as Doris", { skip: existsSync(MARIADB) ? false : 'mariadb client not installed' }, async () => {
  const result = await run(MARIADB, ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '-Dsv', '-e', 'SET NAMES utf8; \\s']);
  assert.equal(result.code, 0, result.stderr);
  const field = (name: string): string | undefined => new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(result.stdout)?.[1];
  assert.equal(field('Current database'), 'sv');
  assert.equal(field('Current user'), 'root@127.0.0.1');
  assert.match(field('Server version') ?? '', /^5\.7\.99 Galene/);
  // Server and database from character_set_server / character_set_database, client and connection from the session.
  assert.equal(field('Server characterset'), 'utf8mb4');
  assert.equal(field('Db     characterset'), 'utf8mb4');
  assert.equal(field('Client characterset'), 'utf8');
  assert.equal(field('Conn.  characterset'), 'utf8');
  const latin1 = await run(MARIADB, ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '-e', 'SET NAMES latin1']);
  assert.notEqual(latin1.code, 0);
  assert.match(latin1.stderr, /ERROR 1115 .*Unknown character set: 'latin1'/);
  assert.deepEqual(await queryRows(root, 'SELECT @@character_set_client, @@character_set_connection, @@character_set_results'), [['utf8mb4', 'utf8mb4', 'utf8mb4']]);
  const conn = await connect(server.ports.query_port);
  try {
    await conn.query("SET CHARACTER SET 'utf8'");
    assert.deepEqual(await queryRows(conn, 'SELECT @@character_set_client, @@character_set_connection, @@character_set_results'), [['utf8', 'utf8mb4', 'utf8']]);
    await conn.query('SET NAMES DEFAULT');
    assert.deepEqual(await queryRows(conn, 'SELECT @@character_set_client, @@character_set_results'), [['utf8mb4', 'utf8mb4']]);
  } finally {
    await conn.end();
  }
});

const javaSkip = existsSync(JAVA) && existsSync(JDBC_JAR) ? false : 'java or libmariadb-java not installed';

for (const serverPrep of [false, true]) {
  test(`MariaDB JDBC setMaxRows caps the rows the server sends (useServerPrepStmts=${serverPrep})`, { skip: javaSkip }, async () => {
    const source = path.join(PROJECT_ROOT, 'test', 'session-variables', 'MaxRowsClient.java');
    const url = `jdbc:mariadb://127.0.0.1:${server.ports.query_port}/sv?useServerPrepStmts=${serverPrep}`;
    const result = await run(JAVA, ['-cp', JDBC_JAR, source, url]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'statement 1 2 3 4\nlimit 1 2\nprepared 11 12 13 14\nafter 20\n');
    // The server sent 4 rows (the driver did not just drop the rest): the audit log says so.
    const lines = await auditLines(server.dataDir, '|Stmt=SELECT k AS jdbc_k FROM t ORDER BY k', serverPrep ? 2 : 1);
    assert.ok(lines.length > 0);
    for (const line of lines) assert.match(line, /\|ReturnRows=4\|/);
  });
}
