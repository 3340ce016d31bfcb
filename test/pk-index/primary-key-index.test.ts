import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RawValue, Vector } from '../../src/common/column';
import { getRaw, takeRows, vectorFromRaw } from '../../src/common/column';
import { GaleneError } from '../../src/common/errors';
import { NO_PROFILE } from '../../src/common/profile';
import { sortPermutation } from '../../src/common/row-order';
import type { DataType } from '../../src/common/types';
import { physicalKind, Types } from '../../src/common/types';
import type { RandomAccessFile } from '../../src/io/file-cache';
import { PageCache } from '../../src/storage/page-cache';
import { buildPrimaryKeyIndex, encodeKeys, encodeRawKeys, PrimaryKeyIndexReader, type EncodedKeys } from '../../src/storage/primary-key-index';
import { randomValue, rng } from '../storage/test-data';

/** An in-memory file that counts its reads. */
function memoryFile(key: string, parts: readonly Uint8Array[]): RandomAccessFile & { reads: number } {
  const data = Buffer.concat(parts);
  return {
    key,
    size: data.length,
    reads: 0,
    async read(offset: number, length: number) {
      this.reads++;
      if (offset < 0 || offset + length > data.length) throw new GaleneError('IO_ERROR', [`${key}: range past the end`]);
      return Buffer.from(data.subarray(offset, offset + length));
    },
  };
}

function keyHex(keys: EncodedKeys, keyIdx: number): string {
  return Buffer.from(keys.bytes.subarray(keys.offsets[keyIdx], keys.offsets[keyIdx + 1])).toString('hex');
}

/** Sorted, unique key columns of `rows` random tuples, in the memtable's order (ascending, NULLs first). */
function sortedKeys(types: readonly DataType[], rows: number, seed: number, nullRate = 0): { vectors: Vector[]; tuples: RawValue[][] } {
  const rand = rng(seed);
  const raw = types.map((type) => Array.from({ length: rows }, (_, rowIdx) => (rand() < nullRate ? null : randomValue(type, rand, 'random', rowIdx))));
  const vectors = types.map((type, colIdx) => vectorFromRaw(type, raw[colIdx]));
  const order = sortPermutation(rows, vectors.map((vector) => ({ vector, descending: false, nullsFirst: true })));
  const sorted = vectors.map((vec) => takeRows(vec, order));
  const encoded = encodeKeys(sorted, types.map(physicalKind), rows);
  const keep: number[] = [];
  for (let rowIdx = 0; rowIdx < rows; rowIdx++) if (rowIdx === 0 || keyHex(encoded, rowIdx) !== keyHex(encoded, rowIdx - 1)) keep.push(rowIdx);
  const unique = sorted.map((vec) => takeRows(vec, keep));
  // Values as stored (a random BIGINT beyond 64 bits wraps as the column holds it).
  const tuples = keep.map((_, keptIdx) => types.map((__, colIdx) => getRaw(unique[colIdx], keptIdx)));
  return { vectors: unique, tuples };
}

const CASES: [string, DataType[]][] = [
  ['INT', [Types.INT]],
  ['BIGINT', [Types.BIGINT]],
  ['VARCHAR', [Types.varchar(64)]],
  ['INT, VARCHAR', [Types.INT, Types.varchar(32)]],
  ['BIGINT, DATE, STRING', [Types.BIGINT, Types.DATE, Types.STRING]],
  ['SMALLINT, LARGEINT, DOUBLE', [Types.SMALLINT, Types.LARGEINT, Types.DOUBLE]],
];

for (const [name, types] of CASES) {
  test(`primary key index round trip: ${name}`, async () => {
    const kinds = types.map(physicalKind);
    const { vectors, tuples } = sortedKeys(types, 20_000, 7 + types.length, 0.02);
    // The fast encoders equal encodeKeyValue value by value, and the memtable's order is byte order.
    const fromVectors = encodeKeys(vectors, kinds, tuples.length);
    const fromRaw = encodeRawKeys(tuples, kinds)!;
    assert.deepEqual(Buffer.from(fromVectors.bytes), Buffer.from(fromRaw.bytes));
    assert.deepEqual(fromVectors.offsets, fromRaw.offsets);
    for (let keyIdx = 1; keyIdx < tuples.length; keyIdx++) assert.ok(keyHex(fromVectors, keyIdx - 1) < keyHex(fromVectors, keyIdx), `key ${keyIdx} out of order`);

    const file = memoryFile('data/1/1_0.__primary_key.idx', buildPrimaryKeyIndex(vectors, kinds, tuples.length));
    const reader = await PrimaryKeyIndexReader.open(file, NO_PROFILE, new PageCache(1 << 24));
    assert.equal(reader.numRows, tuples.length);
    assert.ok(reader.matchesKinds(kinds));
    assert.ok(reader.pageCount > 1, 'several pages');
    const found = await reader.lookup(fromRaw, NO_PROFILE);
    assert.deepEqual(Array.from(found), tuples.map((_, rowIdx) => rowIdx));
    // Keys not in the segment: other random tuples (minus those present) are all absent.
    const present = new Map(tuples.map((_, keyIdx) => [keyHex(fromRaw, keyIdx), keyIdx]));
    const others = sortedKeys(types, 5000, 1000 + types.length).tuples;
    const probe = encodeRawKeys(others, kinds)!;
    const answers = await reader.lookup(probe, NO_PROFILE);
    others.forEach((_, keyIdx) => assert.equal(answers[keyIdx], present.get(keyHex(probe, keyIdx)) ?? -1));
  });
}

test('a cold lookup reads the tail once and one key page', async () => {
  const { vectors, tuples } = sortedKeys([Types.INT], 3000, 3);
  const kinds = [physicalKind(Types.INT)];
  const file = memoryFile('k.idx', buildPrimaryKeyIndex(vectors, kinds, tuples.length));
  const reader = await PrimaryKeyIndexReader.open(file, NO_PROFILE);
  assert.equal(file.reads, 1);
  const rows = await reader.lookup(encodeRawKeys([tuples[1234]], kinds)!, NO_PROFILE);
  assert.equal(rows[0], 1234);
  assert.equal(file.reads, 2);
  // An absent key outside the range reads nothing.
  assert.equal((await reader.lookup(encodeRawKeys([[-2147483648]], kinds)!, NO_PROFILE))[0], tuples[0][0] === -2147483648 ? 0 : -1);
  assert.equal(file.reads, tuples[0][0] === -2147483648 ? 3 : 2);
});

test('a large index (bloom beyond the first tail read) opens with a second read', async () => {
  const count = 200_000;
  const vec = vectorFromRaw(Types.BIGINT, Array.from({ length: count }, (_, rowIdx) => BigInt(rowIdx * 3)));
  const kinds = [physicalKind(Types.BIGINT)];
  const file = memoryFile('big.idx', buildPrimaryKeyIndex([vec], kinds, count));
  const reader = await PrimaryKeyIndexReader.open(file, NO_PROFILE);
  assert.equal(file.reads, 2);
  const rows = await reader.lookup(encodeRawKeys([[0n], [3n * 199_999n], [7n], [3n * 1000n]], kinds)!, NO_PROFILE);
  assert.deepEqual(Array.from(rows), [0, 199_999, -1, 1000]);
});

test('an empty segment has an index that finds nothing', async () => {
  const kinds = [physicalKind(Types.INT)];
  const reader = await PrimaryKeyIndexReader.open(memoryFile('e.idx', buildPrimaryKeyIndex([vectorFromRaw(Types.INT, [])], kinds, 0)), NO_PROFILE);
  assert.equal(reader.numRows, 0);
  assert.deepEqual(Array.from(await reader.lookup(encodeRawKeys([[1]], kinds)!, NO_PROFILE)), [-1]);
});

test('values no key column can hold are not encodable', () => {
  assert.equal(encodeRawKeys([[1.5]], ['i32']), null);
  assert.equal(encodeRawKeys([['x']], ['i64']), null);
});

test('corrupt and truncated index files are CORRUPTION errors naming the file', async () => {
  const { vectors, tuples } = sortedKeys([Types.INT, Types.varchar(16)], 4000, 11);
  const kinds = [Types.INT, Types.varchar(16)].map(physicalKind);
  const whole = Buffer.concat(buildPrimaryKeyIndex(vectors, kinds, tuples.length));
  const probe = encodeRawKeys(tuples, kinds)!;
  const attempt = async (bytes: Uint8Array): Promise<void> => {
    const reader = await PrimaryKeyIndexReader.open(memoryFile('data/9/9_0.__primary_key.idx', [bytes]), NO_PROFILE);
    await reader.lookup(probe, NO_PROFILE);
  };
  const isCorruption = (error: unknown): boolean => error instanceof GaleneError && error.code === 'CORRUPTION' && /data\/9\/9_0\.__primary_key\.idx/.test(error.message);
  for (const cut of [0, 5, 16, whole.length - 1, whole.length - 17, Math.floor(whole.length / 2)]) {
    await assert.rejects(attempt(whole.subarray(0, cut)), isCorruption, `truncated to ${cut}`);
  }
  // A flipped bit anywhere: in a key page, the bloom, the page index or the trailer.
  for (const pos of [3, 100, Math.floor(whole.length / 2), whole.length - 40, whole.length - 14, whole.length - 2]) {
    const flipped = Buffer.from(whole);
    flipped[pos] ^= 0x10;
    await assert.rejects(attempt(flipped), isCorruption, `bit flipped at ${pos}`);
  }
});
