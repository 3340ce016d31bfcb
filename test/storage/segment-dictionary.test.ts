/**
 * The segment writer's dictionary builder (hash of bytes / remap of codes) against buildDictionary: the
 * same entries, codes and give-up decisions for plain and dictionary string vectors, so a segment's
 * bytes do not depend on which path built them. Also the memtable: rows already in key order are kept,
 * others sorted stably with NULLs first; UNIQUE keeps the last row of each key.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DictVector, getRaw, Vector, vectorFromRaw } from '../../src/common/column';
import { mulberry32 } from '../../src/common/prng';
import { Types } from '../../src/common/types';
import { buildDictionary, encodeDictPage } from '../../src/storage/encoding/string-dict';
import { prepareTabletRows } from '../../src/storage/memtable';
import { segmentDictionary } from '../../src/storage/segment-writer';

const random = mulberry32(11);
const ALPHABET = ['a', 'b', 'Z', ' ', 'é', '漢', '😀', '\u0000', 'x'];

function randomString(maxLength: number): string {
  let text = '';
  const length = Math.floor(random() * (maxLength + 1));
  for (let charIdx = 0; charIdx < length; charIdx++) text += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return text;
}

/** ASCII values sharing long prefixes (the segment writer's byte-sorting path), some a prefix of another. */
function asciiString(maxLength: number): string {
  const prefixes = ['GET /english/history/history_of/images/cup/', 'GET /english/history/', 'POST /a', ''];
  let text = prefixes[Math.floor(random() * prefixes.length)];
  const length = Math.floor(random() * (maxLength + 1));
  for (let charIdx = 0; charIdx < length; charIdx++) text += 'ab/Z 0\u0001~'[Math.floor(random() * 9)];
  return text;
}

function randomValues(rowCount: number, distinct: number, nullRate: number, ascii = false): (string | null)[] {
  const pool = Array.from({ length: distinct }, () => (ascii ? asciiString(4) : randomString(6)));
  return Array.from({ length: rowCount }, () => (random() < nullRate ? null : pool[Math.floor(random() * pool.length)]));
}

function asDict(values: (string | null)[]): DictVector {
  // duplicates and unused entries on purpose: the builder must count values, not entries
  const dict = [...new Set(values.filter((value): value is string => value !== null)), 'unused', 'unused'];
  if (dict.length > 2) dict.push(dict[0]);
  const codes = new Int32Array(values.length);
  const nulls = new Uint8Array(values.length);
  values.forEach((value, rowIdx) => {
    if (value === null) nulls[rowIdx] = 1;
    else codes[rowIdx] = value === dict[0] && rowIdx % 2 === 1 ? dict.length - 1 : dict.indexOf(value);
  });
  return { kind: 'dict', type: Types.STRING, length: values.length, codes, dict, nulls: values.includes(null) ? nulls : null };
}

/** segmentDictionary's answer is buildDictionary's; a dictionary page it built on the bytes is encodeDictPage's. */
function assertSameDictionary(vec: Vector, message: string): 'dictionary' | 'refusal' {
  const expected = buildDictionary(vec);
  const actual = segmentDictionary(vec);
  if (expected === null || actual === null) {
    assert.deepEqual(actual, expected, message);
    return 'refusal';
  }
  assert.deepEqual({ dict: actual.dict, codes: actual.codes }, expected, message);
  if (actual.page !== undefined) assert.deepEqual(actual.page, encodeDictPage(expected.dict), `${message}: dictionary page`);
  return 'dictionary';
}

test('segmentDictionary equals buildDictionary on plain and dictionary vectors', () => {
  const outcomes = { dictionary: 0, refusal: 0, bytePages: 0 };
  for (let caseIdx = 0; caseIdx < 450; caseIdx++) {
    const rowCount = 1 + Math.floor(random() * 400);
    const distinct = 1 + Math.floor(random() * rowCount);
    const values = randomValues(rowCount, distinct, caseIdx % 3 === 0 ? 0.2 : 0, caseIdx >= 300);
    for (const vec of [vectorFromRaw(Types.STRING, values), asDict(values)] as Vector[]) {
      outcomes[assertSameDictionary(vec, `case ${caseIdx} (${vec.kind})`)]++;
      if (segmentDictionary(vec)?.page !== undefined) outcomes.bytePages++;
    }
  }
  assert.ok(outcomes.dictionary > 50 && outcomes.refusal > 20 && outcomes.bytePages > 20, JSON.stringify(outcomes));
  const allNull = vectorFromRaw(Types.STRING, [null, null, null]);
  assertSameDictionary(allNull, 'all NULL');
});

function rows(columns: Vector[], length: number): unknown[][] {
  return Array.from({ length }, (_unused, rowIdx) => columns.map((column) => getRaw(column, rowIdx)));
}

test('memtable: sorted input is kept, unsorted input sorted stably with NULLs first, UNIQUE keeps the last row', () => {
  const keys = vectorFromRaw(Types.INT, [1, 2, 2, 3, 5]);
  const payload = vectorFromRaw(Types.STRING, ['a', 'b', 'c', 'd', 'e']);
  const kept = prepareTabletRows([keys, payload], 5, 1, 'DUPLICATE');
  assert.equal(kept.columns[0], keys);
  const unsortedKeys = vectorFromRaw(Types.INT, [3, null, 1, 3, null, 2, 1]);
  const values = vectorFromRaw(Types.INT, [1, 2, 3, 4, 5, 6, 7]);
  const dup = prepareTabletRows([unsortedKeys, values], 7, 1, 'DUPLICATE');
  assert.deepEqual(rows(dup.columns, dup.length), [[null, 2], [null, 5], [1, 3], [1, 7], [2, 6], [3, 1], [3, 4]]);
  const unique = prepareTabletRows([unsortedKeys, values], 7, 1, 'UNIQUE');
  assert.deepEqual(rows(unique.columns, unique.length), [[null, 5], [1, 7], [2, 6], [3, 4]]);
  const sortedDupKeys = prepareTabletRows([vectorFromRaw(Types.INT, [1, 1, 2]), vectorFromRaw(Types.INT, [1, 2, 3])], 3, 1, 'UNIQUE');
  assert.deepEqual(rows(sortedDupKeys.columns, sortedDupKeys.length), [[1, 2], [2, 3]]);
  const strings = prepareTabletRows([vectorFromRaw(Types.STRING, ['é', 'z', 'Z', 'a']), vectorFromRaw(Types.INT, [1, 2, 3, 4])], 4, 1, 'DUPLICATE');
  assert.deepEqual(rows(strings.columns, strings.length), [['Z', 3], ['a', 4], ['z', 2], ['é', 1]]);
});
