/**
 * Issue 10 follow-ups over real clients (mysql2 and the mariadb CLI): one's own password without GRANT_PRIV
 * (SET PASSWORD, ALTER USER ... IDENTIFIED BY), root only by root, GRANT on a database or table that does
 * not exist (Doris's messages), SHOW QUERY PROFILE limited to one's own queries without ADMIN_PRIV, SHOW
 * [FULL] PROCESSLIST and information_schema.processlist in Doris's columns, and ORDER BY on
 * information_schema strings in their case-insensitive collation.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';

type Failure = { errno: number; message: string };

const fails = (errno: number, pattern: RegExp) => (err: Failure): boolean => {
  assert.equal(err.errno, errno, err.message);
  assert.match(err.message, pattern);
  return true;
};

const GRANT_DENIED = /Access denied; you need \(at least one of\) the \(GRANT\) privilege\(s\) for this operation/;

/** Doris ShowProcessListCommand's columns, in order. */
const DORIS_PROCESSLIST = ['CurrentConnected', 'Id', 'User', 'Host', 'LoginTime', 'Catalog', 'Db', 'Command', 'Time', 'State', 'QueryId', 'Info', 'FE', 'CloudCluster'];

function mariadb(port: number, user: string, password: string, sql: string): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    // `-p` alone would prompt: an empty password is no -p at all.
    const args = ['-h127.0.0.1', `-P${port}`, `-u${user}`, ...(password ? [`-p${password}`] : []), '--batch', '-e', sql];
    execFile('mariadb', args, { timeout: 30_000 }, (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? 1 : 0 }));
  });
}

describe('issue 10 follow-ups', () => {
  let server: GaleneProcess;
  let root: Connection;
  const login = (user: string, password: string) => connect(server.ports.query_port, { user, password });

  before(async () => {
    server = await startGalene();
    root = await connect(server.ports.query_port);
    await root.query('CREATE DATABASE fu');
    await root.query('CREATE TABLE fu.t (Bcol INT, acol INT, Ccol INT) DUPLICATE KEY(Bcol) DISTRIBUTED BY HASH(Bcol) BUCKETS 1');
    await root.query("CREATE USER 'carl'@'%' IDENTIFIED BY 'carl-1'");
    await root.query("CREATE USER 'carl'@'127.0.0.1' IDENTIFIED BY 'carl-local'");
    await root.query("CREATE USER 'dana'@'%' IDENTIFIED BY 'dana-1'");
    await root.query("CREATE USER 'granter'@'%' IDENTIFIED BY 'g-1'");
    await root.query("GRANT GRANT_PRIV ON *.*.* TO 'granter'@'%'");
  });

  after(async () => {
    await root.end();
    await server.stop();
  });

  test("one's own password without GRANT_PRIV; another account's, options and root's need more", async () => {
    // dana's login matches 'dana'@'%': SET PASSWORD without FOR and with FOR her own account.
    const dana = await login('dana', 'dana-1');
    await dana.query("SET PASSWORD = PASSWORD('dana-2')");
    await dana.query("SET PASSWORD FOR 'dana'@'%' = PASSWORD('dana-3')");
    await (await login('dana', 'dana-3')).end();
    // ALTER USER of her own account with a new password only.
    await dana.query("ALTER USER 'dana'@'%' IDENTIFIED BY 'dana-4'");
    await (await login('dana', 'dana-4')).end();
    await assert.rejects(login('dana', 'dana-3'), { errno: 1045 });
    // Password options, another account, and root stay out of reach.
    await assert.rejects(dana.query("ALTER USER 'dana'@'%' FAILED_LOGIN_ATTEMPTS 3"), fails(1227, GRANT_DENIED));
    await assert.rejects(dana.query("ALTER USER 'dana'@'%' IDENTIFIED BY 'dana-5' PASSWORD_EXPIRE NEVER"), fails(1227, GRANT_DENIED));
    await assert.rejects(dana.query("ALTER USER 'carl'@'%' IDENTIFIED BY 'owned'"), fails(1227, GRANT_DENIED));
    await assert.rejects(dana.query("SET PASSWORD FOR 'carl'@'%' = PASSWORD('owned')"), fails(1227, GRANT_DENIED));
    await dana.end();
    // carl from 127.0.0.1 is 'carl'@'127.0.0.1' (current_user()): 'carl'@'%' is another account (Doris SetPassVar).
    const carl = await login('carl', 'carl-local');
    assert.deepEqual(await queryRows(carl, 'SELECT current_user()'), [['carl@127.0.0.1']]);
    await assert.rejects(carl.query("SET PASSWORD FOR 'carl'@'%' = PASSWORD('owned')"), fails(1227, GRANT_DENIED));
    await assert.rejects(carl.query("ALTER USER 'carl'@'%' IDENTIFIED BY 'owned'"), fails(1227, GRANT_DENIED));
    await carl.query("ALTER USER 'carl'@'127.0.0.1' IDENTIFIED BY 'carl-local-2'");
    await carl.end();
    await (await login('carl', 'carl-local-2')).end();
    // Through the mariadb CLI too.
    const cli = await mariadb(server.ports.query_port, 'carl', 'carl-local-2', "SET PASSWORD = PASSWORD('carl-local-3')");
    assert.equal(cli.code, 0, cli.stderr);
    await (await login('carl', 'carl-local-3')).end();
    // GRANT_PRIV alters other accounts; root only root (Doris AlterUserInfo), not even the admin.
    const granter = await login('granter', 'g-1');
    await granter.query("ALTER USER 'carl'@'%' IDENTIFIED BY 'carl-2' FAILED_LOGIN_ATTEMPTS 5");
    await assert.rejects(granter.query("ALTER USER 'root'@'%' IDENTIFIED BY 'owned'"), fails(1105, /Only root user can modify root user/));
    await granter.end();
    const admin = await login('admin', '');
    await assert.rejects(admin.query("ALTER USER root IDENTIFIED BY 'owned'"), fails(1105, /Only root user can modify root user/));
    await assert.rejects(admin.query("SET PASSWORD FOR 'root'@'%' = PASSWORD('owned')"), /Can not set password for root user, except root itself/);
    await admin.end();
    // root's password is unchanged.
    await (await login('root', '')).end();
  });

  test('GRANT on a database or table that does not exist: Doris\'s error; CREATE_PRIV and REVOKE are not checked', async () => {
    await assert.rejects(root.query("GRANT SELECT_PRIV ON nodb.* TO 'dana'@'%'"), fails(1105, /^errCode = 2, detailMessage = database:nodb does not exist$/));
    await assert.rejects(root.query("GRANT SELECT_PRIV ON internal.nodb.t TO 'dana'@'%'"), fails(1105, /database:nodb does not exist/));
    await assert.rejects(root.query("GRANT SELECT_PRIV, LOAD_PRIV ON fu.nosuch TO 'dana'@'%'"), fails(1105, /^errCode = 2, detailMessage = table:nosuch does not exist$/));
    // Table names are case-sensitive (lower_case_table_names = 0, Doris's default).
    await assert.rejects(root.query("GRANT SELECT_PRIV ON fu.T TO 'dana'@'%'"), fails(1105, /table:T does not exist/));
    await assert.rejects(root.query("GRANT SELECT_PRIV ON information_schema.nosuch TO 'dana'@'%'"), fails(1105, /table:nosuch does not exist/));
    const before = await queryRows(root, "SHOW GRANTS FOR 'dana'@'%'");
    assert.equal(before[0][6], null, 'no database grant was made');
    assert.equal(before[0][7], null, 'no table grant was made');
    // Existing objects, and CREATE_PRIV on ones to be created (how an account is let create them).
    await root.query("GRANT SELECT_PRIV ON fu.t TO 'dana'@'%'");
    await root.query("GRANT SELECT_PRIV ON information_schema.tables TO 'dana'@'%'");
    await root.query("GRANT CREATE_PRIV ON later_db.* TO 'dana'@'%'");
    await root.query("GRANT CREATE_PRIV, SELECT_PRIV ON fu.later_table TO 'dana'@'%'");
    const grants = await queryRows(root, "SHOW GRANTS FOR 'dana'@'%'");
    assert.match(grants[0][6]!, /internal\.later_db: Create_priv/);
    assert.match(grants[0][7]!, /internal\.fu\.t: Select_priv/);
    assert.match(grants[0][7]!, /internal\.fu\.later_table: Select_priv,Create_priv/);
    // Global and catalog levels name nothing that could be missing.
    await root.query("GRANT SELECT_PRIV ON *.*.* TO 'dana'@'%'");
    await root.query("REVOKE SELECT_PRIV ON *.*.* FROM 'dana'@'%'");
    // REVOKE of what was granted works after the object is gone.
    await root.query('CREATE TABLE fu.gone (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await root.query("GRANT SELECT_PRIV ON fu.gone TO 'dana'@'%'");
    await root.query('DROP TABLE fu.gone');
    await root.query("REVOKE SELECT_PRIV ON fu.gone FROM 'dana'@'%'");
    assert.doesNotMatch((await queryRows(root, "SHOW GRANTS FOR 'dana'@'%'"))[0][7]!, /gone/);
  });

  test('SHOW QUERY PROFILE: one\'s own queries without ADMIN_PRIV, everyone\'s with it', async () => {
    const dana = await login('dana', 'dana-4');
    await dana.query("SELECT 'dana marker'");
    await root.query("SELECT 'root marker'");
    const mine = await queryRecords(dana, 'SHOW QUERY PROFILE "/"');
    assert.ok(mine.some((row) => row['Sql Statement'] === "SELECT 'dana marker'"));
    assert.deepEqual([...new Set(mine.map((row) => row.User))], ['dana']);
    const all = await queryRecords(root, 'SHOW QUERY PROFILE "/"');
    const rootQuery = all.find((row) => row['Sql Statement'] === "SELECT 'root marker'")!;
    assert.ok(rootQuery);
    assert.ok(all.some((row) => row['Sql Statement'] === "SELECT 'dana marker'"));
    // Another user's profile is not there for dana, not even by its id; her own is.
    await assert.rejects(dana.query(`SHOW QUERY PROFILE "/${rootQuery['Profile ID']}"`), fails(1105, /query id .* not found/));
    const own = mine.find((row) => row['Sql Statement'] === "SELECT 'dana marker'")!;
    assert.ok((await queryRows(dana, `SHOW QUERY PROFILE "/${own['Profile ID']}"`)).some((row) => row[0] === 'Sql' && row[1] === "SELECT 'dana marker'"));
    // The admin account (ADMIN_PRIV through its role) sees everyone's.
    const admin = await login('admin', '');
    assert.ok((await queryRecords(admin, 'SHOW QUERY PROFILE "/"')).some((row) => row.User === 'dana'));
    await admin.end();
    await dana.end();
  });

  test('SHOW [FULL] PROCESSLIST and information_schema.processlist in Doris\'s columns', async () => {
    const dana = await login('dana', 'dana-4');
    const [[danaId]] = await queryRows(dana, 'SELECT connection_id()');
    const [[rootId]] = await queryRows(root, 'SELECT connection_id()');
    const long = `SHOW PROCESSLIST /* ${'x'.repeat(150)} */`;
    const [rows, fields] = (await root.query({ sql: long, rowsAsArray: false })) as unknown as [Record<string, string | null>[], { name: string }[]];
    assert.deepEqual(fields.map((field) => field.name), DORIS_PROCESSLIST);
    const self = rows.find((row) => row.Id === rootId)!;
    assert.equal(self.CurrentConnected, 'Yes');
    assert.equal(self.User, 'root');
    assert.match(self.Host!, /^127\.0\.0\.1:\d+$/);
    assert.match(self.LoginTime!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.equal(self.Catalog, 'internal');
    assert.equal(self.Command, 'Query');
    assert.match(self.QueryId!, /\S/);
    assert.equal(self.Info, long.slice(0, 100), 'without FULL, Info is the first 100 characters (Doris)');
    assert.equal(self.CloudCluster, 'default_compute_group');
    const other = rows.find((row) => row.Id === danaId)!;
    assert.equal(other.CurrentConnected, 'No');
    assert.equal(other.User, 'dana');
    assert.equal(other.Command, 'Sleep');
    const full = await queryRecords(root, long.replace('SHOW', 'SHOW FULL'));
    assert.equal(full.find((row) => row.Id === rootId)!.Info, long.replace('SHOW', 'SHOW FULL'));
    // information_schema.processlist: the same columns in upper snake case, the same sessions, Info in full.
    const [infoRows, infoFields] = (await root.query({ sql: 'SELECT * FROM information_schema.processlist ORDER BY ID', rowsAsArray: false })) as unknown as [Record<string, string | null>[], { name: string }[]];
    assert.deepEqual(infoFields.map((field) => field.name), DORIS_PROCESSLIST.map((name) => name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()).map((name) => (name === 'QUERYID' ? 'QUERY_ID' : name)));
    assert.deepEqual(infoRows.map((row) => row.ID).sort(), rows.map((row) => row.Id).sort());
    const infoSelf = infoRows.find((row) => row.ID === rootId)!;
    assert.equal(infoSelf.CURRENT_CONNECTED, 'Yes');
    assert.equal(infoSelf.INFO, 'SELECT * FROM information_schema.processlist ORDER BY ID');
    assert.equal(infoSelf.HOST, self.Host);
    assert.equal(infoSelf.LOGIN_TIME, self.LoginTime);
    // Without ADMIN_PRIV: one's own user's sessions only, in both.
    assert.deepEqual([...new Set((await queryRecords(dana, 'SHOW PROCESSLIST')).map((row) => row.User))], ['dana']);
    assert.deepEqual([...new Set((await queryRecords(dana, 'SELECT USER FROM information_schema.processlist')).map((row) => row.USER))], ['dana']);
    // The mariadb CLI prints the columns by name.
    const cli = await mariadb(server.ports.query_port, 'root', '', 'SHOW FULL PROCESSLIST');
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(cli.stdout.split('\n')[0], DORIS_PROCESSLIST.join('\t'));
    await dana.end();
  });

  test('the Doris release Galene announces (3.0) in version_comment, SHOW FRONTENDS / BACKENDS and /api/bootstrap; its defaults', async () => {
    const [[comment, version, atVersion]] = await queryRows(root, 'SELECT @@version_comment, version(), @@version');
    assert.equal(comment, 'Galene 0.1.0 (Doris version doris-3.0.0 compatible)');
    assert.match(comment!, /doris-(\d+)\.(\d+)\.(\d+)/, 'a tool reading the Doris version finds it');
    // Doris answers the MySQL version it emulates here, as Galene's handshake does.
    assert.equal(version, '5.7.99');
    assert.equal(atVersion, '5.7.99');
    assert.equal((await queryRecords(root, 'SHOW FRONTENDS'))[0].Version, 'doris-3.0.0-galene-0.1.0');
    assert.equal((await queryRecords(root, 'SHOW BACKENDS'))[0].Version, 'doris-3.0.0-galene-0.1.0');
    const boot = await new Promise<string>((resolve, reject) => execFile('curl', ['-sS', `http://127.0.0.1:${server.ports.http_port}/api/bootstrap`], (err, stdout) => (err ? reject(err) : resolve(stdout))));
    assert.equal((JSON.parse(boot) as { data: { version: string } }).data.version, 'doris-3.0.0-galene-0.1.0');
    // The mariadb CLI's status line shows the comment.
    const cli = await mariadb(server.ports.query_port, 'root', '', 'status');
    assert.match(cli.stdout, /Server version:\s+5\.7\.99 Galene 0\.1\.0 \(Doris version doris-3\.0\.0 compatible\)/);
    // Defaults where Doris master moved on are 3.0's (doris-session-variables.ts).
    const defaults = Object.fromEntries((await queryRows(root, "SHOW VARIABLES WHERE Variable_name IN ('enable_parallel_result_sink', 'batch_size', 'enable_sql_cache', 'profile_level')")).map((row) => [row[0], row[1]]));
    assert.deepEqual(defaults, { enable_parallel_result_sink: '0', batch_size: '4064', enable_sql_cache: '0', profile_level: '1' });
  });

  test('ORDER BY on information_schema strings is case-insensitive as their comparisons; names excepted', async () => {
    const order = async (sql: string): Promise<string[]> => (await queryRows(root, sql)).map((row) => row[0]!);
    // COLUMN_NAME collates case-insensitively: acol, Bcol, Ccol (bytes would give Bcol, Ccol, acol).
    assert.deepEqual(await order("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'fu' AND TABLE_NAME = 't' ORDER BY COLUMN_NAME"), ['acol', 'Bcol', 'Ccol']);
    assert.deepEqual(await order("SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'fu' AND TABLE_NAME = 't' ORDER BY COLUMN_NAME DESC"), ['Ccol', 'Bcol', 'acol']);
    // By alias, by ordinal, with DISTINCT, through a table alias, and by a column not selected.
    assert.deepEqual(await order("SELECT COLUMN_NAME AS n FROM information_schema.COLUMNS WHERE TABLE_NAME = 't' AND TABLE_SCHEMA = 'fu' ORDER BY n"), ['acol', 'Bcol', 'Ccol']);
    assert.deepEqual(await order("SELECT COLUMN_NAME, ORDINAL_POSITION FROM information_schema.COLUMNS WHERE TABLE_NAME = 't' AND TABLE_SCHEMA = 'fu' ORDER BY 1"), ['acol', 'Bcol', 'Ccol']);
    assert.deepEqual(await order("SELECT DISTINCT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_NAME = 't' AND TABLE_SCHEMA = 'fu' ORDER BY COLUMN_NAME"), ['acol', 'Bcol', 'Ccol']);
    assert.deepEqual(await order("SELECT COLUMN_NAME, count(*) FROM information_schema.COLUMNS WHERE TABLE_NAME = 't' AND TABLE_SCHEMA = 'fu' GROUP BY COLUMN_NAME ORDER BY COLUMN_NAME"), ['acol', 'Bcol', 'Ccol']);
    assert.deepEqual(await order("SELECT c.ORDINAL_POSITION FROM information_schema.COLUMNS c WHERE c.TABLE_NAME = 't' AND c.TABLE_SCHEMA = 'fu' ORDER BY c.COLUMN_NAME"), ['2', '1', '3']);
    // A table alias keeps the comparisons case-insensitive too.
    assert.deepEqual(await order("SELECT c.COLUMN_NAME FROM information_schema.COLUMNS c WHERE c.TABLE_SCHEMA = 'fu' AND c.COLUMN_NAME = 'ACOL'"), ['acol']);
    // Values come back as stored; ordinary tables keep the binary order.
    await root.query('CREATE TABLE fu.words (w VARCHAR(10)) DUPLICATE KEY(w) DISTRIBUTED BY HASH(w) BUCKETS 1');
    await root.query("INSERT INTO fu.words VALUES ('b'), ('B'), ('a'), ('C')");
    assert.deepEqual(await order('SELECT w FROM fu.words ORDER BY w'), ['B', 'C', 'a', 'b']);
    // Table names are names: they keep the binary order (lower_case_table_names = 0).
    await root.query('CREATE TABLE fu.Zeta (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    assert.deepEqual(await order("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'fu' ORDER BY TABLE_NAME"), ['Zeta', 't', 'words']);
  });
});
