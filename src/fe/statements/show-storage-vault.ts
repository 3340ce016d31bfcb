/**
 * SHOW STORAGE VAULT[S] (Doris's columns): StorageVaultName, StorageVaultId, Properties (JSON, the secret
 * key masked), IsDefault; only the vaults the account has USAGE_PRIV on (Doris). The built-in local
 * directory is not a vault record and is not listed.
 */
import type { RawValue } from '../../common/column';
import type { ColumnSpec } from './result-rows';
import { shaped } from './show-admin';
import type { ShowHandler } from './show-filter';
import { mayUseVault, shownVaultProperties } from './storage-vault';

const STORAGE_VAULT_COLUMNS: readonly ColumnSpec[] = [['StorageVaultName'], ['StorageVaultId'], ['Properties'], ['IsDefault']];

export const STORAGE_VAULT_SHOW_HANDLERS: Record<string, ShowHandler> = {
  'storage vaults': (session, statement) => {
    const rows: RawValue[][] = session.fe.catalog.vaults.list().filter((vault) => mayUseVault(session, vault)).map((vault) => [vault.name, String(vault.id), JSON.stringify(shownVaultProperties(vault)), vault.isDefault ? 'true' : 'false']);
    return shaped(statement, STORAGE_VAULT_COLUMNS, rows);
  },
};
