/**
 * The hash algorithms against reference values: XXH3-64 at every length class (bytes i % 251, seed 0,
 * the values xxHash's reference implementation gives), MurmurHash3 x86_32 of '' and 'hello' (seed 0),
 * XXH32 of ''.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { murmur3x86_32, xxh3_64, xxhash32 } from '../../src/exec/expr/functions/hash-algorithms';

const bytesOf = (length: number): Uint8Array => Uint8Array.from({ length }, (_v, idx) => idx % 251);

const XXH3_VECTORS: Record<number, bigint> = {
  0: 0x2d06800538d394c2n, 1: 0xc44bdff4074eecdbn, 2: 0xd6645fc3051a9457n, 3: 0x5f4299fc161c9cbbn, 4: 0x60dab036a58211f2n,
  8: 0x3a1c2d7c85af88f8n, 9: 0xe9612598145bb9dcn, 16: 0x8355e3a6f61770dbn, 17: 0x9ef341a99de37328n, 33: 0xe68c56ba88991e58n,
  128: 0x85c6174c7ff4c46bn, 129: 0xec7642b431ba3e5an, 240: 0x375a384d957fe865n, 241: 0x02e8cd95421c6d02n, 244: 0xbc17c91ec3cf8d7fn,
};

test('XXH3-64 matches the reference at every length class', () => {
  for (const [length, expected] of Object.entries(XXH3_VECTORS)) {
    const input = bytesOf(Number(length));
    assert.equal(xxh3_64(input, 0, input.length, 0n), expected, `length ${length}`);
  }
});

test('MurmurHash3 x86_32 and XXH32 reference values', () => {
  const hello = Buffer.from('hello');
  assert.equal(murmur3x86_32(hello, 0, 5, 0), 613153351);
  assert.equal(murmur3x86_32(new Uint8Array(0), 0, 0, 0), 0);
  assert.equal(xxhash32(new Uint8Array(0), 0, 0, 0), 0x02cc5d05);
});
