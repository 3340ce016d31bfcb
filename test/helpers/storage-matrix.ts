/**
 * The storage matrix: the same server tests on the local directory (default) and, with
 * GALENE_TEST_STORAGE=s3 (`npm run test:s3`), on an S3 storage vault: every server startGalene starts gets
 * the default vault `test_s3_vault` on the test process's s3rver behind the fault proxy
 * (sharedS3BehindProxy), its root path named after the server's data directory. What a test sees that
 * legitimately depends on the storage goes through the helpers here, never through weaker assertions:
 *   - `storedObjectKeys(dataDir)`: the server's data objects, in `<data_dir>/objects` or in the bucket,
 *     and `storedObjectFile(dataDir, key)`: one of them as a local file;
 *   - `showCreateUnderTestStorage(conn, lines)`: SHOW CREATE TABLE's expected text, which under s3 ends
 *     its PROPERTIES with the table's `storage_vault_id` as Doris prints it;
 *   - `skipUnderS3(reason)`: a test about the local directory itself opts out, with its reason;
 *   - `grantTestVaultUsage(conn, account)`: an account that creates tables needs USAGE_PRIV on the default
 *     vault under s3 (as Doris's own regression tests grant it in vault mode).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { sharedS3BehindProxy } from './s3-behind-proxy';

/** The storage the matrix runs tests on: 'local' (default) or 's3' (GALENE_TEST_STORAGE=s3). */
export const TEST_STORAGE: 'local' | 's3' = process.env.GALENE_TEST_STORAGE === 's3' ? 's3' : 'local';
export const TEST_VAULT_NAME = 'test_s3_vault';

/** The matrix vault's root path in the shared bucket for a server's data directory. */
const vaultRoot = (dataDir: string): string => `galene-test/${path.basename(dataDir)}`;

/** The matrix vault's id per data directory (a restart on the same directory keeps it). */
const vaultIds = new Map<string, string>();

/** The matrix vault's id on the server that `conn` reaches. */
async function testVaultId(conn: Connection): Promise<string> {
  const [vaults] = await conn.query({ sql: 'SHOW STORAGE VAULTS', rowsAsArray: true });
  const vault = (vaults as unknown[][]).find((row) => row[0] === TEST_VAULT_NAME);
  if (vault === undefined) throw new Error(`the matrix vault ${TEST_VAULT_NAME} is missing`);
  return String(vault[1]);
}

/** Under s3: GRANT USAGE_PRIV on the matrix vault to `account` (`'u'@'%'`), so it may create tables; locally nothing. */
export async function grantTestVaultUsage(conn: Connection, account: string): Promise<void> {
  if (TEST_STORAGE === 's3') await conn.query(`GRANT USAGE_PRIV ON STORAGE VAULT ${TEST_VAULT_NAME} TO ${account}`);
}

/** Create (if missing) and set the matrix's default S3 vault on a server. */
export async function useTestVault(conn: Connection, dataDir: string): Promise<void> {
  const s3 = await sharedS3BehindProxy();
  await s3.createVault(conn, TEST_VAULT_NAME, vaultRoot(dataDir), { ifNotExists: true, asDefault: true });
  vaultIds.set(path.resolve(dataDir), await testVaultId(conn));
}

/**
 * Keys of the data objects a server started on `dataDir` stored, sorted, as its meta store names them:
 * `data/<tablet>/...` under `<data_dir>/objects` on the local directory; under s3 the bucket's keys under
 * the matrix vault, as `vault/<id>/data/<tablet>/...`.
 */
export async function storedObjectKeys(dataDir: string): Promise<string[]> {
  if (TEST_STORAGE === 's3') {
    const vaultId = vaultIds.get(path.resolve(dataDir));
    if (vaultId === undefined) throw new Error(`no server of this test process has the matrix vault on ${dataDir}`);
    return (await (await sharedS3BehindProxy()).bucketKeys(vaultRoot(dataDir), 'data/')).map((key) => `vault/${vaultId}/${key}`).sort();
  }
  const root = path.join(dataDir, 'objects');
  const dir = path.join(root, 'data');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** A local file holding stored object `key` (a storedObjectKeys key): the object's own file, or under s3 a downloaded copy. */
export async function storedObjectFile(dataDir: string, key: string): Promise<string> {
  if (TEST_STORAGE !== 's3') return path.join(dataDir, 'objects', key);
  const inVault = /^vault\/\d+\/(.*)$/.exec(key);
  if (inVault === null) throw new Error(`not a key of the matrix vault: ${key}`);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-object-')), path.basename(key));
  fs.writeFileSync(file, await (await sharedS3BehindProxy()).bucketObject(vaultRoot(dataDir), inVault[1]));
  return file;
}

/**
 * SHOW CREATE TABLE's expected lines for a table created without a vault: as written on the local
 * directory; under s3 its PROPERTIES end with `"storage_vault_id" = "<the matrix vault's id>"` (the table
 * lives in the default vault, and SHOW CREATE TABLE names it as Doris does).
 */
export async function showCreateUnderTestStorage(conn: Connection, lines: readonly string[]): Promise<string[]> {
  if (TEST_STORAGE !== 's3') return [...lines];
  const vaultId = await testVaultId(conn);
  const end = lines.lastIndexOf(');');
  if (end < 1) throw new Error(`not SHOW CREATE TABLE text: ${lines.join('\n')}`);
  return [...lines.slice(0, end - 1), `${lines[end - 1]},`, `"storage_vault_id" = "${vaultId}"`, ...lines.slice(end)];
}

/** node:test options skipping a test under GALENE_TEST_STORAGE=s3: `test(name, skipUnderS3('why'), fn)`. */
export function skipUnderS3(reason: string): { skip?: string } {
  return TEST_STORAGE === 's3' ? { skip: `local directory only: ${reason}` } : {};
}
