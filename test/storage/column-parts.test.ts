/**
 * Scans iterate decoded pages instead of concatenating them: SegmentReader.readColumnParts returns the
 * pieces of a column (pages or slices of pages) and OlapTableSource cuts batches where any column's
 * piece ends. Both must give exactly the rows readColumn gives, for any ranges and page layouts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BATCH_SIZE, concatVectors, vectorFromRaw, type Vector } from '../../src/common/column';
import { NO_PROFILE } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { batchesOfParts } from '../../src/be/olap-table-source';
import { PageCache } from '../../src/storage/page-cache';
import { RowRanges } from '../../src/storage/row-ranges';
import { SegmentReader } from '../../src/storage/segment-reader';
import { writeSegment, type SegmentColumn } from '../../src/storage/segment-writer';
import { comparable, randomVector } from './test-data';

const ROWS = 20_000;

test('column pieces and page-aligned batches equal the concatenated column', async () => {
  const store = new LocalObjectStore(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-parts-')));
  const cache = await createFileCache(store);
  const columns: SegmentColumn[] = [
    { name: 'k', type: Types.INT, uniqueId: 0 },
    { name: 'price', type: Types.decimal(15, 2), uniqueId: 1 },
    { name: 'flag', type: Types.char(1), uniqueId: 2 },
    { name: 'note', type: Types.STRING, uniqueId: 3 },
  ];
  const data: Vector[] = [
    vectorFromRaw(Types.INT, Array.from({ length: ROWS }, (_v, rowIdx) => rowIdx)),
    randomVector(Types.decimal(15, 2), ROWS, 7, 'random', 0.1),
    randomVector(Types.char(1), ROWS, 8, 'runs', 0.05),
    randomVector(Types.STRING, ROWS, 9, 'extremes', 0.1),
  ];
  // A byte limit makes page boundaries differ between columns (wide strings get short pages).
  const parts = await writeSegment(columns, data, { compression: 'LZ4', numShortKeyColumns: 1, pageRowLimit: 6000, pageByteLimit: 40_000 });
  await store.put('data/1/parts.dat', parts);
  const reader = await SegmentReader.open(await cache.open('data/1/parts.dat', NO_PROFILE), { pageCache: new PageCache(64 << 20), profile: NO_PROFILE });
  const layouts = new Set<string>();
  for (const column of columns) layouts.add((await reader.zoneMaps(column.name)).map((page) => page.firstRow).join(','));
  assert.ok(layouts.size > 1, 'columns have different page boundaries');
  for (const ranges of [null, RowRanges.of([[0, 1], [5999, 6001], [7000, 15_000], [19_990, 20_000]]), RowRanges.of([[123, 124]])]) {
    const pieces: Vector[][] = [];
    for (const column of columns) {
      const columnParts = await reader.readColumnParts(column.name, ranges, NO_PROFILE);
      const whole = await reader.readColumn(column.name, ranges, NO_PROFILE);
      assert.deepEqual(comparable(concatVectors(column.type, columnParts)), comparable(whole), column.name);
      pieces.push(columnParts);
    }
    const length = ranges === null ? ROWS : ranges.count();
    const batches = [...batchesOfParts({ length, parts: pieces })];
    assert.equal(batches.reduce((sum, batch) => sum + batch.length, 0), length);
    for (const batch of batches) {
      assert.ok(batch.length > 0 && batch.length <= BATCH_SIZE);
      for (const vec of batch.columns) assert.equal(vec.length, batch.length);
    }
    columns.forEach((column, colIdx) => {
      const rebuilt = concatVectors(column.type, batches.map((batch) => batch.columns[colIdx]));
      const expected = concatVectors(column.type, pieces[colIdx]);
      assert.deepEqual(comparable(rebuilt), comparable(expected), `batches of ${column.name}`);
    });
  }
  await cache.close();
  store.close();
});
