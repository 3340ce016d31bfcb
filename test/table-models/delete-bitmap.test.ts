/**
 * Delete bitmap building blocks: the compact row-id encoding round-trips (sparse, dense runs, empty),
 * merges of sorted id lists, the immutable per-table bitmap, and RowRanges minus deleted rows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { excludeRows } from '../../src/be/olap-table-source';
import { mulberry32 } from '../../src/common/prng';
import { decodeRowIds, DeleteBitmap, encodeRowIds, mergeSortedRowIds, sortedUniqueRowIds } from '../../src/meta/delete-bitmap';
import { RowRanges } from '../../src/storage/row-ranges';

const random = mulberry32(5);

function randomIds(count: number, span: number, runs: boolean): Int32Array {
  const ids: number[] = [];
  while (ids.length < count) {
    const start = Math.floor(random() * span);
    const length = runs ? 1 + Math.floor(random() * 50) : 1;
    for (let rowId = start; rowId < start + length && ids.length < count; rowId++) ids.push(rowId);
  }
  return sortedUniqueRowIds(ids);
}

test('row ids round-trip through the encoding, which is compact for sparse and dense sets', () => {
  assert.deepEqual(decodeRowIds(encodeRowIds(new Int32Array(0))), new Int32Array(0));
  for (let trial = 0; trial < 200; trial++) {
    const ids = randomIds(1 + Math.floor(random() * 2000), 1 + Math.floor(random() * 1_000_000), trial % 2 === 0);
    assert.deepEqual(decodeRowIds(encodeRowIds(ids)), ids);
  }
  const dense = Int32Array.from({ length: 100_000 }, (_v, idx) => 5000 + idx);
  assert.ok(encodeRowIds(dense).length < 16, 'one run of 100k rows takes a few bytes');
  const sparse = Int32Array.from({ length: 1000 }, (_v, idx) => idx * 100);
  assert.ok(encodeRowIds(sparse).length <= 1001, 'gaps under 128 take one byte each');
});

test('merging sorted ids, the immutable bitmap, and RowRanges minus deleted rows', () => {
  for (let trial = 0; trial < 100; trial++) {
    const left = randomIds(Math.floor(random() * 300), 2000, trial % 3 === 0);
    const right = randomIds(Math.floor(random() * 300), 2000, trial % 2 === 0);
    assert.deepEqual(mergeSortedRowIds(left, right), sortedUniqueRowIds([...left, ...right]));
    const ranges = RowRanges.of([[0, 500], [700, 1500], [1800, 2000]]);
    const expected: number[] = [];
    for (const [start, end] of ranges.toPairs()) for (let rowId = start; rowId < end; rowId++) if (!left.includes(rowId)) expected.push(rowId);
    assert.deepEqual(excludeRows(ranges, left).toPairs(), RowRanges.fromRowIds(Int32Array.from(expected)).toPairs());
  }
  const first = DeleteBitmap.EMPTY.withDeletes([{ rowsetId: 7, segment: 1, rowIds: Int32Array.of(3, 9) }]);
  const second = first.withDeletes([{ rowsetId: 7, segment: 1, rowIds: Int32Array.of(4, 9) }, { rowsetId: 8, segment: 0, rowIds: Int32Array.of(0) }]);
  assert.deepEqual(first.get(7, 1), Int32Array.of(3, 9), 'an earlier version is not changed');
  assert.deepEqual(second.get(7, 1), Int32Array.of(3, 4, 9));
  assert.deepEqual(second.get(7, 0), new Int32Array(0));
  assert.equal(second.deletedInRowset(7), 3);
  const compacted = second.withoutRowsets([7]);
  assert.equal(compacted.deletedInRowset(7), 0);
  assert.equal(compacted.deletedInRowset(8), 1);
});
