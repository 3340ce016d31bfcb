/**
 * The protocol server driven by the MariaDB command-line client (libmariadb, a C client with its own
 * reading of every packet), in -e / --batch mode and interactively through a pseudo-terminal (which
 * makes it send `select @@version_comment limit 1`, use COM_INIT_DB and CLIENT_DEPRECATE_EOF).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { MysqlServer } from '../../src/protocol/mysql-server';
import { INSERT_INFO, TestBackend } from './test-backend';

const MARIADB = '/usr/bin/mariadb';
const SCRIPT = '/usr/bin/script';
const backend = new TestBackend();
let server: MysqlServer;
let port = 0;

before(async () => {
  server = new MysqlServer(backend, { host: '127.0.0.1', port: 0 });
  port = await server.listen();
});

after(async () => {
  await server.close();
});

interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(MARIADB, ['-h127.0.0.1', `-P${port}`, '--connect-timeout=5', ...args], { timeout: 15_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

const skip = existsSync(MARIADB) ? false : 'mariadb client not installed';

test('-e prints a table with every value', { skip }, async () => {
  const run = await runCli(['-uroot', '-e', 'select all_types']);
  assert.equal(run.code, 0, run.stderr);
  const [header, first, second, third] = run.stdout.trimEnd().split('\n');
  assert.ok(header.startsWith('c_bool\tc_tinyint\tc_smallint\tc_int\tc_bigint\tc_largeint'), header);
  assert.equal(
    first,
    [
      '1', '-128', '-32768', '-2147483648', '-9223372036854775808', '-170141183460469231731687303715884105728', '1.5',
      '3.141592653589793', '123.45', '123456789012345678.123456789', '2024-02-29', '2024-02-29 13:14:15',
      '2024-01-02 03:04:05.678', 'ab', 'héllo wörld', '日本語 ✓', 'NULL',
    ].join('\t'),
  );
  assert.ok(second.startsWith('0\t127\t12345\t2147483647\t9007199254740993\t'), second);
  assert.ok(second.includes('\ttab\\there\t'), 'tab escaped in batch output');
  assert.equal(third, Array(17).fill('NULL').join('\t'));
});

test('--batch -N: no header, tab separated; -t: a boxed table with numbers right-aligned', { skip }, async () => {
  const batch = await runCli(['-uroot', '--batch', '-N', '-e', 'select dict']);
  assert.equal(batch.code, 0, batch.stderr);
  assert.equal(batch.stdout, 'red\ngrün\nred\nNULL\n');
  const table = await runCli(['-uroot', '-t', '-e', 'select 1']);
  assert.equal(table.code, 0, table.stderr);
  assert.equal(table.stdout, '+------+\n| 1    |\n+------+\n|    1 |\n+------+\n');
});

test('an error exits non-zero with errno, SQLSTATE and message', { skip }, async () => {
  const run = await runCli(['-uroot', '-e', 'select * from nope']);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /ERROR 1146 \(42S02\) at line 1: Table 'db1\.nope' doesn't exist/);
});

test('password, database, multi-statements and the OK info string', { skip }, async () => {
  const denied = await runCli(['-ualice', '-pwrong', '-e', 'select 1']);
  assert.equal(denied.code, 1);
  assert.match(denied.stderr, /ERROR 1045 \(28000\): Access denied for user 'alice'@'127\.0\.0\.1' \(using password: YES\)/);
  const run = await runCli(['-ualice', '-psecret', '-Ddb1', '-vvv', '-e', 'select database(); insert ok']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /\| db1 +\|/);
  assert.match(run.stdout, /Query OK, 2 rows affected, 1 warning/);
  assert.ok(run.stdout.includes(INSERT_INFO), run.stdout);
  const unknownDb = await runCli(['-uroot', '-Dnodb', '-e', 'select 1']);
  assert.equal(unknownDb.code, 1);
  assert.match(unknownDb.stderr, /ERROR 1049 \(42000\): Unknown database 'nodb'/);
});

test('interactive session through a pty: version comment, USE, queries, quit', { skip: skip || (existsSync(SCRIPT) ? false : 'script not installed') }, async () => {
  const sessionsBefore = backend.sessions.length;
  const child = spawn(SCRIPT, ['-qfec', `${MARIADB} -h127.0.0.1 -P${port} -uroot --skip-pager --connect-timeout=5`, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let sent = false;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const killTimer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (!sent && output.includes('[(none)]>')) {
      sent = true;
      child.stdin.write('select 1;\nuse db1\nselect database();\nquit\n');
    }
  });
  const code = await exited;
  clearTimeout(killTimer);
  assert.equal(code, 0, output);
  assert.match(output, /Server version: 5\.7\.99 Galene test server/);
  assert.match(output, /Database changed/);
  assert.match(output, /\| db1 +\|/);
  const session = backend.sessions[sessionsBefore];
  assert.equal(session.executed[0], 'select @@version_comment limit 1');
  assert.ok(session.executed.includes('select database();') || session.executed.includes('select database()'));
  assert.equal(session.database, 'db1');
});
