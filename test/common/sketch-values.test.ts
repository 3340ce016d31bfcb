/**
 * The sketch values behind BITMAP, HLL and QUANTILE_STATE: serialize / deserialize round trips over
 * seeded random contents (every form: empty, single, 32-bit roaring, 64-bit buckets; explicit, sparse and
 * full HLLs; explicit and t-digest quantile states), unions against plain sets, malformed bytes read as
 * null, and the hashes Doris documents.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BitmapValue } from '../../src/common/bitmap-value';
import { HllValue } from '../../src/common/hll-value';
import { MURMUR3_32_SEED, MURMUR64A_SEED, murmur3x64_64, murmur3x86_32, murmur64A } from '../../src/common/murmur-hash';
import { mulberry32 } from '../../src/common/prng';
import { QuantileStateValue } from '../../src/common/quantile-state';

const bytesOf = (text: string) => new TextEncoder().encode(text);

test("murmur hashes give Doris's documented values", () => {
  const hello = bytesOf('hello');
  assert.equal(murmur3x86_32(hello, 0, hello.length, MURMUR3_32_SEED), 1321743225);
  assert.equal(murmur3x64_64(hello, 0, hello.length, 0n), 15231136565543391023n);
  const abc = bytesOf('abc');
  assert.equal(murmur64A(abc, 0, abc.length, MURMUR64A_SEED), 0x77ec90aeb374e502n);
});

test('bitmaps round-trip through every serialized form and unite like sets', () => {
  const random = mulberry32(14);
  for (let trial = 0; trial < 60; trial++) {
    const size = [0, 1, 2, 50, 5000][trial % 5];
    const wide = trial % 3 === 0;
    const values = new Set<bigint>();
    for (let valueIdx = 0; valueIdx < size; valueIdx++) values.add(BigInt(Math.floor(random() * 1e6)) + (wide && valueIdx % 2 === 0 ? BigInt(Math.floor(random() * 4)) << 32n : 0n));
    const bitmap = BitmapValue.of(values);
    const bytes = bitmap.serialize();
    const back = BitmapValue.deserialize(bytes, 0, bytes.length);
    assert.ok(back !== null);
    const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
    assert.deepEqual(back.toStrings(), sorted, `trial ${trial}`);
    assert.equal(back.size, values.size);
    const otherValues = new Set([...values].slice(0, size >> 1).concat([7n]));
    const other = BitmapValue.of(otherValues);
    assert.equal(back.clone().or(other).size, new Set([...values, ...otherValues]).size);
    assert.equal(back.andCount(other), [...values].filter((value) => otherValues.has(value)).length);
    assert.equal(back.clone().xor(other).size, back.clone().or(other).size - back.andCount(other));
  }
  assert.equal(BitmapValue.deserialize(Uint8Array.of(9, 1, 2), 0, 3), null);
  assert.equal(BitmapValue.deserialize(Uint8Array.of(2, 1, 2), 0, 3), null);
  assert.equal(BitmapValue.deserialize(Uint8Array.of(1, 1, 2), 0, 3), null);
});

test('HLLs round-trip (explicit, sparse, full) and estimate within 2%', () => {
  const random = mulberry32(7);
  for (const distinct of [0, 1, 160, 161, 3000, 200_000]) {
    const hll = new HllValue();
    for (let valueIdx = 0; valueIdx < distinct; valueIdx++) {
      const text = bytesOf(`user-${valueIdx}-${Math.floor(random() * 10)}`);
      hll.update(murmur64A(text, 0, text.length, MURMUR64A_SEED));
    }
    const bytes = hll.serialize();
    const back = HllValue.deserialize(bytes, 0, bytes.length);
    assert.ok(back !== null);
    assert.equal(back.cardinality(), hll.cardinality());
    if (distinct <= 160) assert.equal(back.cardinality(), distinct);
    else assert.ok(Math.abs(back.cardinality() - distinct) / distinct < 0.02, `${distinct}: ${back.cardinality()}`);
    const merged = new HllValue().merge(back).merge(hll);
    assert.equal(merged.cardinality(), hll.cardinality());
  }
  assert.equal(HllValue.deserialize(Uint8Array.of(1, 2, 0), 0, 3), null);
  assert.equal(HllValue.deserialize(Uint8Array.of(3, 0), 0, 2), null);
});

test('quantile states round-trip and merge (explicit, then t-digest)', () => {
  for (const count of [0, 5, 2048, 10_000]) {
    const left = new QuantileStateValue();
    const right = new QuantileStateValue();
    for (let valueIdx = 0; valueIdx < count; valueIdx++) (valueIdx % 2 === 0 ? left : right).add(valueIdx);
    const merged = left.merge(right);
    const bytes = merged.serialize();
    const back = QuantileStateValue.deserialize(bytes, 0, bytes.length)!;
    if (count === 0) assert.ok(Number.isNaN(back.percent(0.5)));
    else {
      assert.ok(Math.abs(back.percent(0.5) - (count - 1) / 2) <= count * 0.01, `${count}: ${back.percent(0.5)}`);
      assert.equal(back.percent(0), 0);
      assert.equal(back.percent(1), count - 1);
    }
  }
  assert.equal(QuantileStateValue.deserialize(Uint8Array.of(1, 0, 0), 0, 3), null);
});

test('single-value states unite on their bytes as their values do', () => {
  const bitmap = new BitmapValue();
  for (const value of [0n, 5n, 5n, 4294967295n, 4294967296n, 18446744073709551615n, null]) {
    const bytes = BitmapValue.serializeSingle(value);
    assert.ok(bitmap.orSerialized(bytes, 0, bytes.length));
  }
  assert.deepEqual(bitmap.toStrings(), ['0', '5', '4294967295', '4294967296', '18446744073709551615']);
  assert.equal(bitmap.orSerialized(Uint8Array.of(1, 2), 0, 2), false);
  const viaBytes = new HllValue();
  const viaValues = new HllValue();
  for (let valueIdx = 0; valueIdx < 500; valueIdx++) {
    const text = bytesOf(`v${valueIdx % 300}`);
    const hash = murmur64A(text, 0, text.length, MURMUR64A_SEED);
    const bytes = HllValue.serializeSingle(hash);
    assert.ok(viaBytes.mergeSerialized(bytes, 0, bytes.length));
    viaValues.update(hash);
  }
  assert.deepEqual(viaBytes.serialize(), viaValues.serialize());
  assert.equal(viaBytes.mergeSerialized(Uint8Array.of(7), 0, 1), false);
});
