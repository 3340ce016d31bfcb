/**
 * Doris's privilege model over real clients: a matrix over the privileges (each allows exactly its
 * statements), roles, SHOW GRANTS / SHOW ROLES, information_schema and SHOW filtering, DROP USER mid-session,
 * lock-out, PASSWORD_EXPIRE, the mariadb CLI, Stream Load and admin HTTP endpoints, and a restart.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';
import { grantTestVaultUsage } from '../helpers/storage-matrix';
import { curlLoad } from '../stream-load/helpers';

type Denial = { errno: number; message: string };

const denied = (errno: number, pattern?: RegExp) => (err: Denial): boolean => {
  assert.equal(err.errno, errno, err.message);
  if (pattern) assert.match(err.message, pattern);
  return true;
};

function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    execFile(cmd, args, (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? Number((err as { code?: number }).code ?? 1) : 0 }));
  });
}

function http(method: string, url: string, auth: string | null): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const args = ['-sS', '-X', method, '-w', '\n%{http_code}', url];
    if (auth !== null) args.push('-u', auth);
    execFile('curl', args, (err, stdout, stderr) => {
      if (err) return reject(new Error(stderr || err.message));
      const cut = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) });
    });
  });
}

describe('privileges', () => {
  let server: GaleneProcess;
  let root: Connection;
  let dataDir: string;

  const login = (user: string, password = 'pw', database?: string) => connect(server.ports.query_port, { user, password, database });

  before(async () => {
    server = await startGalene();
    dataDir = server.dataDir;
    root = await connect(server.ports.query_port);
    await root.query('CREATE DATABASE pv');
    await root.query('CREATE DATABASE other');
    for (const table of ['t', 'u']) await root.query(`CREATE TABLE pv.${table} (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`);
    await root.query('CREATE TABLE other.secret (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await root.query('INSERT INTO pv.t VALUES (1, 10), (2, 20)');
    await root.query('INSERT INTO pv.u VALUES (1, 100)');
  });

  after(async () => {
    await root?.end();
    await server?.stop();
  });

  test('the privilege matrix: each privilege allows exactly its statements', async () => {
    const users: Record<string, string> = {
      p_select: 'SELECT_PRIV',
      p_load: 'LOAD_PRIV',
      p_alter: 'ALTER_PRIV',
      p_create: 'CREATE_PRIV',
      p_drop: 'DROP_PRIV',
      p_none: '',
    };
    for (const [user, privilege] of Object.entries(users)) {
      await root.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'pw'`);
      if (privilege) await root.query(`GRANT ${privilege} ON pv.* TO '${user}'@'%'`);
      await grantTestVaultUsage(root, `'${user}'@'%'`);
    }
    // Each operation and the privilege that allows it. ALTER and DROP work on scratch tables root makes.
    const ops: { needs: string; sql: (user: string) => string[] }[] = [
      { needs: 'SELECT_PRIV', sql: () => ['SELECT count(*) FROM pv.t'] },
      { needs: 'SELECT_PRIV', sql: () => ['SELECT * FROM pv.t JOIN pv.u ON t.k = u.k'] },
      { needs: 'SELECT_PRIV', sql: () => ['SELECT * FROM pv.t WHERE k IN (SELECT k FROM pv.u)'] },
      { needs: 'SELECT_PRIV', sql: () => ['EXPLAIN SELECT * FROM pv.t'] },
      { needs: 'LOAD_PRIV', sql: () => ['INSERT INTO pv.t VALUES (9, 90)'] },
      { needs: 'LOAD_PRIV', sql: () => ['UPDATE pv.t SET v = 91 WHERE k = 9'] },
      { needs: 'LOAD_PRIV', sql: () => ['DELETE FROM pv.t WHERE k = 9'] },
      { needs: 'CREATE_PRIV', sql: (user) => [`CREATE TABLE pv.c_${user} (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`] },
      { needs: 'LOAD_PRIV', sql: (user) => [`TRUNCATE TABLE pv.s_${user}`] },
      { needs: 'ALTER_PRIV', sql: (user) => [`ALTER TABLE pv.s_${user} ADD COLUMN w INT`] },
      { needs: 'DROP_PRIV', sql: (user) => [`DROP TABLE pv.s_${user}`] },
    ];
    for (const [user, privilege] of Object.entries(users)) {
      await root.query(`CREATE TABLE pv.s_${user} (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`);
      const conn = await login(user);
      for (const op of ops) {
        for (const sql of op.sql(user)) {
          if (op.needs === privilege) {
            await conn.query(sql);
          } else {
            await assert.rejects(conn.query(sql), (err: Denial) => {
              assert.equal(err.errno, 1142, `${user}: ${sql}: ${err.message}`);
              assert.match(err.message, /command denied to user '\w+'@'127\.0\.0\.1' for table '(internal: )?pv: [a-z_]+'/);
              return true;
            }, `${user} must not run ${sql}`);
          }
        }
      }
      // Nobody of them may touch another database, manage users or set globals.
      await assert.rejects(conn.query('SELECT * FROM other.secret'), denied(1142, /SELECT command denied to user '\w+'@'127.0.0.1' for table 'internal: other: secret'/));
      await assert.rejects(conn.query("CREATE USER 'x'@'%'"), denied(1227, /\(GRANT\) privilege/));
      await assert.rejects(conn.query('SET GLOBAL query_timeout = 10'), denied(1227, /\(ADMIN\) privilege/));
      await assert.rejects(conn.query('USE other'), denied(1044, new RegExp(`Access denied for user '${user}' to database 'other'`)));
      await conn.end();
    }
    // Prepared statements (binary protocol and SQL PREPARE / EXECUTE) are checked the same way.
    // (mysql2's own binary decoding: the helper's text typeCast does not apply to binary rows.)
    const reader = await connect(server.ports.query_port, { user: 'p_select', password: 'pw', typeCast: true });
    const [prepared] = (await reader.execute('SELECT v FROM pv.t WHERE k = ?', [1])) as unknown as [unknown[][]];
    assert.deepEqual(prepared, [[10]]);
    await assert.rejects(reader.execute('INSERT INTO pv.t VALUES (?, ?)', [60, 6]), denied(1142, /LOAD command denied/));
    await reader.query("PREPARE ins FROM 'INSERT INTO pv.t VALUES (61, 6)'");
    await assert.rejects(reader.query('EXECUTE ins'), denied(1142, /LOAD command denied/));
    const nobody = await login('p_none');
    await assert.rejects(nobody.execute('SELECT v FROM pv.t WHERE k = ?', [1]), denied(1142, /SELECT command denied/));
    // SHOW PROCESSLIST: without ADMIN_PRIV only one's own user's sessions (Doris).
    const listed = (await queryRecords(nobody, 'SHOW PROCESSLIST')).map((row) => row.User);
    assert.deepEqual([...new Set(listed)], ['p_none']);
    assert.ok((await queryRecords(root, 'SHOW PROCESSLIST')).some((row) => row.User === 'p_select'));
    await reader.end();
    await nobody.end();
    // INSERT ... SELECT needs SELECT on the source as well as LOAD on the target.
    const loader = await login('p_load');
    await assert.rejects(loader.query('INSERT INTO pv.t SELECT k + 100, v FROM pv.u'), denied(1142, /SELECT command denied .* for table 'internal: pv: u'/));
    await root.query("GRANT SELECT_PRIV ON pv.u TO 'p_load'@'%'");
    await loader.query('INSERT INTO pv.t SELECT k + 100, v FROM pv.u');
    await loader.end();
    // CREATE / DROP DATABASE need the privilege on the database: 1044.
    const creator = await login('p_create');
    await assert.rejects(creator.query('CREATE DATABASE newdb'), denied(1044, /Access denied for user 'p_create' to database 'newdb'/));
    await root.query("GRANT CREATE_PRIV ON newdb.* TO 'p_create'@'%'");
    await creator.query('CREATE DATABASE newdb');
    await assert.rejects(creator.query('DROP DATABASE newdb'), denied(1044));
    await creator.end();
  });

  test('SHOW DATABASES / SHOW TABLES / information_schema list only what the user may see', async () => {
    await root.query("CREATE USER 'viewer'@'%' IDENTIFIED BY 'pw'");
    await root.query("GRANT SELECT_PRIV ON pv.t TO 'viewer'@'%'");
    const viewer = await login('viewer');
    assert.deepEqual((await queryRows(viewer, 'SHOW DATABASES')).map((row) => row[0]).sort(), ['information_schema', 'pv']);
    assert.deepEqual(await queryRows(viewer, 'SHOW TABLES FROM pv'), [['t']]);
    assert.deepEqual(await queryRows(viewer, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA <> 'information_schema' ORDER BY 1"), [['t']]);
    assert.deepEqual(await queryRows(viewer, 'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA ORDER BY 1'), [['information_schema'], ['pv']]);
    assert.deepEqual(await queryRows(viewer, "SELECT DISTINCT TABLE_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'pv'"), [['t']]);
    await assert.rejects(viewer.query('DESCRIBE pv.u'), denied(1142));
    await assert.rejects(viewer.query('SHOW CREATE TABLE pv.u'), denied(1142));
    await assert.rejects(viewer.query('SHOW COLUMNS FROM pv.u'), denied(1142));
    assert.equal((await queryRows(viewer, 'SHOW CREATE TABLE pv.t')).length, 1);
    await viewer.query('USE pv');
    await assert.rejects(login('viewer', 'pw', 'other'), denied(1044));
    // The privilege tables, MySQL's columns.
    assert.deepEqual(await queryRows(viewer, 'SELECT GRANTEE, TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, PRIVILEGE_TYPE, IS_GRANTABLE FROM information_schema.TABLE_PRIVILEGES'), [["'viewer'@'%'", 'internal', 'pv', 't', 'SELECT', 'NO']]);
    const rootRows = await queryRows(root, "SELECT GRANTEE, PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = '''root''@''%''' ORDER BY 2");
    assert.ok(rootRows.some((row) => row[1] === 'ADMIN'), JSON.stringify(rootRows));
    const schemaRows = await queryRows(root, "SELECT GRANTEE, TABLE_SCHEMA, PRIVILEGE_TYPE FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE = '''p_select''@''%'''");
    assert.deepEqual(schemaRows, [["'p_select'@'%'", 'pv', 'SELECT']]);
    await viewer.end();
  });

  test('roles, SHOW GRANTS, SHOW ROLES, REVOKE', async () => {
    await root.query('CREATE ROLE analyst');
    await assert.rejects(root.query('CREATE ROLE analyst'), /Role analyst already exists/);
    await root.query('CREATE ROLE IF NOT EXISTS analyst');
    await root.query('GRANT SELECT ON pv.* TO ROLE analyst');
    await root.query("CREATE USER 'ann'@'%' IDENTIFIED BY 'pw' DEFAULT ROLE 'analyst'");
    await root.query("CREATE USER 'ben'@'%' IDENTIFIED BY 'pw'");
    const ben = await login('ben');
    await assert.rejects(ben.query('SELECT * FROM pv.t'), denied(1142));
    await root.query("GRANT 'analyst' TO 'ben'@'%'");
    assert.equal((await queryRows(ben, 'SELECT count(*) FROM pv.u'))[0][0], '1');
    // Columns: UserIdentity, Comment, Password, Roles, GlobalPrivs, CatalogPrivs, DatabasePrivs, TablePrivs, ...
    const [grants] = await queryRows(ben, 'SHOW GRANTS');
    assert.equal(grants[0], "'ben'@'%'");
    assert.equal(grants[2], 'Yes');
    assert.equal(grants[3], 'analyst');
    assert.equal(grants[6], 'internal.pv: Select_priv');
    const [rootGrants] = await queryRows(root, "SHOW GRANTS FOR 'root'@'%'");
    assert.equal(rootGrants[3], 'operator');
    assert.equal(rootGrants[4], 'Node_priv,Admin_priv');
    await assert.rejects(ben.query("SHOW GRANTS FOR 'root'@'%'"), denied(1227));
    await assert.rejects(ben.query('SHOW ALL GRANTS'), denied(1227));
    const all = await queryRows(root, 'SHOW ALL GRANTS');
    assert.ok(all.some((row) => row[0] === "'ann'@'%'"));
    const roles = await queryRows(root, 'SHOW ROLES');
    const analyst = roles.find((row) => row[0] === 'analyst')!;
    assert.match(analyst[2]!, /ann@%/);
    assert.match(analyst[2]!, /ben@%/);
    assert.equal(analyst[5], 'internal.pv: Select_priv');
    assert.ok(roles.some((row) => row[0] === 'operator') && roles.some((row) => row[0] === 'admin'));
    // MySQL spellings: INSERT is LOAD_PRIV, ALL is the table privileges.
    await root.query("GRANT INSERT ON pv.t TO 'ben'@'%'");
    await ben.query('INSERT INTO pv.t VALUES (50, 5)');
    await root.query("REVOKE INSERT ON pv.t FROM 'ben'@'%'");
    await assert.rejects(ben.query('INSERT INTO pv.t VALUES (51, 5)'), denied(1142, /LOAD command denied to user 'ben'/));
    await assert.rejects(root.query("REVOKE DROP_PRIV ON pv.t FROM 'ben'@'%'"), denied(1141));
    await root.query("REVOKE 'analyst' FROM 'ben'@'%'");
    await assert.rejects(ben.query('SELECT * FROM pv.t'), denied(1142));
    await root.query("GRANT ALL PRIVILEGES ON pv.t TO 'ben'@'%'");
    await ben.query('SELECT * FROM pv.t');
    await ben.query('ALTER TABLE pv.t ADD COLUMN extra INT');
    // ADMIN_PRIV only on *.*.*; unknown privileges and roles are errors.
    await assert.rejects(root.query("GRANT ADMIN_PRIV ON pv.* TO 'ben'@'%'"), /ADMIN_PRIV and NODE_PRIV can only be granted/);
    await assert.rejects(root.query("GRANT 'nosuch' TO 'ben'@'%'"), /Role nosuch does not exist/);
    await assert.rejects(root.query("GRANT FLY_PRIV ON pv.* TO 'ben'@'%'"), { errno: 1064 });
    // A role with ADMIN_PRIV makes its members admins.
    await root.query("GRANT 'admin' TO 'ben'@'%'");
    await ben.query('SET GLOBAL query_timeout = 301');
    await ben.query("CREATE USER 'made_by_ben'@'%'");
    await root.query('SET GLOBAL query_timeout = 300');
    await root.query("REVOKE 'admin' FROM 'ben'@'%'");
    await assert.rejects(ben.query('SET GLOBAL query_timeout = 302'), denied(1227));
    await root.query('DROP ROLE analyst');
    const annNow = await login('ann');
    await assert.rejects(annNow.query('SELECT * FROM pv.t'), denied(1142));
    await annNow.end();
    await ben.end();
  });

  test('DROP USER: the open session loses its rights at its next statement', async () => {
    await root.query("CREATE USER 'gone'@'%' IDENTIFIED BY 'pw'");
    await root.query("GRANT SELECT_PRIV ON pv.* TO 'gone'@'%'");
    const gone = await login('gone');
    await gone.query('SELECT * FROM pv.t');
    await root.query("DROP USER 'gone'@'%'");
    await assert.rejects(gone.query('SELECT * FROM pv.t'), denied(1142));
    await gone.end();
    // Recreating the name does not bring the old grants back.
    await root.query("CREATE USER 'gone'@'%' IDENTIFIED BY 'pw'");
    const again = await login('gone');
    await assert.rejects(again.query('SELECT * FROM pv.t'), denied(1142));
    await again.end();
  });

  test("'user'@'host': the most specific host wins", async () => {
    await root.query("CREATE USER 'hosty'@'%' IDENTIFIED BY 'wide'");
    await root.query("CREATE USER 'hosty'@'127.0.0.1' IDENTIFIED BY 'narrow'");
    await root.query("GRANT SELECT_PRIV ON pv.t TO 'hosty'@'127.0.0.1'");
    await assert.rejects(login('hosty', 'wide'), denied(1045));
    const narrow = await login('hosty', 'narrow');
    assert.deepEqual(await queryRows(narrow, 'SELECT current_user()'), [["hosty@127.0.0.1"]]);
    await narrow.query('SELECT * FROM pv.t');
    await narrow.end();
  });

  test('FAILED_LOGIN_ATTEMPTS locks the account; ACCOUNT_UNLOCK; PASSWORD_EXPIRE; SET PASSWORD hash', async () => {
    await root.query("CREATE USER 'locky'@'%' IDENTIFIED BY 'pw' FAILED_LOGIN_ATTEMPTS 2 PASSWORD_LOCK_TIME 1 DAY");
    await assert.rejects(login('locky', 'bad1'), denied(1045));
    await assert.rejects(login('locky', 'bad2'), denied(3955, /Access denied for user 'locky'@'%'. Account is blocked for 86400 second\(s\) \(86400 second\(s\) remaining\) due to 2 consecutive failed logins./));
    // Locked: even the right password is refused.
    await assert.rejects(login('locky', 'pw'), denied(3955));
    await root.query("ALTER USER 'locky'@'%' ACCOUNT_UNLOCK");
    const locky = await login('locky', 'pw');
    await locky.end();
    // PASSWORD_EXPIRE: an expired password cannot log in (MySQL's 1862, as Doris).
    await root.query("CREATE USER 'old'@'%' IDENTIFIED BY 'pw' PASSWORD_EXPIRE INTERVAL 1 SECOND");
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await assert.rejects(login('old', 'pw'), denied(1862, /Your password has expired/));
    await root.query("ALTER USER 'old'@'%' IDENTIFIED BY 'new-pw' PASSWORD_EXPIRE NEVER");
    (await login('old', 'new-pw')).destroy();
    // SET PASSWORD with the stored form (*SHA1(SHA1(pw)) in hex, as mysqldump writes it).
    await root.query("SET PASSWORD FOR 'old'@'%' = '*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19'");
    (await login('old', 'password')).destroy();
    await assert.rejects(root.query("SET PASSWORD FOR 'old'@'%' = 'not-a-hash'"), /41-digit hexadecimal/);
  });

  test('repeated failed logins are answered ever later', async () => {
    await root.query("CREATE USER 'brute'@'%' IDENTIFIED BY 'pw'");
    const started = Date.now();
    for (let attempt = 0; attempt < 5; attempt++) await assert.rejects(login('brute', `guess${attempt}`), denied(1045));
    // Failures 4 and 5 wait 1 s and 2 s.
    assert.ok(Date.now() - started >= 2900, `5 failures took ${Date.now() - started} ms`);
  });

  test('the mariadb CLI gets the denial', async () => {
    await root.query("CREATE USER 'cli'@'%' IDENTIFIED BY 'pw'");
    const args = ['-h127.0.0.1', `-P${server.ports.query_port}`, '-ucli', '-ppw', '--batch', '-e'];
    const refused = await run('mariadb', [...args, 'SELECT * FROM pv.t']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /ERROR 1142 \(42000\).*SELECT command denied to user 'cli'@'127.0.0.1' for table 'internal: pv: t'/);
    await root.query("GRANT SELECT_PRIV ON pv.t TO 'cli'@'%'");
    const ok = await run('mariadb', [...args, 'SELECT k FROM pv.t WHERE k = 1']);
    assert.equal(ok.stdout, 'k\n1\n');
  });

  const JAVA = '/usr/bin/java';
  const JDBC_JAR = '/usr/share/java/mariadb-java-client.jar';
  test('the MariaDB JDBC driver gets the denial codes', { skip: fs.existsSync(JAVA) && fs.existsSync(JDBC_JAR) ? false : 'java or libmariadb-java not installed' }, async () => {
    await root.query("CREATE USER 'jdbc'@'%' IDENTIFIED BY 'pw'");
    await root.query("GRANT SELECT_PRIV ON pv.t TO 'jdbc'@'%'");
    const source = path.join(PROJECT_ROOT, 'test', 'privileges', 'PrivilegesJdbc.java');
    const url = `jdbc:mariadb://127.0.0.1:${server.ports.query_port}/pv`;
    const result = await run(JAVA, ['-cp', JDBC_JAR, source, url, 'jdbc', 'pw', 'SELECT * FROM t', 'INSERT INTO t VALUES (3, 3)', 'SET GLOBAL query_timeout = 9', 'USE other']);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines[0], 'ok');
    assert.match(lines[1], /^1142 42000 .*LOAD command denied to user 'jdbc'@'127.0.0.1' for table 'pv: t'/);
    assert.match(lines[2], /^1227 42000 .*Access denied; you need \(at least one of\) the \(ADMIN\) privilege\(s\) for this operation/);
    assert.match(lines[3], /^1044 42000 .*Access denied for user 'jdbc' to database 'other'/);
  });

  test('Stream Load needs LOAD_PRIV; admin HTTP endpoints need ADMIN_PRIV; /metrics and /api/health stay open', async () => {
    await root.query("CREATE USER 'sl'@'%' IDENTIFIED BY 'pw'");
    const csv = path.join(dataDir, 'priv-load.csv');
    fs.writeFileSync(csv, '700,7\n');
    const feLoad = `http://127.0.0.1:${server.ports.http_port}/api/pv/u/_stream_load`;
    const beLoad = `http://127.0.0.1:${server.ports.webserver_port}/api/pv/u/_stream_load`;
    for (const url of [feLoad, beLoad]) {
      const refused = await curlLoad(url, csv, ['column_separator:,'], 'sl:pw');
      assert.equal(refused.status, 403, refused.body);
      assert.match(String(refused.json.Message), /LOAD command denied to user 'sl'@'127.0.0.1' for table 'pv: u'/);
    }
    assert.equal((await queryRows(root, 'SELECT count(*) FROM pv.u WHERE k = 700'))[0][0], '0');
    await root.query("GRANT LOAD_PRIV ON pv.u TO 'sl'@'%'");
    const loaded = await curlLoad(feLoad, csv, ['column_separator:,'], 'sl:pw');
    assert.equal(loaded.json.Status, 'Success', loaded.body);
    assert.equal((await queryRows(root, 'SELECT count(*) FROM pv.u WHERE k = 700'))[0][0], '1');
    // Admin endpoints: 403 for a user without ADMIN_PRIV, 200 once a role gives it.
    const wal = `http://127.0.0.1:${server.ports.http_port}/api/get_wal_size`;
    const config = `http://127.0.0.1:${server.ports.webserver_port}/api/update_config?max_tablet_version_num=2000`;
    assert.equal((await http('GET', wal, 'sl:pw')).status, 403);
    assert.equal((await http('POST', config, 'sl:pw')).status, 403);
    assert.equal((await http('GET', wal, null)).status, 401);
    await root.query("GRANT ADMIN_PRIV ON *.*.* TO 'sl'@'%'");
    assert.equal((await http('GET', wal, 'sl:pw')).status, 200);
    assert.equal((await http('POST', config, 'sl:pw')).status, 200);
    assert.equal((await http('GET', `http://127.0.0.1:${server.ports.http_port}/metrics`, null)).status, 200);
    assert.equal((await http('GET', `http://127.0.0.1:${server.ports.http_port}/api/health`, null)).status, 200);
  });

  test('a restart keeps users, roles, grants and lock-outs', async () => {
    await root.query('CREATE ROLE keeper');
    await root.query('GRANT SELECT_PRIV ON pv.t TO ROLE keeper');
    await root.query("CREATE USER 'kept'@'%' IDENTIFIED BY 'pw' DEFAULT ROLE 'keeper'");
    await root.query("GRANT LOAD_PRIV ON pv.t TO 'kept'@'%'");
    await root.query("CREATE USER 'stuck'@'%' IDENTIFIED BY 'pw' FAILED_LOGIN_ATTEMPTS 1 PASSWORD_LOCK_TIME UNBOUNDED");
    await assert.rejects(login('stuck', 'wrong'), denied(3955));
    await root.end();
    await server.stop();
    server = await startGalene({ dataDir });
    root = await connect(server.ports.query_port);
    const kept = await login('kept');
    await kept.query('SELECT * FROM pv.t');
    await kept.query('INSERT INTO pv.t (k, v) VALUES (77, 7)');
    await assert.rejects(kept.query('SELECT * FROM pv.u'), denied(1142));
    await kept.end();
    await assert.rejects(login('stuck', 'pw'), denied(3955));
    const roles = await queryRows(root, 'SHOW ROLES');
    assert.ok(roles.some((row) => row[0] === 'keeper'));
  });
});
