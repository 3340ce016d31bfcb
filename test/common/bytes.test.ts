/** sortByteRanges against a sort by compareBytes: random byte strings with shared prefixes, duplicates and empty strings. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareBytes, sortByteRanges } from '../../src/common/bytes';
import { mulberry32 } from '../../src/common/prng';

test('sortByteRanges orders byte strings as compareBytes does', () => {
  const random = mulberry32(5);
  for (let caseIdx = 0; caseIdx < 200; caseIdx++) {
    const count = Math.floor(random() * (caseIdx < 100 ? 20 : 3000));
    const prefix = Array.from({ length: Math.floor(random() * 40) }, () => Math.floor(random() * 256));
    const strings = Array.from({ length: count }, () => {
      const tail = Array.from({ length: Math.floor(random() * 6) }, () => [0, 1, 127, 128, 255][Math.floor(random() * 5)]);
      return random() < 0.2 ? tail : [...prefix.slice(0, Math.floor(random() * (prefix.length + 1))), ...tail];
    });
    const offsets = new Int32Array(count + 1);
    strings.forEach((value, idx) => (offsets[idx + 1] = offsets[idx] + value.length));
    const bytes = Uint8Array.from(strings.flat());
    const rows = Int32Array.from({ length: count }, (_unused, idx) => count - 1 - idx);
    sortByteRanges(rows, offsets, bytes);
    assert.deepEqual([...rows].sort((a, b) => a - b), Array.from({ length: count }, (_unused, idx) => idx), `case ${caseIdx}: a permutation`);
    for (let idx = 1; idx < count; idx++) {
      const order = compareBytes(bytes, offsets[rows[idx - 1]], offsets[rows[idx - 1] + 1], bytes, offsets[rows[idx]], offsets[rows[idx] + 1]);
      assert.ok(order <= 0, `case ${caseIdx}: rows ${rows[idx - 1]} and ${rows[idx]} out of order`);
    }
  }
});
