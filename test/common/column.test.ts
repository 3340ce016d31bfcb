import assert from 'node:assert/strict';
import { test } from 'node:test';
import { concatVectors, DictVector, getRaw, toPlainStrings, Vector, vectorFromRaw } from '../../src/common/column';
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
