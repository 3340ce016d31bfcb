/**
 * Hostile input, security slice: admin HTTP endpoints need an admin, passwords never reach profiles, the
 * audit log or error messages, data files are owner-only, ErrorURLs are unguessable, and a non-admin user
 * cannot manage users, change root's password, drop databases, SET GLOBAL or touch another user's 2PC load.
 * One real server, real clients (mysql2, curl, node http).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import * as os from 'node:os';
import { QueryProfile } from '../../src/common/profile';
import { redactSecrets } from '../../src/common/redact';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { skipUnderS3 } from '../helpers/storage-matrix';
import { httpRequest } from '../group-commit/helpers';
import { count, curlGet, curlLoad, httpPut } from '../stream-load/helpers';

const ACCESS_DENIED_GRANT = /Access denied; you need \(at least one of\) the \(GRANT\) privilege\(s\) for this operation/;
const ACCESS_DENIED_ADMIN = /Access denied; you need \(at least one of\) the \(ADMIN\) privilege\(s\) for this operation/;

function mode(file: string): number {
  return fs.statSync(file).mode & 0o777;
}

/** Every file and directory under `root` (not `root` itself). */
function walkTree(root: string): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        dirs.push(full);
        walk(full);
      } else files.push(full);
    }
  };
  walk(root);
  return { files, dirs };
}

describe('security', () => {
  let server: GaleneProcess;
  let root: Connection;
  let bob: Connection;
  let workDir: string;

  before(async () => {
    server = await startGalene();
    workDir = fs.mkdtempSync(path.join(server.dataDir, 'work-'));
    root = await connect(server.ports.query_port);
    await root.query('CREATE DATABASE sec');
    await root.query('CREATE TABLE sec.t (k INT, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await root.query("CREATE USER 'bob'@'%' IDENTIFIED BY 'bobs-secret-pw'");
    await root.query("GRANT SELECT_PRIV, LOAD_PRIV ON sec.t TO 'bob'@'%'");
    bob = await connect(server.ports.query_port, { user: 'bob', password: 'bobs-secret-pw' });
  });

  after(async () => {
    await bob?.end();
    await root?.end();
    await server?.stop();
  });

  test('update_config and get_wal_size: 401 without valid credentials, 403 for a non-admin, nothing changes', async () => {
    const be = `http://127.0.0.1:${server.ports.webserver_port}/api/update_config`;
    for (const query of ['group_commit_wal_fsync=false', 'label_keep_max_second=0', 'max_tablet_version_num=1']) {
      const anonymous = await httpRequest('POST', `${be}?${query}`);
      assert.equal(anonymous.status, 401, anonymous.body);
      assert.equal(JSON.parse(anonymous.body).status, 'BAD');
      assert.ok(JSON.parse(anonymous.body).msg);
      assert.equal((await httpRequest('POST', `${be}?${query}`, { auth: 'root:wrong' })).status, 401);
      const nonAdmin = await httpRequest('POST', `${be}?${query}`, { auth: 'bob:bobs-secret-pw' });
      assert.equal(nonAdmin.status, 403, nonAdmin.body);
      assert.match(JSON.parse(nonAdmin.body).msg, ACCESS_DENIED_ADMIN);
    }
    // Nothing was changed: one insert still works (max_tablet_version_num=1 would fail it) ...
    await root.query("INSERT INTO sec.t VALUES (1, 'a')");
    await root.query("INSERT INTO sec.t VALUES (2, 'b')");
    // ... and a label still cannot be loaded twice (label_keep_max_second=0 would allow it).
    const csv = path.join(workDir, 'l.csv');
    fs.writeFileSync(csv, '3,c\n');
    const feLoad = `http://127.0.0.1:${server.ports.http_port}/api/sec/t/_stream_load`;
    assert.equal((await curlLoad(feLoad, csv, ['column_separator:,', 'label:sec_once'])).json.Status, 'Success');
    assert.equal((await curlLoad(feLoad, csv, ['column_separator:,', 'label:sec_once'])).json.Status, 'Label Already Exists');
    // The admin still can, with curl -u root: as users do.
    const ok = await httpRequest('POST', `${be}?max_tablet_version_num=2000`, { auth: 'root:' });
    assert.equal(ok.status, 200, ok.body);
    assert.deepEqual(JSON.parse(ok.body), { status: 'OK', msg: '' });
    const wal = `http://127.0.0.1:${server.ports.http_port}/api/get_wal_size`;
    assert.equal((await httpRequest('GET', wal)).status, 401);
    const walBob = await httpRequest('GET', wal, { auth: 'bob:bobs-secret-pw' });
    assert.equal(walBob.status, 403);
    assert.equal(JSON.parse(walBob.body).code, 403);
    assert.equal((await httpRequest('GET', wal, { auth: 'admin:' })).status, 200);
    // Stream Load itself needs credentials.
    const noAuth = await curlLoad(feLoad, csv, ['column_separator:,'], null);
    assert.equal(noAuth.status, 401);
    assert.equal(await count(root, 'sec.t'), 3);
  });

  test('passwords are redacted in SHOW QUERY PROFILE, fe.audit.log and error messages', async () => {
    await root.query("CREATE USER 'carol'@'%' IDENTIFIED BY 'carol-pw-1234'");
    await root.query("SET PASSWORD FOR 'carol'@'%' = PASSWORD('carol-pw-5678')");
    await bob.query("SET PASSWORD = PASSWORD('bobs-secret-pw')");
    // Unparseable statements carrying a password: the syntax error quotes the text.
    await assert.rejects(root.query("ALTER USER carol IDENTIFIED BY 'alter-pw-9999' garbage"), (err: Error) => {
      assert.doesNotMatch(err.message, /alter-pw-9999/);
      return true;
    });
    await assert.rejects(root.query("CREATE USER dave IDENTIFIED BY 'dave-pw-4321' garbage"), (err: Error) => {
      assert.doesNotMatch(err.message, /dave-pw-4321/);
      return true;
    });
    await assert.rejects(root.query("CREATE USER 'carol'@'%' IDENTIFIED BY 'dup-pw-2468'"), { errno: 1396 });
    const secrets = /carol-pw-1234|carol-pw-5678|bobs-secret-pw|alter-pw-9999|dave-pw-4321|dup-pw-2468/;
    // The admin sees every profile, bob only his own (Doris): none holds a password.
    const profiles = await queryRows(root, 'SHOW QUERY PROFILE "/"');
    const texts = profiles.map((row) => row[8] ?? '').join('\n');
    assert.match(texts, /CREATE USER 'carol'@'%' IDENTIFIED BY '\*XXX'/);
    assert.match(texts, /SET PASSWORD FOR 'carol'@'%' = PASSWORD\('\*XXX'\)/);
    assert.doesNotMatch(texts, secrets);
    const bobProfiles = await queryRows(bob, 'SHOW QUERY PROFILE "/"');
    assert.ok(bobProfiles.length > 0);
    assert.deepEqual([...new Set(bobProfiles.map((row) => row[6]))], ['bob']);
    const bobTexts = bobProfiles.map((row) => row[8] ?? '').join('\n');
    assert.match(bobTexts, /SET PASSWORD = PASSWORD\('\*XXX'\)/);
    assert.doesNotMatch(bobTexts, /carol/);
    assert.doesNotMatch(bobTexts, secrets);
    // Another user's profile is not found for bob, by id either.
    const rootOnly = profiles.find((row) => row[6] === 'root')!;
    await assert.rejects(bob.query(`SHOW QUERY PROFILE "/${rootOnly[0]}"`), /not found/);
    for (const row of profiles.slice(0, 8)) {
      const detail = await queryRows(root, `SHOW QUERY PROFILE "/${row[0]}"`);
      assert.doesNotMatch(detail.map((pair) => pair.join('=')).join('\n'), secrets);
    }
    // The audit log (flushed within 100 ms of a statement; wait for our last statement's line).
    const auditFile = path.join(server.dataDir, 'log', 'fe.audit.log');
    await root.query("SELECT 'audit marker'");
    let audit = '';
    while (!audit.includes('audit marker')) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      audit = fs.existsSync(auditFile) ? fs.readFileSync(auditFile, 'utf8') : '';
    }
    assert.match(audit, /IDENTIFIED BY '\*XXX'/);
    assert.doesNotMatch(audit, secrets);
    // The passwords themselves were set: carol logs in with the new one.
    const carol = await connect(server.ports.query_port, { user: 'carol', password: 'carol-pw-5678' });
    await carol.end();
  });

  test('redactSecrets: quoting, escapes, nesting, cut-off literals, properties', () => {
    assert.equal(redactSecrets("CREATE USER u IDENTIFIED BY 'p''w\\'x'"), "CREATE USER u IDENTIFIED BY '*XXX'");
    assert.equal(redactSecrets('create user u identified by "pw"'), 'create user u identified by "*XXX"');
    assert.equal(redactSecrets("SET PASSWORD FOR 'u'@'%' = '*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19'"), "SET PASSWORD FOR 'u'@'%' = '*XXX'");
    assert.equal(redactSecrets("CREATE USER u IDENTIFIED BY PASSWORD '*24'"), "CREATE USER u IDENTIFIED BY PASSWORD '*XXX'");
    assert.equal(redactSecrets("PREPARE s FROM 'CREATE USER u IDENTIFIED BY ''pw'''"), "PREPARE s FROM 'CREATE USER u IDENTIFIED BY ''*XXX'''");
    assert.equal(redactSecrets("near 'IDENTIFIED BY 'secr"), "near 'IDENTIFIED BY '*XXX'");
    assert.equal(redactSecrets('PROPERTIES ("s3.secret_key" = "abc", "s3.endpoint" = "e")'), 'PROPERTIES ("s3.secret_key" = "*XXX", "s3.endpoint" = "e")');
    assert.equal(redactSecrets("the value pw-long-one was wrong", "SET PASSWORD = 'pw-long-one'"), 'the value *XXX was wrong');
    assert.equal(redactSecrets("SELECT 'identified' FROM t"), "SELECT 'identified' FROM t");
  });

  test('a non-admin cannot manage users, change root password, drop a database or SET GLOBAL', async () => {
    await assert.rejects(bob.query("CREATE USER 'eve'@'%' IDENTIFIED BY 'x'"), (err: Error & { errno: number }) => {
      assert.equal(err.errno, 1227);
      assert.match(err.message, ACCESS_DENIED_GRANT);
      return true;
    });
    await assert.rejects(bob.query("DROP USER 'carol'@'%'"), { errno: 1227 });
    await assert.rejects(bob.query("SET PASSWORD FOR 'root'@'%' = PASSWORD('owned')"), /Can not set password for root user, except root itself/);
    await assert.rejects(bob.query("SET PASSWORD FOR 'carol'@'%' = PASSWORD('owned')"), { errno: 1227 });
    await assert.rejects(bob.query('DROP DATABASE sec'), (err: Error & { errno: number }) => {
      assert.equal(err.errno, 1044);
      assert.match(err.message, /Access denied for user 'bob' to database 'sec'/);
      return true;
    });
    await assert.rejects(bob.query('DROP DATABASE IF EXISTS nothing_here'), { errno: 1044 });
    await assert.rejects(bob.query('SET GLOBAL query_timeout = 5'), (err: Error & { errno: number }) => {
      assert.equal(err.errno, 1227);
      assert.match(err.message, ACCESS_DENIED_ADMIN);
      return true;
    });
    // Nothing changed: root still logs in without a password, the database is there, carol keeps hers.
    const rootAgain = await connect(server.ports.query_port);
    assert.deepEqual(await queryRows(rootAgain, 'SELECT count(*) FROM sec.t'), [['3']]);
    const globalTimeout = await queryRows(rootAgain, "SHOW GLOBAL VARIABLES LIKE 'query_timeout'");
    assert.equal(globalTimeout.length, 1);
    assert.notEqual(globalTimeout[0][1], '5');
    await rootAgain.end();
    const carol = await connect(server.ports.query_port, { user: 'carol', password: 'carol-pw-5678' });
    await carol.end();
    const eve = connect(server.ports.query_port, { user: 'eve', password: 'x' });
    await assert.rejects(eve, { errno: 1045 });
    // A user may still change their own password, and the admin anyone's but root's.
    await bob.query("SET PASSWORD FOR 'bob'@'%' = PASSWORD('bobs-secret-pw')");
    await root.query('SET GLOBAL query_timeout = 300');
  });

  test('2PC: another user cannot commit or abort my load; the owner and the admin can', async () => {
    const csv = path.join(workDir, 'tp.csv');
    fs.writeFileSync(csv, '10,x\n');
    const feLoad = `http://127.0.0.1:${server.ports.http_port}/api/sec/t/_stream_load`;
    const loaded = await curlLoad(feLoad, csv, ['column_separator:,', 'two_phase_commit:true'], 'root:');
    assert.equal(loaded.json.Status, 'Success', loaded.body);
    const txnId = String(loaded.json.TxnId);
    const asBob = { Authorization: 'Basic ' + Buffer.from('bob:bobs-secret-pw').toString('base64') };
    for (const port of [server.ports.http_port, server.ports.webserver_port]) {
      for (const operation of ['abort', 'commit']) {
        const answer = await httpPut(port, '/api/sec/_stream_load_2pc', { ...asBob, txn_id: txnId, txn_operation: operation }, async () => undefined);
        assert.equal(answer.json.status, 'Fail', answer.body);
        assert.match(String(answer.json.msg), ACCESS_DENIED_ADMIN);
      }
    }
    const [txn] = await queryRows(root, `SHOW TRANSACTION FROM sec WHERE ID = ${txnId}`);
    assert.equal(txn[3], 'PRECOMMITTED');
    const wrongPassword = await httpPut(server.ports.webserver_port, '/api/sec/_stream_load_2pc', { Authorization: 'Basic ' + Buffer.from('bob:nope').toString('base64'), txn_id: txnId, txn_operation: 'abort' }, async () => undefined);
    assert.equal(wrongPassword.status, 401);
    // Bob's own load: bob may commit it; the admin may abort anyone's.
    const bobs = await curlLoad(feLoad, csv, ['column_separator:,', 'two_phase_commit:true'], 'bob:bobs-secret-pw');
    assert.equal(bobs.json.Status, 'Success', bobs.body);
    const committed = await httpPut(server.ports.webserver_port, '/api/sec/_stream_load_2pc', { ...asBob, txn_id: String(bobs.json.TxnId), txn_operation: 'commit' }, async () => undefined);
    assert.equal(committed.json.status, 'Success', committed.body);
    const aborted = await httpPut(server.ports.http_port, '/api/sec/_stream_load_2pc', { txn_id: txnId, txn_operation: 'abort' }, async () => undefined);
    assert.equal(aborted.json.status, 'Success', aborted.body);
    assert.equal(await count(root, 'sec.t'), 4);
  });

  test('ErrorURL names are 128-bit random; old-style guessable names are refused', async () => {
    const csv = path.join(workDir, 'bad.csv');
    fs.writeFileSync(csv, '20,ok\nthree,columns,here\n');
    const beLoad = `http://127.0.0.1:${server.ports.webserver_port}/api/sec/t/_stream_load`;
    const loaded = await curlLoad(beLoad, csv, ['column_separator:,', 'max_filter_ratio:0.9', 'label:err_log_1']);
    assert.equal(loaded.json.Status, 'Success', loaded.body);
    const url = String(loaded.json.ErrorURL);
    const name = new URL(url).searchParams.get('file')!;
    assert.match(name, /^error_log_\d+_[0-9a-f]{32}$/);
    assert.doesNotMatch(name, /err_log_1/, 'the label is not part of the name');
    const served = await curlGet(url);
    assert.equal(served.status, 200);
    assert.match(served.body, /three,columns,here/);
    const guess = `http://127.0.0.1:${server.ports.webserver_port}/api/_load_error_log?file=error_log_${loaded.json.TxnId}_err_log_1`;
    assert.equal((await curlGet(guess)).status, 404);
    assert.equal(mode(path.join(server.dataDir, 'load_error_log', name)), 0o600);
    assert.equal(mode(path.join(server.dataDir, 'load_error_log')), 0o700);
  });

  // Modes of the local data directory's segment files: under s3 the segments are objects in the bucket.
  test('metadata, audit log and segment files are owner-only (0600), their directories 0700', skipUnderS3('file modes of segment files in <data_dir>/objects'), async () => {
    const meta = path.join(server.dataDir, 'meta');
    assert.equal(mode(meta), 0o700);
    for (const name of fs.readdirSync(meta)) assert.equal(mode(path.join(meta, name)), 0o600, name);
    assert.ok(fs.readdirSync(meta).includes('galene-meta.db'));
    assert.equal(mode(path.join(server.dataDir, 'log')), 0o700);
    assert.equal(mode(path.join(server.dataDir, 'log', 'fe.audit.log')), 0o600);
    const tree = walkTree(server.dataDir);
    const segments = tree.files.filter((file) => file.endsWith('.dat'));
    const dirs = tree.dirs;
    assert.ok(segments.length > 0, 'the loads wrote segment files');
    for (const file of segments) assert.equal(mode(file), 0o600, file);
    for (const dir of dirs.filter((dir) => segments.some((file) => file.startsWith(dir + path.sep)))) assert.equal(mode(dir), 0o700, dir);
  });
});

test('block file cache: cached blocks are 0600 in 0700 directories', async () => {
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-sec-store-'))));
  const cacheDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-sec-cache-')), 'cache');
  await remote.put('data/1/s.dat', Buffer.alloc(3 * 4096, 7));
  const cache = await createFileCache(remote, { paths: [{ path: cacheDir, totalSize: 1 << 20, indexPercent: 5, normalPercent: 95 }], blockSize: 4096 });
  const profile = new QueryProfile('q', '', 'root', 'db');
  const file = await cache.open('data/1/s.dat', profile, 3 * 4096);
  assert.equal((await file.read(0, 3 * 4096, profile)).length, 3 * 4096);
  await (cache as unknown as { flush(): Promise<void> }).flush();
  const { files, dirs } = walkTree(cacheDir);
  dirs.push(cacheDir);
  assert.ok(files.length > 0, 'the read filled the cache');
  for (const each of files) assert.equal(mode(each), 0o600, each);
  for (const each of dirs) assert.equal(mode(each), 0o700, each);
  await cache.close();
  await remote.close?.();
});
