/**
 * Doris's table property `file_cache_ttl_seconds`: the blocks of a table's rowsets are cached in the TTL
 * queue (which the other queues never evict before expiry) until the rowset's creation time plus the TTL;
 * after that they are ordinary blocks. This answers the block cache's question "until when is this
 * object a TTL object?" from the catalog.
 *
 * Objects are named by the write path as `[vault/<id>/]data/<tablet>/<txn>_<segment>...` (the segment and
 * the index files beside it), so the tablet and the transaction that wrote the rowset identify it. The
 * lookup table covers only tables with a TTL and is rebuilt from the catalog whenever a table changed
 * (its generation), so new loads, compactions and ALTER TABLE ... SET ("file_cache_ttl_seconds") count
 * from the next read on.
 */
import type { Catalog } from '../meta/catalog';

export const FILE_CACHE_TTL_PROPERTY = 'file_cache_ttl_seconds';

/** `data/<tablet>/<txn>_` anywhere in the key (after a vault prefix). */
const ROWSET_OBJECT = /(?:^|\/)data\/(\d+)\/(\d+)_/;

/** A table's `file_cache_ttl_seconds` (0: none). Validated at CREATE / ALTER. */
export function tableFileCacheTtlSeconds(properties: Readonly<Record<string, string>>): number {
  const value = properties[FILE_CACHE_TTL_PROPERTY];
  return value === undefined ? 0 : Number(value);
}

export class FileCacheTtl {
  /** tablet id -> (txn id of a rowset -> TTL expiry in seconds since the epoch). */
  private expiries = new Map<number, Map<number, number>>();
  private builtAt = -1;

  constructor(private readonly catalog: Pick<Catalog, 'generation' | 'listDatabases' | 'listTables'>) {}

  /** The TTL expiry (seconds since the epoch) of the object `key`; 0 when its table has no TTL. */
  expirationOf(key: string): number {
    const match = ROWSET_OBJECT.exec(key);
    if (match === null) return 0;
    if (this.catalog.generation !== this.builtAt) this.rebuild();
    return this.expiries.get(Number(match[1]))?.get(Number(match[2])) ?? 0;
  }

  private rebuild(): void {
    const expiries = new Map<number, Map<number, number>>();
    for (const database of this.catalog.listDatabases()) {
      for (const table of this.catalog.listTables(database.name)) {
        const ttlSeconds = tableFileCacheTtlSeconds(table.schema.properties);
        if (!(ttlSeconds > 0)) continue;
        for (const rowset of table.rowsets) {
          let byTxn = expiries.get(rowset.tabletId);
          if (!byTxn) expiries.set(rowset.tabletId, (byTxn = new Map()));
          byTxn.set(rowset.txnId, Math.floor(rowset.createTime / 1000) + ttlSeconds);
        }
      }
    }
    this.expiries = expiries;
    this.builtAt = this.catalog.generation;
  }
}
