/**
 * `mariadb-dump` (Debian's mariadb-client; `mysqldump` is the same program) of a Galene database,
 * restored with the `mariadb` CLI into a fresh Galene process: the same tables (SHOW CREATE TABLE) and
 * the same rows. The data covers the three table models, NULLs, strings with quotes, backslashes,
 * newlines, tabs and non-ASCII text, dates, datetimes with fractions, decimals, floats and booleans. The
 * dump sends LOCK TABLES, ALTER TABLE ... DISABLE KEYS in version comments and SET @OLD_X=@@X; the
 * restore answers each with OK (Notes where Galene does not act on it).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { GaleneProcess, startGalene } from '../helpers/galene-process';

const MARIADB = '/usr/bin/mariadb';
const DUMP = '/usr/bin/mariadb-dump';
const skip = existsSync(MARIADB) && existsSync(DUMP) ? false : 'the mariadb client (mariadb, mariadb-dump) is not installed';
const TABLES = ['orders', 'events', 'totals', 'empty_one'];
let source: GaleneProcess;

function run(file: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { timeout: 60_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

const cli = (server: GaleneProcess, ...args: string[]): string[] => ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', ...args];

before(async () => {
  if (skip) return;
  source = await startGalene();
  const created = await run(MARIADB, cli(source), `CREATE DATABASE shop; USE shop;
    CREATE TABLE orders (id BIGINT NOT NULL COMMENT 'order id', region VARCHAR(16) NOT NULL, amount DECIMAL(12,3), note STRING, d DATE, ts DATETIME(3),
      big LARGEINT, INDEX idx_note (note) USING INVERTED) UNIQUE KEY(id, region) COMMENT 'all "orders"' DISTRIBUTED BY HASH(id) BUCKETS 2;
    CREATE TABLE events (d DATE NOT NULL, v INT, flag BOOLEAN, f DOUBLE, r FLOAT, c CHAR(4), t TINYINT, s SMALLINT) DUPLICATE KEY(d) DISTRIBUTED BY HASH(d) BUCKETS 1;
    CREATE TABLE totals (k INT NOT NULL, n BIGINT SUM, last VARCHAR(10) REPLACE, hi INT MAX) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
    CREATE TABLE empty_one (k INT NOT NULL, v STRING) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;
    INSERT INTO orders VALUES
      (1, 'eu', 12.5, 'it''s "quoted"\\nnew line\\ttab \\\\ backslash ü 漢字 😀', '2024-01-02', '2024-01-02 03:04:05.123', 170141183460469231731687303715884105727),
      (2, 'us', NULL, NULL, NULL, NULL, NULL),
      (3, 'eu', -0.001, '', '1970-01-01', '1999-12-31 23:59:59.999', -1),
      (4, 'ap', 999999999.999, 'semi; colon -- not a comment /* nor this */', '9999-12-31', '2038-01-19 03:14:08', 0);
    INSERT INTO events VALUES ('2024-01-01', 1, true, 1.5, 0.25, 'ab', -128, 32767), ('2024-01-01', NULL, false, -2.25e10, NULL, NULL, NULL, NULL),
      ('2023-06-30', -2147483648, NULL, 1e-7, -3.5, 'wxyz', 127, -32768);
    INSERT INTO totals VALUES (1, 5, 'x', 3), (1, 7, 'y', 9), (2, 1, NULL, NULL), (3, NULL, 'z', -1);`);
  assert.equal(created.code, 0, created.stderr);
});

after(async () => {
  await source?.stop();
});

/** Every table's definition and rows (sorted, in the CLI's batch form, which escapes tabs and newlines). */
async function snapshot(server: GaleneProcess): Promise<string> {
  let text = '';
  for (const table of TABLES) {
    const ddl = await run(MARIADB, cli(server, 'shop', '-B', '-N', '-e', `SHOW CREATE TABLE ${table}`));
    assert.equal(ddl.code, 0, ddl.stderr);
    const rows = await run(MARIADB, cli(server, 'shop', '-B', '-e', `SELECT * FROM ${table}`));
    assert.equal(rows.code, 0, rows.stderr);
    const [header, ...lines] = rows.stdout.trimEnd().split('\n');
    text += `${ddl.stdout}${header}\n${lines.sort().join('\n')}\n`;
  }
  return text;
}

for (const mode of ['one database', '--databases'] as const) {
  test(`mariadb-dump (${mode}) restored with the mariadb CLI gives the same tables and rows`, { skip, timeout: 120_000 }, async () => {
    const args = mode === '--databases' ? ['--databases', 'shop'] : ['shop'];
    const dump = await run(DUMP, cli(source, ...args));
    assert.equal(dump.code, 0, dump.stderr);
    assert.match(dump.stdout, /LOCK TABLES `orders` WRITE;/);
    assert.match(dump.stdout, /\/\*!40000 ALTER TABLE `orders` DISABLE KEYS \*\/;/);
    assert.match(dump.stdout, /INSERT INTO `orders` VALUES/);
    const target = await startGalene();
    try {
      if (mode === 'one database') assert.equal((await run(MARIADB, cli(target, '-e', 'CREATE DATABASE shop'))).code, 0);
      // --show-warnings prints each Note after the statement that caused it (LOCK TABLES, DISABLE KEYS).
      const restore = await run(MARIADB, cli(target, '--show-warnings', ...(mode === 'one database' ? ['shop'] : [])), dump.stdout);
      assert.equal(restore.code, 0, restore.stderr);
      assert.match(restore.stdout + restore.stderr, /LOCK TABLES is accepted for MySQL compatibility/);
      assert.match(restore.stdout + restore.stderr, /DISABLE KEYS \/ ENABLE KEYS is accepted/);
      const [before, after] = [await snapshot(source), await snapshot(target)];
      assert.equal(after, before);
      assert.match(before, /it's "quoted"\\nnew line\\ttab \\\\ backslash ü 漢字 😀/);
      assert.match(before, /170141183460469231731687303715884105727/);
    } finally {
      await target.stop();
    }
  });
}
