/**
 * The shape of one information_schema table: its MySQL columns and a row source over the catalog,
 * evaluated when a query scans it. Shared by index.ts and the files that add tables to it.
 */
import type { RawValue } from '../../common/column';
import type { DataType } from '../../common/types';
import type { Catalog } from '../../meta/catalog';
import type { PrivilegeFacts } from './privilege-tables';

export interface VirtualTable {
  readonly columns: readonly (readonly [string, DataType])[];
  rows(catalog: Catalog, view: InformationSchemaView | undefined): RawValue[][];
}

/**
 * The reading session's view: which databases and tables its account may see (rows of other objects are
 * left out, as Doris does) and the grants the privilege tables list. Without a view every row shows.
 */
export interface InformationSchemaView extends PrivilegeFacts {
  visible(database: string, table: string | null): boolean;
}
