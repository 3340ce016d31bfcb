import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RawValue } from '../../src/common/column';
import { vectorFromRaw } from '../../src/common/column';
import { NO_PROFILE } from '../../src/common/profile';
import { compareStrings } from '../../src/common/utf8';
import { Types } from '../../src/common/types';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { PageCache } from '../../src/storage/page-cache';
import type { ScanPredicate } from '../../src/common/scan-predicate';
import { SegmentReader } from '../../src/storage/segment-reader';
import { writeSegment } from '../../src/storage/segment-writer';
import { rng } from './test-data';

type Row = [bigint | null, string | null, number | null];

function compareNullable<T>(a: T | null, b: T | null, cmp: (x: T, y: T) => number): number {
  if (a === null || b === null) return a === null ? (b === null ? 0 : -1) : 1;
  return cmp(a, b);
}

function matches(value: RawValue, pred: ScanPredicate): boolean {
  if (pred.op === 'isnull') return value === null;
  if (pred.op === 'isnotnull') return value !== null;
  if (value === null) return false;
  const cmp = (other: RawValue): number => {
    if (typeof value === 'string') return compareStrings(value, other as string);
    const a = value as number;
    const b = other as number;
    return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  };
  switch (pred.op) {
    case '=':
      return cmp(pred.value) === 0;
    case '<':
      return cmp(pred.value) < 0;
    case '<=':
      return cmp(pred.value) <= 0;
    case '>':
      return cmp(pred.value) > 0;
    case '>=':
      return cmp(pred.value) >= 0;
    case 'in':
      return pred.values.some((other) => other !== null && cmp(other) === 0);
  }
}

test('pruning never drops a matching row (random sorted keys, NULLs, long strings, NaN)', async () => {
  const rand = rng(4242);
  const longPrefix = 'p'.repeat(70);
  const rows: Row[] = [];
  for (let rowIdx = 0; rowIdx < 3000; rowIdx++) {
    const k1 = rand() < 0.03 ? null : BigInt(Math.floor(rand() * 11) - 5) * 2n ** 40n + BigInt(Math.floor(rand() * 3));
    const k2 = rand() < 0.05 ? null : rand() < 0.3 ? longPrefix + String.fromCharCode(97 + Math.floor(rand() * 5)) : String.fromCharCode(97 + Math.floor(rand() * 26)) + (rand() < 0.2 ? 'é😀' : '');
    const v = rand() < 0.05 ? null : rand() < 0.01 ? NaN : Math.floor(rand() * 1000) / 4 - 100;
    rows.push([k1, k2, v]);
  }
  rows.sort((a, b) => compareNullable(a[0], b[0], (x, y) => (x < y ? -1 : x > y ? 1 : 0)) || compareNullable(a[1], b[1], compareStrings));
  const columns = [
    { name: 'k1', type: Types.BIGINT, uniqueId: 0 },
    { name: 'k2', type: Types.varchar(200), uniqueId: 1 },
    { name: 'v', type: Types.DOUBLE, uniqueId: 2 },
  ];
  const data = columns.map((column, colIdx) => vectorFromRaw(column.type, rows.map((row) => row[colIdx])));
  const store = new LocalObjectStore(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-prune-')));
  await store.put('seg.dat', await writeSegment(columns, data, { compression: 'LZ4', numShortKeyColumns: 2, pageRowLimit: 100 }));
  const cache = await createFileCache(store);
  const reader = await SegmentReader.open(await cache.open('seg.dat', NO_PROFILE), { pageCache: new PageCache(1 << 24), profile: NO_PROFILE });
  const ops = ['=', '<', '<=', '>', '>=', 'in', 'isnull', 'isnotnull'] as const;
  const pickValue = (colIdx: number): RawValue => {
    const row = rows[Math.floor(rand() * rows.length)];
    if (rand() < 0.7 && row[colIdx] !== null) return row[colIdx];
    if (colIdx === 0) return BigInt(Math.floor(rand() * 13) - 6) * 2n ** 40n;
    if (colIdx === 1) return rand() < 0.5 ? longPrefix : String.fromCharCode(96 + Math.floor(rand() * 28));
    return Math.floor(rand() * 1200) / 4 - 150;
  };
  let prunedSomething = 0;
  for (let trial = 0; trial < 300; trial++) {
    const preds: ScanPredicate[] = [];
    const predCount = 1 + Math.floor(rand() * 2);
    for (let predIdx = 0; predIdx < predCount; predIdx++) {
      const colIdx = Math.floor(rand() * 3);
      const op = ops[Math.floor(rand() * ops.length)];
      const column = columns[colIdx].name;
      if (op === 'isnull' || op === 'isnotnull') preds.push({ column, op });
      else if (op === 'in') preds.push({ column, op, values: [pickValue(colIdx), pickValue(colIdx), null] });
      else preds.push({ column, op, value: pickValue(colIdx) });
    }
    const kept = await reader.pruneRows(preds, NO_PROFILE);
    if (kept.count() < rows.length) prunedSomething++;
    for (let rowIdx = 0; rowIdx < rows.length; rowIdx++) {
      const row = rows[rowIdx];
      const all = preds.every((pred) => matches(row[columns.findIndex((column) => column.name === pred.column)], pred));
      if (all && !kept.overlaps(rowIdx, rowIdx + 1)) {
        assert.fail(`row ${rowIdx} ${JSON.stringify(row, (_k, value) => (typeof value === 'bigint' ? `${value}n` : value))} matches ${JSON.stringify(preds, (_k, value) => (typeof value === 'bigint' ? `${value}n` : value))} but was pruned (${kept.toString()})`);
      }
    }
  }
  assert.ok(prunedSomething > 100, `pruning happened in ${prunedSomething} of 300 trials`);
  await cache.close();
  store.close();
});
