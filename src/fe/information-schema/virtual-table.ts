/**
 * The shape of one information_schema table: its MySQL columns and a row source over the catalog,
 * evaluated when a query scans it. Shared by index.ts and the files that add tables to it.
 */
import type { RawValue } from '../../common/column';
import type { DataType } from '../../common/types';
import type { Catalog } from '../../meta/catalog';

export interface VirtualTable {
  readonly columns: readonly (readonly [string, DataType])[];
  rows(catalog: Catalog): RawValue[][];
}
