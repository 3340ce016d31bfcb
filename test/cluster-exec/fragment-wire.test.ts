/**
 * The fragment wire codec (src/exec/parallel/fragment-wire.ts): batches of every column type and layout
 * (fixed, dictionary, strings, LARGEINT / wide DECIMAL bigints, JSON text, nested ARRAY, NULLs, slices
 * of larger pages) and partial aggregate results come back exactly as sent, carrying only their own rows;
 * damaged bytes are a CORRUPTION error, never a wrong batch.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getRaw, sliceVector, vectorFromRaw, type Batch, type RawValue, type Vector } from '../../src/common/column';
import { GaleneError } from '../../src/common/errors';
import { Types, type DataType } from '../../src/common/types';
import { batchFromWire, batchToWire, fragmentResultFromWire, fragmentResultToWire, fromWire, toWire, vectorsFromWire, vectorsToWire } from '../../src/exec/parallel/fragment-wire';

const COLUMNS: [DataType, RawValue[]][] = [
  [Types.BOOLEAN, [1, 0, null, 1]],
  [Types.TINYINT, [-128, 127, null, 0]],
  [Types.SMALLINT, [-32768, 32767, 5, null]],
  [Types.INT, [-2147483648, 2147483647, null, 7]],
  [Types.BIGINT, [-(2n ** 63n), 2n ** 63n - 1n, null, 0n]],
  [Types.LARGEINT, [-(2n ** 127n), 2n ** 127n - 1n, null, 1n]],
  [Types.FLOAT, [1.5, -0, null, 3.25]],
  [Types.DOUBLE, [Number.MAX_VALUE, Number.MIN_VALUE, NaN, null]],
  [Types.decimal(10, 2), [12345678.91, -0.01, null, 0]],
  [Types.decimal(38, 9), [10n ** 37n, -5n, null, 0n]],
  [Types.DATE, [null, 738000, 1, 0]],
  [Types.datetime(3), [1_700_000_000_123, null, 0, 1]],
  [Types.varchar(8), ['', 'héllo', null, 'x']],
  [Types.STRING, ['a'.repeat(1000), '日本語', '', null]],
  [Types.JSON, ['{"a":[1,2,{"b":null}]}', null, '[]', '"s"']],
  [Types.array(Types.INT), [[1, null, 3], [], null, [4]]],
  [Types.array(Types.array(Types.varchar(4))), [[['a', null], []], null, [[]], [['bb'], ['c', 'd']]]],
];

function rowsOf(vec: Vector): RawValue[] {
  return Array.from({ length: vec.length }, (_, rowIdx) => getRaw(vec, rowIdx));
}

function sameRows(actual: Batch, expected: Batch): void {
  assert.equal(actual.length, expected.length);
  assert.equal(actual.columns.length, expected.columns.length);
  for (let colIdx = 0; colIdx < expected.columns.length; colIdx++) {
    assert.deepEqual(actual.columns[colIdx].type, expected.columns[colIdx].type);
    assert.deepEqual(rowsOf(actual.columns[colIdx]), rowsOf(expected.columns[colIdx]), `column ${colIdx} (${expected.columns[colIdx].type.name})`);
  }
}

const batch: Batch = { length: 4, columns: COLUMNS.map(([type, values]) => vectorFromRaw(type, values)) };

test('a batch of every column type round-trips with its values, NULLs and types', () => {
  const decoded = batchFromWire(batchToWire(batch));
  sameRows(decoded, batch);
  for (let colIdx = 0; colIdx < batch.columns.length; colIdx++) assert.equal(decoded.columns[colIdx].kind, batch.columns[colIdx].kind, 'the physical layout is kept');
});

test('a dictionary column stays codes + entries', () => {
  const dict: Vector = { kind: 'dict', type: Types.varchar(4), length: 5, codes: Int32Array.of(1, 0, 1, 2, 0), dict: ['x', 'yy', ''], nulls: Uint8Array.of(0, 0, 1, 0, 0) };
  const decoded = batchFromWire(batchToWire({ length: 5, columns: [dict] })).columns[0];
  assert.equal(decoded.kind, 'dict');
  assert.deepEqual(rowsOf(decoded), ['yy', 'x', null, '', 'x']);
});

test('a slice of a large page carries only its own rows', () => {
  const big = 100_000;
  const ints = vectorFromRaw(Types.INT, Array.from({ length: big }, (_, idx) => idx));
  const strings = vectorFromRaw(Types.STRING, Array.from({ length: big }, (_, idx) => `row-${idx}`));
  const arrays = vectorFromRaw(Types.array(Types.BIGINT), Array.from({ length: big }, (_, idx) => [BigInt(idx), null]));
  const slice: Batch = { length: 10, columns: [ints, strings, arrays].map((vec) => sliceVector(vec, 50_000, 50_010)) };
  const bytes = batchToWire(slice);
  assert.ok(bytes.length < 2_000, `10 rows of three columns in ${bytes.length} bytes`);
  const decoded = batchFromWire(bytes);
  sameRows(decoded, slice);
  assert.deepEqual(rowsOf(decoded.columns[1]).slice(0, 2), ['row-50000', 'row-50001']);
});

test('a partial aggregate (keys and states of any plain shape) round-trips', () => {
  const keys = [vectorFromRaw(Types.varchar(4), ['a', null, 'c']), vectorFromRaw(Types.LARGEINT, [1n, 2n, null])];
  const states = [
    { groupCount: 3, data: { sums: Float64Array.of(1.5, 2, 3), counts: BigInt64Array.of(1n, 2n, 3n) } },
    { groupCount: 3, data: [new Map([['k', 1]]), new Set([1, 2]), null] },
    { groupCount: 3, data: { exact: [10n ** 30n, -1n, 0n], text: ['x', '', 'z'] } },
  ];
  const decoded = fragmentResultFromWire(fragmentResultToWire({ kind: 'partial', partial: { groupCount: 3, keys, states } }));
  assert.equal(decoded.kind, 'partial');
  if (decoded.kind !== 'partial') return;
  assert.equal(decoded.partial.groupCount, 3);
  assert.deepEqual(decoded.partial.keys.map(rowsOf), keys.map(rowsOf));
  assert.deepEqual(decoded.partial.states, states);
});

test('filtered batches as a fragment result, and fetched vectors, round-trip', () => {
  const decoded = fragmentResultFromWire(fragmentResultToWire({ kind: 'batches', batches: [batch, { length: 0, columns: [] }] }));
  assert.equal(decoded.kind, 'batches');
  if (decoded.kind === 'batches') sameRows(decoded.batches[0], batch);
  const vectors = vectorsFromWire(vectorsToWire(batch.columns));
  sameRows({ length: 4, columns: vectors }, batch);
});

test('plain values (specs, predicates with bigints, Float32Array query vectors) round-trip', () => {
  const spec = { columns: [{ name: 'v', type: Types.array(Types.FLOAT) }], predicates: [{ column: 'k', op: 'in', values: [1n, 'x', null] }], query: Float32Array.of(0.5, 1) };
  assert.deepEqual(fromWire(toWire(spec), 'spec'), spec);
});

function corruption(run: () => unknown): void {
  assert.throws(run, (err: unknown) => err instanceof GaleneError && err.code === 'CORRUPTION');
}

test('damaged or hostile bytes are a CORRUPTION error', () => {
  const bytes = batchToWire(batch);
  corruption(() => batchFromWire(bytes.subarray(0, bytes.length - 7)));
  corruption(() => batchFromWire(Buffer.from('not a message at all')));
  corruption(() => batchFromWire(toWire({ length: 2, columns: [{ kind: 'string', type: Types.STRING, length: 2, offsets: Int32Array.of(0, 5, 99), bytes: new Uint8Array(5), nulls: null }] })));
  corruption(() => batchFromWire(toWire({ length: 2, columns: [{ kind: 'string', type: Types.STRING, length: 2, offsets: Int32Array.of(0, 5, 3), bytes: new Uint8Array(5), nulls: null }] })));
  corruption(() => batchFromWire(toWire({ length: 2, columns: [{ kind: 'dict', type: Types.STRING, length: 2, codes: Int32Array.of(0, 3), dict: ['a'], nulls: null }] })));
  corruption(() => batchFromWire(toWire({ length: 3, columns: [vectorFromRaw(Types.INT, [1, 2])] })));
  corruption(() => batchFromWire(toWire({ length: 1, columns: [{ kind: 'fixed', type: Types.INT, length: 1, values: [1], nulls: null }] })));
  corruption(() => batchFromWire(toWire({ length: 1, columns: [{ kind: 'weird', type: Types.INT, length: 1, nulls: null }] })));
  corruption(() => fragmentResultFromWire(toWire({ kind: 'partial', partial: { groupCount: 2, keys: [vectorFromRaw(Types.INT, [1])], states: [] } })));
  corruption(() => fragmentResultFromWire(toWire({ kind: 'other' })));
});
