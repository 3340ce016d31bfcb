/**
 * file_cache_ttl_seconds: which objects are TTL objects, and until when — the segment and index files of
 * a TTL table's rowsets (built-in and vault keys) until rowset creation + TTL; nothing else; a changed
 * catalog (a new load, ALTER of the property) is seen at the next lookup. (The walker test shows the
 * blocks landing in the TTL queue through a real server.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FileCacheTtl } from '../../src/be/file-cache-ttl';
import type { TableState } from '../../src/meta/catalog';

function fakeCatalog(tables: { properties: Record<string, string>; rowsets: { tabletId: number; txnId: number; createTime: number }[] }[]) {
  const catalog = {
    generation: 1,
    tables,
    listDatabases: () => [{ name: 'db' }],
    listTables: () => catalog.tables.map((table) => ({ schema: { properties: table.properties }, rowsets: table.rowsets }) as unknown as TableState),
  };
  return catalog;
}

test('objects of a TTL table expire at rowset creation + TTL; others never are TTL objects', () => {
  const catalog = fakeCatalog([
    { properties: { file_cache_ttl_seconds: '60' }, rowsets: [{ tabletId: 10, txnId: 5, createTime: 1_000_000 }] },
    { properties: {}, rowsets: [{ tabletId: 11, txnId: 6, createTime: 1_000_000 }] },
  ]);
  const ttl = new FileCacheTtl(catalog as never);
  assert.equal(ttl.expirationOf('data/10/5_0.dat'), 1000 + 60);
  assert.equal(ttl.expirationOf('vault/3/data/10/5_1.ann_idx.idx'), 1000 + 60, 'a vault key and an index file beside the segment');
  assert.equal(ttl.expirationOf('data/10/5_0.__primary_key.idx'), 1060);
  assert.equal(ttl.expirationOf('data/10/7_0.dat'), 0, 'another rowset of the tablet');
  assert.equal(ttl.expirationOf('data/11/6_0.dat'), 0, 'a table without TTL');
  assert.equal(ttl.expirationOf('meta/whatever'), 0);

  // A new load of the TTL table and an ALTER of the other are seen once the catalog changed.
  catalog.tables[0].rowsets.push({ tabletId: 10, txnId: 7, createTime: 2_000_000 });
  catalog.tables[1].properties = { file_cache_ttl_seconds: '5' };
  assert.equal(ttl.expirationOf('data/10/7_0.dat'), 0, 'same generation: the table built before');
  catalog.generation++;
  assert.equal(ttl.expirationOf('data/10/7_0.dat'), 2060);
  assert.equal(ttl.expirationOf('data/11/6_0.dat'), 1005);
});
