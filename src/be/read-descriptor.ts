/**
 * A read descriptor: everything a BE needs to read some tablets of a table at one version without a
 * catalog of its own — the schema, the tablets, their visible rowsets (segment keys, sizes, row counts,
 * index files with their key bounds), the delete bitmap of those rowsets (merge-on-write), the table's
 * DELETE predicates, and the storage vault the objects live in. Plain, structured-cloneable data: the FE
 * builds it from its catalog (readDescriptorOf), sends it with each scan (fragment-wire.ts), and the BE
 * turns it back into the TableState an OlapTableSource reads (tableStateOf), through its own FileCache
 * over the shared object store.
 */
import type { TableState } from '../meta/catalog';
import { DeleteBitmap } from '../meta/delete-bitmap';
import type { StorageVault } from '../meta/storage-vaults';

/** A TableState with its delete bitmap as entries (the class does not cross a process). */
export interface ReadDescriptor extends Omit<TableState, 'deleteBitmap'> {
  readonly deleteBitmap: [number, Int32Array[]][];
  /** The vault holding the table's objects (its properties open the store on a BE that has not yet); absent: the built-in store. */
  readonly vault?: StorageVault;
}

/**
 * The descriptor that reads `tabletIds` of `table`: the table's tablet records, the rowsets of those
 * tablets only (version order), and the delete-bitmap entries of exactly those rowsets. A scan of it
 * visits those tablets' segments in the table's order, so its global row ids number the segments of the
 * read tablets from 0 (the FE maps them back, fe/remote-table-source.ts).
 */
export function readDescriptorOf(table: TableState, tabletIds: readonly number[], vault?: StorageVault): ReadDescriptor {
  const wanted = new Set(tabletIds);
  const rowsets = table.rowsets.filter((rowset) => wanted.has(rowset.tabletId));
  const bitmap = table.deleteBitmap ?? DeleteBitmap.EMPTY;
  const deleteBitmap: [number, Int32Array[]][] = [];
  if (!bitmap.isEmpty) {
    for (const rowset of rowsets) {
      const segments = rowset.segments.map((_, segmentIdx) => bitmap.get(rowset.id, segmentIdx));
      if (segments.some((ids) => ids.length > 0)) deleteBitmap.push([rowset.id, segments]);
    }
  }
  return {
    schema: table.schema,
    dbId: table.dbId,
    visibleVersion: table.visibleVersion,
    // Every tablet record (a few numbers each), so bucket and partition pruning on the BE index them as the FE does.
    tablets: table.tablets,
    rowsets,
    deleteBitmap,
    ...(table.deletePredicates === undefined ? {} : { deletePredicates: table.deletePredicates }),
    ...(vault === undefined ? {} : { vault }),
  };
}

/** The TableState a descriptor describes (what the BE's OlapTableSource reads). */
export function tableStateOf(descriptor: ReadDescriptor): TableState {
  const { deleteBitmap, vault: _vault, ...plain } = descriptor;
  return { ...plain, deleteBitmap: DeleteBitmap.fromEntries(deleteBitmap) };
}
