/**
 * Prepared statements through two more real clients against a real Galene process: the MariaDB
 * command-line client for SQL-level PREPARE / EXECUTE / DEALLOCATE, and the MariaDB JDBC driver from
 * Debian (Connector/J, /usr/share/java/mariadb-java-client.jar) running test/prepared/PreparedClient.java
 * (a PreparedStatement batch insert and a parameterized select) — once with the URL options of issue 4
 * (with rewriteBatchedStatements=true, Connector/J 2.x rewrites the batch into one multi-row INSERT) and
 * once with server-side statements only, where every batched row is a COM_STMT_EXECUTE. The FE audit log
 * is checked on the way: every text statement is there, prepared executions only when
 * enable_prepared_stmt_audit_log is on.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { auditLines, GaleneProcess, PROJECT_ROOT, startGalene } from '../helpers/galene-process';

const MARIADB = '/usr/bin/mariadb';
const JAVA = '/usr/bin/java';
const JDBC_JAR = '/usr/share/java/mariadb-java-client.jar';
let server: GaleneProcess;

before(async () => {
  server = await startGalene();
  const created = await run(MARIADB, ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '-e', 'CREATE DATABASE ps']);
  assert.equal(created.code, 0, created.stderr);
});

after(async () => {
  await server?.stop();
});

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

function cli(sql: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(MARIADB, ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '-Dps', '--batch', '-e', sql]);
}


test('the mariadb client runs SQL-level PREPARE, EXECUTE and DEALLOCATE', { skip: existsSync(MARIADB) ? false : 'mariadb client not installed' }, async () => {
  const setup = await cli(`CREATE TABLE cli (k INT, v VARCHAR(10)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
    PREPARE ins FROM 'INSERT INTO cli VALUES (?, ?)';
    SET @k = 1, @v = 'one'; EXECUTE ins USING @k, @v;
    SET @k = 2, @v = 'two'; EXECUTE ins USING @k, @v;
    SET @k = 3, @v = NULL; EXECUTE ins USING @k, @v;
    DEALLOCATE PREPARE ins;`);
  assert.equal(setup.code, 0, setup.stderr);
  const result = await cli(`SET @text = 'SELECT k, v FROM cli WHERE k >= ? ORDER BY k LIMIT ?';
    PREPARE sel FROM @text;
    SET @from = 2, @n = 1; EXECUTE sel USING @from, @n;
    SET @from = 1, @n = 5; EXECUTE sel USING @from, @n;
    DROP PREPARE sel;`);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'k\tv\n2\ttwo\nk\tv\n1\tone\n2\ttwo\n3\tNULL\n');
  const missing = await cli("PREPARE sel FROM 'SELECT ?'; EXECUTE sel; ");
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /ERROR 1210 \(HY000\).*Incorrect arguments to EXECUTE/);
  const unknown = await cli('EXECUTE nothing_here');
  assert.match(unknown.stderr, /ERROR 1243 \(HY000\).*Unknown prepared statement handler \(nothing_here\) given to EXECUTE/);
  const lines = await auditLines(server.dataDir, 'PREPARE sel FROM @text', 1);
  assert.equal(lines.length, 1, 'text statements are audited');
  assert.match(lines[0], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} \[query\] \|Client=127\.0\.0\.1\|User=root\|Ctl=internal\|Db=ps\|State=OK\|ErrorCode=0\|ErrorMessage=\|Time\(ms\)=\d+\|ScanBytes=0\|ScanRows=0\|ReturnRows=0\|StmtId=\d+\|/);
  const failed = await auditLines(server.dataDir, 'Stmt=EXECUTE nothing_here', 1);
  assert.match(failed[0], /State=ERR\|ErrorCode=1243\|/);
});

const javaSkip = existsSync(JAVA) && existsSync(JDBC_JAR) ? false : 'java or libmariadb-java not installed';

async function runJdbc(options: string, table: string): Promise<string> {
  const source = path.join(PROJECT_ROOT, 'test', 'prepared', 'PreparedClient.java');
  const url = `jdbc:mariadb://127.0.0.1:${server.ports.query_port}/ps?${options}`;
  const result = await run(JAVA, ['-cp', JDBC_JAR, source, url, table]);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

const JDBC_OUTPUT = 'inserted 40\nrows 28|n28|28.25|2024-05-01 30|n30|30.25|null 31|n31|31.25|2024-05-04\nrows 38|n38|38.25|2024-05-11 39|n39|39.25|2024-05-12\n';

test('MariaDB JDBC: batch insert and parameterized select with the issue URL', { skip: javaSkip }, async () => {
  const output = await runJdbc('useServerPrepStmts=true&cachePrepStmts=true&rewriteBatchedStatements=true', 'jdbc_rewrite');
  assert.equal(output, JDBC_OUTPUT);
  assert.equal((await auditLines(server.dataDir, 'IsPrepared=true', 0)).length, 0, 'prepared executions are not audited by default');
});

test('MariaDB JDBC: server-side statements only, every batched row a COM_STMT_EXECUTE', { skip: javaSkip }, async () => {
  const output = await runJdbc('useServerPrepStmts=true&cachePrepStmts=true&sessionVariables=enable_prepared_stmt_audit_log=1', 'jdbc_server');
  assert.equal(output, JDBC_OUTPUT);
  const inserts = await auditLines(server.dataDir, '|Stmt=INSERT INTO jdbc_server VALUES (?, ?, ?, ?)', 41);
  assert.equal(inserts.length, 41, 'one PREPARE and 40 executions, audited because the session turned it on');
  assert.ok(inserts.every((line) => line.includes('|IsPrepared=true|PreparedStmtId=')));
  const selects = await auditLines(server.dataDir, '|Stmt=SELECT id, name, amount, day FROM jdbc_server', 3);
  assert.match(selects[selects.length - 1], /State=EOF\|.*\|ReturnRows=2\|/);
});
