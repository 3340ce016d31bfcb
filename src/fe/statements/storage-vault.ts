/**
 * Storage vault statements (Doris): CREATE STORAGE VAULT, ALTER STORAGE VAULT, SET ... AS DEFAULT STORAGE
 * VAULT, UNSET DEFAULT STORAGE VAULT (ADMIN_PRIV, checked in statement-privileges.ts), and the table side:
 * CREATE TABLE's `storage_vault_name` (or the default vault) becomes the table's `storage_vault_id`.
 *
 * A vault is refused at CREATE — and new credentials at ALTER — unless a probe object can be put, read
 * back and deleted under its root path, with S3's error in the message (so a wrong key, a read-only key,
 * a missing bucket or an unreachable endpoint fail here, not at the first load). Messages never carry the
 * secret key; SHOW STORAGE VAULTS (show-storage-vault.ts) masks it.
 */
import { randomUUID } from 'node:crypto';
import { GaleneError } from '../../common/errors';
import type { StatementResult } from '../../common/result';
import { openS3Vault } from '../../io/vault-object-store';
import type { Catalog } from '../../meta/catalog';
import { STORAGE_VAULT_ID_PROPERTY, STORAGE_VAULT_NAME_PROPERTY, type StorageVault } from '../../meta/storage-vaults';
import type { StorageVaultStatement } from '../../sql/ast';
import { okResult } from './result-rows';
import { privilegesOf } from './statement-privileges';
import type { StatementSession } from './statement-session';

const vaultError = (message: string): GaleneError => new GaleneError('STORAGE_VAULT_ERROR', [message]);

/** Properties of an S3 vault Doris requires at CREATE (Doris CREATE-STORAGE-VAULT). */
const S3_REQUIRED = ['s3.endpoint', 's3.region', 's3.root.path', 's3.bucket', 's3.access_key', 's3.secret_key', 'provider'] as const;
/** Every property an S3 vault takes (`s3.external_endpoint` is accepted and unused: one endpoint serves all). */
const S3_PROPERTIES: ReadonlySet<string> = new Set(['type', ...S3_REQUIRED, 'use_path_style', 's3.connection.maximum', 's3.connection.request.timeout', 's3.connection.timeout', 's3.external_endpoint', 'set_as_default']);
/** What ALTER STORAGE VAULT may change on an S3 vault (Doris ALTER-STORAGE-VAULT): credentials, name, path style. */
const S3_ALTERABLE: ReadonlySet<string> = new Set(['type', 's3.access_key', 's3.secret_key', 'vault_name', 'use_path_style']);
const PROVIDERS: readonly string[] = ['COS', 'OSS', 'S3', 'OBS', 'BOS', 'AZURE', 'GCP'];
/** Doris's vault names (FeNameFormat): a letter, then letters, digits, '-' or '_'. */
const VAULT_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
/** Doris's name of its own built-in vault: reserved. */
const BUILT_IN_VAULT_NAME = 'built_in_storage_vault';

/** The value shown instead of the secret key (SHOW STORAGE VAULTS). */
export const MASKED_SECRET = 'xxxxxxx';

function checkVaultName(name: string): void {
  if (!VAULT_NAME.test(name)) throw vaultError(`Incorrect vault name '${name}': it must start with a letter and contain only letters, digits, '-' and '_' (at most 64 characters)`);
  if (name.toLowerCase() === BUILT_IN_VAULT_NAME) throw vaultError(`${BUILT_IN_VAULT_NAME} is a reserved storage vault name`);
}

function checkBoolean(properties: Readonly<Record<string, string>>, key: string): void {
  const value = properties[key];
  if (value !== undefined && !['true', 'false'].includes(value.toLowerCase())) throw new GaleneError('INVALID_PROPERTY', [key, `${value} (expected true or false)`]);
}

/** Keys in lower case (Doris's property names are case-insensitive: `VAULT_NAME`), values as given. */
function lowerKeys(properties: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key.toLowerCase(), value]));
}

/** The type of a vault's properties: S3 (HDFS refused with its reason, anything else Doris's error). */
function vaultType(properties: Readonly<Record<string, string>>): 'S3' {
  const type = properties['type'];
  if (type === undefined || type.trim() === '') throw vaultError('Missing [type] in properties.');
  if (type.toUpperCase() === 'HDFS') throw new GaleneError('UNSUPPORTED', ['HDFS storage vaults (use an S3-compatible store)']);
  if (type.toUpperCase() !== 'S3') throw vaultError('Only support S3, HDFS storage vault.');
  return 'S3';
}

/** The stored properties of a new S3 vault, checked. */
function checkS3Properties(properties: Readonly<Record<string, string>>): Record<string, string> {
  for (const key of Object.keys(properties)) if (!S3_PROPERTIES.has(key)) throw vaultError(`Unknown storage vault property: ${key}`);
  for (const key of S3_REQUIRED) if ((properties[key] ?? '').trim() === '') throw vaultError(`Missing [${key}] in properties.`);
  if (!PROVIDERS.includes(properties['provider'].toUpperCase())) throw new GaleneError('INVALID_PROPERTY', ['provider', `${properties['provider']} (expected one of ${PROVIDERS.join(', ')})`]);
  checkBoolean(properties, 'use_path_style');
  checkBoolean(properties, 'set_as_default');
  const stored: Record<string, string> = { ...properties, type: 'S3', provider: properties['provider'].toUpperCase() };
  delete stored['set_as_default'];
  return stored;
}

/**
 * Put, read back and delete a small object under the vault's root path; any failure is the statement's
 * error with S3's words (the store's errors name the operation, key and S3 error code, never a secret).
 */
async function probeVault(name: string, properties: Readonly<Record<string, string>>): Promise<void> {
  const store = openS3Vault(properties, { maxAttempts: 2, requestTimeoutMs: 10_000, connectTimeoutMs: 3_000 });
  const key = `galene_vault_probe/${randomUUID()}`;
  const body = Buffer.from(`galene storage vault probe ${key}\n`);
  try {
    await store.put(key, body);
    const back = await store.get(key);
    if (!back.equals(body)) throw new GaleneError('IO_ERROR', [`get ${key}: the object read back differs from the one written`]);
    await store.delete(key);
  } catch (err) {
    const where = `s3://${properties['s3.bucket']}/${properties['s3.root.path'] ?? ''}`;
    throw vaultError(`Failed to access storage vault '${name}' at ${properties['s3.endpoint']} (${where}): ${(err as Error).message.replace(/^errCode = \d+, detailMessage = /, '')}`);
  } finally {
    store.close();
  }
}

async function createVault(session: StatementSession, action: Extract<StorageVaultStatement['action'], { op: 'create' }>): Promise<StatementResult> {
  const vaults = session.fe.catalog.vaults;
  checkVaultName(action.name);
  if (vaults.find(action.name)) {
    if (action.ifNotExists) return okResult();
    throw vaultError(`Storage vault '${action.name}' already exists`);
  }
  const given = lowerKeys(action.properties);
  vaultType(given);
  const properties = checkS3Properties(given);
  await probeVault(action.name, properties);
  // The probe awaited: another session may have created it meanwhile.
  if (vaults.find(action.name) && action.ifNotExists) return okResult();
  vaults.create(action.name, 'S3', properties, (given['set_as_default'] ?? 'false').toLowerCase() === 'true');
  return okResult();
}

async function alterVault(session: StatementSession, action: Extract<StorageVaultStatement['action'], { op: 'alter' }>): Promise<StatementResult> {
  const vaults = session.fe.catalog.vaults;
  const vault = vaults.get(action.name);
  const given = lowerKeys(action.properties);
  if (Object.keys(given).length === 0) throw vaultError('Storage vault properties can not be empty');
  if (given['type'] !== undefined && vaultType(given) !== vault.type) throw vaultError(`Storage vault '${vault.name}' is of type ${vault.type}, not ${given['type']}`);
  for (const key of Object.keys(given)) if (!S3_ALTERABLE.has(key)) throw vaultError(`Alter property ${key} is not allowed.`);
  checkBoolean(given, 'use_path_style');
  const newName = given['vault_name'] ?? vault.name;
  if (newName !== vault.name) {
    checkVaultName(newName);
    if (vaults.find(newName)) throw vaultError(`Storage vault '${newName}' already exists`);
  }
  const properties: Record<string, string> = { ...vault.properties };
  for (const key of ['s3.access_key', 's3.secret_key', 'use_path_style']) if (given[key] !== undefined) properties[key] = given[key];
  // New credentials or URL style must work before they replace the old ones.
  if (given['s3.access_key'] !== undefined || given['s3.secret_key'] !== undefined || given['use_path_style'] !== undefined) await probeVault(newName, properties);
  vaults.alter(vault.id, newName, properties);
  return okResult();
}

/** The handler of every storage vault statement. */
export async function runStorageVault(session: StatementSession, statement: StorageVaultStatement): Promise<StatementResult> {
  const action = statement.action;
  const vaults = session.fe.catalog.vaults;
  switch (action.op) {
    case 'create':
      return createVault(session, action);
    case 'alter':
      return alterVault(session, action);
    case 'setDefault':
      vaults.setDefault(vaults.get(action.name).id);
      return okResult();
    case 'unsetDefault':
      vaults.setDefault(null);
      return okResult();
  }
}

/** USAGE_PRIV on the vault (ADMIN_PRIV holds it too): needed to create a table in it and to see it in SHOW. */
export function mayUseVault(session: StatementSession, vault: StorageVault): boolean {
  return privilegesOf(session).hasResource(`STORAGE VAULT ${vault.name}`);
}

/**
 * CREATE TABLE's properties with the table's vault by id: the one `storage_vault_name` names (Doris's error
 * when it does not exist), else the default vault, else none (the built-in local directory). The creator
 * needs USAGE_PRIV on that vault (the built-in directory needs none).
 */
export function withTableVault(session: StatementSession, properties: Readonly<Record<string, string>>): Record<string, string> {
  const catalog = session.fe.catalog;
  const out = { ...properties };
  const name = out[STORAGE_VAULT_NAME_PROPERTY];
  delete out[STORAGE_VAULT_NAME_PROPERTY];
  let vault: StorageVault | null;
  if (name !== undefined) {
    vault = catalog.vaults.get(name);
  } else if (out[STORAGE_VAULT_ID_PROPERTY] !== undefined) {
    // SHOW CREATE TABLE's text run again: the id must name a vault.
    vault = catalog.vaults.getById(Number(out[STORAGE_VAULT_ID_PROPERTY])) ?? null;
    if (vault === null) throw vaultError(`Storage vault with id ${out[STORAGE_VAULT_ID_PROPERTY]} does not exist`);
  } else {
    vault = catalog.vaults.defaultVault();
  }
  if (vault !== null) {
    if (!mayUseVault(session, vault)) throw new GaleneError('STORAGE_VAULT_USAGE_DENIED', [session.user, session.host, vault.name]);
    out[STORAGE_VAULT_ID_PROPERTY] = String(vault.id);
  }
  return out;
}

/** A vault's properties as SHOW prints them: the secret key masked (Doris). */
export function shownVaultProperties(vault: StorageVault): Record<string, string> {
  const shown = { ...vault.properties };
  if (shown['s3.secret_key'] !== undefined) shown['s3.secret_key'] = MASKED_SECRET;
  return shown;
}
