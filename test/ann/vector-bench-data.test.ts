// The vector benchmark's data plumbing (bench/lib/vector-data.ts): quantized vectors written as text byte by
// byte parse back to the same float32 values (what Stream Load stores is what the bench searches with), and
// the streaming exact top-k over chunks equals one exact search over the whole set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GaussianMixture, groundTruth, quantizeVectors, StreamingTopK, vectorText, writeVectorText } from '../../bench/lib/vector-data';
import { exactTopK } from '../../src/storage/ann/exact-scan';

test('quantized vectors round-trip through their text exactly', () => {
  const values = new Float32Array([0, -0, 1, -1, 0.5, 1.234567, -1.234564, 1e-6, -4e-6, 99999.123456, -200.000004, 3.99999951]);
  for (const decimals of [0, 2, 5]) {
    const vector = values.slice();
    quantizeVectors(vector, decimals);
    const text = vectorText(vector, decimals);
    assert.match(text, /^\[-?\d+(\.\d+)?(,-?\d+(\.\d+)?)*\]$/);
    const parsed = Float32Array.from(JSON.parse(text) as number[]);
    assert.deepEqual(Array.from(parsed).map((value) => value + 0), Array.from(vector).map((value) => value + 0), `decimals ${decimals}: ${text}`);
  }
  assert.equal(vectorText(Float32Array.from([1.5, -0.25]), 2), '[1.50,-0.25]');
  const mixture = new GaussianMixture(24, 3).sample(50, 4);
  quantizeVectors(mixture, 5);
  const out = new Uint8Array(50 * 24 * 20);
  let pos = 0;
  for (let row = 0; row < 50; row++) {
    pos = writeVectorText(out, pos, mixture, row * 24, 24, 5);
    out[pos++] = 0x0a;
  }
  const lines = Buffer.from(out.subarray(0, pos)).toString('latin1').trim().split('\n');
  assert.equal(lines.length, 50);
  assert.deepEqual(Float32Array.from(lines.flatMap((line) => JSON.parse(line) as number[])), mixture);
});

test('StreamingTopK over chunks equals the exact top-k of the whole set', () => {
  const dim = 16;
  const rows = 3000;
  const mixture = new GaussianMixture(dim, 9);
  const base = mixture.sample(rows, 10);
  const queries = mixture.sample(20, 11);
  const merger = new StreamingTopK(20, 50);
  for (let first = 0; first < rows; first += 700) {
    const count = Math.min(700, rows - first);
    const chunk = base.subarray(first * dim, (first + count) * dim);
    for (let queryIdx = 0; queryIdx < 20; queryIdx++) {
      const hits = exactTopK('l2_distance', chunk, dim, count, queries.subarray(queryIdx * dim, (queryIdx + 1) * dim), 50);
      merger.add(queryIdx, Array.from(hits.positions, (pos) => pos + first), hits.keys, hits.positions.length);
    }
  }
  assert.deepEqual(merger.truth().map((ids) => Array.from(ids)), groundTruth('l2_distance', base, queries, dim, 50).map((ids) => Array.from(ids)));
});
