/**
 * information_schema.file_cache_info (Doris 4.1): one row per block in this BE's file cache — HASH (of
 * the object key), OFFSET, TABLET_ID, SIZE, TYPE (normal, index, ttl, disposable), REMOTE_PATH (empty, as
 * Doris leaves it), CACHE_PATH, BE_ID. TABLET_ID comes from the catalog: the tablet of the segment or index
 * file whose key hashes to HASH (0 when no live file does, as Doris shows a block not tied to a tablet).
 */
import type { RawValue } from '../../common/column';
import { Types } from '../../common/types';
import { cacheKeyHash } from '../../io/block-store';
import type { Catalog } from '../../meta/catalog';
import { BACKEND_ID } from '../cluster-facts';
import { columns, type VirtualTable } from './schema-facts';

const S = Types.varchar(512);
const N = Types.BIGINT;

/** The tablet of every live segment and index file, by the hash of its key. */
function tabletsByHash(catalog: Catalog): Map<string, number> {
  const tablets = new Map<string, number>();
  for (const db of catalog.listDatabases()) {
    for (const table of catalog.listTables(db.name)) {
      for (const rowset of table.rowsets) {
        for (const segment of rowset.segments) {
          tablets.set(cacheKeyHash(segment.key), rowset.tabletId);
          for (const index of segment.indexes ?? []) tablets.set(cacheKeyHash(index.key), rowset.tabletId);
        }
      }
    }
  }
  return tablets;
}

export const FILE_CACHE_TABLES: Record<string, VirtualTable> = {
  file_cache_info: {
    columns: [...columns(S, 'HASH'), ...columns(N, 'OFFSET', 'TABLET_ID', 'SIZE'), ...columns(S, 'TYPE', 'REMOTE_PATH', 'CACHE_PATH'), ...columns(N, 'BE_ID')],
    rows: (facts) => {
      const blocks = facts.server.backend.fileCache.cachedBlocks?.() ?? [];
      if (blocks.length === 0) return [];
      const tablets = tabletsByHash(facts.catalog);
      return blocks.map((block): RawValue[] => [block.hash, BigInt(block.offset), BigInt(tablets.get(block.hash) ?? 0), BigInt(block.size), block.type, '', block.cachePath, BigInt(BACKEND_ID)]);
    },
  },
};
