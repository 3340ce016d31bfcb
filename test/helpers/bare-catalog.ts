import type { Catalog } from '../../src/meta/catalog';

/** A catalog without tables, for tests that hand table states to a Backend directly (what the BE itself reads of it: none). */
export const BARE_CATALOG = { generation: 0, listDatabases: () => [], listTables: () => [] } as unknown as Catalog;
