/**
 * meta/: durable metadata, owned by the FE: the meta store (SQLite by default), the catalog (databases,
 * tables and their schemas, partitions, tablets, rowsets and versions, transactions and labels, users),
 * delete bitmaps of merge-on-write tables, and the data-directory lock. DESIGN §6: may import only
 * common/; storage/, exec/, load/, be/, sql/ and fe/ read it.
 */
export { Catalog } from './catalog';
export { MetaStore } from './meta-store';
export type { RowsetRecord, TabletRecord, TransactionRecord } from './meta-store';
export { findColumn } from './schema';
export { StorageVaults, tableVaultId, type StorageVault } from './storage-vaults';
export type { ColumnSchema, KeysType, TableSchema } from './schema';
