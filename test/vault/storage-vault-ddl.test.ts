/**
 * Storage vault DDL through a real server and mysql2: CREATE STORAGE VAULT (every refusal: missing and
 * unknown properties, HDFS, bad names, the reachability probe against a closed port, a wrong access key,
 * a wrong secret, a read-only key and a missing bucket, each with S3's error), IF NOT EXISTS, SHOW
 * STORAGE VAULTS (Doris's columns, the secret masked), SET / UNSET DEFAULT, ALTER (what may and may not
 * change, rename, a credential that does not work), DROP (Doris has none), ADMIN_PRIV, and the secret in
 * no SHOW, error, log or audit line. The fault proxy in front of s3rver checks credentials and SigV4.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { auditLines, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';
import { useS3BehindProxy } from '../helpers/s3-behind-proxy';

/** s3rver checks access keys, not SigV4 signatures: the proxy checks this secret. */
const SECRET = 'galene-test-secret-7';
let server: GaleneProcess;
let conn: Connection;

before(async () => {
  server = await startGalene({ storage: 'local' });
  conn = await connect(server.ports.query_port);
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

// After the server's hooks: the S3 server stops after Galene does.
const s3 = useS3BehindProxy({ proxy: { credentials: { S3RVER: { secretKey: SECRET }, READER: { secretKey: 'reader-secret', readOnly: true } } } });

const props = (rootPath: string, overrides: Record<string, string> = {}): string => s3.vaultProperties(rootPath, { 's3.secret_key': SECRET, ...overrides });

async function refused(sql: string, pattern: RegExp): Promise<void> {
  await assert.rejects(conn.query(sql), (err: Error) => {
    assert.match(err.message, pattern);
    assert.ok(!err.message.includes(SECRET), `no secret in: ${err.message}`);
    return true;
  });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

test('CREATE STORAGE VAULT checks its properties with Doris messages', async () => {
  await refused('CREATE STORAGE VAULT v1 PROPERTIES ("s3.bucket" = "b")', /Missing \[type\] in properties\./);
  await refused('CREATE STORAGE VAULT v1 PROPERTIES ("type" = "hdfs", "fs.defaultFS" = "hdfs://x")', /HDFS storage vaults/);
  await refused('CREATE STORAGE VAULT v1 PROPERTIES ("type" = "ftp")', /Only support S3, HDFS storage vault\./);
  await refused(`CREATE STORAGE VAULT v1 ${props('p', { 's3.bucket': '' })}`, /Missing \[s3\.bucket\] in properties\./);
  await refused(`CREATE STORAGE VAULT v1 ${props('p', { provider: 'DROPBOX' })}`, /Invalid value for property provider: DROPBOX/);
  await refused(`CREATE STORAGE VAULT v1 ${props('p', { 's3.colour': 'blue' })}`, /Unknown storage vault property: s3\.colour/);
  await refused(`CREATE STORAGE VAULT v1 ${props('p', { use_path_style: 'maybe' })}`, /Invalid value for property use_path_style/);
  await refused(`CREATE STORAGE VAULT \`1bad\` ${props('p')}`, /Incorrect vault name '1bad'/);
  await refused(`CREATE STORAGE VAULT built_in_storage_vault ${props('p')}`, /reserved storage vault name/);
  await refused('DROP STORAGE VAULT v1', /DROP STORAGE VAULT/);
  assert.deepEqual(await queryRows(conn, 'SHOW STORAGE VAULTS'), []);
});

test('a vault that cannot be reached or written is refused at CREATE with S3\'s error', async () => {
  const port = await closedPort();
  await refused(`CREATE STORAGE VAULT v2 ${props('p', { 's3.endpoint': `127.0.0.1:${port}` })}`, /Failed to access storage vault 'v2' at 127\.0\.0\.1:\d+ .*ECONNREFUSED/);
  await refused(`CREATE STORAGE VAULT v2 ${props('p', { 's3.access_key': 'NOBODY' })}`, /InvalidAccessKeyId \(HTTP 403\)/);
  await refused(`CREATE STORAGE VAULT v2 ${props('p', { 's3.secret_key': 'wrong-secret' })}`, /SignatureDoesNotMatch \(HTTP 403\)/);
  await refused(`CREATE STORAGE VAULT v2 ${props('p', { 's3.access_key': 'READER', 's3.secret_key': 'reader-secret' })}`, /AccessDenied \(HTTP 403\)/);
  await refused(`CREATE STORAGE VAULT v2 ${props('p', { 's3.bucket': 'no-such-bucket' })}`, /NoSuchBucket/);
  assert.deepEqual(await queryRows(conn, 'SHOW STORAGE VAULTS'), []);
});

test('CREATE, SHOW, SET / UNSET DEFAULT and ALTER STORAGE VAULT', async () => {
  await conn.query(`CREATE STORAGE VAULT s3_main ${props('ddl-main')}`);
  await refused(`CREATE STORAGE VAULT s3_main ${props('ddl-main')}`, /Storage vault 's3_main' already exists/);
  await conn.query(`CREATE STORAGE VAULT IF NOT EXISTS s3_main ${props('ddl-main')}`);
  const [shown] = await queryRecords(conn, 'SHOW STORAGE VAULTS');
  assert.deepEqual(Object.keys(shown), ['StorageVaultName', 'StorageVaultId', 'Properties', 'IsDefault']);
  assert.equal(shown.StorageVaultName, 's3_main');
  assert.equal(shown.IsDefault, 'false');
  const properties = JSON.parse(shown.Properties!) as Record<string, string>;
  assert.equal(properties['s3.secret_key'], 'xxxxxxx');
  assert.equal(properties['s3.bucket'], s3.bucket);
  assert.equal(properties['s3.root.path'], 'ddl-main');
  assert.equal(properties['provider'], 'S3');

  await refused('SET nope AS DEFAULT STORAGE VAULT', /Storage vault 'nope' does not exist/);
  await conn.query('SET s3_main AS DEFAULT STORAGE VAULT');
  assert.deepEqual(await queryRows(conn, 'SHOW STORAGE VAULTS'), [['s3_main', shown.StorageVaultId, shown.Properties, 'true']]);
  await conn.query('UNSET DEFAULT STORAGE VAULT');
  assert.equal((await queryRows(conn, 'SHOW STORAGE VAULTS'))[0][3], 'false');

  await refused('ALTER STORAGE VAULT nope PROPERTIES ("type" = "S3", "s3.access_key" = "x")', /Storage vault 'nope' does not exist/);
  for (const key of ['s3.bucket', 's3.endpoint', 's3.root.path', 's3.region', 'provider']) {
    await refused(`ALTER STORAGE VAULT s3_main PROPERTIES ("type" = "S3", "${key}" = "x")`, new RegExp(`Alter property ${key.replace(/\./g, '\\.')} is not allowed\\.`));
  }
  await refused('ALTER STORAGE VAULT s3_main PROPERTIES ("type" = "S3", "s3.secret_key" = "not-it")', /Failed to access storage vault 's3_main'.*SignatureDoesNotMatch/);
  await conn.query(`ALTER STORAGE VAULT s3_main PROPERTIES ("type" = "S3", "VAULT_NAME" = "s3_renamed", "s3.secret_key" = "${SECRET}")`);
  const renamed = await queryRows(conn, 'SHOW STORAGE VAULTS');
  assert.deepEqual(renamed.map((row) => [row[0], row[1]]), [['s3_renamed', shown.StorageVaultId]]);
  assert.ok(!renamed[0][2]!.includes(SECRET));
});

test('a table names its vault; an unknown one is Doris\'s error; the property cannot change', async () => {
  await conn.query('CREATE DATABASE IF NOT EXISTS vddl');
  await refused('CREATE TABLE vddl.t (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("storage_vault_name" = "nope")', /Storage vault 'nope' does not exist/);
  await conn.query('CREATE TABLE vddl.t (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("storage_vault_name" = "s3_renamed")');
  const [, create] = (await queryRows(conn, 'SHOW CREATE TABLE vddl.t'))[0];
  assert.match(create!, /"storage_vault_id" = "\d+"/);
  await refused('ALTER TABLE vddl.t SET ("storage_vault_name" = "s3_renamed")', /Can not change storage_vault_name/);
});

test('vault DDL needs ADMIN_PRIV', async () => {
  await conn.query("CREATE USER 'plain'@'%' IDENTIFIED BY 'pw'");
  const plain = await connect(server.ports.query_port, { user: 'plain', password: 'pw' });
  try {
    for (const sql of [`CREATE STORAGE VAULT v3 ${props('p')}`, 'SET s3_renamed AS DEFAULT STORAGE VAULT', 'UNSET DEFAULT STORAGE VAULT', 'ALTER STORAGE VAULT s3_renamed PROPERTIES ("s3.access_key" = "x")']) {
      await assert.rejects(plain.query(sql), /Access denied; you need \(at least one of\) the \(ADMIN\) privilege/);
    }
  } finally {
    await plain.end();
  }
});

test('the secret key is in no audit line and no log', async () => {
  const lines = await auditLines(server.dataDir, 'STORAGE VAULT', 3);
  assert.ok(lines.length >= 3);
  for (const line of lines) assert.ok(!line.includes(SECRET), line);
  const logDir = path.join(server.dataDir, 'log');
  for (const file of fs.readdirSync(logDir)) {
    const text = fs.readFileSync(path.join(logDir, file), 'utf8');
    assert.ok(!text.includes(SECRET), `${file} holds the secret`);
  }
});
