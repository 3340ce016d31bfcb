/**
 * GROUP BY on several dictionary-encoded keys combines the codes into one small integer per row; the
 * group ids and key values must be exactly those of the generic (serialized key) path, across NULLs,
 * dictionaries that change between batches and batches that mix dictionary and plain strings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getRaw, vectorFromRaw, type Vector } from '../../src/common/column';
import { Types } from '../../src/common/types';
import { createGroupKeyTable } from '../../src/exec/operators';

const CHAR1 = Types.char(1);

function dict(values: (string | null)[], entries: string[]): Vector {
  return {
    kind: 'dict',
    type: CHAR1,
    length: values.length,
    codes: Int32Array.from(values, (value) => (value === null ? 0 : entries.indexOf(value))),
    dict: entries,
    nulls: values.includes(null) ? Uint8Array.from(values, (value) => (value === null ? 1 : 0)) : null,
  };
}

function rng(seed: number): () => number {
  let state = seed;
  return () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

test('dictionary-code group keys match the generic path', () => {
  const random = rng(5);
  const fast = createGroupKeyTable([CHAR1, CHAR1, Types.varchar(4)]);
  const generic = createGroupKeyTable([CHAR1, CHAR1, Types.varchar(4)]);
  const dictSets = [
    [['A', 'N', 'R'], ['F', 'O'], ['x', 'yy', 'zzz']],
    [['R', 'A'], ['O', 'F', 'Q'], ['zzz', 'x']],
  ];
  for (let batchIdx = 0; batchIdx < 8; batchIdx++) {
    const entries = dictSets[batchIdx % 2];
    const rowCount = 50 + batchIdx * 13;
    const columns = entries.map((options, keyIdx) => Array.from({ length: rowCount }, () => (keyIdx === 1 && random() < 0.15 ? null : options[Math.floor(random() * options.length)])));
    // Batch 5 arrives as plain strings: the same table mixes both paths.
    const fastKeys = batchIdx === 5 ? columns.map((values, keyIdx) => vectorFromRaw(keyIdx < 2 ? CHAR1 : Types.varchar(4), values)) : columns.map((values, keyIdx) => ({ ...dict(values, entries[keyIdx]), type: keyIdx < 2 ? CHAR1 : Types.varchar(4) }) as Vector);
    const plainKeys = columns.map((values, keyIdx) => vectorFromRaw(keyIdx < 2 ? CHAR1 : Types.varchar(4), values));
    const fastIds = new Int32Array(rowCount);
    const genericIds = new Int32Array(rowCount);
    fast.assign(fastKeys, rowCount, fastIds);
    generic.assign(plainKeys, rowCount, genericIds);
    assert.deepEqual(Array.from(fastIds), Array.from(genericIds), `batch ${batchIdx}`);
  }
  assert.equal(fast.groupCount, generic.groupCount);
  assert.ok(fast.groupCount > 20, 'many combinations, including NULLs');
  const fastOut = fast.finishKeys();
  const genericOut = generic.finishKeys();
  for (let keyIdx = 0; keyIdx < 3; keyIdx++) {
    const read = (vec: Vector) => Array.from({ length: vec.length }, (_v, rowIdx) => getRaw(vec, rowIdx));
    assert.deepEqual(read(fastOut[keyIdx]), read(genericOut[keyIdx]));
  }
});

test('BIGINT group keys (two 32-bit halves) give the same groups as a Map over the values', () => {
  const random = rng(11);
  const table = createGroupKeyTable([Types.BIGINT]);
  const reference = new Map<bigint | null, number>();
  const special = [0n, -1n, 1n, 4294967296n, -4294967296n, 9223372036854775807n, -9223372036854775808n, 4294967295n];
  for (let batchIdx = 0; batchIdx < 6; batchIdx++) {
    const rowCount = 3000 + batchIdx * 17;
    const values: (bigint | null)[] = [];
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const pick = random();
      if (pick < 0.05) values.push(null);
      else if (pick < 0.2) values.push(special[Math.floor(random() * special.length)]);
      else values.push(BigInt(Math.floor(random() * 5000) - 2500) * (pick < 0.6 ? 1n : 4294967296n));
    }
    const out = new Int32Array(rowCount);
    table.assign([vectorFromRaw(Types.BIGINT, values)], rowCount, out);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const key = values[rowIdx];
      if (!reference.has(key)) reference.set(key, reference.size);
      assert.equal(out[rowIdx], reference.get(key), `row ${rowIdx} of batch ${batchIdx} (${key})`);
    }
  }
  assert.equal(table.groupCount, reference.size);
  const [keys] = table.finishKeys();
  const expected = [...reference.keys()];
  for (let group = 0; group < expected.length; group++) assert.equal(getRaw(keys, group) === null || keys.nulls?.[group] === 1 ? null : getRaw(keys, group), expected[group]);
});
