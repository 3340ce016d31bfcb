import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anyNullIn, concatVectors, DictVector, getRaw, nullCount, nullsIfAny, selectRows, sliceVector, takeRows, toPlainStrings, Vector, vectorFromRaw } from '../../src/common/column';
import { Types } from '../../src/common/types';

const values = (vec: Vector): unknown[] => Array.from({ length: vec.length }, (_v, rowIdx) => getRaw(vec, rowIdx));
const dict = (entries: string[], codes: number[], nullRows: number[] = []): DictVector => {
  const nulls = nullRows.length ? new Uint8Array(codes.length) : null;
  for (const row of nullRows) nulls![row] = 1;
  return { kind: 'dict', type: Types.STRING, length: codes.length, codes: Int32Array.from(codes), dict: entries, nulls };
};

test('concatVectors: plain and dictionary string parts, shared dictionaries, NULLs, unicode', () => {
  const plain = vectorFromRaw(Types.STRING, ['a', null, 'héllo']);
  const shared = ['x', 'ÿy', 'zz'];
  const d1 = dict(shared, [2, 0, 1], [1]);
  const d2 = dict(shared, [1, 1]);
  const other = dict(['q', 'r'], [1, 0]);
  const mixed = concatVectors(Types.STRING, [plain, d1, other, d2]);
  assert.equal(mixed.kind, 'string');
  assert.deepEqual(values(mixed), ['a', null, 'héllo', 'zz', null, 'ÿy', 'r', 'q', 'ÿy', 'ÿy']);
  const sameDict = concatVectors(Types.STRING, [d1, d2]);
  assert.equal(sameDict.kind, 'dict', 'parts sharing one dictionary stay dictionary-encoded');
  assert.deepEqual(values(sameDict), ['zz', null, 'ÿy', 'ÿy', 'ÿy']);
  assert.deepEqual(values(toPlainStrings(d1)), ['zz', null, 'ÿy']);
});

test('producers drop a null map with no NULL in it: all-valid slices, selections and concatenations', () => {
  const vec = vectorFromRaw(Types.INT, [1, null, 3, 4, 5, null]);
  assert.equal(nullCount(vec), 2);
  assert.equal(nullCount(vectorFromRaw(Types.INT, [1, 2])), 0);
  assert.equal(vectorFromRaw(Types.INT, [1, 2]).nulls, null, 'a builder that saw no NULL makes no null map');
  const validSlice = sliceVector(vec, 2, 5);
  assert.equal(validSlice.nulls, null, 'a slice with no NULL is all-valid');
  assert.deepEqual(values(validSlice), [3, 4, 5]);
  const nullSlice = sliceVector(vec, 1, 4);
  assert.deepEqual(Array.from(nullSlice.nulls!), [1, 0, 0]);
  assert.deepEqual(values(nullSlice), [null, 3, 4]);
  const picked = takeRows(vec, Int32Array.from([4, 0, 2]));
  assert.equal(picked.nulls, null, 'rows picked around the NULLs are all-valid');
  assert.deepEqual(values(picked), [5, 1, 3]);
  assert.deepEqual(values(takeRows(vec, [5, 0])), [null, 1]);
  const batch = selectRows({ length: vec.length, columns: [vec, vectorFromRaw(Types.STRING, ['a', 'b', null, 'd', 'e', 'f'])] }, Int32Array.from([0, 3]), 2);
  assert.deepEqual(batch.columns.map((column) => column.nulls), [null, null]);
  const allZero: Vector = { ...vectorFromRaw(Types.INT, [7, 8]), nulls: new Uint8Array(2) };
  const joined = concatVectors(Types.INT, [allZero, vectorFromRaw(Types.INT, [9])]);
  assert.equal(joined.nulls, null, 'parts whose maps hold no NULL concatenate to an all-valid vector');
  assert.deepEqual(values(joined), [7, 8, 9]);
  assert.equal(nullsIfAny(new Uint8Array(3), 3), null);
  const some = Uint8Array.from([0, 0, 1]);
  assert.equal(nullsIfAny(some, 3), some);
  assert.equal(anyNullIn(some, 0, 2), false);
  assert.equal(anyNullIn(some, 1, 3), true);
  assert.equal(anyNullIn(null, 0, 3), false);
});
