/**
 * ARRAY<T> below SQL: the list layout of column vectors (offsets + child), the text form Doris prints and
 * parses, the segment pages (offsets + a nested child page) and the type's JSON form.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ArrayVector, RawValue, Vector } from '../../src/common/column';
import { concatVectors, constantVector, getRaw, sliceVector, takeRows, vectorFromRaw } from '../../src/common/column';
import { formatValue, parseValue } from '../../src/common/convert';
import { NO_PROFILE } from '../../src/common/profile';
import { sortPermutation } from '../../src/common/row-order';
import { typeFromJson, typesEqual, typeToJson, typeToSql, Types } from '../../src/common/types';
import { castVector } from '../../src/exec/expr/cast';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { decodePage, encodePage } from '../../src/storage/encoding/page-encoding';
import { PageCache } from '../../src/storage/page-cache';
import { RowRanges } from '../../src/storage/row-ranges';
import { SegmentReader } from '../../src/storage/segment-reader';
import { writeSegment } from '../../src/storage/segment-writer';
import { parseDataType } from '../../src/sql/parser';
import { TextColumnFormatter } from '../../src/protocol/text-column';
import { decodeUtf8 } from '../../src/common/column';

const FLOATS = Types.array(Types.FLOAT);
const STRINGS = Types.array(Types.STRING);
const NESTED = Types.array(Types.array(Types.INT));

function rows(vec: Vector): RawValue[] {
  return Array.from({ length: vec.length }, (_v, rowIdx) => getRaw(vec, rowIdx));
}

test('an ARRAY<FLOAT> vector is offsets + one Float32Array child, sliced and taken without per-row objects', () => {
  const vec = vectorFromRaw(FLOATS, [[1, 2, 3], null, [], [4.5, null], [6]]) as ArrayVector;
  assert.equal(vec.kind, 'array');
  assert.deepEqual(Array.from(vec.offsets), [0, 3, 3, 3, 5, 6]);
  assert.equal(vec.child.kind, 'fixed');
  assert.ok(vec.child.kind === 'fixed' && vec.child.values instanceof Float32Array);
  assert.deepEqual(Array.from(vec.nulls!), [0, 1, 0, 0, 0]);
  assert.deepEqual(Array.from(vec.child.nulls!), [0, 0, 0, 0, 1, 0], 'NULL elements have their own null map');
  const slice = sliceVector(vec, 3, 5) as ArrayVector;
  assert.equal(slice.child, vec.child, 'a slice shares the child');
  assert.deepEqual(rows(slice), [[4.5, null], [6]]);
  assert.deepEqual(rows(takeRows(vec, [4, 0, 1])), [[6], [1, 2, 3], null]);
  assert.deepEqual(rows(concatVectors(FLOATS, [slice, sliceVector(vec, 0, 1)])), [[4.5, null], [6], [1, 2, 3]]);
  assert.deepEqual(rows(constantVector(FLOATS, [0.5, 1], 3)), [[0.5, 1], [0.5, 1], [0.5, 1]]);
  assert.deepEqual(rows(constantVector(FLOATS, null, 2)), [null, null]);
  const nested = vectorFromRaw(NESTED, [[[1, 2], [3]], [[]], null]);
  assert.deepEqual(rows(takeRows(nested, [1, 0])), [[[]], [[1, 2], [3]]]);
});

test('arrays print and parse as Doris shows them', () => {
  assert.equal(formatValue(FLOATS, [0.1, 0.2, null]), '[0.1, 0.2, null]');
  assert.equal(formatValue(Types.array(Types.INT), []), '[]');
  assert.equal(formatValue(STRINGS, ['a', 'b"c', null]), '["a", "b\\"c", null]');
  assert.equal(formatValue(Types.array(Types.DATE), [0]), '["1970-01-01"]');
  assert.equal(formatValue(NESTED, [[1, 2], [], null]), '[[1, 2], [], null]');
  assert.deepEqual(parseValue(FLOATS, ' [1, 2.5 ,-3e2] '), { value: [1, 2.5, -300], failure: null });
  assert.deepEqual(parseValue(STRINGS, `["a,b", 'c]', null, "q\\"x"]`), { value: ['a,b', 'c]', null, 'q"x'], failure: null });
  assert.deepEqual(parseValue(NESTED, '[[1], [], [2, 3]]'), { value: [[1], [], [2, 3]], failure: null });
  for (const bad of ['1, 2', '[1, 2', '[1,,2]', '[1, x]', '[1] 2', '[[1]]', '']) {
    assert.equal(parseValue(Types.array(Types.INT), bad).failure, bad === '[[1]]' ? 'invalid' : 'invalid', bad);
  }
  assert.equal(parseValue(Types.array(Types.TINYINT), '[1000]').failure, 'out_of_range');
  // Round trip through the text form.
  const value = [['x', null], []];
  const type = Types.array(STRINGS);
  assert.deepEqual(parseValue(type, formatValue(type, value)!).value, value);
});

test('ARRAY types parse, print, compare and serialise', () => {
  assert.ok(typesEqual(parseDataType('ARRAY<FLOAT>'), FLOATS));
  assert.ok(typesEqual(parseDataType('array<array<int>>'), NESTED), 'the >> token closes two arrays');
  assert.ok(typesEqual(parseDataType('ARRAY<VARCHAR(10)>'), Types.array(Types.varchar(10))));
  assert.equal(typeToSql(NESTED), 'ARRAY<ARRAY<INT>>');
  assert.ok(!typesEqual(FLOATS, Types.array(Types.DOUBLE)));
  assert.ok(typesEqual(typeFromJson(JSON.parse(JSON.stringify(typeToJson(NESTED)))), NESTED));
  assert.throws(() => parseDataType('ARRAY'), /syntax/);
  assert.throws(() => parseDataType('ARRAY<INT'), /syntax/);
  assert.throws(() => parseDataType('ARRAY<INT>>'), /syntax/);
});

test('casts: string <-> array, array<x> -> array<y>, NULL for bad text in SQL mode', () => {
  const text = vectorFromRaw(Types.STRING, ['[1, 2]', 'oops', null, '[]']);
  const cast = castVector(text, FLOATS, 'sql');
  assert.deepEqual(rows(cast), [[1, 2], null, null, []]);
  assert.throws(() => castVector(text, FLOATS, 'insert', 'v'), /Incorrect array value: 'oops' for column 'v' at row 2/);
  const ints = vectorFromRaw(Types.array(Types.INT), [[1, null, 3]]);
  const doubles = castVector(ints, Types.array(Types.DOUBLE));
  assert.equal((doubles as ArrayVector).child.type.name, 'DOUBLE');
  assert.deepEqual(rows(doubles), [[1, null, 3]]);
  assert.deepEqual(rows(castVector(ints, Types.STRING)), ['[1, null, 3]']);
  assert.throws(() => castVector(ints, Types.INT), /can not cast from origin type ARRAY<INT> to target type=INT/);
});

test('arrays sort element by element, a prefix first, NULL array first', () => {
  const vec = vectorFromRaw(Types.array(Types.INT), [[2], [1, 5], null, [1], [1, null], []]);
  const order = sortPermutation(vec.length, [{ vector: vec, descending: false }]);
  assert.deepEqual(Array.from(order).map((rowIdx) => getRaw(vec, rowIdx)), [null, [], [1], [1, null], [1, 5], [2]]);
});

test('segment pages: offsets + a nested child page; every element type, NULLs, ranges, no zone map', async () => {
  const types = [FLOATS, Types.array(Types.DOUBLE), Types.array(Types.INT), Types.array(Types.BIGINT), Types.array(Types.varchar(20)), STRINGS, NESTED];
  const values: RawValue[][] = [
    [[0.5, 1.5], null, [], [null, 2]],
    [[1e300], [], null, [-0.25]],
    [[1, 2, 3], [null], null, []],
    [[2n ** 62n], [-1n, null], [], null],
    [['a', 'bb'], null, [''], ['c']],
    [['日本', null], [], ['x'.repeat(300)], null],
    [[[1], []], null, [[null, 2]], []],
  ];
  for (let typeIdx = 0; typeIdx < types.length; typeIdx++) {
    const vec = vectorFromRaw(types[typeIdx], values[typeIdx]);
    const page = encodePage(vec, 1, 4);
    assert.deepEqual(rows(decodePage(page, types[typeIdx], null, 'p')), values[typeIdx].slice(1), typeToSql(types[typeIdx]));
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-array-seg-'));
  const store = new LocalObjectStore(dir);
  const cache = await createFileCache(store);
  const count = 3000;
  const ids = vectorFromRaw(Types.INT, Array.from({ length: count }, (_v, rowIdx) => rowIdx));
  const embeddings = vectorFromRaw(FLOATS, Array.from({ length: count }, (_v, rowIdx) => (rowIdx % 17 === 0 ? null : [rowIdx, rowIdx / 2, -rowIdx])));
  const tags = vectorFromRaw(STRINGS, Array.from({ length: count }, (_v, rowIdx) => Array.from({ length: rowIdx % 4 }, (_e, elemIdx) => `t${(rowIdx + elemIdx) % 5}`)));
  const columns = [
    { name: 'id', type: Types.INT, uniqueId: 0 },
    { name: 'embedding', type: FLOATS, uniqueId: 1 },
    { name: 'tags', type: STRINGS, uniqueId: 2 },
  ];
  const parts = await writeSegment(columns, [ids, embeddings, tags], { compression: 'LZ4', numShortKeyColumns: 1, pageRowLimit: 512, pageByteLimit: 4096 });
  await store.put('data/1/arr_0.dat', parts);
  const reader = await SegmentReader.open(await cache.open('data/1/arr_0.dat', NO_PROFILE), { pageCache: new PageCache(1 << 24), profile: NO_PROFILE });
  assert.equal(reader.footer.columns[1].type.name, 'ARRAY');
  assert.ok(reader.footer.columns[1].pages > 1, 'the byte limit cuts array pages by element bytes');
  const embeddingPages = JSON.stringify(reader.footer.columns[1]);
  assert.ok(!embeddingPages.includes('"dict"') || reader.footer.columns[1].dict === null);
  const readBack = await reader.readColumn('embedding', null, NO_PROFILE);
  assert.deepEqual(rows(readBack), rows(embeddings));
  assert.deepEqual(rows(await reader.readColumn('tags', null, NO_PROFILE)), rows(tags));
  const picked = await reader.readColumn('embedding', RowRanges.of([[5, 8], [2990, 3000]]), NO_PROFILE);
  assert.deepEqual(rows(picked), rows(takeRows(embeddings, [5, 6, 7, 2990, 2991, 2992, 2993, 2994, 2995, 2996, 2997, 2998, 2999])));
  const list = readBack as ArrayVector;
  assert.ok(list.child.kind === 'fixed' && list.child.values instanceof Float32Array, 'a FLOAT child decodes to a Float32Array');
  await cache.close();
  store.close();
});

test('the text protocol formatter prints arrays exactly as formatValue, from the element cells', () => {
  const cases: [ReturnType<typeof Types.array>, RawValue[]][] = [
    [FLOATS, [[0.1, -2.5, null], null, [], [3.4028234663852886e38]]],
    [Types.array(Types.BIGINT), [[1n, -(2n ** 63n)], [null]]],
    [Types.array(Types.decimal(9, 2)), [[12345, 0, -5]]],
    [STRINGS, [['a"b', 'c\\d', '日本', ''], null, [null]]],
    [Types.array(Types.DATE), [[0, 19000]]],
    [Types.array(Types.datetime(3)), [[1_700_000_000_123_000]]],
    [NESTED, [[[1, 2], [], null], [[3]], null]],
    [Types.array(Types.NULL), [[], [null, null]]],
  ];
  const formatter = new TextColumnFormatter();
  for (const [type, values] of cases) {
    const vec = vectorFromRaw(type, values);
    for (const view of [vec, sliceVector(vec, 1, vec.length)]) {
      const cells = formatter.format(view, view.length);
      for (let rowIdx = 0; rowIdx < view.length; rowIdx++) {
        const expected = formatValue(type, getRaw(view, rowIdx));
        const actual = cells.nulls !== null && cells.nulls[rowIdx] === 1 ? null : decodeUtf8(cells.bytes, cells.offsets[rowIdx], cells.offsets[rowIdx + 1]);
        assert.equal(actual, expected, `${typeToSql(type)} row ${rowIdx}`);
      }
    }
  }
});
