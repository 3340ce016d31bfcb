import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Vector } from '../../src/common/column';
import { vectorFromRaw } from '../../src/common/column';
import type { DataType } from '../../src/common/types';
import { Types } from '../../src/common/types';
import { crc32 } from '../../src/storage/checksum';
import { CODEC_NONE, compressPage, decompressPage, parseCompression } from '../../src/storage/compression';
import { packBits, unpackBits } from '../../src/storage/encoding/bit-pack';
import { decodePage, encodePage } from '../../src/storage/encoding/page-encoding';
import { buildDictionary, decodeDictPage, encodeDictPage } from '../../src/storage/encoding/string-dict';
import type { Shape } from './test-data';
import { comparable, randomVector, rng } from './test-data';

const TYPES: [string, DataType][] = [
  ['BOOLEAN', Types.BOOLEAN],
  ['TINYINT', Types.TINYINT],
  ['SMALLINT', Types.SMALLINT],
  ['INT', Types.INT],
  ['DATE', Types.DATE],
  ['BIGINT', Types.BIGINT],
  ['LARGEINT', Types.LARGEINT],
  ['FLOAT', Types.FLOAT],
  ['DOUBLE', Types.DOUBLE],
  ['DECIMAL(15,2)', Types.decimal(15, 2)],
  ['DECIMAL(38,10)', Types.decimal(38, 10)],
  ['DATETIME', Types.DATETIME],
  ['VARCHAR', Types.varchar(100)],
];
const SHAPES: Shape[] = ['random', 'small-range', 'runs', 'constant', 'extremes', 'sorted'];

function roundTrip(vec: Vector, start = 0, end = vec.length): Vector {
  const dictionary = vec.type.name === 'VARCHAR' ? buildDictionary(vec) : null;
  if (dictionary) {
    const dictVec: Vector = { kind: 'dict', type: vec.type, length: vec.length, codes: dictionary.codes, dict: dictionary.dict, nulls: vec.nulls };
    const raw = encodePage(dictVec, start, end, { codes: dictionary.codes, size: dictionary.dict.length });
    const dict = decodeDictPage(encodeDictPage(dictionary.dict), 'dict');
    const out = decodePage(raw, vec.type, dict, 'page');
    assert.equal(out.kind, 'dict');
    return out;
  }
  return decodePage(encodePage(vec, start, end), vec.type, null, 'page');
}

test('crc32 matches the standard check value', () => {
  assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
  const bytes = new Uint8Array(1000).map((_v, idx) => (idx * 31) & 0xff);
  assert.equal(crc32(bytes, 500, 1000, crc32(bytes, 0, 500)), crc32(bytes));
});

test('bit packing round-trips every width', () => {
  const rand = rng(7);
  for (let width = 0; width <= 32; width++) {
    const count = 1 + Math.floor(rand() * 300);
    const values = new Uint32Array(count);
    for (let valueIdx = 0; valueIdx < count; valueIdx++) values[valueIdx] = width === 0 ? 0 : Math.floor(rand() * 2 ** width);
    const out = unpackBits(packBits(values, count, width), count, width, new Uint32Array(count));
    assert.deepEqual(out, values, `width ${width}`);
  }
});

for (const [name, type] of TYPES) {
  test(`page round trip: ${name} over shapes, nulls, empty and offset pages`, () => {
    let seed = 1;
    for (const shape of SHAPES) {
      for (const nullRate of [0, 0.1, 1]) {
        const vec = randomVector(type, 700, seed++, shape, nullRate);
        assert.deepEqual(comparable(roundTrip(vec)), comparable(vec), `${shape} nulls=${nullRate}`);
        // A page from the middle of a vector (offsets, null map alignment).
        const sliced = roundTrip(vec, 123, 611);
        assert.deepEqual(comparable(sliced), comparable(vec).slice(123, 611), `${shape} nulls=${nullRate} slice`);
      }
    }
    const empty = vectorFromRaw(type, []);
    assert.equal(roundTrip(empty).length, 0);
  });
}

test('lightweight encodings shrink what they should', () => {
  const plainBytes = (vec: Vector): number => encodePage(vec, 0, vec.length).length;
  const dates = randomVector(Types.DATE, 10000, 3, 'small-range');
  assert.ok(plainBytes(dates) < 10000 * 4 * 0.4, `FOR dates: ${plainBytes(dates)} bytes`);
  const sorted = randomVector(Types.INT, 10000, 3, 'runs');
  assert.ok(plainBytes(sorted) < 10000 * 0.5, `RLE runs: ${plainBytes(sorted)} bytes`);
  const datetimes = randomVector(Types.DATETIME, 10000, 3, 'small-range');
  assert.ok(plainBytes(datetimes) < 10000 * 8 * 0.3, `FOR+divisor datetimes: ${plainBytes(datetimes)} bytes`);
  const decimals = randomVector(Types.decimal(15, 2), 10000, 3, 'random');
  assert.ok(plainBytes(decimals) < 10000 * 8 * 0.4, `FOR decimals: ${plainBytes(decimals)} bytes`);
  const prices = randomVector(Types.DOUBLE, 1000, 3, 'random');
  assert.ok(plainBytes(prices) >= 8000, 'non-integral doubles stay plain');
  const bigints = randomVector(Types.BIGINT, 10000, 3, 'small-range');
  assert.ok(plainBytes(bigints) < 10000 * 8 * 0.3, `FOR bigints: ${plainBytes(bigints)} bytes`);
});

test('dictionary: sorted by UTF-8 bytes, only when it pays', () => {
  const low = vectorFromRaw(Types.STRING, ['b', 'a', '😀', 'b', null, 'a', 'é', 'b', 'a', 'a']);
  const dictionary = buildDictionary(low)!;
  assert.deepEqual(dictionary.dict, ['a', 'b', 'é', '😀']);
  assert.deepEqual(Array.from(dictionary.codes), [1, 0, 3, 1, 0, 0, 2, 1, 0, 0]);
  const high = randomVector(Types.STRING, 100, 5, 'sorted');
  assert.equal(buildDictionary(high), null);
});

test('compression: LZ4, ZSTD, NONE round trip; incompressible pages stored plain', async () => {
  const raw = encodePage(randomVector(Types.INT, 5000, 9, 'sorted'), 0, 5000);
  const repetitive = new Uint8Array(100000).map((_v, idx) => idx % 17);
  for (const codec of ['LZ4', 'ZSTD', 'NONE'] as const) {
    for (const input of [raw, repetitive]) {
      const packed = await compressPage(codec, input);
      if (codec !== 'NONE' && input === repetitive) assert.ok(packed.data.length < input.length / 10, `${codec} shrinks`);
      const back = await decompressPage(packed.codec, packed.data, input.length, 'page');
      assert.deepEqual(Buffer.from(back), Buffer.from(input));
    }
  }
  const random = new Uint8Array(4096).map(() => Math.floor(Math.random() * 256));
  assert.equal((await compressPage('LZ4', random)).codec, CODEC_NONE);
  assert.equal(parseCompression('zstd'), 'ZSTD');
  assert.throws(() => parseCompression('snappyish'), /compression/);
  await assert.rejects(decompressPage(1, new Uint8Array([1, 2, 3, 4, 5]), 100, 'f.dat: page 3'), (err: Error) => /CORRUPTION.*f\.dat: page 3/.test(err.message));
});

test('decode throughput (informational)', () => {
  // 1M-row INT column in 64K-row pages, as the writer cuts it.
  const count = 1 << 20;
  const pageRows = 65536;
  const vec = randomVector(Types.INT, count, 11, 'small-range');
  const pages: Uint8Array[] = [];
  for (let start = 0; start < count; start += pageRows) pages.push(encodePage(vec, start, start + pageRows));
  let decoded = 0;
  for (const page of pages) decoded += decodePage(page, Types.INT, null, 'warm').length;
  assert.equal(decoded, count);
  const rounds = 5;
  const start = performance.now();
  for (let round = 0; round < rounds; round++) for (const page of pages) decodePage(page, Types.INT, null, 'bench');
  const ms = (performance.now() - start) / rounds;
  const encodedBytes = pages.reduce((sum, page) => sum + page.length, 0);
  console.log(`# decode FOR int32, 1M rows in 64K-row pages: ${ms.toFixed(2)} ms = ${((count * 4) / 1e6 / (ms / 1000)).toFixed(0)} MB/s decoded (${encodedBytes} bytes encoded)`);
});
