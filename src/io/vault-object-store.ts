/**
 * The routing object store of storage vaults. Objects of a table in the built-in vault keep their plain
 * keys (`data/<tablet>/<txn>_<seg>.dat`) in the built-in store (the local directory); objects of a table
 * in vault `<id>` carry it in the key (`vault/<id>/data/...`, vaultObjectKey), and this store strips
 * `vault/<id>/` and sends the rest to that vault's store (an S3ObjectStore that applies its own
 * `s3.root.path`), so the bucket holds Doris-like paths `<root.path>/data/<tablet>/...`.
 *
 * Every other layer keeps using the ObjectStore interface on keys and never parses them: `kindOf(key)`
 * says per key whether it is read in place ('local') or through the block cache ('remote').
 * Vaults are added and replaced at run time (CREATE / ALTER STORAGE VAULT) without a restart.
 */
import { GaleneError } from '../common/errors';
import type { ObjectStore } from './object-store';
import { S3ObjectStore, type S3StoreOptions } from './s3-object-store';

const VAULT_PREFIX = 'vault/';
/** A replaced vault store is closed this long after (requests already sent finish on it). */
const RETIRE_DELAY_MS = 60_000;

/** The key of object `key` of a table in vault `vaultId` (null: the built-in vault, key unchanged). */
export function vaultObjectKey(vaultId: number | null, key: string): string {
  return vaultId === null ? key : `${VAULT_PREFIX}${vaultId}/${key}`;
}

/** The vault of a key and the key inside that vault's store; null: a key of the built-in store. */
function splitVaultKey(key: string): { vaultId: number; rest: string } | null {
  if (!key.startsWith(VAULT_PREFIX)) return null;
  const slash = key.indexOf('/', VAULT_PREFIX.length);
  const vaultId = Number(key.slice(VAULT_PREFIX.length, slash));
  if (slash < 0 || !Number.isSafeInteger(vaultId)) throw new GaleneError('IO_ERROR', [`invalid object key '${key}': bad vault prefix`]);
  return { vaultId, rest: key.slice(slash + 1) };
}

export class VaultObjectStore implements ObjectStore {
  private readonly vaults = new Map<number, ObjectStore>();
  /** Replaced stores waiting to be closed, by their timer. */
  private readonly retiring = new Map<NodeJS.Timeout, ObjectStore>();

  constructor(readonly builtIn: ObjectStore) {}

  /** The built-in store's kind; keys of other vaults answer with kindOf. */
  get kind(): 'local' | 'remote' {
    return this.builtIn.kind;
  }

  /** Open or replace vault `vaultId`'s store (a replaced one is closed a while later). */
  setVault(vaultId: number, store: ObjectStore): void {
    const old = this.vaults.get(vaultId);
    this.vaults.set(vaultId, store);
    if (old !== undefined) {
      const timer = setTimeout(() => {
        this.retiring.delete(timer);
        old.close?.();
      }, RETIRE_DELAY_MS);
      timer.unref();
      this.retiring.set(timer, old);
    }
  }

  /** Ids of the vaults with an open store. */
  vaultIds(): number[] {
    return [...this.vaults.keys()].sort((a, b) => a - b);
  }

  /** The store of a vault (tests, metrics). */
  vaultStore(vaultId: number): ObjectStore | undefined {
    return this.vaults.get(vaultId);
  }

  kindOf(key: string): 'local' | 'remote' {
    const split = splitVaultKey(key);
    return split === null ? this.builtIn.kind : (this.vaults.get(split.vaultId)?.kind ?? 'remote');
  }

  private route(key: string): { store: ObjectStore; rest: string } {
    const split = splitVaultKey(key);
    if (split === null) return { store: this.builtIn, rest: key };
    const store = this.vaults.get(split.vaultId);
    if (store === undefined) throw new GaleneError('IO_ERROR', [`${key}: storage vault ${split.vaultId} is not open on this backend`]);
    return { store, rest: split.rest };
  }

  async put(key: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    const { store, rest } = this.route(key);
    return store.put(rest, data);
  }

  async get(key: string, range?: { offset: number; length: number }): Promise<Buffer> {
    const { store, rest } = this.route(key);
    return store.get(rest, range);
  }

  async head(key: string): Promise<{ size: number } | null> {
    const { store, rest } = this.route(key);
    return store.head(rest);
  }

  /** Keys under `prefix`: a `vault/<id>/...` prefix lists that vault, any other the built-in store. */
  async list(prefix: string): Promise<string[]> {
    const split = splitVaultKey(prefix);
    if (split === null) return this.builtIn.list(prefix);
    const store = this.route(prefix).store;
    return (await store.list(split.rest)).map((key) => vaultObjectKey(split.vaultId, key));
  }

  async delete(key: string): Promise<void> {
    const { store, rest } = this.route(key);
    return store.delete(rest);
  }

  localPath(key: string): string | null {
    const split = splitVaultKey(key);
    if (split === null) return this.builtIn.localPath(key);
    return this.vaults.get(split.vaultId)?.localPath(split.rest) ?? null;
  }

  close(): void {
    for (const [timer, old] of this.retiring) {
      clearTimeout(timer);
      old.close?.();
    }
    this.retiring.clear();
    for (const store of this.vaults.values()) store.close?.();
    this.vaults.clear();
    this.builtIn.close?.();
  }
}

/** A vault property that must be a positive integer, or undefined. */
function positiveInt(properties: Readonly<Record<string, string>>, name: string): number | undefined {
  const text = properties[name];
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) throw new GaleneError('INVALID_PROPERTY', [name, text]);
  return value;
}

/**
 * The S3 client options of an S3 vault from Doris's property names: `s3.endpoint` (http:// when it names
 * no scheme, as Doris), `s3.region`, `s3.bucket`, `s3.root.path`, `s3.access_key`, `s3.secret_key`,
 * `use_path_style` (default true), `s3.connection.maximum`, `s3.connection.request.timeout` and
 * `s3.connection.timeout` (milliseconds).
 */
export function s3OptionsOfVault(properties: Readonly<Record<string, string>>): S3StoreOptions {
  const endpoint = (properties['s3.endpoint'] ?? '').trim();
  const maxSockets = positiveInt(properties, 's3.connection.maximum');
  const requestTimeoutMs = positiveInt(properties, 's3.connection.request.timeout');
  const connectTimeoutMs = positiveInt(properties, 's3.connection.timeout');
  return {
    endpoint: endpoint === '' || /^https?:\/\//i.test(endpoint) ? endpoint : `http://${endpoint}`,
    region: properties['s3.region'] || 'us-east-1',
    bucket: properties['s3.bucket'] ?? '',
    rootPath: properties['s3.root.path'] ?? '',
    accessKey: properties['s3.access_key'] ?? '',
    secretKey: properties['s3.secret_key'] ?? '',
    usePathStyle: (properties['use_path_style'] ?? 'true').toLowerCase() !== 'false',
    ...(maxSockets === undefined ? {} : { maxSockets }),
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
    ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
  };
}

/** The object store of an S3 vault. */
export function openS3Vault(properties: Readonly<Record<string, string>>, overrides: Partial<S3StoreOptions> = {}): S3ObjectStore {
  return new S3ObjectStore({ ...s3OptionsOfVault(properties), ...overrides });
}
