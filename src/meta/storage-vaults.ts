/**
 * Storage vaults (Doris's `CREATE STORAGE VAULT`): named object stores a table's data lives in. The
 * built-in vault is the local object directory (no record, no id): tables without a vault and tables
 * created while no default vault is set live there, so `galene start` needs no setup. Every other vault
 * has a record here, kept in the meta store (table `storage_vaults`), and a table records its vault by id
 * in its `storage_vault_id` property (a rename of the vault changes no table).
 *
 * This registry holds the records and tells listeners (the BE's routing object store) about every
 * change, so a vault created or altered at run time is used without a restart. Validation of the
 * properties and the reachability probe are the statement layer's (fe/statements/storage-vault.ts).
 */
import { GaleneError } from '../common/errors';
import type { MetaStore } from './meta-store';
import type { TableSchema } from './schema';

/** The table property naming a table's vault by id (set by CREATE TABLE from `storage_vault_name`). */
export const STORAGE_VAULT_ID_PROPERTY = 'storage_vault_id';
/** The CREATE TABLE property naming the vault (Doris). */
export const STORAGE_VAULT_NAME_PROPERTY = 'storage_vault_name';

export interface StorageVault {
  readonly id: number;
  readonly name: string;
  /** 'S3' (Doris also has 'HDFS', which Galene refuses). */
  readonly type: string;
  /** Doris's property names and values as given (credentials included; SHOW masks them). */
  readonly properties: Readonly<Record<string, string>>;
  readonly isDefault: boolean;
}

/** The vault id a table's data lives in; null: the built-in local directory. */
export function tableVaultId(schema: Pick<TableSchema, 'properties'>): number | null {
  const text = schema.properties[STORAGE_VAULT_ID_PROPERTY];
  return text === undefined ? null : Number(text);
}

export class StorageVaults {
  private readonly byId = new Map<number, StorageVault>();
  private readonly listeners: ((vault: StorageVault) => void)[] = [];

  constructor(private readonly meta: MetaStore) {
    for (const row of meta.listStorageVaults()) this.byId.set(row.id, row);
  }

  list(): StorageVault[] {
    return [...this.byId.values()].sort((a, b) => a.id - b.id);
  }

  find(name: string): StorageVault | undefined {
    return this.list().find((vault) => vault.name === name);
  }

  /** The vault of `name`, or Doris's error. */
  get(name: string): StorageVault {
    const vault = this.find(name);
    if (!vault) throw new GaleneError('STORAGE_VAULT_ERROR', [`Storage vault '${name}' does not exist`]);
    return vault;
  }

  getById(id: number): StorageVault | undefined {
    return this.byId.get(id);
  }

  defaultVault(): StorageVault | null {
    return this.list().find((vault) => vault.isDefault) ?? null;
  }

  /** Called with every vault created or changed (the BE opens or reopens its store). */
  onChange(listener: (vault: StorageVault) => void): void {
    this.listeners.push(listener);
  }

  create(name: string, type: string, properties: Readonly<Record<string, string>>, setAsDefault = false): StorageVault {
    if (this.find(name)) throw new GaleneError('STORAGE_VAULT_ERROR', [`Storage vault '${name}' already exists`]);
    const vault: StorageVault = { id: this.meta.nextId('storage_vault'), name, type, properties: { ...properties }, isDefault: setAsDefault };
    this.meta.putStorageVault(vault);
    if (setAsDefault) this.clearDefaultInMemory();
    this.byId.set(vault.id, vault);
    this.notify(vault);
    return vault;
  }

  /** Replace a vault's name and properties (the statement layer checked what may change). */
  alter(id: number, name: string, properties: Readonly<Record<string, string>>): StorageVault {
    const old = this.byId.get(id);
    if (!old) throw new GaleneError('INTERNAL', [`storage vault ${id} vanished`]);
    const clash = this.find(name);
    if (clash && clash.id !== id) throw new GaleneError('STORAGE_VAULT_ERROR', [`Storage vault '${name}' already exists`]);
    const vault: StorageVault = { ...old, name, properties: { ...properties } };
    this.meta.putStorageVault(vault);
    this.byId.set(id, vault);
    this.notify(vault);
    return vault;
  }

  /** Make `id` the default vault of new tables (null: the built-in local directory again). */
  setDefault(id: number | null): void {
    this.meta.setDefaultStorageVault(id);
    this.clearDefaultInMemory();
    if (id !== null) this.byId.set(id, { ...this.byId.get(id)!, isDefault: true });
  }

  private clearDefaultInMemory(): void {
    for (const [vaultId, vault] of this.byId) if (vault.isDefault) this.byId.set(vaultId, { ...vault, isDefault: false });
  }

  private notify(vault: StorageVault): void {
    for (const listener of this.listeners) listener(vault);
  }
}
