/**
 * The row-store column (storage/row-store.ts) on its own: rows of every physical form (fixed widths,
 * strings, BIGINT beyond 64 bits, arrays, NULLs) written into a segment beside their columns and read
 * back by row id from the row column alone, equal to the columns; a column the row store lacks, or one
 * that changed type, answers null (the caller reads the columns); the properties' column list and page
 * size; a bad column name is refused.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { getRaw, vectorFromRaw, type RawValue } from '../../src/common/column';
import { QueryProfile } from '../../src/common/profile';
import { Types, type DataType } from '../../src/common/types';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { PageCache } from '../../src/storage/page-cache';
import { readRowStoreRows, ROW_STORE_COLUMN, rowStoreSpec, withRowStoreColumn } from '../../src/storage/row-store';
import { SegmentReader } from '../../src/storage/segment-reader';
import { writeSegment } from '../../src/storage/segment-writer';
import type { TableSchema } from '../../src/meta/schema';

const DECIMAL38: DataType = Types.decimal(38, 2);
const INTS: DataType = Types.array(Types.INT);

const COLUMNS = [
  { name: 'k', type: Types.BIGINT, uniqueId: 0 },
  { name: 'i', type: Types.INT, uniqueId: 1 },
  { name: 'd', type: Types.DOUBLE, uniqueId: 2 },
  { name: 's', type: Types.STRING, uniqueId: 3 },
  { name: 'big', type: DECIMAL38, uniqueId: 4 },
  { name: 'arr', type: INTS, uniqueId: 5 },
];
const ROWS = 5000;

function values(colIdx: number): RawValue[] {
  return Array.from({ length: ROWS }, (_v, rowIdx): RawValue => {
    if (colIdx > 0 && rowIdx % 7 === colIdx) return null;
    switch (colIdx) {
      case 0:
        return BigInt(rowIdx) * 1_000_003n;
      case 1:
        return rowIdx * 3 - 7000;
      case 2:
        return rowIdx / 8;
      case 3:
        return `row ${rowIdx} ${'x'.repeat(rowIdx % 40)} é`;
      case 4:
        return 10n ** 30n + BigInt(rowIdx);
      default:
        return Array.from({ length: rowIdx % 4 }, (_e, elemIdx) => rowIdx + elemIdx);
    }
  });
}

function schemaWith(properties: Record<string, string>): TableSchema {
  return { properties, columns: COLUMNS } as unknown as TableSchema;
}

const caches: { close(): Promise<void> }[] = [];
after(async () => {
  for (const cache of caches) await cache.close();
});

async function segmentWithRowStore(properties: Record<string, string>): Promise<SegmentReader> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-row-store-'));
  const store = new LocalObjectStore(dir);
  const data = COLUMNS.map((column, colIdx) => vectorFromRaw(column.type, values(colIdx)));
  const stored = withRowStoreColumn(schemaWith(properties), COLUMNS, data, { compression: 'LZ4', numShortKeyColumns: 1 });
  await store.put('data/1/r_0.dat', await writeSegment(stored.columns, stored.data, stored.options));
  const cache = await createFileCache(store);
  caches.push(cache);
  const profile = new QueryProfile('t', '', '', '');
  return SegmentReader.open(await cache.open('data/1/r_0.dat', profile), { pageCache: new PageCache(1 << 24), profile });
}

test('rows of every physical form read back from the row-store column alone', async () => {
  const reader = await segmentWithRowStore({ store_row_column: 'true' });
  const footer = reader.footer.columns.find((column) => column.name === ROW_STORE_COLUMN)!;
  assert.equal(footer.encoding, 'plain', 'the row column is never dictionary-encoded');
  assert.ok(footer.pages > 10, `16 KiB pages: ${footer.pages}`);
  const rowIds = Int32Array.of(0, 1, 7, 8, 999, 2500, 4999);
  const profile = new QueryProfile('t', '', '', '');
  const vectors = await readRowStoreRows(reader, COLUMNS, rowIds, profile);
  assert.ok(vectors !== null);
  COLUMNS.forEach((column, colIdx) => {
    const expected = values(colIdx);
    rowIds.forEach((rowId, pos) => assert.deepEqual(getRaw(vectors[colIdx], pos), expected[rowId], `${column.name} row ${rowId}`));
  });
  assert.deepEqual([...profile.columnStats.keys()], [ROW_STORE_COLUMN], 'only the row column was read');
  assert.equal(profile.columnStats.get(ROW_STORE_COLUMN)?.rows, rowIds.length);
});

test('a column outside the row store or of another type answers null', async () => {
  const reader = await segmentWithRowStore({ row_store_columns: 'k, s' });
  const some = await readRowStoreRows(reader, [COLUMNS[3], COLUMNS[0]], Int32Array.of(3), new QueryProfile('t', '', '', ''));
  assert.deepEqual(some?.map((vec) => getRaw(vec, 0)), [values(3)[3], values(0)[3]]);
  assert.equal(await readRowStoreRows(reader, [COLUMNS[0], COLUMNS[1]], Int32Array.of(3), new QueryProfile('t', '', '', '')), null);
  assert.equal(await readRowStoreRows(reader, [{ ...COLUMNS[0], type: Types.INT }], Int32Array.of(3), new QueryProfile('t', '', '', '')), null);
  assert.equal(await readRowStoreRows(reader, [{ ...COLUMNS[0], uniqueId: 99 }], Int32Array.of(3), new QueryProfile('t', '', '', '')), null);
});

test('row store properties', () => {
  assert.equal(rowStoreSpec(schemaWith({})), null);
  assert.equal(rowStoreSpec(schemaWith({ store_row_column: 'false' })), null);
  assert.deepEqual(rowStoreSpec(schemaWith({ store_row_column: 'true' })), { colIdxs: [0, 1, 2, 3, 4, 5], pageSize: 16384 });
  assert.deepEqual(rowStoreSpec(schemaWith({ row_store_columns: 'S,k', row_store_page_size: '4096' })), { colIdxs: [0, 3], pageSize: 4096 });
  assert.throws(() => rowStoreSpec(schemaWith({ row_store_columns: 'k,nope' })), /nope/);
  assert.throws(() => rowStoreSpec(schemaWith({ store_row_column: 'true', row_store_page_size: '0' })), /row_store_page_size/);
});
